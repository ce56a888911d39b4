//! N games of one ruleset and player count, stepped together by action id: the batched half
//! of the fast API (`stargazer_rules.fast.FastBatch`). Games are dealt as the Python engine
//! deals them (`python_deal`); each method reads or writes flat row-major buffers (one row per
//! game) that the bindings copy into numpy arrays.
//!
//! The batch keeps every game's legal ids in one flat buffer, renewed right after the game
//! moves: a step then checks the ids against that buffer and touches each game's state once,
//! while it is in the cache, and `legal_ids` is one copy.

use crate::action_index::ActionIndex;
use crate::error::KernelError;
use crate::game::Game;
use crate::observation::ObservationLayout;
use std::collections::VecDeque;

use crate::python_deal::{python_deal, python_deals, Deal};
use crate::python_random::LANES;
use crate::state::State;

/// The games of a batch, and how a game that ends is dealt again.
#[derive(Clone, Debug)]
pub struct Batch {
    pub players: usize,
    pub states: Vec<State>,
    /// Deal a game that ends again at once, from `next_seed` (then counting up).
    pub auto_reset: bool,
    pub next_seed: u64,
    /// Per game, `seats` values: the returns of its game that ended last (0s before), scored
    /// when first read (`final_returns`): a step only keeps the game that ended.
    final_returns: Vec<f32>,
    /// Games that ended and are not scored into `final_returns` yet: those still in their
    /// slot (without auto reset), and those an auto reset dealt away, in the order they ended.
    unscored: Vec<bool>,
    dealt_away: Vec<(usize, State)>,
    pub seats: usize,
    /// Per game, `width` legal ids in the engine's order then -1, and how many.
    pub legal: Vec<i32>,
    pub counts: Vec<i32>,
    pub width: usize,
    /// The deals of the next seeds of an auto reset, dealt `LANES` at a time.
    upcoming: VecDeque<Deal>,
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

/// Write the legal ids of `s` into `row`, whose first `before` ids were the last ones written
/// and the rest -1; how many there are now. Only what changed is written.
fn write_legal(index: &ActionIndex, s: &State, row: &mut [i32], before: usize) -> i32 {
    let mut count = 0;
    for (cell, &act) in row.iter_mut().zip(s.legal.iter()) {
        *cell = index.id_of_legal(act) as i32;
        count += 1;
    }
    if before > count {
        row[count..before].fill(-1);
    }
    count as i32
}

impl Batch {
    pub fn new(game: &Game, index: &ActionIndex, players: usize, seeds: &[u64], auto_reset: bool) -> Result<Batch, KernelError> {
        let states = python_deals(&game.rules, players, seeds)?
            .into_iter()
            .map(|(planets, crew, start)| game.new_state(players, &planets, &crew, start))
            .collect::<Result<Vec<_>, _>>()?;
        let seats = game.rules.bounds.most_players;
        let width = index.most_legal() as usize;
        let mut batch = Batch {
            players,
            final_returns: vec![0.0; states.len() * seats],
            unscored: vec![false; states.len()],
            dealt_away: Vec::new(),
            legal: vec![-1; states.len() * width],
            counts: vec![0; states.len()],
            states,
            auto_reset,
            next_seed: seeds.iter().max().map_or(0, |&s| s.wrapping_add(1)),
            seats,
            width,
            upcoming: VecDeque::new(),
        };
        for i in 0..batch.len() {
            batch.renew_legal(index, i);
        }
        Ok(batch)
    }

    fn renew_legal(&mut self, index: &ActionIndex, i: usize) {
        let row = &mut self.legal[i * self.width..(i + 1) * self.width];
        self.counts[i] = write_legal(index, &self.states[i], row, self.counts[i] as usize);
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn reset(&mut self, game: &Game, index: &ActionIndex, i: usize, seed: u64) -> Result<(), KernelError> {
        let fresh = dealt(game, self.players, seed)?;
        self.score(game);
        self.states[i] = fresh;
        self.renew_legal(index, i);
        Ok(())
    }

    /// Play `ids[i]` in every game `i` not over (the id of a game over is ignored); `ended[i]`
    /// tells whether game `i` ended on it. Every id is checked before any game moves: an id
    /// not legal in its game leaves the whole batch unchanged.
    pub fn step(&mut self, game: &Game, index: &ActionIndex, ids: &[i64], ended: &mut [u8]) -> Result<(), GameError> {
        let width = self.width;
        for (i, &id) in ids.iter().enumerate() {
            let count = self.counts[i] as usize;
            if count == 0 {
                continue; // over
            }
            // The whole row, -1 past its ids, compared without a branch per id.
            let row = &self.legal[i * width..(i + 1) * width];
            let wanted = i32::try_from(id).unwrap_or(-1);
            if wanted < 0 || !row.iter().fold(false, |found, &legal| found | (legal == wanted)) {
                let error = match u32::try_from(id).ok().and_then(|id| index.action_of(id)) {
                    // Not legal: the game's own words for why (it refuses without moving).
                    Some(act) => game.step(&mut self.states[i].clone(), act).err(),
                    None => None,
                };
                let error = error.unwrap_or_else(|| KernelError::Illegal(format!("action id {id} is outside 0..{}", index.size as i64 - 1)));
                return Err(GameError { game: i, error });
            }
        }
        for i in 0..self.states.len() {
            ended[i] = 0;
            if self.counts[i] == 0 {
                continue;
            }
            // Checked above: the id is one of the game's legal ids.
            let Some(act) = index.action_of(ids[i] as u32) else { continue };
            let s = &mut self.states[i];
            game.step_unchecked(s, act);
            if s.is_over() {
                ended[i] = 1;
                if self.auto_reset {
                    if self.upcoming.is_empty() {
                        let seeds: Vec<u64> = (0..LANES as u64).map(|k| self.next_seed.wrapping_add(k)).collect();
                        // The player count was dealt once already: it is supported.
                        self.upcoming.extend(python_deals(&game.rules, self.players, &seeds).unwrap_or_default());
                    }
                    let fresh = self.upcoming.pop_front().and_then(|(planets, crew, start)| game.new_state(self.players, &planets, &crew, start).ok());
                    self.next_seed = self.next_seed.wrapping_add(1);
                    match fresh {
                        Some(fresh) => self.dealt_away.push((i, std::mem::replace(s, fresh))),
                        None => self.unscored[i] = true, // never: without a deal the game stays over
                    }
                } else {
                    self.unscored[i] = true;
                }
            }
            self.renew_legal(index, i);
        }
        if self.dealt_away.len() > self.states.len() {
            self.score(game); // the games kept for scoring stay fewer than the batch's
        }
        Ok(())
    }

    /// Score every game that ended and is not scored yet into `final_returns`.
    fn score(&mut self, game: &Game) {
        let seats = self.seats;
        // In the order they ended: a slot's last game is scored last.
        for (i, ended) in self.dealt_away.drain(..) {
            returns(game, &ended, &mut self.final_returns[i * seats..(i + 1) * seats]);
        }
        for (i, unscored) in self.unscored.iter_mut().enumerate() {
            if *unscored {
                returns(game, &self.states[i], &mut self.final_returns[i * seats..(i + 1) * seats]);
                *unscored = false;
            }
        }
    }

    /// Per game, `seats` values: the returns of its game that ended last (0s before).
    pub fn final_returns(&mut self, game: &Game) -> &[f32] {
        self.score(game);
        &self.final_returns
    }

    /// Row `i` of `mask` (`index.size` per game): 1 where the action is legal in game `i`.
    pub fn legal_mask(&self, index: &ActionIndex, mask: &mut [u8]) {
        let size = index.size as usize;
        mask.fill(0);
        for i in 0..self.len() {
            for &id in &self.legal[i * self.width..i * self.width + self.counts[i] as usize] {
                if id >= 0 {
                    mask[i * size + id as usize] = 1;
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
        for (i, &count) in self.counts.iter().enumerate() {
            out[i] = (count == 0) as u8;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// A batch plays each game as the game alone does, and refuses an illegal id unmoved.
    #[test]
    fn a_batch_plays_as_single_games() {
        let game = fixtures::draft_like();
        let index = ActionIndex::new(game.rules.action_sizes, game.rules.action_layout);
        let players = game.rules.setups[0].players;
        let seeds: Vec<u64> = (0..8).collect();
        let mut batch = Batch::new(&game, &index, players, &seeds, false).unwrap();
        let mut singles: Vec<State> = seeds.iter().map(|&seed| dealt(&game, players, seed).unwrap()).collect();
        let mut ended = vec![0u8; seeds.len()];
        let mut rng = crate::rng::Rng::new(5);
        while batch.counts.iter().any(|&c| c > 0) {
            let mut ids = vec![-1i64; seeds.len()];
            for (i, single) in singles.iter_mut().enumerate() {
                if single.is_over() {
                    continue;
                }
                let act = single.legal[rng.below(single.legal.len())];
                ids[i] = index.id_of(act).unwrap() as i64;
                game.step(single, act).unwrap();
            }
            batch.step(&game, &index, &ids, &mut ended).unwrap();
            assert_eq!(batch.states, singles);
        }
        let before = batch.states.clone();
        assert!(batch.step(&game, &index, &vec![0; seeds.len()], &mut ended).is_ok());
        assert_eq!(batch.states, before);
        let mut fresh = Batch::new(&game, &index, players, &seeds, false).unwrap();
        let failure = fresh.step(&game, &index, &vec![index.size as i64; seeds.len()], &mut ended).unwrap_err();
        assert_eq!(failure.game, 0);
        assert_eq!(fresh.states, Batch::new(&game, &index, players, &seeds, false).unwrap().states);
    }
}
