//! Bindings of the fast API (`stargazer_rules.fast`): a game stepped by integer action ids
//! (`FastState`) and a batch of games read and written through numpy's buffers
//! (`FastBatchCore`). Conversion only: the index, observation and batch live in the kernel's
//! core (`action_index.rs`, `observation.rs`, `batch.rs`), the Python side in `fast/game.py`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyTuple};

use stargazer_kernel::action_index::ActionIndex;
use stargazer_kernel::batch::{self, Batch};
use stargazer_kernel::observation::{FieldSpec, ObservationLayout};
use stargazer_kernel::python_deal::python_deal;
use stargazer_kernel::{Game, KernelError, State};

use super::{action_from, action_to, state_to_fields, to_py_err, Kernel, KernelState};

/// What every fast state of one ruleset shares.
struct Core {
    game: Arc<Game>,
    index: ActionIndex,
    layout: ObservationLayout,
    /// Every id as a Python int, made once: `legal_ids` only counts references.
    ints: Vec<Py<PyAny>>,
    /// The tuples `legal_ids` gave, by a hash of their ids: the same options (a pick among
    /// the same free crew, a survey of the same Planets) come back often, and a tuple shared
    /// costs one reference where a new one costs an allocation and a reference per id.
    tuples: Mutex<TupleMemo>,
}

/// Tuples of legal ids by the hash of their ids, with the ids to check a hit.
type TupleMemo = HashMap<u64, (Box<[u32]>, Py<PyTuple>), BuildHasherDefault<Prehashed>>;

/// The most tuples `legal_ids` keeps; past it the memo starts again.
const MOST_TUPLES: usize = 1 << 14;
/// The longest legal lists `legal_ids` keeps; longer ones are built each time.
const MEMO_WIDTH: usize = 64;

/// The hasher of keys that are hashes already.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | byte as u64;
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

impl Core {
    fn illegal(&self, py: Python<'_>, id: i64) -> PyErr {
        to_py_err(py, KernelError::Illegal(format!("action id {id} is outside 0..{}", self.index.size as i64 - 1)))
    }

    fn check_seat(&self, players: usize, seat: i64) -> PyResult<usize> {
        if seat < 0 || seat as usize >= players {
            return Err(PyValueError::new_err(format!("seat {seat} is not a seat of this game (0..{})", players - 1)));
        }
        Ok(seat as usize)
    }
}

/// `value` as an integer: an action id or a seat is a Python int (or a numpy integer), never a
/// bool (an int to Python, but `True` names no action) and never a float or a text.
fn integer(value: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what} must be an integer, not the bool {value}")));
    }
    value.extract::<i64>().map_err(|error| {
        if error.is_instance_of::<PyOverflowError>(value.py()) {
            PyValueError::new_err(format!("{what} {value} is outside every range this game has"))
        } else {
            error
        }
    })
}

/// A compiled ruleset's action index, observation layout and deals.
#[pyclass(frozen, module = "stargazer_rules._kernel")]
pub struct FastCore {
    core: Arc<Core>,
}

#[pymethods]
impl FastCore {
    #[new]
    fn new(py: Python<'_>, kernel: &Kernel) -> PyResult<FastCore> {
        let game = kernel.game.clone();
        let index = ActionIndex::new(game.rules.action_sizes, game.rules.action_layout);
        let layout = kernel.observation.clone();
        let ints = (0..index.size).map(|id| Ok(id.into_pyobject(py)?.into_any().unbind())).collect::<PyResult<Vec<_>>>()?;
        Ok(FastCore { core: Arc::new(Core { game, index, layout, ints, tuples: Mutex::default() }) })
    }

    /// The action index as (kind, offset, size) blocks.
    fn blocks(&self) -> Vec<(&'static str, u32, u32)> {
        let index = &self.core.index;
        stargazer_kernel::Kind::ALL.iter().enumerate().map(|(i, &kind)| (kind.name(), index.offsets[i], index.block_size(kind))).collect()
    }

    /// The most legal actions a state lists (the width of a batch's legal ids).
    fn most_legal(&self) -> u32 {
        self.core.index.most_legal()
    }

    /// The observation layout as (name, offset, length) fields.
    fn observation_fields(&self) -> Vec<FieldSpec> {
        self.core.layout.fields.clone()
    }

    /// The id of a (kind, target, count, direction) action, or None outside the index.
    fn action_id(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self.core.index.id_of(action_from(action)?))
    }

    /// The (kind, target, count, direction) of an id, or None outside the index.
    fn action_of<'py>(&self, py: Python<'py>, id: i64) -> PyResult<Option<Bound<'py, PyTuple>>> {
        match u32::try_from(id).ok().and_then(|id| self.core.index.action_of(id)) {
            Some(act) => Ok(Some(action_to(py, act)?)),
            None => Ok(None),
        }
    }

    /// `Game.deal(players, seed)` of the Python engine: (planets, crew, start).
    fn deal(&self, py: Python<'_>, players: usize, seed: u64) -> PyResult<(Vec<u16>, Vec<u16>, usize)> {
        python_deal(&self.core.game.rules, players, seed).map_err(|e| to_py_err(py, e))
    }

    /// A game dealt from `seed` as the Python engine deals it; `owner` is the FastGame.
    fn new_state(&self, py: Python<'_>, owner: Py<PyAny>, players: usize, seed: u64) -> PyResult<FastState> {
        let state = batch::dealt(&self.core.game, players, seed).map_err(|e| to_py_err(py, e))?;
        Ok(FastState { core: self.core.clone(), owner, state })
    }

    /// A game from an explicit setup (planet cards, dealt crew cards, start seat).
    fn state_of_setup(&self, py: Python<'_>, owner: Py<PyAny>, players: usize, planets: Vec<u16>, crew: Vec<u16>, start: usize) -> PyResult<FastState> {
        let state = self.core.game.new_state(players, &planets, &crew, start).map_err(|e| to_py_err(py, e))?;
        Ok(FastState { core: self.core.clone(), owner, state })
    }

    /// The fast state of a kernel state of the same ruleset.
    fn state_of_kernel_state(&self, owner: Py<PyAny>, state: &KernelState) -> PyResult<FastState> {
        if !Arc::ptr_eq(&state.game, &self.core.game) {
            return Err(PyValueError::new_err("the kernel state belongs to another compiled ruleset"));
        }
        Ok(FastState { core: self.core.clone(), owner, state: state.state.clone() })
    }

    /// A batch of games dealt from `seeds` as the Python engine deals them.
    fn batch(&self, py: Python<'_>, owner: Py<PyAny>, players: usize, seeds: Vec<u64>, auto_reset: bool) -> PyResult<FastBatchCore> {
        let batch = Batch::new(&self.core.game, &self.core.index, players, &seeds, auto_reset).map_err(|e| to_py_err(py, e))?;
        Ok(FastBatchCore { core: self.core.clone(), owner, batch, scratch: Scratch::default() })
    }
}

/// One game in the kernel, stepped in place by action id (`stargazer_rules.fast.FastState`).
#[pyclass(module = "stargazer_rules.fast")]
pub struct FastState {
    core: Arc<Core>,
    owner: Py<PyAny>,
    state: State,
}

#[pymethods]
impl FastState {
    /// The FastGame this game belongs to.
    #[getter]
    fn fast(&self, py: Python<'_>) -> Py<PyAny> {
        self.owner.clone_ref(py)
    }

    /// The ids of the legal actions, in the engine's legal order: a tuple (one allocation,
    /// and nothing a caller could change). `&mut self` although it only reads: PyO3 checks an
    /// exclusive borrow with one atomic operation and a shared one with two, on the hot path.
    fn legal_ids<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (index, ints, legal) = (&self.core.index, &self.core.ints, &self.state.legal);
        // Every action the engine lists is in the index (its blocks are the bounds of what a
        // state lists, tests/test_fast_api.py), so its id needs no checks.
        let build = |ids: &[u32]| {
            PyTuple::new(
                py,
                ids.iter().map(|&id| match ints.get(id as usize) {
                    Some(id) => id.bind(py).clone(),
                    None => py.None().into_bound(py),
                }),
            )
        };
        if legal.len() > MEMO_WIDTH {
            return build(&legal.iter().map(|&act| index.id_of_legal(act)).collect::<Vec<_>>());
        }
        let mut ids = [0u32; MEMO_WIDTH];
        let mut hash = legal.len() as u64;
        for (slot, &act) in ids.iter_mut().zip(legal.iter()) {
            *slot = index.id_of_legal(act);
            hash = (hash.rotate_left(7) ^ *slot as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        let ids = &ids[..legal.len()];
        let mut memo = self.core.tuples.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((key, tuple)) = memo.get(&hash) {
            if **key == *ids {
                return Ok(tuple.bind(py).clone());
            }
        }
        let tuple = build(ids)?;
        if memo.len() >= MOST_TUPLES {
            memo.clear();
        }
        memo.insert(hash, (ids.into(), tuple.clone().unbind()));
        Ok(tuple)
    }

    /// `num_actions` bytes, 1 where the action is legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let index = &self.core.index;
        let mut mask = vec![0u8; index.size as usize];
        for &act in &self.state.legal {
            if let Some(id) = index.id_of(act) {
                mask[id as usize] = 1;
            }
        }
        PyBytes::new(py, &mask)
    }

    /// Play the action `id`; IllegalActionError when it is not legal, and nothing changes.
    fn step(&mut self, py: Python<'_>, id: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = integer(id, "an action id")?;
        let act = u32::try_from(id).ok().and_then(|id| self.core.index.action_of(id)).ok_or_else(|| self.core.illegal(py, id))?;
        self.core.game.step(&mut self.state, act).map_err(|e| to_py_err(py, e))
    }

    fn copy(&self, py: Python<'_>) -> FastState {
        FastState { core: self.core.clone(), owner: self.owner.clone_ref(py), state: self.state.clone() }
    }

    fn __copy__(&self, py: Python<'_>) -> FastState {
        self.copy(py)
    }

    /// The seat to decide, -1 when the game is over.
    fn current_player(&self) -> i64 {
        self.core.game.current_player(&self.state).map_or(-1, |seat| seat as i64)
    }

    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// Per seat, its share of the win (1/k to each of k tied winners, R18); 0s until over.
    fn returns(&self) -> Vec<f64> {
        let players = self.state.players as usize;
        let mut out = vec![0.0; players];
        if self.state.is_over() {
            let winners = self.core.game.winners(&self.state);
            for &seat in &winners {
                out[seat] = 1.0 / winners.len() as f64;
            }
        }
        out
    }

    /// Per seat, the score sheet's total as it stands (R15-R18).
    fn scores(&self) -> Vec<i32> {
        self.core.game.totals(&self.state)[..self.state.players as usize].to_vec()
    }

    /// What `seat` sees (`observation_fields`), as floats.
    fn observation(&self, seat: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let seat = integer(seat, "a seat")?;
        let viewer = self.core.check_seat(self.state.players as usize, seat)?;
        let mut out = vec![0.0f32; self.core.layout.size];
        self.core.layout.observe(&self.core.game, &self.state, viewer, &mut out);
        Ok(out)
    }

    /// The fields of the Python engine's `State` by their names (as `KernelState.fields`).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        state_to_fields(py, &self.core.game, &self.state)
    }

    /// The Python engine's `State` of this moment.
    fn to_state<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let owner = slf.borrow().owner.clone_ref(slf.py());
        owner.bind(slf.py()).call_method1("_to_state", (slf,))
    }

    /// The information of `observation(seat)` as text.
    fn observation_text<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let seat = integer(seat, "a seat")?;
        let owner = slf.borrow().owner.clone_ref(slf.py());
        owner.bind(slf.py()).call_method1("_observation_text", (slf, seat))
    }
}

/// Fill `len` items through `fill` and copy them into `target`, a writable C-contiguous buffer
/// of `T` (a numpy array) of exactly `len` items; `scratch` is reused from call to call.
fn write<T: Element + Copy + Default>(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    scratch: &mut Vec<T>,
    len: usize,
    what: &str,
    fill: impl FnOnce(&mut [T]),
) -> PyResult<()> {
    scratch.resize(len, T::default());
    fill(&mut scratch[..]);
    copy_into(py, target, &scratch[..], what)
}

/// Copy `data` into `target`, a writable C-contiguous buffer of exactly as many `T`.
fn copy_into<T: Element + Copy>(py: Python<'_>, target: &Bound<'_, PyAny>, data: &[T], what: &str) -> PyResult<()> {
    let buffer = PyBuffer::<T>::get(target)?;
    if buffer.item_count() != data.len() {
        return Err(PyValueError::new_err(format!("{what}: a buffer of {} items is needed, not {}", data.len(), buffer.item_count())));
    }
    buffer.copy_from_slice(py, data)
}

/// Reused memory of the batch's outputs, by item type.
#[derive(Default)]
struct Scratch {
    bytes: Vec<u8>,
    ints: Vec<i32>,
    floats: Vec<f32>,
}

/// The games of a `stargazer_rules.fast.FastBatch`.
#[pyclass(module = "stargazer_rules._kernel")]
pub struct FastBatchCore {
    core: Arc<Core>,
    owner: Py<PyAny>,
    batch: Batch,
    scratch: Scratch,
}

#[pymethods]
impl FastBatchCore {
    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// Play one id per game from an int32 or int64 buffer; 1 in `ended` for each game that ended.
    fn step(&mut self, py: Python<'_>, ids: &Bound<'_, PyAny>, ended: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.batch.len();
        let ids: Vec<i64> = match PyBuffer::<i32>::get(ids) {
            Ok(narrow) => narrow.to_vec(py)?.into_iter().map(i64::from).collect(),
            Err(_) => PyBuffer::<i64>::get(ids)?.to_vec(py)?,
        };
        if ids.len() != n {
            return Err(PyValueError::new_err(format!("ids: one per game ({n}), not {}", ids.len())));
        }
        let (core, batch) = (&self.core, &mut self.batch);
        let mut result = Ok(());
        write(py, ended, &mut self.scratch.bytes, n, "ended", |ended| {
            result = batch.step(&core.game, &core.index, &ids, ended);
        })?;
        result.map_err(|failure| to_py_err(py, KernelError::Illegal(format!("game {}: {}", failure.game, failure.error))))
    }

    fn legal_ids(&self, py: Python<'_>, ids: &Bound<'_, PyAny>, counts: &Bound<'_, PyAny>) -> PyResult<()> {
        copy_into(py, ids, &self.batch.legal[..], "ids")?;
        copy_into(py, counts, &self.batch.counts[..], "counts")
    }

    fn legal_mask(&mut self, py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        let (core, batch) = (&self.core, &self.batch);
        write(py, mask, &mut self.scratch.bytes, batch.len() * core.index.size as usize, "mask", |mask| batch.legal_mask(&core.index, mask))
    }

    fn current_player(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let (core, batch) = (&self.core, &self.batch);
        write(py, out, &mut self.scratch.ints, batch.len(), "out", |out| batch.current_player(&core.game, out))
    }

    fn is_over(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let batch = &self.batch;
        write(py, out, &mut self.scratch.bytes, batch.len(), "out", |out| batch.is_over(out))
    }

    fn returns(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let (core, batch) = (&self.core, &self.batch);
        write(py, out, &mut self.scratch.floats, batch.len() * batch.seats, "out", |out| batch.returns(&core.game, out))
    }

    fn final_returns(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        copy_into(py, out, self.batch.final_returns(&self.core.game), "out")
    }

    /// Every game seen by `seat` (each game's player to move when None).
    #[pyo3(signature = (out, seat=None))]
    fn observations(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seat = match seat {
            Some(seat) => Some(self.core.check_seat(self.batch.players, integer(seat, "a seat")?)?),
            None => None,
        };
        let (core, batch) = (&self.core, &self.batch);
        let size = core.layout.size;
        write(py, out, &mut self.scratch.floats, batch.len() * size, "out", |out| batch.observations(&core.game, &core.layout, seat, out))
    }

    /// Deal game `i` again from `seed`.
    fn reset(&mut self, py: Python<'_>, i: usize, seed: u64) -> PyResult<()> {
        if i >= self.batch.len() {
            return Err(PyValueError::new_err(format!("game {i} is not in a batch of {}", self.batch.len())));
        }
        self.batch.reset(&self.core.game, &self.core.index, i, seed).map_err(|e| to_py_err(py, e))
    }

    /// A copy of game `i`.
    fn state(&self, py: Python<'_>, i: usize) -> PyResult<FastState> {
        let state = self.batch.states.get(i).ok_or_else(|| PyValueError::new_err(format!("game {i} is not in a batch of {}", self.batch.len())))?;
        Ok(FastState { core: self.core.clone(), owner: self.owner.clone_ref(py), state: state.clone() })
    }
}

/// Add the fast API's classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FastCore>()?;
    m.add_class::<FastState>()?;
    m.add_class::<FastBatchCore>()?;
    Ok(())
}
