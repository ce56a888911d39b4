//! The action index's block sizes as Python derived them (`ActionSizes`): part of the compiled
//! ruleset, below the state; the index laid out from them is `action_index`.

use crate::contract::Kind;
use crate::error::{KernelError};
use crate::limits::{MAX_PLAYERS, MAX_PLANETS, MAX_CREW, MAX_NODES};

/// The numbers the blocks are made of, as Python derived them (`ActionSizes`, same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionSizes {
    pub planets: u32,
    pub crews: u32,
    pub seats: u32,
    /// Cubes one survey places (R7).
    pub survey_counts: u32,
    /// 2 when a skill may choose the direction, else 1.
    pub directions: u32,
    /// The most options of a `choose_one`.
    pub options: u32,
    /// Seats a `choose` may ask for: the most seats, or 0 when no `choose` asks for one.
    pub seat_targets: u32,
}

impl ActionSizes {
    /// The sizes as received, when each fits what an `Action` holds and the index's ids fit
    /// 32 bits; nothing else is checked (the numbers are Python's).
    pub(crate) fn checked(self) -> Result<ActionSizes, KernelError> {
        let s = self;
        let fits = s.planets as usize <= MAX_PLANETS
            && s.crews as usize <= MAX_CREW
            && s.seats as usize <= MAX_PLAYERS
            && s.seat_targets as usize <= MAX_PLAYERS
            && (1..=2).contains(&s.directions)
            && s.options as usize <= MAX_NODES
            && s.survey_counts <= i16::MAX as u32;
        if !fits {
            return Err(KernelError::Unsupported(format!(
                "action sizes {s:?} are beyond the kernel's limits ({MAX_PLANETS} Planets, {MAX_CREW} crew, {MAX_PLAYERS} seats, 1 or 2 directions, {MAX_NODES} options, {} cubes a survey)",
                i16::MAX
            )));
        }
        Ok(s)
    }
}

/// The action index's layout as Python derived it (`ActionLayout`, same names): each block's
/// offset and size in `Kind` order, the index's size, and the whole-walk survey's strides (its
/// id within the block is `1 + d * direction_stride + start * start_stride + count - 1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionLayout {
    pub offsets: [u32; Kind::ALL.len()],
    pub sizes: [u32; Kind::ALL.len()],
    pub size: u32,
    pub direction_stride: u32,
    pub start_stride: u32,
}

impl ActionLayout {
    /// The layout as received, when its blocks tile `0..size` in order; the numbers are
    /// Python's, so nothing else is checked.
    pub(crate) fn checked(self) -> Result<ActionLayout, KernelError> {
        let mut next = 0u64;
        for (offset, size) in self.offsets.iter().zip(self.sizes) {
            if *offset as u64 != next {
                return Err(KernelError::Unsupported(format!("action layout {self:?}: its blocks do not tile the index")));
            }
            next += size as u64;
        }
        if next != self.size as u64 {
            return Err(KernelError::Unsupported(format!("action layout {self:?}: its blocks do not tile the index")));
        }
        Ok(self)
    }
}
