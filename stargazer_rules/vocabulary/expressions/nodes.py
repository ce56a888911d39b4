"""The base of every expression node: the kinds' base classes and the helpers over an amount
(a number as written or a node), kept apart so the sets, amounts and conditions build on them
without importing one another in a circle.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Union

from stargazer_rules.vocabulary.expressions.scope import AMOUNT, CONDITION, CREWS, PLANETS, SEATS, Interval, Limits, Scope


# -- nodes ----------------------------------------------------------------------------------


class Node:
    """Base of every expression node: ``word`` is its YAML key (or word), ``kind`` its type."""

    word: ClassVar[str] = ""
    kind: ClassVar[str] = ""

    def children(self) -> Iterator[Node | int]:
        return iter(())

    def to_data(self) -> Any:
        raise NotImplementedError


Amount = Union[int, "AmountNode"]


class AmountNode(Node):
    kind: ClassVar[str] = AMOUNT

    def value(self, scope: Scope) -> int:
        raise NotImplementedError

    def bounds(self, limits: Limits) -> Interval:
        raise NotImplementedError


class ConditionNode(Node):
    kind: ClassVar[str] = CONDITION

    def holds(self, scope: Scope) -> bool:
        raise NotImplementedError


class SetNode(Node):
    """A set of Planets, seats or crews: ``members`` lists them in the set kind's order."""

    def members(self, scope: Scope) -> tuple[int, ...]:
        raise NotImplementedError

    def most(self, limits: Limits) -> int:
        """The most members the set can have."""
        return {PLANETS: limits.planets, SEATS: limits.players, CREWS: limits.crews}[self.kind]


def amount_value(amount: Amount, scope: Scope) -> int:
    """An amount's value: a number as written, an expression computed now."""
    return amount if type(amount) is int else amount.value(scope)  # type: ignore[union-attr]


def amount_bounds(amount: Amount, limits: Limits) -> Interval:
    return (amount, amount) if type(amount) is int else amount.bounds(limits)  # type: ignore[union-attr]


def amount_data(amount: Amount) -> Any:
    return amount if type(amount) is int else amount.to_data()  # type: ignore[union-attr]


def reads_vp(node: Node | int | str) -> bool:
    """Whether an expression reads a seat's VP (and so has no bound as an amount of VP)."""
    if isinstance(node, VPOf):
        return True
    return isinstance(node, Node) and any(reads_vp(child) for child in node.children())


def walk(node: Node | int | str) -> Iterator[Node]:
    """Every node of an expression, itself first."""
    if isinstance(node, Node):
        yield node
        for child in node.children():
            yield from walk(child)


class _OverOne:
    """What a node over one set (``of``) shares: its child, and its YAML ``{word: <set>}``."""

    of: SetNode
    word: ClassVar[str]

    def children(self) -> Iterator[Node | int]:
        yield self.of

    def to_data(self) -> Any:
        return {self.word: self.of.to_data()}
