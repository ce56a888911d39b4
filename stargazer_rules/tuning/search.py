"""The search of ``stargazer tune``: which few parameter values, changed from a base, minimise an
objective. Nothing here knows the game: a parameter is a name with a list of values, an
objective a function of an assignment (``tuning.tune_run`` plays the games).

**The space.** Each parameter is a categorical over its values, the base value among them. The
*edits* of an assignment are the parameters whose value differs from the base; an assignment of
more than ``max_edits`` edits is never evaluated: its trial is ``PRUNED`` with the user
attribute ``invalid`` saying why, as is one the objective refuses (it returns ``Invalid``; the
trial also has ``refused``, so that the two reasons are counted apart).

**The sampler.** Optuna's TPE (``TPESampler``), whose first ten trials are random, with its
seed reset before each trial to ``seed`` plus the trials already sampled, so that a trial's
values depend only on the seed and the trials before it: one worker, the same seed, the same
trials, whether the search ran at once or was resumed.

**Pruning: Wilcoxon's signed-rank test** (``optuna.pruners.WilcoxonPruner``, optuna >= 3.6).
The objective reports one value per *block* (``report(step, value)``), and block ``b`` is the
same work for every candidate (in the game, the same deals in every seating), so block values
pair across trials: the pruner tests the current trial's block values against the best trial's,
paired by block, and stops a candidate as soon as it is worse at ``PRUNE_P`` (one-sided). That
is the design of the test (instances shared by trials, values that need not converge), which
successive halving lacks: it compares a trial's running value with other trials' at the same
step without pairing, so the luck of the first deals would decide. Looking after every block
makes the chance of pruning a candidate as good as the best higher than ``PRUNE_P``; the re-check
of ``tune_run`` is what a proposal rests on, and a pruned candidate only costs a lost chance.
Nothing is pruned before ``PRUNE_AFTER`` blocks.

**Storage.** The study lives in an SQLite file (``storage``), so a second identical call
resumes it: a finished trial is never evaluated again, and a trial left ``RUNNING`` by a killed
process is marked ``FAIL`` and its values tried again first. ``trials`` counts the candidates
evaluated (complete or pruned by the test) over every call; a sample with too many edits, or the
values of a trial already evaluated (its result is copied: ``repeat_of``), is not counted.

**A study read back** (``check_study_file``, ``_check_trials``): the file is checked before
optuna opens it, and every finished trial after: a file that is not SQLite, is damaged or cut
short, holds no study tables, or is not a regular file is one ``StudyError``; so is a trial
whose values the space does not offer, whose objective is not a finite number, or (with
``check_value``, which ``tune_run`` gives: the objective computed again from the trial's
games) whose objective its games do not give. Each message says how to start afresh: delete
the study file with its ``-wal`` and ``-shm`` files (the games played stay in the run cache, so
nothing is played again).

**Ranking** (``best_candidates``): by objective, lowest first; two candidates whose objectives
differ by at most the *noise*, one standard error of the paired difference of their block
values (``noise``), are tied, and a tie goes to fewer edits.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.errors import StudyError
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.boundedfiles import excerpt
from stargazer_rules.rulesets.printable import printable

if TYPE_CHECKING:
    import optuna

__all__ = [
    "Candidate",
    "Invalid",
    "Scored",
    "TrialEvent",
    "best_candidates",
    "check_study_file",
    "edits_of",
    "noise",
    "search",
    "valid_assignments",
]

#: The one-sided p-value below which a candidate worse than the best is pruned.
PRUNE_P = 0.05
#: No candidate is pruned before this many blocks (at 4 the smallest p-value the test can give
#: is 1/16, at 5 it is 1/32: below PRUNE_P).
PRUNE_AFTER = 4
#: At most this many samples per candidate the search is asked to evaluate: samples of too many
#: edits or of values already tried cost nothing, but a space smaller than ``trials`` would
#: otherwise be sampled for ever.
MAX_SAMPLES_PER_TRIAL = 20

Value = int | float | bool

#: The largest study file opened: a study of thousands of trials is a few MB.
MAX_STUDY_BYTES = 1024 * 1024 * 1024
#: The first bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\x00"
#: The study file and the files SQLite keeps beside it, each opened by its name.
SQLITE_SUFFIXES = ("", "-journal", "-wal", "-shm")
#: The tables optuna keeps a study in: a database without them is not a study.
_STUDY_TABLES = frozenset({"studies", "trials", "trial_params", "trial_values", "trial_intermediate_values",
                           "trial_user_attributes", "version_info"})


@attrs.frozen
class Invalid:
    """What an objective returns for an assignment it cannot evaluate (``reason``: why)."""

    reason: str


@attrs.frozen
class Scored:
    """An objective's value with ``facts`` about it (JSON values) kept with its trial."""

    value: float
    facts: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class TrialEvent:
    """One trial of a search, for progress: its ``number``, its ``kind`` (``complete``,
    ``pruned``, ``over_max_edits``, ``refused`` by the objective, ``repeat``), its ``value``
    (None unless complete or a repeat of a complete one), the ``blocks`` evaluated, the ``edits``, the ``best`` value so far, the
    candidates ``evaluated`` of ``trials`` and the ``seconds`` since the call began."""

    number: int
    kind: str
    value: float | None
    blocks: int
    edits: Mapping[str, Value]
    best: float | None
    evaluated: int
    trials: int
    seconds: float


@attrs.frozen
class Candidate:
    """A finished candidate: the trial ``number``, its full ``assignment``, its ``edits`` (the
    parameters that differ from the base), its ``value``, its ``noise`` against the best
    candidate (``noise``), its ``blocks`` and the ``facts`` its objective kept."""

    number: int
    assignment: Mapping[str, Value]
    edits: Mapping[str, Value]
    value: float
    noise: float
    blocks: int
    facts: Mapping[str, Any]


def edits_of(assignment: Mapping[str, Value], base: Mapping[str, Value]) -> dict[str, Value]:
    """The parameters of ``assignment`` whose value differs from ``base`` (``True`` is not 1)."""
    return {name: value for name, value in assignment.items() if not _same(value, base[name])}


def _same(a: Value, b: Value) -> bool:
    return type(a) is type(b) and a == b


def valid_assignments(parameters: Mapping[str, Sequence[Value]], max_edits: int) -> int:
    """How many assignments have at most ``max_edits`` edits (each parameter: its base value, or
    one of the others)."""
    ways = [1] + [0] * max_edits  # ways[k]: assignments of the parameters so far with k edits
    for values in parameters.values():
        others = len(values) - 1
        ways = [ways[k] + (ways[k - 1] * others if k else 0) for k in range(max_edits + 1)]
    return sum(ways)


def _key(assignment: Mapping[str, Value]) -> Hashable:
    return tuple(sorted((name, type(value).__name__, value) for name, value in assignment.items()))


def _damaged_study_errors() -> tuple[type[BaseException], ...]:
    """What optuna and SQLAlchemy raise over a study file damaged or edited past what the
    checks before see: a database error, or a value read back of the wrong kind."""
    import sqlite3

    import sqlalchemy.exc

    return (sqlalchemy.exc.SQLAlchemyError, sqlite3.Error, ValueError, LookupError, TypeError)


def _afresh(storage: Path) -> str:
    return (f"to start afresh, delete {storage} and its -wal and -shm files if any "
            "(the games played stay in the run cache)")


def check_study_file(storage: Path) -> None:
    """``StudyError`` (or ``FileRefused``) when ``storage`` exists and is not a study file this
    tool can open: not a regular file, not SQLite, damaged or cut short, without optuna's
    tables. Its content is not changed (the caller holds the folder's lock)."""
    import sqlite3

    from stargazer_rules.rulesets import boundedfiles

    storage = Path(storage)
    if not os.path.lexists(storage):
        return
    try:
        boundedfiles.checked_file(storage, MAX_STUDY_BYTES, "tune study")
        with open(storage, "rb") as file:
            header = file.read(len(_SQLITE_HEADER))
    except OSError as error:
        raise StudyError(f"{storage}: {boundedfiles.reason(error, storage)}; {_afresh(storage)}") from None
    if header != _SQLITE_HEADER:
        raise StudyError(f"{storage} is not a study of stargazer tune (not an SQLite database); {_afresh(storage)}")
    try:
        connection = sqlite3.connect(storage)
        try:
            damage = [row[0] for row in connection.execute("PRAGMA quick_check(3)")]
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise StudyError(f"{storage} is damaged ({error}): cut short or overwritten; {_afresh(storage)}") from None
    if damage != ["ok"]:
        raise StudyError(f"{storage} is damaged ({'; '.join(damage)}); {_afresh(storage)}")
    if not _STUDY_TABLES <= tables:
        raise StudyError(f"{storage} is not a study of stargazer tune (an SQLite database without optuna's tables); "
                         f"{_afresh(storage)}")


def _check_trials(
    study: optuna.Study,
    parameters: Mapping[str, Sequence[Value]],
    storage: Path,
    check_value: Callable[[Mapping[str, Value], float, Mapping[str, Any]], str | None] | None,
) -> None:
    """``StudyError`` at the first finished trial of ``study`` that is not what this search
    wrote (module docstring, "A study read back")."""
    from optuna.trial import TrialState

    trials = study.get_trials(deepcopy=False)
    for trial in trials:
        if not trial.state.is_finished() or trial.state == TrialState.FAIL:
            continue
        problem = None
        if set(trial.params) != set(parameters):
            problem = f"names the parameters {sorted(trial.params)}, not the space's {sorted(parameters)}"
        else:
            for name, value in trial.params.items():
                if not any(_same(value, offered) for offered in parameters[name]):
                    problem = f"holds {name} = {value!r}, which the space does not offer"
                    break
        reported = [trial.value] if trial.state == TrialState.COMPLETE else []
        reported += list(trial.intermediate_values.values())
        if problem is None and not all(isinstance(v, (int, float)) and math.isfinite(v) for v in reported):
            problem = "holds an objective value that is not a finite number"
        earlier = trial.user_attrs.get("repeat_of")
        if problem is None and earlier is not None and trial.state == TrialState.COMPLETE:
            copied = trials[earlier] if isinstance(earlier, int) and 0 <= earlier < trial.number else None
            if copied is None or copied.params != trial.params or copied.value != trial.value:
                problem = f"says it repeats trial {earlier!r}, but does not hold its values and objective"
        elif problem is None and check_value is not None and trial.state == TrialState.COMPLETE:
            problem = check_value(dict(trial.params), float(trial.value), dict(trial.user_attrs.get("facts", {})))
        if problem is not None:
            raise StudyError(f"{storage}: trial {trial.number} {problem}: the study was changed after this tool "
                             f"wrote it; {_afresh(storage)}")


def search(
    objective: Callable[[Mapping[str, Value], Callable[[int, float], bool]], float | Scored | Invalid],
    parameters: Mapping[str, Sequence[Value]],
    base: Mapping[str, Value],
    *,
    max_edits: int,
    storage: Path,
    study_name: str,
    seed: int,
    trials: int,
    time_limit: float | None = None,
    on_trial: Callable[[TrialEvent], None] | None = None,
    check_value: Callable[[Mapping[str, Value], float, Mapping[str, Any]], str | None] | None = None,
) -> optuna.Study:
    """Search ``parameters`` around ``base`` for the lowest ``objective`` (module docstring).

    ``objective(assignment, report)`` gets every parameter's value and returns the value to
    minimise; it calls ``report(block, value)`` after each block of its work, and when that
    returns True the candidate is pruned: the objective returns at once (what it returns is
    then kept only for its facts). ``storage`` is the SQLite file of the study ``study_name``;
    the search stops when ``trials`` candidates are evaluated, after ``time_limit`` seconds
    (between candidates), or when no assignment is left. Returns the optuna study.
    ``check_value(assignment, value, facts)`` says why a complete trial read back from the
    file is not what its games give (None when it is); any problem of the file or of a trial
    read back is a ``StudyError`` before anything is evaluated.
    """
    import optuna
    from optuna.trial import TrialState

    for name, values in parameters.items():
        if not any(_same(value, base[name]) for value in values):
            raise ValueError(f"parameter {name}: its base value {base[name]!r} is not among its values {list(values)}")
    if not 0 <= max_edits <= len(parameters):
        raise ValueError(f"max_edits is from 0 to the {len(parameters)} parameters, not {max_edits}")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = Path(storage)
    outputfiles.output_folder(storage.parent)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        pruner = optuna.pruners.WilcoxonPruner(p_threshold=PRUNE_P, n_startup_steps=PRUNE_AFTER)
    check_study_file(storage)
    for suffix in SQLITE_SUFFIXES:  # SQLite opens these by name and follows a link: refuse one first
        outputfiles.refuse_special(Path(f"{storage}{suffix}"))
    try:
        study = optuna.create_study(
            storage=_sqlite_storage(storage), study_name=study_name, direction="minimize",
            pruner=pruner, load_if_exists=True,
        )
        _check_trials(study, parameters, storage, check_value)
        if not study.trials:
            study.enqueue_trial(dict(base))
        _retry_stale(study)
    except StudyError:
        raise
    except LookupError as error:
        # SQLAlchemy's reading of a value its column does not list (a trial state optuna has no name for)
        raise StudyError(f"{storage} holds what optuna cannot read ({printable(excerpt(str(error)))}): the study was changed by "
                         f"something other than stargazer tune; {_afresh(storage)}") from None
    except _damaged_study_errors() as error:
        raise StudyError(f"{storage} cannot be read as a study ({type(error).__name__}: "
                         f"{excerpt(str(error))}); {_afresh(storage)}") from None
    distributions = {name: optuna.distributions.CategoricalDistribution(list(values)) for name, values in parameters.items()}
    started = time.monotonic()
    space_size = valid_assignments(parameters, max_edits)
    samples_left = MAX_SAMPLES_PER_TRIAL * max(trials, 1)
    while True:
        finished = [t for t in study.get_trials(deepcopy=False) if t.state != TrialState.FAIL and t.state.is_finished()]
        evaluated = {_key(t.params): t for t in finished if "invalid" not in t.user_attrs and "repeat_of" not in t.user_attrs}
        refused = {_key(t.params): t for t in finished if t.user_attrs.get("refused") and "repeat_of" not in t.user_attrs}
        if len(evaluated) >= min(trials, space_size) or samples_left <= 0:
            break
        if time_limit is not None and time.monotonic() - started >= time_limit:
            break
        samples_left -= 1
        study.sampler = optuna.samplers.TPESampler(seed=(seed + len(finished)) % 2**32)
        trial = study.ask(distributions)
        assignment = {name: trial.params[name] for name in parameters}
        edits = edits_of(assignment, base)
        trial.set_user_attr("edits", len(edits))
        kind, value, blocks = _run_trial(study, trial, objective, assignment, edits, evaluated, refused, max_edits)
        if on_trial is not None:
            best = _best_value(study)
            count = len(evaluated) + (kind in ("complete", "pruned"))
            on_trial(TrialEvent(trial.number, kind, value, blocks, edits, best, count, trials, time.monotonic() - started))
    return study


def _run_trial(
    study: optuna.Study,
    trial: optuna.Trial,
    objective: Callable[..., Any],
    assignment: Mapping[str, Value],
    edits: Mapping[str, Value],
    evaluated: Mapping[Hashable, Any],
    refused: Mapping[Hashable, Any],
    max_edits: int,
) -> tuple[str, float | None, int]:
    """Evaluate one asked trial and tell the study; its kind, value and blocks."""
    from optuna.trial import TrialState

    if len(edits) > max_edits:
        trial.set_user_attr("invalid", f"{len(edits)} edits, more than max_edits ({max_edits})")
        study.tell(trial, state=TrialState.PRUNED)
        return "over_max_edits", None, 0
    if _key(assignment) in refused:  # refused before: refused again, without asking
        earlier = refused[_key(assignment)]
        trial.set_user_attr("repeat_of", earlier.number)
        trial.set_user_attr("invalid", earlier.user_attrs["invalid"])
        trial.set_user_attr("refused", True)
        study.tell(trial, state=TrialState.PRUNED)
        return "refused", None, 0
    earlier = evaluated.get(_key(assignment))
    if earlier is not None:  # the same values again: the result is copied, not evaluated
        trial.set_user_attr("repeat_of", earlier.number)
        for step, reported in sorted(earlier.intermediate_values.items()):
            trial.report(reported, step)
        for name, fact in earlier.user_attrs.items():
            if name == "facts":
                trial.set_user_attr(name, fact)
        if earlier.state == TrialState.COMPLETE:
            study.tell(trial, earlier.value)
            return "repeat", earlier.value, len(earlier.intermediate_values)
        study.tell(trial, state=TrialState.PRUNED)
        return "repeat", None, len(earlier.intermediate_values)
    pruned = False
    steps: set[int] = set()

    def report(step: int, value: float) -> bool:
        nonlocal pruned
        trial.report(float(value), step)
        steps.add(step)
        pruned = pruned or trial.should_prune()
        return pruned

    try:
        result = objective(dict(assignment), report)
    except BaseException:
        study.tell(trial, state=TrialState.FAIL)
        raise
    blocks = len(steps)
    if isinstance(result, Invalid):
        trial.set_user_attr("invalid", result.reason)
        trial.set_user_attr("refused", True)
        study.tell(trial, state=TrialState.PRUNED)
        return "refused", None, 0
    if isinstance(result, Scored):
        trial.set_user_attr("facts", dict(result.facts))
        value = result.value
    else:
        value = result
    trial.set_user_attr("blocks", blocks)
    if pruned:
        study.tell(trial, state=TrialState.PRUNED)
        return "pruned", None, blocks
    study.tell(trial, float(value))
    return "complete", float(value), blocks


def _sqlite_storage(path: Path) -> optuna.storages.RDBStorage:
    """The study's SQLite file, written ahead (WAL) and synced at checkpoints: each trial is a
    few commits, and a full sync of every commit cost most of a search's own time. A commit
    survives the process being killed; only a crash of the machine may lose the last ones."""
    import sqlite3

    import optuna

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(path, timeout=60)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    return optuna.storages.RDBStorage(f"sqlite:///{path}", engine_kwargs={"creator": connect})


def _retry_stale(study: optuna.Study) -> None:
    """Mark the trials a killed process left ``RUNNING`` as ``FAIL`` and try their values again
    first (the caller holds the folder's lock, so no other process runs them)."""
    from optuna.trial import TrialState

    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)
        study.enqueue_trial(dict(trial.params), user_attrs={"retry_of": trial.number})


def _best_value(study: optuna.Study) -> float | None:
    try:
        return float(study.best_value)
    except ValueError:
        return None


def noise(a: Any, b: Any) -> float:
    """One standard error of the difference of two trials' objectives, from their block values:
    the paired difference over the blocks both have (the same work in both), else the two
    standard errors combined; 0 without at least two blocks."""
    va, vb = dict(a.intermediate_values), dict(b.intermediate_values)
    shared = sorted(set(va) & set(vb))
    if len(shared) >= 2:
        return _standard_error([va[step] - vb[step] for step in shared])
    return math.hypot(_standard_error(list(va.values())), _standard_error(list(vb.values())))


def _standard_error(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))


def best_candidates(study: optuna.Study, count: int, base: Mapping[str, Value] | None = None) -> list[Candidate]:
    """The ``count`` best complete candidates (repeats left out), ranked as the module docstring
    says: by value, ties within the noise going to fewer edits. ``base`` (default: the study's
    first trial, the enqueued base) names the edits."""
    from optuna.trial import TrialState

    complete = [
        t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        if "repeat_of" not in t.user_attrs
    ]
    if not complete:
        return []
    if base is None:
        base = study.get_trials(deepcopy=False)[0].params
    remaining = sorted(complete, key=lambda t: (t.value, t.number))
    ranked: list[Candidate] = []
    while remaining and len(ranked) < count:
        leader = remaining[0]
        tied = [t for t in remaining if t.value - leader.value <= noise(t, leader)]
        tied.sort(key=lambda t: (len(edits_of(t.params, base)), t.value, t.number))
        for trial in tied:
            remaining.remove(trial)
            ranked.append(Candidate(
                number=trial.number,
                assignment=dict(trial.params),
                edits=edits_of(trial.params, base),
                value=float(trial.value),
                noise=noise(trial, leader) if trial is not leader else 0.0,
                blocks=len(trial.intermediate_values),
                facts=dict(trial.user_attrs.get("facts", {})),
            ))
    return ranked[:count]
