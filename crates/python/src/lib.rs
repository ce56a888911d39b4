//! PyO3 bindings of the kernel: `stargazer_rules._kernel`. This layer converts values between
//! Python and the kernel and maps the kernel's errors to the Python engine's exceptions, in
//! one place (`to_py_err`); no rule lives here.

// Flat tables indexed by seat, ring position and crew slot read best as indexed loops.
#![allow(clippy::needless_range_loop)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFrozenSet, PySequence, PyString, PyTuple};

use stargazer_kernel::bots::{self, Bot, BotKind, GreedyParams, MctsParams, Rollout};
use stargazer_kernel::rng::Rng;
use stargazer_kernel::rules::{CrewSpec, EffectSpec, PlanetSpec, RulesSpec, EFFECT_NAMES};
use stargazer_kernel::state::{FREE_CUBE, NO_WORKER, TRIGGER_NAMES};
use stargazer_kernel::{Action, Game, KernelError, Kind, Pending, Stage, State, MAX_PLAYERS};

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

fn corrupt(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(format!("not a state of this ruleset: {}", message.into()))
}

// -- reading a ruleset spec -----------------------------------------------------------------

fn item<'py>(dict: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    dict.get_item(key)?.ok_or_else(|| PyValueError::new_err(format!("ruleset spec: missing {key:?}")))
}

fn int_or(dict: &Bound<'_, PyDict>, key: &str, default: i64) -> PyResult<i64> {
    match dict.get_item(key)? {
        Some(value) if !value.is_none() => value.extract(),
        _ => Ok(default),
    }
}

fn effect_spec(value: &Bound<'_, PyAny>) -> PyResult<EffectSpec> {
    let dict = value.cast::<PyDict>()?;
    let mut options = Vec::new();
    if let Some(list) = dict.get_item("options")? {
        if !list.is_none() {
            for option in list.try_iter()? {
                let effects = option?.try_iter()?.map(|e| effect_spec(&e?)).collect::<PyResult<Vec<_>>>()?;
                options.push(effects);
            }
        }
    }
    Ok(EffectSpec {
        name: item(dict, "name")?.extract()?,
        when: item(dict, "when")?.extract()?,
        count: int_or(dict, "count", 1)?,
        vp: int_or(dict, "vp", 0)?,
        delta: int_or(dict, "delta", 0)?,
        planets: match dict.get_item("planets")? {
            Some(v) if !v.is_none() => v.extract()?,
            _ => "any".to_string(),
        },
        colour: match dict.get_item("colour")? {
            Some(v) if !v.is_none() => Some(v.extract()?),
            _ => None,
        },
        options,
    })
}

fn rules_spec(spec: &Bound<'_, PyDict>) -> PyResult<RulesSpec> {
    let mut planets = Vec::new();
    for card in item(spec, "planets")?.try_iter()? {
        let card = card?;
        let card = card.cast::<PyDict>()?;
        planets.push(PlanetSpec {
            id: item(card, "id")?.extract()?,
            colour: item(card, "colour")?.extract()?,
            track: item(card, "track")?.extract()?,
            special_capacity: item(card, "special_capacity")?.extract()?,
        });
    }
    let mut crew = Vec::new();
    for card in item(spec, "crew")?.try_iter()? {
        let card = card?;
        let card = card.cast::<PyDict>()?;
        crew.push(CrewSpec {
            id: item(card, "id")?.extract()?,
            survey_count: item(card, "survey_count")?.extract()?,
            always_in_play: item(card, "always_in_play")?.extract()?,
            skill: item(card, "skill")?.try_iter()?.map(|e| effect_spec(&e?)).collect::<PyResult<Vec<_>>>()?,
        });
    }
    Ok(RulesSpec {
        colours: item(spec, "colours")?.extract()?,
        planets,
        crew,
        setups: item(spec, "setups")?.extract()?,
        cubes_per_player: item(spec, "cubes_per_player")?.extract()?,
        free_cubes: item(spec, "free_cubes")?.extract()?,
        max_free_cubes_per_crew: item(spec, "max_free_cubes_per_crew")?.extract()?,
        free_cube_vp: item(spec, "free_cube_vp")?.extract()?,
        player_cube_vp: item(spec, "player_cube_vp")?.extract()?,
        survey_minimum: item(spec, "survey_minimum")?.extract()?,
        max_rounds: item(spec, "max_rounds")?.extract()?,
    })
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
}

#[pymethods]
impl Kernel {
    /// Compile a ruleset spec (built by `stargazer_rules.kernel.compile`); ValueError names
    /// what the kernel cannot play.
    #[new]
    fn new(py: Python<'_>, spec: &Bound<'_, PyDict>) -> PyResult<Kernel> {
        let spec = rules_spec(spec)?;
        let rules = stargazer_kernel::Rules::compile(&spec).map_err(|e| to_py_err(py, e))?;
        Ok(Kernel { game: Arc::new(Game::new(rules)) })
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
    /// ruleset; its legal actions are derived by the kernel.
    fn read_state(&self, py: Python<'_>, fields: &Bound<'_, PyAny>) -> PyResult<KernelState> {
        let state = state_from_fields(&self.game, fields).map_err(|error| {
            let message = error.value(py).str().map(|s| s.to_string()).unwrap_or_else(|_| "unreadable state".into());
            to_py_err(py, KernelError::State(message))
        })?;
        Ok(KernelState { game: self.game.clone(), state })
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
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
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

    /// Each seat's (majority VP, bonus VP, VP from play, total, hand) (R15-R18).
    fn seat_totals(&self) -> Vec<(i32, i32, i32, i32, i32)> {
        let sheet = self.game.seat_totals(&self.state);
        sheet[..self.state.players as usize].iter().map(|s| (s.majority, s.bonus, s.play, s.total, s.hand)).collect()
    }

    fn totals(&self) -> Vec<i32> {
        self.game.totals(&self.state)[..self.state.players as usize].to_vec()
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
}

// -- states across the boundary -------------------------------------------------------------

fn field<'py>(fields: &Bound<'py, PySequence>, index: usize) -> PyResult<Bound<'py, PyAny>> {
    fields.get_item(index)
}

fn ints(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    value.extract::<Vec<i64>>().map_err(|_| corrupt(format!("{what} must be a sequence of integers")))
}

fn int(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    value.extract::<i64>().map_err(|_| corrupt(format!("{what} must be an integer")))
}

fn in_range(value: i64, low: i64, high: i64, what: &str) -> PyResult<i64> {
    if value < low || value > high {
        return Err(corrupt(format!("{what} = {value} is outside {low}..{high}")));
    }
    Ok(value)
}

fn state_from_fields(game: &Game, fields: &Bound<'_, PyAny>) -> PyResult<State> {
    let rules = &game.rules;
    let fields = fields.cast::<PySequence>().map_err(|_| corrupt("a state is a sequence of fields"))?;
    if fields.len()? < 25 {
        return Err(corrupt("a state has 26 fields"));
    }
    let players = in_range(int(&field(fields, 0)?, "players")?, 1, MAX_PLAYERS as i64, "players")? as usize;
    let planets = ints(&field(fields, 1)?, "planets")?;
    let crew = ints(&field(fields, 2)?, "crew")?;
    let planet_cards: Vec<u16> = planets
        .iter()
        .map(|&c| in_range(c, 0, rules.planets.len() as i64 - 1, "a planet card").map(|c| c as u16))
        .collect::<PyResult<_>>()?;
    let crew_cards: Vec<u16> = crew
        .iter()
        .map(|&c| in_range(c, 0, rules.crew.len() as i64 - 1, "a crew card").map(|c| c as u16))
        .collect::<PyResult<_>>()?;
    let mut s = game.empty_state(players, &planet_cards, &crew_cards).map_err(|e| corrupt(e.to_string()))?;
    let n_planets = planet_cards.len();
    let n_crew = crew_cards.len();
    let per = |value: Vec<i64>, len: usize, what: &str| -> PyResult<Vec<i64>> {
        if value.len() != len {
            return Err(corrupt(format!("{what} has {} entries, not {len}", value.len())));
        }
        Ok(value)
    };
    let tracks = field(fields, 3)?;
    let specials = field(fields, 4)?;
    let tracks = tracks.cast::<PySequence>().map_err(|_| corrupt("tracks must be a sequence"))?;
    let specials = specials.cast::<PySequence>().map_err(|_| corrupt("specials must be a sequence"))?;
    if tracks.len()? != n_planets || specials.len()? != n_planets {
        return Err(corrupt("tracks and specials need one entry per Planet"));
    }
    for p in 0..n_planets {
        let card = &rules.planets[planet_cards[p] as usize];
        let track = ints(&tracks.get_item(p)?, "a track")?;
        let special = ints(&specials.get_item(p)?, "a special square")?;
        if track.len() > card.length() || special.len() > card.special_capacity as usize {
            return Err(corrupt(format!("Planet {p} ({}) holds more cubes than it has squares", card.id)));
        }
        for (i, &owner) in track.iter().enumerate() {
            s.board[s.track_start[p] as usize + i] = in_range(owner, FREE_CUBE as i64, players as i64 - 1, "a cube's owner")? as i8;
        }
        for (i, &owner) in special.iter().enumerate() {
            s.board[s.special_start[p] as usize + i] = in_range(owner, 0, players as i64 - 1, "a special cube's owner")? as i8;
        }
        s.track_fill[p] = track.len() as u16;
        s.special_fill[p] = special.len() as u16;
    }
    for (slot, free) in per(ints(&field(fields, 5)?, "crew_free")?, n_crew, "crew_free")?.into_iter().enumerate() {
        s.crew_free[slot] = in_range(free, 0, 1 << 20, "free cubes on a crew")? as i32;
    }
    let cubes = field(fields, 6)?;
    let cubes = cubes.cast::<PySequence>().map_err(|_| corrupt("crew_cubes must be a sequence"))?;
    if cubes.len()? != n_crew {
        return Err(corrupt("crew_cubes needs one entry per crew"));
    }
    for slot in 0..n_crew {
        for owner in ints(&cubes.get_item(slot)?, "crew cubes")? {
            let owner = in_range(owner, 0, players as i64 - 1, "a crew cube's owner")? as usize;
            s.crew_cubes[slot][owner] = s.crew_cubes[slot][owner].checked_add(1).ok_or_else(|| corrupt("too many crew cubes"))?;
        }
    }
    for (slot, worker) in per(ints(&field(fields, 7)?, "workers")?, n_crew, "workers")?.into_iter().enumerate() {
        s.workers[slot] = in_range(worker, NO_WORKER as i64, players as i64 - 1, "a worker")? as i8;
    }
    // Counts far beyond any ruleset's (a million cubes, a billion VP) are refused, so that no
    // sum the rules make can overflow.
    let limit = 1i64 << 20;
    for (seat, v) in per(ints(&field(fields, 8)?, "hands")?, players, "hands")?.into_iter().enumerate() {
        s.hands[seat] = in_range(v, 0, i16::MAX as i64, "a hand")? as i32;
    }
    for (seat, v) in per(ints(&field(fields, 9)?, "vp")?, players, "vp")?.into_iter().enumerate() {
        s.vp[seat] = in_range(v, -(limit << 10), limit << 10, "VP")? as i32;
    }
    for (seat, v) in per(ints(&field(fields, 10)?, "removed")?, players, "removed")?.into_iter().enumerate() {
        s.removed[seat] = in_range(v, 0, limit, "removed cubes")? as i32;
    }
    s.stock = in_range(int(&field(fields, 11)?, "stock")?, 0, limit, "stock")? as i32;
    s.round = in_range(int(&field(fields, 12)?, "round")?, 1, limit, "round")? as u32;
    s.start_player = in_range(int(&field(fields, 13)?, "start_player")?, 0, players as i64 - 1, "start_player")? as u8;
    s.turn = in_range(int(&field(fields, 14)?, "turn")?, 0, players as i64, "turn")? as u8;
    let stage: String = field(fields, 15)?.extract().map_err(|_| corrupt("stage must be a string"))?;
    s.stage = Stage::parse(&stage).ok_or_else(|| corrupt(format!("unknown stage {stage:?}")))?;
    let chosen = ints(&field(fields, 16)?, "chosen")?;
    if chosen.len() > n_crew {
        return Err(corrupt("more crew chosen than there are"));
    }
    for (i, slot) in chosen.into_iter().enumerate() {
        s.chosen[i] = in_range(slot, 0, n_crew as i64 - 1, "a chosen crew slot")? as u8;
        s.chosen_len += 1;
    }
    let pending = field(fields, 17)?;
    let mut queue = Vec::new();
    for entry in pending.try_iter().map_err(|_| corrupt("pending must be a sequence"))? {
        let entry = entry?;
        let entry = entry.cast::<PySequence>().map_err(|_| corrupt("a pending effect is (slot, path, remaining, seat)"))?;
        if entry.len()? != 4 {
            return Err(corrupt("a pending effect is (slot, path, remaining, seat)"));
        }
        let slot = in_range(int(&entry.get_item(0)?, "a pending slot")?, 0, n_crew as i64 - 1, "a pending slot")? as usize;
        let path: Vec<u16> = entry
            .get_item(1)?
            .extract::<Vec<i64>>()
            .map_err(|_| corrupt("a pending path must be integers"))?
            .into_iter()
            .map(|i| u16::try_from(i).map_err(|_| corrupt("a pending path is out of range")))
            .collect::<PyResult<_>>()?;
        let remaining = in_range(int(&entry.get_item(2)?, "remaining")?, 1, u32::MAX as i64, "remaining steps")? as u32;
        let seat = in_range(int(&entry.get_item(3)?, "a pending seat")?, 0, players as i64 - 1, "a pending seat")? as u8;
        let node = rules
            .node_at(s.crew[slot], &path)
            .ok_or_else(|| corrupt(format!("crew slot {slot} has no effect at path {path:?}")))?;
        queue.push(Pending { node, slot: slot as u8, seat, remaining });
    }
    queue.reverse(); // the kernel's stack resolves its last element first
    s.pending = queue.into_iter().collect();
    s.survey_rules = in_range(int(&field(fields, 18)?, "survey_rules")?, 0, 7, "survey_rules")? as u8;
    s.survey_bonus = in_range(int(&field(fields, 19)?, "survey_bonus")?, -limit, limit, "survey_bonus")? as i32;
    s.survey_placed = in_range(int(&field(fields, 20)?, "survey_placed")?, 0, limit, "survey_placed")? as i32;
    s.survey_last = in_range(int(&field(fields, 21)?, "survey_last")?, -1, n_planets as i64 - 1, "survey_last")? as i32;
    s.survey_direction = in_range(int(&field(fields, 22)?, "survey_direction")?, -1, 1, "survey_direction")? as i8;
    let surveyed = field(fields, 23)?;
    for p in surveyed.try_iter().map_err(|_| corrupt("surveyed must be a set"))? {
        let p = in_range(int(&p?, "a surveyed Planet")?, 0, n_planets as i64 - 1, "a surveyed Planet")?;
        s.surveyed |= 1 << p;
    }
    for trigger in field(fields, 24)?.try_iter().map_err(|_| corrupt("triggers must be a sequence"))? {
        let name: String = trigger?.extract().map_err(|_| corrupt("a trigger must be a string"))?;
        let flag = TRIGGER_NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .ok_or_else(|| corrupt(format!("unknown trigger {name:?}")))?
            .0;
        s.triggers |= flag;
    }
    // A worker stands on exactly the crews chosen this round, each once.
    for slot in 0..n_crew {
        let chosen = s.chosen().iter().filter(|&&c| c as usize == slot).count();
        if chosen > 1 || (chosen == 1) != (s.workers[slot] != NO_WORKER) {
            return Err(corrupt(format!("crew slot {slot}: its worker and the crews chosen this round disagree")));
        }
    }
    if s.stage != Stage::Over && s.stage != Stage::RoundEnd && s.turn as usize >= players {
        return Err(corrupt(format!("turn {} of a round of {players} turns", s.turn)));
    }
    if matches!(s.stage, Stage::BeforeSurvey | Stage::Surveying | Stage::AfterSurvey) && s.chosen_len == 0 {
        return Err(corrupt(format!("stage {stage:?} needs a chosen crew")));
    }
    // One crew is chosen per turn: before turn t's pick, t crews; from its pick to its end, t + 1.
    let picked = s.turn as usize + usize::from(s.stage != Stage::PickCrew);
    if matches!(s.stage, Stage::PickCrew | Stage::BeforeSurvey | Stage::Surveying | Stage::AfterSurvey)
        && s.chosen_len as usize != picked
    {
        return Err(corrupt(format!("turn {} with {} crews chosen this round", s.turn, s.chosen_len)));
    }
    if s.stage == Stage::RoundEnd && s.pending.is_empty() {
        return Err(corrupt("a round-end decision needs a pending effect"));
    }
    s.legal = match game.derive_legal(&s) {
        Some(legal) => legal.into_iter().collect(),
        None if s.stage == Stage::Over => Default::default(),
        None => return Err(corrupt(format!("the state (stage {stage:?}) waits for no decision"))),
    };
    Ok(s)
}

fn state_to_fields<'py>(py: Python<'py>, game: &Game, s: &State) -> PyResult<Bound<'py, PyTuple>> {
    let rules = &game.rules;
    let players = s.players as usize;
    let np = s.planet_count as usize;
    let nc = s.crew_count as usize;
    let tuple_of = |values: Vec<i64>| PyTuple::new(py, values);
    let tracks = (0..np).map(|p| tuple_of(s.track(p).iter().map(|&o| o as i64).collect())).collect::<PyResult<Vec<_>>>()?;
    let specials = (0..np).map(|p| tuple_of(s.special(p).iter().map(|&o| o as i64).collect())).collect::<PyResult<Vec<_>>>()?;
    let crew_cubes = (0..nc)
        .map(|slot| {
            let mut owners = Vec::new();
            for owner in 0..players {
                for _ in 0..s.crew_cubes[slot][owner] {
                    owners.push(owner as i64);
                }
            }
            tuple_of(owners)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let pending = s
        .pending
        .iter()
        .rev()
        .map(|p| {
            let path = PyTuple::new(py, rules.nodes[p.node as usize].path.iter().map(|&i| i as i64))?;
            (p.slot as i64, path, p.remaining as i64, p.seat as i64).into_pyobject(py)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let surveyed = PyFrozenSet::new(py, (0..np).filter(|&p| s.surveyed & (1 << p) != 0).map(|p| p as i64))?;
    let triggers: Vec<&str> = TRIGGER_NAMES.iter().filter(|(f, _)| s.triggers & f != 0).map(|(_, n)| *n).collect();
    let items: Vec<Bound<'py, PyAny>> = vec![
        players.into_pyobject(py)?.into_any(),
        tuple_of(s.planets[..np].iter().map(|&c| c as i64).collect())?.into_any(),
        tuple_of(s.crew[..nc].iter().map(|&c| c as i64).collect())?.into_any(),
        PyTuple::new(py, tracks)?.into_any(),
        PyTuple::new(py, specials)?.into_any(),
        tuple_of(s.crew_free[..nc].iter().map(|&c| c as i64).collect())?.into_any(),
        PyTuple::new(py, crew_cubes)?.into_any(),
        tuple_of(s.workers[..nc].iter().map(|&c| c as i64).collect())?.into_any(),
        tuple_of(s.hands[..players].iter().map(|&c| c as i64).collect())?.into_any(),
        tuple_of(s.vp[..players].iter().map(|&c| c as i64).collect())?.into_any(),
        tuple_of(s.removed[..players].iter().map(|&c| c as i64).collect())?.into_any(),
        (s.stock as i64).into_pyobject(py)?.into_any(),
        (s.round as i64).into_pyobject(py)?.into_any(),
        (s.start_player as i64).into_pyobject(py)?.into_any(),
        (s.turn as i64).into_pyobject(py)?.into_any(),
        PyString::new(py, s.stage.name()).into_any(),
        tuple_of(s.chosen().iter().map(|&c| c as i64).collect())?.into_any(),
        PyTuple::new(py, pending)?.into_any(),
        (s.survey_rules as i64).into_pyobject(py)?.into_any(),
        (s.survey_bonus as i64).into_pyobject(py)?.into_any(),
        (s.survey_placed as i64).into_pyobject(py)?.into_any(),
        (s.survey_last as i64).into_pyobject(py)?.into_any(),
        (s.survey_direction as i64).into_pyobject(py)?.into_any(),
        surveyed.into_any(),
        PyTuple::new(py, triggers)?.into_any(),
        actions_to(py, &s.legal)?.into_any(),
    ];
    PyTuple::new(py, items)
}

#[pymodule]
fn _kernel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Kernel>()?;
    m.add_class::<KernelState>()?;
    m.add_class::<KernelBot>()?;
    m.add("__doc__", "Stargazer's native kernel (Rust): compiled rules and the bots' search.")?;
    Ok(())
}
