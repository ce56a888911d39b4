//! The kernel's vocabulary of effect types: one `Op` per type of
//! `stargazer_rules.vocabulary.effects`, its row in `EFFECT_TYPES` (name, parser, step count) and
//! the parsers that turn the parameters Python sent into it, so a new effect type is written here.

use super::{REPEAT, DIRECTION, COUNTER, Node, ParamValue, EffectSpec, unsupported, small, VALUE_LIMIT};
use crate::error::{KernelError};
use crate::expr::{SetKind, Set, Condition, PlaceOn, Act, Magnitudes, PROTECTED_TURN, PROTECTED_ROUND};
use crate::limits::MAX_NODES;

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
pub const EFFECT_TYPES: [EffectType; 30] = [
    EffectType { name: "add_free_cubes", parse: |_, _| Ok(Op::AddFreeCubes), steps: Steps::Count },
    EffectType { name: "allow_repeat_planet", parse: |_, _| Ok(Op::AllowRepeatPlanet), steps: Steps::Once },
    EffectType { name: "change_survey_count", parse: parse_change_survey_count, steps: Steps::Once },
    EffectType { name: "choose", parse: parse_choose, steps: Steps::Once },
    EffectType { name: "choose_direction", parse: |_, _| Ok(Op::ChooseDirection), steps: Steps::Once },
    EffectType { name: "choose_one", parse: parse_choose_one, steps: Steps::Once },
    EffectType { name: "close_crew", parse: parse_act, steps: Steps::Once },
    EffectType { name: "collect_free_cubes", parse: parse_act, steps: Steps::Once },
    EffectType { name: "discard_cubes", parse: parse_act, steps: Steps::Once },
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
pub(super) fn act_of(effect: &EffectSpec) -> Result<Act, KernelError> {
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
        "discard_cubes" => Act::DiscardCubes { count: effect.amount("count")?, from: required("from", SetKind::Seats)? },
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
            special: special_square(effect)?,
        },
        "move_cube" => Act::MoveCube {
            planets: required("planet", SetKind::Planets)?,
            owner: effect.owner("owner")?,
            to: required("to", SetKind::Planets)?,
            special: special_square(effect)?,
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

/// Whether `return_cube` or `move_cube` takes its cube off the special square (R3) rather than
/// the track (R2); a ruleset written before `square` sends none.
fn special_square(effect: &EffectSpec) -> Result<bool, KernelError> {
    match effect.text("square")? {
        None | Some("rearmost") => Ok(false),
        Some("special") => Ok(true),
        other => Err(unsupported(format!("{}: unknown square {other:?}", effect.name))),
    }
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
    pub(super) fn exact(&self, m: &Magnitudes) -> bool {
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

pub(super) fn compile_list(
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
