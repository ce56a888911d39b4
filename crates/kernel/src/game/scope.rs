//! Where an effect of the language resolves (`Scope`) and how a set's bit set lists its
//! members: the context every evaluation of `expr_eval` reads.

use crate::expr::{SetKind};
use crate::state::NO_SLOT;

/// Where an effect of the language resolves: the chooser (`me`), the crew slot whose skill
/// resolves, and the Planet, seat and crew bound by the innermost `for_each`, `choose` or
/// filter (-1 when none): the Python engine's `Scope`.
///
/// A planet ability's scope has no crew (`NO_CREW`) and, where nobody is "you", `me` is
/// `NOBODY`: `me` is then the empty set, and seats are listed from `first`, the start player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scope {
    pub me: usize,
    /// The seat a set of seats is listed from in turn order: `me`, or the start player.
    pub first: usize,
    pub crew: usize,
    pub planet: i32,
    pub seat: i32,
    pub bound_crew: i32,
}

/// "You" when nobody is (a free cube's owner, an event of the whole table).
pub const NOBODY: usize = usize::MAX;
/// The crew slot of a planet ability's scope: none. A pending setup step's slot (`NO_SLOT`), so
/// that a pending effect's slot is its scope's crew as it stands.
pub const NO_CREW: usize = NO_SLOT as usize;

/// The bit of `member` in a set, none for `NOBODY` / `NO_CREW`.
pub(super) fn bit(member: usize) -> u16 {
    if member < 16 {
        1 << member
    } else {
        0
    }
}

impl Scope {
    pub fn new(me: usize, crew: usize) -> Scope {
        Scope { me, first: me, crew, planet: -1, seat: -1, bound_crew: -1 }
    }

    /// A planet ability's scope on Planet `p`: "you" is `me` (or `NOBODY`), no crew.
    pub fn ability(me: usize, start_player: usize, p: usize) -> Scope {
        let first = if me == NOBODY { start_player } else { me };
        Scope { me, first, crew: NO_CREW, planet: p as i32, seat: -1, bound_crew: -1 }
    }

    /// The scope of an event of the whole table (a round's end, R11): nobody is "you", no crew
    /// of its own, no Planet; seats are listed from the start player.
    pub fn table(start_player: usize) -> Scope {
        Scope { me: NOBODY, first: start_player, crew: NO_CREW, planet: -1, seat: -1, bound_crew: -1 }
    }

    pub fn bind(self, kind: SetKind, member: usize) -> Scope {
        match kind {
            SetKind::Planets => Scope { planet: member as i32, ..self },
            SetKind::Seats => Scope { seat: member as i32, ..self },
            SetKind::Crews => Scope { bound_crew: member as i32, ..self },
        }
    }

    pub(super) fn this_crew(&self) -> usize {
        if self.bound_crew >= 0 {
            self.bound_crew as usize
        } else {
            self.crew
        }
    }
}

/// The members of a bit set in the set kind's order: ascending for Planets and crews, turn
/// order from `me` for seats.
///
/// It walks the set bits only (lowest first): for seats, of the mask rotated so that bit `k`
/// is seat `(me + k) % players`, which lists them in turn order from `me` (`players` <= 16).
pub fn members(mask: u16, kind: SetKind, me: usize, players: usize) -> Members {
    if kind != SetKind::Seats {
        return Members { left: mask as u32, me: 0, players: 32 };
    }
    let mask = mask as u32 & ((1u32 << players) - 1);
    let rotated = ((mask >> me) | (mask << (players - me))) & ((1u32 << players) - 1);
    Members { left: rotated, me, players }
}

/// The iterator `members` gives: the bits left to list and how a bit becomes a member.
#[derive(Clone)]
pub struct Members {
    left: u32,
    me: usize,
    players: usize,
}

impl Iterator for Members {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        let k = self.left.trailing_zeros() as usize;
        self.left &= self.left - 1;
        let member = self.me + k;
        Some(if member >= self.players { member - self.players } else { member })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.left.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_listed_in_turn_order_from_the_chooser() {
        let order: Vec<usize> = members(0b1011, SetKind::Seats, 2, 4).collect();
        assert_eq!(order, vec![3, 0, 1]);
        let order: Vec<usize> = members(0b1011, SetKind::Planets, 2, 4).collect();
        assert_eq!(order, vec![0, 1, 3]);
    }
}
