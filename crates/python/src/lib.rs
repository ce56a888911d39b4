//! PyO3 bindings of the kernel: `stargazer_rules._kernel`. This layer converts values between
//! Python and the kernel and maps the kernel's errors to the Python engine's exceptions, in
//! one place (`to_py_err`); no rule lives here.

// Flat tables indexed by seat, ring position and crew slot read best as indexed loops.
#![allow(clippy::needless_range_loop)]

mod compiled;
mod contract;
mod crossing;
mod expressions;
mod fast;

use std::sync::Arc;
use std::time::{Duration, Instant};

mod games;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySequence, PyTuple};

use stargazer_kernel::bots::{self, Bot, BotKind, GreedyParams, MctsParams, Rollout};
use stargazer_kernel::rng::Rng;
use stargazer_kernel::rules::EFFECT_NAMES;
use stargazer_kernel::check::{self, Problem, StateFields, Trust};
use stargazer_kernel::observation::ObservationLayout;
use stargazer_kernel::{Action, Game, KernelError, Kind, State};

use compiled::Named;

/// The kernel's errors as the Python engine's exceptions: an illegal action raises
/// `IllegalActionError`, a bad setup `SetupError`, a state that does not fit the ruleset
/// `RecordError` (as `jsonio.state_from_json` does), and a ruleset the kernel cannot compile
/// `ValueError` (the Python side then falls back to the Python engine).
fn to_py_err(py: Python<'_>, error: KernelError) -> PyErr {
    let python_type = match &error {
        KernelError::Illegal(_) => Some("IllegalActionError"),
        KernelError::Setup(_) => Some("SetupError"),
        KernelError::State(_) => Some("RecordError"),
        KernelError::Unsupported(_) => None,
    };
    if let Some(name) = python_type {
        if let Ok(class) = py.import("stargazer_rules.errors").and_then(|m| m.getattr(name)) {
            if let Ok(instance) = class.call1((error.to_string(),)) {
                return PyErr::from_value(instance);
            }
        }
    }
    PyValueError::new_err(error.to_string())
}


// -- actions ------------------------------------------------------------------------------

fn action_from(value: &Bound<'_, PyAny>) -> PyResult<Action> {
    let parts = value.cast::<PySequence>()?;
    if parts.len()? != 4 {
        return Err(PyValueError::new_err("an action is (kind, target, count, direction)"));
    }
    let kind: String = parts.get_item(0)?.extract()?;
    let kind = Kind::parse(&kind).ok_or_else(|| PyValueError::new_err(format!("unknown action kind {kind:?}")))?;
    let target: i64 = parts.get_item(1)?.extract()?;
    let count: i64 = parts.get_item(2)?.extract()?;
    let direction: i64 = parts.get_item(3)?.extract()?;
    let fits = |v: i64| i16::try_from(v).ok();
    match (fits(target), fits(count), i8::try_from(direction).ok()) {
        (Some(target), Some(count), Some(direction)) => Ok(Action { kind, target, count, direction }),
        _ => Err(PyValueError::new_err("an action's numbers are out of range")),
    }
}

fn action_to<'py>(py: Python<'py>, act: Action) -> PyResult<Bound<'py, PyTuple>> {
    (act.kind.name(), act.target, act.count, act.direction as i32).into_pyobject(py)
}

fn actions_to<'py>(py: Python<'py>, actions: &[Action]) -> PyResult<Bound<'py, PyTuple>> {
    let items = actions.iter().map(|&a| action_to(py, a)).collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, items)
}

// -- the kernel -----------------------------------------------------------------------------

/// A compiled ruleset: the tables the kernel plays.
#[pyclass(frozen, module = "stargazer_rules._kernel")]
struct Kernel {
    game: Arc<Game>,
    /// The observation layout received with the ruleset (read by the fast API).
    observation: ObservationLayout,
}

#[pymethods]
impl Kernel {
    /// Compile a ruleset compiled by Python (`stargazer_rules.kernel.compiled.CompiledRuleset`);
    /// ValueError names a field missing or of the wrong type, or what the kernel cannot play.
    #[new]
    fn new(py: Python<'_>, compiled: &Bound<'_, PyAny>) -> PyResult<Kernel> {
        let spec = compiled::rules_spec(compiled)?;
        let rules = stargazer_kernel::Rules::compile(&spec).map_err(|e| to_py_err(py, e))?;
        let observation = ObservationLayout::received(&rules, &compiled::observation_fields(compiled)?).map_err(|e| to_py_err(py, e))?;
        Ok(Kernel { game: Arc::new(Game::new(rules)), observation })
    }

    /// The effect type names the kernel knows.
    #[staticmethod]
    fn effect_names() -> Vec<&'static str> {
        EFFECT_NAMES.to_vec()
    }

    /// A new game from a setup: planet card indices in ring order, dealt crew card indices,
    /// the start seat.
    fn new_state(&self, py: Python<'_>, players: usize, planets: Vec<u16>, crew: Vec<u16>, start: usize) -> PyResult<KernelState> {
        let state = self.game.new_state(players, &planets, &crew, start).map_err(|e| to_py_err(py, e))?;
        Ok(KernelState { game: self.game.clone(), state })
    }

    /// A setup dealt by the kernel's own generator from `seed`: (planets, crew, start).
    fn deal(&self, py: Python<'_>, players: usize, seed: u64) -> PyResult<(Vec<u16>, Vec<u16>, usize)> {
        self.game.deal(players, &mut Rng::new(seed)).map_err(|e| to_py_err(py, e))
    }

    /// A kernel state from the fields of a Python engine `State`, checked against the
    /// ruleset (`check::state_from_fields`); its legal actions are derived by the kernel.
    /// `trusted` is for a state the Python engine made: the rules' checks are skipped, the
    /// shape the kernel needs never is.
    #[pyo3(signature = (fields, trusted=false))]
    fn read_state(&self, py: Python<'_>, fields: &Bound<'_, PyAny>, trusted: bool) -> PyResult<KernelState> {
        let fields = extract_fields(fields).map_err(|error| {
            let message = error.value(py).str().map(|s| s.to_string()).unwrap_or_else(|_| "unreadable state".into());
            to_py_err(py, KernelError::State(message))
        })?;
        let trust = if trusted { Trust::Engine } else { Trust::Nobody };
        let state = check::state_from_fields(&self.game, &fields, trust)
            .map_err(|problems| to_py_err(py, KernelError::State(format!("not a state of this ruleset: {}", problems_message(&problems)))))?;
        Ok(KernelState { game: self.game.clone(), state })
    }

    /// Every problem the kernel's checker finds in the fields of a Python engine `State`, as
    /// "$.path: reason" (the words of `state_checks.state_problems`); empty for a state.
    fn state_problems(&self, py: Python<'_>, fields: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let fields = extract_fields(fields).map_err(|error| {
            let message = error.value(py).str().map(|s| s.to_string()).unwrap_or_else(|_| "unreadable state".into());
            to_py_err(py, KernelError::State(message))
        })?;
        Ok(match check::state_from_fields(&self.game, &fields, Trust::Nobody) {
            Ok(_) => Vec::new(),
            Err(problems) => problems.iter().map(|p| p.to_string()).collect(),
        })
    }

    /// The bounds the kernel received and keeps (`Bounds`), by the names of `StateBounds`.
    fn bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.game.rules.bounds.to_dict(py)
    }

    /// The action-index sizes the kernel received and keeps, by the names of `ActionSizes`.
    fn action_sizes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.game.rules.action_sizes.to_dict(py)
    }

    /// How many states any kernel has checked against the rules so far (a test counts that
    /// a simulation's bots read the Python engine's states without it).
    #[staticmethod]
    fn rule_checks() -> u64 {
        check::rule_checks()
    }

    /// Play `games` uniformly random games of `players` from kernel deals seeded `seed`,
    /// `seed + 1`, ...; returns the decisions taken (the random-playout benchmark).
    fn random_games(&self, py: Python<'_>, players: usize, seed: u64, games: u64) -> PyResult<u64> {
        let game = self.game.clone();
        let result = py.detach(move || -> Result<u64, KernelError> {
            let mut decisions = 0u64;
            for g in 0..games {
                let mut rng = Rng::new(seed.wrapping_add(g));
                let (planets, crew, start) = game.deal(players, &mut rng)?;
                let mut state = game.new_state(players, &planets, &crew, start)?;
                decisions += bots::random_playout(&game, &mut state, &mut rng) as u64;
            }
            Ok(decisions)
        });
        result.map_err(|e| to_py_err(py, e))
    }
}

/// A mutable kernel game state.
#[pyclass(module = "stargazer_rules._kernel")]
struct KernelState {
    game: Arc<Game>,
    state: State,
}

#[pymethods]
impl KernelState {
    /// The fields of the equivalent Python engine `State`, in its order; `pending` items are
    /// (slot, path, remaining, seat) and `legal` items (kind, target, count, direction).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        state_to_fields(py, &self.game, &self.state)
    }

    /// The legal actions as (kind, target, count, direction) tuples.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        actions_to(py, &self.state.legal)
    }

    fn current_player(&self) -> Option<usize> {
        self.game.current_player(&self.state)
    }

    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// Play a legal action; IllegalActionError otherwise, and the state is unchanged.
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let act = action_from(action)?;
        self.game.step(&mut self.state, act).map_err(|e| to_py_err(py, e))
    }

    /// Each seat's (majority VP, bonus VP, VP from play, total, hand) (R15-R18); the total adds the lines of `end_scoring` (`scoring_lines`).
    fn seat_totals(&self) -> Vec<(i32, i32, i32, i32, i32)> {
        let sheet = self.game.seat_totals(&self.state);
        sheet[..self.state.players as usize].iter().map(|s| (s.majority, s.bonus, s.play, s.total, s.hand)).collect()
    }

    fn totals(&self) -> Vec<i32> {
        self.game.totals(&self.state)[..self.state.players as usize].to_vec()
    }

    /// Each seat's VP of each line of the ruleset's `end_scoring`, in file order (R18's total
    /// in `seat_totals` adds them).
    fn scoring_lines(&self) -> Vec<Vec<i32>> {
        let lines = self.game.rules.end_scoring.len();
        let sheet = self.game.seat_totals(&self.state);
        sheet[..self.state.players as usize].iter().map(|s| s.lines[..lines].to_vec()).collect()
    }

    fn winners(&self) -> Vec<usize> {
        self.game.winners(&self.state)
    }

    fn copy(&self) -> KernelState {
        KernelState { game: self.game.clone(), state: self.state.clone() }
    }
}

/// A kernel bot: its kind, parameters and seeded generator.
#[pyclass(module = "stargazer_rules._kernel")]
struct KernelBot {
    bot: Bot,
}

fn float_param(params: &Bound<'_, PyDict>, key: &str, default: f64) -> PyResult<f64> {
    match params.get_item(key)? {
        Some(v) => v.extract(),
        None => Ok(default),
    }
}

fn uint_param(params: &Bound<'_, PyDict>, key: &str, default: u32) -> PyResult<u32> {
    match params.get_item(key)? {
        Some(v) => v.extract(),
        None => Ok(default),
    }
}

#[pymethods]
impl KernelBot {
    /// `kind` is random, greedy or mcts; `params` the bot spec's parameters, already checked
    /// by `stargazer_rules.bots`.
    #[new]
    fn new(kind: &str, seed: u64, params: &Bound<'_, PyDict>) -> PyResult<KernelBot> {
        let kind = match kind {
            "random" => BotKind::Random,
            "greedy" => {
                let d = GreedyParams::default();
                BotKind::Greedy(GreedyParams {
                    hand: float_param(params, "hand", d.hand)?,
                    start: float_param(params, "start", d.start)?,
                })
            }
            "mcts" => {
                let d = MctsParams::default();
                let rollout = match params.get_item("rollout")? {
                    Some(v) => match v.extract::<String>()?.as_str() {
                        "random" => Rollout::Random,
                        "full" => Rollout::Full,
                        "greedy" => Rollout::Greedy,
                        other => return Err(PyValueError::new_err(format!("unknown rollout {other:?}"))),
                    },
                    None => d.rollout,
                };
                BotKind::Mcts(MctsParams {
                    iterations: uint_param(params, "iterations", d.iterations)?,
                    c: float_param(params, "c", d.c)?,
                    rollout,
                    depth: uint_param(params, "depth", d.depth)?,
                    prior: uint_param(params, "prior", d.prior)?,
                    scale: float_param(params, "scale", d.scale)?,
                })
            }
            other => return Err(PyValueError::new_err(format!("the kernel has no bot {other:?}"))),
        };
        Ok(KernelBot { bot: Bot::new(kind, seed) })
    }

    /// The bot's choice for the player to move, as (kind, target, count, direction), or None
    /// when the search ran past `seconds` (the caller raises its timeout); the search runs
    /// without the GIL.
    #[pyo3(signature = (state, seconds=None))]
    fn choose<'py>(
        &mut self,
        py: Python<'py>,
        state: &KernelState,
        seconds: Option<f64>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let deadline = match seconds {
            Some(s) if s.is_finite() && s >= 0.0 => Some(Instant::now() + Duration::from_secs_f64(s.min(1e6))),
            Some(_) => return Err(PyValueError::new_err("seconds must be a non-negative number")),
            None => None,
        };
        let game = state.game.clone();
        let snapshot = state.state.clone();
        let mut bot = self.bot.clone();
        let (choice, bot) = py.detach(move || {
            let choice = bot.choose_until(&game, &snapshot, deadline);
            (choice, bot)
        });
        self.bot = bot;
        match choice {
            Ok(Some(act)) => Ok(Some(action_to(py, act)?)),
            Ok(None) => Err(PyValueError::new_err("the game is over: there is nothing to choose")),
            Err(_) => Ok(None),
        }
    }

    /// The root's value for each seat from the last `choose` (MCTS: each seat's mean reward in
    /// the search's simulations, docs/bots.md), or None when that choice was not searched.
    fn last_values(&self) -> Option<Vec<f64>> {
        self.bot.last_values.map(|values| values.seats().to_vec())
    }
}

// -- states across the boundary -------------------------------------------------------------

/// A Python engine `State`'s fields, read by name (`contract::read_state`).
fn extract_fields(state: &Bound<'_, PyAny>) -> PyResult<StateFields> {
    contract::read_state(state)
}

/// The kernel checker's problems as the Python engine's words (`state_checks.checked_state`).
fn problems_message(problems: &[Problem]) -> String {
    problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ")
}

/// A kernel state's fields by their names, as the Python engine's `State` takes them, its
/// legal actions included.
fn state_to_fields<'py>(py: Python<'py>, game: &Game, s: &State) -> PyResult<Bound<'py, PyDict>> {
    let dict = contract::state_dict(py, &StateFields::of(game, s))?;
    dict.set_item("legal", actions_to(py, &s.legal)?)?;
    Ok(dict)
}

#[pymodule]
fn _kernel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Kernel>()?;
    m.add_class::<KernelState>()?;
    m.add_class::<KernelBot>()?;
    games::register(m)?;
    fast::register(m)?;
    m.add("__doc__", "Stargazer's native kernel (Rust): compiled rules and the bots' search.")?;
    Ok(())
}
