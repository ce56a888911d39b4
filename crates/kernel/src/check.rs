//! The checker of what a state may hold: a state from outside is built only through
//! `Game::state_from_fields`, which returns every reason the fields are not a state of the
//! ruleset (in the manner of shakmaty's `FromSetup` and `PositionError`).
//!
//! The checks, their order and their words are those of the Python checker
//! (`stargazer_rules.engine.state_checks`), held to it by tests/test_state_checks.py: each
//! `Problem` is located at the path of the value in the state's JSON form (`$.seats[2].hand`).
//! Two layers: the *shape* (card indices, lengths, owners, slots: what the kernel's arrays
//! need) is always checked; the *rules* (the ruleset's bounds, cube conservation, turn
//! consistency) are skipped for a state the Python engine made (`Trust::Engine`).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Game;
use crate::rules::ALL_SURVEY_RULES;
use crate::rules::SETUP_CARD;
use crate::state::{pending_card, pending_slot, Pending, PendingStack, Stage, FREE_CUBE, NO_SLOT, NO_WORKER, PROTECTED_ROUND};
use crate::{State, MAX_PLAYERS};

/// A state as plain numbers, as the bindings extract it from a Python `State` (the Python
/// engine's fields, in its order; `pending` next first, as there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateFields {
    pub players: i64,
    pub planets: Vec<i64>,
    pub crew: Vec<i64>,
    pub tracks: Vec<Vec<i64>>,
    pub specials: Vec<Vec<i64>>,
    pub crew_free: Vec<i64>,
    pub crew_cubes: Vec<Vec<i64>>,
    pub workers: Vec<i64>,
    pub hands: Vec<i64>,
    pub vp: Vec<i64>,
    pub removed: Vec<i64>,
    pub stock: i64,
    pub round: i64,
    pub start_player: i64,
    pub turn: i64,
    pub stage: String,
    pub chosen: Vec<i64>,
    /// (crew slot, path, steps left, seat, card) of each pending effect, the next one first;
    /// card is the crew card whose skill holds it when not the slot's own (`use_skill`), else -1.
    pub pending: Vec<(i64, Vec<i64>, i64, i64, i64)>,
    pub survey_rules: i64,
    pub survey_bonus: i64,
    pub survey_placed: i64,
    pub survey_last: i64,
    pub survey_direction: i64,
    pub survey_skips: i64,
    pub surveyed: Vec<i64>,
    pub triggers: Vec<String>,
    // -- lasting effects of skills --
    /// The crew slots closed until the round ends (`close_crew`).
    pub closed: Vec<i64>,
    /// Per seat, how long its cubes are protected (`protect_cubes`; 0 none).
    pub protected: Vec<i64>,
    /// Per crew slot, the crew card whose skill it applies this round (`use_skill`; -1 none).
    pub borrowed: Vec<i64>,
    /// Per seat, the free cubes it took from the stock as its own (`take_free_cubes`, idea R8).
    pub taken: Vec<i64>,
    // -- the crew cards not dealt (R11's replacement) --
    /// The queue of crew cards not dealt, first first (`UnpickedCrews::replaced`; else empty).
    pub queue: Vec<i64>,
}

impl StateFields {
    /// The fields of a kernel state (the inverse of `Game::state_from_fields`).
    pub fn of(game: &Game, s: &State) -> StateFields {
        let ints = |values: &[i32]| values.iter().map(|&v| v as i64).collect::<Vec<_>>();
        let (players, np, nc) = (s.players as usize, s.planet_count as usize, s.crew_count as usize);
        StateFields {
            players: players as i64,
            planets: s.planets[..np].iter().map(|&c| c as i64).collect(),
            crew: s.crew[..nc].iter().map(|&c| c as i64).collect(),
            tracks: (0..np).map(|p| s.track(p).iter().map(|&o| o as i64).collect()).collect(),
            specials: (0..np).map(|p| s.special(p).iter().map(|&o| o as i64).collect()).collect(),
            crew_free: ints(&s.crew_free[..nc]),
            crew_cubes: (0..nc)
                .map(|slot| (0..players).flat_map(|o| std::iter::repeat_n(o as i64, s.crew_cubes[slot][o] as usize)).collect())
                .collect(),
            workers: s.workers[..nc].iter().map(|&w| w as i64).collect(),
            hands: ints(&s.hands[..players]),
            vp: ints(&s.vp[..players]),
            removed: ints(&s.removed[..players]),
            stock: s.stock as i64,
            round: s.round as i64,
            start_player: s.start_player as i64,
            turn: s.turn as i64,
            stage: s.stage.name().to_string(),
            chosen: s.chosen().iter().map(|&c| c as i64).collect(),
            pending: s
                .pending
                .iter()
                .rev()
                .map(|p| {
                    let node = &game.rules.nodes[p.node as usize];
                    let path = node.path.iter().map(|&i| i as i64).collect();
                    let card = pending_card(s, p, node.card);
                    (pending_slot(p), path, p.remaining as i64, p.seat as i64, card)
                })
                .collect(),
            survey_rules: s.survey_rules as i64,
            survey_bonus: s.survey_bonus as i64,
            survey_placed: s.survey_placed as i64,
            survey_last: s.survey_last as i64,
            survey_direction: s.survey_direction as i64,
            survey_skips: s.survey_skips as i64,
            surveyed: (0..np as i64).filter(|&p| s.surveyed & (1 << p) != 0).collect(),
            triggers: game.rules.end.named(s.triggers).into_iter().map(str::to_string).collect(),
            closed: (0..nc as i64).filter(|&slot| s.closed & (1 << slot) != 0).collect(),
            protected: s.protected[..players].iter().map(|&p| p as i64).collect(),
            borrowed: s.borrowed[..nc].iter().map(|&c| c as i64).collect(),
            taken: ints(&s.taken[..players]),
            queue: s.queue[..s.queue_len as usize].iter().map(|&c| c as i64).collect(),
        }
    }
}

/// Who vouches for a state's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// From outside: every check.
    Nobody,
    /// Made by the Python engine (a simulation's bot): the shape only.
    Engine,
}

/// Where a problem is: the JSON path of the value in the state's JSON form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum At {
    Players,
    Seats,
    Seat(usize),
    Hand(usize),
    Vp(usize),
    Removed(usize),
    Taken(usize),
    Planets,
    PlanetId(usize),
    Track(usize),
    TrackCube(usize, usize),
    Special(usize),
    SpecialCube(usize, usize),
    Crew,
    CrewId(usize),
    Queue,
    QueueId(usize),
    FreeCubes(usize),
    CrewCube(usize, usize),
    Worker(usize),
    StartPlayer,
    Turn,
    Stock,
    Round,
    Chosen,
    ChosenItem(usize),
    Pending,
    PendingHead,
    PendingCrew(usize),
    PendingPath(usize),
    PendingRemaining(usize),
    PendingSeat(usize),
    SurveyRules,
    SurveyBonus,
    SurveyPlaced,
    SurveyLast,
    SurveyDirection,
    SurveySkips,
    Surveyed,
    Stage,
    Triggers,
    CrewClosed(usize),
    Protected(usize),
    Borrowed(usize),
    PendingSkillOf(usize),
    PendingItem(usize),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Players => write!(f, "$.players"),
            At::Seats => write!(f, "$.seats"),
            At::Seat(s) => write!(f, "$.seats[{s}]"),
            At::Hand(s) => write!(f, "$.seats[{s}].hand"),
            At::Vp(s) => write!(f, "$.seats[{s}].vp"),
            At::Removed(s) => write!(f, "$.seats[{s}].removed"),
            At::Taken(s) => write!(f, "$.seats[{s}].taken"),
            At::Planets => write!(f, "$.planets"),
            At::PlanetId(p) => write!(f, "$.planets[{p}].id"),
            At::Track(p) => write!(f, "$.planets[{p}].track"),
            At::TrackCube(p, k) => write!(f, "$.planets[{p}].track[{k}]"),
            At::Special(p) => write!(f, "$.planets[{p}].special"),
            At::SpecialCube(p, k) => write!(f, "$.planets[{p}].special[{k}]"),
            At::Crew => write!(f, "$.crew"),
            At::CrewId(c) => write!(f, "$.crew[{c}].id"),
            At::Queue => write!(f, "$.crew_queue"),
            At::QueueId(k) => write!(f, "$.crew_queue[{k}].id"),
            At::FreeCubes(c) => write!(f, "$.crew[{c}].free_cubes"),
            At::CrewCube(c, k) => write!(f, "$.crew[{c}].cubes[{k}]"),
            At::Worker(c) => write!(f, "$.crew[{c}].worker"),
            At::StartPlayer => write!(f, "$.start_player"),
            At::Turn => write!(f, "$.turn"),
            At::Stock => write!(f, "$.stock"),
            At::Round => write!(f, "$.round"),
            At::Chosen => write!(f, "$.chosen"),
            At::ChosenItem(k) => write!(f, "$.chosen[{k}]"),
            At::Pending => write!(f, "$.pending"),
            At::PendingHead => write!(f, "$.pending[0]"),
            At::PendingCrew(k) => write!(f, "$.pending[{k}].crew"),
            At::PendingPath(k) => write!(f, "$.pending[{k}].path"),
            At::PendingRemaining(k) => write!(f, "$.pending[{k}].remaining"),
            At::PendingSeat(k) => write!(f, "$.pending[{k}].seat"),
            At::SurveyRules => write!(f, "$.survey.rules"),
            At::SurveyBonus => write!(f, "$.survey.bonus"),
            At::SurveyPlaced => write!(f, "$.survey.placed"),
            At::SurveyLast => write!(f, "$.survey.last"),
            At::SurveyDirection => write!(f, "$.survey.direction"),
            At::SurveySkips => write!(f, "$.survey.skips"),
            At::Surveyed => write!(f, "$.survey.surveyed"),
            At::Stage => write!(f, "$.stage"),
            At::Triggers => write!(f, "$.triggers"),
            At::CrewClosed(c) => write!(f, "$.crew[{c}].closed"),
            At::Protected(s) => write!(f, "$.seats[{s}].protected"),
            At::Borrowed(c) => write!(f, "$.crew[{c}].borrowed"),
            At::PendingSkillOf(k) => write!(f, "$.pending[{k}].skill_of"),
            At::PendingItem(k) => write!(f, "$.pending[{k}]"),
        }
    }
}

/// Why the fields are not a state of the ruleset, with what the reason names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    PlayersUnsupported { players: i64, ruleset: String, supported: Vec<usize> },
    SeatsListed { listed: usize, players: i64 },
    NoCard { kind: &'static str, card: i64, ruleset: String },
    CardTwice { kind: &'static str, id: String },
    QueueNotEmpty,
    QueuedAlways { id: String },
    QueuedInArea { id: String },
    QueueTooLong { listed: usize },
    Entries { name: &'static str, listed: usize, expected: usize },
    PlanetsDealt { dealt: usize, players: i64, listed: usize },
    CrewArea { always: usize, dealt: usize, players: i64, listed: usize },
    CrewAreaOrder { always: String },
    NotASeat { value: i64, players: i64, expected: &'static str },
    TurnsTaken { turn: i64, players: i64 },
    TrackOver { cubes: usize, planet: String, length: usize },
    SpecialOver { cubes: usize, planet: String, capacity: u32 },
    Outside { value: i64, low: i64, high: i64 },
    FreeOverCap { free: i64, crew: String, cap: i64 },
    NoSlot { slot: i64, slots: usize },
    ChosenTwice { crew: String },
    ChosenWorkers,
    ChosenCount { chosen: usize, turn: i64, picked: i64 },
    SeatCubes { seat: usize, total: i64, hand: i64, board: i64, removed: i64, each: i64, taken: i64 },
    FreeCubes { total: i64, stock: i64, tracks: i64, crew: i64, taken: i64, game: i64 },
    PendingListed { listed: usize, most: usize },
    NoEffectAt { path: Vec<i64>, held_by: String },
    SetupPendingOutsideSetup,
    SetupAfterFirstRound,
    StepsLeft { remaining: i64, effect: String, steps: i64 },
    NotRingPosition { position: i64, planets: usize },
    UnknownStage { stage: String },
    /// `known`: the ruleset's trigger ids (its end conditions, then round_limit), comma-separated.
    UnknownTrigger { trigger: String, known: String },
    TriggerTwice,
    OverWithTriggers,
    NothingPending { stage: &'static str },
    PendingOutsideEffects { stage: &'static str },
    HeadNeedsNoDecision,
    NoDecision { stage: &'static str },
    ClosedNoSlot { slot: i64, slots: usize },
    ClosedWithWorker,
    /// A crew's own card named as the skill it applies (`use_skill`): its own skill is -1.
    OwnCard { id: String },
    SurveyedBeforeFirstCube,
    SetupStepSlot { slot: i64 },
    /// `known`: the ruleset's trigger ids in their order, comma-separated.
    TriggersOutOfOrder { known: String },
}

fn joined<T: fmt::Display>(items: &[T]) -> String {
    items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::PlayersUnsupported { players, ruleset, supported } => {
                write!(f, "{players} players are not supported by ruleset {ruleset} (supported: {})", joined(supported))
            }
            Reason::SeatsListed { listed, players } => {
                write!(f, "lists {listed} {} for {players} players", if *listed == 1 { "seat" } else { "seats" })
            }
            Reason::NoCard { kind, card, ruleset } => write!(f, "no {kind} card {card} in ruleset {ruleset}"),
            Reason::CardTwice { kind, id } => write!(f, "{kind} '{id}' appears twice"),
            Reason::QueueNotEmpty => write!(f, "this ruleset replaces no crew (R11): the queue must be empty"),
            Reason::QueuedAlways { id } => write!(f, "crew '{id}' is always in play and is not queued"),
            Reason::QueuedInArea { id } => write!(f, "crew '{id}' is in the crew area and in the queue"),
            Reason::QueueTooLong { listed } => write!(f, "a queue of {listed} crew is beyond the kernel's limit of {}", crate::state::MAX_QUEUE),
            Reason::Entries { name, listed, expected } => write!(f, "{name} has {listed} entries, not {expected}"),
            Reason::PlanetsDealt { dealt, players, listed } => {
                write!(f, "{dealt} planets are dealt for {players} players, not {listed}")
            }
            Reason::CrewArea { always, dealt, players, listed } => write!(
                f,
                "{always} always-in-play and {dealt} dealt crew make the area for {players} players, not {listed}"
            ),
            Reason::CrewAreaOrder { always } => {
                write!(f, "the crew area must start with the always-in-play crew ({always}), and only them")
            }
            Reason::NotASeat { value, players, expected } => {
                write!(f, "{value} is not {expected} (seats are 0..{})", players - 1)
            }
            Reason::TurnsTaken { turn, players } => write!(f, "{turn} turns taken in a round of {players}"),
            Reason::TrackOver { cubes, planet, length } => {
                write!(f, "{cubes} cubes on planet '{planet}', whose track has {length} squares")
            }
            Reason::SpecialOver { cubes, planet, capacity } => {
                write!(f, "{cubes} cubes on the special square of planet '{planet}', which holds {capacity}")
            }
            Reason::Outside { value, low, high } => write!(f, "{value} is outside {low}..{high}"),
            Reason::FreeOverCap { free, crew, cap } => {
                write!(f, "{free} free cubes on crew '{crew}', over the cap of {cap} (R11)")
            }
            Reason::NoSlot { slot, slots } => {
                write!(f, "crew slot {slot} is not in the crew area (slots 0..{})", *slots as i64 - 1)
            }
            Reason::ChosenTwice { crew } => write!(f, "crew '{crew}' is chosen twice"),
            Reason::ChosenWorkers => {
                write!(f, "the crew chosen this round must be exactly the crew with a worker on them")
            }
            Reason::ChosenCount { chosen, turn, picked } => {
                write!(f, "{chosen} crews chosen this round, but turn {turn} has {picked}")
            }
            Reason::SeatCubes { seat, total, hand, board, removed, each, taken } => {
                write!(
                    f,
                    "seat {seat} has {total} cubes (hand {hand} + on the board {board} + removed {removed}), but each player has {each}"
                )?;
                if *taken != 0 {
                    write!(f, " and took {taken} free cubes")?;
                }
                Ok(())
            }
            Reason::FreeCubes { total, stock, tracks, crew, taken, game } => {
                write!(f, "{total} free cubes (stock {stock} + on tracks {tracks} + on crew {crew}")?;
                if *taken != 0 {
                    write!(f, " + taken by seats {taken}")?;
                }
                write!(f, "), but the game has {game}")
            }
            Reason::PendingListed { listed, most } => write!(f, "lists {listed} effects, but this ruleset has {most}"),
            Reason::NoEffectAt { path, held_by } => write!(f, "[{}] is not the path of an effect in {held_by}", joined(path)),
            Reason::SetupPendingOutsideSetup => write!(f, "setup steps are pending exactly in stage setup, before the first round"),
            Reason::SetupAfterFirstRound => {
                write!(f, "the setup steps resolve before the first round: round 1, no turn taken, no crew chosen")
            }
            Reason::StepsLeft { remaining, effect, steps } => {
                write!(f, "{remaining} steps left of '{effect}', which has {steps}")
            }
            Reason::NotRingPosition { position, planets } => {
                write!(f, "{position} is not a ring position (0..{})", *planets as i64 - 1)
            }
            Reason::UnknownStage { stage } => {
                let names: Vec<&str> = Stage::ALL.iter().map(|s| s.name()).collect();
                write!(f, "'{stage}' is not a stage ({})", names.join(", "))
            }
            Reason::UnknownTrigger { trigger, known } => write!(f, "'{trigger}' is not a trigger ({known})"),
            Reason::TriggerTwice => write!(f, "names a trigger twice"),
            Reason::OverWithTriggers => write!(f, "the game is over exactly when there are triggers (R10)"),
            Reason::NothingPending { stage } => {
                write!(f, "stage {stage} waits for a skill's decision, but no effect is pending")
            }
            Reason::PendingOutsideEffects { stage } => {
                write!(f, "stage {stage} has no effects pending; they resolve before it")
            }
            Reason::HeadNeedsNoDecision => {
                write!(f, "the first pending effect needs no decision, so no state waits on it")
            }
            Reason::NoDecision { stage } => write!(f, "the rules offer no decision in stage {stage} here"),
            Reason::ClosedNoSlot { slot, slots } => {
                write!(f, "closed crew slot {slot} is not in the crew area (slots 0..{})", *slots as i64 - 1)
            }
            Reason::ClosedWithWorker => {
                write!(f, "a crew with a worker on it cannot be closed (close_crew closes unpicked crews)")
            }
            Reason::OwnCard { id } => {
                write!(f, "crew '{id}' is the crew's own card: a crew applies another crew's skill (use_skill), never its own")
            }
            Reason::SetupStepSlot { slot } => write!(f, "a setup step is held by no crew (slot -1), not by crew slot {slot}"),
            Reason::SurveyedBeforeFirstCube => write!(f, "no Planet is surveyed before the survey's first cube"),
            Reason::TriggersOutOfOrder { known } => write!(f, "lists the triggers out of the ruleset's order ({known})"),
        }
    }
}

/// One reason the fields are not a state, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub at: At,
    pub reason: Reason,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.reason)
    }
}

/// How many states were checked against the rules (`Trust::Nobody`): a test counts that the
/// states the Python engine made cross without it.
static RULE_CHECKS: AtomicU64 = AtomicU64::new(0);

pub fn rule_checks() -> u64 {
    RULE_CHECKS.load(Ordering::Relaxed)
}

/// The most any count of a state the kernel stores may be, when the rules' bounds are not
/// checked (`Trust::Engine`): sums of them cannot overflow.
const REPRESENTABLE: i64 = 1 << 30;

const EFFECT_STAGES: [Stage; 4] = [Stage::BeforeSurvey, Stage::AfterSurvey, Stage::RoundEnd, Stage::Setup];

struct Checker<'a> {
    game: &'a Game,
    f: &'a StateFields,
    rules_too: bool,
    problems: Vec<Problem>,
    stage: Option<Stage>,
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

    fn table(&mut self) -> bool {
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

    fn board(&mut self) {
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

    fn crew_area(&mut self) {
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

    fn supplies(&mut self) {
        let (f, b) = (self.f, self.game.rules.bounds);
        for seat in 0..f.hands.len() {
            self.bound(At::Hand(seat), f.hands[seat], 0, b.most_hand);
            self.bound(At::Vp(seat), f.vp[seat], 0, b.most_vp);
            self.bound(At::Removed(seat), f.removed[seat], 0, b.most_hand);
            // Free cubes taken as the seat's own (idea R8): none where the ruleset takes none.
            self.bound(At::Taken(seat), f.taken[seat], 0, b.most_hand - self.game.rules.cubes_per_player as i64);
        }
        self.bound(At::Stock, f.stock, 0, b.most_stock);
        self.bound(At::Round, f.round, 1, b.most_round);
    }

    fn conservation(&mut self) {
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
        let each = rules.cubes_per_player as i64;
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
        if total != rules.free_cubes as i64 {
            let game = rules.free_cubes as i64;
            self.problem(At::Stock, Reason::FreeCubes { total, stock: f.stock, tracks: on_tracks, crew: on_crew, taken, game });
        }
    }

    /// The pending effects as the kernel's nodes, the next one first; None for a problem.
    fn pending(&mut self) -> Vec<Option<u16>> {
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

    fn survey(&mut self) {
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
        if f.queue.len() > crate::state::MAX_QUEUE {
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
    fn lasting(&mut self) {
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

    fn stage(&mut self) {
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

impl Game {
    /// The state `fields` describe, its legal actions derived by the rules; every problem,
    /// located, when they are not a state of this ruleset. `Trust::Engine` skips the rules'
    /// checks (the Python engine made the state), never the shape the kernel's arrays need.
    pub fn state_from_fields(&self, fields: &StateFields, trust: Trust) -> Result<State, Vec<Problem>> {
        let rules_too = trust == Trust::Nobody;
        if rules_too {
            RULE_CHECKS.fetch_add(1, Ordering::Relaxed);
        }
        let mut c = Checker { game: self, f: fields, rules_too, problems: Vec::new(), stage: Stage::parse(&fields.stage) };
        if !c.table() {
            return Err(c.problems);
        }
        c.board();
        c.crew_area();
        c.supplies();
        if c.problems.is_empty() && rules_too {
            c.conservation();
        }
        let nodes = c.pending();
        c.survey();
        c.lasting();
        c.stage();
        if !c.problems.is_empty() {
            return Err(c.problems);
        }
        let state = self.assemble(fields, &nodes);
        match self.derive_legal(&state) {
            Some(legal) => Ok(State { legal: legal.into_iter().collect(), ..state }),
            None if state.stage == Stage::Over => Ok(state),
            None => {
                let problem = if EFFECT_STAGES.contains(&state.stage) {
                    Problem { at: At::PendingHead, reason: Reason::HeadNeedsNoDecision }
                } else {
                    Problem { at: At::Stage, reason: Reason::NoDecision { stage: state.stage.name() } }
                };
                Err(vec![problem])
            }
        }
    }

    /// The kernel state of fields that passed the checks: every value is in range here.
    fn assemble(&self, f: &StateFields, nodes: &[Option<u16>]) -> State {
        let planets: Vec<u16> = f.planets.iter().map(|&c| c as u16).collect();
        let crew: Vec<u16> = f.crew.iter().map(|&c| c as u16).collect();
        let mut s = self.empty_state(f.players as usize, &planets, &crew).expect("a checked table fits the kernel");
        for p in 0..planets.len() {
            for (i, &owner) in f.tracks[p].iter().enumerate() {
                s.board[s.track_start[p] as usize + i] = owner as i8;
            }
            for (i, &owner) in f.specials[p].iter().enumerate() {
                s.board[s.special_start[p] as usize + i] = owner as i8;
            }
            s.track_fill[p] = f.tracks[p].len() as u16;
            s.special_fill[p] = f.specials[p].len() as u16;
        }
        for slot in 0..crew.len() {
            s.crew_free[slot] = f.crew_free[slot] as i32;
            for &owner in &f.crew_cubes[slot] {
                s.crew_cubes[slot][owner as usize] = s.crew_cubes[slot][owner as usize].saturating_add(1);
            }
            s.workers[slot] = f.workers[slot] as i8;
        }
        for seat in 0..f.players as usize {
            s.hands[seat] = f.hands[seat] as i32;
            s.vp[seat] = f.vp[seat] as i32;
            s.removed[seat] = f.removed[seat] as i32;
            s.taken[seat] = f.taken[seat] as i32;
        }
        s.stock = f.stock as i32;
        s.round = f.round as u32;
        s.start_player = f.start_player as u8;
        s.turn = f.turn as u8;
        s.stage = Stage::parse(&f.stage).expect("a checked stage");
        for &slot in &f.chosen {
            s.chosen[s.chosen_len as usize] = slot as u8;
            s.chosen_len += 1;
        }
        // The kernel's stack resolves its last element first.
        let mut pending = PendingStack::new();
        for ((slot, _, remaining, seat, _), node) in f.pending.iter().zip(nodes).rev() {
            let node = node.expect("a checked pending effect");
            let slot = if *slot < 0 { NO_SLOT } else { *slot as u8 }; // a setup step has none
            pending.push(Pending { node, slot, seat: *seat as u8, remaining: *remaining as u32 });
        }
        s.pending = pending;
        s.survey_rules = f.survey_rules as u8;
        s.survey_bonus = f.survey_bonus as i32;
        s.survey_placed = f.survey_placed as i32;
        s.survey_last = f.survey_last as i32;
        s.survey_direction = f.survey_direction as i8;
        s.survey_skips = f.survey_skips as i32;
        for &p in &f.surveyed {
            s.surveyed |= 1 << p;
        }
        for trigger in &f.triggers {
            if let Some(flag) = self.rules.end.flag(trigger) {
                s.triggers |= flag;
            }
        }
        for &slot in &f.closed {
            s.closed |= 1 << slot;
        }
        for (seat, &until) in f.protected.iter().enumerate() {
            s.protected[seat] = until as u8;
        }
        for (slot, &card) in f.borrowed.iter().enumerate() {
            s.borrowed[slot] = card as i16;
        }
        for (k, &card) in f.queue.iter().enumerate().take(crate::state::MAX_QUEUE) {
            s.queue[k] = card as u16;
        }
        s.queue_len = f.queue.len().min(crate::state::MAX_QUEUE) as u8;
        self.recount(&mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::draft_like;
    use crate::rng::Rng;

    fn played(game: &Game, seed: u64, until: impl Fn(&State) -> bool) -> State {
        let mut rng = Rng::new(seed);
        let (planets, crew, start) = game.deal(4, &mut rng).unwrap();
        let mut s = game.new_state(4, &planets, &crew, start).unwrap();
        while !until(&s) && !s.legal.is_empty() {
            let act = s.legal[rng.below(s.legal.len())];
            game.step_unchecked(&mut s, act);
        }
        s
    }

    fn problems(game: &Game, fields: &StateFields) -> Vec<String> {
        match game.state_from_fields(fields, Trust::Nobody) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[test]
    fn every_state_of_a_random_game_reads_back_as_itself() {
        let game = draft_like();
        for seed in 0..40 {
            let mut rng = Rng::new(seed);
            let (planets, crew, start) = game.deal(4, &mut rng).unwrap();
            let mut s = game.new_state(4, &planets, &crew, start).unwrap();
            loop {
                let fields = StateFields::of(&game, &s);
                let read = game.state_from_fields(&fields, Trust::Nobody).unwrap();
                assert_eq!(StateFields::of(&game, &read), fields);
                assert_eq!(read.legal, s.legal);
                if s.legal.is_empty() {
                    break;
                }
                let act = s.legal[rng.below(s.legal.len())];
                game.step_unchecked(&mut s, act);
            }
        }
    }

    #[test]
    fn r13_a_hand_past_the_cubes_a_player_has_is_refused_at_its_seat() {
        let game = draft_like();
        let mut fields = StateFields::of(&game, &played(&game, 1, |_| false));
        fields.hands[2] = 32767;
        assert_eq!(problems(&game, &fields)[0], "$.seats[2].hand: 32767 is outside 0..12");
    }

    #[test]
    fn a_pending_effect_with_more_steps_than_its_count_is_refused() {
        let game = draft_like();
        let s = played(&game, 3, |s| !s.pending.is_empty());
        let mut fields = StateFields::of(&game, &s);
        fields.pending[0].2 = u32::MAX as i64;
        let found = problems(&game, &fields);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("$.pending[0].remaining: 4294967295 steps left of '"), "{found:?}");
    }

    #[test]
    fn r7_a_survey_bonus_past_every_skill_is_refused_but_trusted_states_skip_the_rules() {
        let game = draft_like();
        let s = played(&game, 5, |s| s.stage == Stage::Surveying);
        let mut fields = StateFields::of(&game, &s);
        let most = game.rules.bounds.most_survey_bonus;
        fields.survey_bonus = 1 << 20;
        assert_eq!(problems(&game, &fields), vec![format!("$.survey.bonus: 1048576 is outside 0..{most}")]);
        assert!(game.state_from_fields(&fields, Trust::Engine).is_ok(), "a trusted state skips the rules");
        fields.survey_bonus = 1 << 40;
        assert!(game.state_from_fields(&fields, Trust::Engine).is_err(), "past what the kernel stores");
    }
}
