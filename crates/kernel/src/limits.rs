//! The kernel's fixed limits, at the bottom of the crate: every array of the state and the
//! compiled rules is sized by them, and a ruleset past them runs on the Python engine (never a
//! wrong answer). Declared in the contract (`stargazer_rules/contract/limits.py`), generated
//! into `contract.rs`.

pub use crate::contract::{MAX_BOARD, MAX_COLOURS, MAX_CREW, MAX_NODES, MAX_PLANETS, MAX_PLAYERS, MAX_QUEUE};
