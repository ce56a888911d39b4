//! The checker of what a state may hold: a state from outside is built only through
//! `state_from_fields`, which returns every reason the fields are not a state of the
//! ruleset (in the manner of shakmaty's `FromSetup` and `PositionError`).
//!
//! The checks, their order and their words are those of the Python checker
//! (`stargazer_rules.engine.state_checks`), held to it by tests/test_state_checks.py: each
//! `Problem` is located at the path of the value in the state's JSON form (`$.seats[2].hand`).
//! Two layers: the *shape* (card indices, lengths, owners, slots: what the kernel's arrays
//! need) is always checked; the *rules* (the ruleset's bounds, cube conservation, turn
//! consistency) are skipped for a state the Python engine made (`Trust::Engine`).

mod assemble;
mod checker;

pub use assemble::state_from_fields;

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::game::Game;
use crate::state::{pending_card, pending_slot, Stage, State};

/// A state as plain numbers (declared in the contract, read and written by the bindings by name).
pub use crate::contract::StateFields;

impl StateFields {
    /// The fields of a kernel state (the inverse of `state_from_fields`).
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
            Reason::QueueTooLong { listed } => write!(f, "a queue of {listed} crew is beyond the kernel's limit of {}", crate::limits::MAX_QUEUE),
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
