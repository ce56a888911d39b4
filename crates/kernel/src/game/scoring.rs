//! Scoring (R15-R18) on a kernel state: each seat's majority VP, major-planet bonus, VP from
//! play, the lines of `end_scoring` and total, and the winners; the numbers of the Python engine's score sheet and of
//! `scoring.provisional_totals`, mid-game as at the end.

use super::scope::Scope;
use super::walks;
use super::Game;
use crate::expr::SetKind;
use crate::rules::{Majority, Ties, MOST_SCORING_LINES};
use crate::state::State;
use crate::limits::{MAX_COLOURS, MAX_PLAYERS};
use smallvec::SmallVec;

/// One seat's line of the sheet; `lines` the VP of each line of `end_scoring`, in file order
/// (0 past the ruleset's lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTotals {
    pub majority: i32,
    pub bonus: i32,
    pub play: i32,
    pub lines: [i32; MOST_SCORING_LINES],
    pub total: i32,
    pub hand: i32,
}

/// Each seat's VP of each line of `end_scoring`.
type LineVp = [[i32; MOST_SCORING_LINES]; MAX_PLAYERS];

/// The owners of a track's cubes: cube count and first (lowest) square number per owner, the
/// virtual player at index 0 and seat `s` at `s + 1`.
#[derive(Clone, Copy)]
pub(crate) struct Tally {
    counts: [u16; MAX_PLAYERS + 1],
    first: [u16; MAX_PLAYERS + 1],
}

pub(crate) fn tally(track: &[i8]) -> Tally {
    let mut t = Tally { counts: [0; MAX_PLAYERS + 1], first: [0; MAX_PLAYERS + 1] };
    for (square, &owner) in track.iter().enumerate() {
        let o = (owner + 1) as usize;
        if t.counts[o] == 0 {
            t.first[o] = square as u16 + 1;
        }
        t.counts[o] += 1;
    }
    t
}

// A seat is below MAX_PLAYERS, so `seat & (MAX_PLAYERS - 1)` is the seat: an index with no bounds check.
const _: () = assert!(MAX_PLAYERS.is_power_of_two());

/// Each seat's cubes among a Planet's counted squares (free cubes count for nobody).
#[inline]
fn owned_by_seat(track: &[i8], special: &[i8]) -> [u16; MAX_PLAYERS] {
    let mut owned = [0u16; MAX_PLAYERS];
    for squares in [track, special] {
        for &owner in squares {
            if owner >= 0 {
                owned[owner as usize & (MAX_PLAYERS - 1)] += 1;
            }
        }
    }
    owned
}

/// R15: the owners of `t` (index 0 the virtual player, `s + 1` seat `s`) with their ranks, best
/// first, by `m.ties`: most cubes first, equal counts to the owner whose first cube stands
/// further back (or forward), or sharing the better rank; the virtual player only when free
/// cubes take a row. One key per owner (count, first square or its mirror, owner; tracks hold
/// at most 1024 squares, so count and square fit 11 bits each), sorted descending by an
/// insertion sort: a track has at most players + 1 owners.
pub(crate) fn ranking(t: &Tally, players: usize, m: &Majority) -> ([(u8, u8); MAX_PLAYERS + 1], usize) {
    let mut keys = [0u32; MAX_PLAYERS + 1];
    let mut ranked = 0;
    let from = if m.free_cubes_take_a_row { 0 } else { 1 };
    for o in from..=players {
        if t.counts[o] > 0 {
            insert_descending(&mut keys, ranked, ranking_key(t, o, m));
            ranked += 1;
        }
    }
    let mut order = [(0u8, 0u8); MAX_PLAYERS + 1];
    for place in 0..ranked {
        let tied = place > 0 && m.ties == Ties::Shared && keys[place - 1] >> 15 == keys[place] >> 15;
        let rank = if tied { order[place - 1].1 } else { place as u8 + 1 };
        order[place] = ((keys[place] & 0xF) as u8, rank);
    }
    (order, ranked)
}

/// An owner's key in `ranking`: the greater key ranks better.
#[inline]
fn ranking_key(t: &Tally, o: usize, m: &Majority) -> u32 {
    let square = if m.ties == Ties::FurtherForward { 2047 - t.first[o] } else { t.first[o] } as u32;
    (t.counts[o] as u32) << 15 | square << 4 | o as u32
}

/// The owners `ranking` ranks first, as a bit set (bit o for owner o), found without sorting:
/// the greatest key, or under shared ranks every owner of the most cubes; 0 on an empty track.
pub(crate) fn first_owners(t: &Tally, players: usize, m: &Majority) -> u16 {
    let from = if m.free_cubes_take_a_row { 0 } else { 1 };
    let owners = (from..=players).filter(|&o| t.counts[o] > 0);
    if m.ties == Ties::Shared {
        let most = owners.clone().map(|o| t.counts[o]).max().unwrap_or(0);
        owners.filter(|&o| t.counts[o] == most).fold(0, |bits, o| bits | 1 << o)
    } else {
        owners.max_by_key(|&o| ranking_key(t, o, m)).map_or(0, |o| 1 << o)
    }
}

/// Put `key` into `keys[..ranked]`, kept in descending order: one step of the insertion sort
/// both rankings use (a track has at most players + 1 owners).
#[inline]
fn insert_descending(keys: &mut [u32; MAX_PLAYERS + 1], ranked: usize, key: u32) {
    let mut at = ranked;
    while at > 0 && keys[at - 1] < key {
        keys[at] = keys[at - 1];
        at -= 1;
    }
    keys[at] = key;
}

/// `rank` for draft 7's majority (R15, R16: `Majority::default()`), the bots' hot path: the same
/// keys sorted, each rank r scoring V[k - r + 1] at once, with no share or accident to read.
fn rank_r15_r16(t: &Tally, players: usize, top: usize, values: &[i32], mut score: impl FnMut(usize, i32)) {
    let mut keys = [0u32; MAX_PLAYERS + 1];
    let mut ranked = 0;
    for o in 0..=players {
        if t.counts[o] > 0 {
            let key = (t.counts[o] as u32) << 15 | (t.first[o] as u32) << 4 | o as u32;
            insert_descending(&mut keys, ranked, key);
            ranked += 1;
        }
    }
    for (rank, &key) in keys[..ranked].iter().enumerate().take(top) {
        let o = (key & 0xF) as usize;
        if o > 0 {
            score(o - 1, values[top - rank - 1]);
        }
    }
}

/// R15 ranking and R16 VP of a track of `top` cubes owned as `t` says, read by `m`: calls
/// `score(seat, vp)` for each seat that scores (the virtual player's row is taken and its VP lost).
fn rank(t: &Tally, players: usize, top: usize, values: &[i32], m: &Majority, mut score: impl FnMut(usize, i32)) {
    let (order, ranked) = ranking(t, players, m);
    for &(o, rank) in &order[..ranked] {
        if o > 0 {
            score(o as usize - 1, m.vp(values, top, rank as usize));
        }
    }
}

/// The board's part of every seat's score: R15-R16 majority VP, and the R17 colour counts as
/// (largest count m, colours at m) (all zero when the ruleset's bonus is not R17's).
type BoardScores = ([i32; MAX_PLAYERS], [(u16, u8); MAX_PLAYERS]);

/// R17: the largest colour count m times the number of colours at m.
fn bonus((most, ties): (u16, u8)) -> i32 {
    most as i32 * ties as i32
}

/// One sheet from the board's scores, each seat's bonus and its lines of `end_scoring`; R18's
/// total is the sum of the parts.
fn sheet(s: &State, majority: &[i32; MAX_PLAYERS], bonuses: &[i32; MAX_PLAYERS], lines: &LineVp) -> [SeatTotals; MAX_PLAYERS] {
    let mut sheet = [SeatTotals::default(); MAX_PLAYERS];
    for (seat, line) in sheet.iter_mut().enumerate().take(s.players as usize) {
        line.majority = majority[seat];
        line.bonus = bonuses[seat];
        line.play = s.vp[seat];
        line.lines = lines[seat];
        line.total = line.majority + line.bonus + line.play + line.lines.iter().sum::<i32>();
        line.hand = s.hands[seat];
    }
    sheet
}

#[cfg(test)]
fn rank_track(track: &[i8], values: &[i32], players: usize, m: &Majority, mut score: impl FnMut(i8, i32)) {
    rank(&tally(track), players, track.len(), values, m, |seat, vp| score(seat as i8, vp));
}

impl Game {
    /// `rank` by the ruleset's majority, through `rank_r15_r16` when it is R15/R16's.
    fn rank_by_rules(&self, t: &Tally, players: usize, top: usize, values: &[i32], score: impl FnMut(usize, i32)) {
        if self.rules.majority_is_r15_r16 {
            rank_r15_r16(t, players, top, values, score);
        } else {
            rank(t, players, top, values, &self.rules.majority, score);
        }
    }

    /// The board's scores counted from every square: each seat's R15-R16 majority VP, ranked
    /// on every Planet, and its R17 counts (its largest cube count of one colour m, and the
    /// number of colours at m). The reference the kept scores are held to.
    /// One pass over the Planets: R17's counts are read from the tally the ranking takes (the
    /// bots' hot path), not from a second scan of the squares.
    fn board_scores(&self, s: &State) -> BoardScores {
        let players = s.players as usize;
        let r17 = self.rules.bonus_is_r17;
        let mut majority = [0i32; MAX_PLAYERS];
        let mut counts = [[0u16; MAX_COLOURS]; MAX_PLAYERS];
        for p in 0..s.planet_count as usize {
            let card = &self.rules.planets[s.planets[p] as usize];
            let track = s.track(p);
            let owners = tally(track);
            self.rank_by_rules(&owners, players, track.len(), &card.values, |seat, vp| majority[seat] += vp);
            if r17 {
                // The seats' cubes on the track (the tally's, free cubes left out) and on the special square.
                let mut owned = [0u16; MAX_PLAYERS];
                owned[..players].copy_from_slice(&owners.counts[1..=players]);
                for &owner in s.special(p).iter().filter(|&&o| o >= 0) {
                    owned[owner as usize] += 1;
                }
                for colour in walks::positions32(card.counts_toward) {
                    for (row, &cubes) in counts.iter_mut().zip(&owned) {
                        row[colour] += cubes;
                    }
                }
            }
        }
        (majority, self.largest_counts(s, &counts))
    }

    /// R17's counts of every seat (its largest cube count of one colour m, and the number of
    /// colours at m) over the cubes `cubes(p)` gives of each Planet (normal squares, special
    /// square); all zero when the ruleset's bonus is not R17's (`bonuses` scores it from the board).
    fn colour_counts<'s>(&self, s: &State, cubes: impl Fn(usize) -> (&'s [i8], &'s [i8])) -> [(u16, u8); MAX_PLAYERS] {
        if !self.rules.bonus_is_r17 {
            return [(0, 0); MAX_PLAYERS];
        }
        self.largest_counts(s, &self.count_colours(s, cubes).0)
    }

    /// R17's (largest count m, colours at m) of every seat from its cube counts per colour.
    #[inline]
    fn largest_counts(&self, s: &State, counts: &[[u16; MAX_COLOURS]; MAX_PLAYERS]) -> [(u16, u8); MAX_PLAYERS] {
        let mut bonus = [(0u16, 0u8); MAX_PLAYERS];
        if !self.rules.bonus_is_r17 {
            return bonus;
        }
        let colours = self.rules.colour_count().max(1);
        for seat in 0..s.players as usize {
            let row = &counts[seat][..colours];
            let most = row.iter().copied().max().unwrap_or(0);
            if most > 0 {
                bonus[seat] = (most, row.iter().filter(|&&c| c == most).count() as u8);
            }
        }
        bonus
    }

    /// Each seat's major-planet bonus: R17's from `colours` (the kept or recounted counts), any
    /// other bonus scored from the cubes on the squares it counts.
    fn bonuses(&self, s: &State, colours: &[(u16, u8); MAX_PLAYERS]) -> [i32; MAX_PLAYERS] {
        if self.rules.bonus_is_r17 {
            return std::array::from_fn(|seat| bonus(colours[seat]));
        }
        let rules = &self.rules.bonus;
        let planets = &self.rules.planets;
        let per_seat = self.rules.colour_count().max(1);
        let counted = |p: usize| {
            let (track, special) = (s.track(p), s.special(p));
            (if rules.normal { track } else { &track[..0] }, if rules.special { special } else { &special[..0] })
        };
        let (by_seat, of_several) = self.count_colours(s, counted);
        let mut bonuses = [0i32; MAX_PLAYERS];
        if of_several == 0 || !self.rules.sets_of_several {
            for (seat, vp) in bonuses.iter_mut().enumerate().take(s.players as usize) {
                *vp = rules.vp(&by_seat[seat][..per_seat], &[]);
            }
            return bonuses;
        }
        // A set holds a cube of several colours once: the cubes of the dealt Planets that count
        // toward several colours are listed apart, by the colours.
        let mut multi: SmallVec<[(u32, [u16; MAX_PLAYERS]); 2]> = SmallVec::new();
        for p in walks::positions(of_several) {
            let (track, special) = counted(p);
            multi.push((planets[s.planets[p] as usize].counts_toward, owned_by_seat(track, special)));
        }
        for (seat, vp) in bonuses.iter_mut().enumerate().take(s.players as usize) {
            let row = &by_seat[seat];
            let several: SmallVec<[(u32, u16); 2]> = multi.iter().filter(|(_, owned)| owned[seat] > 0).map(|&(toward, owned)| (toward, owned[seat])).collect();
            *vp = rules.vp(&row[..per_seat], &several); // one entry a Planet
        }
        bonuses
    }

    /// Every seat's cube count per colour (`[seat][colour]`) over the cubes `cubes(p)` gives of
    /// each Planet (normal squares, special square). A Planet of one colour adds each cube to
    /// its owner's count as it is read; one counting toward several colours (P1) adds its
    /// owners' cubes to each of them.
    /// Also the ring positions of the Planets that count toward several colours, as a bit set.
    fn count_colours<'s>(&self, s: &State, cubes: impl Fn(usize) -> (&'s [i8], &'s [i8])) -> ([[u16; MAX_COLOURS]; MAX_PLAYERS], u16) {
        let mut counts = [[0u16; MAX_COLOURS]; MAX_PLAYERS];
        let mut of_several = 0u16;
        for p in 0..s.planet_count as usize {
            // Its own colour, or a lasting counts_toward's colours (P1: every one).
            let toward = self.rules.planets[s.planets[p] as usize].counts_toward;
            let (track, special) = cubes(p);
            if toward.count_ones() == 1 {
                let colour = toward.trailing_zeros() as usize;
                // Free cubes count for nobody; the track and the special square read apart (a
                // chained iterator costs a test a cube).
                for squares in [track, special] {
                    for &owner in squares {
                        if owner >= 0 {
                            counts[owner as usize & (MAX_PLAYERS - 1)][colour] += 1;
                        }
                    }
                }
                continue;
            }
            if toward != 0 {
                of_several |= 1 << p; // several colours (none: its cubes count for no colour)
            }
            let owned = owned_by_seat(track, special);
            for colour in walks::positions32(toward) {
                for (row, &cubes) in counts.iter_mut().zip(&owned) {
                    row[colour] += cubes;
                }
            }
        }
        (counts, of_several)
    }

    /// Give back Planet `p`'s part of the kept scores before its track shrinks
    /// (`Game::take_from_track`): its majority VP as they stood when the scores were kept (its
    /// kept track is still a prefix of its track), and its cubes in the kept colour counts, so
    /// that `update_scores` ranks it again from square 1. Tracks that only grow keep the cheaper
    /// update, which gives back the VP of the old track as a prefix of the new.
    pub(crate) fn unscore_track(&self, s: &mut State, p: usize) {
        s.unscored |= 1 << p;
        let kept = s.scored_fill[p] as usize;
        if kept == 0 {
            return;
        }
        let players = s.players as usize;
        let values = &self.rules.planets[s.planets[p] as usize].values;
        let mut given_back = [0i32; MAX_PLAYERS];
        self.rank_by_rules(&tally(&s.track(p)[..kept]), players, kept, values, |seat, vp| given_back[seat] += vp);
        for seat in 0..players {
            s.majority[seat] -= given_back[seat];
        }
        s.scored_fill[p] = 0;
        let kept_cubes = |q: usize| (&s.track(q)[..s.scored_fill[q] as usize], &s.special(q)[..s.scored_special[q] as usize]);
        let bonus = self.colour_counts(s, kept_cubes);
        for seat in 0..MAX_PLAYERS {
            (s.colour_most[seat], s.colour_ties[seat]) = bonus[seat];
        }
    }

    /// Set the state's kept scores from the whole board.
    pub(crate) fn recount_scores(&self, s: &mut State) {
        let (majority, bonus) = self.board_scores(s);
        s.majority = majority;
        for seat in 0..MAX_PLAYERS {
            (s.colour_most[seat], s.colour_ties[seat]) = bonus[seat];
        }
        s.scored_fill = s.track_fill;
        s.scored_special = s.special_fill;
        s.unscored = 0;
    }

    /// R17 after the cubes placed on the colours of the `unscored` Planets since the scores
    /// were kept: per seat, the colour's count as it was, then one more for each new cube.
    /// Counts only grow one at a time, so each new count either ties the seat's largest
    /// count m, passes it by one, or leaves m as it is.
    fn score_new_colours(&self, s: &mut State) {
        if !self.rules.bonus_is_r17 {
            return; // no counts kept: `bonuses` scores the board
        }
        let planets = &self.rules.planets;
        let toward = |p: usize| planets[s.planets[p] as usize].counts_toward;
        let mut counted = 0u32; // colours done, a bit each (MAX_COLOURS is 32)
        let mut changed = 0u32; // the colours the unscored Planets' cubes count toward
        for p in walks::positions(s.unscored) {
            changed |= toward(p);
        }
        for colour in walks::positions32(changed) {
            if counted & 1 << colour != 0 {
                continue;
            }
            counted |= 1 << colour;
            let (mut before, mut new) = ([0u16; MAX_PLAYERS], [0u16; MAX_PLAYERS]);
            for q in (0..s.planet_count as usize).filter(|&q| toward(q) & 1 << colour != 0) {
                let (track, special) = (s.track(q), s.special(q));
                let (kept, kept_special) = (s.scored_fill[q] as usize, s.scored_special[q] as usize);
                for &owner in track[..kept].iter().chain(&special[..kept_special]) {
                    if owner >= 0 {
                        before[owner as usize] += 1;
                    }
                }
                for &owner in track[kept..].iter().chain(&special[kept_special..]) {
                    if owner >= 0 {
                        new[owner as usize] += 1;
                    }
                }
            }
            for seat in 0..s.players as usize {
                for count in before[seat] + 1..=before[seat] + new[seat] {
                    if count > s.colour_most[seat] {
                        s.colour_most[seat] = count;
                        s.colour_ties[seat] = 1;
                    } else if count == s.colour_most[seat] {
                        s.colour_ties[seat] += 1;
                    }
                }
            }
        }
    }

    /// Bring the state's kept scores up to date with its board (a no-op when they are): each
    /// Planet changed since the last time gives back its VP as it stood then and scores
    /// again. Cubes are added at the rear (R2), so the old track is a prefix of the new one;
    /// a track that shrank gave its scores back as it shrank (`unscore_track`) and is ranked
    /// from square 1. With most Planets changed, ranking every Planet once is cheaper.
    pub fn update_scores(&self, s: &mut State) {
        if s.unscored == 0 {
            return;
        }
        if 2 * s.unscored.count_ones() > s.planet_count as u32 {
            self.recount_scores(s);
            return;
        }
        let players = s.players as usize;
        let mut change = [0i32; MAX_PLAYERS];
        for p in walks::positions(s.unscored) {
            let (before, top) = (s.scored_fill[p] as usize, s.track_fill[p] as usize);
            if before == top {
                continue; // a cube on the special square only
            }
            let values = &self.rules.planets[s.planets[p] as usize].values;
            let track = s.track(p);
            let mut owners = tally(track);
            self.rank_by_rules(&owners, players, top, values, |seat, vp| change[seat] += vp);
            for &owner in &track[before..] {
                owners.counts[(owner + 1) as usize] -= 1;
            }
            self.rank_by_rules(&owners, players, before, values, |seat, vp| change[seat] -= vp);
        }
        for seat in 0..players {
            s.majority[seat] += change[seat];
        }
        self.score_new_colours(s);
        s.scored_fill = s.track_fill;
        s.scored_special = s.special_fill;
        s.unscored = 0;
        debug_assert_eq!(
            (s.majority, std::array::from_fn(|seat| (s.colour_most[seat], s.colour_ties[seat]))),
            self.board_scores(s),
            "the kept scores differ from the board's"
        );
    }

    /// Every seat's totals (R18: majority VP + major-planet bonus + VP from play + the lines of
    /// `end_scoring`), from the
    /// scores the state keeps when they are up to date, else from the board.
    pub fn seat_totals(&self, s: &State) -> [SeatTotals; MAX_PLAYERS] {
        if s.unscored != 0 {
            return self.rescored_totals(s);
        }
        let colours: [(u16, u8); MAX_PLAYERS] = std::array::from_fn(|seat| (s.colour_most[seat], s.colour_ties[seat]));
        sheet(s, &s.majority, &self.bonuses(s, &colours), &self.line_vp(s))
    }

    /// Each seat's VP of each line of `end_scoring` (docs/rules.md, "End-of-game scoring
    /// lines"): its amount read from the position with this_seat bound to the seat and nobody as
    /// "you" (below 0 when the amount is); Python's bounds (`least_line_vp`, `most_line_vp`)
    /// keep each within 32 bits.
    fn line_vp(&self, s: &State) -> LineVp {
        let mut vp = [[0i32; MOST_SCORING_LINES]; MAX_PLAYERS];
        if self.rules.end_scoring.is_empty() {
            return vp;
        }
        let nobody = Scope::table(s.start_player as usize);
        for (seat, lines) in vp.iter_mut().enumerate().take(s.players as usize) {
            let scope = nobody.bind(SetKind::Seats, seat);
            for (value, line) in lines.iter_mut().zip(&self.rules.end_scoring) {
                *value = self.amount(s, &scope, &line.vp) as i32;
            }
        }
        vp
    }

    /// `seat_totals` scored from every square of the board instead of the kept scores: the
    /// reference for tests and checks.
    pub fn rescored_totals(&self, s: &State) -> [SeatTotals; MAX_PLAYERS] {
        let (majority, colours) = self.board_scores(s);
        sheet(s, &majority, &self.bonuses(s, &colours), &self.line_vp(s))
    }

    /// Each seat's total, as `scoring.provisional_totals` gives.
    pub fn totals(&self, s: &State) -> [i32; MAX_PLAYERS] {
        let mut totals = [0; MAX_PLAYERS];
        if s.unscored == 0 && self.rules.bonus_is_r17 && self.rules.end_scoring.is_empty() {
            // The bots' path: the sheet's sum (R18) from the kept scores, without the sheet.
            for seat in 0..s.players as usize {
                totals[seat] = s.majority[seat] + bonus((s.colour_most[seat], s.colour_ties[seat])) + s.vp[seat];
            }
            return totals;
        }
        self.summed_totals(s)
    }

    /// `totals` of any other ruleset or state: the same sum of the sheet's parts, without the
    /// sheet. Apart from `totals`, so that the bots' path stays a few instructions.
    #[inline(never)]
    fn summed_totals(&self, s: &State) -> [i32; MAX_PLAYERS] {
        let mut totals = [0; MAX_PLAYERS];
        let (majority, colours) = if s.unscored != 0 {
            self.board_scores(s)
        } else if self.rules.bonus_is_r17 {
            (s.majority, std::array::from_fn(|seat| (s.colour_most[seat], s.colour_ties[seat])))
        } else {
            (s.majority, [(0, 0); MAX_PLAYERS]) // `bonuses` scores the board
        };
        let bonuses = self.bonuses(s, &colours);
        for seat in 0..s.players as usize {
            totals[seat] = majority[seat] + bonuses[seat] + s.vp[seat];
        }
        if !self.rules.end_scoring.is_empty() {
            for (total, lines) in totals.iter_mut().zip(self.line_vp(s).iter()) {
                *total += lines.iter().sum::<i32>();
            }
        }
        totals
    }

    /// R18: highest total, then most cubes in hand; the rest share the win.
    pub fn winners(&self, s: &State) -> Vec<usize> {
        let sheet = self.seat_totals(s);
        let players = s.players as usize;
        let best = (0..players).map(|seat| (sheet[seat].total, sheet[seat].hand)).max();
        (0..players).filter(|&seat| Some((sheet[seat].total, sheet[seat].hand)) == best).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(track: &[i8], values: &[i32]) -> Vec<(i8, i32)> {
        ranked_by(track, values, &R15_R16)
    }

    fn ranked_by(track: &[i8], values: &[i32], m: &Majority) -> Vec<(i8, i32)> {
        let mut out = Vec::new();
        rank_track(track, values, MAX_PLAYERS, m, |owner, vp| out.push((owner, vp)));
        out
    }

    const R15_R16: Majority = Majority {
        ties: Ties::FurtherBack,
        row_step: 1,
        rank_percent: [100; MAX_PLAYERS + 1],
        accident_vp: 0,
        free_cubes_take_a_row: true,
    };

    #[test]
    fn the_default_majority_is_r15_r16() {
        assert_eq!(Majority::default(), R15_R16);
    }

    #[test]
    fn the_r15_r16_fast_path_scores_every_small_track_as_the_general_ranking() {
        // Every track of up to 6 squares over the virtual player and three seats.
        let values = [1, 0, 3, 5, 0, 8];
        for len in 0..=6u32 {
            for code in 0..4u32.pow(len) {
                let track: Vec<i8> = (0..len).map(|i| (code / 4u32.pow(i) % 4) as i8 - 1).collect();
                let (mut fast, mut general) = (Vec::new(), Vec::new());
                rank_r15_r16(&tally(&track), 3, track.len(), &values, |seat, vp| fast.push((seat, vp)));
                rank(&tally(&track), 3, track.len(), &values, &R15_R16, |seat, vp| general.push((seat, vp)));
                assert_eq!(fast, general, "{track:?}");
            }
        }
    }

    #[test]
    fn majority_ties_further_forward_gives_the_tie_to_the_first_cube_nearer_square_one() {
        // One cube each, seat 0 on square 1: R15 ranks seat 1 first, the reverse rule seat 0.
        let forward = Majority { ties: Ties::FurtherForward, ..R15_R16 };
        assert_eq!(ranked_by(&[0, 1], &[2, 4], &forward), vec![(0, 4), (1, 2)]);
    }

    #[test]
    fn majority_shared_ranks_score_the_better_row_and_the_next_rank_skips() {
        // Seats 0 and 1 one cube each, seat 2 one: all three share rank 1 and read row 3.
        let shared = Majority { ties: Ties::Shared, ..R15_R16 };
        assert_eq!(ranked_by(&[0, 1, 2], &[1, 3, 5], &shared), vec![(2, 5), (1, 5), (0, 5)]);
        // Seat 0 two cubes, seats 1 and 2 one each: 1, 2, 2.
        assert_eq!(ranked_by(&[0, 1, 2, 0], &[1, 3, 5, 7], &shared), vec![(0, 7), (2, 5), (1, 5)]);
        // Seats 0 and 1 two cubes each, seat 2 one: 1, 1, 3; rank 3 reads row k - 2.
        assert_eq!(ranked_by(&[0, 0, 1, 1, 2], &[1, 2, 3, 4, 5], &shared), vec![(1, 5), (0, 5), (2, 3)]);
    }

    #[test]
    fn majority_row_step_percent_and_accident_vp() {
        // k = 4, step 2: rank 1 reads row 4, rank 2 row 2, rank 3 row 0 (below square 1: 0).
        let step = Majority { row_step: 2, ..R15_R16 };
        assert_eq!(ranked_by(&[0, 0, 1, 2], &[1, 3, 5, 7], &step), vec![(0, 7), (2, 3), (1, 0)]);
        // Second place half, rounded down; third and below nothing.
        let mut percent = R15_R16;
        percent.rank_percent = [100, 50, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(ranked_by(&[0, 0, 1, 2], &[1, 3, 5, 7], &percent), vec![(0, 7), (2, 2), (1, 0)]);
        // An accident row (VP 0) costs 2 whoever reads it.
        let accident = Majority { accident_vp: -2, ..R15_R16 };
        assert_eq!(ranked_by(&[0, 0, 1], &[1, 3, 0], &accident), vec![(0, -2), (1, 3)]);
    }

    #[test]
    fn majority_free_cubes_left_out_of_the_ranking_take_no_row() {
        let no_virtual = Majority { free_cubes_take_a_row: false, ..R15_R16 };
        assert_eq!(ranked_by(&[-1, -1, 0], &[1, 3, 5], &no_virtual), vec![(0, 5)]);
    }

    #[test]
    fn r16_first_place_scores_the_top_row_and_each_place_one_row_up() {
        // Seat 0 has two cubes, seat 1 one: k = 3, seat 0 scores V[3], seat 1 V[2].
        assert_eq!(ranked(&[0, 1, 0], &[1, 3, 5, 7]), vec![(0, 5), (1, 3)]);
    }

    #[test]
    fn r15_tie_goes_to_the_owner_whose_first_cube_stands_further_back() {
        // One cube each: seat 1's cube is on square 2, so seat 1 ranks first.
        assert_eq!(ranked(&[0, 1], &[2, 4]), vec![(1, 4), (0, 2)]);
    }

    #[test]
    fn r16_the_virtual_player_takes_a_row_and_its_vp_is_lost() {
        assert_eq!(ranked(&[-1, -1, 0], &[1, 3, 5]), vec![(0, 3)]);
    }

    #[test]
    fn r16_ranks_below_square_one_score_nothing() {
        assert_eq!(ranked(&[0, 1], &[2, 4]).len(), 2);
        assert_eq!(ranked(&[2], &[6]), vec![(2, 6)]);
    }
}
