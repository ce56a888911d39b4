"""The bot interface, bot specs, and the registry of bot kinds."""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from stargazer_rules.actions import Action
from stargazer_rules.engine import Game, State


class BotSpecError(ValueError):
    """A bot spec names no known bot, or gives it parameters it does not take."""


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

#: Bot kind -> (factory, {parameter: (type, default)}, positional parameter or None).
_REGISTRY: dict[str, tuple[BotFactory, Mapping[str, tuple[type, Any]], str | None]] = {
    "random": (RandomBot, {}, None),
}


def register_bot(
    kind: str,
    factory: BotFactory,
    params: Mapping[str, tuple[type, Any]] | None = None,
    positional: str | None = None,
) -> None:
    """Add a bot kind: ``factory(seed=..., **params)``; ``positional`` names the parameter that
    a bare value sets (``mcts:400`` sets ``iterations``)."""
    _REGISTRY[kind] = (factory, dict(params or {}), positional)


def bot_names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:iterations=800"`` -> ``("mcts", {"iterations": 800})``, defaults filled.

    Raises ``BotSpecError`` naming the closest bot kind or parameter for a misspelling.
    """
    kind, _, rest = spec.strip().partition(":")
    if kind not in _REGISTRY:
        close = difflib.get_close_matches(kind, _REGISTRY, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BotSpecError(f"unknown bot {kind!r}{hint}; bots: {', '.join(bot_names())}")
    _factory, declared, positional = _REGISTRY[kind]
    params = {name: default for name, (_type, default) in declared.items()}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        if not equals:
            if positional is None:
                raise BotSpecError(f"bot {kind!r} takes no bare value ({item!r}); write name=value")
            name, value = positional, item
        if name not in declared:
            close = difflib.get_close_matches(name, declared, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            known = ", ".join(declared) or "none"
            raise BotSpecError(f"bot {kind!r} has no parameter {name!r}{hint}; parameters: {known}")
        kind_type = declared[name][0]
        try:
            params[name] = kind_type(value)
        except ValueError:
            raise BotSpecError(
                f"bot {kind!r}: {name}={value!r} is not a {kind_type.__name__}"
            ) from None
    return kind, params


def canonical_spec(kind: str, params: Mapping[str, Any]) -> str:
    """The one spelling of a spec: ``mcts:iterations=400`` for ``mcts:400``."""
    if not params:
        return kind
    return kind + ":" + ",".join(f"{name}={value}" for name, value in sorted(params.items()))


def make_bot(spec: str, seed: int) -> Bot:
    """The bot a spec names, seeded with ``seed``."""
    kind, params = parse_spec(spec)
    factory = _REGISTRY[kind][0]
    bot = factory(seed=seed, **params)
    bot.spec = canonical_spec(kind, params)
    return bot
