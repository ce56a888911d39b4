"""The native kernel seen from Python: compile a ``Ruleset`` for it, carry states across, choose
the engine.

The kernel (``stargazer_rules._kernel``, built from ``crates/`` by maturin) plays the rules on
flat tables and runs the bots' search. It is compiled from a validated ``Ruleset``, never from
the YAML: ``compiled.compile_ruleset`` gives the one typed form that crosses (every card, knob
and effect, with the bounds and action-index sizes Python derived), and the kernel checks it
against its own vocabulary and limits. A ruleset it cannot compile (an effect type
registered with ``extend_effect_types``, a table beyond its limits) runs on the Python engine,
which stays the public API and the oracle: ``kernel_for`` then returns None and
``fallback_reason`` says why, in one line.

States cross both ways: ``to_kernel`` reads a Python ``State`` (checking it against the
ruleset, or only its shape for a state the Python engine made), ``from_kernel`` gives the Python ``State`` of a kernel state, equal field for field
except that player cubes on a crew come sorted by owner (the rules only count them, R6).
"""

from __future__ import annotations

from typing import Any

from stargazer_rules.engine.game import Game
from stargazer_rules.kernel.compiled import compile_ruleset, with_true_bounds
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.vocabulary.actions import Action, action
from stargazer_rules.vocabulary.table import Pending, State

#: The engines a simulation or a bot can use: the kernel where the ruleset allows, or Python.
ENGINES = ("native", "python")
DEFAULT_ENGINE = "native"

try:
    import stargazer_rules._kernel as _kernel
except ImportError as error:  # a source tree without a build: the Python engine only
    _kernel = None
    _IMPORT_ERROR: str | None = str(error)
else:
    _IMPORT_ERROR = None


def _compile(game: Game) -> tuple[Any, str | None]:
    """The compiled kernel of ``game``'s ruleset, or None and why not; kept by the game
    (``Game.derived``), so that each ``Game`` compiles its kernel once."""
    if _kernel is None:
        return None, f"the native kernel is not built ({_IMPORT_ERROR})"
    try:
        return _kernel.Kernel(game.derived(compile_ruleset)), None
    except ValueError as error:
        return None, with_true_bounds(str(error), game.bounds)


def _compiled(source: Game | Ruleset) -> tuple[Any, str | None]:
    # A bare Ruleset gets a Game of its own, compiled for this question only: pass the Game
    # that plays to reuse its kernel.
    game = source if isinstance(source, Game) else Game(source)
    return game.derived(_compile)


def kernel_for(source: Game | Ruleset) -> Any | None:
    """The compiled kernel of a game's ruleset, or None when it runs on the Python engine."""
    return _compiled(source)[0]


def fallback_reason(source: Game | Ruleset) -> str | None:
    """Why the ruleset runs on the Python engine (one line), or None when the kernel plays it."""
    return _compiled(source)[1]


def engine_for(source: Game | Ruleset, requested: str = DEFAULT_ENGINE) -> str:
    """The engine that plays: ``native`` when requested and the kernel compiles the ruleset."""
    if requested not in ENGINES:
        raise ValueError(f"unknown engine {requested!r}; engines: {', '.join(ENGINES)}")
    if requested == "native" and kernel_for(source) is not None:
        return "native"
    return "python"


def to_kernel(game: Game, state: State, *, trusted: bool = False) -> Any:
    """The kernel state of a Python ``State``, checked by the kernel's checker (the rules of
    ``state_checks``); ``RecordError`` naming every problem if it is not a state of the ruleset.

    ``trusted=True`` is for a state the Python engine made or ``state_checks`` passed (what a
    bot is given): the kernel then checks only the shape its arrays need, not the rules again.
    """
    kernel = kernel_for(game)
    if kernel is None:
        raise ValueError(f"this ruleset runs on the Python engine: {fallback_reason(game)}")
    return kernel.read_state(state, trusted=trusted)


def from_kernel(kernel_state: Any) -> State:
    """The Python ``State`` of a kernel state, whose fields it gives by name."""
    fields = kernel_state.fields()
    fields["pending"] = tuple(Pending(*item) for item in fields["pending"])
    fields["legal"] = tuple(action(*act) for act in fields["legal"])
    return State(**fields)


def to_action(fields: tuple[str, int, int, int]) -> Action:
    return action(*fields)


def play_games(game: Game, games: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Whole games played in the kernel of ``game``'s ruleset, one call for the lot (the GIL
    released while they play): each game is (players, planet card indices in ring order, dealt
    crew card indices, start seat, one (kind, seed, parameters) per seat), a kind of
    ``kernel_bot`` or ``PYTHON_RANDOM``; each result is (moves, options, picks, score_by_round,
    value_by_round, searched, final kernel state), as ``crates/python/src/games.rs`` says."""
    kernel = kernel_for(game)
    if kernel is None:
        raise ValueError(f"this ruleset runs on the Python engine: {fallback_reason(game)}")
    return _kernel.play_games(kernel, games)


#: The seat kind of ``play_games`` that plays as the built-in random bot (``bots.base.RandomBot``)
#: draw for draw: CPython's generator, seeded alike, choosing among the same legal actions.
PYTHON_RANDOM = "python_random"


def kernel_bot(kind: str, seed: int, params: dict[str, Any]) -> Any:
    """The kernel's bot ``kind`` (greedy, mcts) with a spec's checked parameters."""
    if _kernel is None:
        raise ValueError(f"the native kernel is not built ({_IMPORT_ERROR})")
    return _kernel.KernelBot(kind, seed, params)
