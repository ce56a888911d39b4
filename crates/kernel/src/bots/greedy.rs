//! The greedy bot: one turn ahead over the mover's own consecutive decisions, each judged by
//! `evaluation::margin` (the Python `GreedyBot`). Its work per decision is bounded by the
//! ruleset (`Bounds::most_turn_decisions`) and it honours a deadline as MCTS does.

use std::time::Instant;

use super::evaluation::{margin, HAND_WEIGHT, START_WEIGHT};
use super::mcts::TimedOut;
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

/// Game steps between two looks at the deadline.
pub const CHECK_EVERY: u64 = 256;

/// The work of one greedy decision: the game steps its lookahead played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    pub steps: u64,
}

/// The greedy choice among `state.legal` (two or more), or `TimedOut` when `deadline` passes
/// first. The work is bounded whatever the state: each action's lookahead plays at most
/// `Bounds::most_turn_decisions` of the mover's own decisions, so a decision costs at most
/// that many steps per legal action and per option of each lookahead decision.
pub fn choose(
    game: &Game,
    state: &State,
    params: &GreedyParams,
    rng: &mut Rng,
    deadline: Option<Instant>,
    work: &mut Work,
) -> Result<Action, TimedOut> {
    let seat = game.current_player(state).expect("a decision is pending");
    let mut best = f64::NEG_INFINITY;
    let mut best_actions: Vec<Action> = Vec::new();
    let mut scored = state.clone();
    game.update_scores(&mut scored); // once here, so that every step updates only its own Planets
    let state = &scored;
    let mut after = state.clone();
    let mut look = Lookahead { game, params, deadline, work, evaluated: 0 };
    for &act in &state.legal {
        after.clone_from(state);
        look.step(&mut after, act)?;
        let value = look.follow(after.clone(), seat, state.round, state.turn)?;
        look.evaluated += 1;
        if value > best + TIE {
            best = value;
            best_actions.clear();
            best_actions.push(act);
        } else if value >= best - TIE {
            best_actions.push(act);
        }
    }
    Ok(if best_actions.len() == 1 { best_actions[0] } else { best_actions[rng.below(best_actions.len())] })
}

struct Lookahead<'a> {
    game: &'a Game,
    params: &'a GreedyParams,
    deadline: Option<Instant>,
    work: &'a mut Work,
    /// Root actions judged so far (what `TimedOut` reports).
    evaluated: u32,
}

impl Lookahead<'_> {
    /// One game step, counted; `TimedOut` once the deadline has passed (looked at every
    /// `CHECK_EVERY` steps).
    fn step(&mut self, state: &mut State, act: Action) -> Result<(), TimedOut> {
        self.game.step_unchecked(state, act);
        self.game.update_scores(state); // every state stepped to is judged
        self.work.steps += 1;
        if self.work.steps.is_multiple_of(CHECK_EVERY) {
            if let Some(deadline) = self.deadline {
                if Instant::now() > deadline {
                    return Err(TimedOut { iterations: self.evaluated });
                }
            }
        }
        Ok(())
    }

    /// Play `seat`'s own next decisions of this turn greedily; the value of where they end.
    fn follow(&mut self, mut state: State, seat: usize, round: u32, turn: u8) -> Result<f64, TimedOut> {
        let (game, params) = (self.game, self.params);
        let mut after = state.clone();
        let mut best_state = state.clone();
        let mut decisions = 0u64;
        while !state.legal.is_empty()
            && state.turn == turn
            && state.round == round
            && game.current_player(&state) == Some(seat)
            && decisions < game.rules.bounds.most_turn_decisions
        {
            let mut best_value = f64::NEG_INFINITY;
            best_state.clone_from(&state);
            for &act in &state.legal {
                after.clone_from(&state);
                self.step(&mut after, act)?;
                let value = margin(game, &after, seat, params.hand, params.start);
                if value > best_value + TIE {
                    best_value = value;
                    std::mem::swap(&mut best_state, &mut after);
                }
            }
            std::mem::swap(&mut state, &mut best_state);
            decisions += 1;
        }
        Ok(margin(game, &state, seat, params.hand, params.start))
    }
}
