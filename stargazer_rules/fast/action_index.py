"""The action index: every decision of a ruleset as one integer, from the ruleset's bounds.

The index is a fixed list of blocks, one per action kind, in the kernel's ``Kind`` order
(``contract.enums.ACTION_KINDS``); their offsets, sizes and the survey block's strides are
``Game.action_layout`` (``engine.bounds.ActionLayout``, from ``Game.action_sizes``), so the
ids are a function of the ruleset alone: stable for a fingerprint. The kernel receives that
layout in the compiled ruleset and keeps no formula of its own
(``crates/kernel/src/action_index.rs``), held to this one by tests/test_fast_api.py. Within a
block an id is the crew slot, Planet, option or seat it names; the survey block's 0 places
nothing, and ``1 + d * direction_stride + start * start_stride + count - 1`` walks ``count``
cubes from ``start`` (d 0 clockwise, 1 counter-clockwise).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from stargazer_rules.contract.enums import ACTION_KINDS
from stargazer_rules.engine.bounds import ActionLayout, ActionSizes
from stargazer_rules.engine.game import Game
from stargazer_rules.fast.limits import integer
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action, action

#: The kinds in the kernel's ``Kind`` order: the order of the blocks (declared in the contract).
KIND_ORDER = ACTION_KINDS.names


@attrs.frozen
class ActionIndex:
    """The blocks of a ruleset's action index: ``(kind, offset, size)`` in id order, from the
    numbers they are made of, ``sizes`` (``Game.action_sizes``, derived once in
    ``engine.bounds``)."""

    sizes: ActionSizes
    blocks: tuple[tuple[str, int, int], ...] = attrs.field(init=False)
    _ids: dict[Action, int] = attrs.field(init=False, repr=False, eq=False)
    _actions: tuple[Action, ...] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        layout = ActionLayout.of(self.sizes)
        object.__setattr__(self, "blocks", tuple(zip(KIND_ORDER, layout.offsets, layout.sizes, strict=True)))
        actions = tuple(self._enumerate())
        assert len(actions) == layout.size
        object.__setattr__(self, "_actions", actions)
        object.__setattr__(self, "_ids", {act: i for i, act in enumerate(actions)})

    @classmethod
    def of(cls, game: Game) -> ActionIndex:
        """The index of ``game``'s ruleset, from the sizes derived once (``Game.action_sizes``)."""
        return cls(game.action_sizes)

    def _enumerate(self) -> Iterator[Action]:
        yield from (action(A.PICK_CREW, slot) for slot in range(self.sizes.crews))
        yield action(A.SURVEY, -1, 0)
        for direction in (A.CLOCKWISE, A.COUNTER_CLOCKWISE)[: self.sizes.directions]:
            for start in range(self.sizes.planets):
                for count in range(1, self.sizes.survey_counts + 1):
                    yield action(A.SURVEY, start, count, direction)
        yield from (action(A.SURVEY_STEP, p) for p in range(self.sizes.planets))
        yield action(A.SURVEY_STOP)
        yield from (action(A.TARGET_PLANET, p) for p in range(self.sizes.planets))
        yield from (action(A.TARGET_CREW, slot) for slot in range(self.sizes.crews))
        yield from (action(A.CHOOSE_OPTION, option) for option in range(self.sizes.options))
        yield from (action(A.NAME_START_PLAYER, seat) for seat in range(self.sizes.seats))
        yield from (action(A.TARGET_SEAT, seat) for seat in range(self.sizes.seat_targets))

    @property
    def size(self) -> int:
        return len(self._actions)

    @property
    def most_legal(self) -> int:
        """The most legal actions a state lists: a decision's options are all of one block (a
        pick, a whole-walk survey, an effect's targets, options or seats), or the survey steps
        and the stop of a cube-by-cube survey."""
        sizes = {kind: size for kind, _, size in self.blocks}
        return max(*sizes.values(), sizes[A.SURVEY_STEP] + sizes[A.SURVEY_STOP])

    def id_of(self, act: tuple) -> int:
        """The id of ``act`` (an ``Action`` or its plain tuple); ValueError when the ruleset
        can never ask for it."""
        try:
            return self._ids[act]
        except (KeyError, TypeError):
            raise ValueError(f"{act!r} is no action of this ruleset's index: {self._expected(act)}") from None

    def _expected(self, act: object) -> str:
        """What the index holds of ``act``'s kind, for the message that refuses it."""
        kind = act[0] if isinstance(act, tuple) and act else None
        last_planet, last_crew = self.sizes.planets - 1, self.sizes.crews - 1
        expected = {
            A.PICK_CREW: f"pick_crew takes a crew slot 0..{last_crew}",
            A.SURVEY: (
                f"survey takes target -1 with count 0, or a start 0..{last_planet} with count "
                f"1..{self.sizes.survey_counts} and direction {'1 or -1' if self.sizes.directions == 2 else '1'}"
            ),
            A.SURVEY_STEP: f"survey_step takes a Planet 0..{last_planet}",
            A.SURVEY_STOP: "survey_stop takes no numbers (target -1, count 0, direction 1)",
            A.TARGET_PLANET: f"target_planet takes a Planet 0..{last_planet}",
            A.TARGET_CREW: f"target_crew takes a crew slot 0..{last_crew}",
            A.CHOOSE_OPTION: f"choose_option takes an option 0..{self.sizes.options - 1}",
            A.NAME_START_PLAYER: f"name_start_player takes a seat 0..{self.sizes.seats - 1}",
            A.TARGET_SEAT: f"target_seat takes a seat 0..{self.sizes.seat_targets - 1}" if self.sizes.seat_targets else "target_seat is never asked by this ruleset",
        }
        if kind in expected:
            return expected[kind] + (", and no count or direction" if kind != A.SURVEY and kind != A.SURVEY_STOP else "")
        return f"an action is (kind, target, count, direction) with a kind of {', '.join(KIND_ORDER)}"

    def action_of(self, action_id: int) -> Action:
        """The action of ``action_id``; ValueError outside 0..size-1."""
        action_id = integer(action_id, "an action id")
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")
        return self._actions[action_id]

    @property
    def ids(self) -> dict[Action, int]:
        """Every action of the index -> its id (the plain tuples of the kernel find theirs too)."""
        return self._ids
