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

pub mod action_index;
pub mod batch;
pub mod bots;
pub mod check;
pub mod contract;
pub mod error;
pub mod expr;
pub mod fixtures;
pub mod game;
pub mod limits;
pub mod observation;
pub mod python_deal;
pub mod python_random;
pub mod rng;
pub mod rules;
pub mod state;

pub use check::{Problem, StateFields, Trust};
pub use error::KernelError;
pub use game::Game;
pub use limits::{MAX_BOARD, MAX_COLOURS, MAX_CREW, MAX_NODES, MAX_PLANETS, MAX_PLAYERS};
pub use rules::{
    Bounds, Crew, EffectSpec, EffectType, Node, Op, ParamValue, Planet, PlayerCount, Rules, SpecialTarget, Steps, Timing,
    TriggerSpec,
    EFFECT_NAMES, EFFECT_TYPES,
};
pub use state::{Action, Kind, Pending, Stage, State};
