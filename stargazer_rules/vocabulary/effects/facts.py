"""The bound facts of an effect list: the most VP, landings and survey-count change it can give
once through, branches and bodies included, each list computed once per derivation.

``engine.bounds`` reads them for a whole ruleset; the effect types that hold a list
(``choose``, ``for_each``, ``survey_start``) read them for their own.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from stargazer_rules.vocabulary.expressions import Limits
from stargazer_rules.vocabulary.effects.base import Effect
from stargazer_rules.vocabulary.effects.crew_effects import UseSkill


_FACTS: contextvars.ContextVar[dict[tuple[Any, ...], tuple[tuple[Effect, ...], Any]] | None] = contextvars.ContextVar("bound_facts", default=None)


@contextlib.contextmanager
def derivation() -> Iterator[None]:
    """Share the bound facts of effect lists for as long as it is entered (``bounds.StateBounds.of``
    enters it for a whole ruleset): each list's facts are computed once, so deriving bounds is
    linear in the program's size. Every fact also enters it on its own."""
    if _FACTS.get() is not None:
        yield
        return
    token = _FACTS.set({})
    try:
        yield
    finally:
        _FACTS.reset(token)


def _memoised(fact: str, effects: tuple[Effect, ...], limits: Limits, extra: Any, compute: Callable[[], Any]) -> Any:
    """``compute()``'s value for this effect list, limits and ``extra``, computed once per
    derivation. The list is kept with its value, so that its id is not reused meanwhile."""
    with derivation():
        facts = _FACTS.get()
        assert facts is not None
        key = (fact, id(effects), limits, extra)
        if key not in facts:
            facts[key] = (effects, compute())
        return facts[key][1]


def list_most_vp(effects: tuple[Effect, ...], limits: Limits) -> int | None:
    """The most VP a list of effects scores once through, branches and bodies included."""
    return _memoised("vp", effects, limits, None, lambda: _list_most_vp(effects, limits))


def _list_most_vp(effects: tuple[Effect, ...], limits: Limits) -> int | None:
    total = 0
    for effect in effects:
        most = effect.most_vp(limits)
        if most is None:
            return None
        total += most * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner = list_most_vp(nested, limits)
            if inner is None:
                return None
            total += inner
    return total


def list_landings(effects: tuple[Effect, ...], limits: Limits, borrowed: int | None = None) -> int | None:
    """The most cubes a list of effects lands on Planets once through, branches and bodies
    included (``Effect.most_landings``); a ``use_skill`` lands ``borrowed``, the most the skill
    it may apply lands (``bounds.ability_vp``; None: it cannot say)."""
    return _memoised("landings", effects, limits, borrowed, lambda: _list_landings(effects, limits, borrowed))


def _list_landings(effects: tuple[Effect, ...], limits: Limits, borrowed: int | None) -> int | None:
    total = 0
    for effect in effects:
        most = borrowed if isinstance(effect, UseSkill) else effect.most_landings(limits)
        if most is None:
            return None
        total += most * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner = list_landings(nested, limits, borrowed)
            if inner is None:
                return None
            total += inner
    return total


def _list_survey(effects: tuple[Effect, ...], limits: Limits) -> tuple[int | None, int | None]:
    """The least and most a list of effects changes the survey count by, branches and bodies included."""
    return _memoised("survey", effects, limits, None, lambda: _list_survey_once(effects, limits))


def _list_survey_once(effects: tuple[Effect, ...], limits: Limits) -> tuple[int | None, int | None]:
    least = most = 0
    for effect in effects:
        lo, hi = effect.survey_bonus_range(limits)
        if lo is None or hi is None or least is None or most is None:
            return (None, None)
        least += min(0, lo) * effect.steps
        most += max(0, hi) * effect.steps
        for nested in (*effect.branches, *effect.bodies):
            inner_lo, inner_hi = _list_survey(nested, limits)
            if inner_lo is None or inner_hi is None:
                return (None, None)
            least += inner_lo
            most += inner_hi
    return (least, most)
