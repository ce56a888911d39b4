//! The compiled ruleset: every card and knob as flat tables, every skill as effect nodes.
//!
//! Compiled from the ruleset Python compiled (`stargazer_rules.kernel.compiled`, never from the
//! YAML): the bindings read each card and effect into the plain specs below, with the bounds and
//! action-index sizes Python derived, and `Rules::compile` checks them against the kernel's
//! vocabulary and limits, keeping those numbers as received (it derives none of them). An
//! effect type the kernel does not know is refused with `KernelError::Unsupported`, and the
//! ruleset then runs on the Python engine.
//!
//! Below the state and the game: nothing here plays; `effects` holds the vocabulary, `specs`
//! what the bindings send, `compile` the checks, the other modules the ruleset's sections.

mod action_sizes;
mod board_scoring;
mod bounds;
mod compile;
mod effects;
mod end;
mod specs;

pub use action_sizes::{ActionLayout, ActionSizes};
pub use board_scoring::*;
pub use bounds::*;
pub use effects::*;
pub use end::*;
pub use specs::*;
/// The numeric knobs, as received and as played: declared in the contract.
pub use crate::contract::{KnobSpecs, Knobs};

use std::collections::HashMap;

use crate::error::{KernelError};
use crate::expr::Act;

/// Survey-rule flags, as in the Python engine: a limit of R8 lifted, a forced
/// counter-clockwise walk, the skill's `survey_start` in force.
pub const REPEAT: u8 = 1;
pub const SKIP: u8 = 2;
pub const DIRECTION: u8 = 4;
pub const COUNTER: u8 = 8;
pub const START: u8 = 16;
pub const ALL_SURVEY_RULES: u8 = REPEAT | SKIP | DIRECTION | COUNTER | START;
/// The flags that make a survey cube by cube (Python's `STEP_RULES`).
pub const STEP_RULES: u8 = REPEAT | SKIP | COUNTER | START;
/// `State::survey_skips` without a limit.
pub const NO_SKIP_LIMIT: i32 = -1;

/// The most Planets a survey could pass over: each cube of a hand passing every other Planet
/// of a ring of `planets` (Python's `effects.most_skips`); a skip limit is kept within it.
pub fn most_skips(cubes_per_player: i64, planets: usize) -> i64 {
    cubes_per_player * (planets as i64 - 1).max(0)
}

/// An effect of a crew card's skill: its operation, timing, how many times it resolves
/// (`count` of the counted effects), and where it sits (card index and path in the skill,
/// the Python engine's `(card, path)` key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub op: Op,
    /// Its effect type's name (`EFFECT_NAMES`), for messages.
    pub name: &'static str,
    pub timing: Timing,
    pub steps: u32,
    /// The crew card whose skill holds it, or `SETUP_CARD` for a setup step.
    pub card: u16,
    pub path: Vec<u16>,
}

/// `Node::card` of a setup step (rules.yaml `setup.each_player`): no crew card holds it.
pub const SETUP_CARD: u16 = u16::MAX;

/// A planet card (R1, R3): VP its majority scores by row (the track's values times a lasting
/// `majority_factor`, P2), special-square capacity, colour index, the colours its cubes count
/// toward for R17 (a bit per colour index: its own, or those of a lasting `counts_toward`: every
/// one, P1, none, or the colours it names), whether a survey may not start on it (P5), and its triggers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planet {
    pub id: String,
    pub values: Vec<i32>,
    pub special_capacity: u32,
    pub colour: u16,
    pub counts_toward: u32,
    pub no_survey_start: bool,
    pub abilities: Abilities,
}

/// When a planet's or a crew's trigger resolves (`vocabulary.abilities.EVENTS`, `CREW_EVENTS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    CubePlaced,
    BecomesFull,
    RoundEnd,
    GameEnd,
    /// Another player picks a crew while this crew is held (crews only).
    AnotherPick,
}

impl Event {
    /// The event's bit in a card's set of events (`Crew::events`).
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The events a landing cube sets off, as `Event::bit`s.
pub const LANDING_EVENTS: u8 = Event::CubePlaced.bit() | Event::BecomesFull.bit();

/// A planet's or a crew's trigger: its event, the square a `cube_placed` waits for (-1 any
/// normal square, 0 the special square, n square n), the acts it performs at once, and the
/// crew cards whose pick sets off a crew's `another_pick` (empty: any crew).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trigger {
    pub event: Event,
    pub square: i32,
    pub body: Vec<Act>,
    pub crew: Vec<u16>,
}

impl Trigger {
    /// Whether a cube landing on `square` (0: the special square) sets it off.
    pub fn matches(&self, square: usize) -> bool {
        match self.square {
            -1 => square > 0,
            n => square as i32 == n,
        }
    }

    /// Whether another player's pick of the crew card `card` sets it off.
    pub fn picks(&self, card: u16) -> bool {
        self.crew.is_empty() || self.crew.contains(&card)
    }
}

/// A planet card's triggers, in card order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Abilities {
    pub triggers: Vec<Trigger>,
    /// Whether a cube landing on it can set one off.
    pub lands: bool,
}

impl Planet {
    pub fn length(&self) -> usize {
        self.values.len()
    }
}

/// A crew card: survey count (R7) and the top-level nodes of its skill by the stage that
/// queues them (`on_pick`: `survey` and `on_choose` effects, in skill order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crew {
    pub id: String,
    pub survey_count: i32,
    pub always_in_play: bool,
    pub on_pick: Vec<u16>,
    pub after_survey: Vec<u16>,
    pub round_end: Vec<u16>,
    /// Its skill's `survey_start` node (at most one, as the Python loader checks).
    pub survey_start: Option<u16>,
    /// Whether `use_skill` may apply its skill: not always in play, a skill, and no
    /// `use_skill` in it (a skill applied never applies a third: programs end).
    pub borrowable: bool,
    /// Its triggers, in card order: in force while a player holds it.
    pub triggers: Vec<Trigger>,
    /// The events it has triggers for (`Event::bit`), derived from `triggers`: an event none
    /// of them waits for costs a held crew one bit test.
    pub events: u8,
}

/// Setup counts of one player count (R14) and its end condition (R10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerCount {
    pub players: usize,
    pub planets: usize,
    pub crew: usize,
    pub full_planets_to_end: usize,
}

/// The compiled ruleset the game and the bots read; never changed after `compile`.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    pub colours: Vec<String>,
    pub planets: Vec<Planet>,
    pub crew: Vec<Crew>,
    pub nodes: Vec<Node>,
    pub setups: Vec<PlayerCount>,
    /// The numeric knobs as played (declared in the contract).
    pub knobs: Knobs,
    pub max_free_cubes_per_crew: i32,
    /// What a crew nobody picked receives at a round's end (R11), as received.
    pub unpicked_crews: UnpickedCrews,
    /// The effects performed at every round's end, after the held crews' `round_end` triggers
    /// and before the end check, nobody being "you" (rules.yaml `round_end.effects`, idea R7).
    pub round_end_effects: Vec<Act>,
    /// The conditions that end the game at a round's end (R10), as received.
    pub end: End,
    /// How each end condition is checked, in `end`'s order (`EndCheck::of`).
    pub end_checks: Vec<EndCheck>,
    /// The score sheet's lines of their own (rules.yaml `end_scoring`), as received.
    pub end_scoring: Vec<ScoringLine>,
    /// VP by turn position at setup (0: the start player), one per seat of the largest table.
    pub turn_order_vp: Vec<i32>,
    /// How a Planet's majority ranks and reads its rows (R15, R16), and whether it is R15/R16's
    /// (`Majority::default()`: scoring then takes its fast path).
    pub majority: Majority,
    pub majority_is_r15_r16: bool,
    /// The major-planet bonus (R17), and whether it is R17's (`Bonus::default()`: the state
    /// then keeps each seat's largest count and its colours as the board changes, the bots'
    /// fast path; any other bonus is scored from the board when asked).
    pub bonus: Bonus,
    pub bonus_is_r17: bool,
    /// Whether a set holds a cube of several colours once: `distinct_colour_sets` with a
    /// planet card counting toward several colours (scoring then lists those cubes apart).
    pub sets_of_several: bool,
    /// The top-level nodes of the setup steps (`setup.each_player`), in order.
    pub setup_steps: Vec<u16>,
    /// Whether any planet card has a trigger a landing cube sets off, one a round's end or the
    /// game's end sets off, or a Planet no survey may start on.
    pub any_lands: bool,
    pub any_round_end: bool,
    pub any_game_end: bool,
    /// Whether any crew card has an `another_pick`, a `round_end` or a `game_end` trigger.
    pub any_another_pick: bool,
    pub any_crew_round_end: bool,
    pub any_crew_game_end: bool,
    pub any_no_start: bool,
    /// The always-in-play crew, and the dealable ones, as card indices in file order.
    pub always: Vec<u16>,
    pub dealable: Vec<u16>,
    /// What a state may hold (`Bounds`) and the action index's blocks (`ActionSizes`), as
    /// Python derived them.
    pub bounds: Bounds,
    pub action_sizes: ActionSizes,
    /// The action index's blocks and strides, as received.
    pub action_layout: ActionLayout,
    node_index: HashMap<(u16, Vec<u16>), u16>,
}

/// A ruleset the kernel cannot run: it then runs on the Python engine.
fn unsupported(message: String) -> KernelError {
    KernelError::Unsupported(message)
}

fn small(value: i64, what: &str, limit: i64) -> Result<i32, KernelError> {
    if value < -limit || value > limit {
        return Err(unsupported(format!("{what} = {value} is beyond the kernel's limit of {limit}")));
    }
    Ok(value as i32)
}

const VALUE_LIMIT: i64 = 1 << 24;
