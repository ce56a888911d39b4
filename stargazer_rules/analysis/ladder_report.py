"""The skill ladder for a designer: ladder.json's figures, the terminal table, ladder.html.

``simulation.ladder.play_ladder`` plays the steps and gives each step's per-game win shares
and margins; ``ladder_figures`` turns them into the document of ``schemas/ladder.schema.json``
(docs/simulation.md, "ladder.json"): per step the stronger bot's win share with its Wilson
interval, its mean score margin, and whether it wins significantly more than fair, that is
whether the interval lies above the fair share of its seats; and the ruleset's **skill depth**,
the number of steps where it does. ``terminal_ladder`` and ``render_ladder`` read only that
document, so the table, the page and the file always agree.

The intervals treat games as independent; the seatings of one deal share the deal, so they are
somewhat optimistic (docs/simulation.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.labels import number, pct, rate_text
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.report import esc, figure, page, plot, table
from stargazer_rules.analysis.summary_view import Rate
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.simulation.ladder import LADDER_FORMAT
from stargazer_rules.text.reports import format_table
from stargazer_rules.rulesets import outputfiles

__all__ = [
    "CONFIDENCE",
    "LADDER_PAGE",
    "StepGames",
    "depth_text",
    "ladder_figures",
    "render_ladder",
    "skill_depth",
    "step_figures",
    "terminal_ladder",
    "write_ladder_page",
]

#: The level of the ladder's intervals.
CONFIDENCE = 0.95
#: The ladder's page in its output folder, beside ladder.json.
LADDER_PAGE = "ladder.html"


class StepGames(Protocol):
    """What a played step gives (``simulation.ladder.StepResult``): per game the stronger
    bot's win share and score margin, and the fair share of its seats."""

    @property
    def shares(self) -> Sequence[float]: ...

    @property
    def margins(self) -> Sequence[float]: ...

    @property
    def fair_share(self) -> float: ...


def step_figures(step: StepGames, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """A step's ``games``, ``wins`` (a rate: count, n, share, interval), ``margin`` (mean, n)
    and ``stronger_wins_more``: the interval's lower end above the fair share."""
    games = len(step.shares)
    if games == 0 or len(step.margins) != games:
        raise ValueError(f"a step needs a share and a margin per game, not {games} and {len(step.margins)}")
    wins = stats.rate(math.fsum(step.shares), games, confidence)
    return {
        "games": games,
        "wins": wins,
        "margin": {"mean": math.fsum(step.margins) / games, "n": games},
        "stronger_wins_more": wins["low"] > step.fair_share,
    }


def skill_depth(steps: Sequence[Mapping[str, Any]]) -> int:
    """How many steps the stronger bot wins significantly more than fair (0: thinking does not pay)."""
    return sum(1 for step in steps if step["stronger_wins_more"])


def ladder_figures(
    *,
    ruleset: Mapping[str, str],
    players: int,
    budgets: Sequence[int],
    seed: int,
    engine: str,
    deals: int,
    seatings: int,
    steps: Sequence[StepGames],
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """ladder.json: the run's identity (``ruleset`` is its name and fingerprint), each step's
    figures, the skill depth. Step ``k`` (from 1) plays ``budgets[k-1]`` against ``budgets[k]``."""
    if len(steps) != len(budgets) - 1:
        raise ValueError(f"{len(budgets)} budgets make {len(budgets) - 1} steps, not {len(steps)}")
    figures = [
        {"step": k, "budgets": [budgets[k - 1], budgets[k]], **step_figures(step, confidence)}
        for k, step in enumerate(steps, start=1)
    ]
    fair = {step.fair_share for step in steps}
    if len(fair) != 1:
        raise ValueError(f"the steps were played at different tables (fair shares {sorted(fair)})")
    return plain(
        {
            "format": LADDER_FORMAT,
            "ruleset": {"name": ruleset["name"], "fingerprint": ruleset["fingerprint"]},
            "players": players,
            "budgets": list(budgets),
            "seed": seed,
            "engine": engine,
            "deals": deals,
            "seatings": seatings,
            "fair_share": fair.pop(),
            "confidence": confidence,
            "steps": figures,
            "skill_depth": skill_depth(figures),
        }
    )


# -- what a person reads ------------------------------------------------------------------


def _title(ladder: Mapping[str, Any]) -> str:
    return f"Stargazer skill ladder: {ladder['ruleset']['name']}, {ladder['players']} players"


def _step_cells(step: Mapping[str, Any]) -> list[str]:
    """step, budgets, games, win share [interval], mean margin, pays."""
    weaker, stronger = step["budgets"]
    return [
        str(step["step"]),
        f"{weaker} vs {stronger}",
        number(step["games"]),
        rate_text(Rate(step["wins"])),
        f"{step['margin']['mean']:+.2f}",
        "yes" if step["stronger_wins_more"] else "no",
    ]


def depth_text(ladder: Mapping[str, Any]) -> str:
    """The finding: the skill depth in a sentence, and what a depth of 0 means."""
    depth, steps = ladder["skill_depth"], len(ladder["steps"])
    fair = pct(ladder["fair_share"])
    if depth == 0:
        where = ("in the ladder's one step the stronger bot does not win" if steps == 1
                 else f"in none of the {steps} steps does the stronger bot win")
        return (
            f"Skill depth 0: {where} significantly more than its fair {fair}. Thinking does not pay "
            f"in this game, at these budgets and as far as {number(ladder['steps'][0]['games'])} games "
            "a step can tell."
        )
    where = "in the ladder's one step" if steps == 1 else f"in {depth} of the {steps} steps"
    return (
        f"Skill depth {depth}: {where} the stronger bot wins significantly "
        f"more than its fair {fair} (its {100 * ladder['confidence']:g}% interval lies above it)."
    )


def _setting(ladder: Mapping[str, Any]) -> str:
    return (
        f"{ladder['ruleset']['name']} ({short_fingerprint(ladder['ruleset']['fingerprint'])}), "
        f"{ladder['players']} players, {number(ladder['deals'])} deals x {ladder['seatings']} seatings a step "
        f"from seed {ladder['seed']}, MCTS bots ({ladder['engine']} engine)"
    )


_HEADERS = ("step", "budgets", "games", "stronger's win share [interval]", "mean margin (VP)", "pays")


def terminal_ladder(ladder: Mapping[str, Any]) -> str:
    """The ladder as a plain-text table, then the skill depth."""
    level = f"{100 * ladder['confidence']:g}%"
    headers = [*_HEADERS[:3], f"stronger's win share [{level} interval]", *_HEADERS[4:]]
    rows = [_step_cells(step) for step in ladder["steps"]]
    lines = [_setting(ladder), ""]
    lines += format_table(rows, headers=headers, indent="", right=(2, 4))
    lines += ["", f"fair share of the stronger bot's seats: {pct(ladder['fair_share'])}", depth_text(ladder)]
    return "\n".join(lines)


def render_ladder(ladder: Mapping[str, Any]) -> str:
    """ladder.html as text: one self-contained page (no script from outside, no link out)."""
    title = _title(ladder)
    level = f"{100 * ladder['confidence']:g}%"
    head_rows = [
        ["ruleset", f"{esc(ladder['ruleset']['name'])} <code>{esc(short_fingerprint(ladder['ruleset']['fingerprint']))}</code>"],
        ["players", number(ladder["players"])],
        ["MCTS budgets", esc(", ".join(str(budget) for budget in ladder["budgets"]))],
        ["games a step", f"{number(ladder['steps'][0]['games'])} ({number(ladder['deals'])} deals from seed "
                         f"{esc(ladder['seed'])}, each in all {ladder['seatings']} seatings)"],
        ["engine", esc(ladder["engine"])],
        ["intervals", f"{level} (Wilson)"],
    ]
    rows = [[esc(cell) for cell in _step_cells(step)] for step in ladder["steps"]]
    body = (
        f"<h1>{esc(title)}</h1>\n"
        f"<p><strong>{esc(depth_text(ladder))}</strong></p>\n"
        + table(None, head_rows, text_columns=2)
        + figure(plot("ladder_steps", ladder),
                 "Dots: the stronger bot's win share (green: significantly above fair); whiskers: interval; "
                 "dashed: the fair share of its seats.")
        + table(list(_HEADERS), rows, text_columns=2)
        + '<p class="note">Each step plays the weaker budget against the stronger on the same deals, every '
        "deal in every seating, so both sit in every seat equally often. Ties are shared (R18). The margin is "
        "the mean total of the stronger bot's seats minus the weaker's. The interval treats the games as "
        "independent; the seatings of a deal share it, so it is somewhat optimistic. How to read this page: "
        'docs/simulation.md, "stargazer ladder". Every figure here is also in ladder.json beside this file.</p>'
    )
    return page(title, body)


def write_ladder_page(ladder: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``out_dir/ladder.html`` (the folder made if missing); its path."""
    path = Path(out_dir) / LADDER_PAGE
    outputfiles.output_folder(path.parent)
    outputfiles.write_text(path, render_ladder(ladder))
    return path
