//! The action index: every decision a ruleset can ask for as one integer id, laid out as
//! Python derived it (`stargazer_rules.engine.bounds.ActionLayout`, received in the compiled
//! ruleset as `ActionLayout`: each block's offset and size in `Kind` order, the survey block's
//! strides), the same as `stargazer_rules/fast/action_index.py` (tests/test_fast_api.py holds
//! the two equal). The kernel keeps no formula of the layout: within a block an id is the crew
//! slot, Planet, option or seat; the survey's 0 places nothing and
//! `1 + d * direction_stride + start * start_stride + count - 1` walks `count` cubes.

use crate::rules::{ActionLayout, ActionSizes};
use crate::state::{Action, Kind, CLOCKWISE, COUNTER_CLOCKWISE};


/// The blocks of one ruleset's action index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionIndex {
    /// The ranges each block's targets take (Planets, crew slots, survey counts, directions).
    pub sizes: ActionSizes,
    pub layout: ActionLayout,
    /// The first id of each kind's block, in `Kind::ALL` order, and the size of the index.
    pub offsets: [u32; Kind::ALL.len()],
    pub size: u32,
    /// The action of every id.
    actions: Vec<Action>,
}

impl ActionIndex {
    pub fn new(sizes: ActionSizes, layout: ActionLayout) -> ActionIndex {
        let mut index = ActionIndex { sizes, layout, offsets: layout.offsets, size: layout.size, actions: Vec::new() };
        index.actions = (0..layout.size).filter_map(|id| index.decode(id)).collect();
        index
    }

    pub fn block_size(&self, kind: Kind) -> u32 {
        self.layout.sizes[kind as usize]
    }

    /// The most legal actions a state lists: a decision's options are all of one block (a
    /// pick, a whole-walk survey, an effect's targets, options or seats), or the survey steps
    /// and the stop of a cube-by-cube survey.
    pub fn most_legal(&self) -> u32 {
        let largest = Kind::ALL.into_iter().map(|kind| self.block_size(kind)).max().unwrap_or(0);
        largest.max(self.block_size(Kind::SurveyStep) + 1)
    }

    /// The id of `act`, or None when the ruleset can never ask for it.
    #[inline]
    pub fn id_of(&self, act: Action) -> Option<u32> {
        let offset = self.offsets[act.kind as usize];
        let size = self.block_size(act.kind);
        let target = act.target as i64;
        let within = match act.kind {
            Kind::Survey => {
                if act.count == 0 {
                    if act.target != -1 || act.direction != CLOCKWISE {
                        return None;
                    }
                    0
                } else {
                    let d = match act.direction {
                        CLOCKWISE => 0,
                        COUNTER_CLOCKWISE if self.sizes.directions == 2 => 1,
                        _ => return None,
                    };
                    let count = act.count as i64;
                    if target < 0 || target >= self.sizes.planets as i64 || count < 1 || count > self.sizes.survey_counts as i64 {
                        return None;
                    }
                    1 + d * self.layout.direction_stride as i64 + target * self.layout.start_stride as i64 + count - 1
                }
            }
            _ => {
                if act.count != 0 || act.direction != CLOCKWISE {
                    return None;
                }
                if act.kind == Kind::SurveyStop {
                    if act.target != -1 {
                        return None;
                    }
                    0
                } else {
                    target
                }
            }
        };
        if within < 0 || within >= size as i64 {
            return None;
        }
        Some(offset + within as u32)
    }

    /// The id of an action the engine listed as legal: `id_of` without its checks, for the
    /// batch's hot loop (the engine's actions are in the index, tests/test_fast_api.py).
    #[inline]
    pub fn id_of_legal(&self, act: Action) -> u32 {
        let offset = self.offsets[act.kind as usize];
        match act.kind {
            Kind::Survey if act.count == 0 => offset,
            Kind::Survey => {
                let d = (act.direction != CLOCKWISE) as u32;
                offset + 1 + d * self.layout.direction_stride + act.target as u32 * self.layout.start_stride + act.count as u32 - 1
            }
            Kind::SurveyStop => offset,
            _ => offset + act.target as u32,
        }
    }

    /// The action of `id`, or None outside `0..size`.
    #[inline]
    pub fn action_of(&self, id: u32) -> Option<Action> {
        self.actions.get(id as usize).copied()
    }

    fn decode(&self, id: u32) -> Option<Action> {
        let k = (0..Kind::ALL.len()).find(|&k| (self.offsets[k]..self.offsets[k] + self.block_size(Kind::ALL[k])).contains(&id))?;
        let kind = Kind::ALL[k];
        let within = (id - self.offsets[k]) as i32;
        Some(match kind {
            Kind::Survey if within == 0 => Action::survey(-1, 0, CLOCKWISE),
            Kind::Survey => {
                let rest = within - 1;
                let (per_direction, per_start) = (self.layout.direction_stride as i32, self.layout.start_stride as i32);
                let direction = if rest / per_direction == 0 { CLOCKWISE } else { COUNTER_CLOCKWISE };
                let rest = rest % per_direction;
                Action::survey(rest / per_start, rest % per_start + 1, direction)
            }
            Kind::SurveyStop => Action::new(Kind::SurveyStop, -1),
            _ => Action::new(kind, within),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    #[test]
    fn every_id_maps_to_an_action_that_maps_back() {
        let rules = &fixtures::draft_like().rules;
        let index = ActionIndex::new(rules.action_sizes, rules.action_layout);
        assert!(index.size > 0);
        for id in 0..index.size {
            let act = index.action_of(id).unwrap();
            assert_eq!(index.id_of(act), Some(id), "{act:?}");
            assert_eq!(index.id_of_legal(act), id, "{act:?}");
        }
        assert_eq!(index.action_of(index.size), None);
        assert_eq!(index.id_of(Action::new(Kind::PickCrew, index.sizes.crews as i32)), None);
        assert_eq!(index.id_of(Action::survey(0, index.sizes.survey_counts as i32 + 1, CLOCKWISE)), None);
    }
}
