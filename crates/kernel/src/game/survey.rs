//! A turn's survey (R7, R8): its count, its options (walks, steps and starts) and each cube it
//! places; the ring arithmetic it uses is `walks`.

use super::{Game, walks};
use super::scope::Scope;
use crate::expr::SetKind;
use crate::rules::{Op, SKIP, DIRECTION, START, STEP_RULES, NO_SKIP_LIMIT};
use crate::state::{empty, Kind, Action, Stage, Pending, State};

impl Game {
    /// The chosen crew's survey count after this turn's skill changes (R7).
    fn survey_count(&self, s: &State) -> i32 {
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        (self.rules.crew[s.crew[slot] as usize].survey_count + s.survey_bonus).max(0)
    }

    /// The survey options into `s.legal`; false when there are none (the survey is over).
    #[inline]
    pub(super) fn survey_options(&self, s: &mut State) -> bool {
        let seat = s.turn_seat();
        let minimum = self.rules.knobs.survey_minimum;
        if s.survey_rules & STEP_RULES != 0 {
            let mut steps = walks::Positions::new();
            if s.survey_placed < self.survey_count(s) && s.hands[seat] > 0 {
                let start = self.survey_start(s);
                let last = s.survey_last;
                if last < 0 {
                    match start {
                        None => steps.extend(walks::positions(s.open).map(|p| p as u8)),
                        Some(node) => self.survey_starts(s, node, seat, &mut steps),
                    }
                    if self.rules.any_no_start {
                        let allowed = self.survey_starts_allowed(s);
                        steps.retain(|p| allowed & (1 << *p) != 0); // P5: not the first cube there
                    }
                } else if start.is_some_and(|node| s.survey_placed < self.start_cubes(node)) && s.rooms[last as usize] > 0 {
                    steps.push(last as u8); // the start Planet's cubes, one after the other
                } else {
                    walks::next_planets(s.open, last, s.survey_rules, s.survey_direction, s.survey_skips, &mut steps);
                }
            }
            walks::step_options(&steps, s.survey_placed, minimum, &mut s.legal);
        } else {
            let limit = self.survey_count(s).min(s.hands[seat]);
            // P5: a survey may not start on a Planet whose card says no_survey_start.
            let allowed = if self.rules.any_no_start { self.survey_starts_allowed(s) } else { u16::MAX };
            walks::walk_options(&s.rooms, s.open, allowed, limit, s.survey_rules & DIRECTION != 0, minimum, &mut s.legal);
        }
        !s.legal.is_empty()
    }

    /// The ring positions a survey may start on (P5: all but the `no_survey_start` Planets).
    fn survey_starts_allowed(&self, s: &State) -> u16 {
        let planets = &self.rules.planets;
        (0..s.planet_count as usize).filter(|&p| !planets[s.planets[p] as usize].no_survey_start).fold(0, |m, p| m | 1 << p)
    }

    /// The chosen crew's `survey_start` node while its flag is set this turn: that of the skill
    /// it applies this round (`use_skill`, S10) when that skill has one, else its own.
    fn survey_start(&self, s: &State) -> Option<u16> {
        if s.survey_rules & START == 0 {
            return None;
        }
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        let borrowed = (s.borrowed[slot] >= 0).then(|| self.rules.crew[s.borrowed[slot] as usize].survey_start).flatten();
        borrowed.or(self.rules.crew[s.crew[slot] as usize].survey_start)
    }

    fn start_cubes(&self, node: u16) -> i32 {
        match &self.rules.nodes[node as usize].op {
            Op::SurveyStart { cubes, .. } => *cubes,
            _ => 1,
        }
    }

    /// The Planets a survey may start on under `survey_start` (Python: `SurveyStart.starts`):
    /// members of its set where, once its actions before the walk are performed there (on a
    /// copy), the first cube has room and the chooser a cube to put there.
    fn survey_starts(&self, s: &State, node: u16, seat: usize, out: &mut walks::Positions) {
        let Op::SurveyStart { planets, before, .. } = &self.rules.nodes[node as usize].op else { return };
        let slot = s.chosen[s.chosen_len as usize - 1] as usize;
        let scope = Scope::new(seat, slot);
        let members = self.set_members(s, &scope, planets);
        if before.is_empty() {
            out.extend(walks::positions(members & s.open).map(|p| p as u8));
            return;
        }
        for p in walks::positions(members) {
            let mut trial = s.clone();
            self.perform_all(&mut trial, &scope.bind(SetKind::Planets, p), before);
            if trial.rooms[p] > 0 && trial.hands[seat] > 0 {
                out.push(p as u8);
            }
        }
    }

    pub(super) fn survey(&self, s: &mut State, act: Action) {
        let seat = s.turn_seat();
        match act.kind {
            Kind::Survey => {
                if act.count > 0 {
                    let mut placed = walks::Positions::new();
                    walks::walk(&s.rooms, s.open, act.target as usize, act.count as i32, act.direction, &mut placed);
                    s.surveyed = 0;
                    if self.rules.any_lands {
                        for &p in &placed {
                            // An ability may have filled the Planet or emptied the hand since
                            // the walk was chosen: that cube stays in hand.
                            if s.rooms[p as usize] > 0 && s.hands[seat] > 0 {
                                self.survey_cube(s, seat, p as usize);
                            }
                        }
                    } else {
                        for &p in &placed {
                            self.place_on_track(s, p as usize, seat as i8);
                            s.surveyed |= 1 << p;
                        }
                        s.hands[seat] -= placed.len() as i32;
                        s.survey_placed = placed.len() as i32;
                    }
                }
                self.finish_survey(s);
            }
            Kind::SurveyStep => {
                let target = act.target as usize;
                let last = s.survey_last;
                if last < 0 {
                    if let Some(node) = self.survey_start(s) {
                        // Before the walk, on the start Planet.
                        if let Op::SurveyStart { before, .. } = &self.rules.nodes[node as usize].op {
                            let slot = s.chosen[s.chosen_len as usize - 1] as usize;
                            self.perform_all(s, &Scope::new(seat, slot).bind(SetKind::Planets, target), before);
                        }
                    }
                } else if target as i32 != last {
                    self.commit_step(s, last as usize, target);
                }
                self.survey_cube(s, seat, target);
                s.survey_last = act.target as i32;
            }
            _ => self.finish_survey(s),
        }
    }

    /// One survey cube: out of the hand and counted in the survey, then onto the track, where
    /// it may set off the Planet's abilities.
    fn survey_cube(&self, s: &mut State, seat: usize, p: usize) {
        s.hands[seat] -= 1;
        s.surveyed |= 1 << p;
        s.survey_placed += 1;
        self.place_on_track(s, p, seat as i8);
    }

    /// The direction a step from `last` to `target` walks, and the skips it uses (Python:
    /// `Game._commit_step`).
    fn commit_step(&self, s: &mut State, last: usize, target: usize) {
        if s.survey_rules & SKIP != 0 && s.survey_skips == NO_SKIP_LIMIT {
            if s.survey_direction == 0 {
                s.survey_direction = walks::direction_of(last, target, s.open);
            }
            return;
        }
        // The way that passes fewer Planets with room, clockwise on a tie.
        let mut best: Option<(u32, i8)> = None;
        for &way in walks::ways(s.survey_rules, s.survey_direction) {
            let passed = walks::passed(s.open, s.planet_count as usize, last, target, way);
            if best.is_none_or(|(fewest, _)| passed < fewest) {
                best = Some((passed, way));
            }
        }
        let (passed, way) = best.expect("a survey walks some way");
        s.survey_direction = way;
        if s.survey_rules & SKIP != 0 {
            s.survey_skips -= passed as i32;
        }
    }

    /// A cube of `owner` on Planet `p`'s rearmost empty square (R2), and the counts it changes.
    #[inline]
    pub(crate) fn place_on_track(&self, s: &mut State, p: usize, owner: i8) {
        let at = s.track_start[p] as usize + s.track_fill[p] as usize;
        s.board[at] = owner;
        s.track_fill[p] += 1;
        s.rooms[p] -= 1;
        if s.rooms[p] == 0 {
            s.open &= !(1 << p);
        }
        s.unscored |= 1 << p;
        if self.rules.any_lands && !s.firing && self.rules.planets[s.planets[p] as usize].abilities.lands {
            self.cube_landed(s, p, s.track_fill[p] as usize, owner);
        }
    }

    /// A cube of seat `owner` on Planet `p`'s special square (R3).
    #[inline]
    pub(crate) fn place_on_special(&self, s: &mut State, p: usize, owner: i8) {
        let at = s.special_start[p] as usize + s.special_fill[p] as usize;
        s.board[at] = owner;
        s.special_fill[p] += 1;
        s.unscored |= 1 << p;
        if self.rules.any_lands && !s.firing && self.rules.planets[s.planets[p] as usize].abilities.lands {
            self.cube_landed(s, p, 0, owner);
        }
    }

    /// Take the cube at `index` (square `index + 1`) off Planet `p`'s track and return its
    /// owner; the cubes behind it move up one square each, so squares fill in order (R2).
    /// The Planet's kept scores are given back first (`unscore_track`): its track shrinks.
    pub(crate) fn take_from_track(&self, s: &mut State, p: usize, index: usize) -> i8 {
        self.unscore_track(s, p);
        let start = s.track_start[p] as usize;
        let end = start + s.track_fill[p] as usize;
        let owner = s.board[start + index];
        s.board.copy_within(start + index + 1..end, start + index);
        s.board[end - 1] = 0; // an empty square, as a new board holds
        s.track_fill[p] -= 1;
        s.rooms[p] += 1;
        s.open |= 1 << p;
        owner
    }

    /// Take the cube at `index` off Planet `p`'s special square (R3) when `special`, else off
    /// its track (`take_from_track`), and return its owner. The special square's cubes before
    /// it keep their places; the board's kept scores are counted again (a rare step).
    pub(crate) fn take_cube(&self, s: &mut State, p: usize, index: usize, special: bool) -> i8 {
        if !special {
            return self.take_from_track(s, p, index);
        }
        let start = s.special_start[p] as usize;
        let end = start + s.special_fill[p] as usize;
        let owner = s.board[start + index];
        s.board.copy_within(start + index + 1..end, start + index);
        s.board[end - 1] = 0;
        s.special_fill[p] -= 1;
        self.recount_scores(s);
        owner
    }

    pub(super) fn finish_survey(&self, s: &mut State) {
        let seat = s.turn_seat() as u8;
        let slot = s.chosen[s.chosen_len as usize - 1];
        let rules = &self.rules;
        empty(&mut s.pending);
        // The after-survey effects of a skill applied with use_skill resolve after the crew's own.
        if s.borrowed[slot as usize] >= 0 {
            for &node in rules.crew[s.borrowed[slot as usize] as usize].after_survey.iter().rev() {
                s.pending.push(Pending { node, slot, seat, remaining: rules.nodes[node as usize].steps });
            }
        }
        for &node in rules.crew[s.crew[slot as usize] as usize].after_survey.iter().rev() {
            s.pending.push(Pending { node, slot, seat, remaining: rules.nodes[node as usize].steps });
        }
        s.stage = Stage::AfterSurvey;
    }
}
