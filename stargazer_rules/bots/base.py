"""The bot interface, bot specs, and the registry of bot kinds."""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from stargazer_rules.engine.game import Game
from stargazer_rules.errors import BotSpecError, BotTimeout
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State


#: The monotonic time by which a bot must have chosen, or None (no limit).
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("bot_deadline", default=None)


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, a searching bot raises ``BotTimeout`` once ``seconds`` have passed."""
    token = _DEADLINE.set(None if seconds is None else time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline() -> float | None:
    """The ``time.monotonic()`` value by which the current choice must be made, or None."""
    return _DEADLINE.get()


class Bot(Protocol):
    """Chooses one of ``game.legal_actions(state)`` for the player to move.

    ``spec`` is the canonical spec string the bot was made from (``"mcts:iterations=400"``).
    A bot may keep a random-number generator, seeded at construction; it keeps no other state
    between calls, so one bot can play any number of games.
    """

    spec: str

    def choose(self, game: Game, state: State) -> Action: ...


class RandomBot:
    """Uniformly random among the legal actions: the smoke test, never a balance baseline."""

    def __init__(self, seed: int) -> None:
        self.spec = "random"
        self._rng = random.Random(seed)

    def choose(self, game: Game, state: State) -> Action:
        return self._rng.choice(game.legal_actions(state))


#: A factory takes the seed and the spec's parameters (already converted) and returns a bot.
BotFactory = Callable[..., Bot]

#: Converts a parameter's text to its value, raising ValueError when it cannot: ``int``,
#: ``float``, ``str`` or one of the converters below. Its ``description`` attribute says in an
#: error message what was expected ("a positive integer").
Converter = Callable[[str], Any]

_DESCRIPTIONS: dict[Any, str] = {int: "an integer", float: "a number", str: "a string"}


def _expected(convert: Converter) -> str:
    return getattr(convert, "description", None) or _DESCRIPTIONS.get(convert) or f"a {convert.__name__}"


class Checked:
    """A converter that also checks the value: ``convert(text)``, refused unless ``accept(value)``."""

    def __init__(self, convert: Converter, accept: Callable[[Any], bool], description: str) -> None:
        self.convert = convert
        self.accept = accept
        self.description = description

    def __call__(self, text: str) -> Any:
        value = self.convert(text)
        if not self.accept(value):
            raise ValueError(text)
        return value


def _is_positive(value: float) -> bool:
    return value > 0


def _is_non_negative(value: float) -> bool:
    return value >= 0


def _is_finite_positive(value: float) -> bool:
    return 0 < value < float("inf")  # False for nan too


def _is_finite_non_negative(value: float) -> bool:
    return 0 <= value < float("inf")  # False for nan too


#: ``iterations=400``: an integer of at least 1.
positive_int = Checked(int, _is_positive, "a positive integer")

#: The most search iterations a decision may take anywhere (the server allows fewer,
#: ``--max-bot-iterations``): mcts:20000 takes about 10 s a decision, so this is hours.
MAX_ITERATIONS = 1_000_000


def _is_iteration_count(value: int) -> bool:
    return 1 <= value <= MAX_ITERATIONS


#: ``iterations=400``: an integer from 1 to ``MAX_ITERATIONS``.
iteration_count = Checked(int, _is_iteration_count, f"an integer from 1 to {MAX_ITERATIONS:,}")
#: ``depth=0``: an integer of at least 0.
non_negative_int = Checked(int, _is_non_negative, "a non-negative integer")
#: ``scale=4``: a finite number above 0.
positive_float = Checked(float, _is_finite_positive, "a positive number")
#: ``c=1.4``: a finite number of at least 0.
non_negative_float = Checked(float, _is_finite_non_negative, "a non-negative number")


class OneOf:
    """A converter accepting one of a closed set of words (``rollout=random``)."""

    def __init__(self, *choices: str) -> None:
        self.choices = choices
        self.description = "one of " + ", ".join(choices)
        self.__name__ = "word"

    def __call__(self, text: str) -> str:
        if text not in self.choices:
            raise ValueError(text)
        return text


#: Bot kind -> (factory, {parameter: (converter, default)}, positional parameter or None).
_REGISTRY: dict[str, tuple[BotFactory, Mapping[str, tuple[Converter, Any]], str | None]] = {
    "random": (RandomBot, {}, None),
}
#: The kinds whose search the native kernel also runs (the kernel's bot of the same name).
_NATIVE: set[str] = set()


def register_bot(
    kind: str,
    factory: BotFactory,
    params: Mapping[str, tuple[Converter, Any]] | None = None,
    positional: str | None = None,
    native: bool = False,
) -> None:
    """Add a bot kind: ``factory(seed=..., **params)``; ``params`` maps each parameter to its
    converter and default; ``positional`` names the parameter that a bare value sets
    (``mcts:400`` sets ``iterations``). ``native`` says that the kernel has a bot of this name
    with these parameters, used where the ruleset allows (``make_bot``'s ``engine``).
    Registering a kind again replaces it."""
    params = dict(params or {})
    if positional is not None and positional not in params:
        raise ValueError(f"positional parameter {positional!r} is not among the parameters of {kind!r}")
    _REGISTRY[kind] = (factory, params, positional)
    if native:
        _NATIVE.add(kind)
    else:
        _NATIVE.discard(kind)


def unregister_bot(kind: str) -> None:
    """Remove a bot kind (a test's or an example's); unknown kinds are ignored."""
    _REGISTRY.pop(kind, None)
    _NATIVE.discard(kind)


def bot_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=800"`` -> ``("mcts", {"iterations": 800})``, defaults filled.

    Raises ``BotSpecError`` naming the closest bot kind or parameter for a misspelling.
    """
    kind, _, rest = spec.partition(":")
    kind = kind.strip()
    if kind not in _REGISTRY:
        close = difflib.get_close_matches(kind, _REGISTRY, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BotSpecError(f"unknown bot {kind!r}{hint}; bots: {', '.join(bot_names())}")
    _factory, declared, positional = _REGISTRY[kind]
    params = {name: default for name, (_type, default) in declared.items()}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = (part.strip() for part in item.partition("="))
        if not equals:
            if positional is None:
                raise BotSpecError(f"bot {kind!r} takes no bare value ({item!r}); write name=value")
            name, value = positional, item
        if name not in declared:
            close = difflib.get_close_matches(name, declared, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            known = ", ".join(declared) or "none"
            raise BotSpecError(f"bot {kind!r} has no parameter {name!r}{hint}; parameters: {known}")
        convert = declared[name][0]
        try:
            params[name] = convert(value)
        except ValueError:
            expected = _expected(convert)
            close = difflib.get_close_matches(value, getattr(convert, "choices", ()), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            if not hint and convert is iteration_count and value.strip().isdigit():
                hint = f" (try {kind}:400, the default: under a second a decision)"
            raise BotSpecError(f"bot {kind!r}: {name}={value!r} is not {expected}{hint}") from None
    return kind, params


def canonical_spec(kind: str, params: Mapping[str, Any]) -> str:
    """The one spelling of a spec: ``mcts:iterations=400`` for ``mcts:400``."""
    if not params:
        return kind
    return kind + ":" + ",".join(f"{name}={value}" for name, value in sorted(params.items()))


def make_bot(spec: str, seed: int, engine: str = "native") -> Bot:
    """The bot a spec names, seeded with ``seed``.

    With ``engine="native"`` a kind the kernel knows (greedy, mcts) searches in the kernel
    whenever the game's ruleset compiles for it, and in Python otherwise; ``"python"`` always
    uses the Python bot (to check one against the other, or to measure them).
    """
    if engine not in ("native", "python"):
        raise BotSpecError(f"unknown engine {engine!r}; engines: native, python")
    kind, params = parse_spec(spec)
    factory = _REGISTRY[kind][0]
    bot = factory(seed=seed, **params)
    bot.spec = canonical_spec(kind, params)
    if engine == "native" and kind in _NATIVE and _KERNEL_BACKED is not None:
        bot = _KERNEL_BACKED(kind, seed, params, bot)
    return bot


#: Wraps a Python bot of a native kind so that it searches in the kernel
#: (``bots.kernel_backed`` installs it when the package is imported).
_KERNEL_BACKED: Callable[..., Bot] | None = None


def use_kernel_bots(wrapper: Callable[..., Bot]) -> None:
    """Install the wrapper ``make_bot`` puts around the native kinds' Python bots."""
    global _KERNEL_BACKED
    _KERNEL_BACKED = wrapper
