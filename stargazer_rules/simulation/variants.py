"""Several lineups and player counts in one run: each (player count, lineup) is a *variant*, a
run exactly as one ``simulate`` makes it (its own folder, games file and cache entry), so the
verdicts can be asked at every bot strength and player count at once (docs/simulation.md,
"Variants").

On the command line the lineups are separated by ``;`` (``--bots 'greedy;mcts:200;mcts:800'``):
``/`` already separates the seats of one lineup and ``,`` the parameters of one bot
(``mcts:iterations=400,c=1.4``). The player counts are a comma list (``--players 3,4``). Every
lineup is played at every player count, in the order given: player counts outer, lineups inner.

**Paired deals.** Every variant plays from the same ``--seed``: at one player count, block ``b``
of every lineup is the same deal in the same seat rotations, so two lineups (or two rulesets, in
``compare``) pair game by game. A deal depends on the number of players (the setup deals per
player), so across player counts the same seed gives another deal: those variants share seeds,
not deals, and are never paired with each other; each is judged on its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from stargazer_rules.errors import BotSpecError
from stargazer_rules.simulation.planning import LINEUP_SEPARATOR, parse_lineup

__all__ = ["VARIANT_SEPARATOR", "Variant", "lineup_text", "parse_player_counts", "parse_variants"]

#: Separates the lineups of a run of several on the command line: ``greedy;mcts:200``.
VARIANT_SEPARATOR = ";"
#: Separates the player counts: ``--players 3,4``.
PLAYERS_SEPARATOR = ","
#: The most variants one command plays: a run of each, so a long list is a mistake, not a plan.
MAX_VARIANTS = 12


def lineup_text(lineup: Sequence[str]) -> str:
    """A lineup in the command line's form, its repeated last bot written once:
    ``('mcts:400', 'greedy', 'greedy')`` -> ``mcts:400/greedy``; ``('greedy',) * 4`` -> ``greedy``."""
    entries = list(lineup)
    while len(entries) > 1 and entries[-1] == entries[-2]:
        entries.pop()
    return LINEUP_SEPARATOR.join(entries)


@attrs.frozen
class Variant:
    """One (player count, lineup) of a run: ``players``, the canonical bot spec of each seat of
    the ``lineup`` (``players`` of them, what the run and its cache key hold), and ``given``, the
    lineup as the command line wrote it (``mcts:200``), which names the variant."""

    players: int
    lineup: tuple[str, ...] = attrs.field(converter=tuple)
    given: str = attrs.field(default="", eq=False)

    @property
    def label(self) -> str:
        """``3p greedy``, ``4p mcts:400/greedy``: how headlines and tables name the variant."""
        return f"{self.players}p {self.given or lineup_text(self.lineup)}"

    @property
    def folder(self) -> str:
        """The variant's folder in the command's output folder, a name any file system takes:
        ``3p-greedy``, ``4p-mcts-200``, ``4p-mcts-iterations-400-c-1.4``."""
        name = re.sub(r"[^A-Za-z0-9.]+", "-", self.given or lineup_text(self.lineup)).strip("-")
        return f"{self.players}p-{name}"

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "players": self.players, "lineup": list(self.lineup), "folder": self.folder}


def parse_player_counts(text: str) -> tuple[int, ...]:
    """``"4"`` -> ``(4,)``, ``"3,4"`` -> ``(3, 4)``: whole numbers of at least 1, each once, in
    the order given. Raises ``ValueError`` saying which part is wrong."""
    counts: list[int] = []
    for part in text.split(PLAYERS_SEPARATOR):
        part = part.strip()
        if not part.isascii() or not part.isdigit():
            raise ValueError(f"{part!r} is not a whole number in ASCII digits (write 4, or several as 3,4)")
        count = int(part)
        if count < 1:
            raise ValueError(f"{part} is not at least 1")
        if count in counts:
            raise ValueError(f"{count} is given twice")
        counts.append(count)
    return tuple(counts)


def parse_variants(bots: Sequence[str], player_counts: Sequence[int]) -> tuple[Variant, ...]:
    """The variants of ``--bots`` (its values; ``;`` separates lineups) at each player count.

    A ``--bots`` given several times without ``;`` is one lineup, its seats in order (as
    before lineups could be several); with ``;`` it may be given once. Raises ``BotSpecError``
    or ``SimulationError`` (``parse_lineup``'s) naming the lineup, and ``BotSpecError`` for an
    empty or repeated lineup or too many variants.
    """
    if len(bots) > 1 and any(VARIANT_SEPARATOR in text for text in bots):
        raise BotSpecError(
            f"--bots with several lineups ({VARIANT_SEPARATOR!r}-separated) is given once: write "
            f"--bots '{VARIANT_SEPARATOR.join(bots)}' for those lineups, or repeat --bots without "
            f"{VARIANT_SEPARATOR!r} for the seats of one lineup"
        )
    lineups = [part.strip() for part in bots[0].split(VARIANT_SEPARATOR)] if len(bots) == 1 else [LINEUP_SEPARATOR.join(bots)]
    if any(not lineup for lineup in lineups):
        raise BotSpecError(
            f"empty lineup in --bots {bots[0]!r}; separate lineups with {VARIANT_SEPARATOR!r}, as in 'greedy{VARIANT_SEPARATOR}mcts:200'"
        )
    variants: list[Variant] = []
    for players in player_counts:
        for lineup in lineups:
            try:
                variant = Variant(players, parse_lineup(lineup, players), lineup)
            except BotSpecError as error:
                hint = (f"; several lineups are separated by {VARIANT_SEPARATOR!r} (--bots 'greedy{VARIANT_SEPARATOR}mcts:200')"
                        if len(lineups) == 1 and "," in lineup and ("=" not in lineup) else "")
                raise BotSpecError(f"{error}{hint}") from None
            if variant in variants:
                raise BotSpecError(f"the lineup {lineup!r} is given twice (as {lineup_text(variant.lineup)!r} at {players} players)")
            variants.append(variant)
    if len(variants) > MAX_VARIANTS:
        raise BotSpecError(
            f"{len(lineups)} lineups at {len(player_counts)} player counts are {len(variants)} runs, more than one "
            f"command plays ({MAX_VARIANTS}); split them over several commands"
        )
    return tuple(variants)
