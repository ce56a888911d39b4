//! Planet abilities in play (docs/skills.md, "Planet abilities"), mirroring
//! `stargazer_rules.engine.abilities`: a trigger's acts are performed at once on a scope with
//! `this_planet` bound to its Planet and no crew. While they resolve the state is `firing`: a
//! cube they land sets off no ability (no chains), so every program ends.

use crate::expr::{Scope, NOBODY};
use crate::game::Game;
use crate::rules::{Event, Trigger};
use crate::state::State;

impl Game {
    /// The player whose turn it is; nobody at a round's end (R12 effects, round_end abilities).
    fn turn_player(s: &State) -> usize {
        if s.turn as usize >= s.players as usize {
            NOBODY
        } else {
            s.turn_seat()
        }
    }

    /// A cube of `owner` landed on `square` (0: the special square) of Planet `p`: its
    /// `cube_placed` triggers that match the square, in card order ("you": the cube's owner, a
    /// free cube's nobody), then, if the cube filled the last normal square (read as it lands),
    /// its `becomes_full` triggers ("you": the player whose turn it is).
    pub(crate) fn cube_landed(&self, s: &mut State, p: usize, square: usize, owner: i8) {
        let planet = &self.rules.planets[s.planets[p] as usize];
        let filled = square > 0 && s.rooms[p] == 0;
        s.firing = true;
        let me = if owner >= 0 { owner as usize } else { NOBODY };
        for trigger in planet.abilities.triggers.iter().filter(|t| t.event == Event::CubePlaced && t.matches(square)) {
            self.fire(s, trigger, p, me);
        }
        if filled {
            let me = Self::turn_player(s);
            for trigger in planet.abilities.triggers.iter().filter(|t| t.event == Event::BecomesFull) {
                self.fire(s, trigger, p, me);
            }
        }
        s.firing = false;
    }

    /// Every dealt Planet's triggers of a whole-table event (`RoundEnd`, `GameEnd`), in ring
    /// order (R4) and card order; nobody is "you".
    pub(crate) fn table_event(&self, s: &mut State, event: Event) {
        s.firing = true;
        for p in 0..s.planet_count as usize {
            let planet = &self.rules.planets[s.planets[p] as usize];
            for trigger in planet.abilities.triggers.iter().filter(|t| t.event == event) {
                self.fire(s, trigger, p, NOBODY);
            }
        }
        s.firing = false;
    }

    fn fire(&self, s: &mut State, trigger: &Trigger, p: usize, me: usize) {
        let scope = Scope::ability(me, s.start_player as usize, p);
        self.perform_all(s, &scope, &trigger.body);
    }
}
