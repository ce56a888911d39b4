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
from stargazer_rules.engine.seeds import check_seed
from stargazer_rules.errors import BotSpecError, BotTimeout
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.yamlsource import number_from_text
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
    between calls that a decision reads, so one bot can play any number of games.

    A bot may also offer ``last_values()``: the root's value for each seat from its last
    ``choose`` (docs/bots.md, "Root values"), None when that choice was not searched. It is
    optional, so a kind written before it still plays; ``root_values(bot)`` reads it.
    """

    spec: str

    def choose(self, game: Game, state: State) -> Action: ...


def root_values(bot: Bot) -> list[float] | None:
    """What ``bot``'s last decision's search thought of each seat's chances, seat 0 first;
    None for a forced move, a bot that does not search, or a kind without ``last_values``."""
    last_values = getattr(bot, "last_values", None)
    return None if last_values is None else last_values()


class RandomBot:
    """Uniformly random among the legal actions: the smoke test, never a balance baseline."""

    def __init__(self, seed: int) -> None:
        self.spec = "random"
        self._rng = random.Random(seed)

    def choose(self, game: Game, state: State) -> Action:
        return self._rng.choice(game.legal_actions(state))

    def last_values(self) -> None:
        """None: the random bot does not search."""
        return None


#: A factory takes the seed and the spec's parameters (already converted) and returns a bot.
BotFactory = Callable[..., Bot]

#: Converts a parameter's text to its value, raising ValueError when it cannot: ``Ranged``
#: (a number in stated bounds) or ``OneOf`` (a word of a closed set). Its ``description``
#: attribute says in an error message what was expected ("an integer from 0 to 1,000").
Converter = Callable[[str], Any]


def _number_text(value: float) -> str:
    """``1000`` -> ``"1,000"``, ``0.5`` -> ``"0.5"``: a bound as an error message writes it."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


class Ranged:
    """A number from ``low`` to ``high``: ``int`` or ``float`` text, refused outside the range
    (and, with ``above``, at ``low`` itself). A bound for every parameter keeps every spec within
    what both engines can hold: the kernel stores counts as 32-bit integers."""

    def __init__(self, convert: type, low: float, high: float, *, above: bool = False) -> None:
        self.convert = convert
        self.low = low
        self.high = high
        self.above = above
        kind = "an integer" if convert is int else "a number"
        if above:
            self.description = f"{kind} above {_number_text(low)}, at most {_number_text(high)}"
        else:
            self.description = f"{kind} from {_number_text(low)} to {_number_text(high)}"
        self.__name__ = kind.split()[-1]

    def __call__(self, text: str) -> Any:
        value = self.convert(number_from_text(text, whole=self.convert is int))  # ASCII digits, finite
        inside = (self.low < value if self.above else self.low <= value) and value <= self.high
        if not inside:  # false for nan too
            raise ValueError(text)
        return value


def integer_in(low: int, high: int) -> Ranged:
    """``depth=16``: an integer from ``low`` to ``high``."""
    return Ranged(int, low, high)


def number_in(low: float, high: float, *, above: bool = False) -> Ranged:
    """``c=0.7``: a finite number from ``low`` (or above it) to ``high``."""
    return Ranged(float, low, high, above=above)


#: The most search iterations a decision may take anywhere (the server allows fewer,
#: ``--max-bot-iterations``): mcts:20000 takes about 10 s a decision, so this is hours.
MAX_ITERATIONS = 1_000_000

#: ``iterations=400``: an integer from 1 to ``MAX_ITERATIONS``.
iteration_count = integer_in(1, MAX_ITERATIONS)


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
    converter (a ``Ranged`` or a ``OneOf``: every value a spec can give has stated bounds) and
    default; ``positional`` names the parameter that a bare value sets
    (``mcts:400`` sets ``iterations``). ``native`` says that the kernel has a bot of this name
    with these parameters, used where the ruleset allows (``make_bot``'s ``engine``).
    Registering a kind again replaces it."""
    params = dict(params or {})
    for name, (convert, _default) in params.items():
        if not isinstance(convert, (Ranged, OneOf)):
            raise ValueError(
                f"parameter {name!r} of {kind!r} has no stated range: convert it with integer_in(low, high), "
                "number_in(low, high) or OneOf(...)"
            )
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
    given: set[str] = set()
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = (part.strip() for part in item.partition("="))
        if not equals:
            if positional is None:
                raise BotSpecError(f"bot {kind!r} takes no bare value ({item!r}); write name=value")
            name, value = positional, item
        if name in given:  # the first was silently replaced by the last
            raise BotSpecError(f"bot {kind!r}: {name} is given twice in {spec.strip()!r}; give each parameter once")
        given.add(name)
        if name not in declared:
            close = difflib.get_close_matches(name, declared, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            known = ", ".join(declared) or "none"
            raise BotSpecError(f"bot {kind!r} has no parameter {name!r}{hint}; parameters: {known}")
        convert = declared[name][0]
        try:
            params[name] = convert(value)
        except ValueError:
            expected = convert.description
            close = difflib.get_close_matches(value, getattr(convert, "choices", ()), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            if not hint and convert is iteration_count and value.strip().isdigit():
                hint = f" (try {kind}:400, the default: under a second a decision)"
            raise BotSpecError(f"bot {kind!r}: {name}={value!r} is not {expected}{hint}") from None
    return kind, params


def spec_defaults(kind: str) -> tuple[dict[str, Any], str | None]:
    """A registered kind's parameters at their defaults, and the one a bare value sets: what a
    spec as a person types it (``mcts:200``) leaves out."""
    _factory, declared, positional = _REGISTRY[kind]
    return {name: default for name, (_type, default) in declared.items()}, positional


def canonical_spec(kind: str, params: Mapping[str, Any]) -> str:
    """The one spelling of a spec: ``mcts:iterations=400`` for ``mcts:400``."""
    if not params:
        return kind
    return kind + ":" + ",".join(f"{name}={value}" for name, value in sorted(params.items()))


def make_bot(spec: str, seed: int, engine: str = "native") -> Bot:
    """The bot a spec names, seeded with ``seed``.

    With ``engine="native"`` a kind the kernel knows (greedy, mcts) searches in the kernel
    whenever the game's ruleset compiles for it, and in Python otherwise; ``"python"`` always
    uses the Python bot (to check one against the other, or to measure them). A ``seed``
    outside 0 to 2**64 - 1 is a ``SeedError`` (``engine.seeds``).
    """
    check_seed(seed)
    if engine not in ("native", "python"):
        raise BotSpecError(f"unknown engine {engine!r}; engines: native, python")
    kind, params = parse_spec(spec)
    factory = _REGISTRY[kind][0]
    bot = factory(seed=seed, **params)
    bot.spec = canonical_spec(kind, params)
    if engine == "native" and kind in _NATIVE and _KERNEL_BACKED is not None:
        bot = _KERNEL_BACKED(kind, seed, params, bot)
    return bot


def kernel_seat(spec: str) -> tuple[str, dict[str, Any]] | None:
    """The kernel bot that decides as ``make_bot(spec, seed)`` does in a ruleset the kernel
    plays, as (kind, parameters) for ``native.play_games``: a native kind's kernel bot (what
    ``KernelBackedBot`` asks), the built-in random bot's draw-for-draw twin (``python_random``);
    None for a bot that runs in Python only."""
    kind, params = parse_spec(spec)
    if kind in _NATIVE and _KERNEL_BACKED is not None:
        return kind, params
    if _REGISTRY[kind][0] is RandomBot:
        return native.PYTHON_RANDOM, params
    return None


#: Wraps a Python bot of a native kind so that it searches in the kernel
#: (``bots.kernel_backed`` installs it when the package is imported).
_KERNEL_BACKED: Callable[..., Bot] | None = None


def use_kernel_bots(wrapper: Callable[..., Bot]) -> None:
    """Install the wrapper ``make_bot`` puts around the native kinds' Python bots."""
    global _KERNEL_BACKED
    _KERNEL_BACKED = wrapper
