//! The ruleset as the bindings read it from the compiled Python ruleset: plain specs, field by
//! field, before `Rules::compile` checks them.

use super::{MajoritySpec, BonusSpec, UnpickedCrews, End, ScoringLine, Bounds, ActionSizes, ActionLayout, KnobSpecs, unsupported};
use crate::error::{KernelError};
use crate::expr::{SetKind, Set, Owner, Amount, Condition};

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

    pub(super) fn param(&self, name: &str) -> Result<&ParamValue, KernelError> {
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
    /// The numeric knobs, each by its name (declared in the contract).
    pub knobs: KnobSpecs,
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
    /// The action index's blocks and strides (`Game.action_layout`).
    pub action_layout: ActionLayout,
}
