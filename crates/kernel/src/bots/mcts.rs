//! The MCTS bot: UCT for 3-4 players, each seat maximising its own result (max^n style), as
//! the Python `MCTSBot` (see its module docstring for the design): every node keeps a reward
//! vector; a new child starts with `prior` virtual visits of its heuristic value; rollouts run
//! `depth` decisions with the chosen policy; the most-visited root child is played, and the
//! root's value for every seat (`RootValues`) is kept beside it.
//!
//! Nodes live in one arena; a node's children are contiguous, created at once on expansion.

use std::time::Instant;

use super::evaluation::rewards;
use crate::game::Game;
use crate::rng::Rng;
use crate::state::{empty, Action, Actions, Kind, State};
use smallvec::SmallVec;
use crate::limits::MAX_PLAYERS;

/// How a rollout chooses (the Python bot's `rollout` parameter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniform over the legal actions.
    Random,
    /// Uniform, but a survey places as many cubes as it can.
    Full,
    /// As `Full`, and the survey's start is the one giving the mover the best provisional lead.
    Greedy,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    pub iterations: u32,
    pub c: f64,
    pub rollout: Rollout,
    /// Decisions per rollout; 0 plays to the end.
    pub depth: u32,
    pub prior: u32,
    pub scale: f64,
}

impl Default for MctsParams {
    /// The Python bot's defaults (docs/bots.md).
    fn default() -> Self {
        MctsParams { iterations: 400, c: 0.7, rollout: Rollout::Full, depth: 16, prior: 3, scale: 4.0 }
    }
}

/// A node's search statistics; its state is at the same index of `Search::states`, so that
/// the selection, which reads only these, walks a compact array.
struct Node {
    action: Action,
    mover: usize,
    /// First child and count; count 0 until expanded.
    first: u32,
    count: u32,
    expanded: bool,
    visits: u32,
    rewards: [f64; MAX_PLAYERS],
}

/// The most nodes one search keeps (each holds a state of about a kilobyte): past it leaves are
/// no longer expanded and the search goes on over the tree it has, so that no budget, however
/// large, can exhaust the memory.
pub const MAX_TREE_NODES: usize = 300_000;

/// The root's value for every seat: the mean reward each seat got in the search's simulations
/// (one rollout an iteration; the priors' virtual visits left out), in the reward's scale
/// (`evaluation::rewards`: 0 to 1, high when the seat leads). Who the search thinks is winning.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootValues {
    pub players: usize,
    pub means: [f64; MAX_PLAYERS],
}

impl RootValues {
    /// One value per seat, seat 0 first.
    pub fn seats(&self) -> &[f64] {
        &self.means[..self.players]
    }
}

/// What one search decided: the root child played, and the root's values (None when the search
/// made no simulation: zero iterations).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub action: Action,
    pub values: Option<RootValues>,
}

/// A search that ran past its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedOut {
    /// The iterations done before the deadline.
    pub iterations: u32,
}

struct Search<'a> {
    game: &'a Game,
    params: &'a MctsParams,
    rng: &'a mut Rng,
    nodes: Vec<Node>,
    states: Vec<State>,
    deadline: Option<Instant>,
}

impl Search<'_> {
    fn node(game: &Game, state: &State, action: Action) -> Node {
        let mover = game.current_player(state).unwrap_or(0);
        Node { action, mover, first: 0, count: 0, expanded: false, visits: 0, rewards: [0.0; MAX_PLAYERS] }
    }

    /// All children of `index`, each with `prior` virtual visits of its heuristic value,
    /// shuffled so that ties go to a seeded random one. The order is drawn first and the
    /// children are made in it, straight into the arena (the same draws as shuffling them).
    fn expand(&mut self, index: usize) {
        let legal = Actions::from_slice(&self.states[index].legal);
        let mut order: SmallVec<[usize; 64]> = (0..legal.len()).collect();
        self.rng.shuffle(&mut order);
        let first = self.nodes.len() as u32;
        self.nodes.reserve(legal.len());
        self.states.reserve(legal.len());
        let game = self.game;
        for &i in &order {
            let act = legal[i];
            // The child's state is copied into its place and stepped there: a state is about a
            // kilobyte, not to be moved once more.
            self.states.extend_from_within(index..index + 1);
            let after = self.states.last_mut().expect("the child's state was just added");
            game.step_unchecked(after, act);
            game.update_scores(after);
            let mut child = Self::node(game, after, act);
            let prior = self.params.prior;
            if prior > 0 {
                child.visits = prior;
                let values = rewards(game, after, self.params.scale);
                for (sum, value) in child.rewards.iter_mut().zip(values) {
                    *sum = value * prior as f64;
                }
            }
            self.nodes.push(child);
        }
        let node = &mut self.nodes[index];
        node.first = first;
        node.count = legal.len() as u32;
        node.expanded = true;
    }

    fn rollout(&mut self, mut state: State) -> [f64; MAX_PLAYERS] {
        let game = self.game;
        let mut left: i64 = if self.params.depth == 0 { -1 } else { self.params.depth as i64 };
        let mut fullest = Actions::new(); // inline: no allocation per rollout
        while !state.legal.is_empty() && left != 0 {
            let n = state.legal.len();
            if self.params.rollout != Rollout::Random && n > 1 && state.legal[0].kind == Kind::Survey {
                let most = state.legal.iter().map(|a| a.count).max().unwrap_or(0);
                empty(&mut fullest);
                fullest.extend(state.legal.iter().copied().filter(|a| a.count == most));
                if self.params.rollout == Rollout::Greedy {
                    state = self.best_survey(state, &fullest);
                } else {
                    let act = fullest[(self.rng.unit() * fullest.len() as f64) as usize];
                    game.step_unchecked(&mut state, act);
                }
            } else {
                let act = state.legal[(self.rng.unit() * n as f64) as usize];
                game.step_unchecked(&mut state, act);
            }
            left -= 1;
        }
        game.update_scores(&mut state);
        rewards(game, &state, self.params.scale)
    }

    /// The state after the survey that gives the mover the best provisional lead.
    fn best_survey(&mut self, state: State, options: &[Action]) -> State {
        let game = self.game;
        let seat = game.current_player(&state).unwrap_or(0);
        let players = state.players as usize;
        let mut best = f64::NEG_INFINITY;
        let mut best_state = state.clone();
        let mut after = state.clone();
        for &act in options {
            after.copy_position(&state); // its legal actions are written by the step
            game.step_unchecked(&mut after, act);
            game.update_scores(&mut after);
            let totals = game.totals(&after);
            let others = (0..players).filter(|&i| i != seat).map(|i| totals[i]).max().unwrap_or(0);
            let lead = (totals[seat] - others) as f64 + self.rng.unit() * 0.01; // random tie-break
            if lead > best {
                best = lead;
                std::mem::swap(&mut best_state, &mut after);
            }
        }
        best_state
    }

    fn run(&mut self) -> Result<Decision, TimedOut> {
        let params = *self.params;
        self.expand(0);
        let root_visits: u32 = self.children(0).map(|i| self.nodes[i].visits).sum();
        self.nodes[0].visits = root_visits;
        let expand_after = params.prior; // a node is expanded on its second real visit
        let mut path: Vec<usize> = Vec::with_capacity(64);
        for iteration in 0..params.iterations {
            if iteration % 16 == 0 {
                if let Some(deadline) = self.deadline {
                    if Instant::now() > deadline {
                        return Err(TimedOut { iterations: iteration });
                    }
                }
            }
            let mut index = 0usize;
            path.clear();
            path.push(0);
            loop {
                if !self.nodes[index].expanded {
                    let legal = self.states[index].legal.len();
                    if self.nodes[index].visits <= expand_after || legal == 0 || self.nodes.len() + legal > MAX_TREE_NODES
                    {
                        break;
                    }
                    self.expand(index);
                }
                let node = &self.nodes[index];
                let mover = node.mover;
                let explore = params.c * (node.visits.max(1) as f64).ln().sqrt();
                let mut best = usize::MAX;
                let mut best_value = f64::NEG_INFINITY;
                for child in self.children(index) {
                    let c = &self.nodes[child];
                    if c.visits == 0 {
                        best = child;
                        break;
                    }
                    let visits = c.visits as f64;
                    let value = c.rewards[mover] / visits + explore / visits.sqrt();
                    if value > best_value {
                        best = child;
                        best_value = value;
                    }
                }
                index = best;
                path.push(index);
                if self.nodes[index].visits <= expand_after {
                    break;
                }
            }
            let values = self.rollout(self.states[index].clone());
            for &visited in &path {
                let node = &mut self.nodes[visited];
                node.visits += 1;
                for (sum, value) in node.rewards.iter_mut().zip(values) {
                    *sum += value;
                }
            }
        }
        let root_mover = self.nodes[0].mover;
        let prior = params.prior as i64;
        let mut best: Option<(i64, f64, Action)> = None;
        for child in self.children(0) {
            let c = &self.nodes[child];
            let key = (c.visits as i64 - prior, c.rewards[root_mover] / c.visits.max(1) as f64);
            if best.is_none_or(|(v, m, _)| key.0 > v || (key.0 == v && key.1 > m)) {
                best = Some((key.0, key.1, c.action));
            }
        }
        let root = &self.nodes[0];
        let simulations = root.visits - root_visits; // the virtual visits of the priors left out
        let values = (simulations > 0).then(|| {
            let mut means = [0.0; MAX_PLAYERS];
            for (mean, sum) in means.iter_mut().zip(root.rewards) {
                *mean = sum / simulations as f64;
            }
            RootValues { players: self.states[0].players as usize, means }
        });
        Ok(Decision { action: best.expect("the root has children").2, values })
    }

    fn children(&self, index: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[index];
        node.first as usize..(node.first + node.count) as usize
    }
}

/// The MCTS choice among `state.legal` (two or more) for the player to move, or `TimedOut`
/// when `deadline` passes first.
pub fn choose(
    game: &Game,
    state: &State,
    params: &MctsParams,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Action, TimedOut> {
    decide(game, state, params, rng, deadline).map(|decision| decision.action)
}

/// `choose`, with the root's values beside the action.
pub fn decide(
    game: &Game,
    state: &State,
    params: &MctsParams,
    rng: &mut Rng,
    deadline: Option<Instant>,
) -> Result<Decision, TimedOut> {
    let mut search = Search { game, params, rng, nodes: Vec::with_capacity(1024), states: Vec::with_capacity(1024), deadline };
    let mut root_state = state.clone();
    game.update_scores(&mut root_state); // once here, so that every child updates only its own Planets
    let root = Search::node(game, &root_state, Action::new(Kind::PickCrew, -1));
    search.nodes.push(root);
    search.states.push(root_state);
    search.run()
}
