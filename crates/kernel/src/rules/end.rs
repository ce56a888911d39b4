//! What happens at a round's end and when the game ends (R10, R11): the crews nobody picked, the
//! end conditions and the score sheet's lines of their own, as received.

use crate::expr::{SetKind, Set, Amount, Comparison, Condition};

/// The most end conditions and scoring lines a ruleset holds: declared in the contract.
pub use crate::contract::{MOST_END_TRIGGERS, MOST_SCORING_LINES};

/// What each crew nobody picked receives at a round's end when the game goes on (R11; rules.yaml
/// `round_end.unpicked_crews`): `free_cubes`, an amount read with `this_crew` bound to the crew
/// and nobody as "you"; at least 0, at most what the stock holds and what
/// `max_free_cubes_per_crew` (Python's cap, or every free cube when there is none) leaves.
/// `replaced` (`at_cap: replaced`): such a crew holding the cap's number once every crew has
/// received leaves the crew area, and the first card of the state's queue takes its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpickedCrews {
    pub free_cubes: Amount,
    pub replaced: bool,
}

impl Default for UnpickedCrews {
    /// Draft 7's one free cube, for the specs the kernel's own tests write (the bindings always send it).
    fn default() -> Self {
        UnpickedCrews { free_cubes: Amount::Number(1), replaced: false }
    }
}

/// The game's end (R10; rules.yaml `end`): each condition, in file order, with the id the log
/// and the state name it by; read at the end of each round with nobody as "you". The round
/// limit (`max_rounds`) comes after them as `round_limit`. A state's `triggers` holds bit i for
/// the i-th condition and bit `triggers.len()` for the round limit, so at most 7 conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub triggers: Vec<EndTrigger>,
}

/// One condition of the game's end and its trigger id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndTrigger {
    pub id: String,
    pub condition: Condition,
}

/// One line of its own on the score sheet (rules.yaml `end_scoring`; docs/rules.md,
/// "End-of-game scoring lines"): its id and its VP, an amount read for each seat with
/// this_seat bound to it and nobody as "you", from the position as it stands (below 0 when the
/// amount is), added to R18's total and never to the VP of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringLine {
    pub id: String,
    pub vp: Amount,
}


/// The round limit's trigger id, after the ruleset's end conditions (docs/rules.md, "Round limit").
pub const ROUND_LIMIT_NAME: &str = "round_limit";

impl Default for End {
    /// Draft 7's two (a rules.yaml without `end`), for the specs the kernel's own tests write
    /// (the bindings always send it): a player has no cubes left; the full Planets reach the
    /// player count's `full_planets_to_end`.
    fn default() -> Self {
        let hand_empty = Condition::Compare(Comparison::Equal, Amount::Hand(Set::ThisSeat), Amount::Number(0));
        let empty_hands = Set::Where(SetKind::Seats, Box::new(hand_empty), Box::new(Set::Everyone));
        End {
            triggers: vec![
                EndTrigger {
                    id: "hand_empty".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(empty_hands), Amount::Number(1)),
                },
                EndTrigger {
                    id: "planets_full".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(Set::FullPlanets), Amount::FullPlanetsToEnd),
                },
            ],
        }
    }
}

impl End {
    /// The round limit's bit in a state's `triggers`.
    pub fn round_limit(&self) -> u8 {
        1 << self.triggers.len()
    }

    /// Every trigger's bit and id, in the order the log names them: the conditions, then the round limit.
    pub fn names(&self) -> impl Iterator<Item = (u8, &str)> {
        self.triggers.iter().enumerate().map(|(i, t)| (1u8 << i, t.id.as_str())).chain(std::iter::once((self.round_limit(), ROUND_LIMIT_NAME)))
    }

    /// The bit of a trigger id, None when the ruleset has no such trigger.
    pub fn flag(&self, id: &str) -> Option<u8> {
        self.names().find(|(_, name)| *name == id).map(|(flag, _)| flag)
    }

    /// The ids of the bits set in `triggers`, in their order.
    pub fn named(&self, triggers: u8) -> Vec<&str> {
        self.names().filter(|(flag, _)| triggers & flag != 0).map(|(_, name)| name).collect()
    }
}
