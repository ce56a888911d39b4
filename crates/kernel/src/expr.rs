//! The rules language's expressions and immediate actions as typed nodes, node for node those of
//! `stargazer_rules/vocabulary/expressions/` and the language's effects in
//! `stargazer_rules/vocabulary/effects/`. Types only, below the compiled rules: the game
//! evaluates and performs them (`game::expr_eval`), the compiler checks their magnitudes.
//!
//! The bindings build every node from the Python node's `word` and named fields; the kernel
//! never parses YAML. A set of Planets, seats or crews is a bit set: Planets and crews are
//! listed in ring and crew-area order (ascending bits), seats in turn order from the chooser
//! (`me`), as the Python engine lists them, so a bit set and that order give its members.

use crate::limits::{MAX_COLOURS, MAX_CREW, MAX_PLANETS, MAX_PLAYERS};

/// What a set lists: Planets (ring order), seats (turn order from the chooser) or crews
/// (crew-area order); also which member a filter binds (`this_planet`, `this_seat`, `this_crew`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    Planets,
    Seats,
    Crews,
}

/// A set of Planets, seats or crews (`SetNode`): a word or a filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Set {
    AllPlanets,
    WithRoom,
    FullPlanets,
    /// Planets that got a cube in this turn's survey.
    SurveyedPlanets,
    ThisPlanet,
    Colour(u16),
    /// For each Planet of the set, the next Planet clockwise after it with room (R4).
    NextWithRoom(Box<Set>),
    Me,
    OtherSeats,
    Everyone,
    StartPlayer,
    /// The seat after the chooser's.
    Left,
    ThisSeat,
    /// The seats of a set holding its most (`true`) or fewest VP, ties all included.
    ByVp(bool, Box<Set>),
    /// For each seat of the set, the seat to its left, the next in turn order (R4).
    LeftOf(Box<Set>),
    AllCrews,
    /// Every crew but the one whose skill resolves.
    OtherCrews,
    UnpickedCrews,
    ThisCrew,
    /// The members of a set (of the kind) for which a condition holds, each bound in turn.
    Where(SetKind, Box<Condition>, Box<Set>),
}

impl Owner {
    /// Whether whose cubes it names can depend on the Planet bound (`this_planet`).
    pub(crate) fn reads_planet(&self) -> bool {
        match self {
            Owner::Free | Owner::Anyone => false,
            Owner::Seats(set) => set.reads_planet(),
        }
    }
}

impl Set {
    /// Whether its members can depend on the Planet bound (`this_planet`): read as a yes for
    /// any filter, whose condition may read it.
    fn reads_planet(&self) -> bool {
        match self {
            Set::ThisPlanet | Set::NextWithRoom(_) | Set::Where(..) => true,
            Set::ByVp(_, of) | Set::LeftOf(of) => of.reads_planet(),
            _ => false,
        }
    }

    pub fn kind(&self) -> SetKind {
        match self {
            Set::AllPlanets
            | Set::WithRoom
            | Set::FullPlanets
            | Set::SurveyedPlanets
            | Set::ThisPlanet
            | Set::Colour(_)
            | Set::NextWithRoom(_) => SetKind::Planets,
            Set::Me
            | Set::OtherSeats
            | Set::Everyone
            | Set::StartPlayer
            | Set::Left
            | Set::ThisSeat
            | Set::ByVp(..)
            | Set::LeftOf(_) => SetKind::Seats,
            Set::AllCrews | Set::OtherCrews | Set::UnpickedCrews | Set::ThisCrew => SetKind::Crews,
            Set::Where(kind, ..) => *kind,
        }
    }
}

/// Whose cubes: a set of seats, the virtual player's free cubes (R15) or anyone's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    Free,
    Anyone,
    Seats(Set),
}

/// Where `cubes` counts: normal squares (R2), special squares (R3) or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squares {
    Normal,
    Special,
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    Sum,
    /// The first less the others.
    Difference,
    Product,
    Min,
    Max,
}

/// An integer computed from the position when the effect resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Amount {
    Number(i64),
    /// How many members a set has (`{planets: ...}`, `{seats: ...}`, `{crews: ...}`).
    Count(Set),
    /// How many colours the Planets of a set show.
    Colours(Set),
    Cubes { owner: Owner, squares: Squares, planets: Set },
    /// Free cubes (`true`) or player cubes on the crews of a set (R6, R11).
    CrewCubes(bool, Set),
    Hand(Set),
    /// VP scored during play by a set of seats (R18).
    Vp(Set),
    /// Empty normal squares on the Planets of a set.
    Room(Set),
    Round,
    Players,
    Stock,
    /// The player count's `full_planets_to_end` (R10; rules.yaml `player_counts`).
    FullPlanetsToEnd,
    Arithmetic(Arithmetic, Vec<Amount>),
    /// `most_of` (`most`) or `least_of`: the greatest or least value of the amount read once
    /// for each member of the set with it bound (the other bindings kept); 0 when it is empty.
    Extreme { most: bool, over: Set, amount: Box<Amount> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    AtLeast,
    AtMost,
    MoreThan,
    LessThan,
    Equal,
    NotEqual,
}

/// True or false of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Compare(Comparison, Amount, Amount),
    All(Vec<Condition>),
    Any(Vec<Condition>),
    Not(Box<Condition>),
    IsStartPlayer(Set),
    HasMostVp(Set),
    HasFewestVp(Set),
    /// Predicates of the bound Planet (`this_planet`).
    Full,
    HasRoom,
    SpecialHasRoom,
    Surveyed,
    IsColour(u16),
    /// A seat of the owner ranks first on the bound Planet (R15).
    RanksFirst(Owner),
    /// The bound Planet holds a cube of the owner on a normal square.
    HasCube(Owner),
    /// No worker on the bound crew (`this_crew`) this round.
    Unpicked,
}

/// Where `place_cube` puts cubes: each Planet's rearmost square (R2) or special square (R3),
/// or each crew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceOn {
    Rearmost(Set),
    Special(Set),
    Crews(Set),
}

/// An effect that asks no decision and performs at once on a scope: the body of `choose` and
/// `for_each` is a list of them, and at the top of a skill each is one pending effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// Each seat of `to` scores the amount (read once).
    GainVp { vp: Amount, to: Set },
    ChangeSurveyCount(Amount),
    /// One of the survey-rule flags (R8 lifted).
    SurveyRule(u8),
    /// `may_skip_planets`: the `SKIP` flag, and the skips allowed (None: no limit).
    SkipPlanets(Option<Amount>),
    /// `set_survey_direction`: the direction flag it leaves (`DIRECTION`, `COUNTER` or none).
    SurveyDirection(u8),
    /// Each seat of `to` loses the amount, never going below 0.
    LoseVp { vp: Amount, to: Set },
    TakeVp { vp: Amount, from: Set },
    SetSurveyCount(Amount),
    /// `return_cube`: `special` takes the cube placed last on the special square (R3) rather
    /// than the one furthest back on the track (R2).
    ReturnCube { planets: Set, owner: Owner, to_stock: bool, special: bool },
    /// `move_cube`: `special` as `return_cube`'s.
    MoveCube { planets: Set, owner: Owner, to: Set, special: bool },
    PlaceCube { owner: Owner, on: PlaceOn },
    CollectFreeCubes(Set),
    /// `take_free_cubes`: each seat of `to` takes the amount (read once) of free cubes from
    /// the stock into hand as its own, at most what the stock holds (idea R8).
    TakeFreeCubes { count: Amount, to: Set },
    /// `discard_cubes`: each seat of `from` (protected seats excepted) discards the amount
    /// (read once) of cubes from hand out of play, at most what it holds; they join its
    /// removed cubes (R6, R13).
    DiscardCubes { count: Amount, from: Set },
    ForEach { over: Set, body: Vec<Act> },
    If { condition: Condition, then: Vec<Act>, otherwise: Vec<Act> },
    /// `close_crew`: the crews of a set closed until the round ends.
    CloseCrew(Set),
    /// `protect_cubes`: the chooser's cubes out of other players' skills' reach until the
    /// turn (`PROTECTED_TURN`) or the round (`PROTECTED_ROUND`) ends.
    ProtectCubes(u8),
    /// `set_start_player` (a round's end only): the first seat of the set in turn order from
    /// the start player becomes the start player.
    SetStartPlayer(Set),
}

/// The largest magnitude an amount of the kernel computes exactly: a program whose amounts
/// could pass it is refused at compile (it runs on the Python engine, whose integers have no bound).
pub const LARGEST_AMOUNT: f64 = (1u64 << 62) as f64;

/// The most each quantity of a ruleset's game can be, which an amount's magnitude is made of
/// (`Rules::compile` fills it from the ruleset and its `Bounds`).
#[derive(Clone, Copy, Debug)]
pub struct Magnitudes {
    pub seats: f64,
    /// VP one seat holds.
    pub vp: f64,
    /// Cubes one seat has (R13).
    pub cubes: f64,
    pub free_cubes: f64,
    pub longest_track: f64,
    pub rounds: f64,
}

impl Amount {
    /// The most its value (and every partial result on the way) can be, either sign, so that
    /// the `i64` arithmetic of `Game::amount` is exact below `LARGEST_AMOUNT`.
    pub fn magnitude(&self, m: &Magnitudes) -> f64 {
        let hands = m.seats * m.cubes;
        match self {
            Amount::Number(value) => value.unsigned_abs() as f64,
            Amount::Count(_) => MAX_PLANETS.max(MAX_CREW).max(MAX_PLAYERS) as f64,
            Amount::Colours(_) => MAX_COLOURS as f64,
            Amount::Cubes { .. } | Amount::CrewCubes(..) => hands + m.free_cubes,
            Amount::Hand(_) => hands,
            Amount::Vp(_) => m.seats * m.vp,
            Amount::Room(_) => MAX_PLANETS as f64 * m.longest_track,
            Amount::Round => m.rounds,
            Amount::Players => m.seats,
            Amount::Stock => m.free_cubes,
            Amount::FullPlanetsToEnd => MAX_PLANETS as f64,
            Amount::Arithmetic(Arithmetic::Product, items) => items.iter().map(|a| a.magnitude(m).max(1.0)).product(),
            Amount::Arithmetic(Arithmetic::Min | Arithmetic::Max, items) => {
                items.iter().map(|a| a.magnitude(m)).fold(0.0, f64::max)
            }
            Amount::Arithmetic(_, items) => items.iter().map(|a| a.magnitude(m)).sum(),
            Amount::Extreme { amount, .. } => amount.magnitude(m),
        }
    }

    /// Every amount of the expression within `LARGEST_AMOUNT`, those of its filters too.
    pub fn exact(&self, m: &Magnitudes) -> bool {
        self.magnitude(m) <= LARGEST_AMOUNT
            && match self {
                Amount::Count(set) | Amount::Colours(set) | Amount::CrewCubes(_, set) => set.exact(m),
                Amount::Hand(set) | Amount::Vp(set) | Amount::Room(set) => set.exact(m),
                Amount::Cubes { owner, planets, .. } => owner.exact(m) && planets.exact(m),
                Amount::Arithmetic(_, items) => items.iter().all(|a| a.exact(m)),
                Amount::Extreme { over, amount, .. } => over.exact(m) && amount.exact(m),
                _ => true,
            }
    }
}

impl Set {
    pub(crate) fn exact(&self, m: &Magnitudes) -> bool {
        match self {
            Set::NextWithRoom(of) | Set::ByVp(_, of) | Set::LeftOf(of) => of.exact(m),
            Set::Where(_, condition, of) => condition.exact(m) && of.exact(m),
            _ => true,
        }
    }
}

impl Owner {
    fn exact(&self, m: &Magnitudes) -> bool {
        match self {
            Owner::Seats(set) => set.exact(m),
            _ => true,
        }
    }
}

impl Condition {
    pub fn exact(&self, m: &Magnitudes) -> bool {
        match self {
            Condition::Compare(_, a, b) => a.exact(m) && b.exact(m),
            Condition::All(items) | Condition::Any(items) => items.iter().all(|c| c.exact(m)),
            Condition::Not(item) => item.exact(m),
            Condition::IsStartPlayer(set) | Condition::HasMostVp(set) | Condition::HasFewestVp(set) => set.exact(m),
            Condition::RanksFirst(owner) | Condition::HasCube(owner) => owner.exact(m),
            _ => true,
        }
    }
}

impl Act {
    /// Whether the action or one it performs (its body, its branches) is `found`.
    pub fn contains(&self, found: &impl Fn(&Act) -> bool) -> bool {
        found(self)
            || match self {
                Act::ForEach { body, .. } => body.iter().any(|act| act.contains(found)),
                Act::If { then, otherwise, .. } => then.iter().chain(otherwise).any(|act| act.contains(found)),
                _ => false,
            }
    }

    /// Every amount of the action and its body within `LARGEST_AMOUNT`.
    pub fn exact(&self, m: &Magnitudes) -> bool {
        match self {
            Act::GainVp { vp, to } | Act::LoseVp { vp, to } => vp.exact(m) && to.exact(m),
            Act::ChangeSurveyCount(a) | Act::SetSurveyCount(a) => a.exact(m),
            Act::SurveyRule(_) | Act::SurveyDirection(_) | Act::SkipPlanets(None) => true,
            Act::SkipPlanets(Some(a)) => a.exact(m),
            Act::ProtectCubes(_) => true,
            Act::CloseCrew(set) | Act::SetStartPlayer(set) => set.exact(m),
            Act::TakeVp { vp, from } => vp.exact(m) && from.exact(m),
            Act::ReturnCube { planets, owner, .. } => planets.exact(m) && owner.exact(m),
            Act::MoveCube { planets, owner, to, .. } => planets.exact(m) && owner.exact(m) && to.exact(m),
            Act::PlaceCube { owner, on: PlaceOn::Rearmost(set) | PlaceOn::Special(set) | PlaceOn::Crews(set) } => {
                owner.exact(m) && set.exact(m)
            }
            Act::CollectFreeCubes(set) => set.exact(m),
            Act::TakeFreeCubes { count, to } | Act::DiscardCubes { count, from: to } => count.exact(m) && to.exact(m),
            Act::ForEach { over, body } => over.exact(m) && body.iter().all(|act| act.exact(m)),
            Act::If { condition, then, otherwise } => {
                condition.exact(m) && then.iter().chain(otherwise).all(|act| act.exact(m))
            }
        }
    }
}

/// How long a seat's cubes are protected (`State::protected`): until the turn ends, or the
/// round (the Python engine's `PROTECTED_TURN`, `PROTECTED_ROUND`).
pub const PROTECTED_TURN: u8 = 1;
pub const PROTECTED_ROUND: u8 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_amount_whose_product_could_overflow_is_not_exact() {
        let m = Magnitudes { seats: 4.0, vp: 3000.0, cubes: 12.0, free_cubes: 12.0, longest_track: 7.0, rounds: 30.0 };
        let big = Amount::Arithmetic(Arithmetic::Product, vec![Amount::Number(100); 12]);
        assert!(!big.exact(&m));
        assert!(Amount::Arithmetic(Arithmetic::Product, vec![Amount::Number(100); 4]).exact(&m));
        let vp = Amount::Vp(Set::Everyone);
        assert!(Amount::Arithmetic(Arithmetic::Product, vec![vp.clone(), vp.clone(), vp.clone()]).exact(&m));
        assert!(!Amount::Arithmetic(Arithmetic::Product, vec![vp; 5]).exact(&m));
    }
}
