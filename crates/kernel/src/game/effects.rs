//! A crew pick and the effects of its skill: the options each pending effect asks for and the
//! step that resolves it (R5, R6 and docs/skills.md); a new effect type's behaviour goes here.

use super::{Game, crew_of, walks, scope};
use super::scope::Scope;
use crate::expr::{Act, SetKind};
use crate::rules::{SpecialTarget, Op, REPEAT, SKIP, DIRECTION, COUNTER, START, NO_SKIP_LIMIT};
use crate::state::{empty, Kind, Action, Stage, Pending, FREE_CUBE, State};

impl Game {
    pub(super) fn pick_options(&self, s: &mut State) {
        empty(&mut s.legal);
        // Closed crews (close_crew) are not offered until the round ends.
        s.legal.extend(walks::positions(s.free_crew & !s.closed).map(|slot| Action::new(Kind::PickCrew, slot as i32)));
    }

    pub(super) fn pick_crew(&self, s: &mut State, slot: usize) {
        let rules = &self.rules;
        let seat = s.turn_seat();
        s.workers[slot] = seat as i8;
        s.free_crew &= !(1 << slot);
        s.chosen[s.chosen_len as usize] = slot as u8;
        s.chosen_len += 1;
        // R6: free cubes back to the stock at free_cube_vp each; player cubes removed from
        // play (kept as `removed` per owner) at player_cube_vp each, whoever owned them.
        let free = s.crew_free[slot];
        let cubes: i32 = s.crew_cubes[slot][..s.players as usize].iter().map(|&c| c as i32).sum();
        if free != 0 || cubes != 0 {
            s.stock += free;
            s.crew_free[slot] = 0;
            for owner in 0..s.players as usize {
                s.removed[owner] += s.crew_cubes[slot][owner] as i32;
                s.crew_cubes[slot][owner] = 0;
            }
            s.vp[seat] += free * rules.knobs.free_cube_vp + cubes * rules.knobs.player_cube_vp;
        }
        if rules.any_another_pick {
            self.another_pick(s, seat, s.crew[slot]); // the other holders' triggers, before the picker's skill
        }
        s.survey_rules = 0;
        s.survey_bonus = 0;
        s.survey_placed = 0;
        s.survey_last = -1;
        s.survey_direction = 0;
        s.survey_skips = NO_SKIP_LIMIT;
        s.surveyed = 0;
        empty(&mut s.pending);
        let card = &rules.crew[s.crew[slot] as usize];
        for &node in card.on_pick.iter().rev() {
            s.pending.push(Pending { node, slot: slot as u8, seat: seat as u8, remaining: rules.nodes[node as usize].steps });
        }
        s.stage = Stage::BeforeSurvey;
    }

    // -- skill effects (R9) -------------------------------------------------------------

    /// Whether the effect at `node` can be applied now (Python: `Effect.can_apply`): it asks
    /// no decision, or its choices offer at least one option. Derived from `push_choices`,
    /// written after the options already in `s.legal` and taken back, so the two never differ.
    fn can_apply(&self, s: &mut State, node: u16, seat: usize, slot: usize) -> bool {
        let mark = s.legal.len();
        let asks = self.push_choices(s, node, seat, slot);
        let offers = s.legal.len() > mark;
        s.legal.truncate(mark);
        !asks || offers
    }

    /// Whether the effect at `node` would change the game now (Python:
    /// `Effect.changes_anything`), which `choose_one` asks of its options (R9): a gain or a loss
    /// of VP read as nothing does not, an `if` only what its branch would; the rest whenever
    /// they can be applied.
    fn changes_anything(&self, s: &mut State, node: u16, seat: usize, slot: usize) -> bool {
        let scope = Scope::new(seat, slot);
        match &self.rules.nodes[node as usize].op {
            Op::Act(act) => match act.as_ref() {
                Act::GainVp { vp, to } => self.amount(s, &scope, vp) > 0 && self.set_members(s, &scope, to) != 0,
                Act::LoseVp { vp, to } => {
                    self.amount(s, &scope, vp) > 0
                        && scope::members(self.set_members(s, &scope, to), SetKind::Seats, scope.first, s.players as usize)
                            .any(|member| s.vp[member] > 0)
                }
                _ => self.can_apply(s, node, seat, slot),
            },
            Op::If { condition, then, otherwise } => {
                let branch = if self.holds(s, &scope, condition) { then } else { otherwise };
                branch.iter().any(|&n| self.changes_anything(s, n, seat, slot))
            }
            _ => self.can_apply(s, node, seat, slot),
        }
    }

    fn special_target(&self, s: &State, target: SpecialTarget, p: usize) -> bool {
        let allowed = match target {
            SpecialTarget::Any => true,
            SpecialTarget::Colour(colour) => self.rules.planets[s.planets[p] as usize].colour == colour,
            SpecialTarget::Surveyed => s.surveyed & (1 << p) != 0,
        };
        allowed && self.special_room(s, p) > 0
    }

    /// The options of the effect at `head` written to `s.legal`; false when it needs no
    /// decision (applied at once). True with no options: it cannot be applied (skipped, R9).
    pub(super) fn effect_choices(&self, s: &mut State, head: Pending) -> bool {
        empty(&mut s.legal);
        self.push_choices(s, head.node, head.seat as usize, crew_of(head.slot))
    }

    /// The options the effect at `node` offers `seat` (crew `slot`'s skill), pushed onto
    /// `s.legal` (Python: `Effect.choices`); false when it asks no decision.
    fn push_choices(&self, s: &mut State, node: u16, seat: usize, slot: usize) -> bool {
        let rules = &self.rules;
        match &rules.nodes[node as usize].op {
            Op::AddFreeCubes => {
                if s.stock > 0 {
                    for other in 0..s.crew_count as usize {
                        if other != slot && s.crew_free[other] < rules.max_free_cubes_per_crew {
                            s.legal.push(Action::new(Kind::TargetCrew, other as i32));
                        }
                    }
                }
            }
            Op::PlaceFreeCubes => {
                if s.stock > 0 {
                    s.legal.extend(walks::positions(s.open).map(|p| Action::new(Kind::TargetPlanet, p as i32)));
                }
            }
            Op::PlaceOnCrew => {
                if s.hands[seat] > 0 {
                    for other in 0..s.crew_count as usize {
                        if other != slot {
                            s.legal.push(Action::new(Kind::TargetCrew, other as i32));
                        }
                    }
                }
            }
            Op::PlaceOnSpecial(target) => {
                if s.hands[seat] > 0 {
                    for p in 0..s.planet_count as usize {
                        if self.special_target(s, *target, p) {
                            s.legal.push(Action::new(Kind::TargetPlanet, p as i32));
                        }
                    }
                }
            }
            Op::NameStartPlayer => {
                for other in 0..s.players as usize {
                    s.legal.push(Action::new(Kind::NameStartPlayer, other as i32));
                }
            }
            Op::ChooseOne(options) => {
                for (index, option) in options.iter().enumerate() {
                    if option.iter().any(|&n| self.changes_anything(s, n, seat, slot)) {
                        s.legal.push(Action::new(Kind::ChooseOption, index as i32));
                    }
                }
            }
            // R9: an action of the rules language that can change nothing is skipped.
            Op::Act(act) => return !self.can_perform(s, &Scope::new(seat, slot), act),
            Op::Choose { over, body } => {
                let scope = Scope::new(seat, slot);
                let kind = over.kind();
                let decision = match kind {
                    SetKind::Planets => Kind::TargetPlanet,
                    SetKind::Seats => Kind::TargetSeat,
                    SetKind::Crews => Kind::TargetCrew,
                };
                let players = s.players as usize;
                for member in scope::members(self.set_members(s, &scope, over), kind, seat, players) {
                    let bound = scope.bind(kind, member);
                    if body.iter().any(|act| self.can_perform(s, &bound, act)) {
                        s.legal.push(Action::new(decision, member as i32));
                    }
                }
            }
            Op::UseSkill(crews) => {
                let scope = Scope::new(seat, slot);
                for member in scope::members(self.set_members(s, &scope, crews), SetKind::Crews, 0, 0) {
                    if member != slot && rules.crew[s.crew[member] as usize].borrowable {
                        s.legal.push(Action::new(Kind::TargetCrew, member as i32));
                    }
                }
            }
            Op::AllowRepeatPlanet
            | Op::ChangeSurveyCount(_)
            | Op::ChooseDirection
            | Op::GainVp(_)
            | Op::If { .. }
            | Op::MaySkipPlanets
            | Op::SurveyStart { .. } => return false,
        }
        true
    }

    /// Apply one step of the effect at the head of `pending` and queue what follows (the
    /// Python engine's `Effect.apply` and `_finish_step`).
    fn apply_effect(&self, s: &mut State, choice: Option<Action>) {
        let rules = &self.rules;
        let head = s.pending.pop().expect("an effect is pending");
        let seat = head.seat as usize;
        let target = choice.map_or(-1, |a| a.target);
        let mut follow: &[u16] = &[];
        match &rules.nodes[head.node as usize].op {
            Op::AddFreeCubes => {
                s.stock -= 1;
                s.crew_free[target as usize] += 1;
            }
            Op::AllowRepeatPlanet => s.survey_rules |= REPEAT,
            Op::MaySkipPlanets => {
                s.survey_rules |= SKIP;
                s.survey_skips = NO_SKIP_LIMIT;
            }
            Op::SurveyStart { .. } => s.survey_rules |= START,
            // The latest direction resolved this turn holds: either way, no longer a forced one.
            Op::ChooseDirection => s.survey_rules = (s.survey_rules & !COUNTER) | DIRECTION,
            Op::ChangeSurveyCount(delta) => s.survey_bonus += delta,
            Op::ChooseOne(options) => follow = &options[target as usize],
            Op::GainVp(vp) => s.vp[seat] += vp,
            Op::NameStartPlayer => s.start_player = target as u8,
            Op::PlaceFreeCubes => {
                s.stock -= 1;
                self.place_on_track(s, target as usize, FREE_CUBE);
            }
            Op::PlaceOnCrew => {
                s.hands[seat] -= 1;
                s.crew_cubes[target as usize][seat] += 1;
            }
            Op::PlaceOnSpecial(_) => {
                s.hands[seat] -= 1;
                self.place_on_special(s, target as usize, seat as i8);
            }
            Op::Act(act) => self.perform(s, &Scope::new(seat, crew_of(head.slot)), act),
            Op::If { condition, then, otherwise } => {
                let holds = self.holds(s, &Scope::new(seat, crew_of(head.slot)), condition);
                follow = if holds { then } else { otherwise };
            }
            Op::Choose { over, body } => {
                let scope = Scope::new(seat, crew_of(head.slot)).bind(over.kind(), target as usize);
                self.perform_all(s, &scope, body);
            }
            Op::UseSkill(_) => {
                // The skill applied: its pick effects resolve next, its later ones at their stage.
                let card = s.crew[target as usize];
                s.borrowed[head.slot as usize] = card as i16;
                for &node in rules.crew[card as usize].on_pick.iter().rev() {
                    s.pending.push(Pending { node, slot: head.slot, seat: head.seat, remaining: rules.nodes[node as usize].steps });
                }
            }
        }
        if head.remaining > 1 {
            s.pending.push(Pending { remaining: head.remaining - 1, ..head });
        }
        for &node in follow.iter().rev() {
            s.pending.push(Pending { node, slot: head.slot, seat: head.seat, remaining: rules.nodes[node as usize].steps });
        }
    }

    pub(super) fn decide_effect(&self, s: &mut State, act: Action) {
        self.apply_effect(s, Some(act));
    }

    /// Resolve effects until one needs a decision (true, options in `s.legal`) or none is left.
    #[inline]
    pub(super) fn resolve_pending(&self, s: &mut State) -> bool {
        while let Some(&head) = s.pending.last() {
            if !self.effect_choices(s, head) {
                self.apply_effect(s, None);
            } else if !s.legal.is_empty() {
                return true;
            } else {
                s.pending.pop(); // R9: cannot be applied, skipped (all its steps)
            }
        }
        false
    }

    // -- the automatic part: from one decision to the next -----------------------------
}
