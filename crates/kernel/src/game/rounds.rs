//! The flow between turns: advancing past effects that ask nothing, a turn's and a round's end
//! (R10-R12: the end check, the crews nobody picked, the round's effects) and the next round.

use super::{walks, Game};
use super::scope::Scope;
use crate::expr;
use crate::expr::{Comparison, SetKind, PROTECTED_TURN};
use crate::rules::{compare, EndAmount, EndCheck, Event};
use crate::state::{empty, Stage, Pending, NO_WORKER, State};
use crate::limits::{MAX_PLAYERS, MAX_CREW};

impl Game {
    /// Play every step that asks no decision, up to the next decision or the game's end:
    /// inlined into `step_unchecked`, the search's hot path.
    #[inline(always)]
    pub(super) fn advance(&self, s: &mut State) {
        loop {
            match s.stage {
                Stage::BeforeSurvey | Stage::AfterSurvey | Stage::RoundEnd | Stage::Setup => {
                    if self.resolve_pending(s) {
                        return;
                    }
                    match s.stage {
                        Stage::BeforeSurvey => s.stage = Stage::Surveying,
                        Stage::AfterSurvey => self.end_turn(s),
                        Stage::Setup => s.stage = Stage::PickCrew, // the first round starts (R4)
                        _ => self.start_round(s),
                    }
                }
                Stage::Surveying => {
                    if self.survey_options(s) {
                        return;
                    }
                    self.finish_survey(s); // a cube-by-cube survey that can place no more
                }
                Stage::PickCrew => {
                    self.pick_options(s);
                    return;
                }
                Stage::Over => {
                    empty(&mut s.legal);
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn end_turn(&self, s: &mut State) {
        s.turn += 1;
        if s.protected != [0; MAX_PLAYERS] {
            for until in &mut s.protected {
                if *until == PROTECTED_TURN {
                    *until = 0; // protect_cubes until the turn ends
                }
            }
        }
        if (s.turn as usize) < s.players as usize {
            s.stage = Stage::PickCrew;
        } else {
            self.end_round(s);
        }
    }

    /// Every round's end: the Planets' and the held crews' `round_end` triggers and rules.yaml's
    /// `round_end.effects`; then the R10 end check (the ruleset's `end` conditions in their
    /// order, read with nobody as "you", then the round limit); if the game goes on, R11 free
    /// cubes and the skills' round-end effects (R12).
    fn end_round(&self, s: &mut State) {
        if self.rules.any_round_end {
            self.table_event(s, Event::RoundEnd); // every round's end, before the end check (R10)
        }
        if self.rules.any_crew_round_end {
            self.crew_table_event(s, Event::RoundEnd); // the held crews' after the Planets', before the end check
        }
        if !self.rules.round_end_effects.is_empty() {
            self.round_end_effects(s); // rules.yaml's round_end.effects (idea R7), after the crews'
        }
        let rules = &self.rules;
        let mut triggers = self.end_conditions_met(s);
        if s.round >= rules.knobs.max_rounds {
            triggers |= rules.end.round_limit();
        }
        if triggers != 0 {
            s.triggers = triggers;
            s.stage = Stage::Over;
            empty(&mut s.pending);
            if rules.any_game_end {
                self.table_event(s, Event::GameEnd); // before the winner is decided (R18)
            }
            if rules.any_crew_game_end {
                self.crew_table_event(s, Event::GameEnd); // the last round's crews, still held, after the Planets'
            }
            return;
        }
        self.unpicked_crews_receive(s);
        if rules.unpicked_crews.replaced {
            self.replace_crews_at_cap(s);
        }
        empty(&mut s.pending);
        for i in (0..s.chosen_len as usize).rev() {
            let slot = s.chosen[i] as usize;
            let seat = s.workers[slot] as u8;
            // The round-end effects of a skill applied with use_skill resolve after the crew's own.
            if s.borrowed[slot] >= 0 {
                for &node in rules.crew[s.borrowed[slot] as usize].round_end.iter().rev() {
                    s.pending.push(Pending { node, slot: slot as u8, seat, remaining: rules.nodes[node as usize].steps });
                }
            }
            let card = &rules.crew[s.crew[slot] as usize];
            for &node in card.round_end.iter().rev() {
                s.pending.push(Pending { node, slot: slot as u8, seat, remaining: rules.nodes[node as usize].steps });
            }
        }
        s.stage = Stage::RoundEnd;
    }

    /// The ruleset's end conditions that hold now (R10), bit i for the i-th (a state's
    /// `triggers`), each read with nobody as "you" by its recognised form where it has one.
    #[inline(always)]
    pub fn end_conditions_met(&self, s: &State) -> u8 {
        let nobody = Scope::table(s.start_player as usize);
        let mut met = 0;
        for (i, check) in self.rules.end_checks.iter().enumerate() {
            if self.end_met(s, &nobody, check) {
                met |= 1 << i;
            }
        }
        met
    }

    #[inline(always)]
    fn end_met(&self, s: &State, nobody: &Scope, check: &EndCheck) -> bool {
        match check {
            EndCheck::SomeHand(op, k) => {
                let hands = &s.hands[..s.players as usize];
                let k = *k;
                // The comparison read once, not once a seat.
                match op {
                    Comparison::Equal => hands.iter().any(|&hand| hand as i64 == k),
                    Comparison::AtMost => hands.iter().any(|&hand| hand as i64 <= k),
                    Comparison::LessThan => hands.iter().any(|&hand| (hand as i64) < k),
                    Comparison::AtLeast => hands.iter().any(|&hand| hand as i64 >= k),
                    Comparison::MoreThan => hands.iter().any(|&hand| hand as i64 > k),
                    Comparison::NotEqual => hands.iter().any(|&hand| hand as i64 != k),
                }
            }
            EndCheck::FullPlanets(op, b) => {
                let full = s.planet_count as i64 - s.open.count_ones() as i64;
                compare(*op, full, self.end_amount(s, nobody, b))
            }
            EndCheck::Compare(op, a, b) => compare(*op, self.end_amount(s, nobody, a), self.end_amount(s, nobody, b)),
            EndCheck::Evaluated(condition) => self.holds(s, nobody, condition),
        }
    }

    #[inline(always)]
    fn end_amount(&self, s: &State, nobody: &Scope, amount: &EndAmount) -> i64 {
        let players = s.players as usize;
        match amount {
            EndAmount::Number(n) => *n,
            EndAmount::FullPlanetsToEnd(by_players) => by_players[players],
            EndAmount::FullPlanets => s.planet_count as i64 - s.open.count_ones() as i64,
            EndAmount::PlanetsWithRoom => s.open.count_ones() as i64,
            EndAmount::SeatsWithHand(op, k) => s.hands[..players].iter().filter(|&&hand| compare(*op, hand as i64, *k)).count() as i64,
            EndAmount::Stock => s.stock as i64,
            EndAmount::Round => s.round as i64,
            EndAmount::Players => players as i64,
            EndAmount::Evaluated(amount) => self.amount(s, nobody, amount),
        }
    }

    /// R11: each crew with no worker receives its free cubes, in crew-area order: the amount of
    /// `round_end.unpicked_crews.free_cubes` (read with this_crew bound to the crew and nobody as
    /// "you", just before the crew receives), at least 0, at most what the stock holds and what
    /// the cap leaves.
    fn unpicked_crews_receive(&self, s: &mut State) {
        let rules = &self.rules;
        let nobody = Scope::table(s.start_player as usize);
        let unpicked = s.free_crew & (((1u32 << s.crew_count) - 1) as u16);
        for slot in walks::positions(unpicked) {
            let wanted = match &rules.unpicked_crews.free_cubes {
                expr::Amount::Number(n) => *n,
                amount => self.amount(s, &nobody.bind(SetKind::Crews, slot), amount),
            };
            let most = s.stock.min(rules.max_free_cubes_per_crew - s.crew_free[slot]);
            let given = wanted.min(most as i64).max(0) as i32;
            s.stock -= given;
            s.crew_free[slot] += given;
        }
    }

    /// R11, `at_cap: replaced`: once every crew nobody picked has received, each of them holding
    /// the cap's number of free cubes, in crew-area order, leaves the crew area: its free cubes
    /// back to the stock, the player cubes on it to their owners' hands, and the first card of
    /// the queue takes its slot, empty. A crew always in play stays; with the queue empty, all do.
    fn replace_crews_at_cap(&self, s: &mut State) {
        let rules = &self.rules;
        for slot in 0..s.crew_count as usize {
            if s.queue_len == 0 {
                return;
            }
            if s.workers[slot] != NO_WORKER
                || s.crew_free[slot] < rules.max_free_cubes_per_crew
                || rules.crew[s.crew[slot] as usize].always_in_play
            {
                continue;
            }
            s.stock += s.crew_free[slot];
            s.crew_free[slot] = 0;
            for seat in 0..s.players as usize {
                s.hands[seat] += s.crew_cubes[slot][seat] as i32;
                s.crew_cubes[slot][seat] = 0;
            }
            s.crew[slot] = s.queue[0];
            let len = s.queue_len as usize;
            s.queue.copy_within(1..len, 0);
            s.queue_len -= 1;
        }
    }

    fn start_round(&self, s: &mut State) {
        s.round += 1;
        s.turn = 0;
        s.chosen_len = 0;
        s.workers = [NO_WORKER; MAX_CREW];
        s.free_crew = ((1u32 << s.crew_count) - 1) as u16;
        // The lasting effects that last until the round ends end with it.
        s.closed = 0;
        s.protected = [0; MAX_PLAYERS];
        s.borrowed = [-1; MAX_CREW];
        s.stage = Stage::PickCrew;
    }

    // -- step 2: the survey (R7, R8) ----------------------------------------------------

}
