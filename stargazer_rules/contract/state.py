"""The state's fields, in the order of the Python engine's ``State`` (which is built from this
list): each with its shape, what it holds per (a seat, a ring position, a crew slot) and its
meaning. The kernel's bindings read and write them by these names
(``crates/python/src/state_crossing.rs``, generated), into the kernel's ``StateFields``
(``crates/kernel/src/contract.rs``, generated), which its checker turns into a state."""

from __future__ import annotations

import attrs

#: How a field's value is held, with its Python type and the kernel's ``StateFields`` type:
#: ``number`` an int; ``numbers`` a tuple of ints; ``number_lists`` a tuple of tuples of ints;
#: ``number_set`` a frozenset of ints; ``stage`` a stage's name; ``names`` a tuple of texts;
#: ``pending`` the pending effects (``vocabulary.table.Pending``); ``actions`` the legal actions,
#: derived by each engine and never read.
SHAPES = {
    "number": ("int", "i64"),
    "numbers": ("tuple[int, ...]", "Vec<i64>"),
    "number_lists": ("tuple[tuple[int, ...], ...]", "Vec<Vec<i64>>"),
    "number_set": ("frozenset[int]", "Vec<i64>"),
    "stage": ("str", "String"),
    "names": ("tuple[str, ...]", "Vec<String>"),
    "pending": ("tuple[Pending, ...]", "Vec<PendingFields>"),
    "actions": ("tuple[Action, ...]", ""),
}


@attrs.frozen
class StateField:
    """One field of the state: ``per`` is what its items are indexed by (``seat``, ``ring``
    position, ``crew_slot``, ``turn`` order, or "" for one value); ``default`` the value of a
    field a state of an older version may leave out (None: it may not)."""

    name: str
    shape: str
    per: str
    doc: str
    default: tuple[()] | None = None

    def __attrs_post_init__(self) -> None:
        assert self.shape in SHAPES, self.shape

    @property
    def python_type(self) -> str:
        return SHAPES[self.shape][0]

    @property
    def crosses(self) -> bool:
        """Whether the kernel reads it (the legal actions it derives instead)."""
        return self.shape != "actions"


STATE_FIELDS: tuple[StateField, ...] = (
    StateField("players", "number", "", "Seats 0..n-1."),
    StateField("planets", "numbers", "ring", "Planet-card indices in ring order."),
    StateField("crew", "numbers", "crew_slot", "Crew-card indices in crew-area order (always-in-play first)."),
    StateField("tracks", "number_lists", "ring", "Owners of each Planet's filled normal squares, square 1 first (R2; -1 a free cube)."),
    StateField("specials", "number_lists", "ring", "Owners on each Planet's special square (R3)."),
    StateField("crew_free", "numbers", "crew_slot", "Free cubes on each crew."),
    StateField("crew_cubes", "number_lists", "crew_slot", "Owners of the player cubes on each crew."),
    StateField("workers", "numbers", "crew_slot", "The seat of the worker on each crew (-1 none)."),
    StateField("hands", "numbers", "seat", "Cubes in each seat's hand."),
    StateField("vp", "numbers", "seat", "VP each seat scored during play."),
    StateField("removed", "numbers", "seat", "Each seat's own cubes removed to the stock by the motivation bonus (R6)."),
    StateField("stock", "number", "", "Free cubes in the stock."),
    StateField("round", "number", "", "The round, 1 first."),
    StateField("start_player", "number", "", "This round's start player."),
    StateField("turn", "number", "", "Turns taken this round."),
    StateField("stage", "stage", "", "The stage of play (`enums.STAGES`)."),
    StateField("chosen", "numbers", "turn", "Crew slots chosen this round, in order."),
    StateField("pending", "pending", "", "Effects left to resolve, the next first: (slot, path, remaining, seat, card)."),
    StateField("survey_rules", "number", "", "The current survey's rules, as flags."),
    StateField("survey_bonus", "number", "", "Cubes the current survey may place beyond the crew's count."),
    StateField("survey_placed", "number", "", "Cubes the current survey placed."),
    StateField("survey_last", "number", "", "The ring position of the survey's last cube (-1 none)."),
    StateField("survey_direction", "number", "", "The current survey's direction (0 not yet set)."),
    StateField("survey_skips", "number", "", "The Planets the survey may still pass over (-1 without a limit)."),
    StateField("surveyed", "number_set", "ring", "Ring positions the current survey put a cube on."),
    StateField("triggers", "names", "", "Why the game ended (R10): end-condition ids."),
    StateField("legal", "actions", "", "The legal actions of the decision this state waits for (derived)."),
    StateField("closed", "number_set", "crew_slot", "Crew slots nobody may pick until the round ends (`close_crew`)."),
    StateField("protected", "numbers", "seat", "How long each seat's cubes are protected (`protect_cubes`; 0 none)."),
    StateField("borrowed", "numbers", "crew_slot", "The crew card whose skill each slot applies this round (`use_skill`; -1 none)."),
    StateField("taken", "numbers", "seat", "Free cubes each seat took from the stock as its own (`take_free_cubes`)."),
    StateField("queue", "numbers", "", "The crew cards not dealt, in the order they replace a crew (R11).", default=()),
)

STATE_FIELD_NAMES = tuple(field.name for field in STATE_FIELDS)
