//! What happens at a round's end and when the game ends (R10, R11): the crews nobody picked, the
//! end conditions and the score sheet's lines of their own, as received.

use super::PlayerCount;
use crate::expr::{SetKind, Set, Amount, Comparison, Condition};
use crate::limits::MAX_PLAYERS;

/// The most end conditions and scoring lines a ruleset holds: declared in the contract.
pub use crate::contract::{MOST_END_TRIGGERS, MOST_SCORING_LINES};

/// What each crew nobody picked receives at a round's end when the game goes on (R11; rules.yaml
/// `round_end.unpicked_crews`): `free_cubes`, an amount read with `this_crew` bound to the crew
/// and nobody as "you"; at least 0, at most what the stock holds and what
/// `max_free_cubes_per_crew` (Python's cap, or every free cube when there is none) leaves.
/// `replaced` (`at_cap: replaced`): such a crew holding the cap's number once every crew has
/// received leaves the crew area, and the first card of the state's queue takes its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpickedCrews {
    pub free_cubes: Amount,
    pub replaced: bool,
}

impl Default for UnpickedCrews {
    /// Draft 7's one free cube, for the specs the kernel's own tests write (the bindings always send it).
    fn default() -> Self {
        UnpickedCrews { free_cubes: Amount::Number(1), replaced: false }
    }
}

/// The game's end (R10; rules.yaml `end`): each condition, in file order, with the id the log
/// and the state name it by; read at the end of each round with nobody as "you". The round
/// limit (`max_rounds`) comes after them as `round_limit`. A state's `triggers` holds bit i for
/// the i-th condition and bit `triggers.len()` for the round limit, so at most 7 conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub triggers: Vec<EndTrigger>,
}

/// One condition of the game's end and its trigger id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndTrigger {
    pub id: String,
    pub condition: Condition,
}

/// One line of its own on the score sheet (rules.yaml `end_scoring`; docs/rules.md,
/// "End-of-game scoring lines"): its id and its VP, an amount read for each seat with
/// this_seat bound to it and nobody as "you", from the position as it stands (below 0 when the
/// amount is), added to R18's total and never to the VP of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringLine {
    pub id: String,
    pub vp: Amount,
}


/// The round limit's trigger id, after the ruleset's end conditions (docs/rules.md, "Round limit").
pub const ROUND_LIMIT_NAME: &str = "round_limit";

impl Default for End {
    /// Draft 7's two (a rules.yaml without `end`), for the specs the kernel's own tests write
    /// (the bindings always send it): a player has no cubes left; the full Planets reach the
    /// player count's `full_planets_to_end`.
    fn default() -> Self {
        let hand_empty = Condition::Compare(Comparison::Equal, Amount::Hand(Set::ThisSeat), Amount::Number(0));
        let empty_hands = Set::Where(SetKind::Seats, Box::new(hand_empty), Box::new(Set::Everyone));
        End {
            triggers: vec![
                EndTrigger {
                    id: "hand_empty".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(empty_hands), Amount::Number(1)),
                },
                EndTrigger {
                    id: "planets_full".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(Set::FullPlanets), Amount::FullPlanetsToEnd),
                },
            ],
        }
    }
}

/// An end condition as the kernel checks it at every round's end: a comparison of two amounts
/// recognised when the ruleset is compiled (draft 7's two conditions and the like), each read
/// from what the state keeps (a popcount of the open Planets, the hands) rather than through
/// the language's sets and scopes; any other condition is evaluated as written. Both give the
/// same truth on every state (`end_checks_agree_with_the_conditions` below).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndCheck {
    /// `{at_least: [{seats: {where: {OP: [{hand: this_seat}, k]}}}, 1]}` (or `more_than` 0): some
    /// seat's hand compares so (draft 7's `hand_empty`: equal to 0).
    SomeHand(Comparison, i64),
    /// `{OP: [{planets: full}, n]}`: the full Planets counted against a recognised amount
    /// (draft 7's `planets_full`: at least `full_planets_to_end`).
    FullPlanets(Comparison, EndAmount),
    Compare(Comparison, EndAmount, EndAmount),
    Evaluated(Condition),
}

/// An amount of a recognised end condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndAmount {
    Number(i64),
    /// The player count's `full_planets_to_end`, by player count (0 for a count with no setup).
    FullPlanetsToEnd([i64; MAX_PLAYERS + 1]),
    /// `{planets: full}` counted: the Planets of the ring with no empty normal square.
    FullPlanets,
    /// `{planets: with_room}` counted.
    PlanetsWithRoom,
    /// `{seats: {where: {OP: [{hand: this_seat}, k]}}}` counted, over every seat.
    SeatsWithHand(Comparison, i64),
    Stock,
    Round,
    Players,
    /// Any other amount, evaluated with nobody as "you".
    Evaluated(Amount),
}

impl EndCheck {
    /// The check of one end condition: its fast form when it is a comparison of recognised
    /// amounts; `setups` gives `full_planets_to_end` by player count.
    pub fn of(condition: &Condition, setups: &[PlayerCount]) -> EndCheck {
        let Condition::Compare(op, a, b) = condition else { return EndCheck::Evaluated(condition.clone()) };
        match (op, EndAmount::of(a, setups), EndAmount::of(b, setups)) {
            (Comparison::AtLeast, EndAmount::SeatsWithHand(hand, k), EndAmount::Number(1))
            | (Comparison::MoreThan, EndAmount::SeatsWithHand(hand, k), EndAmount::Number(0)) => EndCheck::SomeHand(hand, k),
            (op, EndAmount::FullPlanets, b) if !matches!(b, EndAmount::Evaluated(_)) => EndCheck::FullPlanets(*op, b),
            (op, a, b) => EndCheck::Compare(*op, a, b),
        }
    }
}

impl EndAmount {
    fn of(amount: &Amount, setups: &[PlayerCount]) -> EndAmount {
        match amount {
            Amount::Number(n) => EndAmount::Number(*n),
            Amount::FullPlanetsToEnd => {
                let mut by_players = [0; MAX_PLAYERS + 1];
                for setup in setups.iter().filter(|setup| setup.players <= MAX_PLAYERS) {
                    by_players[setup.players] = setup.full_planets_to_end as i64;
                }
                EndAmount::FullPlanetsToEnd(by_players)
            }
            Amount::Count(Set::FullPlanets) => EndAmount::FullPlanets,
            Amount::Count(Set::WithRoom) => EndAmount::PlanetsWithRoom,
            Amount::Count(Set::Where(SetKind::Seats, condition, of)) if **of == Set::Everyone => match &**condition {
                Condition::Compare(op, Amount::Hand(Set::ThisSeat), Amount::Number(k)) => EndAmount::SeatsWithHand(*op, *k),
                _ => EndAmount::Evaluated(amount.clone()),
            },
            Amount::Stock => EndAmount::Stock,
            Amount::Round => EndAmount::Round,
            Amount::Players => EndAmount::Players,
            other => EndAmount::Evaluated(other.clone()),
        }
    }
}

/// Whether `a op b`: the one reading of a comparison, for conditions and the end checks alike.
#[inline]
pub fn compare(op: Comparison, a: i64, b: i64) -> bool {
    match op {
        Comparison::AtLeast => a >= b,
        Comparison::AtMost => a <= b,
        Comparison::MoreThan => a > b,
        Comparison::LessThan => a < b,
        Comparison::Equal => a == b,
        Comparison::NotEqual => a != b,
    }
}

impl End {
    /// The round limit's bit in a state's `triggers`.
    pub fn round_limit(&self) -> u8 {
        1 << self.triggers.len()
    }

    /// Every trigger's bit and id, in the order the log names them: the conditions, then the round limit.
    pub fn names(&self) -> impl Iterator<Item = (u8, &str)> {
        self.triggers.iter().enumerate().map(|(i, t)| (1u8 << i, t.id.as_str())).chain(std::iter::once((self.round_limit(), ROUND_LIMIT_NAME)))
    }

    /// The bit of a trigger id, None when the ruleset has no such trigger.
    pub fn flag(&self, id: &str) -> Option<u8> {
        self.names().find(|(_, name)| *name == id).map(|(flag, _)| flag)
    }

    /// The ids of the bits set in `triggers`, in their order.
    pub fn named(&self, triggers: u8) -> Vec<&str> {
        self.names().filter(|(flag, _)| triggers & flag != 0).map(|(_, name)| name).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draft_7s_end_conditions_are_recognised_and_read_no_expression() {
        let setups = [PlayerCount { players: 3, planets: 5, crew: 4, full_planets_to_end: 3 }, PlayerCount { players: 4, planets: 7, crew: 5, full_planets_to_end: 4 }];
        let mut full = [0; MAX_PLAYERS + 1];
        (full[3], full[4]) = (3, 4);
        let checks: Vec<EndCheck> = End::default().triggers.iter().map(|t| EndCheck::of(&t.condition, &setups)).collect();
        assert_eq!(
            checks,
            [EndCheck::SomeHand(Comparison::Equal, 0), EndCheck::FullPlanets(Comparison::AtLeast, EndAmount::FullPlanetsToEnd(full))]
        );
        // Anything else is evaluated as written.
        let vp = Condition::Compare(Comparison::AtLeast, Amount::Vp(Set::Everyone), Amount::Number(40));
        assert_eq!(EndCheck::of(&vp, &setups), EndCheck::Compare(Comparison::AtLeast, EndAmount::Evaluated(Amount::Vp(Set::Everyone)), EndAmount::Number(40)));
        let not = Condition::Not(Box::new(vp));
        assert_eq!(EndCheck::of(&not, &setups), EndCheck::Evaluated(not.clone()));
    }
}
