//! What a state of the ruleset may hold, as Python derived it (`Bounds`): the kernel keeps the
//! numbers as received and checks only that it can store them.

use super::{PlayerCount, unsupported};
use crate::error::{KernelError};
use crate::limits::{MAX_PLAYERS, MAX_PLANETS, MAX_CREW};

/// What a state of the ruleset may hold: every count's least and most, as Python derived them
/// (`stargazer_rules.engine.bounds.StateBounds`, by the same names) and sent them in the
/// compiled ruleset; the kernel derives none of them. The state checker (`check`), the
/// observation layout and the greedy bot read them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    pub most_players: usize,
    pub most_planets: usize,
    pub most_crew: usize,
    /// Cubes in one hand, and own cubes removed (R6, R13).
    pub most_hand: i64,
    /// Free cubes in the stock (R13).
    pub most_stock: i64,
    /// Free cubes on one crew (R11).
    pub most_free_on_crew: i64,
    /// VP one seat holds: the most it starts with (`turn_order_vp`), every round's best
    /// motivation bonus and skill VP, and the planet abilities' and crew triggers' VP (`ability_vp`).
    pub most_vp: i64,
    /// The most VP one seat scores from planet abilities and crew triggers in a game (Python's number).
    pub ability_vp: i64,
    /// The most the major-planet bonus gives one seat (R17, Python's number).
    pub most_bonus_vp: i64,
    /// The least and most all the lines of `end_scoring` give one seat together (Python's numbers).
    pub least_line_vp: i64,
    pub most_line_vp: i64,
    pub most_round: i64,
    /// This turn's change of the survey count: the most any crew's skill takes away or adds.
    pub least_survey_bonus: i64,
    pub most_survey_bonus: i64,
    /// Cubes one survey places (R7).
    pub most_survey_placed: i64,
    /// Planets a survey may still pass over under a skip limit (Python's `effects.most_skips`).
    pub most_survey_skips: i64,
    /// Steps left of any pending effect (each effect's own `steps` bounds it more tightly).
    pub most_steps: i64,
    /// Effects pending at once: each effect of the ruleset at most once.
    pub most_pending: usize,
    /// Decisions one seat takes in a row (a pick, each step of each effect, each cube of a
    /// survey and its stop): the greedy bot's lookahead never plays more.
    pub most_turn_decisions: u64,
}

/// The largest VP bound the kernel plays: past it sums of VP could overflow its counters, and
/// the ruleset runs on the Python engine.
pub const MOST_VP: i64 = 1 << 30;

impl Bounds {
    /// The bounds as received, when each fits what the kernel holds: its tables (seats, Planets
    /// and crew slots up to `MAX_PLAYERS`, `MAX_PLANETS`, `MAX_CREW`, and every setup within the
    /// largest table, which the observation and the batch are laid out by) and its counters
    /// (VP and survey counts in 32 bits, `MOST_VP`). Nothing else is checked: the numbers are Python's.
    pub(super) fn checked(self, setups: &[PlayerCount], always: usize) -> Result<Bounds, KernelError> {
        let b = self;
        if b.most_players > MAX_PLAYERS || b.most_planets > MAX_PLANETS || b.most_crew > MAX_CREW {
            return Err(unsupported(format!(
                "{} players with {} Planets and {} crew are beyond the kernel's limits ({MAX_PLAYERS} players, {MAX_PLANETS} Planets, {MAX_CREW} crew)",
                b.most_players, b.most_planets, b.most_crew
            )));
        }
        if let Some(s) = setups.iter().find(|s| s.players > b.most_players || s.planets > b.most_planets || s.crew + always > b.most_crew) {
            return Err(unsupported(format!(
                "bounds: the setup of {} players does not fit the largest table received ({} players, {} Planets, {} crew)",
                s.players, b.most_players, b.most_planets, b.most_crew
            )));
        }
        if !(0..=MOST_VP).contains(&b.most_vp) {
            return Err(unsupported(format!("a seat may score {} VP in play, beyond the kernel's limit of {MOST_VP}", b.most_vp)));
        }
        if !(0..=MOST_VP).contains(&b.most_bonus_vp) {
            return Err(unsupported(format!("the major-planet bonus may give {} VP, beyond the kernel's limit of {MOST_VP}", b.most_bonus_vp)));
        }
        if b.least_line_vp < -MOST_VP || b.most_line_vp > MOST_VP {
            return Err(unsupported(format!(
                "the lines of end_scoring may give {}..{} VP, beyond the kernel's limit of {MOST_VP}",
                b.least_line_vp, b.most_line_vp
            )));
        }
        if b.least_survey_bonus < -MOST_VP || b.most_survey_bonus > MOST_VP {
            return Err(unsupported(format!(
                "a turn's survey count may change by {}..{}, beyond the kernel's limit of {MOST_VP}",
                b.least_survey_bonus, b.most_survey_bonus
            )));
        }
        let counts = [
            ("most_hand", b.most_hand),
            ("most_stock", b.most_stock),
            ("most_free_on_crew", b.most_free_on_crew),
            ("most_round", b.most_round),
            ("most_survey_placed", b.most_survey_placed),
            ("most_steps", b.most_steps),
        ];
        if let Some((name, value)) = counts.iter().find(|(_, value)| !(0..=MOST_VP).contains(value)) {
            return Err(unsupported(format!("bounds: {name} = {value} is beyond the kernel's limits (0..{MOST_VP})")));
        }
        Ok(b)
    }
}
