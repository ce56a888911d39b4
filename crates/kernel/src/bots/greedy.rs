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
    let (mut next, mut kept) = (state.clone(), state.clone());
    let mut look = Lookahead { game, params, deadline, work, evaluated: 0 };
    for &act in &state.legal {
        after.copy_position(state); // its legal actions are written by the step
        look.step(&mut after, act)?;
        let value = look.follow(&mut after, [&mut next, &mut kept], seat, state.round, state.turn)?;
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

    /// Play `seat`'s own next decisions of this turn greedily from `state` (left where they
    /// end); the value of where they end. `scratch` holds the states a decision tries and
    /// keeps, reused by every root action instead of cloned anew.
    fn follow(&mut self, state: &mut State, scratch: [&mut State; 2], seat: usize, round: u32, turn: u8) -> Result<f64, TimedOut> {
        let [next, best] = scratch;
        let (game, params) = (self.game, self.params);
        let mut decisions = 0u64;
        // The value of the state the last lookahead decision kept: that of `state` when the
        // loop ends after one, the same sum computed once.
        let mut kept: Option<f64> = None;
        while !state.legal.is_empty()
            && state.turn == turn
            && state.round == round
            && game.current_player(state) == Some(seat)
            && decisions < game.rules.bounds.most_turn_decisions
        {
            // The first option always beats NEG_INFINITY (margins are finite), so `best` is
            // written before it is read: no copy of `state` into it first.
            let mut best_value = f64::NEG_INFINITY;
            for &act in &state.legal {
                next.copy_position(state);
                self.step(next, act)?;
                let value = margin(game, next, seat, params.hand, params.start);
                if value > best_value + TIE {
                    best_value = value;
                    std::mem::swap(best, next);
                }
            }
            std::mem::swap(state, best);
            kept = Some(best_value);
            decisions += 1;
        }
        Ok(match kept {
            Some(value) => value,
            None => margin(game, state, seat, params.hand, params.start),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::draft_like;

    /// The lookahead written plainly, a fresh state for every try: what `choose` must decide.
    fn plain_choice(game: &Game, state: &State, params: &GreedyParams, rng: &mut Rng) -> Action {
        let seat = game.current_player(state).unwrap();
        let follow = |mut s: State| {
            let mut decisions = 0;
            while !s.legal.is_empty()
                && s.turn == state.turn
                && s.round == state.round
                && game.current_player(&s) == Some(seat)
                && decisions < game.rules.bounds.most_turn_decisions
            {
                let mut best: Option<(f64, State)> = None;
                for &act in &s.legal {
                    let mut next = s.clone();
                    game.step_unchecked(&mut next, act);
                    let value = margin(game, &next, seat, params.hand, params.start);
                    if best.as_ref().is_none_or(|(b, _)| value > b + TIE) {
                        best = Some((value, next));
                    }
                }
                s = best.unwrap().1;
                decisions += 1;
            }
            margin(game, &s, seat, params.hand, params.start)
        };
        let mut best = f64::NEG_INFINITY;
        let mut tied = Vec::new();
        for &act in &state.legal {
            let mut after = state.clone();
            game.step_unchecked(&mut after, act);
            let value = follow(after);
            if value > best + TIE {
                best = value;
                tied = vec![act];
            } else if value >= best - TIE {
                tied.push(act);
            }
        }
        if tied.len() == 1 { tied[0] } else { tied[rng.below(tied.len())] }
    }

    #[test]
    fn the_lookahead_reusing_its_states_decides_as_the_plain_one() {
        let game = draft_like();
        let params = GreedyParams::default();
        let mut decided = 0;
        for seed in 0..6u64 {
            let (planets, crew, start) = game.deal(4, &mut Rng::new(seed)).unwrap();
            let mut state = game.new_state(4, &planets, &crew, start).unwrap();
            let (mut fast, mut plain) = (Rng::new(seed), Rng::new(seed));
            while !state.legal.is_empty() {
                let act = if state.legal.len() == 1 {
                    state.legal[0]
                } else {
                    let chosen = choose(&game, &state, &params, &mut fast, None, &mut Work::default()).unwrap();
                    assert_eq!(chosen, plain_choice(&game, &state, &params, &mut plain));
                    decided += 1;
                    chosen
                };
                game.step(&mut state, act).unwrap();
            }
        }
        assert!(decided > 100, "{decided} decisions compared");
    }
}
