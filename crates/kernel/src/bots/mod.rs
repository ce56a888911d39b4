//! The bots' inner loops inside the kernel: uniformly random choice, greedy's one-turn
//! lookahead, and the whole MCTS search. Each mirrors its Python bot in
//! `stargazer_rules.bots` (same parameters, same evaluation); exact equality of choices is not
//! required, the rules are shared and the strength is measured (benchmarks/skill_ladder.py).

pub mod evaluation;
pub mod greedy;
pub mod mcts;
pub mod play;

use crate::game::Game;
use crate::rng::Rng;
use crate::state::{Action, State};

pub use greedy::GreedyParams;
pub use mcts::{Decision, MctsParams, RootValues, Rollout, TimedOut};

use std::time::Instant;

/// Which bot, with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotKind {
    Random,
    Greedy(GreedyParams),
    Mcts(MctsParams),
}

/// A bot: its kind and its seeded generator. A decision is a pure function of the seed, the
/// decisions asked of it before, and the state. `last_values` is what the last decision's
/// search thought of the root (MCTS only; None after a forced move, a timeout or another
/// kind's decision): an output, never read by a later decision.
#[derive(Clone, Debug)]
pub struct Bot {
    pub kind: BotKind,
    pub rng: Rng,
    pub last_values: Option<RootValues>,
}

impl Bot {
    pub fn new(kind: BotKind, seed: u64) -> Bot {
        Bot { kind, rng: Rng::new(seed), last_values: None }
    }

    /// One of `state.legal` for the player to move; None when the game is over.
    pub fn choose(&mut self, game: &Game, state: &State) -> Option<Action> {
        self.choose_until(game, state, None).unwrap_or_else(|_| unreachable!("no deadline"))
    }

    /// `choose`, or `TimedOut` when the search runs past `deadline`: MCTS looks at it every
    /// 16 iterations, greedy every `greedy::CHECK_EVERY` game steps; a random choice is one
    /// draw.
    pub fn choose_until(&mut self, game: &Game, state: &State, deadline: Option<Instant>) -> Result<Option<Action>, TimedOut> {
        self.choose_counting(game, state, deadline, &mut greedy::Work::default())
    }

    /// `choose_until`, adding the greedy lookahead's game steps to `work`.
    pub fn choose_counting(
        &mut self,
        game: &Game,
        state: &State,
        deadline: Option<Instant>,
        work: &mut greedy::Work,
    ) -> Result<Option<Action>, TimedOut> {
        self.last_values = None;
        Ok(match state.legal.len() {
            0 => None,
            1 => Some(state.legal[0]),
            n => Some(match self.kind {
                BotKind::Random => state.legal[self.rng.below(n)],
                BotKind::Greedy(params) => greedy::choose(game, state, &params, &mut self.rng, deadline, work)?,
                BotKind::Mcts(params) => {
                    let decision = mcts::decide(game, state, &params, &mut self.rng, deadline)?;
                    self.last_values = decision.values;
                    decision.action
                }
            }),
        })
    }
}

/// Play one game from `state` to its end with uniformly random moves; the number of
/// decisions taken. The random-playout benchmark and the rollouts' baseline.
pub fn random_playout(game: &Game, state: &mut State, rng: &mut Rng) -> usize {
    let mut decisions = 0;
    while !state.legal.is_empty() {
        let act = state.legal[rng.below(state.legal.len())];
        game.step_unchecked(state, act);
        decisions += 1;
    }
    decisions
}
