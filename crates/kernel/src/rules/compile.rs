//! `Rules::compile`: the specs checked against the kernel's vocabulary and limits and turned
//! into flat tables and effect nodes; a ruleset past them is refused as `Unsupported`.

use std::collections::HashMap;

use super::{Timing, Op, Node, SETUP_CARD, Planet, Event, LANDING_EVENTS, Trigger, Abilities, Crew, PlayerCount, TriggerSpec, SetupSpec, RulesSpec, Majority, Formula, Bonus, End, EndCheck, ScoringLine, MOST_SCORING_LINES, ROUND_LIMIT_NAME, MOST_END_TRIGGERS, Rules, unsupported, small, VALUE_LIMIT};
use super::effects::{act_of, compile_list};
use crate::error::{KernelError};
use crate::expr::Magnitudes;
use crate::limits::{MAX_PLAYERS, MAX_PLANETS, MAX_CREW, MAX_COLOURS, MAX_BOARD};

/// The game's end as received, refused past the state's trigger bits or with a trigger id twice
/// or the round limit's own (the loader refuses each first).
fn end_of(end: &End) -> Result<End, KernelError> {
    let ids: Vec<&str> = end.triggers.iter().map(|t| t.id.as_str()).collect();
    if ids.len() > MOST_END_TRIGGERS {
        return Err(unsupported(format!("end: {} conditions, beyond the kernel's {MOST_END_TRIGGERS}", ids.len())));
    }
    for (i, id) in ids.iter().enumerate() {
        if *id == ROUND_LIMIT_NAME || ids[..i].contains(id) {
            return Err(unsupported(format!("end: trigger id {id:?} twice or the round limit's own")));
        }
    }
    Ok(end.clone())
}

fn end_scoring_of(lines: &[ScoringLine]) -> Result<Vec<ScoringLine>, KernelError> {
    if lines.len() > MOST_SCORING_LINES {
        return Err(unsupported(format!("end_scoring: {} lines, beyond the kernel's {MOST_SCORING_LINES}", lines.len())));
    }
    Ok(lines.to_vec())
}

/// A card's triggers, each event among `known` (a planet's or a crew's), compiled in card order;
/// `crew_ids` are the ruleset's crews (file order), which a crew's `another_pick` may name.
fn triggers_of(specs: &[TriggerSpec], known: &[Event], what: &str, id: &str, crew_ids: &[String]) -> Result<Vec<Trigger>, KernelError> {
    let mut triggers = Vec::with_capacity(specs.len());
    for trigger in specs {
        let event = match trigger.event.as_str() {
            "cube_placed" => Event::CubePlaced,
            "becomes_full" => Event::BecomesFull,
            "round_end" => Event::RoundEnd,
            "game_end" => Event::GameEnd,
            "another_pick" => Event::AnotherPick,
            other => return Err(unsupported(format!("{what} {id:?}: unknown event {other:?}"))),
        };
        if !known.contains(&event) {
            return Err(unsupported(format!("{what} {id:?}: no {} trigger waits for {:?}", what, trigger.event)));
        }
        if !trigger.crew.is_empty() && event != Event::AnotherPick {
            return Err(unsupported(format!("{what} {id:?}: only another_pick names crews, not {:?}", trigger.event)));
        }
        let crew = trigger
            .crew
            .iter()
            .map(|name| {
                crew_ids
                    .iter()
                    .position(|known| known == name)
                    .map(|card| card as u16)
                    .ok_or_else(|| unsupported(format!("{what} {id:?}: another_pick names the unknown crew {name:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let body = trigger.body.iter().map(act_of).collect::<Result<Vec<_>, _>>()?;
        triggers.push(Trigger { event, square: trigger.square.clamp(-1, 1024) as i32, body, crew });
    }
    Ok(triggers)
}

impl Rules {
    /// Check a ruleset spec against the kernel's vocabulary and limits and compile it.
    pub fn compile(spec: &RulesSpec) -> Result<Rules, KernelError> {
        if spec.colours.len() > MAX_COLOURS {
            return Err(unsupported(format!(
                "{} colours are beyond the kernel's limit of {MAX_COLOURS}",
                spec.colours.len()
            )));
        }
        let colour_of = |id: &str| spec.colours.iter().position(|c| c == id).map(|i| i as u16);
        let mut planets = Vec::with_capacity(spec.planets.len());
        for card in &spec.planets {
            let colour = colour_of(&card.colour)
                .ok_or_else(|| unsupported(format!("planet {:?}: unknown colour {:?}", card.id, card.colour)))?;
            let values = card
                .track
                .iter()
                .map(|&v| small(v, &format!("planet {:?} track value", card.id), VALUE_LIMIT))
                .collect::<Result<Vec<_>, _>>()?;
            if values.is_empty() || values.len() > 1024 || card.special_capacity < 0 || card.special_capacity > 1024 {
                return Err(unsupported(format!(
                    "planet {:?}: a track of {} squares and a special square of {} are beyond the kernel's limits (1..1024 each)",
                    card.id,
                    values.len(),
                    card.special_capacity
                )));
            }
            let factor = match card.majority_factor {
                0 => 1, // a spec without abilities
                f @ 1..=100 => f as i32,
                f => return Err(unsupported(format!("planet {:?}: majority_factor {f} is beyond the kernel's limits", card.id))),
            };
            let mut counts_toward = 0u32;
            for id in &card.counted_colours {
                let counted = colour_of(id).ok_or_else(|| unsupported(format!("planet {:?}: unknown counted colour {id:?}", card.id)))?;
                counts_toward |= 1 << counted;
            }
            let triggers = triggers_of(&card.triggers, &[Event::CubePlaced, Event::BecomesFull, Event::RoundEnd, Event::GameEnd], "planet", &card.id, &[])?;
            let lands = triggers.iter().any(|t| matches!(t.event, Event::CubePlaced | Event::BecomesFull));
            planets.push(Planet {
                id: card.id.clone(),
                values: values.iter().map(|v| v * factor).collect(),
                special_capacity: card.special_capacity as u32,
                colour,
                counts_toward,
                no_survey_start: card.no_survey_start,
                abilities: Abilities { triggers, lands },
            });
        }
        let mut nodes: Vec<Node> = Vec::new();
        let mut crew = Vec::with_capacity(spec.crew.len());
        let crew_ids: Vec<String> = spec.crew.iter().map(|card| card.id.clone()).collect();
        let crew_events = [Event::AnotherPick, Event::CubePlaced, Event::BecomesFull, Event::RoundEnd, Event::GameEnd];
        for (index, card) in spec.crew.iter().enumerate() {
            let triggers = triggers_of(&card.triggers, &crew_events, "crew", &card.id, &crew_ids)?;
            let top = compile_list(&card.skill, index as u16, &[], &spec.colours, &mut nodes)?;
            let by = |timings: &[Timing]| -> Vec<u16> {
                top.iter().copied().filter(|&n| timings.contains(&nodes[n as usize].timing)).collect()
            };
            crew.push(Crew {
                id: card.id.clone(),
                survey_count: small(card.survey_count, &format!("crew {:?} survey_count", card.id), VALUE_LIMIT)?,
                always_in_play: card.always_in_play,
                on_pick: by(&[Timing::Survey, Timing::OnChoose]),
                after_survey: by(&[Timing::AfterSurvey]),
                round_end: by(&[Timing::RoundEnd]),
                survey_start: {
                    let mut starts = (0..nodes.len() as u16)
                        .filter(|&n| nodes[n as usize].card == index as u16 && matches!(nodes[n as usize].op, Op::SurveyStart { .. }));
                    let first = starts.next();
                    if starts.next().is_some() {
                        return Err(unsupported(format!("crew {:?}: a skill holds at most one survey_start", card.id)));
                    }
                    first
                },
                borrowable: false,
                events: triggers.iter().fold(0, |events, t| events | t.event.bit()),
                triggers,
            });
        }
        let setup_steps = compile_list(&spec.setup_steps, SETUP_CARD, &[], &spec.colours, &mut nodes)?;
        let mut setups = Vec::new();
        for &SetupSpec { players, planets: planet_count, crew: crew_count, full_planets_to_end: full } in &spec.setups {
            let always = spec.crew.iter().filter(|c| c.always_in_play).count() as i64;
            if players < 1
                || players as usize > MAX_PLAYERS
                || planet_count as usize > MAX_PLANETS
                || (crew_count + always) as usize > MAX_CREW
                || planet_count < 0
                || crew_count < 0
            {
                return Err(unsupported(format!(
                    "{players} players with {planet_count} Planets and {} crew are beyond the kernel's limits ({MAX_PLAYERS} players, {MAX_PLANETS} Planets, {MAX_CREW} crew)",
                    crew_count + always
                )));
            }
            setups.push(PlayerCount {
                players: players as usize,
                planets: planet_count as usize,
                crew: crew_count as usize,
                full_planets_to_end: full.max(0) as usize,
            });
        }
        let always_in_play = spec.crew.iter().filter(|c| c.always_in_play).count();
        let bounds = spec.bounds.checked(&setups, always_in_play)?;
        let action_sizes = spec.action_sizes.checked()?;
        let action_layout = spec.action_layout.checked()?;
        let board_worst: i64 = {
            let mut lengths: Vec<i64> = spec.planets.iter().map(|p| p.track.len() as i64 + p.special_capacity).collect();
            lengths.sort_unstable_by(|a, b| b.cmp(a));
            lengths.iter().take(bounds.most_planets).sum()
        };
        if board_worst as usize > MAX_BOARD {
            return Err(unsupported(format!(
                "the dealt Planets may hold {board_worst} squares, beyond the kernel's limit of {MAX_BOARD}"
            )));
        }
        let most_players = bounds.most_players;
        if spec.turn_order_vp.len() < most_players {
            return Err(unsupported(format!(
                "setup.turn_order_vp has {} values, but the largest table seats {most_players}: one per turn position is needed",
                spec.turn_order_vp.len()
            )));
        }
        let turn_order_vp = spec
            .turn_order_vp
            .iter()
            .take(most_players)
            .map(|&vp| match vp {
                0..=VALUE_LIMIT => Ok(vp as i32),
                _ => Err(unsupported(format!("setup.turn_order_vp = {vp} is beyond the kernel's limits (0..{VALUE_LIMIT})"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        // A landing on any Planet may set off a crew's landing triggers (while it is held).
        let crews_land = crew.iter().any(|c| c.events & LANDING_EVENTS != 0);
        for planet in planets.iter_mut() {
            planet.abilities.lands |= crews_land;
        }
        let any_lands = planets.iter().any(|p| p.abilities.lands);
        let has = |event| planets.iter().any(|p| p.abilities.triggers.iter().any(|t| t.event == event));
        let crew_has = |event: Event| crew.iter().any(|c| c.events & event.bit() != 0);
        let (any_another_pick, any_crew_round_end) = (crew_has(Event::AnotherPick), crew_has(Event::RoundEnd));
        let any_crew_game_end = crew_has(Event::GameEnd);
        let (any_round_end, any_game_end) = (has(Event::RoundEnd), has(Event::GameEnd));
        let any_no_start = planets.iter().any(|p| p.no_survey_start);
        for (index, card) in crew.iter_mut().enumerate() {
            let mut own = nodes.iter().filter(|node| node.card as usize == index).peekable();
            let has_skill = own.peek().is_some();
            card.borrowable = !card.always_in_play && has_skill && !own.any(|node| matches!(node.op, Op::UseSkill(_)));
        }
        let mut node_index = HashMap::new();
        for (id, node) in nodes.iter().enumerate() {
            node_index.insert((node.card, node.path.clone()), id as u16);
        }
        let always = (0..crew.len() as u16).filter(|&i| crew[i as usize].always_in_play).collect();
        let dealable = (0..crew.len() as u16).filter(|&i| !crew[i as usize].always_in_play).collect();
        if spec.unpicked_crews.replaced {
            let dealable_count: usize = spec.crew.iter().filter(|c| !c.always_in_play).count();
            let least_dealt = setups.iter().map(|s| s.crew).min().unwrap_or(0);
            if dealable_count.saturating_sub(least_dealt) > crate::limits::MAX_QUEUE {
                return Err(unsupported(format!(
                    "at_cap: replaced queues up to {} crew cards not dealt, beyond the kernel's limit of {}",
                    dealable_count.saturating_sub(least_dealt),
                    crate::limits::MAX_QUEUE
                )));
            }
        }
        let majority = Majority::compile(&spec.majority)?;
        let bonus = Bonus::compile(&spec.bonus)?;
        let sets_of_several = matches!(bonus.formula, Formula::DistinctColourSets { .. })
            && planets.iter().any(|planet: &Planet| planet.counts_toward.count_ones() > 1);
        let knobs = spec
            .knobs
            .checked()
            .map_err(|(path, value, most)| unsupported(format!("{path} = {value} is beyond the kernel's limit of {most}")))?;
        let end_checks = spec.end.triggers.iter().map(|trigger| EndCheck::of(&trigger.condition, &setups)).collect();
        let rules = Rules {
            name: spec.name.clone(),
            colours: spec.colours.clone(),
            planets,
            crew,
            nodes,
            setups,
            knobs,
            max_free_cubes_per_crew: small(spec.max_free_cubes_per_crew, "max_free_cubes_per_crew", 1 << 20)?,
            unpicked_crews: spec.unpicked_crews.clone(),
            round_end_effects: spec.round_end_effects.iter().map(act_of).collect::<Result<Vec<_>, _>>()?,
            end: end_of(&spec.end)?,
            end_checks,
            end_scoring: end_scoring_of(&spec.end_scoring)?,
            turn_order_vp,
            majority,
            majority_is_r15_r16: majority == Majority::default(),
            bonus_is_r17: bonus == Bonus::default(),
            sets_of_several,
            bonus,
            setup_steps,
            any_lands,
            any_round_end,
            any_game_end,
            any_another_pick,
            any_crew_round_end,
            any_crew_game_end,
            any_no_start,
            bounds,
            action_sizes,
            action_layout,
            always,
            dealable,
            node_index,
        };
        let b = &rules.bounds;
        let magnitudes = Magnitudes {
            seats: b.most_players as f64,
            vp: b.most_vp as f64,
            // Cubes one seat has: its own, and the stock's when it may take them (idea R8).
            cubes: b.most_hand as f64,
            free_cubes: rules.knobs.free_cubes as f64,
            longest_track: rules.planets.iter().map(Planet::length).max().unwrap_or(0) as f64,
            rounds: rules.knobs.max_rounds as f64,
        };
        if let Some(node) = rules.nodes.iter().find(|node| !node.op.exact(&magnitudes)) {
            return Err(unsupported(format!(
                "effect {:?}: an amount could pass the kernel's 64-bit arithmetic",
                node.name
            )));
        }
        for planet in &rules.planets {
            if planet.abilities.triggers.iter().any(|t| t.body.iter().any(|act| !act.exact(&magnitudes))) {
                return Err(unsupported(format!("planet {:?}: an amount could pass the kernel's 64-bit arithmetic", planet.id)));
            }
        }
        for card in &rules.crew {
            if card.triggers.iter().any(|t| t.body.iter().any(|act| !act.exact(&magnitudes))) {
                return Err(unsupported(format!("crew {:?}: an amount could pass the kernel's 64-bit arithmetic", card.id)));
            }
        }
        for trigger in &rules.end.triggers {
            if !trigger.condition.exact(&magnitudes) {
                return Err(unsupported(format!("end {:?}: an amount could pass the kernel's 64-bit arithmetic", trigger.id)));
            }
        }
        for line in &rules.end_scoring {
            if !line.vp.exact(&magnitudes) {
                return Err(unsupported(format!("end_scoring {:?}: an amount could pass the kernel's 64-bit arithmetic", line.id)));
            }
        }
        Ok(rules)
    }

    /// The setup counts for `players`, or the Python engine's `SetupError` message.
    pub fn setup_counts(&self, players: usize) -> Result<PlayerCount, KernelError> {
        self.setups.iter().copied().find(|s| s.players == players).ok_or_else(|| {
            let mut counts: Vec<usize> = self.setups.iter().map(|s| s.players).collect();
            counts.sort_unstable();
            let supported: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
            KernelError::Setup(format!(
                "{players} players are not supported by this ruleset (supported: {})",
                supported.join(", ")
            ))
        })
    }

    /// The node at `path` of crew card `card`'s skill, if there is one.
    pub fn node_at(&self, card: u16, path: &[u16]) -> Option<u16> {
        self.node_index.get(&(card, path.to_vec())).copied()
    }

    pub fn colour_count(&self) -> usize {
        self.colours.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Set;
    use crate::rules::{complete_sets, ActionSizes, BonusSpec, Bounds, CrewSpec, EffectSpec, KnobSpecs, MajoritySpec, ParamValue, PlanetSpec, Ties, EFFECT_NAMES, EFFECT_TYPES, MOST_VP};

    fn spec_with(skill: Vec<EffectSpec>) -> RulesSpec {
        RulesSpec {
            name: "t".into(),
            colours: vec!["red".into()],
            planets: vec![PlanetSpec { id: "a".into(), colour: "red".into(), track: vec![1, 2], special_capacity: 1, counted_colours: vec!["red".into()], ..Default::default() }],
            crew: vec![CrewSpec { id: "c".into(), survey_count: 1, always_in_play: false, skill, triggers: Vec::new() }],
            setups: vec![setup(1)],
            knobs: KnobSpecs { cubes_per_player: 4, free_cubes: 4, max_rounds: 3, ..Default::default() },
            max_free_cubes_per_crew: 1,
            turn_order_vp: vec![0],
            // The largest table received (Python's numbers: the kernel checks that setups fit).
            bounds: Bounds { most_players: 1, most_planets: 1, most_crew: 1, ..Default::default() },
            action_sizes: ActionSizes { directions: 1, ..Default::default() },
            ..Default::default()
        }
    }

    fn setup(players: i64) -> SetupSpec {
        SetupSpec { players, planets: 1, crew: 1, full_planets_to_end: 1 }
    }

    #[test]
    fn the_names_come_from_the_table_alphabetised() {
        let names: Vec<&str> = EFFECT_TYPES.iter().map(|kind| kind.name).collect();
        assert_eq!(names, EFFECT_NAMES.to_vec());
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted);
    }

    #[test]
    fn a_parameter_python_did_not_send_is_refused_never_defaulted() {
        let error = Rules::compile(&spec_with(vec![EffectSpec::new("place_on_crew", "on_choose")])).unwrap_err();
        assert_eq!(error, KernelError::Unsupported("effect \"place_on_crew\": parameter \"count\" is missing".into()));
        let effect = EffectSpec::new("gain_vp", "on_choose").with("vp", ParamValue::Text("2".into())).with("to", ParamValue::Set(Set::Me));
        let error = Rules::compile(&spec_with(vec![effect])).unwrap_err();
        assert_eq!(error, KernelError::Unsupported("effect \"gain_vp\": parameter \"vp\" is not an amount".into()));
    }

    #[test]
    fn turn_order_vp_needs_a_value_per_seat_of_the_largest_table() {
        let mut spec = spec_with(Vec::new());
        spec.setups = vec![setup(1), setup(2)];
        spec.bounds.most_players = 2;
        spec.crew.push(CrewSpec { id: "d".into(), survey_count: 1, always_in_play: false, skill: Vec::new(), triggers: Vec::new() });
        spec.turn_order_vp = vec![3];
        let error = Rules::compile(&spec).unwrap_err();
        let expected = "setup.turn_order_vp has 1 values, but the largest table seats 2: one per turn position is needed";
        assert_eq!(error, KernelError::Unsupported(expected.into()));
        spec.turn_order_vp = vec![0, -1];
        let error = Rules::compile(&spec).unwrap_err();
        assert_eq!(error, KernelError::Unsupported(format!("setup.turn_order_vp = -1 is beyond the kernel's limits (0..{VALUE_LIMIT})")));
        // A value past the largest table is never used, nor kept.
        spec.turn_order_vp = vec![2, 5, 900];
        let rules = Rules::compile(&spec).unwrap();
        assert_eq!(rules.turn_order_vp, vec![2, 5]);
    }

    #[test]
    fn the_majority_is_compiled_with_one_share_per_rank_and_an_unknown_tie_rule_refused() {
        let mut spec = spec_with(Vec::new());
        assert_eq!(Rules::compile(&spec).unwrap().majority, Majority::default());
        spec.majority = MajoritySpec { ties: "shared".into(), row_step: 2, rank_percent: vec![100, 50], accident_vp: -2, free_cubes_take_a_row: false };
        let majority = Rules::compile(&spec).unwrap().majority;
        assert_eq!((majority.ties, majority.row_step, majority.accident_vp, majority.free_cubes_take_a_row), (Ties::Shared, 2, -2, false));
        // Ranks past the list score like its last entry.
        assert_eq!(majority.rank_percent, [100, 50, 50, 50, 50, 50, 50, 50, 50]);
        spec.majority.ties = "first_cube_further_bak".into();
        let error = Rules::compile(&spec).unwrap_err();
        assert_eq!(error, KernelError::Unsupported("majority.ties: unknown tie rule \"first_cube_further_bak\"".into()));
    }

    #[test]
    fn the_bonus_is_compiled_by_name_and_an_unknown_formula_refused() {
        let mut spec = spec_with(Vec::new());
        let rules = Rules::compile(&spec).unwrap();
        assert!(rules.bonus_is_r17 && rules.bonus == Bonus::default());
        spec.bonus = BonusSpec { squares: "normal".into(), formula: "distinct_colour_sets".into(), set_size: 4, set_vp: 3, vp_by_count: Vec::new() };
        let rules = Rules::compile(&spec).unwrap();
        assert_eq!(rules.bonus, Bonus { normal: true, special: false, formula: Formula::DistinctColourSets { size: 4, vp: 3 } });
        assert!(!rules.bonus_is_r17);
        // Ideas R4: counts giving 0, 1 and 2 complete sets of four colours.
        assert_eq!([[3, 2, 1, 0, 0], [3, 1, 1, 1, 0], [3, 2, 2, 2, 0]].map(|c| rules.bonus.vp(&c, &[])), [0, 3, 6]);
        spec.bonus = BonusSpec { formula: "vp_by_count".into(), vp_by_count: vec![1, 4], ..BonusSpec::default() };
        let rules = Rules::compile(&spec).unwrap();
        assert_eq!([[0, 0], [1, 1], [2, 0], [3, 1]].map(|c| rules.bonus.vp(&c, &[])), [0, 1, 4, 4]);
        assert_eq!(Bonus::default().vp(&[2, 2, 1], &[]), 4);
        spec.bonus.formula = "largest_group".into();
        let error = Rules::compile(&spec).unwrap_err();
        assert_eq!(error, KernelError::Unsupported("bonus.formula: unknown formula \"largest_group\"".into()));
    }

    #[test]
    fn a_cube_of_several_colours_stands_in_one_set_as_one_of_them() {
        // Counts hold each such cube in every colour it counts toward (P1); a set holds it once.
        let every = 0b11_1111;
        assert_eq!(complete_sets(&[1, 1, 1, 1, 1, 1], 4, &[(every, 1)]), 0);
        assert_eq!(complete_sets(&[2, 2, 2, 1, 1, 1], 4, &[(every, 1)]), 1);
        assert_eq!(complete_sets(&[4, 4, 4, 4, 4, 4], 4, &[(every, 4)]), 1);
        assert_eq!(complete_sets(&[8, 8, 8, 8, 8, 8], 4, &[(every, 8)]), 2);
        // Some colours only: green or yellow for one cube, yellow only for the other.
        assert_eq!(complete_sets(&[1, 1, 1, 2], 4, &[(0b1100, 1), (0b1000, 1)]), 1);
        assert_eq!(complete_sets(&[1, 1, 0, 2], 4, &[(0b1000, 1), (0b1000, 1)]), 0);
        // An augmenting path: the first cube takes green, the second (green only) moves it on to yellow.
        assert_eq!(complete_sets(&[1, 1, 2, 1], 4, &[(0b1100, 1), (0b0100, 1)]), 1);
    }

    #[test]
    fn the_bounds_and_action_sizes_are_kept_as_received_and_refused_only_past_the_kernels_types() {
        let mut spec = spec_with(Vec::new());
        spec.bounds.most_vp = 12_345;
        spec.bounds.most_turn_decisions = 77;
        spec.action_sizes.options = 5;
        let rules = Rules::compile(&spec).unwrap();
        assert_eq!((rules.bounds, rules.action_sizes), (spec.bounds, spec.action_sizes));
        let mut beyond = spec.clone();
        beyond.bounds.most_vp = MOST_VP + 1;
        let expected = format!("a seat may score {} VP in play, beyond the kernel's limit of {MOST_VP}", MOST_VP + 1);
        assert_eq!(Rules::compile(&beyond).unwrap_err(), KernelError::Unsupported(expected));
        let mut small_table = spec.clone();
        small_table.setups = vec![setup(3)];
        small_table.turn_order_vp = vec![0; 3];
        let expected = "bounds: the setup of 3 players does not fit the largest table received (1 players, 1 Planets, 1 crew)";
        assert_eq!(Rules::compile(&small_table).unwrap_err(), KernelError::Unsupported(expected.into()));
        let mut directions = spec.clone();
        directions.action_sizes.directions = 3;
        let error = Rules::compile(&directions).unwrap_err().to_string();
        assert!(error.starts_with("action sizes ActionSizes {") && error.contains("directions: 3"), "{error}");
    }

    #[test]
    fn a_counted_effect_resolves_count_times_and_its_node_keeps_its_name() {
        let effect = EffectSpec::new("place_free_cubes", "on_choose").with("count", ParamValue::Int(3));
        let rules = Rules::compile(&spec_with(vec![effect])).unwrap();
        assert_eq!((rules.nodes[0].op.clone(), rules.nodes[0].steps, rules.nodes[0].name), (Op::PlaceFreeCubes, 3, "place_free_cubes"));
    }
}
