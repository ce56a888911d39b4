//! Planet abilities and crew triggers in play (docs/skills.md, "Planet abilities", "Crew
//! triggers"), mirroring `stargazer_rules.engine.abilities`: a planet trigger's acts are
//! performed at once on a scope with `this_planet` bound to its Planet and no crew; a held
//! crew's on a scope whose "you" is its holder and whose crew is the held one. While they
//! resolve the state is `firing`: a cube they land sets off nothing (no chains), so every
//! program ends.

use super::scope::{Scope, NOBODY};
use super::{walks, Game};
use crate::rules::{Event, Trigger, LANDING_EVENTS};
use crate::state::{State, NO_WORKER};

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
        // Then each held crew's, in crew-area order ("you": its holder).
        for slot in 0..s.crew_count as usize {
            let holder = s.workers[slot];
            if holder == NO_WORKER {
                continue;
            }
            let held = &self.rules.crew[s.crew[slot] as usize];
            if held.events & LANDING_EVENTS == 0 {
                continue;
            }
            for trigger in &held.triggers {
                let fires = match trigger.event {
                    Event::CubePlaced => trigger.matches(square),
                    Event::BecomesFull => filled,
                    _ => false,
                };
                if fires {
                    self.fire_crew(s, trigger, slot, holder as usize, p as i32);
                }
            }
        }
        s.firing = false;
    }

    /// `picker` has picked the crew card `picked` and taken its motivation bonus (R6): every
    /// crew another player holds fires its `another_pick` triggers that wait for that crew
    /// ("you": its holder), in crew-area order.
    pub(crate) fn another_pick(&self, s: &mut State, picker: usize, picked: u16) {
        self.held_event(s, Event::AnotherPick, picker as i8, picked);
    }

    /// A whole-table event (`RoundEnd`, `GameEnd`): every held crew's triggers of it, after
    /// the Planets'.
    pub(crate) fn crew_table_event(&self, s: &mut State, event: Event) {
        self.held_event(s, event, NO_WORKER, 0);
    }

    /// The `event` triggers of every crew held by a seat other than `except`, in crew-area
    /// order, that wait for the crew card `picked` (only an `another_pick` names crews). A
    /// held crew with no trigger of `event` costs one bit test (`Crew::events`).
    fn held_event(&self, s: &mut State, event: Event, except: i8, picked: u16) {
        s.firing = true;
        let held = !s.free_crew & (((1u32 << s.crew_count) - 1) as u16);
        for slot in walks::positions(held) {
            let holder = s.workers[slot];
            if holder == NO_WORKER || holder == except {
                continue;
            }
            let held = &self.rules.crew[s.crew[slot] as usize];
            if held.events & event.bit() == 0 {
                continue;
            }
            for trigger in held.triggers.iter().filter(|t| t.event == event && t.picks(picked)) {
                self.fire_crew(s, trigger, slot, holder as usize, -1);
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

    /// rules.yaml's `round_end.effects` (idea R7), at every round's end after the held crews'
    /// `round_end` triggers, before the end check: performed at once in list order, each if it
    /// can be, on a scope where nobody is "you" and nothing is bound (no Planet, no crew).
    pub(crate) fn round_end_effects(&self, s: &mut State) {
        s.firing = true;
        self.perform_all(s, &Scope::table(s.start_player as usize), &self.rules.round_end_effects);
        s.firing = false;
    }

    fn fire(&self, s: &mut State, trigger: &Trigger, p: usize, me: usize) {
        let scope = Scope::ability(me, s.start_player as usize, p);
        self.perform_all(s, &scope, &trigger.body);
    }

    /// A held crew's trigger: `this_crew` is the crew (`slot`), "you" its holder, `this_planet`
    /// the Planet a cube landed on (-1 at the other events).
    fn fire_crew(&self, s: &mut State, trigger: &Trigger, slot: usize, holder: usize, p: i32) {
        let scope = Scope { planet: p, ..Scope::new(holder, slot) };
        self.perform_all(s, &scope, &trigger.body);
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::expr::Set;
    use crate::rules::{ActionSizes, Bounds, CrewSpec, EffectSpec, Event, KnobSpecs, ParamValue, PlanetSpec, Rules, RulesSpec, SetupSpec, TriggerSpec};
    use crate::state::{Action, Kind, Stage, CLOCKWISE};

    /// One seat, one Planet of 4 squares whose every landing gives the cube's owner 1 VP and
    /// puts a free cube on it; one crew surveying 1 cube.
    fn game() -> Game {
        Game::new(Rules::compile(&spec()).expect("the spec compiles"))
    }

    fn spec() -> RulesSpec {
        let gain = EffectSpec::new("gain_vp", "after_survey")
            .with("vp", ParamValue::Int(1))
            .with("to", ParamValue::Set(Set::Me));
        let free_cube = EffectSpec::new("place_cube", "after_survey")
            .with("owner", ParamValue::Text("free".into()))
            .with("planet", ParamValue::Set(Set::ThisPlanet))
            .with("square", ParamValue::Text("rearmost".into()));
        let planet = PlanetSpec {
            id: "a".into(),
            colour: "red".into(),
            track: vec![1, 2, 3, 4],
            special_capacity: 1,
            triggers: vec![TriggerSpec { event: "cube_placed".into(), square: -1, body: vec![gain, free_cube], crew: vec![] }],
            counted_colours: vec!["red".into()],
            ..Default::default()
        };
        RulesSpec {
            name: "t".into(),
            colours: vec!["red".into()],
            planets: vec![planet],
            crew: vec![CrewSpec { id: "c".into(), survey_count: 1, always_in_play: false, skill: Vec::new(), triggers: Vec::new() }],
            setups: vec![SetupSpec { players: 1, planets: 1, crew: 1, full_planets_to_end: 1 }],
            knobs: KnobSpecs { cubes_per_player: 4, free_cubes: 4, max_rounds: 3, ..Default::default() },
            max_free_cubes_per_crew: 1,
            turn_order_vp: vec![0],
            // As Python would send them for this table: one seat, one Planet, one crew.
            bounds: Bounds {
                most_players: 1,
                most_planets: 1,
                most_crew: 1,
                most_hand: 4,
                most_stock: 4,
                most_free_on_crew: 1,
                most_vp: 1000,
                ability_vp: 12,
                most_bonus_vp: 4,
                least_line_vp: 0,
                most_line_vp: 0,
                most_round: 3,
                least_survey_bonus: 0,
                most_survey_bonus: 0,
                most_survey_placed: 1,
                most_survey_skips: 0,
                most_steps: 1,
                most_pending: 8,
                most_turn_decisions: 100,
            },
            action_sizes: ActionSizes { planets: 1, crews: 1, seats: 1, survey_counts: 1, directions: 1, options: 0, seat_targets: 0 },
            ..Default::default()
        }
    }

    fn gain(vp: i64) -> EffectSpec {
        EffectSpec::new("gain_vp", "after_survey").with("vp", ParamValue::Int(vp)).with("to", ParamValue::Set(Set::Me))
    }

    fn crew_trigger(event: &str, crew: &[&str], vp: i64) -> TriggerSpec {
        TriggerSpec { event: event.into(), square: -1, body: vec![gain(vp)], crew: crew.iter().map(|&id| id.into()).collect() }
    }

    /// Two seats, the Planet without abilities, and crews "c" with `triggers`, then "d", "e"...
    /// (`others` of them) with none.
    fn crews_game(triggers: Vec<TriggerSpec>, others: usize) -> Game {
        let mut spec = spec();
        spec.planets[0].triggers.clear();
        spec.crew[0].triggers = triggers;
        for id in ["d", "e"].iter().take(others) {
            spec.crew.push(CrewSpec { id: (*id).into(), survey_count: 1, always_in_play: false, skill: Vec::new(), triggers: Vec::new() });
        }
        let crews = 1 + others;
        spec.setups = vec![SetupSpec { players: 2, planets: 1, crew: crews as i64, full_planets_to_end: 1 }];
        spec.turn_order_vp = vec![0, 0];
        spec.bounds.most_players = 2;
        spec.bounds.most_crew = crews;
        spec.action_sizes = ActionSizes { planets: 1, crews: crews as u32, seats: 2, survey_counts: 1, directions: 1, options: 0, seat_targets: 0 };
        Game::new(Rules::compile(&spec).expect("the spec compiles"))
    }

    /// "c" gives its holder 1 VP when another player picks a crew and 2 VP at every round's
    /// end, "d" has no trigger.
    fn crew_game() -> Game {
        crews_game(vec![crew_trigger("another_pick", &[], 1), crew_trigger("round_end", &[], 2)], 1)
    }

    #[test]
    fn a_held_crew_fires_at_another_players_pick_and_at_the_rounds_end_for_its_holder() {
        let game = crew_game();
        let mut s = game.new_state(2, &[0], &[0, 1], 0).unwrap();
        game.step(&mut s, Action::new(Kind::PickCrew, 0)).unwrap(); // seat 0 holds "c": nothing fires
        assert_eq!(s.vp[..2], [0, 0]);
        game.step(&mut s, Action::survey(-1, 0, CLOCKWISE)).unwrap();
        game.step(&mut s, Action::new(Kind::PickCrew, 1)).unwrap(); // seat 1 picks "d": seat 0 gains 1
        assert_eq!((s.vp[..2].to_vec(), s.firing), (vec![1, 0], false));
        game.step(&mut s, Action::survey(-1, 0, CLOCKWISE)).unwrap();
        assert_eq!((s.vp[..2].to_vec(), s.round), (vec![3, 0], 2)); // the round's end: seat 0 gains 2
    }

    #[test]
    fn an_another_pick_narrowed_to_a_crew_fires_for_that_crew_and_not_for_another() {
        let game = crews_game(vec![crew_trigger("another_pick", &["e"], 1)], 2);
        assert_eq!(game.rules.crew.iter().map(|c| c.events).collect::<Vec<_>>(), [Event::AnotherPick.bit(), 0, 0]);
        for (picked, vp) in [(1, 0), (2, 1)] {
            let mut s = game.new_state(2, &[0], &[0, 1, 2], 0).unwrap();
            game.step(&mut s, Action::new(Kind::PickCrew, 0)).unwrap(); // seat 0 holds "c"
            game.step(&mut s, Action::survey(-1, 0, CLOCKWISE)).unwrap();
            game.step(&mut s, Action::new(Kind::PickCrew, picked)).unwrap(); // seat 1 picks "d", then "e"
            assert_eq!(s.vp[..2], [vp, 0], "seat 1 picked {:?}", game.rules.crew[s.crew[picked as usize] as usize].id);
        }
    }

    #[test]
    fn a_game_end_trigger_fires_for_the_crew_held_in_the_last_round_after_the_game_is_over() {
        let mut game = crews_game(vec![crew_trigger("game_end", &[], 5)], 1);
        game.rules.knobs.max_rounds = 1; // the game ends at the first round's end
        let mut s = game.new_state(2, &[0], &[0, 1], 0).unwrap();
        game.step(&mut s, Action::new(Kind::PickCrew, 1)).unwrap(); // seat 0 holds "d"
        game.step(&mut s, Action::survey(-1, 0, CLOCKWISE)).unwrap();
        game.step(&mut s, Action::new(Kind::PickCrew, 0)).unwrap(); // seat 1 holds "c"
        assert_eq!(s.vp[..2], [0, 0]);
        game.step(&mut s, Action::survey(-1, 0, CLOCKWISE)).unwrap();
        assert_eq!((s.stage, s.vp[..2].to_vec(), s.firing), (Stage::Over, vec![0, 5], false));
    }

    #[test]
    fn a_landing_fires_its_planets_trigger_once_and_the_triggers_own_cube_fires_nothing() {
        let game = game();
        let mut s = game.new_state(1, &[0], &[0], 0).unwrap();
        game.step(&mut s, Action::new(Kind::PickCrew, 0)).unwrap();
        game.step(&mut s, Action { kind: Kind::Survey, target: 0, count: 1, direction: 1 }).unwrap();
        // The survey cube (seat 0) fired the trigger: 1 VP and a free cube, which fired nothing.
        assert_eq!((s.track(0).to_vec(), s.vp[0], s.stock, s.firing), (vec![0, -1], 1, 3, false));
    }
}
