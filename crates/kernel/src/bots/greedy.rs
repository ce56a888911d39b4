//! The greedy bot: one turn ahead over the mover's own consecutive decisions, each judged by
//! `evaluation::margin` (the Python `GreedyBot`).

use super::evaluation::{margin, HAND_WEIGHT, START_WEIGHT};
use crate::game::Game;
use crate::rng::Rng;
use crate::state::{Action, State};

/// Values closer than this are ties (float sums of the same VP in another order).
const TIE: f64 = 1e-9;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GreedyParams {
    /// VP value of a cube in hand mid-game.
    pub hand: f64,
    /// VP value of being the start player.
    pub start: f64,
}

impl Default for GreedyParams {
    fn default() -> Self {
        GreedyParams { hand: HAND_WEIGHT, start: START_WEIGHT }
    }
}

pub fn choose(game: &Game, state: &State, params: &GreedyParams, rng: &mut Rng) -> Action {
    let seat = game.current_player(state).expect("a decision is pending");
    let mut best = f64::NEG_INFINITY;
    let mut best_actions: Vec<Action> = Vec::new();
    let mut after = state.clone();
    for &act in &state.legal {
        after.clone_from(state);
        game.step_unchecked(&mut after, act);
        let value = follow(game, after.clone(), seat, state.round, state.turn, params);
        if value > best + TIE {
            best = value;
            best_actions.clear();
            best_actions.push(act);
        } else if value >= best - TIE {
            best_actions.push(act);
        }
    }
    if best_actions.len() == 1 {
        best_actions[0]
    } else {
        best_actions[rng.below(best_actions.len())]
    }
}

/// Play `seat`'s own next decisions of this turn greedily; the value of where they end.
fn follow(game: &Game, mut state: State, seat: usize, round: u32, turn: u8, params: &GreedyParams) -> f64 {
    let mut after = state.clone();
    let mut best_state = state.clone();
    while !state.legal.is_empty()
        && state.turn == turn
        && state.round == round
        && game.current_player(&state) == Some(seat)
    {
        let mut best_value = f64::NEG_INFINITY;
        best_state.clone_from(&state);
        for &act in &state.legal {
            after.clone_from(&state);
            game.step_unchecked(&mut after, act);
            let value = margin(game, &after, seat, params.hand, params.start);
            if value > best_value + TIE {
                best_value = value;
                std::mem::swap(&mut best_state, &mut after);
            }
        }
        std::mem::swap(&mut state, &mut best_state);
    }
    margin(game, &state, seat, params.hand, params.start)
}
