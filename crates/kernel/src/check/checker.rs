//! The checks themselves, in the Python checker's order: the table, the board, the crew area,
//! the supplies, cube conservation, pending effects, the survey, lasting effects and the stage.

use super::{At, Reason, Problem, StateFields, REPRESENTABLE, EFFECT_STAGES};
use crate::game::{Game};
use crate::rules::{ALL_SURVEY_RULES, SETUP_CARD};
use crate::expr::{PROTECTED_ROUND};
use crate::state::{Stage, FREE_CUBE, NO_WORKER};
use crate::limits::MAX_PLAYERS;

pub(super) struct Checker<'a> {
    pub(super) game: &'a Game,
    pub(super) f: &'a StateFields,
    pub(super) rules_too: bool,
    pub(super) problems: Vec<Problem>,
    pub(super) stage: Option<Stage>,
}

impl Checker<'_> {
    fn problem(&mut self, at: At, reason: Reason) {
        self.problems.push(Problem { at, reason });
    }

    /// `value` within `low..=high` (the rules' bound), or only within what the kernel stores
    /// when the rules are not checked.
    fn bound(&mut self, at: At, value: i64, low: i64, high: i64) {
        let high = if self.rules_too { high } else { REPRESENTABLE };
        if value < low || value > high {
            self.problem(at, Reason::Outside { value, low, high });
        }
    }

    fn seat(&mut self, at: At, value: i64, expected: &'static str) {
        let players = self.f.players;
        if !(0..players).contains(&value) {
            self.problem(at, Reason::NotASeat { value, players, expected });
        }
    }

    fn stage_is(&self, stages: &[Stage]) -> bool {
        self.stage.is_some_and(|s| stages.contains(&s))
    }

    pub(super) fn table(&mut self) -> bool {
        let (f, rules) = (self.f, &self.game.rules);
        let Some(counts) = rules.setups.iter().find(|s| s.players as i64 == f.players).copied() else {
            let mut supported: Vec<usize> = rules.setups.iter().map(|s| s.players).collect();
            supported.sort_unstable();
            self.problem(At::Players, Reason::PlayersUnsupported { players: f.players, ruleset: rules.name.clone(), supported });
            return false;
        };
        for listed in [f.hands.len(), f.vp.len(), f.removed.len(), f.protected.len(), f.taken.len()] {
            if listed as i64 != f.players {
                self.problem(At::Seats, Reason::SeatsListed { listed, players: f.players });
                return false;
            }
        }
        let planet_ids: Vec<&str> = rules.planets.iter().map(|c| c.id.as_str()).collect();
        let crew_ids: Vec<&str> = rules.crew.iter().map(|c| c.id.as_str()).collect();
        self.cards("planet", At::PlanetId, &f.planets, &planet_ids);
        self.cards("crew", At::CrewId, &f.crew, &crew_ids);
        if !self.problems.is_empty() {
            return false;
        }
        let (n_planets, n_crew) = (f.planets.len(), f.crew.len());
        let shapes = [
            ("tracks", f.tracks.len(), n_planets, At::Planets),
            ("specials", f.specials.len(), n_planets, At::Planets),
            ("crew_free", f.crew_free.len(), n_crew, At::Crew),
            ("crew_cubes", f.crew_cubes.len(), n_crew, At::Crew),
            ("workers", f.workers.len(), n_crew, At::Crew),
            ("borrowed", f.borrowed.len(), n_crew, At::Crew),
        ];
        for (name, listed, expected, at) in shapes {
            if listed != expected {
                self.problem(at, Reason::Entries { name, listed, expected });
                return false;
            }
        }
        if n_planets != counts.planets {
            self.problem(At::Planets, Reason::PlanetsDealt { dealt: counts.planets, players: f.players, listed: n_planets });
        }
        let always: Vec<i64> = rules.always.iter().map(|&c| c as i64).collect();
        if n_crew != always.len() + counts.crew {
            self.problem(
                At::Crew,
                Reason::CrewArea { always: always.len(), dealt: counts.crew, players: f.players, listed: n_crew },
            );
        } else if f.crew[..always.len()] != always[..] || f.crew[always.len()..].iter().any(|c| always.contains(c)) {
            let names: Vec<&str> = rules.always.iter().map(|&c| rules.crew[c as usize].id.as_str()).collect();
            let always = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            self.problem(At::Crew, Reason::CrewAreaOrder { always });
        }
        self.queue(&crew_ids);
        self.seat(At::StartPlayer, f.start_player, "a seat");
        if f.turn < 0 || f.turn > f.players || (f.turn == f.players && !self.stage_is(&[Stage::RoundEnd, Stage::Over])) {
            self.problem(At::Turn, Reason::TurnsTaken { turn: f.turn, players: f.players });
        }
        true
    }

    fn cards(&mut self, kind: &'static str, at: fn(usize) -> At, cards: &[i64], ids: &[&str]) {
        let ruleset = &self.game.rules.name;
        for (k, &card) in cards.iter().enumerate() {
            if card < 0 || card as usize >= ids.len() {
                self.problems.push(Problem { at: at(k), reason: Reason::NoCard { kind, card, ruleset: ruleset.clone() } });
            } else if cards[..k].contains(&card) {
                let id = ids[card as usize].to_string();
                self.problems.push(Problem { at: at(k), reason: Reason::CardTwice { kind, id } });
            }
        }
    }

    pub(super) fn board(&mut self) {
        let (f, rules) = (self.f, &self.game.rules);
        for p in 0..f.planets.len() {
            let card = &rules.planets[f.planets[p] as usize];
            let (track, special) = (&f.tracks[p], &f.specials[p]);
            if track.len() > card.length() {
                self.problem(At::Track(p), Reason::TrackOver { cubes: track.len(), planet: card.id.clone(), length: card.length() });
            }
            if special.len() > card.special_capacity as usize {
                self.problem(
                    At::Special(p),
                    Reason::SpecialOver { cubes: special.len(), planet: card.id.clone(), capacity: card.special_capacity },
                );
            }
            for (k, &owner) in track.iter().enumerate() {
                if owner != FREE_CUBE as i64 {
                    self.seat(At::TrackCube(p, k), owner, "an owner: -1 (free cube) or a seat");
                }
            }
            for (k, &owner) in special.iter().enumerate() {
                self.seat(At::SpecialCube(p, k), owner, "a seat");
            }
        }
    }

    pub(super) fn crew_area(&mut self) {
        let (f, rules) = (self.f, &self.game.rules);
        let cap = rules.max_free_cubes_per_crew as i64;
        for slot in 0..f.crew.len() {
            let free = f.crew_free[slot];
            if free < 0 {
                self.problem(At::FreeCubes(slot), Reason::Outside { value: free, low: 0, high: cap });
            } else if free > cap {
                if self.rules_too {
                    let crew = rules.crew[f.crew[slot] as usize].id.clone();
                    self.problem(At::FreeCubes(slot), Reason::FreeOverCap { free, crew, cap });
                } else {
                    self.bound(At::FreeCubes(slot), free, 0, cap);
                }
            }
            for (k, &owner) in f.crew_cubes[slot].iter().enumerate() {
                self.seat(At::CrewCube(slot, k), owner, "a seat");
            }
            if f.workers[slot] != NO_WORKER as i64 {
                self.seat(At::Worker(slot), f.workers[slot], "a seat");
            }
        }
        let mut chosen_ok = true;
        for (k, &slot) in f.chosen.iter().enumerate() {
            if slot < 0 || slot as usize >= f.crew.len() {
                self.problem(At::ChosenItem(k), Reason::NoSlot { slot, slots: f.crew.len() });
                chosen_ok = false;
            } else if f.chosen[..k].contains(&slot) {
                let crew = rules.crew[f.crew[slot as usize] as usize].id.clone();
                self.problem(At::ChosenItem(k), Reason::ChosenTwice { crew });
                chosen_ok = false;
            }
        }
        // The kernel's worker array must agree with the chosen crews: shape, not only rules.
        if chosen_ok
            && (0..f.crew.len() as i64).any(|slot| f.chosen.contains(&slot) != (f.workers[slot as usize] != NO_WORKER as i64))
        {
            self.problem(At::Chosen, Reason::ChosenWorkers);
        }
        // One crew is chosen per turn: before turn t's pick, t crews; from its pick to its end, t + 1.
        if self.stage_is(&[Stage::PickCrew, Stage::BeforeSurvey, Stage::Surveying, Stage::AfterSurvey]) {
            let picked = f.turn + i64::from(self.stage != Some(Stage::PickCrew));
            if f.chosen.len() as i64 != picked {
                self.problem(At::Chosen, Reason::ChosenCount { chosen: f.chosen.len(), turn: f.turn, picked });
            }
        }
    }

    pub(super) fn supplies(&mut self) {
        let (f, b) = (self.f, self.game.rules.bounds);
        for seat in 0..f.hands.len() {
            self.bound(At::Hand(seat), f.hands[seat], 0, b.most_hand);
            self.bound(At::Vp(seat), f.vp[seat], 0, b.most_vp);
            self.bound(At::Removed(seat), f.removed[seat], 0, b.most_hand);
            // Free cubes taken as the seat's own (idea R8): none where the ruleset takes none.
            self.bound(At::Taken(seat), f.taken[seat], 0, b.most_hand - self.game.rules.knobs.cubes_per_player as i64);
        }
        self.bound(At::Stock, f.stock, 0, b.most_stock);
        self.bound(At::Round, f.round, 1, b.most_round);
    }

    pub(super) fn conservation(&mut self) {
        let (f, rules) = (self.f, &self.game.rules);
        let mut on_board = [0i64; MAX_PLAYERS];
        let mut on_tracks = 0i64;
        for owners in f.tracks.iter().chain(&f.specials).chain(&f.crew_cubes) {
            for &owner in owners {
                if owner == FREE_CUBE as i64 {
                    on_tracks += 1;
                } else {
                    on_board[owner as usize] += 1;
                }
            }
        }
        let each = rules.knobs.cubes_per_player as i64;
        for seat in 0..f.hands.len() {
            let (hand, board, removed, taken) = (f.hands[seat], on_board[seat], f.removed[seat], f.taken[seat]);
            let total = hand + board + removed;
            if total != each + taken {
                self.problem(At::Seat(seat), Reason::SeatCubes { seat, total, hand, board, removed, each, taken });
            }
        }
        let on_crew: i64 = f.crew_free.iter().sum();
        // Free cubes a seat took (take_free_cubes, idea R8) are its own now, counted above.
        let taken: i64 = f.taken.iter().sum();
        let total = f.stock + on_tracks + on_crew + taken;
        if total != rules.knobs.free_cubes as i64 {
            let game = rules.knobs.free_cubes as i64;
            self.problem(At::Stock, Reason::FreeCubes { total, stock: f.stock, tracks: on_tracks, crew: on_crew, taken, game });
        }
    }

    /// The pending effects as the kernel's nodes, the next one first; None for a problem.
    pub(super) fn pending(&mut self) -> Vec<Option<u16>> {
        let (f, rules) = (self.f, &self.game.rules);
        let most = rules.bounds.most_pending;
        if f.pending.len() > most {
            self.problem(At::Pending, Reason::PendingListed { listed: f.pending.len(), most });
            return Vec::new();
        }
        let mut nodes = Vec::with_capacity(f.pending.len());
        for (k, (slot, path, remaining, seat, skill_of)) in f.pending.iter().enumerate() {
            let setup_step = *skill_of == -2;
            if setup_step != (self.stage == Some(Stage::Setup)) {
                self.problem(At::PendingItem(k), Reason::SetupPendingOutsideSetup);
                nodes.push(None);
                continue;
            }
            if setup_step && *slot != -1 {
                self.problem(At::PendingCrew(k), Reason::SetupStepSlot { slot: *slot });
                nodes.push(None);
                continue;
            }
            if setup_step {
                let node = match path.iter().map(|&i| u16::try_from(i).ok()).collect::<Option<Vec<u16>>>() {
                    Some(path) => rules.node_at(SETUP_CARD, &path),
                    None => None,
                };
                let Some(node) = node else {
                    let held_by = "setup.each_player".to_string();
                    self.problem(At::PendingPath(k), Reason::NoEffectAt { path: path.clone(), held_by });
                    nodes.push(None);
                    continue;
                };
                self.pending_effect(k, node, *remaining, *seat);
                nodes.push(Some(node));
                continue;
            }
            if *slot < 0 || *slot as usize >= f.crew.len() {
                self.problem(At::PendingCrew(k), Reason::NoSlot { slot: *slot, slots: f.crew.len() });
                nodes.push(None);
                continue;
            }
            if *skill_of < -1 || *skill_of >= rules.crew.len() as i64 {
                let ruleset = rules.name.clone();
                self.problem(At::PendingSkillOf(k), Reason::NoCard { kind: "crew", card: *skill_of, ruleset });
                nodes.push(None);
                continue;
            }
            // One form for one state: the slot's own skill is -1 (`pending_card`).
            if self.rules_too && *skill_of == f.crew[*slot as usize] {
                let id = rules.crew[*skill_of as usize].id.clone();
                self.problem(At::PendingSkillOf(k), Reason::OwnCard { id });
                nodes.push(None);
                continue;
            }
            let card = if *skill_of >= 0 { *skill_of as u16 } else { f.crew[*slot as usize] as u16 };
            let node = match path.iter().map(|&i| u16::try_from(i).ok()).collect::<Option<Vec<u16>>>() {
                Some(path) => rules.node_at(card, &path),
                None => None,
            };
            let Some(node) = node else {
                let held_by = format!("the skill of crew '{}'", rules.crew[card as usize].id);
                self.problem(At::PendingPath(k), Reason::NoEffectAt { path: path.clone(), held_by });
                nodes.push(None);
                continue;
            };
            self.pending_effect(k, node, *remaining, *seat);
            nodes.push(Some(node));
        }
        nodes
    }

    /// The steps left and the chooser of pending effect `k`, at `node`.
    fn pending_effect(&mut self, k: usize, node: u16, remaining: i64, seat: i64) {
        let rules = &self.game.rules;
        let steps = rules.nodes[node as usize].steps as i64;
        if !self.rules_too {
            self.bound_always(At::PendingRemaining(k), remaining, 1, REPRESENTABLE);
        } else if remaining > steps {
            let effect = rules.nodes[node as usize].name.to_string();
            self.problem(At::PendingRemaining(k), Reason::StepsLeft { remaining, effect, steps });
        } else if remaining < 1 {
            self.problem(At::PendingRemaining(k), Reason::Outside { value: remaining, low: 1, high: steps });
        }
        self.seat(At::PendingSeat(k), seat, "a seat");
    }

    pub(super) fn survey(&mut self) {
        let (f, b) = (self.f, self.game.rules.bounds);
        self.bound_always(At::SurveyRules, f.survey_rules, 0, ALL_SURVEY_RULES as i64);
        self.bound(At::SurveyBonus, f.survey_bonus, b.least_survey_bonus, b.most_survey_bonus);
        self.bound(At::SurveyPlaced, f.survey_placed, 0, b.most_survey_placed);
        self.bound_always(At::SurveyLast, f.survey_last, -1, f.planets.len() as i64 - 1);
        self.bound_always(At::SurveyDirection, f.survey_direction, -1, 1);
        self.bound(At::SurveySkips, f.survey_skips, -1, b.most_survey_skips);
        let mut surveyed = f.surveyed.clone();
        surveyed.sort_unstable();
        surveyed.dedup();
        for position in surveyed {
            if position < 0 || position as usize >= f.planets.len() {
                self.problem(At::Surveyed, Reason::NotRingPosition { position, planets: f.planets.len() });
            }
        }
        // A survey's Planets are gathered from its first cube on: none before it (the pick clears them).
        let before_first_cube = self.stage == Some(Stage::BeforeSurvey) || (self.stage == Some(Stage::Surveying) && f.survey_placed == 0);
        if self.rules_too && !f.surveyed.is_empty() && before_first_cube {
            self.problem(At::Surveyed, Reason::SurveyedBeforeFirstCube);
        }
    }

    /// The crew cards not dealt (R11, `UnpickedCrews::replaced`): none when no crew is replaced;
    /// else crew cards not always in play, none in the crew area, none twice (a crew that left
    /// the crew area is out of the game). `state_checks.Checker._queue`'s words.
    fn queue(&mut self, crew_ids: &[&str]) {
        let f = self.f;
        let rules = &self.game.rules;
        if !rules.unpicked_crews.replaced {
            if !f.queue.is_empty() {
                self.problem(At::Queue, Reason::QueueNotEmpty);
            }
            return;
        }
        if f.queue.len() > crate::limits::MAX_QUEUE {
            self.problem(At::Queue, Reason::QueueTooLong { listed: f.queue.len() });
            return;
        }
        self.cards("crew", At::QueueId, &f.queue, crew_ids);
        for (k, &card) in f.queue.iter().enumerate() {
            if card < 0 || card as usize >= crew_ids.len() {
                continue;
            }
            let id = crew_ids[card as usize].to_string();
            if rules.crew[card as usize].always_in_play {
                self.problem(At::QueueId(k), Reason::QueuedAlways { id });
            } else if f.crew.contains(&card) {
                self.problem(At::QueueId(k), Reason::QueuedInArea { id });
            }
        }
    }

    /// The lasting effects of skills: closed crews are unpicked slots, protections known.
    pub(super) fn lasting(&mut self) {
        let f = self.f;
        let mut closed = f.closed.clone();
        closed.sort_unstable();
        closed.dedup();
        for slot in closed {
            if slot < 0 || slot as usize >= f.crew.len() {
                self.problem(At::Crew, Reason::ClosedNoSlot { slot, slots: f.crew.len() });
            } else if f.workers[slot as usize] != NO_WORKER as i64 {
                self.problem(At::CrewClosed(slot as usize), Reason::ClosedWithWorker);
            }
        }
        for (seat, &until) in f.protected.iter().enumerate() {
            self.bound_always(At::Protected(seat), until, 0, PROTECTED_ROUND as i64);
        }
        let cards = self.game.rules.crew.len() as i64;
        for (slot, &card) in f.borrowed.iter().enumerate() {
            self.bound_always(At::Borrowed(slot), card, -1, cards - 1);
            if self.rules_too && card == f.crew[slot] {
                let id = self.game.rules.crew[card as usize].id.clone();
                self.problem(At::Borrowed(slot), Reason::OwnCard { id });
            }
        }
    }

    /// A bound the kernel's layout needs whoever vouches for the state.
    fn bound_always(&mut self, at: At, value: i64, low: i64, high: i64) {
        if value < low || value > high {
            self.problem(at, Reason::Outside { value, low, high });
        }
    }

    pub(super) fn stage(&mut self) {
        let f = self.f;
        let Some(stage) = self.stage else {
            self.problem(At::Stage, Reason::UnknownStage { stage: f.stage.clone() });
            return;
        };
        for trigger in &f.triggers {
            let end = &self.game.rules.end;
            if end.flag(trigger).is_none() {
                let known = end.names().map(|(_, name)| name).collect::<Vec<_>>().join(", ");
                self.problem(At::Triggers, Reason::UnknownTrigger { trigger: trigger.clone(), known });
            }
        }
        let mut distinct = f.triggers.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let end = &self.game.rules.end;
        if distinct.len() != f.triggers.len() {
            self.problem(At::Triggers, Reason::TriggerTwice);
        } else if self.rules_too && f.triggers.iter().all(|t| end.flag(t).is_some()) {
            let order: Vec<&str> = end.names().map(|(_, name)| name).collect();
            let at = |t: &String| order.iter().position(|name| name == t);
            if f.triggers.windows(2).any(|pair| at(&pair[0]) > at(&pair[1])) {
                self.problem(At::Triggers, Reason::TriggersOutOfOrder { known: order.join(", ") });
            }
        }
        if (stage == Stage::Over) == f.triggers.is_empty() && self.rules_too {
            self.problem(At::Triggers, Reason::OverWithTriggers);
        }
        if stage == Stage::Setup && (f.round != 1 || f.turn != 0 || !f.chosen.is_empty()) {
            self.problem(At::Stage, Reason::SetupAfterFirstRound);
        }
        let effect_stage = EFFECT_STAGES.contains(&stage);
        if effect_stage && f.pending.is_empty() {
            self.problem(At::Pending, Reason::NothingPending { stage: stage.name() });
        } else if !effect_stage && !f.pending.is_empty() {
            self.problem(At::Pending, Reason::PendingOutsideEffects { stage: stage.name() });
        }
    }
}
