//! Stargazer's rules as a native kernel: a ruleset compiled to flat tables and effect
//! operations, a mutable game on plain structs, and the bots' search running inside it.
//!
//! The Python engine (`stargazer_rules.engine`) is the public API and the oracle: every rule
//! here mirrors a rule there (the rulings R1-R20 are cited where they apply), and a
//! differential test plays both in lockstep. This crate knows nothing of Python; the
//! bindings crate converts values and raises.
#![forbid(unsafe_code)]
// Flat tables indexed by seat, ring position and crew slot read best as indexed loops.
#![allow(clippy::needless_range_loop)]

mod abilities;
pub mod action_index;
pub mod batch;
pub mod bots;
pub mod check;
pub mod error;
pub mod expr;
pub mod fixtures;
pub mod game;
pub mod observation;
pub mod python_deal;
pub mod python_random;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod state;
mod survey;

pub use check::{Problem, StateFields, Trust};
pub use error::KernelError;
pub use game::Game;
pub use rules::{
    Bounds, Crew, EffectSpec, EffectType, Node, Op, ParamValue, Planet, PlayerCount, Rules, SpecialTarget, Steps, Timing,
    TriggerSpec,
    EFFECT_NAMES, EFFECT_TYPES,
};
pub use state::{Action, Kind, Pending, Stage, State};

/// The most seats, Planets in the ring and crew in the crew area a kernel game holds.
/// A ruleset whose setups exceed them runs on the Python engine instead (never a wrong answer).
pub const MAX_PLAYERS: usize = 8;
pub const MAX_PLANETS: usize = 16;
pub const MAX_CREW: usize = 16;
/// The most planet colours (R17 counts cubes per colour).
pub const MAX_COLOURS: usize = 32;
/// The most squares on all dealt Planets together (normal and special), and effect nodes.
pub const MAX_BOARD: usize = 4096;
pub const MAX_NODES: usize = 4096;
