//! The compiled ruleset read from its Python form (`stargazer_rules.kernel.compiled`): every
//! field by its attribute name, never a dict key or a tuple position, into the kernel's
//! `RulesSpec`, with the bounds and action-index sizes Python derived. A missing field or a
//! value of the wrong type is a `ValueError` naming the field by its path
//! (`crew[3].skill[0].parameters[1].value`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use stargazer_kernel::rules::{ActionLayout, ActionSizes};
use stargazer_kernel::observation::FieldSpec;
use stargazer_kernel::rules::{BonusSpec, CrewSpec, EffectSpec, End, EndTrigger, MajoritySpec, ParamValue, PlanetSpec, RulesSpec, ScoringLine, SetupSpec, TriggerSpec, UnpickedCrews};
use stargazer_kernel::Bounds;

use crate::expressions::{self, Reader};

/// One object of the compiled ruleset and its path from the root, for messages.
pub(crate) struct Fields<'py> {
    object: Bound<'py, PyAny>,
    at: String,
}

fn refused(at: &str, why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("compiled ruleset: {at}: {why}"))
}

impl<'py> Fields<'py> {
    fn path(&self, name: &str) -> String {
        if self.at.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.at)
        }
    }

    /// The field `name`, or an error naming it when the object has none.
    pub(crate) fn field(&self, name: &str) -> PyResult<Fields<'py>> {
        let at = self.path(name);
        if !self.object.hasattr(name)? {
            return Err(refused(&at, "missing"));
        }
        Ok(Fields { object: self.object.getattr(name)?, at })
    }

    /// The field `name` as a Rust value, or an error naming it and the type found.
    pub(crate) fn get<T>(&self, name: &str) -> PyResult<T>
    where
        T: for<'a> FromPyObject<'a, 'py>,
    {
        let field = self.field(name)?;
        field.object.extract::<T>().map_err(|error| {
            let error: PyErr = error.into();
            let found = field.object.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            refused(&field.at, format!("{} (found a {found})", error.value(field.object.py())))
        })
    }

    /// The items of the sequence field `name`, each with its path.
    fn items(&self, name: &str) -> PyResult<Vec<Fields<'py>>> {
        self.field(name)?.elements()
    }

    /// The items of this sequence, each with its path.
    fn elements(&self) -> PyResult<Vec<Fields<'py>>> {
        let iter = self.object.try_iter().map_err(|_| refused(&self.at, "not a sequence"))?;
        iter.enumerate().map(|(i, item)| Ok(Fields { object: item?, at: format!("{}[{i}]", self.at) })).collect()
    }
}

/// Structs of plain numbers that cross by the names of their Python twins: each field listed
/// once, for reading the compiled ruleset and for giving back what the kernel received.
macro_rules! numbers_by_name {
    ($($name:ident { $($field:ident),* $(,)? })*) => {$(
        impl Named for $name {
            fn read(fields: &Fields<'_>) -> PyResult<$name> {
                Ok($name { $($field: fields.get(stringify!($field))?,)* })
            }

            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
                let dict = PyDict::new(py);
                $(dict.set_item(stringify!($field), self.$field)?;)*
                Ok(dict)
            }
        }
    )*};
}

pub(crate) trait Named: Sized {
    fn read(fields: &Fields<'_>) -> PyResult<Self>;
    /// The values by the names of the Python class's fields.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>>;
}

numbers_by_name! {
    Bounds {
        most_players, most_planets, most_crew, most_hand, most_stock, most_free_on_crew, most_vp, ability_vp, most_bonus_vp, least_line_vp, most_line_vp, most_round,
        least_survey_bonus, most_survey_bonus, most_survey_placed, most_survey_skips, most_steps, most_pending,
        most_turn_decisions,
    }
    ActionSizes { planets, crews, seats, survey_counts, directions, options, seat_targets }
    ActionLayout { offsets, sizes, size, direction_stride, start_stride }
    SetupSpec { players, planets, crew, full_planets_to_end }
}

/// The `majority` rule (`vocabulary.majority.Majority`), every field by its name.
fn majority_spec(majority: &Fields<'_>) -> PyResult<MajoritySpec> {
    Ok(MajoritySpec {
        ties: majority.get("ties")?,
        row_step: majority.get("row_step")?,
        rank_percent: majority.get("rank_percent")?,
        accident_vp: majority.get("accident_vp")?,
        free_cubes_take_a_row: majority.get("free_cubes_take_a_row")?,
    })
}

/// The major-planet bonus (`vocabulary.bonus.Bonus`), every field by its name.
fn bonus_spec(bonus: &Fields<'_>) -> PyResult<BonusSpec> {
    Ok(BonusSpec {
        squares: bonus.get("squares")?,
        formula: bonus.get("formula")?,
        set_size: bonus.get("set_size")?,
        set_vp: bonus.get("set_vp")?,
        vp_by_count: bonus.get("vp_by_count")?,
    })
}

/// A card's `triggers` (a planet's or a crew's `CompiledTrigger`s) as the kernel's `TriggerSpec`s.
fn trigger_specs(card: &Fields<'_>, reader: &Reader<'_>) -> PyResult<Vec<TriggerSpec>> {
    card.items("triggers")?
        .iter()
        .map(|trigger| {
            Ok(TriggerSpec {
                event: trigger.get("event")?,
                square: trigger.get("square")?,
                body: trigger.items("do")?.iter().map(|effect| effect_spec(effect, reader)).collect::<PyResult<_>>()?,
                crew: trigger.get("crew")?,
            })
        })
        .collect()
}

/// A `CompiledRuleset` as the kernel's `RulesSpec`.
pub fn rules_spec(compiled: &Bound<'_, PyAny>) -> PyResult<RulesSpec> {
    let root = Fields { object: compiled.clone(), at: String::new() };
    let colours: Vec<String> = root.get("colours")?;
    let reader = Reader { colours: &colours };
    let planets = root
        .items("planets")?
        .iter()
        .map(|card| {
            let triggers = trigger_specs(card, &reader)?;
            Ok(PlanetSpec {
                id: card.get("id")?,
                colour: card.get("colour")?,
                track: card.get("track")?,
                special_capacity: card.get("special_capacity")?,
                triggers,
                counted_colours: card.get("counted_colours")?,
                majority_factor: card.get("majority_factor")?,
                no_survey_start: card.get("no_survey_start")?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let crew = root
        .items("crew")?
        .iter()
        .map(|card| {
            Ok(CrewSpec {
                id: card.get("id")?,
                survey_count: card.get("survey_count")?,
                always_in_play: card.get("always_in_play")?,
                skill: card.items("skill")?.iter().map(|effect| effect_spec(effect, &reader)).collect::<PyResult<_>>()?,
                triggers: trigger_specs(card, &reader)?,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(RulesSpec {
        name: root.get("name")?,
        colours: colours.clone(),
        planets,
        crew,
        setups: root.items("setups")?.iter().map(SetupSpec::read).collect::<PyResult<_>>()?,
        knobs: crate::contract::read_knobs(&root.field("knobs")?)?,
        max_free_cubes_per_crew: root.get("max_free_cubes_per_crew")?,
        unpicked_crews: UnpickedCrews {
            free_cubes: reader.amount(&root.field("unpicked_crews")?.field("free_cubes")?.object)?,
            replaced: root.field("unpicked_crews")?.get("replaced")?,
        },
        round_end_effects: root.items("round_end_effects")?.iter().map(|effect| effect_spec(effect, &reader)).collect::<PyResult<_>>()?,
        end: End {
            triggers: root
                .items("end")?
                .iter()
                .map(|trigger| Ok(EndTrigger { id: trigger.get("id")?, condition: reader.condition(&trigger.field("condition")?.object)? }))
                .collect::<PyResult<Vec<_>>>()?,
        },
        end_scoring: root
            .items("end_scoring")?
            .iter()
            .map(|line| Ok(ScoringLine { id: line.get("id")?, vp: reader.amount(&line.field("vp")?.object)? }))
            .collect::<PyResult<Vec<_>>>()?,
        turn_order_vp: root.get("turn_order_vp")?,
        majority: majority_spec(&root.field("majority")?)?,
        bonus: bonus_spec(&root.field("bonus")?)?,
        setup_steps: root.items("setup_steps")?.iter().map(|effect| effect_spec(effect, &reader)).collect::<PyResult<_>>()?,
        bounds: Bounds::read(&root.field("bounds")?)?,
        action_sizes: ActionSizes::read(&root.field("action_sizes")?)?,
        action_layout: ActionLayout::read(&root.field("action_layout")?)?,
    })
}

/// The `observation` fields of a `CompiledRuleset` (`ObservationField`: name, offset, length,
/// each by attribute), for `ObservationLayout::received`.
pub fn observation_fields(compiled: &Bound<'_, PyAny>) -> PyResult<Vec<FieldSpec>> {
    let root = Fields { object: compiled.clone(), at: String::new() };
    root.items("observation")?.iter().map(|field| Ok((field.get("name")?, field.get("offset")?, field.get("length")?))).collect()
}

/// One `CompiledEffect`: its name, timing and every parameter its Python class declares, by
/// name, each converted by its value's type only (`param_value`); the parameter names, and
/// their defaults, are Python's, so an effect type new to the kernel needs nothing here.
fn effect_spec(effect: &Fields<'_>, reader: &Reader<'_>) -> PyResult<EffectSpec> {
    let mut spec = EffectSpec::new(&effect.get::<String>("name")?, &effect.get::<String>("when")?);
    for parameter in effect.items("parameters")? {
        let name: String = parameter.get("name")?;
        let value = param_value(&parameter.field("value")?, reader)?;
        spec.params.push((name, value));
    }
    Ok(spec)
}

/// The one reader of an effect parameter's value: none, a text, an expression of the rules
/// language (by its node's kind), an integer, one effect list, or a list of them
/// (`choose_one`'s options, never empty).
fn param_value(value: &Fields<'_>, reader: &Reader<'_>) -> PyResult<ParamValue> {
    let object = &value.object;
    if object.is_none() {
        return Ok(ParamValue::None);
    }
    if let Ok(text) = object.cast::<PyString>() {
        return Ok(ParamValue::Text(text.to_str()?.to_string()));
    }
    if let Some(kind) = expressions::kind_of(object)? {
        return Ok(match kind.as_str() {
            "amount" => ParamValue::Amount(reader.amount(object)?),
            "condition" => ParamValue::Condition(reader.condition(object)?),
            set => match expressions::set_kind(set) {
                Some(kind) => ParamValue::Set(reader.set(object, kind)?),
                None => return Err(refused(&value.at, format!("unknown expression kind {set:?}"))),
            },
        });
    }
    if let Ok(number) = object.extract::<i64>() {
        return Ok(ParamValue::Int(number));
    }
    let not_a_value = || refused(&value.at, "neither an integer, a text, an expression nor effect lists");
    let items = value.elements().map_err(|_| not_a_value())?;
    if items.first().is_none_or(|first| first.object.cast::<PyTuple>().is_err()) {
        return Ok(ParamValue::Effects(items.iter().map(|e| effect_spec(e, reader)).collect::<PyResult<_>>()?));
    }
    let mut options = Vec::new();
    for option in items {
        options.push(option.elements()?.iter().map(|e| effect_spec(e, reader)).collect::<PyResult<_>>()?);
    }
    Ok(ParamValue::Options(options))
}
