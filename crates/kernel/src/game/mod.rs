//! The rules engine of the kernel: a mutable state played in place, mirroring
//! `stargazer_rules.engine.game` step for step.
//!
//! A round is one turn per player from the start player clockwise (R4); a turn is: pick a crew
//! (R5), take its motivation bonus (R6), resolve its `on_choose` and `survey` effects, survey
//! (R7, R8), resolve its `after_survey` effects; at the end of a round: the end check (R10);
//! if the game goes on, free cubes onto the crews nobody chose (R11), the `round_end` effects
//! such as Armstrong's (R12), and the next round.
//!
//! The game's behaviour lives only here, one job a file: `effects` (a pick and its skill),
//! `survey` and `walks` (R7, R8), `rounds` (turns' and rounds' ends), `abilities` (triggers),
//! `scope` and `expr_eval` (the rules language), `scoring` (R15-R18).

mod abilities;
mod effects;
mod expr_eval;
mod rounds;
pub mod scope;
pub mod scoring;
mod survey;
mod walks;

use crate::error::KernelError;
use crate::rng::Rng;
use crate::rules::{Rules, NO_SKIP_LIMIT};
use crate::state::*;
use crate::limits::{MAX_BOARD, MAX_CREW, MAX_PLANETS, MAX_PLAYERS, MAX_QUEUE};

/// The rules of one compiled ruleset; holds no game, so one serves any number of games.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
}

/// Empty normal squares per ring position.
pub type Rooms = [i32; MAX_PLANETS];

/// The crew slot of a pending effect as a scope reads it: none (`scope::NO_CREW`, which is
/// `NO_SLOT`) for a setup step.
#[inline]
fn crew_of(slot: u8) -> usize {
    slot as usize
}

impl Game {
    pub fn new(rules: Rules) -> Game {
        Game { rules }
    }

    // -- setting up ---------------------------------------------------------------------

    /// Deal Planets, crew and a start player from the kernel's own generator (R14). Not the
    /// Python engine's deal: simulations that compare engines deal in Python and pass the setup.
    /// When crews can be replaced (R11), the crew is every dealable card in deck order: the
    /// dealt ones, then the queue (`new_state`).
    pub fn deal(&self, players: usize, rng: &mut Rng) -> Result<(Vec<u16>, Vec<u16>, usize), KernelError> {
        let counts = self.rules.setup_counts(players)?;
        let mut planets: Vec<u16> = (0..self.rules.planets.len() as u16).collect();
        let mut crew = self.rules.dealable.clone();
        if counts.planets > planets.len() || counts.crew > crew.len() {
            return Err(KernelError::Setup(format!(
                "{players} players need {} planets and {} crew, but the ruleset has {} and {}",
                counts.planets,
                counts.crew,
                planets.len(),
                crew.len()
            )));
        }
        rng.shuffle(&mut planets);
        rng.shuffle(&mut crew);
        planets.truncate(counts.planets);
        if !self.rules.unpicked_crews.replaced {
            crew.truncate(counts.crew);
        }
        let start = rng.below(players);
        Ok((planets, crew, start))
    }

    /// The state before the first decision, from a setup (planet cards in ring order, the dealt
    /// crew cards in deal order, the start seat); the checks of `Game.check_setup`. When crews
    /// can be replaced (R11, `UnpickedCrews::replaced`), `crew` is every dealable card in deck
    /// order: the dealt ones, then the queue of those not dealt (Python's `Setup.queue`).
    pub fn new_state(&self, players: usize, planets: &[u16], crew: &[u16], start: usize) -> Result<State, KernelError> {
        let rules = &self.rules;
        let counts = rules.setup_counts(players)?;
        let mut problems = Vec::new();
        if planets.len() != counts.planets {
            problems.push(format!("{} planets are dealt for {players} players, not {}", counts.planets, planets.len()));
        }
        let replaced = rules.unpicked_crews.replaced;
        let (crew, queue) = crew.split_at(if replaced { counts.crew.min(crew.len()) } else { crew.len() });
        if crew.len() != counts.crew {
            problems.push(format!("{} crew are dealt for {players} players, not {}", counts.crew, crew.len()));
        }
        if replaced && counts.crew + queue.len() != rules.dealable.len() {
            problems.push(format!("the queue must hold each crew not dealt once (R11): {} of them, not {}", rules.dealable.len() - counts.crew.min(rules.dealable.len()), queue.len()));
        }
        if queue.len() > MAX_QUEUE {
            problems.push(format!("a queue of {} crew is beyond the kernel's limit of {MAX_QUEUE}", queue.len()));
        }
        for (i, &card) in planets.iter().enumerate() {
            if card as usize >= rules.planets.len() {
                problems.push(format!("unknown planet card {card}"));
            } else if planets[..i].contains(&card) {
                problems.push(format!("planet {:?} is dealt twice", rules.planets[card as usize].id));
            }
        }
        for (i, &card) in crew.iter().enumerate() {
            if card as usize >= rules.crew.len() {
                problems.push(format!("unknown crew card {card}"));
            } else if rules.crew[card as usize].always_in_play {
                problems.push(format!("crew {:?} is always in play and is not dealt", rules.crew[card as usize].id));
            } else if crew[..i].contains(&card) {
                problems.push(format!("crew {:?} is dealt twice", rules.crew[card as usize].id));
            }
        }
        for (i, &card) in queue.iter().enumerate() {
            if card as usize >= rules.crew.len() {
                problems.push(format!("unknown crew card {card}"));
            } else if rules.crew[card as usize].always_in_play {
                problems.push(format!("crew {:?} is always in play and is not queued", rules.crew[card as usize].id));
            } else if crew.contains(&card) || queue[..i].contains(&card) {
                problems.push(format!("crew {:?} is dealt or queued twice", rules.crew[card as usize].id));
            }
        }
        if start >= players {
            problems.push(format!("start player {start} is not a seat of 0..{}", players - 1));
        }
        if !problems.is_empty() {
            return Err(KernelError::Setup(format!("invalid setup: {}", problems.join("; "))));
        }
        let area: smallvec::SmallVec<[u16; MAX_CREW]> = rules.always.iter().chain(crew.iter()).copied().collect();
        let mut state = self.empty_state(players, planets, &area)?;
        state.hands[..players].fill(rules.knobs.cubes_per_player);
        // Each seat starts with the turn_order_vp of its turn position, clockwise from the start.
        for seat in 0..players {
            state.vp[seat] = rules.turn_order_vp[(seat + players - start) % players];
        }
        state.stock = rules.knobs.free_cubes;
        state.queue[..queue.len()].copy_from_slice(queue);
        state.queue_len = queue.len() as u8;
        state.round = 1;
        state.start_player = start as u8;
        state.stage = Stage::PickCrew;
        if !rules.setup_steps.is_empty() {
            // Every seat's setup steps, in turn order from the start player (a stack: the last resolves first).
            for k in (0..players).rev() {
                let seat = ((start + k) % players) as u8;
                for &node in rules.setup_steps.iter().rev() {
                    state.pending.push(Pending { node, slot: NO_SLOT, seat, remaining: rules.nodes[node as usize].steps });
                }
            }
            state.stage = Stage::Setup;
        }
        self.advance(&mut state);
        Ok(state)
    }

    /// A state with the table laid out and nothing else: the layout of the board buffer.
    pub fn empty_state(&self, players: usize, planets: &[u16], area: &[u16]) -> Result<State, KernelError> {
        if players == 0 || players > MAX_PLAYERS || planets.len() > MAX_PLANETS || area.len() > MAX_CREW {
            return Err(KernelError::State(format!(
                "{players} players, {} Planets and {} crew are beyond the kernel's limits",
                planets.len(),
                area.len()
            )));
        }
        let mut state = State {
            players: players as u8,
            planet_count: planets.len() as u8,
            crew_count: area.len() as u8,
            planets: [0; MAX_PLANETS],
            crew: [0; MAX_CREW],
            track_start: [0; MAX_PLANETS],
            track_fill: [0; MAX_PLANETS],
            special_start: [0; MAX_PLANETS],
            special_fill: [0; MAX_PLANETS],
            board: Board::new(),
            crew_free: [0; MAX_CREW],
            crew_cubes: [[0; MAX_PLAYERS]; MAX_CREW],
            workers: [NO_WORKER; MAX_CREW],
            hands: [0; MAX_PLAYERS],
            vp: [0; MAX_PLAYERS],
            removed: [0; MAX_PLAYERS],
            stock: 0,
            round: 1,
            start_player: 0,
            turn: 0,
            stage: Stage::PickCrew,
            chosen: [0; MAX_CREW],
            chosen_len: 0,
            pending: PendingStack::new(),
            survey_rules: 0,
            survey_bonus: 0,
            survey_placed: 0,
            survey_last: -1,
            survey_direction: 0,
            survey_skips: NO_SKIP_LIMIT,
            surveyed: 0,
            triggers: 0,
            legal: Actions::new(),
            rooms: [0; MAX_PLANETS],
            open: 0,
            free_crew: 0,
            majority: [0; MAX_PLAYERS],
            colour_most: [0; MAX_PLAYERS],
            colour_ties: [0; MAX_PLAYERS],
            scored_fill: [0; MAX_PLANETS],
            scored_special: [0; MAX_PLANETS],
            unscored: 0,
            firing: false,
            closed: 0,
            protected: [0; MAX_PLAYERS],
            borrowed: [-1; MAX_CREW],
            taken: [0; MAX_PLAYERS],
            queue: [0; MAX_QUEUE],
            queue_len: 0,
        };
        let mut offset = 0usize;
        for (p, &card) in planets.iter().enumerate() {
            let planet = self
                .rules
                .planets
                .get(card as usize)
                .ok_or_else(|| KernelError::State(format!("unknown planet card {card}")))?;
            state.planets[p] = card;
            state.track_start[p] = offset as u16;
            offset += planet.length();
            state.special_start[p] = offset as u16;
            offset += planet.special_capacity as usize;
            if offset > MAX_BOARD {
                return Err(KernelError::State(format!("the dealt Planets hold more than {MAX_BOARD} squares")));
            }
        }
        for (slot, &card) in area.iter().enumerate() {
            if card as usize >= self.rules.crew.len() {
                return Err(KernelError::State(format!("unknown crew card {card}")));
            }
            state.crew[slot] = card;
        }
        state.board = Board::from_elem(0, offset);
        self.recount_listing(&mut state); // an empty board scores nothing: the zeros above
        Ok(state)
    }

    /// Derive the counts a state keeps as the board changes (`rooms`, `open`, `free_crew`,
    /// the majority VP and colour bonus) from its other fields: for states built or edited
    /// from outside. `step` keeps them without it.
    pub fn recount(&self, s: &mut State) {
        self.recount_listing(s);
        self.recount_scores(s);
    }

    /// `recount`'s part for listing the legal actions: rooms, open Planets and free crew.
    fn recount_listing(&self, s: &mut State) {
        s.open = 0;
        s.rooms = [0; MAX_PLANETS];
        for p in 0..s.planet_count as usize {
            let room = self.rules.planets[s.planets[p] as usize].length() - s.track_fill[p] as usize;
            s.rooms[p] = room as u16;
            if room > 0 {
                s.open |= 1 << p;
            }
        }
        s.free_crew = 0;
        for slot in 0..s.crew_count as usize {
            if s.workers[slot] == NO_WORKER {
                s.free_crew |= 1 << slot;
            }
        }
    }

    // -- asking -------------------------------------------------------------------------

    /// The seat that decides next, or None when the game is over.
    pub fn current_player(&self, s: &State) -> Option<usize> {
        match s.stage {
            Stage::Over => None,
            Stage::RoundEnd | Stage::Setup => s.pending.last().map(|p| p.seat as usize),
            _ => Some(s.turn_seat()),
        }
    }

    /// Empty normal squares of every Planet in the ring (R2), as `State::rooms` keeps them.
    pub fn rooms(&self, s: &State) -> Rooms {
        let mut rooms = [0; MAX_PLANETS];
        for p in 0..s.planet_count as usize {
            rooms[p] = s.rooms[p] as i32;
        }
        rooms
    }

    fn special_room(&self, s: &State, p: usize) -> i32 {
        self.rules.planets[s.planets[p] as usize].special_capacity as i32 - s.special_fill[p] as i32
    }

    /// Recompute the legal actions from the rest of the state (for states from outside):
    /// None when the state waits for no decision it could make.
    pub fn derive_legal(&self, s: &State) -> Option<Vec<Action>> {
        let mut copy = s.clone();
        let waiting = match s.stage {
            Stage::Over => return Some(Vec::new()),
            Stage::PickCrew => {
                self.pick_options(&mut copy);
                true
            }
            Stage::Surveying => self.survey_options(&mut copy),
            _ => match s.pending.last().copied() {
                Some(head) => self.effect_choices(&mut copy, head),
                None => false,
            },
        };
        if waiting && !copy.legal.is_empty() {
            Some(copy.legal.to_vec())
        } else {
            None
        }
    }

    // -- acting -------------------------------------------------------------------------

    /// Play `act` if it is legal, and every automatic step after it until the next decision.
    pub fn step(&self, s: &mut State, act: Action) -> Result<(), KernelError> {
        if !s.legal.contains(&act) {
            return Err(KernelError::Illegal(self.why_illegal(s, act)));
        }
        self.step_unchecked(s, act);
        Ok(())
    }

    /// `step` for an action known to be legal (one of `s.legal`): the bots' path.
    pub fn step_unchecked(&self, s: &mut State, act: Action) {
        match s.stage {
            Stage::PickCrew => self.pick_crew(s, act.target as usize),
            Stage::Surveying => self.survey(s, act),
            _ => self.decide_effect(s, act),
        }
        self.advance(s);
    }

    fn why_illegal(&self, s: &State, act: Action) -> String {
        if s.stage == Stage::Over {
            return "the game is over: no action is legal".to_string();
        }
        let mut kinds: Vec<&str> = s.legal.iter().map(|a| a.kind.name()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        if !kinds.contains(&act.kind.name()) {
            return format!(
                "the state waits for {}, not {} (stage {})",
                kinds.join(" or "),
                act.kind.name(),
                s.stage.name()
            );
        }
        format!(
            "{} (target {}, count {}, direction {}) is not among the {} legal options",
            act.kind.name(),
            act.target,
            act.count,
            act.direction,
            s.legal.len()
        )
    }

    // -- step 1: choose a crew (R5, R6) -------------------------------------------------
}
