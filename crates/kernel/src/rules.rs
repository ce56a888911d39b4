//! The compiled ruleset: every card and knob as flat tables, every skill as effect nodes.
//!
//! Compiled from the ruleset Python compiled (`stargazer_rules.kernel.compiled`, never from the
//! YAML): the bindings read each card and effect into the plain specs below, with the bounds and
//! action-index sizes Python derived, and `Rules::compile` checks them against the kernel's
//! vocabulary and limits, keeping those numbers as received (it derives none of them). An
//! effect type the kernel does not know is refused with `KernelError::Unsupported`, and the
//! ruleset then runs on the Python engine.

use std::collections::HashMap;

use crate::action_index::ActionSizes;
use crate::error::KernelError;
use crate::state::{PROTECTED_ROUND, PROTECTED_TURN};
use crate::expr::{Act, Amount, Comparison, Condition, Magnitudes, Owner, PlaceOn, Set, SetKind};
use crate::{MAX_BOARD, MAX_COLOURS, MAX_CREW, MAX_NODES, MAX_PLANETS, MAX_PLAYERS};

/// When an effect resolves (docs/skills.md, "Timing").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    OnChoose,
    Survey,
    AfterSurvey,
    RoundEnd,
}

impl Timing {
    pub fn parse(name: &str) -> Option<Timing> {
        Some(match name {
            "on_choose" => Timing::OnChoose,
            "survey" => Timing::Survey,
            "after_survey" => Timing::AfterSurvey,
            "round_end" => Timing::RoundEnd,
            _ => return None,
        })
    }
}

/// Which special squares `place_on_special` may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialTarget {
    Any,
    Colour(u16),
    Surveyed,
}

/// One effect operation with its parameters: the built-in vocabulary, one arm per effect type
/// of `stargazer_rules.vocabulary.effects` (the rules language's actions that ask no decision
/// share `Act`), each type with its row in `EFFECT_TYPES`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    AddFreeCubes,
    AllowRepeatPlanet,
    /// A plain number: the fast path of draft 7's skills (an amount to compute is an `Act`).
    ChangeSurveyCount(i32),
    ChooseDirection,
    /// The options, each a list of node ids resolved in order when picked.
    ChooseOne(Vec<Vec<u16>>),
    /// A plain number, as `ChangeSurveyCount`.
    GainVp(i32),
    /// `may_skip_planets` without a limit (with one it is an `Act`).
    MaySkipPlanets,
    NameStartPlayer,
    PlaceFreeCubes,
    PlaceOnCrew,
    PlaceOnSpecial(SpecialTarget),
    /// An effect of the rules language that asks no decision, performed at once; those that
    /// cannot change anything are skipped (R9). Boxed, as `If`'s condition: the nodes of
    /// draft 7's skills stay small.
    Act(Box<Act>),
    /// The branch the condition picks resolves as pending effects, `then` at path (0, i) and
    /// `otherwise` at (1, i), as `choose_one`'s options do.
    If { condition: Box<Condition>, then: Vec<u16>, otherwise: Vec<u16> },
    /// A decision among the members of a set for which the body can be performed (R9); the
    /// body is performed for the chosen one at once.
    Choose { over: Set, body: Vec<Act> },
    /// Where this turn's survey may start, the cubes it puts there first, and the actions
    /// performed on the start Planet before them (`survey_start`); read by the survey while
    /// the `START` flag is set.
    SurveyStart { planets: Set, cubes: i32, before: Vec<Act> },
    /// A decision among the crews of a set whose skill may be applied (`Crew::borrowable`);
    /// the chosen crew's skill resolves as the deciding crew's (`use_skill`).
    UseSkill(Set),
}

/// How many times an effect of a type resolves: once, or `count` times (one cube each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steps {
    Once,
    Count,
}

/// One effect type of the kernel's vocabulary: its name as in the crew YAML, the parser that
/// turns the parameters Python sent (`EffectSpec`) into its `Op`, and its step count.
pub struct EffectType {
    pub name: &'static str,
    parse: fn(&EffectSpec, &mut Compiling<'_>) -> Result<Op, KernelError>,
    pub steps: Steps,
}

/// The kernel's vocabulary, alphabetised: the one list of its effect types, from which
/// `EFFECT_NAMES` and `Rules::compile` both come (a Python test holds it to `EFFECT_TYPES`).
pub const EFFECT_TYPES: [EffectType; 29] = [
    EffectType { name: "add_free_cubes", parse: |_, _| Ok(Op::AddFreeCubes), steps: Steps::Count },
    EffectType { name: "allow_repeat_planet", parse: |_, _| Ok(Op::AllowRepeatPlanet), steps: Steps::Once },
    EffectType { name: "change_survey_count", parse: parse_change_survey_count, steps: Steps::Once },
    EffectType { name: "choose", parse: parse_choose, steps: Steps::Once },
    EffectType { name: "choose_direction", parse: |_, _| Ok(Op::ChooseDirection), steps: Steps::Once },
    EffectType { name: "choose_one", parse: parse_choose_one, steps: Steps::Once },
    EffectType { name: "close_crew", parse: parse_act, steps: Steps::Once },
    EffectType { name: "collect_free_cubes", parse: parse_act, steps: Steps::Once },
    EffectType { name: "for_each", parse: parse_act, steps: Steps::Once },
    EffectType { name: "gain_vp", parse: parse_gain_vp, steps: Steps::Once },
    EffectType { name: "if", parse: parse_if, steps: Steps::Once },
    EffectType { name: "lose_vp", parse: parse_act, steps: Steps::Once },
    EffectType { name: "may_skip_planets", parse: parse_may_skip_planets, steps: Steps::Once },
    EffectType { name: "move_cube", parse: parse_act, steps: Steps::Once },
    EffectType { name: "name_start_player", parse: |_, _| Ok(Op::NameStartPlayer), steps: Steps::Once },
    EffectType { name: "place_cube", parse: parse_act, steps: Steps::Once },
    EffectType { name: "place_cube_on_crew", parse: parse_act, steps: Steps::Once },
    EffectType { name: "place_free_cubes", parse: |_, _| Ok(Op::PlaceFreeCubes), steps: Steps::Count },
    EffectType { name: "place_on_crew", parse: |_, _| Ok(Op::PlaceOnCrew), steps: Steps::Count },
    EffectType { name: "place_on_special", parse: parse_place_on_special, steps: Steps::Count },
    EffectType { name: "protect_cubes", parse: parse_act, steps: Steps::Once },
    EffectType { name: "return_cube", parse: parse_act, steps: Steps::Once },
    EffectType { name: "set_start_player", parse: parse_act, steps: Steps::Once },
    EffectType { name: "set_survey_count", parse: parse_act, steps: Steps::Once },
    EffectType { name: "set_survey_direction", parse: parse_act, steps: Steps::Once },
    EffectType { name: "survey_start", parse: parse_survey_start, steps: Steps::Once },
    EffectType { name: "take_free_cubes", parse: parse_act, steps: Steps::Once },
    EffectType { name: "take_vp", parse: parse_act, steps: Steps::Once },
    EffectType { name: "use_skill", parse: parse_use_skill, steps: Steps::Once },
];

/// The effect type names the kernel knows, as in the crew YAML, alphabetised.
pub const EFFECT_NAMES: [&str; EFFECT_TYPES.len()] = {
    let mut names = [""; EFFECT_TYPES.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = EFFECT_TYPES[i].name;
        i += 1;
    }
    names
};

fn parse_choose_one(effect: &EffectSpec, at: &mut Compiling<'_>) -> Result<Op, KernelError> {
    let mut options = Vec::new();
    for (j, option) in effect.options("options")?.iter().enumerate() {
        let mut sub = at.path.to_vec();
        sub.push(j as u16);
        options.push(compile_list(option, at.card, &sub, at.colours, at.nodes)?);
    }
    Ok(Op::ChooseOne(options))
}

fn parse_gain_vp(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    match (effect.param("vp")?, effect.set("to", SetKind::Seats)?) {
        (ParamValue::Int(vp), Some(Set::Me)) => Ok(Op::GainVp(small(*vp, "gain_vp vp", VALUE_LIMIT)?)),
        _ => Ok(Op::Act(Box::new(act_of(effect)?))),
    }
}

fn parse_change_survey_count(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    match effect.param("delta")? {
        ParamValue::Int(delta) => Ok(Op::ChangeSurveyCount(small(*delta, "change_survey_count delta", VALUE_LIMIT)?)),
        _ => Ok(Op::Act(Box::new(act_of(effect)?))),
    }
}

fn parse_may_skip_planets(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    match effect.param("at_most")? {
        ParamValue::None => Ok(Op::MaySkipPlanets),
        _ => Ok(Op::Act(Box::new(act_of(effect)?))),
    }
}

fn parse_survey_start(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    let planets = effect
        .set("planet", SetKind::Planets)?
        .ok_or_else(|| unsupported("effect \"survey_start\": parameter \"planet\" is none".to_string()))?;
    let cubes = small(effect.int("cubes")?, "survey_start cubes", VALUE_LIMIT)?;
    let before = effect.effects("before_walk")?.iter().map(act_of).collect::<Result<Vec<_>, _>>()?;
    Ok(Op::SurveyStart { planets, cubes, before })
}

fn parse_act(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    Ok(Op::Act(Box::new(act_of(effect)?)))
}

fn parse_if(effect: &EffectSpec, at: &mut Compiling<'_>) -> Result<Op, KernelError> {
    let mut branches = Vec::with_capacity(2);
    for (j, name) in ["then", "else"].into_iter().enumerate() {
        let mut sub = at.path.to_vec();
        sub.push(j as u16);
        branches.push(compile_list(effect.effects(name)?, at.card, &sub, at.colours, at.nodes)?);
    }
    let otherwise = branches.pop().unwrap_or_default();
    let then = branches.pop().unwrap_or_default();
    Ok(Op::If { condition: Box::new(effect.condition("condition")?), then, otherwise })
}

fn parse_use_skill(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    let crews = effect.set("crew", SetKind::Crews)?;
    Ok(Op::UseSkill(crews.ok_or_else(|| unsupported("effect \"use_skill\": parameter \"crew\" is none".to_string()))?))
}

fn parse_choose(effect: &EffectSpec, _: &mut Compiling<'_>) -> Result<Op, KernelError> {
    let (over, body) = over_set(effect)?;
    Ok(Op::Choose { over, body })
}

/// The set of `choose` and `for_each` (one of `planet`, `seat`, `crew`) and their body.
fn over_set(effect: &EffectSpec) -> Result<(Set, Vec<Act>), KernelError> {
    let mut given = Vec::new();
    for (key, kind) in [("planet", SetKind::Planets), ("seat", SetKind::Seats), ("crew", SetKind::Crews)] {
        if let Some(set) = effect.set(key, kind)? {
            given.push(set);
        }
    }
    if given.len() != 1 {
        return Err(unsupported(format!("effect {:?} takes exactly one of planet, seat or crew", effect.name)));
    }
    let body = effect.effects("do")?.iter().map(act_of).collect::<Result<Vec<_>, _>>()?;
    Ok((given.remove(0), body))
}

/// An effect that asks no decision as the kernel performs it, at the top of a skill or in a
/// body: the Python types whose `immediate` is true.
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

fn act_of(effect: &EffectSpec) -> Result<Act, KernelError> {
    let required = |name: &str, kind: SetKind| {
        effect.set(name, kind)?.ok_or_else(|| unsupported(format!("effect {:?}: parameter {name:?} is none", effect.name)))
    };
    Ok(match effect.name.as_str() {
        "gain_vp" => Act::GainVp { vp: effect.amount("vp")?, to: required("to", SetKind::Seats)? },
        "change_survey_count" => Act::ChangeSurveyCount(effect.amount("delta")?),
        "allow_repeat_planet" => Act::SurveyRule(REPEAT),
        "may_skip_planets" => match effect.param("at_most")? {
            ParamValue::None => Act::SkipPlanets(None),
            _ => Act::SkipPlanets(Some(effect.amount("at_most")?)),
        },
        "set_survey_direction" => Act::SurveyDirection(match effect.text("direction")? {
            Some("either") => DIRECTION,
            Some("clockwise") => 0,
            Some("counter_clockwise") => COUNTER,
            other => return Err(unsupported(format!("set_survey_direction: unknown direction {other:?}"))),
        }),
        // Either way, as set_survey_direction's either: the latest direction holds.
        "choose_direction" => Act::SurveyDirection(DIRECTION),
        "lose_vp" => Act::LoseVp { vp: effect.amount("vp")?, to: required("to", SetKind::Seats)? },
        "take_vp" => Act::TakeVp { vp: effect.amount("vp")?, from: required("from", SetKind::Seats)? },
        "take_free_cubes" => Act::TakeFreeCubes { count: effect.amount("count")?, to: required("to", SetKind::Seats)? },
        "set_survey_count" => Act::SetSurveyCount(effect.amount("count")?),
        "set_start_player" => Act::SetStartPlayer(required("seat", SetKind::Seats)?),
        "return_cube" => Act::ReturnCube {
            planets: required("planet", SetKind::Planets)?,
            owner: effect.owner("owner")?,
            to_stock: match effect.text("to")? {
                Some("hand") => false,
                Some("stock") => true,
                other => return Err(unsupported(format!("return_cube: unknown to {other:?}"))),
            },
        },
        "move_cube" => Act::MoveCube {
            planets: required("planet", SetKind::Planets)?,
            owner: effect.owner("owner")?,
            to: required("to", SetKind::Planets)?,
        },
        "place_cube" => {
            let planets = required("planet", SetKind::Planets)?;
            let on = match effect.text("square")? {
                Some("rearmost") => PlaceOn::Rearmost(planets),
                Some("special") => PlaceOn::Special(planets),
                other => return Err(unsupported(format!("place_cube: unknown square {other:?}"))),
            };
            Act::PlaceCube { owner: effect.owner("owner")?, on }
        }
        "place_cube_on_crew" => {
            Act::PlaceCube { owner: effect.owner("owner")?, on: PlaceOn::Crews(required("crew", SetKind::Crews)?) }
        }
        "collect_free_cubes" => Act::CollectFreeCubes(required("crew", SetKind::Crews)?),
        "close_crew" => Act::CloseCrew(required("crew", SetKind::Crews)?),
        "protect_cubes" => Act::ProtectCubes(match effect.text("until")? {
            Some("turn_end") => PROTECTED_TURN,
            Some("round_end") => PROTECTED_ROUND,
            other => return Err(unsupported(format!("protect_cubes: unknown until {other:?}"))),
        }),
        "for_each" => {
            let (over, body) = over_set(effect)?;
            Act::ForEach { over, body }
        }
        "if" => {
            let branch = |name| effect.effects(name)?.iter().map(act_of).collect::<Result<Vec<_>, _>>();
            Act::If { condition: effect.condition("condition")?, then: branch("then")?, otherwise: branch("else")? }
        }
        other => {
            return Err(unsupported(format!("effect {other:?} asks a decision, so it cannot be performed at once in a body")))
        }
    })
}

fn parse_place_on_special(effect: &EffectSpec, at: &mut Compiling<'_>) -> Result<Op, KernelError> {
    Ok(Op::PlaceOnSpecial(match effect.text("planets")? {
        Some("any") => SpecialTarget::Any,
        Some("surveyed") => SpecialTarget::Surveyed,
        Some("colour") => {
            let id = effect.text("colour")?.unwrap_or("");
            let index = at
                .colours
                .iter()
                .position(|c| c == id)
                .ok_or_else(|| unsupported(format!("place_on_special: unknown colour {id:?}")))?;
            SpecialTarget::Colour(index as u16)
        }
        other => return Err(unsupported(format!("place_on_special: unknown planets {other:?}"))),
    }))
}

/// Where an effect being compiled sits, for the parsers that compile nested effect lists.
pub struct Compiling<'a> {
    card: u16,
    path: &'a [u16],
    colours: &'a [String],
    nodes: &'a mut Vec<Node>,
}

/// Survey-rule flags, as in the Python engine: a limit of R8 lifted, a forced
/// counter-clockwise walk, the skill's `survey_start` in force.
pub const REPEAT: u8 = 1;
pub const SKIP: u8 = 2;
pub const DIRECTION: u8 = 4;
pub const COUNTER: u8 = 8;
pub const START: u8 = 16;
pub const ALL_SURVEY_RULES: u8 = REPEAT | SKIP | DIRECTION | COUNTER | START;
/// The flags that make a survey cube by cube (Python's `STEP_RULES`).
pub const STEP_RULES: u8 = REPEAT | SKIP | COUNTER | START;
/// `State::survey_skips` without a limit.
pub const NO_SKIP_LIMIT: i32 = -1;

/// The most Planets a survey could pass over: each cube of a hand passing every other Planet
/// of a ring of `planets` (Python's `effects.most_skips`); a skip limit is kept within it.
pub fn most_skips(cubes_per_player: i64, planets: usize) -> i64 {
    cubes_per_player * (planets as i64 - 1).max(0)
}

/// An effect of a crew card's skill: its operation, timing, how many times it resolves
/// (`count` of the counted effects), and where it sits (card index and path in the skill,
/// the Python engine's `(card, path)` key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub op: Op,
    /// Its effect type's name (`EFFECT_NAMES`), for messages.
    pub name: &'static str,
    pub timing: Timing,
    pub steps: u32,
    /// The crew card whose skill holds it, or `SETUP_CARD` for a setup step.
    pub card: u16,
    pub path: Vec<u16>,
}

/// `Node::card` of a setup step (rules.yaml `setup.each_player`): no crew card holds it.
pub const SETUP_CARD: u16 = u16::MAX;

/// A planet card (R1, R3): VP its majority scores by row (the track's values times a lasting
/// `majority_factor`, P2), special-square capacity, colour index, the colours its cubes count
/// toward for R17 (a bit per colour index: its own, or those of a lasting `counts_toward`: every
/// one, P1, none, or the colours it names), whether a survey may not start on it (P5), and its triggers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planet {
    pub id: String,
    pub values: Vec<i32>,
    pub special_capacity: u32,
    pub colour: u16,
    pub counts_toward: u32,
    pub no_survey_start: bool,
    pub abilities: Abilities,
}

/// When a planet's or a crew's trigger resolves (`vocabulary.abilities.EVENTS`, `CREW_EVENTS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    CubePlaced,
    BecomesFull,
    RoundEnd,
    GameEnd,
    /// Another player picks a crew while this crew is held (crews only).
    AnotherPick,
}

impl Event {
    /// The event's bit in a card's set of events (`Crew::events`).
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The events a landing cube sets off, as `Event::bit`s.
pub const LANDING_EVENTS: u8 = Event::CubePlaced.bit() | Event::BecomesFull.bit();

/// A planet's or a crew's trigger: its event, the square a `cube_placed` waits for (-1 any
/// normal square, 0 the special square, n square n), the acts it performs at once, and the
/// crew cards whose pick sets off a crew's `another_pick` (empty: any crew).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trigger {
    pub event: Event,
    pub square: i32,
    pub body: Vec<Act>,
    pub crew: Vec<u16>,
}

impl Trigger {
    /// Whether a cube landing on `square` (0: the special square) sets it off.
    pub fn matches(&self, square: usize) -> bool {
        match self.square {
            -1 => square > 0,
            n => square as i32 == n,
        }
    }

    /// Whether another player's pick of the crew card `card` sets it off.
    pub fn picks(&self, card: u16) -> bool {
        self.crew.is_empty() || self.crew.contains(&card)
    }
}

/// A planet card's triggers, in card order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Abilities {
    pub triggers: Vec<Trigger>,
    /// Whether a cube landing on it can set one off.
    pub lands: bool,
}

impl Planet {
    pub fn length(&self) -> usize {
        self.values.len()
    }
}

/// A crew card: survey count (R7) and the top-level nodes of its skill by the stage that
/// queues them (`on_pick`: `survey` and `on_choose` effects, in skill order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crew {
    pub id: String,
    pub survey_count: i32,
    pub always_in_play: bool,
    pub on_pick: Vec<u16>,
    pub after_survey: Vec<u16>,
    pub round_end: Vec<u16>,
    /// Its skill's `survey_start` node (at most one, as the Python loader checks).
    pub survey_start: Option<u16>,
    /// Whether `use_skill` may apply its skill: not always in play, a skill, and no
    /// `use_skill` in it (a skill applied never applies a third: programs end).
    pub borrowable: bool,
    /// Its triggers, in card order: in force while a player holds it.
    pub triggers: Vec<Trigger>,
    /// The events it has triggers for (`Event::bit`), derived from `triggers`: an event none
    /// of them waits for costs a held crew one bit test.
    pub events: u8,
}

/// Setup counts of one player count (R14) and its end condition (R10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerCount {
    pub players: usize,
    pub planets: usize,
    pub crew: usize,
    pub full_planets_to_end: usize,
}

/// The value of one effect parameter, as Python declared and sent it (`Param.kind`): an integer,
/// a text (a choice, a colour id, or an owner's `free` or `anyone`), none (an optional
/// parameter left out), effect lists (`choose_one`'s options), one effect list (the branches
/// of `if`, the body of `choose` and `for_each`), or an expression of the rules language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    Int(i64),
    Text(String),
    None,
    Options(Vec<Vec<EffectSpec>>),
    Effects(Vec<EffectSpec>),
    Amount(Amount),
    Condition(Condition),
    Set(Set),
}

/// One effect as the bindings read it from a compiled Python effect (`CompiledEffect`): its
/// type's name, its timing and every parameter its class declares, by name, defaults filled in
/// by Python (`kernel.compiled`), so that no default is restated here.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EffectSpec {
    pub name: String,
    pub when: String,
    pub params: Vec<(String, ParamValue)>,
}

impl EffectSpec {
    pub fn new(name: &str, when: &str) -> EffectSpec {
        EffectSpec { name: name.into(), when: when.into(), params: Vec::new() }
    }

    /// The spec with parameter `name` set to `value` (fixtures build specs this way).
    pub fn with(mut self, name: &str, value: ParamValue) -> EffectSpec {
        self.params.retain(|(key, _)| key != name);
        self.params.push((name.into(), value));
        self
    }

    fn param(&self, name: &str) -> Result<&ParamValue, KernelError> {
        self.params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
            .ok_or_else(|| unsupported(format!("effect {:?}: parameter {name:?} is missing", self.name)))
    }

    fn wrong(&self, name: &str, expected: &str) -> KernelError {
        unsupported(format!("effect {:?}: parameter {name:?} is not {expected}", self.name))
    }

    pub fn int(&self, name: &str) -> Result<i64, KernelError> {
        match self.param(name)? {
            ParamValue::Int(value) => Ok(*value),
            _ => Err(self.wrong(name, "an integer")),
        }
    }

    /// A text parameter, None when it was left out.
    pub fn text(&self, name: &str) -> Result<Option<&str>, KernelError> {
        match self.param(name)? {
            ParamValue::Text(value) => Ok(Some(value)),
            ParamValue::None => Ok(None),
            _ => Err(self.wrong(name, "a text")),
        }
    }

    pub fn options(&self, name: &str) -> Result<&[Vec<EffectSpec>], KernelError> {
        match self.param(name)? {
            ParamValue::Options(options) => Ok(options),
            _ => Err(self.wrong(name, "a list of effect lists")),
        }
    }

    pub fn effects(&self, name: &str) -> Result<&[EffectSpec], KernelError> {
        match self.param(name)? {
            ParamValue::Effects(effects) => Ok(effects),
            _ => Err(self.wrong(name, "an effect list")),
        }
    }

    /// An amount: a number as written, or an expression.
    pub fn amount(&self, name: &str) -> Result<Amount, KernelError> {
        match self.param(name)? {
            ParamValue::Int(value) => Ok(Amount::Number(*value)),
            ParamValue::Amount(amount) => Ok(amount.clone()),
            _ => Err(self.wrong(name, "an amount")),
        }
    }

    pub fn condition(&self, name: &str) -> Result<Condition, KernelError> {
        match self.param(name)? {
            ParamValue::Condition(condition) => Ok(condition.clone()),
            _ => Err(self.wrong(name, "a condition")),
        }
    }

    /// A set of `kind`, None when it was left out.
    pub fn set(&self, name: &str, kind: SetKind) -> Result<Option<Set>, KernelError> {
        match self.param(name)? {
            ParamValue::Set(set) if set.kind() == kind => Ok(Some(set.clone())),
            ParamValue::None => Ok(None),
            _ => Err(self.wrong(name, &format!("a set of {kind:?}"))),
        }
    }

    /// Whose cubes: `free`, `anyone` or a set of seats.
    pub fn owner(&self, name: &str) -> Result<Owner, KernelError> {
        match self.param(name)? {
            ParamValue::Text(word) if word == "free" => Ok(Owner::Free),
            ParamValue::Text(word) if word == "anyone" => Ok(Owner::Anyone),
            ParamValue::Set(set) if set.kind() == SetKind::Seats => Ok(Owner::Seats(set.clone())),
            _ => Err(self.wrong(name, "an owner (free, anyone or a set of seats)")),
        }
    }
}

/// One crew card as the bindings read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CrewSpec {
    pub id: String,
    pub survey_count: i64,
    pub always_in_play: bool,
    pub skill: Vec<EffectSpec>,
    pub triggers: Vec<TriggerSpec>,
}

/// One planet card as the bindings read it, its abilities included (docs/skills.md, "Planet
/// abilities"): triggers, and the lasting effects' values (`counted_colours`: the colour ids its
/// cubes count toward for the major-planet bonus, as Python derives them from its colour and a
/// lasting `counts_toward`; `majority_factor` 1 and `no_survey_start` false for a card without them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanetSpec {
    pub id: String,
    pub colour: String,
    pub track: Vec<i64>,
    pub special_capacity: i64,
    pub triggers: Vec<TriggerSpec>,
    pub counted_colours: Vec<String>,
    pub majority_factor: i64,
    pub no_survey_start: bool,
}

/// One trigger of a planet or crew card as the bindings read it: its event, the square a
/// `cube_placed` waits for (-1 any normal square, 0 the special square, n square n), its
/// `do` effects and the ids of the crews whose pick sets off a crew's `another_pick` (empty:
/// any crew).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TriggerSpec {
    pub event: String,
    pub square: i64,
    pub body: Vec<EffectSpec>,
    pub crew: Vec<String>,
}

/// The setup counts of one player count as the bindings read them (R14, R10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetupSpec {
    pub players: i64,
    pub planets: i64,
    pub crew: i64,
    pub full_planets_to_end: i64,
}

/// A whole ruleset as the bindings read it from the compiled Python ruleset
/// (`kernel.compiled.CompiledRuleset`): cards in file order, every knob, and what Python derived
/// of it, `bounds` (`Game.bounds`) and `action_sizes` (`Game.action_sizes`), which the kernel
/// keeps as received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RulesSpec {
    pub name: String,
    pub colours: Vec<String>,
    pub planets: Vec<PlanetSpec>,
    pub crew: Vec<CrewSpec>,
    /// The setup counts of each supported player count.
    pub setups: Vec<SetupSpec>,
    pub cubes_per_player: i64,
    pub free_cubes: i64,
    pub max_free_cubes_per_crew: i64,
    /// What a crew nobody picked receives at a round's end (R11).
    pub unpicked_crews: UnpickedCrews,
    /// The effects performed at every round's end (rules.yaml `round_end.effects`, idea R7), in
    /// list order; none ask a decision (Python's loader refused the others).
    pub round_end_effects: Vec<EffectSpec>,
    /// The conditions that end the game at a round's end (R10).
    pub end: End,
    /// The score sheet's lines of their own (rules.yaml `end_scoring`), in file order.
    pub end_scoring: Vec<ScoringLine>,
    pub free_cube_vp: i64,
    pub player_cube_vp: i64,
    pub survey_minimum: i64,
    pub max_rounds: i64,
    /// VP by turn position at setup (0: the start player), at least one per seat of the largest
    /// player count (docs/rules.md, "Turn-order VP").
    pub turn_order_vp: Vec<i64>,
    /// How a Planet's majority ranks and reads its rows (R15, R16).
    pub majority: MajoritySpec,
    /// Which cubes the major-planet bonus counts and what it scores (R17).
    pub bonus: BonusSpec,
    /// The effects each seat performs before the first round, in turn order from the start
    /// player (rules.yaml `setup.each_player`; empty: none).
    pub setup_steps: Vec<EffectSpec>,
    pub bounds: Bounds,
    pub action_sizes: ActionSizes,
}

/// The `majority` section as the bindings read it (`vocabulary.majority.Majority`, field by
/// field); its default is draft 7's R15 and R16, as a rules.yaml without the section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MajoritySpec {
    pub ties: String,
    pub row_step: i64,
    pub rank_percent: Vec<i64>,
    pub accident_vp: i64,
    pub free_cubes_take_a_row: bool,
}

impl Default for MajoritySpec {
    fn default() -> MajoritySpec {
        MajoritySpec { ties: "first_cube_further_back".into(), row_step: 1, rank_percent: vec![100], accident_vp: 0, free_cubes_take_a_row: true }
    }
}

/// Who ranks higher of two owners with as many cubes on a Planet (`majority.ties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// R15: the owner whose lowest-numbered cube stands further back.
    FurtherBack,
    /// The owner whose lowest-numbered cube stands further forward.
    FurtherForward,
    /// Both take the better rank; the next rank skips (1, 1, 3).
    Shared,
}

/// How a Planet's majority ranks and reads its rows (`vocabulary.majority.Majority`): rank r
/// reads row k - (r - 1) x `row_step` and scores its VP x `rank_percent[r - 1]` / 100 rounded
/// down (the list's last entry repeated to one per owner), an accident row (VP 0) `accident_vp`,
/// a row below square 1 nothing; the virtual player ranks only when `free_cubes_take_a_row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Majority {
    pub ties: Ties,
    pub row_step: i32,
    pub rank_percent: [i32; MAX_PLAYERS + 1],
    pub accident_vp: i32,
    pub free_cubes_take_a_row: bool,
}

impl Default for Majority {
    /// Draft 7's R15 and R16.
    fn default() -> Majority {
        Majority { ties: Ties::FurtherBack, row_step: 1, rank_percent: [100; MAX_PLAYERS + 1], accident_vp: 0, free_cubes_take_a_row: true }
    }
}

impl Majority {
    fn compile(spec: &MajoritySpec) -> Result<Majority, KernelError> {
        let ties = match spec.ties.as_str() {
            "first_cube_further_back" => Ties::FurtherBack,
            "first_cube_further_forward" => Ties::FurtherForward,
            "shared" => Ties::Shared,
            other => return Err(unsupported(format!("majority.ties: unknown tie rule {other:?}"))),
        };
        let last = *spec.rank_percent.last().ok_or_else(|| unsupported("majority.rank_percent is empty".into()))?;
        let mut rank_percent = [0; MAX_PLAYERS + 1];
        for (rank, percent) in rank_percent.iter_mut().enumerate() {
            *percent = small(*spec.rank_percent.get(rank).unwrap_or(&last), "majority.rank_percent", 100)?.max(0);
        }
        Ok(Majority {
            ties,
            row_step: small(spec.row_step, "majority.row_step", 1024)?.max(1),
            rank_percent,
            accident_vp: small(spec.accident_vp, "majority.accident_vp", VALUE_LIMIT)?,
            free_cubes_take_a_row: spec.free_cubes_take_a_row,
        })
    }

    /// What rank `rank` (1-based) scores with the rearmost cube on square `top` of `values`.
    pub fn vp(&self, values: &[i32], top: usize, rank: usize) -> i32 {
        let row = top as i64 - (rank as i64 - 1) * self.row_step as i64;
        if row < 1 {
            return 0;
        }
        match values[row as usize - 1] {
            0 => self.accident_vp,
            value => (value as i64 * self.rank_percent[rank - 1] as i64 / 100) as i32,
        }
    }
}

/// The `bonus` section as the bindings read it (`vocabulary.bonus.Bonus`, field by field); its
/// default is draft 7's R17, as a rules.yaml without the section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BonusSpec {
    pub squares: String,
    pub formula: String,
    pub set_size: i64,
    pub set_vp: i64,
    pub vp_by_count: Vec<i64>,
}

impl Default for BonusSpec {
    fn default() -> BonusSpec {
        BonusSpec { squares: "all".into(), formula: "largest_groups".into(), set_size: 0, set_vp: 0, vp_by_count: Vec::new() }
    }
}

/// What a seat's cube counts per colour score (`bonus.formula`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// R17: the largest count m times the number of colours at m.
    LargestGroups,
    /// `vp` for each complete set of one cube of each of `size` different colours, each cube in
    /// one set at most (ideas R4).
    DistinctColourSets { size: u32, vp: i32 },
    /// The VP of the largest count m: entry m - 1, counts past the table its last entry.
    VpByCount(Vec<i32>),
}

/// The major-planet bonus (R17; `vocabulary.bonus.Bonus`): which squares' cubes count toward
/// their Planet's colours, and the formula that scores a seat's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bonus {
    pub normal: bool,
    pub special: bool,
    pub formula: Formula,
}

impl Default for Bonus {
    /// Draft 7's R17.
    fn default() -> Bonus {
        Bonus { normal: true, special: true, formula: Formula::LargestGroups }
    }
}

impl Bonus {
    fn compile(spec: &BonusSpec) -> Result<Bonus, KernelError> {
        let (normal, special) = match spec.squares.as_str() {
            "all" => (true, true),
            "normal" => (true, false),
            "special" => (false, true),
            other => return Err(unsupported(format!("bonus.squares: unknown squares {other:?}"))),
        };
        let formula = match spec.formula.as_str() {
            "largest_groups" => Formula::LargestGroups,
            "distinct_colour_sets" => Formula::DistinctColourSets {
                size: small(spec.set_size, "bonus.formula.distinct_colour_sets.size", MAX_COLOURS as i64)?.max(1) as u32,
                vp: small(spec.set_vp, "bonus.formula.distinct_colour_sets.vp", VALUE_LIMIT)?,
            },
            "vp_by_count" if !spec.vp_by_count.is_empty() => Formula::VpByCount(
                spec.vp_by_count.iter().map(|&vp| small(vp, "bonus.formula.vp_by_count", VALUE_LIMIT)).collect::<Result<_, _>>()?,
            ),
            "vp_by_count" => return Err(unsupported("bonus.formula.vp_by_count is empty".into())),
            other => return Err(unsupported(format!("bonus.formula: unknown formula {other:?}"))),
        };
        Ok(Bonus { normal, special, formula })
    }

    /// The bonus of one seat's cube counts, one per colour. A cube on a Planet that counts
    /// toward several colours (P1) is in each of their counts, and `several` lists those cubes
    /// as (colour bits, cubes): the largest count reads it in every colour's group, a set holds
    /// it once (R4; Python's `Bonus.vp`).
    pub fn vp(&self, counts: &[u16], several: &[(u32, u16)]) -> i32 {
        let most = counts.iter().copied().max().unwrap_or(0);
        if most == 0 {
            return 0;
        }
        match &self.formula {
            Formula::LargestGroups => most as i32 * counts.iter().filter(|&&c| c == most).count() as i32,
            Formula::DistinctColourSets { size, vp } => vp * complete_sets(counts, *size, several) as i32,
            Formula::VpByCount(table) => table[(most as usize).min(table.len()) - 1],
        }
    }
}

/// The colour indices of a set of colour bits, lowest first.
fn colours_of(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let colour = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            colour
        })
    })
}

/// How many sets of one cube of each of `size` different colours `counts` make, each cube in one
/// set at most: the largest k for which the cubes can stand as colours with at most k of each
/// and size x k in all, `several`'s cubes as any one of their colours (the k that fit are 0, 1,
/// ..., the answer; Python's `bonus.complete_sets`).
pub fn complete_sets(counts: &[u16], size: u32, several: &[(u32, u16)]) -> u32 {
    let mut own = [0i32; MAX_COLOURS];
    for (colour, &count) in counts.iter().enumerate() {
        own[colour] = count as i32;
    }
    for &(bits, cubes) in several {
        for colour in colours_of(bits) {
            own[colour] -= cubes as i32;
        }
    }
    let own = &own[..counts.len()];
    let mut sets = 0u32;
    while standing(own, several, sets + 1) >= size * (sets + 1) {
        sets += 1;
    }
    sets
}

/// How many cubes can stand as colours, at most `k` of each: every colour's own cubes up to k,
/// then the cubes of several colours in the room left (Python's `bonus._standing`).
fn standing(own: &[i32], several: &[(u32, u16)], k: u32) -> u32 {
    let mut room = [0u32; MAX_COLOURS];
    let mut standing = 0u32;
    for (colour, &count) in own.iter().enumerate() {
        let kept = (count.max(0) as u32).min(k);
        standing += kept;
        room[colour] = k - kept;
    }
    let room = &mut room[..own.len()];
    let every = if own.len() >= 32 { u32::MAX } else { (1u32 << own.len()) - 1 };
    if several.iter().all(|&(bits, _)| bits & every == every) {
        // P1: every colour, no choice to make.
        let cubes: u32 = several.iter().map(|&(_, cubes)| cubes as u32).sum();
        return standing + cubes.min(room.iter().sum());
    }
    let mut taken = vec![[0u16; MAX_COLOURS]; several.len()];
    for (group, &(_, cubes)) in several.iter().enumerate() {
        for _ in 0..cubes {
            if !seat_one(group, several, &mut taken, room, &mut 0) {
                break;
            }
            standing += 1;
        }
    }
    standing
}

/// One more cube of `group` stands as a colour: one with room, or one whose cube of another
/// group moves on to a colour of its own with room (an augmenting path; `seen`: colour bits).
fn seat_one(group: usize, several: &[(u32, u16)], taken: &mut [[u16; MAX_COLOURS]], room: &mut [u32], seen: &mut u32) -> bool {
    let colours = room.len();
    for colour in colours_of(several[group].0).filter(|&c| c < colours) {
        if *seen & 1 << colour != 0 {
            continue;
        }
        *seen |= 1 << colour;
        if room[colour] > 0 {
            room[colour] -= 1;
            taken[group][colour] += 1;
            return true;
        }
        for other in 0..several.len() {
            if taken[other][colour] > 0 && seat_one(other, several, taken, room, seen) {
                taken[other][colour] -= 1;
                taken[group][colour] += 1;
                return true;
            }
        }
    }
    false
}

/// What each crew nobody picked receives at a round's end when the game goes on (R11; rules.yaml
/// `round_end.unpicked_crews`): `free_cubes`, an amount read with `this_crew` bound to the crew
/// and nobody as "you"; at least 0, at most what the stock holds and what
/// `max_free_cubes_per_crew` (Python's cap, or every free cube when there is none) leaves.
/// `replaced` (`at_cap: replaced`): such a crew holding the cap's number once every crew has
/// received leaves the crew area, and the first card of the state's queue takes its slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpickedCrews {
    pub free_cubes: Amount,
    pub replaced: bool,
}

impl Default for UnpickedCrews {
    /// Draft 7's one free cube, for the specs the kernel's own tests write (the bindings always send it).
    fn default() -> Self {
        UnpickedCrews { free_cubes: Amount::Number(1), replaced: false }
    }
}

/// The game's end (R10; rules.yaml `end`): each condition, in file order, with the id the log
/// and the state name it by; read at the end of each round with nobody as "you". The round
/// limit (`max_rounds`) comes after them as `round_limit`. A state's `triggers` holds bit i for
/// the i-th condition and bit `triggers.len()` for the round limit, so at most 7 conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub triggers: Vec<EndTrigger>,
}

/// One condition of the game's end and its trigger id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndTrigger {
    pub id: String,
    pub condition: Condition,
}

/// One line of its own on the score sheet (rules.yaml `end_scoring`; docs/rules.md,
/// "End-of-game scoring lines"): its id and its VP, an amount read for each seat with
/// this_seat bound to it and nobody as "you", from the position as it stands (below 0 when the
/// amount is), added to R18's total and never to the VP of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoringLine {
    pub id: String,
    pub vp: Amount,
}

/// The most lines of `end_scoring` a ruleset holds (as schemas/rules.schema.json says): a seat's
/// sheet keeps each line's VP (`scoring::SeatTotals`).
pub const MOST_SCORING_LINES: usize = 8;

/// The round limit's trigger id, after the ruleset's end conditions (docs/rules.md, "Round limit").
pub const ROUND_LIMIT_NAME: &str = "round_limit";
/// The most end conditions a ruleset holds: with the round limit's they fill a state's 8 trigger bits.
pub const MOST_END_TRIGGERS: usize = 7;

impl Default for End {
    /// Draft 7's two (a rules.yaml without `end`), for the specs the kernel's own tests write
    /// (the bindings always send it): a player has no cubes left; the full Planets reach the
    /// player count's `full_planets_to_end`.
    fn default() -> Self {
        let hand_empty = Condition::Compare(Comparison::Equal, Amount::Hand(Set::ThisSeat), Amount::Number(0));
        let empty_hands = Set::Where(SetKind::Seats, Box::new(hand_empty), Box::new(Set::Everyone));
        End {
            triggers: vec![
                EndTrigger {
                    id: "hand_empty".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(empty_hands), Amount::Number(1)),
                },
                EndTrigger {
                    id: "planets_full".into(),
                    condition: Condition::Compare(Comparison::AtLeast, Amount::Count(Set::FullPlanets), Amount::FullPlanetsToEnd),
                },
            ],
        }
    }
}

impl End {
    /// The round limit's bit in a state's `triggers`.
    pub fn round_limit(&self) -> u8 {
        1 << self.triggers.len()
    }

    /// Every trigger's bit and id, in the order the log names them: the conditions, then the round limit.
    pub fn names(&self) -> impl Iterator<Item = (u8, &str)> {
        self.triggers.iter().enumerate().map(|(i, t)| (1u8 << i, t.id.as_str())).chain(std::iter::once((self.round_limit(), ROUND_LIMIT_NAME)))
    }

    /// The bit of a trigger id, None when the ruleset has no such trigger.
    pub fn flag(&self, id: &str) -> Option<u8> {
        self.names().find(|(_, name)| *name == id).map(|(flag, _)| flag)
    }

    /// The ids of the bits set in `triggers`, in their order.
    pub fn named(&self, triggers: u8) -> Vec<&str> {
        self.names().filter(|(flag, _)| triggers & flag != 0).map(|(_, name)| name).collect()
    }
}

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
    fn checked(self, setups: &[PlayerCount], always: usize) -> Result<Bounds, KernelError> {
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

/// The compiled ruleset the game and the bots read; never changed after `compile`.
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    pub colours: Vec<String>,
    pub planets: Vec<Planet>,
    pub crew: Vec<Crew>,
    pub nodes: Vec<Node>,
    pub setups: Vec<PlayerCount>,
    pub cubes_per_player: i32,
    pub free_cubes: i32,
    pub max_free_cubes_per_crew: i32,
    /// What a crew nobody picked receives at a round's end (R11), as received.
    pub unpicked_crews: UnpickedCrews,
    /// The effects performed at every round's end, after the held crews' `round_end` triggers
    /// and before the end check, nobody being "you" (rules.yaml `round_end.effects`, idea R7).
    pub round_end_effects: Vec<Act>,
    /// The conditions that end the game at a round's end (R10), as received.
    pub end: End,
    /// The score sheet's lines of their own (rules.yaml `end_scoring`), as received.
    pub end_scoring: Vec<ScoringLine>,
    pub free_cube_vp: i32,
    pub player_cube_vp: i32,
    pub survey_minimum: i32,
    pub max_rounds: u32,
    /// VP by turn position at setup (0: the start player), one per seat of the largest table.
    pub turn_order_vp: Vec<i32>,
    /// How a Planet's majority ranks and reads its rows (R15, R16), and whether it is R15/R16's
    /// (`Majority::default()`: scoring then takes its fast path).
    pub majority: Majority,
    pub majority_is_r15_r16: bool,
    /// The major-planet bonus (R17), and whether it is R17's (`Bonus::default()`: the state
    /// then keeps each seat's largest count and its colours as the board changes, the bots'
    /// fast path; any other bonus is scored from the board when asked).
    pub bonus: Bonus,
    pub bonus_is_r17: bool,
    /// Whether a set holds a cube of several colours once: `distinct_colour_sets` with a
    /// planet card counting toward several colours (scoring then lists those cubes apart).
    pub sets_of_several: bool,
    /// The top-level nodes of the setup steps (`setup.each_player`), in order.
    pub setup_steps: Vec<u16>,
    /// Whether any planet card has a trigger a landing cube sets off, one a round's end or the
    /// game's end sets off, or a Planet no survey may start on.
    pub any_lands: bool,
    pub any_round_end: bool,
    pub any_game_end: bool,
    /// Whether any crew card has an `another_pick`, a `round_end` or a `game_end` trigger.
    pub any_another_pick: bool,
    pub any_crew_round_end: bool,
    pub any_crew_game_end: bool,
    pub any_no_start: bool,
    /// The always-in-play crew, and the dealable ones, as card indices in file order.
    pub always: Vec<u16>,
    pub dealable: Vec<u16>,
    /// What a state may hold (`Bounds`) and the action index's blocks (`ActionSizes`), as
    /// Python derived them.
    pub bounds: Bounds,
    pub action_sizes: ActionSizes,
    node_index: HashMap<(u16, Vec<u16>), u16>,
}

fn unsupported(message: String) -> KernelError {
    KernelError::Unsupported(message)
}

fn small(value: i64, what: &str, limit: i64) -> Result<i32, KernelError> {
    if value < -limit || value > limit {
        return Err(unsupported(format!("{what} = {value} is beyond the kernel's limit of {limit}")));
    }
    Ok(value as i32)
}

const VALUE_LIMIT: i64 = 1 << 24;

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
            if dealable_count.saturating_sub(least_dealt) > crate::state::MAX_QUEUE {
                return Err(unsupported(format!(
                    "at_cap: replaced queues up to {} crew cards not dealt, beyond the kernel's limit of {}",
                    dealable_count.saturating_sub(least_dealt),
                    crate::state::MAX_QUEUE
                )));
            }
        }
        let majority = Majority::compile(&spec.majority)?;
        let bonus = Bonus::compile(&spec.bonus)?;
        let sets_of_several = matches!(bonus.formula, Formula::DistinctColourSets { .. })
            && planets.iter().any(|planet: &Planet| planet.counts_toward.count_ones() > 1);
        let rules = Rules {
            name: spec.name.clone(),
            colours: spec.colours.clone(),
            planets,
            crew,
            nodes,
            setups,
            cubes_per_player: small(spec.cubes_per_player, "cubes_per_player", 8_000)?,
            free_cubes: small(spec.free_cubes, "free_cubes", 1 << 20)?,
            max_free_cubes_per_crew: small(spec.max_free_cubes_per_crew, "max_free_cubes_per_crew", 1 << 20)?,
            unpicked_crews: spec.unpicked_crews.clone(),
            round_end_effects: spec.round_end_effects.iter().map(act_of).collect::<Result<Vec<_>, _>>()?,
            end: end_of(&spec.end)?,
            end_scoring: end_scoring_of(&spec.end_scoring)?,
            free_cube_vp: small(spec.free_cube_vp, "motivation.free_cube_vp", VALUE_LIMIT)?,
            player_cube_vp: small(spec.player_cube_vp, "motivation.player_cube_vp", VALUE_LIMIT)?,
            survey_minimum: small(spec.survey_minimum, "survey.minimum", VALUE_LIMIT)?,
            max_rounds: small(spec.max_rounds, "max_rounds", VALUE_LIMIT)?.max(0) as u32,
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
            free_cubes: rules.free_cubes as f64,
            longest_track: rules.planets.iter().map(Planet::length).max().unwrap_or(0) as f64,
            rounds: rules.max_rounds as f64,
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

impl Op {
    /// Whether the operation or an action it performs at once (a body, an immediate branch)
    /// is `found`; the branches of `if` and the options of `choose_one` are nodes of their own.
    pub fn performs(&self, found: &impl Fn(&Act) -> bool) -> bool {
        match self {
            Op::Act(act) => act.contains(found),
            Op::Choose { body, .. } | Op::SurveyStart { before: body, .. } => body.iter().any(|act| act.contains(found)),
            _ => false,
        }
    }

    /// Every amount of the operation computed exactly by the kernel (`expr::LARGEST_AMOUNT`).
    fn exact(&self, m: &Magnitudes) -> bool {
        match self {
            Op::Act(act) => act.exact(m),
            Op::If { condition, .. } => condition.exact(m),
            Op::Choose { over, body } | Op::SurveyStart { planets: over, before: body, .. } => {
                Act::ForEach { over: over.clone(), body: body.clone() }.exact(m)
            }
            Op::UseSkill(crews) => crews.exact(m),
            _ => true,
        }
    }
}

fn compile_list(
    skill: &[EffectSpec],
    card: u16,
    prefix: &[u16],
    colours: &[String],
    nodes: &mut Vec<Node>,
) -> Result<Vec<u16>, KernelError> {
    let mut ids = Vec::with_capacity(skill.len());
    for (i, effect) in skill.iter().enumerate() {
        let mut path = prefix.to_vec();
        path.push(i as u16);
        if nodes.len() >= MAX_NODES || path.len() > 64 {
            return Err(unsupported(format!(
                "crew card {card}: skills with more than {MAX_NODES} effects or nested deeper than 64 are beyond the kernel's limits"
            )));
        }
        let timing = Timing::parse(&effect.when)
            .ok_or_else(|| unsupported(format!("effect {:?}: unknown timing {:?}", effect.name, effect.when)))?;
        let kind = EFFECT_TYPES
            .iter()
            .find(|kind| kind.name == effect.name)
            .ok_or_else(|| unsupported(format!("effect type {:?} is not in the kernel's vocabulary", effect.name)))?;
        let steps = match kind.steps {
            Steps::Once => 1,
            Steps::Count => match effect.int("count")? {
                count @ 1..=0x10_0000 => count as u32,
                count => return Err(unsupported(format!("effect {:?}: count {count} is beyond the kernel's limits", effect.name))),
            },
        };
        let id = nodes.len() as u16;
        // Reserve the slot first so that a node's id precedes its options' ids (the Python
        // engine walks a skill in the same order).
        nodes.push(Node {
            op: Op::GainVp(0),
            name: kind.name,
            timing,
            steps,
            card,
            path: path.clone(),
        });
        nodes[id as usize].op = (kind.parse)(effect, &mut Compiling { card, path: &path, colours, nodes })?;
        ids.push(id);
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_with(skill: Vec<EffectSpec>) -> RulesSpec {
        RulesSpec {
            name: "t".into(),
            colours: vec!["red".into()],
            planets: vec![PlanetSpec { id: "a".into(), colour: "red".into(), track: vec![1, 2], special_capacity: 1, counted_colours: vec!["red".into()], ..Default::default() }],
            crew: vec![CrewSpec { id: "c".into(), survey_count: 1, always_in_play: false, skill, triggers: Vec::new() }],
            setups: vec![setup(1)],
            cubes_per_player: 4,
            free_cubes: 4,
            max_free_cubes_per_crew: 1,
            max_rounds: 3,
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
