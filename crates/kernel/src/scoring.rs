//! Scoring (R15-R18) on a kernel state: each seat's majority VP, major-planet bonus, VP from
//! play and total, and the winners; the numbers of the Python engine's score sheet and of
//! `scoring.provisional_totals`, mid-game as at the end.

use crate::game::Game;
use crate::state::{State, FREE_CUBE};
use crate::{MAX_COLOURS, MAX_PLAYERS};

/// One seat's line of the sheet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTotals {
    pub majority: i32,
    pub bonus: i32,
    pub play: i32,
    pub total: i32,
    pub hand: i32,
}

/// R15 ranking and R16 VP of one track: calls `score(owner, vp)` for each owner that scores
/// (the virtual player's row is taken and its VP lost).
fn rank_track(track: &[i8], values: &[i32], players: usize, mut score: impl FnMut(i8, i32)) -> [u16; MAX_PLAYERS + 1] {
    // Owners are -1 (free cubes) and seats 0..players: index owner + 1.
    let owners = players + 1;
    let mut counts = [0u16; MAX_PLAYERS + 1];
    let mut first = [0u16; MAX_PLAYERS + 1];
    for (square, &owner) in track.iter().enumerate() {
        let o = (owner + 1) as usize;
        if counts[o] == 0 {
            first[o] = square as u16 + 1;
        }
        counts[o] += 1;
    }
    // R15: most cubes first; a tie goes to the owner whose first cube stands further back.
    // One key per owner (count, then first square; both below 2^16), sorted descending.
    let mut keys = [0u32; MAX_PLAYERS + 1];
    let mut ranked = 0;
    for o in 0..owners {
        if counts[o] > 0 {
            keys[ranked] = (counts[o] as u32) << 16 | first[o] as u32;
            ranked += 1;
        }
    }
    let keys = &mut keys[..ranked];
    keys.sort_unstable_by(|a, b| b.cmp(a));
    let top = track.len();
    for (rank, &key) in keys.iter().enumerate() {
        if rank >= top {
            break;
        }
        // The first square identifies the owner: it holds that owner's cube.
        let owner = track[(key & 0xFFFF) as usize - 1];
        if owner != FREE_CUBE {
            score(owner, values[top - rank - 1]);
        }
    }
    counts
}

impl Game {
    /// Every seat's totals (R18: majority VP + major-planet bonus + VP from play).
    pub fn seat_totals(&self, s: &State) -> [SeatTotals; MAX_PLAYERS] {
        let players = s.players as usize;
        let colours = self.rules.colour_count().max(1);
        let mut sheet = [SeatTotals::default(); MAX_PLAYERS];
        let mut counts = [0i32; MAX_PLAYERS * MAX_COLOURS];
        for p in 0..s.planet_count as usize {
            let card = &self.rules.planets[s.planets[p] as usize];
            let track = s.track(p);
            let colour = card.colour as usize;
            if !track.is_empty() {
                let on_track = rank_track(track, &card.values, players, |owner, vp| sheet[owner as usize].majority += vp);
                for seat in 0..players {
                    counts[seat * colours + colour] += on_track[seat + 1] as i32;
                }
            }
            for &owner in s.special(p) {
                counts[owner as usize * colours + colour] += 1; // special squares hold seats' cubes only
            }
        }
        for (seat, line) in sheet.iter_mut().enumerate().take(players) {
            // R17: the largest colour count m, times the number of colours with m.
            let row = &counts[seat * colours..(seat + 1) * colours];
            let most = row.iter().copied().max().unwrap_or(0);
            if most > 0 {
                line.bonus = most * row.iter().filter(|&&c| c == most).count() as i32;
            }
            line.play = s.vp[seat];
            line.total = line.majority + line.bonus + line.play;
            line.hand = s.hands[seat];
        }
        sheet
    }

    /// Each seat's total, as `scoring.provisional_totals` gives.
    pub fn totals(&self, s: &State) -> [i32; MAX_PLAYERS] {
        let mut totals = [0; MAX_PLAYERS];
        for (total, line) in totals.iter_mut().zip(self.seat_totals(s).iter()) {
            *total = line.total;
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
        let mut out = Vec::new();
        let _ = rank_track(track, values, MAX_PLAYERS, |owner, vp| out.push((owner, vp)));
        out
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
