//! What one seat sees of a state, as a fixed-size vector: the layout and filler of
//! `stargazer_rules/fast/observation.py` (the oracle; tests/test_fast_api.py holds them equal).
//!
//! Stargazer hides nothing, so an observation is the whole state seen from a seat: every
//! per-seat value is rotated so that the viewer comes first (relative seat `r` is seat
//! `(viewer + r) % players`). Values are raw counts or 0/1 flags.

use crate::game::Game;
use crate::rules::{Rules, COUNTER, DIRECTION, REPEAT, SKIP, START};
use crate::state::{Stage, State};

/// The survey rule flags in the `survey_rules` field's order.
const SURVEY_RULES: [u8; 5] = [REPEAT, SKIP, DIRECTION, COUNTER, START];

/// The fields of an observation: `(name, offset, length)` in vector order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationLayout {
    pub seats: usize,
    pub planets: usize,
    pub crews: usize,
    pub squares: usize,
    pub planet_cards: usize,
    pub crew_cards: usize,
    pub fields: Vec<(&'static str, usize, usize)>,
    pub size: usize,
    at: Offsets,
}

/// The offset of each field, read by `observe`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Offsets {
    seats: usize,
    to_move: usize,
    start_player: usize,
    stage: usize,
    round: usize,
    turn: usize,
    stock: usize,
    hands: usize,
    vp: usize,
    removed: usize,
    planet_card: usize,
    track: usize,
    special: usize,
    surveyed: usize,
    crew_card: usize,
    crew_free: usize,
    crew_cubes: usize,
    worker: usize,
    survey_rules: usize,
    survey_bonus: usize,
    survey_placed: usize,
    survey_last: usize,
    survey_direction: usize,
    survey_skips: usize,
    pending: usize,
    pending_slot: usize,
    pending_remaining: usize,
    crew_closed: usize,
    protected: usize,
    crew_borrowed: usize,
}

impl ObservationLayout {
    pub fn of(rules: &Rules) -> ObservationLayout {
        let b = &rules.bounds;
        let (n, p, c) = (b.most_players, b.most_planets, b.most_crew);
        let squares = rules.planets.iter().map(|planet| planet.length()).max().unwrap_or(0);
        let (planet_cards, crew_cards) = (rules.planets.len(), rules.crew.len());
        let owners = n + 1;
        let lengths: [(&'static str, usize); 30] = [
            ("seats", n),
            ("to_move", n),
            ("start_player", n),
            ("stage", Stage::ALL.len()),
            ("round", 1),
            ("turn", 1),
            ("stock", 1),
            ("hands", n),
            ("vp", n),
            ("removed", n),
            ("planet_card", p * planet_cards),
            ("track", p * squares * owners),
            ("special", p * owners),
            ("surveyed", p),
            ("crew_card", c * crew_cards),
            ("crew_free", c),
            ("crew_cubes", c * n),
            ("worker", c * n),
            ("survey_rules", SURVEY_RULES.len()),
            ("survey_bonus", 1),
            ("survey_placed", 1),
            ("survey_last", p),
            ("survey_direction", 1),
            ("survey_skips", 1),
            ("pending", 1),
            ("pending_slot", c),
            ("pending_remaining", 1),
            // lasting effects of skills
            ("crew_closed", c),
            ("protected", n),
            ("crew_borrowed", c * crew_cards),
        ];
        let mut fields = Vec::with_capacity(lengths.len());
        let mut offset = 0;
        for (name, length) in lengths {
            fields.push((name, offset, length));
            offset += length;
        }
        let o = |i: usize| fields[i].1;
        let at = Offsets {
            seats: o(0),
            to_move: o(1),
            start_player: o(2),
            stage: o(3),
            round: o(4),
            turn: o(5),
            stock: o(6),
            hands: o(7),
            vp: o(8),
            removed: o(9),
            planet_card: o(10),
            track: o(11),
            special: o(12),
            surveyed: o(13),
            crew_card: o(14),
            crew_free: o(15),
            crew_cubes: o(16),
            worker: o(17),
            survey_rules: o(18),
            survey_bonus: o(19),
            survey_placed: o(20),
            survey_last: o(21),
            survey_direction: o(22),
            survey_skips: o(23),
            pending: o(24),
            pending_slot: o(25),
            pending_remaining: o(26),
            crew_closed: o(27),
            protected: o(28),
            crew_borrowed: o(29),
        };
        ObservationLayout { seats: n, planets: p, crews: c, squares, planet_cards, crew_cards, fields, size: offset, at }
    }

    /// Write the observation of `s` for seat `viewer` into `out` (`size` floats, zeroed here).
    /// The caller checks that `viewer` is a seat of the game.
    pub fn observe(&self, game: &Game, s: &State, viewer: usize, out: &mut [f32]) {
        let at = &self.at;
        let players = s.players as usize;
        let (n, owners) = (self.seats, self.seats + 1);
        out[..self.size].fill(0.0);
        let rel = |seat: usize| (seat + players - viewer) % players;
        let owner = |cube: i8| if cube < 0 { n } else { rel(cube as usize) };
        for r in 0..players {
            out[at.seats + r] = 1.0;
        }
        if let Some(mover) = game.current_player(s) {
            out[at.to_move + rel(mover)] = 1.0;
        }
        out[at.start_player + rel(s.start_player as usize)] = 1.0;
        out[at.stage + s.stage as usize] = 1.0;
        out[at.round] = s.round as f32;
        out[at.turn] = s.turn as f32;
        out[at.stock] = s.stock as f32;
        for seat in 0..players {
            out[at.hands + rel(seat)] = s.hands[seat] as f32;
            out[at.vp + rel(seat)] = s.vp[seat] as f32;
            out[at.removed + rel(seat)] = s.removed[seat] as f32;
        }
        for p in 0..s.planet_count as usize {
            out[at.planet_card + p * self.planet_cards + s.planets[p] as usize] = 1.0;
            for (square, &cube) in s.track(p).iter().enumerate() {
                out[at.track + (p * self.squares + square) * owners + owner(cube)] = 1.0;
            }
            for &cube in s.special(p) {
                out[at.special + p * owners + owner(cube)] += 1.0;
            }
            if s.surveyed & (1 << p) != 0 {
                out[at.surveyed + p] = 1.0;
            }
        }
        for slot in 0..s.crew_count as usize {
            out[at.crew_card + slot * self.crew_cards + s.crew[slot] as usize] = 1.0;
            out[at.crew_free + slot] = s.crew_free[slot] as f32;
            for seat in 0..players {
                out[at.crew_cubes + slot * n + rel(seat)] = s.crew_cubes[slot][seat] as f32;
            }
            if s.workers[slot] >= 0 {
                out[at.worker + slot * n + rel(s.workers[slot] as usize)] = 1.0;
            }
        }
        for (i, flag) in SURVEY_RULES.into_iter().enumerate() {
            if s.survey_rules & flag != 0 {
                out[at.survey_rules + i] = 1.0;
            }
        }
        out[at.survey_bonus] = s.survey_bonus as f32;
        out[at.survey_placed] = s.survey_placed as f32;
        if s.survey_last >= 0 {
            out[at.survey_last + s.survey_last as usize] = 1.0;
        }
        out[at.survey_direction] = s.survey_direction as f32;
        out[at.survey_skips] = s.survey_skips as f32;
        out[at.pending] = s.pending.len() as f32;
        if let Some(head) = s.pending.last() {
            out[at.pending_slot + head.slot as usize] = 1.0;
            out[at.pending_remaining] = head.remaining as f32;
        }
        for slot in 0..s.crew_count as usize {
            if s.closed & (1 << slot) != 0 {
                out[at.crew_closed + slot] = 1.0;
            }
            if s.borrowed[slot] >= 0 {
                out[at.crew_borrowed + slot * self.crew_cards + s.borrowed[slot] as usize] = 1.0;
            }
        }
        for seat in 0..players {
            out[at.protected + rel(seat)] = s.protected[seat] as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    #[test]
    fn the_fields_tile_the_vector_and_a_deal_is_seen_from_each_seat() {
        let game = fixtures::draft_like();
        let layout = ObservationLayout::of(&game.rules);
        let mut offset = 0;
        for &(_, start, length) in &layout.fields {
            assert_eq!(start, offset);
            offset += length;
        }
        assert_eq!(offset, layout.size);
        let players = game.rules.setups[0].players;
        let (planets, crew, start) = game.deal(players, &mut crate::rng::Rng::new(3)).unwrap();
        let state = game.new_state(players, &planets, &crew, start).unwrap();
        let mut views = vec![vec![0.0f32; layout.size]; players];
        for (seat, view) in views.iter_mut().enumerate() {
            layout.observe(&game, &state, seat, view);
            assert_eq!(view[layout.at.start_player + (start + players - seat) % players], 1.0);
        }
        assert_ne!(views[0], views[1]);
    }
}
