//! A fixture ruleset for the kernel's own tests and profiling runs.

use crate::rules::{CrewSpec, EffectSpec, ParamValue, PlanetSpec, RulesSpec};
use crate::{Game, Rules};

/// An effect with every parameter its type declares, at the Python declarations' defaults
/// (as `kernel.native.ruleset_spec` sends them); `with` sets one.
fn effect(name: &str, when: &str) -> EffectSpec {
    let spec = EffectSpec::new(name, when);
    match name {
        "add_free_cubes" | "place_free_cubes" | "place_on_crew" => spec.with("count", ParamValue::Int(1)),
        "place_on_special" => spec
            .with("count", ParamValue::Int(1))
            .with("planets", ParamValue::Text("any".into()))
            .with("colour", ParamValue::None),
        _ => spec,
    }
}

fn int(value: i64) -> ParamValue {
    ParamValue::Int(value)
}

fn text(value: &str) -> ParamValue {
    ParamValue::Text(value.into())
}

/// A ruleset shaped like the bundled draft 7 (same tracks, one crew per effect type), for
/// the crate's tests, examples and profiling; the real draft 7 reaches the kernel from Python.
pub fn draft_like() -> Game {
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
        })
        .collect();
    let choose_one = effect("choose_one", "on_choose").with(
        "options",
        ParamValue::Options(vec![
            vec![effect("gain_vp", "on_choose").with("vp", int(2))],
            vec![effect("place_on_special", "on_choose")],
        ]),
    );
    let skills: Vec<(i64, Vec<EffectSpec>)> = vec![
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
    for (i, (survey_count, skill)) in skills.into_iter().enumerate() {
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
    };
    Game::new(Rules::compile(&spec).expect("the spec compiles"))
}

