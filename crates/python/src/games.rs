//! Whole simulation games in the kernel (`stargazer_kernel::bots::play`): `play_games` plays a
//! chunk of games from their setups with their seats' bots, without the GIL, and returns what
//! each game's games.jsonl line needs; `stargazer_rules.simulation.runner` writes the lines.

use std::time::{Duration, Instant};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use stargazer_kernel::python_random::MersenneTwister;
use stargazer_kernel::bots::play::{self, Playout, SeatBot};
use stargazer_kernel::State;

use crate::{to_py_err, Kernel, KernelBot, KernelState};

/// The seat kind that plays as the Python engine's random bot, draw for draw.
const PYTHON_RANDOM: &str = "python_random";

/// One seat: (kind, seed, parameters), a kind of `KernelBot` or `PYTHON_RANDOM`.
type SeatSpec<'py> = (String, u64, Bound<'py, PyDict>);
/// One game: (players, planet cards in ring order, dealt crew cards, start seat, one seat each).
type GameSpec<'py> = (usize, Vec<u16>, Vec<u16>, usize, Vec<SeatSpec<'py>>);

fn seat_bot(spec: &SeatSpec<'_>) -> PyResult<SeatBot> {
    let (kind, seed, params) = spec;
    if kind == PYTHON_RANDOM {
        return Ok(SeatBot::PythonRandom(MersenneTwister::new(*seed)));
    }
    Ok(SeatBot::Kernel(KernelBot::new(kind, *seed, params)?.bot))
}

/// A played game as Python values: (moves, options, picks, score_by_round, value_by_round,
/// searched, final state). A move is (kind, target, count, direction, card), a pick (round,
/// order, seat, crew card, motivation VP), a round's values None or one float a seat.
fn playout_to<'py>(py: Python<'py>, kernel: &Kernel, played: Playout) -> PyResult<Bound<'py, PyTuple>> {
    let players = played.state.players as usize;
    let moves = played
        .moves
        .iter()
        .map(|m| (m.action.kind.name(), m.action.target, m.action.count, m.action.direction as i32, m.card).into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    let picks = played
        .picks
        .iter()
        .map(|p| (p.round, p.order, p.seat, p.crew, p.motivation_vp).into_pyobject(py))
        .collect::<PyResult<Vec<_>>>()?;
    let scores = played.score_by_round.iter().map(|totals| PyList::new(py, &totals[..players])).collect::<PyResult<Vec<_>>>()?;
    let values = played
        .value_by_round
        .iter()
        .map(|values| match values {
            Some(values) => Ok(PyList::new(py, values.seats())?.into_any()),
            None => Ok(py.None().into_bound(py)),
        })
        .collect::<PyResult<Vec<_>>>()?;
    let state: State = played.state;
    let items: Vec<Bound<'py, PyAny>> = vec![
        PyList::new(py, moves)?.into_any(),
        PyList::new(py, played.options)?.into_any(),
        PyList::new(py, picks)?.into_any(),
        PyList::new(py, scores)?.into_any(),
        PyList::new(py, values)?.into_any(),
        played.searched.into_pyobject(py)?.to_owned().into_any(),
        Bound::new(py, KernelState { game: kernel.game.clone(), state })?.into_any(),
    ];
    PyTuple::new(py, items)
}

/// How often a chunk that is playing looks for a signal (Ctrl-C) to raise: at its first
/// decision, then at the first decision this long after the last look.
const SIGNAL_EVERY: Duration = Duration::from_millis(50);

/// Play each game of `games` (see `GameSpec`) to its end, with the GIL released while they
/// play; one tuple per game (see `playout_to`). A bad setup raises `SetupError`, an unknown bot
/// kind `ValueError`, before any game is played. A signal's exception (KeyboardInterrupt)
/// stops the chunk at the next decision after it (`SIGNAL_EVERY`), as a decision at a time
/// in Python would be stopped, and is raised instead of the games.
#[pyfunction]
fn play_games<'py>(py: Python<'py>, kernel: &Kernel, games: Vec<GameSpec<'py>>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let mut tables = Vec::with_capacity(games.len());
    for (players, planets, crew, start, seats) in &games {
        if seats.len() != *players {
            return Err(PyValueError::new_err(format!("{} seats' bots for {players} players", seats.len())));
        }
        let state = kernel.game.new_state(*players, planets, crew, *start).map_err(|e| to_py_err(py, e))?;
        let bots = seats.iter().map(seat_bot).collect::<PyResult<Vec<_>>>()?;
        tables.push((state, bots));
    }
    let game = kernel.game.clone();
    let (played, signal) = py.detach(move || {
        let mut signal: Option<PyErr> = None;
        let mut looked: Option<Instant> = None;
        let mut stop = || {
            if looked.is_some_and(|at| at.elapsed() < SIGNAL_EVERY) {
                return false;
            }
            looked = Some(Instant::now());
            signal = Python::attach(|py| py.check_signals()).err();
            signal.is_some()
        };
        let mut played: Vec<Playout> = Vec::with_capacity(tables.len());
        for (state, mut bots) in tables {
            match play::play(&game, state, &mut bots, &mut stop) {
                Some(playout) => played.push(playout),
                None => break,
            }
        }
        (played, signal)
    });
    if let Some(error) = signal {
        return Err(error);
    }
    played.into_iter().map(|p| playout_to(py, kernel, p)).collect()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_games, m)?)
}
