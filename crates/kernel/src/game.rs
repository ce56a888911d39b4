//! The rules engine of the kernel: a mutable state played in place, mirroring
//! `stargazer_rules.engine.game` step for step.
//!
//! A round is one turn per player from the start player clockwise (R4); a turn is: pick a crew
//! (R5), take its motivation bonus (R6), resolve its `on_choose` and `survey` effects, survey
//! (R7, R8), resolve its `after_survey` effects; at the end of a round: the end check (R10);
//! if the game goes on, free cubes onto the crews nobody chose (R11), the `round_end` effects
//! such as Armstrong's (R12), and the next round.

use crate::error::KernelError;
use crate::expr::{self, Scope, SetKind};
use crate::rng::Rng;
use crate::rules::{Event, Op, Rules, SpecialTarget, COUNTER, DIRECTION, NO_SKIP_LIMIT, REPEAT, SKIP, START, STEP_RULES};
use crate::state::*;
use crate::survey;
use crate::{MAX_BOARD, MAX_CREW, MAX_PLANETS, MAX_PLAYERS};

/// The rules of one compiled ruleset; holds no game, so one serves any number of games.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
}

/// Empty normal squares per ring position.
pub type Rooms = [i32; MAX_PLANETS];

/// The crew slot of a pending effect as a scope reads it: none (`expr::NO_CREW`) for a setup step.
fn crew_of(slot: u8) -> usize {
    if slot == NO_SLOT {
        expr::NO_CREW
    } else {
        slot as usize
    }
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
        state.hands[..players].fill(rules.cubes_per_player);
        // Each seat starts with the turn_order_vp of its turn position, clockwise from the start.
        for seat in 0..players {
            state.vp[seat] = rules.turn_order_vp[(seat + players - start) % players];
        }
        state.stock = rules.free_cubes;
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

    fn pick_options(&self, s: &mut State) {
        empty(&mut s.legal);
        // Closed crews (close_crew) are not offered until the round ends.
        s.legal.extend(survey::positions(s.free_crew & !s.closed).map(|slot| Action::new(Kind::PickCrew, slot as i32)));
    }

    fn pick_crew(&self, s: &mut State, slot: usize) {
        let rules = &self.rules;
        let seat = s.turn_seat();
        s.workers[slot] = seat as i8;
        s.free_crew &= !(1 << slot);
        s.chosen[s.chosen_len as usize] = slot as u8;
        s.chosen_len += 1;
        // R6: free cubes back to the stock at free_cube_vp each; player cubes removed from
        // play (kept as `removed` per owner) at player_cube_vp each, whoever owned them.
        let free = s.crew_free[slot];
        let cubes: i32 = s.crew_cubes[slot][..s.players as usize].iter().map(|&c| c as i32).sum();
        if free != 0 || cubes != 0 {
            s.stock += free;
            s.crew_free[slot] = 0;
            for owner in 0..s.players as usize {
                s.removed[owner] += s.crew_cubes[slot][owner] as i32;
                s.crew_cubes[slot][owner] = 0;
            }
            s.vp[seat] += free * rules.free_cube_vp + cubes * rules.player_cube_vp;
        }
        if rules.any_another_pick {
            self.another_pick(s, seat, s.crew[slot]); // the other holders' triggers, before the picker's skill
        }
        s.survey_rules = 0;
        s.survey_bonus = 0;
        s.survey_placed = 0;
        s.survey_last = -1;
        s.survey_direction = 0;
        s.survey_skips = NO_SKIP_LIMIT;
        s.surveyed = 0;
        empty(&mut s.pending);
        let card = &rules.crew[s.crew[slot] as usize];
        for &node in card.on_pick.iter().rev() {
            s.pending.push(Pending { node, slot: slot as u8, seat: seat as u8, remaining: rules.nodes[node as usize].steps });
        }
        s.stage = Stage::BeforeSurvey;
    }

    // -- skill effects (R9) -------------------------------------------------------------

    /// Whether the effect at `node` can be applied now (Python: `Effect.can_apply`): it asks
    /// no decision, or its choices offer at least one option. Derived from `push_choices`,
    /// written after the options already in `s.legal` and taken back, so the two never differ.
    fn can_apply(&self, s: &mut State, node: u16, seat: usize, slot: usize) -> bool {
        let mark = s.legal.len();
        let asks = self.push_choices(s, node, seat, slot);
        let offers = s.legal.len() > mark;
        s.legal.truncate(mark);
        !asks || offers
    }

    fn special_target(&self, s: &State, target: SpecialTarget, p: usize) -> bool {
        let allowed = match target {
            SpecialTarget::Any => true,
            SpecialTarget::Colour(colour) => self.rules.planets[s.planets[p] as usize].colour == colour,
            SpecialTarget::Surveyed => s.surveyed & (1 << p) != 0,
        };
        allowed && self.special_room(s, p) > 0
    }

    /// The options of the effect at `head` written to `s.legal`; false when it needs no
    /// decision (applied at once). True with no options: it cannot be applied (skipped, R9).
    fn effect_choices(&self, s: &mut State, head: Pending) -> bool {
        empty(&mut s.legal);
        self.push_choices(s, head.node, head.seat as usize, crew_of(head.slot))
    }

    /// The options the effect at `node` offers `seat` (crew `slot`'s skill), pushed onto
    /// `s.legal` (Python: `Effect.choices`); false when it asks no decision.
    fn push_choices(&self, s: &mut State, node: u16, seat: usize, slot: usize) -> bool {
        let rules = &self.rules;
        match &rules.nodes[node as usize].op {
            Op::AddFreeCubes => {
                if s.stock > 0 {
                    for other in 0..s.crew_count as usize {
                        if other != slot && s.crew_free[other] < rules.max_free_cubes_per_crew {
                            s.legal.push(Action::new(Kind::TargetCrew, other as i32));
                        }
                    }
                }
            }
            Op::PlaceFreeCubes => {
                if s.stock > 0 {
                    s.legal.extend(survey::positions(s.open).map(|p| Action::new(Kind::TargetPlanet, p as i32)));
                }
            }
            Op::PlaceOnCrew => {
                if s.hands[seat] > 0 {
                    for other in 0..s.crew_count as usize {
                        if other != slot {
                            s.legal.push(Action::new(Kind::TargetCrew, other as i32));
                        }
                    }
                }
            }
            Op::PlaceOnSpecial(target) => {
                if s.hands[seat] > 0 {
                    for p in 0..s.planet_count as usize {
                        if self.special_target(s, *target, p) {
                            s.legal.push(Action::new(Kind::TargetPlanet, p as i32));
                        }
                    }
                }
            }
            Op::NameStartPlayer => {
                for other in 0..s.players as usize {
                    s.legal.push(Action::new(Kind::NameStartPlayer, other as i32));
                }
            }
            Op::ChooseOne(options) => {
                for (index, option) in options.iter().enumerate() {
                    if option.iter().any(|&n| self.can_apply(s, n, seat, slot)) {
                        s.legal.push(Action::new(Kind::ChooseOption, index as i32));
                    }
                }
            }
            // R9: an action of the rules language that can change nothing is skipped.
            Op::Act(act) => return !self.can_perform(s, &Scope::new(seat, slot), act),
            Op::Choose { over, body } => {
                let scope = Scope::new(seat, slot);
                let kind = over.kind();
                let decision = match kind {
                    SetKind::Planets => Kind::TargetPlanet,
                    SetKind::Seats => Kind::TargetSeat,
                    SetKind::Crews => Kind::TargetCrew,
                };
                let players = s.players as usize;
                for member in expr::members(self.set_members(s, &scope, over), kind, seat, players) {
                    let bound = scope.bind(kind, member);
                    if body.iter().any(|act| self.can_perform(s, &bound, act)) {
                        s.legal.push(Action::new(decision, member as i32));
                    }
                }
            }
            Op::UseSkill(crews) => {
                let scope = Scope::new(seat, slot);
                for member in expr::members(self.set_members(s, &scope, crews), SetKind::Crews, 0, 0) {
                    if member != slot && rules.crew[s.crew[member] as usize].borrowable {
                        s.legal.push(Action::new(Kind::TargetCrew, member as i32));
                    }
                }
            }
            Op::AllowRepeatPlanet
            | Op::ChangeSurveyCount(_)
            | Op::ChooseDirection
            | Op::GainVp(_)
            | Op::If { .. }
            | Op::MaySkipPlanets
            | Op::SurveyStart { .. } => return false,
        }
        true
    }

    /// Apply one step of the effect at the head of `pending` and queue what follows (the
    /// Python engine's `Effect.apply` and `_finish_step`).
    fn apply_effect(&self, s: &mut State, choice: Option<Action>) {
        let rules = &self.rules;
        let head = s.pending.pop().expect("an effect is pending");
        let seat = head.seat as usize;
        let target = choice.map_or(-1, |a| a.target);
        let mut follow: &[u16] = &[];
        match &rules.nodes[head.node as usize].op {
            Op::AddFreeCubes => {
                s.stock -= 1;
                s.crew_free[target as usize] += 1;
            }
            Op::AllowRepeatPlanet => s.survey_rules |= REPEAT,
            Op::MaySkipPlanets => {
                s.survey_rules |= SKIP;
                s.survey_skips = NO_SKIP_LIMIT;
            }
            Op::SurveyStart { .. } => s.survey_rules |= START,
            // The latest direction resolved this turn holds: either way, no longer a forced one.
            Op::ChooseDirection => s.survey_rules = (s.survey_rules & !COUNTER) | DIRECTION,
            Op::ChangeSurveyCount(delta) => s.survey_bonus += delta,
            Op::ChooseOne(options) => follow = &options[target as usize],
            Op::GainVp(vp) => s.vp[seat] += vp,
            Op::NameStartPlayer => s.start_player = target as u8,
            Op::PlaceFreeCubes => {
                s.stock -= 1;
                self.place_on_track(s, target as usize, FREE_CUBE);
            }
            Op::PlaceOnCrew => {
                s.hands[seat] -= 1;
                s.crew_cubes[target as usize][seat] += 1;
            }
            Op::PlaceOnSpecial(_) => {
                s.hands[seat] -= 1;
                self.place_on_special(s, target as usize, seat as i8);
            }
            Op::Act(act) => self.perform(s, &Scope::new(seat, crew_of(head.slot)), act),
            Op::If { condition, then, otherwise } => {
                let holds = self.holds(s, &Scope::new(seat, crew_of(head.slot)), condition);
                follow = if holds { then } else { otherwise };
            }
            Op::Choose { over, body } => {
                let scope = Scope::new(seat, crew_of(head.slot)).bind(over.kind(), target as usize);
                self.perform_all(s, &scope, body);
            }
            Op::UseSkill(_) => {
                // The skill applied: its pick effects resolve next, its later ones at their stage.
                let card = s.crew[target as usize];
                s.borrowed[head.slot as usize] = card as i16;
                for &node in rules.crew[card as usize].on_pick.iter().rev() {
                    s.pending.push(Pending { node, slot: head.slot, seat: head.seat, remaining: rules.nodes[node as usize].steps });
                }
            }
        }
        if head.remaining > 1 {
            s.pending.push(Pending { remaining: head.remaining - 1, ..head });
        }
        for &node in follow.iter().rev() {
            s.pending.push(Pending { node, slot: head.slot, seat: head.seat, remaining: rules.nodes[node as usize].steps });
        }
    }

    fn decide_effect(&self, s: &mut State, act: Action) {
        self.apply_effect(s, Some(act));
    }

    /// Resolve effects until one needs a decision (true, options in `s.legal`) or none is left.
    fn resolve_pending(&self, s: &mut State) -> bool {
        while let Some(&head) = s.pending.last() {
            if !self.effect_choices(s, head) {
                self.apply_effect(s, None);
            } else if !s.legal.is_empty() {
                return true;
            } else {
                s.pending.pop(); // R9: cannot be applied, skipped (all its steps)
            }
        }
        false
    }

    // -- the automatic part: from one decision to the next -----------------------------

    fn advance(&self, s: &mut State) {
        loop {
            match s.stage {
                Stage::BeforeSurvey | Stage::AfterSurvey | Stage::RoundEnd | Stage::Setup => {
                    if self.resolve_pending(s) {
                        return;
                    }
                    match s.stage {
                        Stage::BeforeSurvey => s.stage = Stage::Surveying,
                        Stage::AfterSurvey => self.end_turn(s),
                        Stage::Setup => s.stage = Stage::PickCrew, // the first round starts (R4)
                        _ => self.start_round(s),
                    }
                }
                Stage::Surveying => {
                    if self.survey_options(s) {
                        return;
                    }
                    self.finish_survey(s); // a cube-by-cube survey that can place no more
                }
                Stage::PickCrew => {
                    self.pick_options(s);
                    return;
                }
                Stage::Over => {
                    empty(&mut s.legal);
                    return;
                }
            }
        }
    }

    fn end_turn(&self, s: &mut State) {
        s.turn += 1;
        if s.protected != [0; MAX_PLAYERS] {
            for until in &mut s.protected {
                if *until == PROTECTED_TURN {
                    *until = 0; // protect_cubes until the turn ends
                }
            }
        }
        if (s.turn as usize) < s.players as usize {
            s.stage = Stage::PickCrew;
        } else {
            self.end_round(s);
        }
    }

    /// Every round's end: the Planets' and the held crews' `round_end` triggers and rules.yaml's
    /// `round_end.effects`; then the R10 end check (the ruleset's `end` conditions in their
    /// order, read with nobody as "you", then the round limit); if the game goes on, R11 free
    /// cubes and the skills' round-end effects (R12).
    fn end_round(&self, s: &mut State) {
        if self.rules.any_round_end {
            self.table_event(s, Event::RoundEnd); // every round's end, before the end check (R10)
        }
        if self.rules.any_crew_round_end {
            self.crew_table_event(s, Event::RoundEnd); // the held crews' after the Planets', before the end check
        }
        if !self.rules.round_end_effects.is_empty() {
            self.round_end_effects(s); // rules.yaml's round_end.effects (idea R7), after the crews'
        }
        let rules = &self.rules;
        let nobody = Scope::table(s.start_player as usize);
        let mut triggers = 0;
        for (i, trigger) in rules.end.triggers.iter().enumerate() {
            if self.holds(s, &nobody, &trigger.condition) {
                triggers |= 1 << i;
            }
        }
        if s.round >= rules.max_rounds {
            triggers |= rules.end.round_limit();
        }
        if triggers != 0 {
            s.triggers = triggers;
            s.stage = Stage::Over;
            empty(&mut s.pending);
            if rules.any_game_end {
                self.table_event(s, Event::GameEnd); // before the winner is decided (R18)
            }
            if rules.any_crew_game_end {
                self.crew_table_event(s, Event::GameEnd); // the last round's crews, still held, after the Planets'
            }
            return;
        }
        self.unpicked_crews_receive(s);
        if rules.unpicked_crews.replaced {
            self.replace_crews_at_cap(s);
        }
        empty(&mut s.pending);
        for i in (0..s.chosen_len as usize).rev() {
            let slot = s.chosen[i] as usize;
            let seat = s.workers[slot] as u8;
            // The round-end effects of a skill applied with use_skill resolve after the crew's own.
            if s.borrowed[slot] >= 0 {
                for &node in rules.crew[s.borrowed[slot] as usize].round_end.iter().rev() {
                    s.pending.push(Pending { node, slot: slot as u8, seat, remaining: rules.nodes[node as usize].steps });
                }
            }
            let card = &rules.crew[s.crew[slot] as usize];
            for &node in card.round_end.iter().rev() {
                s.pending.push(Pending { node, slot: slot as u8, seat, remaining: rules.nodes[node as usize].steps });
            }
        }
        s.stage = Stage::RoundEnd;
    }

    /// R11: each crew with no worker receives its free cubes, in crew-area order: the amount of
    /// `round_end.unpicked_crews.free_cubes` (read with this_crew bound to the crew and nobody as
    /// "you", just before the crew receives), at least 0, at most what the stock holds and what
    /// the cap leaves.
    fn unpicked_crews_receive(&self, s: &mut State) {
        let rules = &self.rules;
        let nobody = Scope::table(s.start_player as usize);
        for slot in 0..s.crew_count as usize {
            if s.workers[slot] != NO_WORKER {
                continue;
            }
            let wanted = match &rules.unpicked_crews.free_cubes {
                expr::Amount::Number(n) => *n,
                amount => self.amount(s, &nobody.bind(SetKind::Crews, slot), amount),
            };
            let most = s.stock.min(rules.max_free_cubes_per_crew - s.crew_free[slot]);
            let given = wanted.min(most as i64).max(0) as i32;
            s.stock -= given;
            s.crew_free[slot] += given;
        }
    }

    /// R11, `at_cap: replaced`: once every crew nobody picked has received, each of them holding
    /// the cap's number of free cubes, in crew-area order, leaves the crew area: its free cubes
    /// back to the stock, the player cubes on it to their owners' hands, and the first card of
    /// the queue takes its slot, empty. A crew always in play stays; with the queue empty, all do.
    fn replace_crews_at_cap(&self, s: &mut State) {
        let rules = &self.rules;
        for slot in 0..s.crew_count as usize {
            if s.queue_len == 0 {
                return;
            }
            if s.workers[slot] != NO_WORKER
                || s.crew_free[slot] < rules.max_free_cubes_per_crew
                || rules.crew[s.crew[slot] as usize].always_in_play
            {
                continue;
            }
            s.stock += s.crew_free[slot];
            s.crew_free[slot] = 0;
            for seat in 0..s.players as usize {
                s.hands[seat] += s.crew_cubes[slot][seat] as i32;
                s.crew_cubes[slot][seat] = 0;
            }
            s.crew[slot] = s.queue[0];
            let len = s.queue_len as usize;
            s.queue.copy_within(1..len, 0);
            s.queue_len -= 1;
        }
    }

    fn start_round(&self, s: &mut State) {
        s.round += 1;
        s.turn = 0;
        s.chosen_len = 0;
        s.workers = [NO_WORKER; MAX_CREW];
        s.free_crew = ((1u32 << s.crew_count) - 1) as u16;
        // The lasting effects that last until the round ends end with it.
        s.closed = 0;
        s.protected = [0; MAX_PLAYERS];
        s.borrowed = [-1; MAX_CREW];
        s.stage = Stage::PickCrew;
    }

    // -- step 2: the survey (R7, R8) ----------------------------------------------------

    /// The chosen crew's survey count after this turn's skill changes (R7).
    fn survey_count(&self, s: &State) -> i32 {
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        (self.rules.crew[s.crew[slot] as usize].survey_count + s.survey_bonus).max(0)
    }

    /// The survey options into `s.legal`; false when there are none (the survey is over).
    fn survey_options(&self, s: &mut State) -> bool {
        let seat = s.turn_seat();
        let minimum = self.rules.survey_minimum;
        if s.survey_rules & STEP_RULES != 0 {
            let mut steps = survey::Positions::new();
            if s.survey_placed < self.survey_count(s) && s.hands[seat] > 0 {
                let start = self.survey_start(s);
                let last = s.survey_last;
                if last < 0 {
                    match start {
                        None => steps.extend(survey::positions(s.open).map(|p| p as u8)),
                        Some(node) => self.survey_starts(s, node, seat, &mut steps),
                    }
                    if self.rules.any_no_start {
                        let allowed = self.survey_starts_allowed(s);
                        steps.retain(|p| allowed & (1 << *p) != 0); // P5: not the first cube there
                    }
                } else if start.is_some_and(|node| s.survey_placed < self.start_cubes(node)) && s.rooms[last as usize] > 0 {
                    steps.push(last as u8); // the start Planet's cubes, one after the other
                } else {
                    survey::next_planets(s.open, last, s.survey_rules, s.survey_direction, s.survey_skips, &mut steps);
                }
            }
            survey::step_options(&steps, s.survey_placed, minimum, &mut s.legal);
        } else {
            let limit = self.survey_count(s).min(s.hands[seat]);
            // P5: a survey may not start on a Planet whose card says no_survey_start.
            let allowed = if self.rules.any_no_start { self.survey_starts_allowed(s) } else { u16::MAX };
            survey::walk_options(&s.rooms, s.open, allowed, limit, s.survey_rules & DIRECTION != 0, minimum, &mut s.legal);
        }
        !s.legal.is_empty()
    }

    /// The ring positions a survey may start on (P5: all but the `no_survey_start` Planets).
    fn survey_starts_allowed(&self, s: &State) -> u16 {
        let planets = &self.rules.planets;
        (0..s.planet_count as usize).filter(|&p| !planets[s.planets[p] as usize].no_survey_start).fold(0, |m, p| m | 1 << p)
    }

    /// The chosen crew's `survey_start` node while its flag is set this turn: that of the skill
    /// it applies this round (`use_skill`, S10) when that skill has one, else its own.
    fn survey_start(&self, s: &State) -> Option<u16> {
        if s.survey_rules & START == 0 {
            return None;
        }
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        let borrowed = (s.borrowed[slot] >= 0).then(|| self.rules.crew[s.borrowed[slot] as usize].survey_start).flatten();
        borrowed.or(self.rules.crew[s.crew[slot] as usize].survey_start)
    }

    fn start_cubes(&self, node: u16) -> i32 {
        match &self.rules.nodes[node as usize].op {
            Op::SurveyStart { cubes, .. } => *cubes,
            _ => 1,
        }
    }

    /// The Planets a survey may start on under `survey_start` (Python: `SurveyStart.starts`):
    /// members of its set where, once its actions before the walk are performed there (on a
    /// copy), the first cube has room and the chooser a cube to put there.
    fn survey_starts(&self, s: &State, node: u16, seat: usize, out: &mut survey::Positions) {
        let Op::SurveyStart { planets, before, .. } = &self.rules.nodes[node as usize].op else { return };
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        let scope = Scope::new(seat, slot);
        let members = self.set_members(s, &scope, planets);
        if before.is_empty() {
            out.extend(survey::positions(members & s.open).map(|p| p as u8));
            return;
        }
        for p in survey::positions(members) {
            let mut trial = s.clone();
            self.perform_all(&mut trial, &scope.bind(SetKind::Planets, p), before);
            if trial.rooms[p] > 0 && trial.hands[seat] > 0 {
                out.push(p as u8);
            }
        }
    }

    fn survey(&self, s: &mut State, act: Action) {
        let seat = s.turn_seat();
        match act.kind {
            Kind::Survey => {
                if act.count > 0 {
                    let mut placed = survey::Positions::new();
                    survey::walk(&s.rooms, s.open, act.target as usize, act.count as i32, act.direction, &mut placed);
                    s.surveyed = 0;
                    if self.rules.any_lands {
                        for &p in &placed {
                            // An ability may have filled the Planet or emptied the hand since
                            // the walk was chosen: that cube stays in hand.
                            if s.rooms[p as usize] > 0 && s.hands[seat] > 0 {
                                self.survey_cube(s, seat, p as usize);
                            }
                        }
                    } else {
                        for &p in &placed {
                            self.place_on_track(s, p as usize, seat as i8);
                            s.surveyed |= 1 << p;
                        }
                        s.hands[seat] -= placed.len() as i32;
                        s.survey_placed = placed.len() as i32;
                    }
                }
                self.finish_survey(s);
            }
            Kind::SurveyStep => {
                let target = act.target as usize;
                let last = s.survey_last;
                if last < 0 {
                    if let Some(node) = self.survey_start(s) {
                        // Before the walk, on the start Planet.
                        if let Op::SurveyStart { before, .. } = &self.rules.nodes[node as usize].op {
                            let slot = s.chosen[s.chosen_len as usize - 1] as usize;
                            self.perform_all(s, &Scope::new(seat, slot).bind(SetKind::Planets, target), before);
                        }
                    }
                } else if target as i32 != last {
                    self.commit_step(s, last as usize, target);
                }
                self.survey_cube(s, seat, target);
                s.survey_last = act.target as i32;
            }
            _ => self.finish_survey(s),
        }
    }

    /// One survey cube: out of the hand and counted in the survey, then onto the track, where
    /// it may set off the Planet's abilities.
    fn survey_cube(&self, s: &mut State, seat: usize, p: usize) {
        s.hands[seat] -= 1;
        s.surveyed |= 1 << p;
        s.survey_placed += 1;
        self.place_on_track(s, p, seat as i8);
    }

    /// The direction a step from `last` to `target` walks, and the skips it uses (Python:
    /// `Game._commit_step`).
    fn commit_step(&self, s: &mut State, last: usize, target: usize) {
        if s.survey_rules & SKIP != 0 && s.survey_skips == NO_SKIP_LIMIT {
            if s.survey_direction == 0 {
                s.survey_direction = survey::direction_of(last, target, s.open);
            }
            return;
        }
        // The way that passes fewer Planets with room, clockwise on a tie.
        let mut best: Option<(u32, i8)> = None;
        for &way in survey::ways(s.survey_rules, s.survey_direction) {
            let passed = survey::passed(s.open, s.planet_count as usize, last, target, way);
            if best.is_none_or(|(fewest, _)| passed < fewest) {
                best = Some((passed, way));
            }
        }
        let (passed, way) = best.expect("a survey walks some way");
        s.survey_direction = way;
        if s.survey_rules & SKIP != 0 {
            s.survey_skips -= passed as i32;
        }
    }

    /// A cube of `owner` on Planet `p`'s rearmost empty square (R2), and the counts it changes.
    #[inline]
    pub(crate) fn place_on_track(&self, s: &mut State, p: usize, owner: i8) {
        let at = s.track_start[p] as usize + s.track_fill[p] as usize;
        s.board[at] = owner;
        s.track_fill[p] += 1;
        s.rooms[p] -= 1;
        if s.rooms[p] == 0 {
            s.open &= !(1 << p);
        }
        s.unscored |= 1 << p;
        if self.rules.any_lands && !s.firing && self.rules.planets[s.planets[p] as usize].abilities.lands {
            self.cube_landed(s, p, s.track_fill[p] as usize, owner);
        }
    }

    /// A cube of seat `owner` on Planet `p`'s special square (R3).
    #[inline]
    pub(crate) fn place_on_special(&self, s: &mut State, p: usize, owner: i8) {
        let at = s.special_start[p] as usize + s.special_fill[p] as usize;
        s.board[at] = owner;
        s.special_fill[p] += 1;
        s.unscored |= 1 << p;
        if self.rules.any_lands && !s.firing && self.rules.planets[s.planets[p] as usize].abilities.lands {
            self.cube_landed(s, p, 0, owner);
        }
    }

    /// Take the cube at `index` (square `index + 1`) off Planet `p`'s track and return its
    /// owner; the cubes behind it move up one square each, so squares fill in order (R2).
    /// The Planet's kept scores are given back first (`unscore_track`): its track shrinks.
    pub(crate) fn take_from_track(&self, s: &mut State, p: usize, index: usize) -> i8 {
        self.unscore_track(s, p);
        let start = s.track_start[p] as usize;
        let end = start + s.track_fill[p] as usize;
        let owner = s.board[start + index];
        s.board.copy_within(start + index + 1..end, start + index);
        s.board[end - 1] = 0; // an empty square, as a new board holds
        s.track_fill[p] -= 1;
        s.rooms[p] += 1;
        s.open |= 1 << p;
        owner
    }

    fn finish_survey(&self, s: &mut State) {
        let seat = s.turn_seat() as u8;
        let slot = s.chosen[s.chosen_len as usize - 1];
        let rules = &self.rules;
        empty(&mut s.pending);
        // The after-survey effects of a skill applied with use_skill resolve after the crew's own.
        if s.borrowed[slot as usize] >= 0 {
            for &node in rules.crew[s.borrowed[slot as usize] as usize].after_survey.iter().rev() {
                s.pending.push(Pending { node, slot, seat, remaining: rules.nodes[node as usize].steps });
            }
        }
        for &node in rules.crew[s.crew[slot as usize] as usize].after_survey.iter().rev() {
            s.pending.push(Pending { node, slot, seat, remaining: rules.nodes[node as usize].steps });
        }
        s.stage = Stage::AfterSurvey;
    }
}
