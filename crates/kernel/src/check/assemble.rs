//! A state from outside built through the checker: `state_from_fields` runs every check and
//! assembles the kernel state of fields that passed, its legal actions derived by the game.

use super::{At, Reason, Problem, StateFields, EFFECT_STAGES};
use crate::game::{Game};
use crate::state::{Pending, PendingStack, Stage, NO_SLOT, State};
use super::{Trust, RULE_CHECKS};
use super::checker::{Checker};
use std::sync::atomic::{Ordering};

/// The state `fields` describe, its legal actions derived by the rules; every problem,
/// located, when they are not a state of this ruleset. `Trust::Engine` skips the rules'
/// checks (the Python engine made the state), never the shape the kernel's arrays need.
pub fn state_from_fields(game: &Game, fields: &StateFields, trust: Trust) -> Result<State, Vec<Problem>> {
    let rules_too = trust == Trust::Nobody;
    if rules_too {
        RULE_CHECKS.fetch_add(1, Ordering::Relaxed);
    }
    let mut c = Checker { game, f: fields, rules_too, problems: Vec::new(), stage: Stage::parse(&fields.stage) };
    if !c.table() {
        return Err(c.problems);
    }
    c.board();
    c.crew_area();
    c.supplies();
    if c.problems.is_empty() && rules_too {
        c.conservation();
    }
    let nodes = c.pending();
    c.survey();
    c.lasting();
    c.stage();
    if !c.problems.is_empty() {
        return Err(c.problems);
    }
    let state = assemble(game, fields, &nodes);
    match game.derive_legal(&state) {
        Some(legal) => Ok(State { legal: legal.into_iter().collect(), ..state }),
        None if state.stage == Stage::Over => Ok(state),
        None => {
            let problem = if EFFECT_STAGES.contains(&state.stage) {
                Problem { at: At::PendingHead, reason: Reason::HeadNeedsNoDecision }
            } else {
                Problem { at: At::Stage, reason: Reason::NoDecision { stage: state.stage.name() } }
            };
            Err(vec![problem])
        }
    }
}

/// The kernel state of fields that passed the checks: every value is in range here.
fn assemble(game: &Game, f: &StateFields, nodes: &[Option<u16>]) -> State {
    let planets: Vec<u16> = f.planets.iter().map(|&c| c as u16).collect();
    let crew: Vec<u16> = f.crew.iter().map(|&c| c as u16).collect();
    let mut s = game.empty_state(f.players as usize, &planets, &crew).expect("a checked table fits the kernel");
    for p in 0..planets.len() {
        for (i, &owner) in f.tracks[p].iter().enumerate() {
            s.board[s.track_start[p] as usize + i] = owner as i8;
        }
        for (i, &owner) in f.specials[p].iter().enumerate() {
            s.board[s.special_start[p] as usize + i] = owner as i8;
        }
        s.track_fill[p] = f.tracks[p].len() as u16;
        s.special_fill[p] = f.specials[p].len() as u16;
    }
    for slot in 0..crew.len() {
        s.crew_free[slot] = f.crew_free[slot] as i32;
        for &owner in &f.crew_cubes[slot] {
            s.crew_cubes[slot][owner as usize] = s.crew_cubes[slot][owner as usize].saturating_add(1);
        }
        s.workers[slot] = f.workers[slot] as i8;
    }
    for seat in 0..f.players as usize {
        s.hands[seat] = f.hands[seat] as i32;
        s.vp[seat] = f.vp[seat] as i32;
        s.removed[seat] = f.removed[seat] as i32;
        s.taken[seat] = f.taken[seat] as i32;
    }
    s.stock = f.stock as i32;
    s.round = f.round as u32;
    s.start_player = f.start_player as u8;
    s.turn = f.turn as u8;
    s.stage = Stage::parse(&f.stage).expect("a checked stage");
    for &slot in &f.chosen {
        s.chosen[s.chosen_len as usize] = slot as u8;
        s.chosen_len += 1;
    }
    // The kernel's stack resolves its last element first.
    let mut pending = PendingStack::new();
    for ((slot, _, remaining, seat, _), node) in f.pending.iter().zip(nodes).rev() {
        let node = node.expect("a checked pending effect");
        let slot = if *slot < 0 { NO_SLOT } else { *slot as u8 }; // a setup step has none
        pending.push(Pending { node, slot, seat: *seat as u8, remaining: *remaining as u32 });
    }
    s.pending = pending;
    s.survey_rules = f.survey_rules as u8;
    s.survey_bonus = f.survey_bonus as i32;
    s.survey_placed = f.survey_placed as i32;
    s.survey_last = f.survey_last as i32;
    s.survey_direction = f.survey_direction as i8;
    s.survey_skips = f.survey_skips as i32;
    for &p in &f.surveyed {
        s.surveyed |= 1 << p;
    }
    for trigger in &f.triggers {
        if let Some(flag) = game.rules.end.flag(trigger) {
            s.triggers |= flag;
        }
    }
    for &slot in &f.closed {
        s.closed |= 1 << slot;
    }
    for (seat, &until) in f.protected.iter().enumerate() {
        s.protected[seat] = until as u8;
    }
    for (slot, &card) in f.borrowed.iter().enumerate() {
        s.borrowed[slot] = card as i16;
    }
    for (k, &card) in f.queue.iter().enumerate().take(crate::limits::MAX_QUEUE) {
        s.queue[k] = card as u16;
    }
    s.queue_len = f.queue.len().min(crate::limits::MAX_QUEUE) as u8;
    game.recount(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::draft_like;
    use crate::rng::Rng;

    fn played(game: &Game, seed: u64, until: impl Fn(&State) -> bool) -> State {
        let mut rng = Rng::new(seed);
        let (planets, crew, start) = game.deal(4, &mut rng).unwrap();
        let mut s = game.new_state(4, &planets, &crew, start).unwrap();
        while !until(&s) && !s.legal.is_empty() {
            let act = s.legal[rng.below(s.legal.len())];
            game.step_unchecked(&mut s, act);
        }
        s
    }

    fn problems(game: &Game, fields: &StateFields) -> Vec<String> {
        match state_from_fields(game, fields, Trust::Nobody) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[test]
    fn every_state_of_a_random_game_reads_back_as_itself() {
        let game = draft_like();
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let (planets, crew, start) = game.deal(4, &mut rng).unwrap();
            let mut s = game.new_state(4, &planets, &crew, start).unwrap();
            loop {
                let fields = StateFields::of(&game, &s);
                let read = state_from_fields(&game, &fields, Trust::Nobody).unwrap();
                assert_eq!(StateFields::of(&game, &read), fields);
                assert_eq!(read.legal, s.legal);
                if s.legal.is_empty() {
                    break;
                }
                let act = s.legal[rng.below(s.legal.len())];
                game.step_unchecked(&mut s, act);
            }
        }
    }

    #[test]
    fn r13_a_hand_past_the_cubes_a_player_has_is_refused_at_its_seat() {
        let game = draft_like();
        let mut fields = StateFields::of(&game, &played(&game, 1, |_| false));
        fields.hands[2] = 32767;
        assert_eq!(problems(&game, &fields)[0], "$.seats[2].hand: 32767 is outside 0..12");
    }

    #[test]
    fn a_pending_effect_with_more_steps_than_its_count_is_refused() {
        let game = draft_like();
        let s = played(&game, 3, |s| !s.pending.is_empty());
        let mut fields = StateFields::of(&game, &s);
        fields.pending[0].2 = u32::MAX as i64;
        let found = problems(&game, &fields);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("$.pending[0].remaining: 4294967295 steps left of '"), "{found:?}");
    }

    #[test]
    fn r7_a_survey_bonus_past_every_skill_is_refused_but_trusted_states_skip_the_rules() {
        let game = draft_like();
        let s = played(&game, 5, |s| s.stage == Stage::Surveying);
        let mut fields = StateFields::of(&game, &s);
        let most = game.rules.bounds.most_survey_bonus;
        fields.survey_bonus = 1 << 20;
        assert_eq!(problems(&game, &fields), vec![format!("$.survey.bonus: 1048576 is outside 0..{most}")]);
        assert!(state_from_fields(&game, &fields, Trust::Engine).is_ok(), "a trusted state skips the rules");
        fields.survey_bonus = 1 << 40;
        assert!(state_from_fields(&game, &fields, Trust::Engine).is_err(), "past what the kernel stores");
    }
}
