"""The ruleset's numeric knobs (RULES.md's rulings marked *knob*): each one's place in
rules.yaml, range, default and label, declared once. The loader reads and writes them by these
declarations, the rules schema's entries for them are generated from them, the compiled ruleset
carries them by name to the kernel (whose ``Knobs`` struct is generated from them) and the rules
table shows them with their labels."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


@attrs.frozen
class Knob:
    """One integer knob: ``name`` is its attribute on ``Ruleset`` and its field in the kernel's
    ``Knobs``; ``path`` its keys in rules.yaml; ``default`` its value when rules.yaml leaves it
    out (None: required); ``label`` the catalogue key the rules table names it by; ``doc`` the
    rules schema's description; ``kernel_most`` the largest size the kernel holds it at (a
    ruleset past it runs on the Python engine), as a ``kernel_type``."""

    name: str
    path: tuple[str, ...]
    minimum: int
    maximum: int
    doc: str
    label: str
    kernel_most: int
    default: int | None = None
    kernel_type: str = "i32"

    def read(self, rules: Mapping[str, Any]) -> int:
        """Its value in checked rules.yaml data (the schema has held its type and range)."""
        data: Any = rules
        for key in self.path:
            if not isinstance(data, Mapping) or key not in data:
                assert self.default is not None, f"rules.yaml lacks the required {'.'.join(self.path)}"
                return self.default
            data = data[key]
        return int(data)

    @property
    def shown(self) -> str:
        """Its path as rules.yaml writes it (``motivation.free_cube_vp``)."""
        return ".".join(self.path)

    def schema(self) -> dict[str, Any]:
        """Its entry in the rules schema."""
        entry: dict[str, Any] = {"description": self.doc, "type": "integer", "minimum": self.minimum, "maximum": self.maximum}
        if self.default is not None:
            entry["default"] = self.default
        return entry


KNOBS: tuple[Knob, ...] = (
    Knob(
        "cubes_per_player", ("cubes_per_player",), 1, 10000,
        "Cubes each player takes at setup (R13; 12 in draft 7). A player with none left ends the game at the end of the round (R10).",
        "count_cubes", kernel_most=8_000,
    ),
    Knob(
        "free_cubes", ("free_cubes",), 0, 10000,
        "Free (wooden) cubes in the stock at setup (R13; 12 in draft 7).",
        "count_free_cubes", kernel_most=1 << 20,
    ),
    Knob(
        "free_cube_vp", ("motivation", "free_cube_vp"), 0, 100,
        "VP per free cube on the chosen crew; the cubes go back to the stock (R6; 1 in draft 7).",
        "count_free_cube_vp", kernel_most=1 << 24,
    ),
    Knob(
        "player_cube_vp", ("motivation", "player_cube_vp"), 0, 100,
        "VP per player cube on the chosen crew, whoever owns it; the cubes leave the game (R6; 2 in draft 7).",
        "count_player_cube_vp", kernel_most=1 << 24,
    ),
    Knob(
        "survey_minimum", ("survey", "minimum"), 0, 100,
        "The fewest cubes a survey must place when it can (R7; default 0, since the draft says 'up to' the survey count).",
        "count_survey_minimum", kernel_most=1 << 24, default=0,
    ),
    Knob(
        "max_rounds", ("max_rounds",), 1, 1000,
        "The game also ends at the end of this round, so that it always ends: the draft lets a player place no cube, so "
        "without a limit a table that never places would play forever (docs/rules.md, 'Round limit'). May be left out: 30.",
        "count_max_rounds", kernel_most=1 << 24, default=30, kernel_type="u32",
    ),
)

KNOB = {knob.name: knob for knob in KNOBS}
