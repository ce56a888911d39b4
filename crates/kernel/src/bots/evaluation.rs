//! Judging a state for a seat from the provisional score sheet, as
//! `stargazer_rules.bots.evaluation` does: totals, plus small values for cubes in hand and for
//! being the start player mid-game; at the end cubes in hand only break ties (R18).

use crate::game::Game;
use crate::state::State;
use crate::limits::MAX_PLAYERS;

/// VP of a cube in hand mid-game, and of being the start player (docs/bots.md).
pub const HAND_WEIGHT: f64 = 0.5;
pub const START_WEIGHT: f64 = 1.0;

/// VP a cube in hand counts at the end: a whole hand is worth at most a thousandth of a VP.
pub fn tie_break_weight(game: &Game) -> f64 {
    0.001 / (game.rules.knobs.cubes_per_player as f64 + 1.0)
}

fn best_other(values: &[f64], seat: usize) -> f64 {
    let mut best: Option<f64> = None;
    for (other, &value) in values.iter().enumerate() {
        if other != seat && best.is_none_or(|b| value > b) {
            best = Some(value);
        }
    }
    best.unwrap_or(0.0)
}

/// The seat's lead over the best other seat, in VP, with the mid-game terms.
pub fn margin(game: &Game, state: &State, seat: usize, hand_weight: f64, start_weight: f64) -> f64 {
    let players = state.players as usize;
    let totals = game.totals(state);
    let mut scores = [0.0f64; MAX_PLAYERS];
    if state.legal.is_empty() {
        let weight = tie_break_weight(game);
        for i in 0..players {
            scores[i] = totals[i] as f64 + weight * state.hands[i] as f64;
        }
        return scores[seat] - best_other(&scores[..players], seat);
    }
    for i in 0..players {
        scores[i] = totals[i] as f64;
    }
    let mut value = scores[seat] - best_other(&scores[..players], seat) + hand_weight * state.hands[seat] as f64;
    if state.start_player as usize == seat {
        value += start_weight;
    }
    value
}

/// Each seat's reward in (0, 1): the sigmoid of its lead over the best other seat, in units
/// of `scale` VP (the MCTS bot's `_values`).
pub fn rewards(game: &Game, state: &State, scale: f64) -> [f64; MAX_PLAYERS] {
    let players = state.players as usize;
    let totals = game.totals(state);
    let weight = if state.legal.is_empty() { tie_break_weight(game) } else { HAND_WEIGHT };
    let mut scores = [0.0f64; MAX_PLAYERS];
    for i in 0..players {
        scores[i] = totals[i] as f64 + weight * state.hands[i] as f64;
    }
    let mut leader = 0;
    for i in 1..players {
        if scores[i] > scores[leader] {
            leader = i;
        }
    }
    let best = scores[leader];
    let runner_up = best_other(&scores[..players], leader);
    let mut values = [0.0f64; MAX_PLAYERS];
    for seat in 0..players {
        let lead = (scores[seat] - if seat == leader { runner_up } else { best }) / scale;
        values[seat] = if lead > -50.0 { 1.0 / (1.0 + (-lead).exp()) } else { 0.0 };
    }
    values
}
