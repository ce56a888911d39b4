//! N games of one ruleset and player count, stepped together by action id: the batched half
//! of the fast API (`stargazer_rules.fast.FastBatch`). Games are dealt as the Python engine
//! deals them (`python_deal`); each method reads or writes flat row-major buffers (one row per
//! game) that the bindings copy into numpy arrays.

use crate::action_index::ActionIndex;
use crate::error::KernelError;
use crate::game::Game;
use crate::observation::ObservationLayout;
use crate::python_deal::python_deal;
use crate::state::State;

/// The games of a batch, and how a game that ends is dealt again.
#[derive(Clone, Debug)]
pub struct Batch {
    pub players: usize,
    pub states: Vec<State>,
    /// Deal a game that ends again at once, from `next_seed` (then counting up).
    pub auto_reset: bool,
    pub next_seed: u64,
    /// Per game, `seats` values: the returns of its game that ended last (0s before).
    pub final_returns: Vec<f32>,
    pub seats: usize,
}

/// Where a batch step went wrong: the game and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub game: usize,
    pub error: KernelError,
}

/// Per seat, the share of the win: 1/k to each of k tied winners (R18), 0s until over.
pub fn returns(game: &Game, s: &State, out: &mut [f32]) {
    out.fill(0.0);
    if s.is_over() {
        let winners = game.winners(s);
        for &seat in &winners {
            out[seat] = 1.0 / winners.len() as f32;
        }
    }
}

/// A new game dealt as the Python engine deals `seed`.
pub fn dealt(game: &Game, players: usize, seed: u64) -> Result<State, KernelError> {
    let (planets, crew, start) = python_deal(&game.rules, players, seed)?;
    game.new_state(players, &planets, &crew, start)
}

impl Batch {
    pub fn new(game: &Game, players: usize, seeds: &[u64], auto_reset: bool) -> Result<Batch, KernelError> {
        let states = seeds.iter().map(|&seed| dealt(game, players, seed)).collect::<Result<Vec<_>, _>>()?;
        let seats = game.rules.bounds.most_players;
        Ok(Batch {
            players,
            final_returns: vec![0.0; states.len() * seats],
            states,
            auto_reset,
            next_seed: seeds.iter().max().map_or(0, |&s| s.wrapping_add(1)),
            seats,
        })
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn reset(&mut self, game: &Game, i: usize, seed: u64) -> Result<(), KernelError> {
        self.states[i] = dealt(game, self.players, seed)?;
        Ok(())
    }

    /// Play `ids[i]` in every game `i` not over (the id of a game over is ignored); `ended[i]`
    /// tells whether game `i` ended on it. Every id is checked before any game moves: an id
    /// not legal in its game leaves the whole batch unchanged.
    pub fn step(&mut self, game: &Game, index: &ActionIndex, ids: &[i64], ended: &mut [u8]) -> Result<(), GameError> {
        let mut actions = Vec::with_capacity(self.states.len());
        for (i, s) in self.states.iter().enumerate() {
            if s.is_over() {
                actions.push(None);
                continue;
            }
            match u32::try_from(ids[i]).ok().and_then(|id| index.action_of(id)) {
                Some(act) if s.legal.contains(&act) => actions.push(Some(act)),
                Some(act) => {
                    // Not legal: the game's own words for why (it refuses without moving).
                    let error = game.step(&mut s.clone(), act).err().unwrap_or_else(|| KernelError::Illegal("not legal".into()));
                    return Err(GameError { game: i, error });
                }
                None => {
                    let error = KernelError::Illegal(format!("action id {} is outside 0..{}", ids[i], index.size as i64 - 1));
                    return Err(GameError { game: i, error });
                }
            }
        }
        for (i, (s, act)) in self.states.iter_mut().zip(actions).enumerate() {
            ended[i] = 0;
            let Some(act) = act else { continue };
            game.step_unchecked(s, act);
            if s.is_over() {
                ended[i] = 1;
                returns(game, s, &mut self.final_returns[i * self.seats..(i + 1) * self.seats]);
                if self.auto_reset {
                    let seed = self.next_seed;
                    self.next_seed = self.next_seed.wrapping_add(1);
                    // The player count was dealt once already: it is supported.
                    if let Ok(fresh) = dealt(game, self.players, seed) {
                        *s = fresh;
                    }
                }
            }
        }
        Ok(())
    }

    /// Row `i` of `ids` (`width` per game): the legal ids of game `i` in the engine's order,
    /// then -1; `counts[i]` how many.
    pub fn legal_ids(&self, index: &ActionIndex, width: usize, ids: &mut [i32], counts: &mut [i32]) {
        for (i, s) in self.states.iter().enumerate() {
            let row = &mut ids[i * width..(i + 1) * width];
            let mut count = 0;
            for &act in s.legal.iter().take(width) {
                row[count] = index.id_of(act).map_or(-1, |id| id as i32);
                count += 1;
            }
            row[count..].fill(-1);
            counts[i] = count as i32;
        }
    }

    /// Row `i` of `mask` (`index.size` per game): 1 where the action is legal in game `i`.
    pub fn legal_mask(&self, index: &ActionIndex, mask: &mut [u8]) {
        let width = index.size as usize;
        for (i, s) in self.states.iter().enumerate() {
            let row = &mut mask[i * width..(i + 1) * width];
            row.fill(0);
            for &act in &s.legal {
                if let Some(id) = index.id_of(act) {
                    row[id as usize] = 1;
                }
            }
        }
    }

    pub fn current_player(&self, game: &Game, out: &mut [i32]) {
        for (i, s) in self.states.iter().enumerate() {
            out[i] = game.current_player(s).map_or(-1, |seat| seat as i32);
        }
    }

    pub fn is_over(&self, out: &mut [u8]) {
        for (i, s) in self.states.iter().enumerate() {
            out[i] = s.is_over() as u8;
        }
    }

    /// Row `i` of `out` (`seats` per game): the returns of game `i` as it stands.
    pub fn returns(&self, game: &Game, out: &mut [f32]) {
        for (i, s) in self.states.iter().enumerate() {
            returns(game, s, &mut out[i * self.seats..(i + 1) * self.seats]);
        }
    }

    /// Row `i` of `out` (`layout.size` per game): game `i` seen by `seat`, or by its player to
    /// move when `seat` is None (seat 0 for a game over). A seat beyond a game's table is the
    /// caller's to refuse.
    pub fn observations(&self, game: &Game, layout: &ObservationLayout, seat: Option<usize>, out: &mut [f32]) {
        for (i, s) in self.states.iter().enumerate() {
            let viewer = seat.unwrap_or_else(|| game.current_player(s).unwrap_or(0));
            layout.observe(game, s, viewer, &mut out[i * layout.size..(i + 1) * layout.size]);
        }
    }
}
