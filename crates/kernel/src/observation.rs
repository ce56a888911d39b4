//! What one seat sees of a state, as a fixed-size vector: the filler of the layout Python derives
//! (`stargazer_rules/engine/observation_layout.py`) and sends in the compiled ruleset; the
//! oracle is `stargazer_rules/fast/observation.py` (tests/test_fast_api.py holds them equal).
//!
//! Stargazer hides nothing, so an observation is the whole state seen from a seat: every
//! per-seat value is rotated so that the viewer comes first (relative seat `r` is seat
//! `(viewer + r) % players`). Values are raw counts or 0/1 flags.

use crate::error::KernelError;
use crate::game::Game;
use crate::rules::{Rules, COUNTER, DIRECTION, REPEAT, SKIP, START};
use crate::state::{Stage, State, NO_SLOT};

/// The survey rule flags in the `survey_rules` field's order.
const SURVEY_RULES: [u8; 3] = [REPEAT, SKIP, DIRECTION];

/// One field as received: its name, first entry and number of entries (Python's `ObservationField`).
pub type FieldSpec = (String, usize, usize);

/// The observation's fields as received, and the offset of each that the kernel fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObservationLayout {
    pub seats: usize,
    pub squares: usize,
    pub planet_cards: usize,
    pub crew_cards: usize,
    pub fields: Vec<FieldSpec>,
    pub size: usize,
    at: Offsets,
}

/// The offset of each field, read by `observe`; `None` for an optional block left out (the
/// ruleset never sets what it holds).
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
    survey_counter_clockwise: Option<usize>,
    survey_start: Option<usize>,
    survey_bonus: usize,
    survey_placed: usize,
    survey_last: usize,
    survey_direction: usize,
    survey_skips: Option<usize>,
    setup: Option<usize>,
    pending: usize,
    pending_slot: usize,
    pending_remaining: usize,
    crew_closed: Option<usize>,
    protected: Option<usize>,
    crew_borrowed: Option<usize>,
}

/// The entries of the `stage` one-hot: every stage but `Setup`, which has a block of its own.
const PLAY_STAGES: usize = 6;

fn refused(why: String) -> KernelError {
    KernelError::Unsupported(format!("observation layout: {why}"))
}

impl ObservationLayout {
    /// The layout Python derived (`fields`, in vector order), checked for what the kernel
    /// writes: every field it fills present once (an optional block may be left out) and no
    /// other, the fields tiling the vector, and each as long as the entries the kernel writes
    /// there (from the table's largest sizes and the ruleset's cards). The order, and whether
    /// an optional block is there, are Python's: the kernel derives neither.
    pub fn received(rules: &Rules, fields: &[FieldSpec]) -> Result<ObservationLayout, KernelError> {
        let b = &rules.bounds;
        let (n, p, c) = (b.most_players, b.most_planets, b.most_crew);
        let squares = rules.planets.iter().map(|planet| planet.length()).max().unwrap_or(0);
        let (planet_cards, crew_cards) = (rules.planets.len(), rules.crew.len());
        let owners = n + 1;
        // Each field the kernel fills, the entries it writes there, and whether it may be left out.
        let writes: [(&str, usize, bool); 33] = [
            ("seats", n, false),
            ("to_move", n, false),
            ("start_player", n, false),
            ("stage", PLAY_STAGES, false),
            ("round", 1, false),
            ("turn", 1, false),
            ("stock", 1, false),
            ("hands", n, false),
            ("vp", n, false),
            ("removed", n, false),
            ("planet_card", p * planet_cards, false),
            ("track", p * squares * owners, false),
            ("special", p * owners, false),
            ("surveyed", p, false),
            ("crew_card", c * crew_cards, false),
            ("crew_free", c, false),
            ("crew_cubes", c * n, false),
            ("worker", c * n, false),
            ("survey_rules", SURVEY_RULES.len(), false),
            ("survey_counter_clockwise", 1, true),
            ("survey_start", 1, true),
            ("survey_bonus", 1, false),
            ("survey_placed", 1, false),
            ("survey_last", p, false),
            ("survey_direction", 1, false),
            ("survey_skips", 1, true),
            ("setup", 1, true),
            ("pending", 1, false),
            ("pending_slot", c, false),
            ("pending_remaining", 1, false),
            ("crew_closed", c, true),
            ("protected", n, true),
            ("crew_borrowed", c * crew_cards, true),
        ];
        let mut index = Vec::with_capacity(fields.len());
        let mut seen = vec![false; writes.len()];
        for (name, _, _) in fields {
            let Some(i) = writes.iter().position(|&(filled, _, _)| filled == name) else {
                return Err(refused(format!("the kernel fills no field `{name}`")));
            };
            if seen[i] {
                return Err(refused(format!("field `{name}` appears twice")));
            }
            seen[i] = true;
            index.push(i);
        }
        let missing: Vec<&str> = writes.iter().zip(&seen).filter(|(&(_, _, optional), &seen)| !seen && !optional).map(|(&(name, _, _), _)| name).collect();
        if !missing.is_empty() {
            return Err(refused(format!("no field `{}`, which the kernel fills", missing.join("`, `"))));
        }
        let mut offsets: Vec<Option<usize>> = vec![None; writes.len()];
        let mut size = 0;
        for ((name, offset, length), i) in fields.iter().zip(index) {
            let entries = writes[i].1;
            if *offset != size {
                return Err(refused(format!("field `{name}` starts at {offset}, not where the field before it ends ({size})")));
            }
            if *length != entries {
                return Err(refused(format!("field `{name}` is {length} long; the kernel writes {entries} entries there")));
            }
            offsets[i] = Some(*offset);
            size += length;
        }
        let offset = |name: &str| offsets[writes.iter().position(|&(filled, _, _)| filled == name).expect("a field the kernel fills")];
        let o = |name: &str| offset(name).expect("every field that may not be left out checked present");
        let at = Offsets {
            seats: o("seats"),
            to_move: o("to_move"),
            start_player: o("start_player"),
            stage: o("stage"),
            round: o("round"),
            turn: o("turn"),
            stock: o("stock"),
            hands: o("hands"),
            vp: o("vp"),
            removed: o("removed"),
            planet_card: o("planet_card"),
            track: o("track"),
            special: o("special"),
            surveyed: o("surveyed"),
            crew_card: o("crew_card"),
            crew_free: o("crew_free"),
            crew_cubes: o("crew_cubes"),
            worker: o("worker"),
            survey_rules: o("survey_rules"),
            survey_counter_clockwise: offset("survey_counter_clockwise"),
            survey_start: offset("survey_start"),
            survey_bonus: o("survey_bonus"),
            survey_placed: o("survey_placed"),
            survey_last: o("survey_last"),
            survey_direction: o("survey_direction"),
            survey_skips: offset("survey_skips"),
            setup: offset("setup"),
            pending: o("pending"),
            pending_slot: o("pending_slot"),
            pending_remaining: o("pending_remaining"),
            crew_closed: offset("crew_closed"),
            protected: offset("protected"),
            crew_borrowed: offset("crew_borrowed"),
        };
        Ok(ObservationLayout { seats: n, squares, planet_cards, crew_cards, fields: fields.to_vec(), size, at })
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
        match (s.stage, at.setup) {
            (Stage::Setup, Some(setup)) => out[setup] = 1.0, // before the first round: a block of its own
            (Stage::Setup, None) => {}
            (stage, _) => out[at.stage + stage as usize] = 1.0,
        }
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
        for (block, flag) in [(at.survey_counter_clockwise, COUNTER), (at.survey_start, START)] {
            if let Some(block) = block {
                out[block] = if s.survey_rules & flag != 0 { 1.0 } else { 0.0 };
            }
        }
        out[at.survey_bonus] = s.survey_bonus as f32;
        out[at.survey_placed] = s.survey_placed as f32;
        if s.survey_last >= 0 {
            out[at.survey_last + s.survey_last as usize] = 1.0;
        }
        out[at.survey_direction] = s.survey_direction as f32;
        if let Some(survey_skips) = at.survey_skips {
            out[survey_skips] = s.survey_skips as f32;
        }
        out[at.pending] = s.pending.len() as f32;
        if let Some(head) = s.pending.last() {
            if head.slot != NO_SLOT {
                out[at.pending_slot + head.slot as usize] = 1.0; // a setup step has no crew
            }
            out[at.pending_remaining] = head.remaining as f32;
        }
        // The lasting effects' blocks, when the ruleset can set them (else received empty).
        for slot in 0..s.crew_count as usize {
            if let Some(crew_closed) = at.crew_closed.filter(|_| s.closed & (1 << slot) != 0) {
                out[crew_closed + slot] = 1.0;
            }
            if let Some(crew_borrowed) = at.crew_borrowed.filter(|_| s.borrowed[slot] >= 0) {
                out[crew_borrowed + slot * self.crew_cards + s.borrowed[slot] as usize] = 1.0;
            }
        }
        if let Some(protected) = at.protected {
            for seat in 0..players {
                out[protected + rel(seat)] = s.protected[seat] as f32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    #[test]
    fn the_received_fields_tile_the_vector_and_a_deal_is_seen_from_each_seat() {
        let game = fixtures::draft_like();
        let layout = fixtures::draft_like_observation(&game);
        let mut offset = 0;
        for &(_, start, length) in &layout.fields {
            assert_eq!(start, offset);
            offset += length;
        }
        // Draft 7 can close no crew, protect no cube nor apply another crew's skill: those
        // blocks are left out and the vector is the one before the rules language.
        assert_eq!((offset, layout.size), (565, 565));
        assert_eq!((layout.at.crew_closed, layout.at.protected, layout.at.crew_borrowed, layout.at.survey_skips), (None, None, None, None));
        assert_eq!(fixtures::plain_like_observation(&fixtures::plain_like()).size, 565);
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

    /// The refusal of `fields` altered by `alter`, as text.
    fn refusal(alter: impl FnOnce(&mut Vec<FieldSpec>)) -> String {
        let game = fixtures::draft_like();
        let mut fields = fixtures::draft_like_observation_fields();
        alter(&mut fields);
        ObservationLayout::received(&game.rules, &fields).unwrap_err().to_string()
    }

    #[test]
    fn a_layout_without_a_field_the_kernel_fills_or_with_one_it_does_not_is_refused_naming_it() {
        let at = |fields: &Vec<FieldSpec>, name: &str| fields.iter().position(|f| f.0 == name).unwrap();
        let renamed = refusal(|fields| {
            let i = at(fields, "stock");
            fields[i].0 = "stocks".into();
        });
        assert_eq!(renamed, "observation layout: the kernel fills no field `stocks`");
        let missing = refusal(|fields| {
            let i = at(fields, "worker");
            fields.remove(i);
        });
        assert_eq!(missing, "observation layout: no field `worker`, which the kernel fills");
        let twice = refusal(|fields| {
            let round = fields[at(fields, "round")].clone();
            fields.push(round);
        });
        assert_eq!(twice, "observation layout: field `round` appears twice");
    }

    #[test]
    fn a_field_of_another_length_than_the_kernel_writes_or_out_of_place_is_refused() {
        // Each field moved up to tile the vector, so that only the lengths differ.
        let shorter = refusal(|fields| {
            let i = fields.iter().position(|f| f.0 == "hands").unwrap();
            fields[i].2 -= 1;
            for field in &mut fields[i + 1..] {
                field.1 -= 1;
            }
        });
        assert_eq!(shorter, "observation layout: field `hands` is 3 long; the kernel writes 4 entries there");
        // An optional block, when there, is as long as what the kernel writes.
        let closed = refusal(|fields| {
            let end = fields.last().map_or(0, |f| f.1 + f.2);
            fields.push(("crew_closed".into(), end, 1));
        });
        assert_eq!(closed, "observation layout: field `crew_closed` is 1 long; the kernel writes 6 entries there");
        let out_of_place = refusal(|fields| fields[3].1 += 1);
        assert_eq!(out_of_place, "observation layout: field `stage` starts at 13, not where the field before it ends (12)");
    }
}
