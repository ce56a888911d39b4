//! The rules language evaluated and performed on a kernel `State`: a set's members, an amount,
//! a condition, and the immediate actions, as the Python engine's `Scope` reads them.

use super::{Game, scoring};
use super::scope::{bit, members, Scope, NOBODY, NO_CREW};
use crate::expr::{SetKind, Set, Owner, Squares, Arithmetic, Amount, Condition, PlaceOn, Act};
use crate::rules::{compare, SKIP, DIRECTION, COUNTER, NO_SKIP_LIMIT, most_skips, Majority};
use crate::state::{Stage, FREE_CUBE, State};
use crate::limits::MAX_PLAYERS;

/// The bit set of members 0..count (every Planet, seat or crew slot of the table).
#[inline]
fn every(count: u8) -> u16 {
    ((1u32 << count) - 1) as u16
}

/// Owners on a track as a bit set: bit 0 for the virtual player's free cubes, bit `o + 1`
/// for seat `o`.
fn owner_bit(owner: i8) -> u16 {
    1 << (owner + 1) as u16
}

/// The owners ranked first on a track as a bit set of `owner_bit`s (R15, by the ruleset's
/// majority: one owner, or every owner sharing rank 1), 0 on an empty track.
fn first_places(track: &[i8], m: &Majority) -> u16 {
    scoring::first_owners(&scoring::tally(track), MAX_PLAYERS, m)
}

/// The index of the cube furthest back on a track among the owners' (`owners` a bit set of
/// `owner_bit`s), -1 when none.
fn rearmost(track: &[i8], owners: u16) -> i32 {
    track.iter().rposition(|&o| owners & owner_bit(o) != 0).map_or(-1, |i| i as i32)
}

/// Whether an owner ranked first on a track (R15, by the ruleset's majority: under shared
/// ranks several are) is one of `owner`'s (`owners`: its `owner_bits`); an empty track has
/// nobody first.
fn ranks_first(track: &[i8], m: &Majority, owner: &Owner, owners: u16) -> bool {
    let first = first_places(track, m);
    match owner {
        Owner::Free => first & owner_bit(FREE_CUBE) != 0,
        Owner::Anyone => first & !owner_bit(FREE_CUBE) != 0,
        Owner::Seats(_) => first & !owner_bit(FREE_CUBE) & owners != 0,
    }
}

/// The members of `candidates` that `keep`, as a bit set: read lowest first, whatever the set
/// kind's order, as conditions change nothing and a bit set has no order.
#[inline]
fn kept(candidates: u16, keep: impl Fn(usize) -> bool) -> u16 {
    let (mut left, mut kept) = (candidates, 0u16);
    while left != 0 {
        let member = left.trailing_zeros() as usize;
        left &= left - 1;
        if keep(member) {
            kept |= 1 << member;
        }
    }
    kept
}

/// Whether a track holds a cube of one of `owners` (`owner_bit`s).
fn has_cube(track: &[i8], owners: u16) -> bool {
    track.iter().any(|&o| owners & owner_bit(o) != 0)
}

impl Game {
    fn colour_of(&self, s: &State, p: usize) -> u16 {
        self.rules.planets[s.planets[p] as usize].colour
    }

    fn special_room_of(&self, s: &State, p: usize) -> i32 {
        self.rules.planets[s.planets[p] as usize].special_capacity as i32 - s.special_fill[p] as i32
    }

    /// The members of a set as a bit set (ring positions, seats or crew slots). The sets a
    /// body names most (the bound member, "you", every seat or Planet) are read here, inlined
    /// where they are asked; the others in `composite_members`.
    #[inline]
    pub fn set_members(&self, s: &State, sc: &Scope, set: &Set) -> u16 {
        let one = |member: i32| if member >= 0 { 1u16 << member } else { 0 };
        match set {
            Set::ThisPlanet => one(sc.planet),
            Set::ThisSeat => one(sc.seat),
            Set::ThisCrew => bit(sc.this_crew()),
            Set::Me => bit(sc.me),
            Set::Everyone => every(s.players),
            Set::AllPlanets => every(s.planet_count),
            Set::WithRoom => s.open,
            _ => self.composite_members(s, sc, set),
        }
    }

    /// `set_members` of the sets that read more of the position, or other sets.
    fn composite_members(&self, s: &State, sc: &Scope, set: &Set) -> u16 {
        let planets = s.planet_count as usize;
        let players = s.players as usize;
        match set {
            Set::AllPlanets => every(s.planet_count),
            Set::WithRoom => s.open,
            Set::FullPlanets => every(s.planet_count) & !s.open,
            Set::SurveyedPlanets => s.surveyed as u16,
            Set::ThisPlanet | Set::ThisSeat | Set::ThisCrew | Set::Me | Set::Everyone => self.set_members(s, sc, set),
            Set::Colour(colour) => (0..planets).filter(|&p| self.colour_of(s, p) == *colour).fold(0, |m, p| m | 1 << p),
            Set::NextWithRoom(of) => {
                let mut found = 0u16;
                for p in members(self.set_members(s, sc, of), SetKind::Planets, 0, players) {
                    if let Some(q) = (1..planets).map(|k| (p + k) % planets).find(|&q| s.open & (1 << q) != 0) {
                        found |= 1 << q;
                    }
                }
                found
            }
            Set::OtherSeats => every(s.players) & !bit(sc.me),
            Set::StartPlayer => 1 << s.start_player,
            Set::Left if sc.me == NOBODY => 0,
            Set::Left => 1 << ((sc.me + 1) % players),
            Set::LeftOf(of) => {
                let every_seat = every(s.players);
                let seats = self.set_members(s, sc, of) & every_seat;
                ((seats << 1) | (seats >> (players - 1))) & every_seat
            }
            Set::ByVp(most, of) => {
                let seats = self.set_members(s, sc, of);
                let vps = members(seats, SetKind::Seats, sc.first, players).map(|seat| s.vp[seat]);
                let best = if *most { vps.max() } else { vps.min() };
                match best {
                    Some(best) => members(seats, SetKind::Seats, sc.first, players)
                        .filter(|&seat| s.vp[seat] == best)
                        .fold(0, |m, seat| m | 1 << seat),
                    None => 0,
                }
            }
            Set::AllCrews => every(s.crew_count),
            Set::OtherCrews => every(s.crew_count) & !bit(sc.crew),
            Set::UnpickedCrews => s.free_crew & every(s.crew_count),
            Set::Where(kind, condition, of) => self.members_where(s, sc, *kind, condition, self.set_members(s, sc, of)),
        }
    }

    /// The members of `candidates` (of `kind`) for which `condition` holds, each bound in
    /// turn: `holds` member by member, as bit sets where it can. Conditions change nothing, so
    /// `all` narrows the candidates item by item, `any` tries each item on the members not yet
    /// kept, and on Planets a seat set that reads no Planet is read once, not once per Planet.
    fn members_where(&self, s: &State, sc: &Scope, kind: SetKind, condition: &Condition, candidates: u16) -> u16 {
        if candidates == 0 {
            return 0;
        }
        match (kind, condition) {
            (_, Condition::All(items)) => items.iter().fold(candidates, |left, item| self.members_where(s, sc, kind, item, left)),
            (_, Condition::Any(items)) => {
                items.iter().fold(0, |kept, item| kept | self.members_where(s, sc, kind, item, candidates & !kept))
            }
            (_, Condition::Not(item)) => candidates & !self.members_where(s, sc, kind, item, candidates),
            (SetKind::Planets, Condition::Full) => candidates & !s.open,
            (SetKind::Planets, Condition::HasRoom) => candidates & s.open,
            (SetKind::Planets, Condition::Surveyed) => candidates & s.surveyed as u16,
            (SetKind::Planets, Condition::HasCube(owner)) if !owner.reads_planet() => {
                let owners = self.owner_bits(s, sc, owner);
                kept(candidates, |p| has_cube(s.track(p), owners))
            }
            (SetKind::Planets, Condition::RanksFirst(owner)) if !owner.reads_planet() => {
                let owners = self.owner_bits(s, sc, owner);
                kept(candidates, |p| ranks_first(s.track(p), &self.rules.majority, owner, owners))
            }
            (SetKind::Crews, Condition::Unpicked) => kept(candidates, |slot| s.workers[slot] < 0),
            _ => kept(candidates, |member| self.holds(s, &sc.bind(kind, member), condition)),
        }
    }

    /// The owners an `owner` names, as `owner_bit`s.
    fn owner_bits(&self, s: &State, sc: &Scope, owner: &Owner) -> u16 {
        match owner {
            Owner::Free => owner_bit(FREE_CUBE),
            Owner::Anyone => u16::MAX,
            Owner::Seats(set) => self.set_members(s, sc, set) << 1,
        }
    }

    /// The owners a skill resolving for `me` may not move (`protect_cubes`): every protected
    /// seat but `me`, as `owner_bit`s.
    #[inline]
    fn shielded(&self, s: &State, me: usize) -> u16 {
        if s.protected == [0; MAX_PLAYERS] {
            return 0; // nobody protected: the usual case, one compare
        }
        (0..s.players as usize)
            .filter(|&seat| seat != me && s.protected[seat] != 0)
            .fold(0, |m, seat| m | owner_bit(seat as i8))
    }

    /// The owners an `owner` names whose cubes a skill resolving for `sc.me` may move.
    fn movable_bits(&self, s: &State, sc: &Scope, owner: &Owner) -> u16 {
        self.owner_bits(s, sc, owner) & !self.shielded(s, sc.me)
    }

    /// The crews of `crews` that `close_crew` closes now, as a bit set: open ones (no worker,
    /// not closed) in crew-area order, while the open crews left still cover the turns left
    /// in the round after this one (R5, R9); before the first round (setup steps) every
    /// player's pick is still to come.
    fn closing(&self, s: &State, sc: &Scope, crews: &Set) -> u16 {
        let turns_left = if s.stage == Stage::Setup { s.players as i64 } else { s.players as i64 - s.turn as i64 - 1 };
        if turns_left < 0 {
            return 0;
        }
        let open = s.free_crew & !s.closed;
        let mut left = open.count_ones() as i64;
        let mut closing = 0u16;
        for slot in members(self.set_members(s, sc, crews), SetKind::Crews, 0, 0) {
            if open & (1 << slot) != 0 && left > turns_left {
                closing |= 1 << slot;
                left -= 1;
            }
        }
        closing
    }

    /// An amount's value now: a number or a count the state keeps read inline where it is
    /// asked, any other in `composite_amount`.
    #[inline]
    pub fn amount(&self, s: &State, sc: &Scope, amount: &Amount) -> i64 {
        match amount {
            Amount::Number(value) => *value,
            Amount::Round => s.round as i64,
            Amount::Players => s.players as i64,
            Amount::Stock => s.stock as i64,
            _ => self.composite_amount(s, sc, amount),
        }
    }

    fn composite_amount(&self, s: &State, sc: &Scope, amount: &Amount) -> i64 {
        let positions = |set: &Set| {
            let mask = self.set_members(s, sc, set);
            members(mask, set.kind(), sc.first, s.players as usize)
        };
        match amount {
            Amount::Number(value) => *value,
            Amount::Count(set) => self.set_members(s, sc, set).count_ones() as i64,
            Amount::Colours(set) => {
                let colours = positions(set).fold(0u32, |m, p| m | 1 << self.colour_of(s, p));
                colours.count_ones() as i64
            }
            Amount::Cubes { owner, squares, planets } => {
                let owners = self.owner_bits(s, sc, owner);
                let mut total = 0i64;
                for p in positions(planets) {
                    let normal: &[i8] = if *squares == Squares::Special { &[] } else { s.track(p) };
                    let special: &[i8] = if *squares == Squares::Normal { &[] } else { s.special(p) };
                    total += normal.iter().chain(special).filter(|&&o| owners & owner_bit(o) != 0).count() as i64;
                }
                total
            }
            Amount::CrewCubes(free, crews) => positions(crews)
                .map(|slot| {
                    if *free {
                        s.crew_free[slot] as i64
                    } else {
                        s.crew_cubes[slot].iter().map(|&c| c as i64).sum::<i64>()
                    }
                })
                .sum(),
            Amount::Hand(seats) => positions(seats).map(|seat| s.hands[seat] as i64).sum(),
            Amount::Vp(seats) => positions(seats).map(|seat| s.vp[seat] as i64).sum(),
            Amount::Room(planets) => positions(planets).map(|p| s.rooms[p] as i64).sum(),
            Amount::Round => s.round as i64,
            Amount::Players => s.players as i64,
            Amount::Stock => s.stock as i64,
            Amount::FullPlanetsToEnd => self.rules.setup_counts(s.players as usize).map_or(0, |c| c.full_planets_to_end as i64),
            Amount::Arithmetic(op, items) => {
                let mut values = items.iter().map(|item| self.amount(s, sc, item));
                let first = values.next().unwrap_or(0);
                match op {
                    Arithmetic::Sum => first + values.sum::<i64>(),
                    Arithmetic::Difference => first - values.sum::<i64>(),
                    Arithmetic::Product => values.fold(first, |p, v| p * v),
                    Arithmetic::Min => values.fold(first, i64::min),
                    Arithmetic::Max => values.fold(first, i64::max),
                }
            }
            Amount::Extreme { most, over, amount } => {
                let kind = over.kind();
                let values = positions(over).map(|member| self.amount(s, &sc.bind(kind, member), amount));
                let best = if *most { values.max() } else { values.min() };
                best.unwrap_or(0)
            }
        }
    }

    /// Whether a condition holds now.
    pub fn holds(&self, s: &State, sc: &Scope, condition: &Condition) -> bool {
        let p = sc.planet.max(0) as usize;
        match condition {
            Condition::Compare(op, a, b) => compare(*op, self.amount(s, sc, a), self.amount(s, sc, b)),
            Condition::All(items) => items.iter().all(|c| self.holds(s, sc, c)),
            Condition::Any(items) => items.iter().any(|c| self.holds(s, sc, c)),
            Condition::Not(item) => !self.holds(s, sc, item),
            Condition::IsStartPlayer(seats) => self.set_members(s, sc, seats) & (1 << s.start_player) != 0,
            Condition::HasMostVp(seats) | Condition::HasFewestVp(seats) => {
                let vp = &s.vp[..s.players as usize];
                let most = matches!(condition, Condition::HasMostVp(_));
                let best = if most { vp.iter().max() } else { vp.iter().min() }.copied().unwrap_or(0);
                let mask = self.set_members(s, sc, seats);
                (0..vp.len()).any(|seat| mask & (1 << seat) != 0 && vp[seat] == best)
            }
            Condition::Full => s.rooms[p] == 0,
            Condition::HasRoom => s.rooms[p] > 0,
            Condition::SpecialHasRoom => self.special_room_of(s, p) > 0,
            Condition::Surveyed => s.surveyed & (1 << p) != 0,
            Condition::IsColour(colour) => self.colour_of(s, p) == *colour,
            Condition::RanksFirst(owner) => ranks_first(s.track(p), &self.rules.majority, owner, self.owner_bits(s, sc, owner)),
            Condition::HasCube(owner) => has_cube(s.track(p), self.owner_bits(s, sc, owner)),
            Condition::Unpicked => sc.this_crew() != NO_CREW && s.workers[sc.this_crew()] < 0,
        }
    }

    /// Whether performing `act` would change anything (Python: `Effect.can_perform`); an
    /// immediate effect that cannot is skipped (R9). The acts that always can are answered
    /// inline where they are asked, the others in `checked_can_perform`.
    #[inline]
    pub fn can_perform(&self, s: &State, sc: &Scope, act: &Act) -> bool {
        match act {
            Act::GainVp { .. }
            | Act::ChangeSurveyCount(_)
            | Act::SurveyRule(_)
            | Act::SkipPlanets(_)
            | Act::SurveyDirection(_)
            | Act::LoseVp { .. }
            | Act::SetSurveyCount(_)
            | Act::ForEach { .. }
            | Act::If { .. } => true,
            _ => self.checked_can_perform(s, sc, act),
        }
    }

    fn checked_can_perform(&self, s: &State, sc: &Scope, act: &Act) -> bool {
        match act {
            // Nobody is "you" (a planet ability): nobody takes, scores the bonus or is protected.
            Act::TakeVp { .. } | Act::CollectFreeCubes(_) | Act::ProtectCubes(_) if sc.me == NOBODY => false,
            Act::TakeVp { from, .. } => {
                members(self.set_members(s, sc, from), SetKind::Seats, sc.first, s.players as usize)
                    .any(|seat| seat != sc.me && s.vp[seat] > 0)
            }
            Act::ReturnCube { planets, owner, special, .. } => {
                let owners = self.movable_bits(s, sc, owner);
                members(self.set_members(s, sc, planets), SetKind::Planets, 0, 0).any(|p| rearmost(s.cubes_on(p, *special), owners) >= 0)
            }
            Act::MoveCube { planets, owner, to, special } => {
                let owners = self.movable_bits(s, sc, owner);
                members(self.set_members(s, sc, planets), SetKind::Planets, 0, 0)
                    .any(|p| rearmost(s.cubes_on(p, *special), owners) >= 0 && self.destination(s, sc, to, p).is_some())
            }
            Act::PlaceCube { owner, on } => self.any_placement(s, sc, owner, on),
            Act::CollectFreeCubes(crews) => {
                members(self.set_members(s, sc, crews), SetKind::Crews, 0, 0).any(|slot| s.crew_free[slot] > 0)
            }
            Act::CloseCrew(crews) => self.closing(s, sc, crews) != 0,
            Act::ProtectCubes(until) => s.protected[sc.me] < *until,
            Act::TakeFreeCubes { count, to } => {
                s.stock > 0 && self.set_members(s, sc, to) != 0 && self.amount(s, sc, count) > 0
            }
            Act::SetStartPlayer(seats) => self.set_members(s, sc, seats) != 0,
            Act::DiscardCubes { count, from } => {
                members(self.discarding(s, sc, from), SetKind::Seats, sc.first, s.players as usize).any(|seat| s.hands[seat] > 0)
                    && self.amount(s, sc, count) > 0
            }
            _ => true,
        }
    }

    /// `move_cube`'s destination for a cube leaving Planet `p`: the first Planet of `to` (read
    /// with `this_planet` bound to `p`) with room, `p` excepted.
    fn destination(&self, s: &State, sc: &Scope, to: &Set, p: usize) -> Option<usize> {
        let mask = self.set_members(s, &sc.bind(SetKind::Planets, p), to);
        members(mask, SetKind::Planets, 0, 0).find(|&q| q != p && s.rooms[q] > 0)
    }

    /// Perform the acts of a body in order, each only when it can change anything.
    pub fn perform_all(&self, s: &mut State, sc: &Scope, acts: &[Act]) {
        for act in acts {
            if self.can_perform(s, sc, act) {
                self.perform(s, sc, act);
            }
        }
    }

    /// Perform one act (Python: `Effect.perform`).
    pub fn perform(&self, s: &mut State, sc: &Scope, act: &Act) {
        let me = sc.me;
        let players = s.players as usize;
        match act {
            // A gain below 0 gives nothing; VP never drop below 0.
            Act::GainVp { vp, to } => {
                let amount = self.amount(s, sc, vp).max(0) as i32;
                for seat in members(self.set_members(s, sc, to), SetKind::Seats, sc.first, players) {
                    s.vp[seat] += amount;
                }
            }
            Act::ChangeSurveyCount(delta) => s.survey_bonus += self.amount(s, sc, delta) as i32,
            Act::SurveyRule(flag) => s.survey_rules |= flag,
            Act::SkipPlanets(limit) => {
                s.survey_rules |= SKIP;
                s.survey_skips = match limit {
                    None => NO_SKIP_LIMIT,
                    // Kept within what a survey could pass over (Python's `effects.skip_limit`).
                    Some(a) => {
                        let most = most_skips(self.rules.knobs.cubes_per_player as i64, s.planet_count as usize);
                        self.amount(s, sc, a).clamp(0, most) as i32
                    }
                };
            }
            Act::SurveyDirection(flag) => s.survey_rules = (s.survey_rules & !(DIRECTION | COUNTER)) | flag,
            Act::LoseVp { vp, to } => {
                let amount = self.amount(s, sc, vp).max(0);
                for seat in members(self.set_members(s, sc, to), SetKind::Seats, sc.first, players) {
                    s.vp[seat] -= amount.min(s.vp[seat] as i64) as i32;
                }
            }
            Act::TakeVp { vp, from } => {
                let amount = self.amount(s, sc, vp).max(0);
                let victims = self.set_members(s, sc, from);
                for seat in members(victims, SetKind::Seats, sc.first, players).filter(|&seat| seat != me) {
                    let taken = amount.min(s.vp[seat] as i64) as i32;
                    s.vp[seat] -= taken;
                    s.vp[me] += taken;
                }
            }
            Act::SetSurveyCount(count) => {
                // R7: the count becomes the amount, whatever the crew prints.
                let printed = self.rules.crew[s.crew[sc.crew] as usize].survey_count as i64;
                s.survey_bonus = (self.amount(s, sc, count) - printed) as i32;
            }
            Act::ReturnCube { planets, owner, to_stock, special } => {
                let owners = self.movable_bits(s, sc, owner);
                for p in members(self.set_members(s, sc, planets), SetKind::Planets, 0, 0) {
                    let index = rearmost(s.cubes_on(p, *special), owners);
                    if index < 0 {
                        continue;
                    }
                    match self.take_cube(s, p, index as usize, *special) {
                        FREE_CUBE => s.stock += 1,
                        // To the stock a player's cube leaves play, as R6's removed cubes do.
                        seat if *to_stock => s.removed[seat as usize] += 1,
                        seat => s.hands[seat as usize] += 1,
                    }
                }
            }
            Act::MoveCube { planets, owner, to, special } => {
                let owners = self.movable_bits(s, sc, owner);
                for p in members(self.set_members(s, sc, planets), SetKind::Planets, 0, 0) {
                    let index = rearmost(s.cubes_on(p, *special), owners);
                    if index < 0 {
                        continue;
                    }
                    // The destination is read before the cube leaves.
                    if let Some(target) = self.destination(s, sc, to, p) {
                        let cube = self.take_cube(s, p, index as usize, *special);
                        self.place_on_track(s, target, cube);
                    }
                }
            }
            Act::PlaceCube { owner, on } => self.place_cubes(s, sc, owner, on),
            Act::CollectFreeCubes(crews) => {
                // R6: the motivation bonus for free cubes, which go back to the stock.
                for slot in members(self.set_members(s, sc, crews), SetKind::Crews, 0, 0) {
                    let free = s.crew_free[slot];
                    if free > 0 {
                        s.stock += free;
                        s.crew_free[slot] = 0;
                        s.vp[me] += free * self.rules.knobs.free_cube_vp;
                    }
                }
            }
            Act::TakeFreeCubes { count, to } => {
                let amount = self.amount(s, sc, count).max(0);
                for seat in members(self.set_members(s, sc, to), SetKind::Seats, sc.first, players) {
                    let taken = amount.min(s.stock as i64) as i32;
                    s.stock -= taken;
                    s.hands[seat] += taken;
                    s.taken[seat] += taken;
                }
            }
            Act::DiscardCubes { count, from } => {
                let amount = self.amount(s, sc, count).max(0);
                for seat in members(self.discarding(s, sc, from), SetKind::Seats, sc.first, players) {
                    let discarded = amount.min(s.hands[seat] as i64) as i32;
                    s.hands[seat] -= discarded;
                    s.removed[seat] += discarded;
                }
            }
            Act::ForEach { over, body } => {
                let kind = over.kind();
                for member in members(self.set_members(s, sc, over), kind, sc.first, players) {
                    self.perform_all(s, &sc.bind(kind, member), body);
                }
            }
            Act::If { condition, then, otherwise } => {
                let branch = if self.holds(s, sc, condition) { then } else { otherwise };
                self.perform_all(s, sc, branch);
            }
            Act::CloseCrew(crews) => s.closed |= self.closing(s, sc, crews),
            Act::ProtectCubes(until) => s.protected[me] = *until,
            Act::SetStartPlayer(seats) => {
                let first = s.start_player as usize;
                if let Some(seat) = members(self.set_members(s, sc, seats), SetKind::Seats, first, players).next() {
                    s.start_player = seat as u8;
                }
            }
        }
    }

    /// `discard_cubes`' seats: those of `from`, less the seats protected from other players'
    /// skills (`protect_cubes`), as `place_cube`'s owners.
    fn discarding(&self, s: &State, sc: &Scope, from: &Set) -> u16 {
        self.set_members(s, sc, from) & !(self.shielded(s, sc.me) >> 1)
    }

    /// `place_cube`'s owners: the seats of a set in turn order from the chooser, or the
    /// virtual player (a free cube from the stock).
    /// An iterator that can be cloned to list them again (no list is built).
    fn placing_owners(&self, s: &State, sc: &Scope, owner: &Owner) -> impl Iterator<Item = i8> + Clone {
        let seats = match owner {
            // Protected seats' cubes (protect_cubes) stay in their hands.
            Owner::Seats(set) => self.set_members(s, sc, set) & !(self.shielded(s, sc.me) >> 1),
            Owner::Free | Owner::Anyone => 0,
        };
        let free = matches!(owner, Owner::Free).then_some(FREE_CUBE);
        free.into_iter().chain(members(seats, SetKind::Seats, sc.first, s.players as usize).map(|o| o as i8))
    }

    /// `place_cube`'s targets, Planets or crews, as a bit set in their order.
    fn placing_targets(&self, s: &State, sc: &Scope, on: &PlaceOn) -> (u16, SetKind) {
        match on {
            PlaceOn::Rearmost(set) | PlaceOn::Special(set) => (self.set_members(s, sc, set), SetKind::Planets),
            PlaceOn::Crews(set) => (self.set_members(s, sc, set), SetKind::Crews),
        }
    }

    /// Whether `cube`'s owner has a cube to place (a free cube: the stock) and `target` room
    /// for it.
    fn can_place(&self, s: &State, cube: i8, target: usize, on: &PlaceOn) -> bool {
        let free = cube == FREE_CUBE;
        if (if free { s.stock } else { s.hands[cube as usize] }) <= 0 {
            return false;
        }
        let room = match on {
            PlaceOn::Rearmost(_) => s.rooms[target] as i32,
            PlaceOn::Special(_) => self.special_room_of(s, target),
            // R11: free cubes on a crew stay within the cap.
            PlaceOn::Crews(_) if free => self.rules.max_free_cubes_per_crew - s.crew_free[target],
            PlaceOn::Crews(_) => 1,
        };
        room > 0
    }

    /// Whether `place_cube` would place a cube: some owner with a cube to place onto some
    /// target with room for it (`can_place` of a pair). A target's room is the same whichever
    /// seat places, so owners and targets are read apart, as bit sets.
    fn any_placement(&self, s: &State, sc: &Scope, owner: &Owner, on: &PlaceOn) -> bool {
        let (targets, _) = self.placing_targets(s, sc, on);
        if targets == 0 {
            return false;
        }
        let free = matches!(owner, Owner::Free) && s.stock > 0;
        let seats = match owner {
            // Protected seats' cubes (protect_cubes) stay in their hands.
            Owner::Seats(set) => self.set_members(s, sc, set) & !(self.shielded(s, sc.me) >> 1) & every(s.players),
            Owner::Free | Owner::Anyone => 0,
        };
        let seat_cube = kept(seats, |seat| s.hands[seat] > 0) != 0;
        match on {
            PlaceOn::Rearmost(_) => (free || seat_cube) && kept(targets, |p| s.rooms[p] > 0) != 0,
            PlaceOn::Special(_) => (free || seat_cube) && kept(targets, |p| self.special_room_of(s, p) > 0) != 0,
            // R11: free cubes on a crew stay within the cap; a seat's cube always has room.
            PlaceOn::Crews(_) => seat_cube || (free && kept(targets, |slot| self.rules.max_free_cubes_per_crew > s.crew_free[slot]) != 0),
        }
    }

    /// `place_cube`: one cube of each owner onto each target with room, targets in their
    /// set's order and owners in theirs, both read once before the first cube moves.
    fn place_cubes(&self, s: &mut State, sc: &Scope, owner: &Owner, on: &PlaceOn) {
        let owners = self.placing_owners(s, sc, owner);
        let (targets, kind) = self.placing_targets(s, sc, on);
        for target in members(targets, kind, 0, 0) {
            for cube in owners.clone() {
                if !self.can_place(s, cube, target, on) {
                    continue;
                }
                let free = cube == FREE_CUBE;
                if free {
                    s.stock -= 1;
                } else {
                    s.hands[cube as usize] -= 1;
                }
                match on {
                    PlaceOn::Crews(_) if free => s.crew_free[target] += 1,
                    PlaceOn::Crews(_) => s.crew_cubes[target][cube as usize] += 1,
                    PlaceOn::Special(_) => self.place_on_special(s, target, cube),
                    PlaceOn::Rearmost(_) => self.place_on_track(s, target, cube),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ties;

    #[test]
    fn r15_first_place_is_the_most_cubes_then_the_first_cube_further_back() {
        let r15 = Majority::default();
        assert_eq!(first_places(&[], &r15), 0);
        assert_eq!(first_places(&[0, 1, 1], &r15), owner_bit(1));
        assert_eq!(first_places(&[0, 1], &r15), owner_bit(1));
        assert_eq!(first_places(&[-1, -1, 2], &r15), owner_bit(-1));
    }

    #[test]
    fn ranks_first_follows_the_majority_tie_rule() {
        // One cube each: further forward ranks seat 0 first; shared ranks both first.
        let forward = Majority { ties: Ties::FurtherForward, ..Majority::default() };
        assert_eq!(first_places(&[0, 1], &forward), owner_bit(0));
        let shared = Majority { ties: Ties::Shared, ..Majority::default() };
        assert_eq!(first_places(&[0, 1], &shared), owner_bit(0) | owner_bit(1));
        // Free cubes left out of the ranking never rank first.
        let no_virtual = Majority { free_cubes_take_a_row: false, ..Majority::default() };
        assert_eq!(first_places(&[-1, -1, 2], &no_virtual), owner_bit(2));
    }

}
