"""The arms of ``stargazer explain`` played and read, one after another: explain.json of a run.

For a run's games (its games.jsonl lines), each crew asked is forced on one seat and each card
asked is left out of the deal (``simulation.counterfactual``), on the run's first ``arm_games``
entries; each arm is read into its figures (``analysis.counterfactual``) as soon as it is played,
so no more than one arm's games are held at a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from stargazer_rules.analysis import counterfactual
from stargazer_rules.analysis.measures import MeasureContext
from stargazer_rules.analysis.summary import summarize
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation.counterfactual import forced_seat, play_forced, play_left_out
from stargazer_rules.simulation.planning import plan

__all__ = ["Progress", "explain_run"]

#: Called after each arm: its number (from 1), the number of arms, ``forced`` or ``left out``,
#: the card, the games played and the seconds they took.
Progress = Callable[[int, int, str, str, int, float], None]


def explain_run(
    ruleset: Ruleset,
    games: Sequence[dict[str, Any]],
    lineup: Sequence[str],
    targets: Targets,
    *,
    seed: int,
    arm_games: int,
    crews: Sequence[str],
    planets: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """explain.json of the run ``games`` (its whole games.jsonl lines): every crew of ``crews``
    forced, every card of ``crews`` and ``planets`` left out, on the run's first ``arm_games``."""
    players = games[0]["players"]
    entries = plan(arm_games, players, seed)
    baseline = [game for game in games if game["index"] < len(entries)]
    summary = summarize(games, targets=targets, ruleset=ruleset)
    margin = targets.settings.equivalence_margin
    context = MeasureContext.of(baseline, ruleset)
    arms = [("forced", crew) for crew in crews] + [("left out", card) for card in (*crews, *planets)]
    crew_rows, card_rows = [], []
    for number, (kind, card) in enumerate(arms, start=1):
        started = time.perf_counter()
        if kind == "forced":
            lines = play_forced(ruleset, entries, lineup, card, engine)
            crew_rows.append(counterfactual.forced_figures(
                baseline, lines, card, [forced_seat(entry) for entry in entries],
                margin=margin, confidence=targets.confidence))
        else:
            arm = play_left_out(ruleset, entries, lineup, card, engine)
            row: dict[str, Any] = {"card": card, "kind": "crew" if card in crews else "planet", "why": arm.why}
            if arm.why is None:
                arm_summary = summarize(arm.lines, targets=targets, ruleset=arm.ruleset)
                row.update(counterfactual.left_out_figures(
                    baseline, arm.lines, targets=targets, context=context,
                    context_left_out=MeasureContext.of(arm.lines, arm.ruleset), names=summary["names"],
                    names_left_out=arm_summary["names"], base_met=counterfactual.met_count(summary),
                    left_out_met=counterfactual.met_count(arm_summary), label=f"without {card}"))
            card_rows.append(row)
        if progress is not None:
            progress(number, len(arms), kind, card, len(entries), time.perf_counter() - started)
    run = {
        "ruleset": {"name": ruleset.name, "fingerprint": ruleset.fingerprint},
        "players": players, "lineup": list(lineup), "seed": seed, "games": len(games), "engine": engine,
    }
    return counterfactual.explain_document(run=run, summary=summary, crews=crew_rows, cards=card_rows, arm_games=len(entries))
