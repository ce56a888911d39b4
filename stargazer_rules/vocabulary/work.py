"""How much work a program of the rules language asks, and the limits past which it is refused.

A program (a skill, a crew trigger's or planet ability's ``do``, rules.yaml's round-end effects
and setup steps, an end condition, an ``end_scoring`` line, the free cubes of an unpicked crew)
is counted with every set at its largest: the table's most seats, Planets in the ring and crew
slots (docs/skills.md, "How much work a program may ask"). Two numbers are counted:

- **effects**: the effects it performs when it resolves once through: each effect 1 (a
  counted effect once per step), a ``for_each`` 1 and its body once for each member of its
  set, ``choose`` its body once, ``choose_one`` and ``if`` their largest option or branch.
  ``use_skill`` counts 1: the skill it applies is a program of its own, under the same limit;
- **evaluations**: the expression nodes it reads on the way: each node 1 and its parts, a
  ``where`` filter its condition and ``most_of``/``least_of`` their amount once for each
  member of their set, an expression of an effect in a body (or one that binds a member, as
  ``move_cube``'s ``to``) once for each member, every option and branch (a decision lists them).

Both are computed bottom up, each node once, so counting is linear in the program's size
however deep it nests; the loader refuses a program past ``MOST_EFFECTS`` or
``MOST_EVALUATIONS`` at its line (``rulesets.loader``), so that no valid ruleset can ask a
command for millions of effects in one decision.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, OWNER, Effect
from stargazer_rules.vocabulary.expressions import CREWS, PLANETS, SEATS, Extreme, Limits, Node, SetNode, Where

#: The most effects one program may perform when it resolves. The bundled rulesets' largest
#: program performs 9 (corpus' round_end.effects): over 1,100 times under it.
MOST_EFFECTS = 10_000
#: The most expression evaluations one program may take when it resolves. The bundled
#: rulesets' largest program takes 450 (corpus' C2, the Prefect: a choose_one of one option per
#: colour): 555 times under it; ideas' largest, 128 (the Ferryman, S5). The rulesets the test suite generates were seen to
#: take up to about 42,000 (a for_each around a move_cube whose to filters each Planet).
MOST_EVALUATIONS = 250_000

#: How many factors of a chain of multiplications an explanation shows before "...".
_SHOWN_FACTORS = 8


@attrs.frozen
class Tally:
    """A count and the multiplications it comes from: the (word, set size) pairs along its
    heaviest path, outermost first, which the refusal shows."""

    count: int
    factors: tuple[tuple[str, int], ...] = ()

    def plus(self, other: Tally) -> Tally:
        """Both counts together; the factors of the larger."""
        factors = self.factors if self.count >= other.count else other.factors
        return Tally(self.count + other.count, factors)

    def times(self, word: str, size: int) -> Tally:
        """The count once for each of ``size`` members of ``word``'s set."""
        return Tally(self.count * size, ((word, size), *self.factors))

    def explained(self) -> str:
        """Why the count is so large, e.g. ``the sets of for_each multiply: 4 x 4 x 4``; empty
        when nothing multiplies."""
        if not self.factors:
            return ""
        words = list(dict.fromkeys(word for word, _ in self.factors))
        sizes = [str(size) for _, size in self.factors]
        shown = " x ".join(sizes[:_SHOWN_FACTORS]) + (f" x ... ({len(sizes)} sets)" if len(sizes) > _SHOWN_FACTORS else "")
        return f"the sets of {' and '.join(words)} multiply: {shown}"


@attrs.frozen
class Work:
    """What a program asks when it resolves once through: ``effects`` performed and
    ``evaluations`` of its expressions."""

    effects: Tally
    evaluations: Tally

    def plus(self, other: Work) -> Work:
        return Work(self.effects.plus(other.effects), self.evaluations.plus(other.evaluations))


NONE = Work(Tally(0), Tally(0))


def table_limits(players: int, planets: int, crews: int) -> Limits:
    """Limits holding only the table's sizes, all a set's largest size reads (``SetNode.most``)."""
    fields = {field.name: 0 for field in attrs.fields(Limits)}
    return Limits(**{**fields, "players": players, "least_players": players, "planets": planets, "crews": crews})


def expression_work(node: Node | int | str | None, limits: Limits) -> Tally:
    """The evaluations an expression takes: each node and each number 1, with its parts (a
    ``sum`` of N numbers takes N + 1); a filter's condition and an extreme's amount once for each
    member of their set. A word (``owner: free``) or a value left out takes none."""
    if type(node) is int:
        return Tally(1)
    if not isinstance(node, Node):
        return Tally(0)
    if isinstance(node, Where):
        inner, word = expression_work(node.condition, limits), "where"
    elif isinstance(node, Extreme):
        inner, word = expression_work(node.amount, limits), node.word
    else:
        total = Tally(1)
        for child in node.children():
            total = total.plus(expression_work(child, limits))
        return total
    of: SetNode = node.of
    return Tally(1).plus(expression_work(of, limits)).plus(inner.times(word, of.most(limits)))


def effects_work(effects: Iterable[Effect | None], limits: Limits) -> Work:
    """What a list of effects asks resolved once through, in order."""
    total = NONE
    for effect in effects:
        if effect is not None:
            total = total.plus(effect_work(effect, limits))
    return total


_SIZES = {PLANETS: "planets", SEATS: "players", CREWS: "crews"}


def effect_work(effect: Effect, limits: Limits) -> Work:
    """What one effect asks, every step of it: itself, its expressions, its largest option or
    branch, and its bodies once for each member of the set it binds."""
    evaluations = Tally(0)
    for param in effect.params:
        if param.kind in EXPRESSION_KINDS or param.kind == OWNER:
            read = expression_work(getattr(effect, param.attribute, None), limits)
            if param.binds is not None:  # read once for each member it binds (move_cube's to)
                read = read.times(effect.name, getattr(limits, _SIZES[param.binds]))
            evaluations = evaluations.plus(read)
    work = Work(Tally(1), evaluations)
    if effect.branches:
        options = [effects_work(branch, limits) for branch in effect.branches]
        largest = max((option.effects for option in options), key=lambda tally: tally.count)
        listed = Tally(0)
        for option in options:
            listed = listed.plus(option.evaluations)
        work = work.plus(Work(largest, listed))
    for body, size in zip(effect.bodies, _body_sizes(effect, limits), strict=True):
        inner = effects_work(body, limits)
        performed = inner.effects.times(effect.name, size) if effect.immediate else inner.effects
        work = work.plus(Work(performed, inner.evaluations.times(effect.name, size)))
    steps = effect.steps
    return Work(Tally(work.effects.count * steps, work.effects.factors), Tally(work.evaluations.count * steps, work.evaluations.factors))


def _body_sizes(effect: Effect, limits: Limits) -> list[int]:
    """How many members each body of ``effect`` runs (``for_each``) or is tried (``choose``,
    ``survey_start``'s before_walk on each start Planet) for: its set's largest size."""
    over = getattr(effect, "over", None)
    if isinstance(over, SetNode):
        return [over.most(limits)] * len(effect.bodies)
    bodies = [param for param in effect.params if param.kind == "effects" and param.binds is not None]
    sizes = [getattr(limits, _SIZES[param.binds]) for param in bodies]  # type: ignore[index]
    return sizes if len(sizes) == len(effect.bodies) else [max(limits.players, limits.planets, limits.crews)] * len(effect.bodies)
