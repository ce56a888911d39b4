//! A fixture ruleset for the kernel's own tests and profiling runs.

use crate::expr::{Amount, Comparison, Condition, Owner, Set, SetKind};
use crate::rng::Rng;
use crate::rules::{CrewSpec, EffectSpec, ParamValue, PlanetSpec, RulesSpec};
use crate::{Game, Rules};

/// An effect with every parameter its type declares, at the Python declarations' defaults
/// (as `kernel.native.ruleset_spec` sends them); `with` sets one.
fn effect(name: &str, when: &str) -> EffectSpec {
    let spec = EffectSpec::new(name, when);
    match name {
        "gain_vp" | "lose_vp" => spec.with("to", set(Set::Me)),
        "add_free_cubes" | "place_free_cubes" | "place_on_crew" => spec.with("count", ParamValue::Int(1)),
        "place_on_special" => spec
            .with("count", ParamValue::Int(1))
            .with("planets", ParamValue::Text("any".into()))
            .with("colour", ParamValue::None),
        "may_skip_planets" => spec.with("at_most", ParamValue::None),
        "set_survey_direction" => spec.with("direction", text("either")),
        "survey_start" => spec
            .with("planet", set(Set::AllPlanets))
            .with("cubes", int(1))
            .with("before_walk", ParamValue::Effects(Vec::new()))
            .bounded(0, 0, 0),
        _ => spec,
    }
}

fn int(value: i64) -> ParamValue {
    ParamValue::Int(value)
}

fn set(value: Set) -> ParamValue {
    ParamValue::Set(value)
}

fn owner(value: Owner) -> ParamValue {
    match value {
        Owner::Free => text("free"),
        Owner::Anyone => text("anyone"),
        Owner::Seats(seats) => set(seats),
    }
}

/// A set of Planets with cubes to take: every one, those with room, the full ones, or those
/// holding a cube of the chooser.
fn planets_drawn(rng: &mut Rng) -> Set {
    match rng.below(4) {
        0 => Set::AllPlanets,
        1 => Set::WithRoom,
        2 => Set::FullPlanets,
        _ => Set::Where(SetKind::Planets, Box::new(Condition::HasCube(Owner::Seats(Set::Me))), Box::new(Set::AllPlanets)),
    }
}

fn owner_drawn(rng: &mut Rng) -> Owner {
    match rng.below(4) {
        0 => Owner::Anyone,
        1 => Owner::Free,
        2 => Owner::Seats(Set::Me),
        _ => Owner::Seats(Set::OtherSeats),
    }
}

/// An action of the rules language drawn from `rng`, with the bounds Python derives for one
/// step (here from the generated rulesets' limits: at most 5 seats, 8 Planets, 13 cubes a hand
/// and 12 free cubes, survey counts 1..4). Its sets read no bound member, but `body` for the
/// members `choose` and `for_each` bind.
fn language_effect(rng: &mut Rng, name: &str, when: &str) -> EffectSpec {
    let spec = effect(name, when);
    match name {
        "gain_vp" => spec.with("vp", ParamValue::Amount(Amount::Count(Set::FullPlanets))).bounded(8, 0, 0),
        "change_survey_count" => spec
            .with("delta", ParamValue::Amount(Amount::Arithmetic(crate::expr::Arithmetic::Difference, vec![Amount::Count(Set::WithRoom), Amount::Number(2)])))
            .bounded(0, -2, 6),
        "lose_vp" => spec.with("vp", int(1 + rng.below(3) as i64)).bounded(0, 0, 0),
        "take_vp" => spec.with("vp", int(1)).with("from", set(Set::OtherSeats)).bounded(4, 0, 0),
        "set_survey_count" => {
            let count = rng.below(4) as i64;
            spec.with("count", int(count)).bounded(0, count - 4, count - 1)
        }
        "return_cube" => spec
            .with("planet", set(planets_drawn(rng)))
            .with("owner", owner(owner_drawn(rng)))
            .with("to", text(if rng.below(2) == 0 { "hand" } else { "stock" }))
            .bounded(0, 0, 0),
        "move_cube" => spec
            .with("planet", set(planets_drawn(rng)))
            .with("owner", owner(owner_drawn(rng)))
            .with("to", set(if rng.below(2) == 0 { Set::NextWithRoom(Box::new(Set::ThisPlanet)) } else { Set::AllPlanets }))
            .bounded(0, 0, 0),
        "place_cube" => {
            let (who, square, on) = match rng.below(4) {
                0 => (Owner::Seats(Set::Me), "rearmost", ("planet", Set::WithRoom)),
                1 => (Owner::Free, "rearmost", ("planet", Set::AllPlanets)),
                2 => (Owner::Seats(Set::OtherSeats), "special", ("planet", Set::AllPlanets)),
                // Cubes onto crews are place_cube_on_crew's.
                _ => (Owner::Seats(Set::Everyone), "rearmost", ("planet", Set::WithRoom)),
            };
            let (planet, crew) = if on.0 == "planet" { (set(on.1), ParamValue::None) } else { (ParamValue::None, set(on.1)) };
            spec.with("owner", owner(who)).with("planet", planet).with("square", text(square)).with("crew", crew).bounded(0, 0, 0)
        }
        "place_cube_on_crew" => {
            let who = if rng.below(2) == 0 { Owner::Seats(Set::OtherSeats) } else { Owner::Free };
            spec.with("owner", owner(who)).with("crew", set(Set::OtherCrews)).bounded(0, 0, 0)
        }
        "collect_free_cubes" => {
            spec.with("crew", set(if rng.below(2) == 0 { Set::AllCrews } else { Set::OtherCrews })).bounded(12, 0, 0)
        }
        "may_skip_planets" => {
            let at_most = if rng.below(2) == 0 { ParamValue::None } else { int(rng.below(3) as i64) };
            spec.with("at_most", at_most).bounded(0, 0, 0)
        }
        "set_survey_direction" => {
            spec.with("direction", text(["either", "clockwise", "counter_clockwise"][rng.below(3)])).bounded(0, 0, 0)
        }
        "survey_start" => {
            let planet = match rng.below(3) {
                0 => Set::AllPlanets,
                1 => Set::WithRoom,
                _ => Set::Where(SetKind::Planets, Box::new(Condition::HasCube(Owner::Seats(Set::Me))), Box::new(Set::AllPlanets)),
            };
            let before = if rng.below(2) == 0 {
                Vec::new()
            } else {
                let free = EffectSpec::new("place_cube", when)
                    .with("owner", owner(Owner::Free))
                    .with("planet", set(Set::ThisPlanet))
                    .with("square", text("rearmost"));
                vec![free]
            };
            spec.with("planet", set(planet))
                .with("cubes", int(1 + rng.below(3) as i64))
                .with("before_walk", ParamValue::Effects(before))
                .bounded(0, 0, 0)
        }
        "close_crew" => spec.with("crew", set(if rng.below(2) == 0 { Set::UnpickedCrews } else { Set::OtherCrews })).bounded(0, 0, 0),
        "protect_cubes" => spec.with("until", text(if rng.below(2) == 0 { "turn_end" } else { "round_end" })).bounded(0, 0, 0),
        // At most the best other skill: two effects of at most 16 VP and -6..6 survey each.
        "use_skill" => spec.with("crew", set(Set::OtherCrews)).bounded(40, -12, 12),
        "for_each" | "choose" => {
            let (key, over, body) = match rng.below(3) {
                0 => {
                    let back = EffectSpec::new("return_cube", when)
                        .with("planet", set(Set::ThisPlanet))
                        .with("owner", owner(owner_drawn(rng)))
                        .with("to", text("hand"));
                    ("planet", Set::Where(SetKind::Planets, Box::new(Condition::HasCube(Owner::Anyone)), Box::new(Set::AllPlanets)), back)
                }
                1 => {
                    let take = EffectSpec::new("take_vp", when).with("vp", int(1)).with("from", set(Set::ThisSeat));
                    ("seat", Set::OtherSeats, take)
                }
                _ => ("crew", Set::AllCrews, EffectSpec::new("collect_free_cubes", when).with("crew", set(Set::ThisCrew))),
            };
            let mut spec = spec.with("planet", ParamValue::None).with("seat", ParamValue::None).with("crew", ParamValue::None);
            spec = spec.with(key, set(over)).with("do", ParamValue::Effects(vec![body]));
            spec.bounded(if name == "for_each" { 16 } else { 12 }, 0, 0)
        }
        "if" => {
            let condition = Condition::Compare(Comparison::AtLeast, Amount::Hand(Set::Me), Amount::Number(rng.below(8) as i64));
            let then = language_effect(rng, "move_cube", when);
            let otherwise = language_effect(rng, "return_cube", when);
            spec.with("condition", ParamValue::Condition(condition))
                .with("then", ParamValue::Effects(vec![then]))
                .with("else", ParamValue::Effects(vec![otherwise]))
                .bounded(0, 0, 0)
        }
        other => effect(other, when),
    }
}

fn text(value: &str) -> ParamValue {
    ParamValue::Text(value.into())
}

/// A ruleset shaped like the bundled draft 7 (same tracks, one crew per effect type), for
/// the crate's tests, examples and profiling; the real draft 7 reaches the kernel from Python.
pub fn draft_like() -> Game {
    shaped_like_draft(true)
}

/// `draft_like` with no skills but Armstrong's, as the bundled base ruleset plays.
pub fn plain_like() -> Game {
    shaped_like_draft(false)
}

fn shaped_like_draft(skills: bool) -> Game {
    let colours: Vec<String> = ["red", "blue", "yellow", "green", "black", "white"].map(String::from).to_vec();
    let tracks: [&[i64]; 14] = [
        &[1, 3, 0, 5, 7, 0],
        &[2, 0, 4, 6, 0, 9],
        &[1, 2, 4, 0, 7, 8],
        &[1, 2, 3, 4, 5],
        &[1, 2, 3, 4, 5, 6],
        &[2, 3, 4, 5, 0],
        &[0, 2, 4, 0, 6, 8, 0],
        &[1, 0, 3, 5, 0, 8],
        &[2, 4, 0, 6, 8],
        &[1, 1, 2, 3, 4, 5, 6],
        &[1, 2, 2, 3, 5, 6, 7],
        &[1, 2, 3, 3, 4, 6, 8],
        &[0, 3, 0, 6, 0, 10],
        &[2, 3, 4, 5, 6, 7, 9],
    ];
    let planets = tracks
        .iter()
        .enumerate()
        .map(|(i, track)| PlanetSpec {
            id: format!("p{i}"),
            colour: colours[(i / 3).min(5)].clone(),
            track: track.to_vec(),
            special_capacity: if i == 13 { 2 } else { 1 },
            ..Default::default()
        })
        .collect();
    let choose_one = effect("choose_one", "on_choose").with(
        "options",
        ParamValue::Options(vec![
            vec![effect("gain_vp", "on_choose").with("vp", int(2))],
            vec![effect("place_on_special", "on_choose")],
        ]),
    );
    let crew_skills: Vec<(i64, Vec<EffectSpec>)> = vec![
        (3, vec![effect("choose_direction", "survey")]),
        (2, vec![effect("place_on_special", "after_survey").with("planets", text("surveyed"))]),
        (2, vec![effect("gain_vp", "on_choose").with("vp", int(2)), effect("place_on_crew", "on_choose")]),
        (3, vec![effect("may_skip_planets", "survey")]),
        (3, vec![effect("allow_repeat_planet", "survey")]),
        (2, vec![effect("place_free_cubes", "on_choose").with("count", int(2))]),
        (2, vec![effect("gain_vp", "after_survey").with("vp", int(2))]),
        (2, vec![effect("gain_vp", "on_choose").with("vp", int(1)), effect("add_free_cubes", "on_choose")]),
        (2, vec![choose_one]),
        (2, vec![effect("place_on_special", "on_choose").with("planets", text("colour")).with("colour", text("blue"))]),
        (2, vec![effect("change_survey_count", "survey").with("delta", int(1))]),
    ];
    let mut crew = vec![CrewSpec {
        id: "armstrong".into(),
        survey_count: 2,
        always_in_play: true,
        skill: vec![effect("name_start_player", "round_end")],
    }];
    for (i, (survey_count, skill)) in crew_skills.into_iter().enumerate() {
        let skill = if skills { skill } else { Vec::new() };
        crew.push(CrewSpec { id: format!("c{i}"), survey_count, always_in_play: false, skill });
    }
    let spec = RulesSpec {
        name: "draft7".into(),
        colours,
        planets,
        crew,
        setups: vec![(3, 5, 4, 3), (4, 7, 5, 4)],
        cubes_per_player: 12,
        free_cubes: 12,
        max_free_cubes_per_crew: 3,
        free_cube_vp: 1,
        player_cube_vp: 2,
        survey_minimum: 0,
        max_rounds: 30,
        turn_order_vp: vec![0; 4],
        ability_vp: 0,
    };
    Game::new(Rules::compile(&spec).expect("the spec compiles"))
}


/// The rules language's effect types, the two older ones that take an amount, this turn's
/// survey's words and its lasting effects.
const LANGUAGE: [&str; 19] = [
    "may_skip_planets",
    "set_survey_direction",
    "survey_start",
    "choose",
    "close_crew",
    "protect_cubes",
    "use_skill",
    "collect_free_cubes",
    "for_each",
    "if",
    "lose_vp",
    "move_cube",
    "place_cube",
    "place_cube_on_crew",
    "return_cube",
    "set_survey_count",
    "take_vp",
    "gain_vp",
    "change_survey_count",
];

/// A ruleset drawn from `seed`: 1-6 colours, tracks of 1-8 squares (accidents included),
/// special squares of 0-2, each crew with one or two effects of any type and timing (the rules
/// language's with sets that take cubes off tracks, move them and place them), 3-5 players
/// with 3-8 Planets; for the kernel's properties over rulesets nobody wrote.
pub fn generated(seed: u64) -> Game {
    let mut rng = Rng::new(seed);
    let colours: Vec<String> = (0..1 + rng.below(6)).map(|c| format!("c{c}")).collect();
    let setups: Vec<(i64, i64, i64, i64)> = (3..=3 + rng.below(3))
        .map(|players| (players as i64, 3 + rng.below(6) as i64, players as i64 + 1, 1 + rng.below(players) as i64))
        .collect();
    let most_planets = setups.iter().map(|s| s.1 as usize).max().unwrap_or(3);
    let planets = (0..most_planets + rng.below(3))
        .map(|i| PlanetSpec {
            id: format!("p{i}"),
            colour: colours[rng.below(colours.len())].clone(),
            track: (0..1 + rng.below(8)).map(|_| if rng.below(4) == 0 { 0 } else { rng.below(10) as i64 }).collect(),
            special_capacity: rng.below(3) as i64,
            ..Default::default()
        })
        .collect();
    let timings = ["on_choose", "survey", "after_survey", "round_end"];
    let draw_effect = |rng: &mut Rng, nested: bool| -> EffectSpec {
        let names = &crate::EFFECT_NAMES;
        let mut name = names[rng.below(names.len())];
        if nested && name == "choose_one" {
            name = "gain_vp";
        }
        let when = timings[rng.below(timings.len())];
        let spec = effect(name, when);
        // gain_vp and change_survey_count take a plain number half of the time.
        if LANGUAGE.contains(&name) && (!matches!(name, "gain_vp" | "change_survey_count") || rng.below(2) == 0) {
            return language_effect(rng, name, when);
        }
        match name {
            "add_free_cubes" | "place_free_cubes" | "place_on_crew" => spec.with("count", int(1 + rng.below(3) as i64)),
            "change_survey_count" => spec.with("delta", int(rng.below(4) as i64 - 1)),
            "gain_vp" => spec.with("vp", int(rng.below(4) as i64)),
            "place_on_special" => match rng.below(3) {
                0 => spec,
                1 => spec.with("planets", text("surveyed")),
                _ => spec.with("planets", text("colour")).with("colour", text(&format!("c{}", rng.below(colours.len())))),
            },
            _ => spec,
        }
    };
    let mut crew = vec![CrewSpec {
        id: "armstrong".into(),
        survey_count: 2,
        always_in_play: true,
        skill: vec![effect("name_start_player", "round_end")],
    }];
    let most_crew = setups.iter().map(|s| s.2 as usize).max().unwrap_or(4);
    for i in 0..most_crew + rng.below(3) {
        let mut skill = Vec::new();
        let mut starts = 0;
        // A skill holds at most one survey_start (the Python loader's check): a second becomes
        // choose_direction.
        let mut once = |spec: EffectSpec| {
            if spec.name != "survey_start" {
                return spec;
            }
            starts += 1;
            if starts == 1 { spec } else { effect("choose_direction", &spec.when) }
        };
        for _ in 0..1 + rng.below(2) {
            let mut spec = once(draw_effect(&mut rng, false));
            if spec.name == "choose_one" {
                let options = (0..2).map(|_| vec![once(draw_effect(&mut rng, true))]).collect();
                spec = spec.with("options", ParamValue::Options(options));
            }
            skill.push(spec);
        }
        crew.push(CrewSpec { id: format!("k{i}"), survey_count: 1 + rng.below(4) as i64, always_in_play: false, skill });
    }
    let spec = RulesSpec {
        name: format!("generated{seed}"),
        colours,
        planets,
        crew,
        setups,
        cubes_per_player: 6 + rng.below(8) as i64,
        free_cubes: rng.below(13) as i64,
        max_free_cubes_per_crew: 1 + rng.below(3) as i64,
        free_cube_vp: 1,
        player_cube_vp: 2,
        survey_minimum: rng.below(2) as i64,
        max_rounds: 30,
        turn_order_vp: vec![0; 5],
        ability_vp: 0,
    };
    Game::new(Rules::compile(&spec).expect("a generated spec compiles"))
}
