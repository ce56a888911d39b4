"""The bounds a designer sets: what the report calls a finding.

A finding is a plain sentence at the top of the report for a figure outside these bounds. So
that noise does not make findings, a rate is "outside" only when its whole 95% interval is
(a seat whose interval excludes the fair share; a crew whose first-pick interval lies above
``max_first_pick_share``). The exceptions are counts that are findings in themselves: an
accident row never reached, a game ended by the round limit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from stargazer_rules.rulesets.validation import close_match


def _share(instance: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    if not 0 <= value <= 1:
        raise ValueError(f"Bounds.{attribute.name} is a share between 0 and 1, not {value!r}")


def _open_share(instance: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    if not 0 < value < 1:
        raise ValueError(f"Bounds.{attribute.name} is strictly between 0 and 1, not {value!r}")


def _count(instance: Any, attribute: attrs.Attribute[Any], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"Bounds.{attribute.name} is a whole number, 0 or more, not {value!r}")


@attrs.frozen(kw_only=True)
class Bounds:
    """What counts as out of balance. Every share is a fraction (0.5 is 50%).

    - ``confidence`` (0.95): the level of every interval in the report and of every test.
    - ``seat_advantage`` (0.02) and ``power`` (0.8): the report says how many games it takes to
      detect a seat that wins 2 points more often than the fair share, with 80% power.
    - ``min_balance`` (0.90): the balance number (1 minus the largest gap between two seats'
      win shares) below which the seats are a finding, when the chi-square test also says the
      gap is more than chance.
    - ``max_tie_rate`` (0.10): games whose win is shared.
    - ``max_first_pick_share`` (0.50): a crew taken with the first pick of a round in more than
      this share of the rounds it is in play is a must-pick.
    - ``min_pick_share`` (0.20): a crew picked in fewer than this share of the rounds it is in
      play is dead weight.
    - ``max_picker_advantage`` (0.10): a crew whose pickers win more (or less) often than the
      other players of the same games by more than this many points (0.10 = 10 points).
    - ``max_accident_rate`` (0.50): a Planet whose first place scores an accident in more than
      this share of the games it has cubes.
    - ``min_card_games`` (30): a crew or planet card in play in fewer games gets no finding
      (too little data); its figures are still shown.
    - ``max_round_limit_share`` (0.0): games that end at the round limit (the safety net of
      docs/rules.md, not a rule of the game) above this share are a finding.
    - ``equivalence_margin`` (0.02): a comparison calls two drafts *equivalent* when the change
      of the balance number lies inside ±this (two one-sided tests; docs/simulation.md).
    - ``near_miss`` (0.03): a figure that is not a finding but lies within this distance of its
      bound (3 points of a share) is listed as a near miss in a comparison.
    """

    confidence: float = attrs.field(default=0.95, validator=_open_share)
    seat_advantage: float = attrs.field(default=0.02, validator=_open_share)
    power: float = attrs.field(default=0.8, validator=_open_share)
    min_balance: float = attrs.field(default=0.90, validator=_share)
    max_tie_rate: float = attrs.field(default=0.10, validator=_share)
    max_first_pick_share: float = attrs.field(default=0.50, validator=_share)
    min_pick_share: float = attrs.field(default=0.20, validator=_share)
    max_picker_advantage: float = attrs.field(default=0.10, validator=_share)
    max_accident_rate: float = attrs.field(default=0.50, validator=_share)
    min_card_games: int = attrs.field(default=30, validator=_count)
    max_round_limit_share: float = attrs.field(default=0.0, validator=_share)
    equivalence_margin: float = attrs.field(default=0.02, validator=_open_share)
    near_miss: float = attrs.field(default=0.03, validator=_share)

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bounds:
        return cls(**data)

    def with_settings(self, settings: Iterable[str]) -> Bounds:
        """These bounds with ``NAME=VALUE`` settings applied (the command line's ``--bound``).

        Raises ``ValueError`` naming the setting for an unknown name (with a did-you-mean), a
        value that is not a number, or one out of the field's range.
        """
        changes = dict(parse_setting(text) for text in settings)
        return attrs.evolve(self, **changes)


def parse_setting(text: str) -> tuple[str, float | int]:
    """``"max_tie_rate=0.15"`` -> ``("max_tie_rate", 0.15)``, checked against its field."""
    fields = {field.name: field for field in attrs.fields(Bounds)}
    name, separator, raw = (part.strip() for part in text.partition("="))
    if not separator or not name or not raw:
        raise ValueError(f"{text!r} is not NAME=VALUE (for example max_tie_rate=0.15)")
    if name not in fields:
        close = close_match(name, fields)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise ValueError(f"no bound {name!r}{hint}; bounds: {', '.join(fields)}")
    kind = int if fields[name].type in (int, "int") else float
    try:
        value = kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise ValueError(f"{name}={raw}: {raw!r} is not {what}") from None
    try:
        Bounds(**{name: value})
    except ValueError as error:
        raise ValueError(f"{name}={raw}: {str(error).removeprefix('Bounds.')}") from None
    return name, value
