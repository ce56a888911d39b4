//! The kernel's fixed limits, at the bottom of the crate: every array of the state and the
//! compiled rules is sized by them, and a ruleset past them runs on the Python engine.

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

/// The most crew cards a state's queue holds (R11's replacement): a ruleset whose queue could
/// hold more is beyond the kernel's limits (`Rules::compile`).
pub const MAX_QUEUE: usize = 64;
