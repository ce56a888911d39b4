"""The arms of ``stargazer explain`` played and read: explain.json of a run.

For a run's games (its games.jsonl lines), each crew asked is forced on one seat and each card
asked is left out of the deal (``simulation.counterfactual``), on the run's first ``arm_games``
entries. Each arm is read into its figures (``analysis.counterfactual``) where it was played, as
soon as it was played, so that an arm's games are never sent between processes nor held beside
another arm's: with ``workers`` above 1, each worker process is given the run's paired games
once and plays whole arms; the document is the same on any number of workers.
"""

from __future__ import annotations

import concurrent.futures
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.analysis import counterfactual
from stargazer_rules.analysis.measures import MeasureContext
from stargazer_rules.analysis.summary import summarize
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation import lifeline
from stargazer_rules.simulation.counterfactual import forced_seat, play_forced, play_left_out
from stargazer_rules.simulation.planning import PlanEntry, plan

__all__ = ["Progress", "explain_run"]

#: Called after each arm: how many arms are done, the number of arms, ``forced`` or
#: ``left out``, the card, the games played and the seconds they took.
Progress = Callable[[int, int, str, str, int, float], None]


@attrs.frozen
class _Paired:
    """What every arm is read against: the run's paired games and what is counted of them once."""

    ruleset: Ruleset
    entries: tuple[PlanEntry, ...]
    lineup: tuple[str, ...]
    engine: str
    targets: Targets
    baseline: tuple[Mapping[str, Any], ...]
    names: Mapping[str, Any]
    answers: tuple[Mapping[str, Any], ...]
    crews: frozenset[str]

    def arm(self, kind: str, card: str) -> dict[str, Any]:
        """The figures of one arm: a crew's forced figures, or a card's left-out figures."""
        targets = self.targets
        if kind == "forced":
            lines = play_forced(self.ruleset, self.entries, self.lineup, card, self.engine)
            seats = [forced_seat(entry) for entry in self.entries]
            return counterfactual.forced_figures(
                self.baseline, lines, card, seats, margin=targets.settings.equivalence_margin, confidence=targets.confidence
            )
        arm = play_left_out(self.ruleset, self.entries, self.lineup, card, self.engine)
        row: dict[str, Any] = {"card": card, "kind": "crew" if card in self.crews else "planet", "why": arm.why}
        if arm.why is None:
            arm_summary = summarize(arm.lines, targets=targets, ruleset=arm.ruleset)
            row.update(counterfactual.left_out_figures(
                self.baseline, arm.lines, targets=targets, context=MeasureContext.of(self.baseline, self.ruleset),
                context_left_out=MeasureContext.of(arm.lines, arm.ruleset), names=self.names,
                names_left_out=arm_summary["names"], base_answers=self.answers,
                left_out_answers=arm_summary["targets"]["targets"], label=f"without {card}",
            ))
        return row


def explain_run(
    ruleset: Ruleset,
    games: Sequence[Mapping[str, Any]],
    lineup: Sequence[str],
    targets: Targets,
    *,
    seed: int,
    arm_games: int,
    crews: Sequence[str],
    planets: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """explain.json of the run ``games`` (its whole games.jsonl lines, played from ``seed``):
    every crew of ``crews`` forced, every card of ``crews`` and ``planets`` left out, each on the
    run's first ``arm_games`` games. The picker advantages are the whole run's; the targets'
    answers, the paired games'. ``workers`` processes play the arms (None: one per core)."""
    players = games[0]["players"]
    entries = plan(arm_games, players, seed)
    baseline = tuple(game for game in games if game["index"] < len(entries))
    summary = summarize(games, targets=targets, ruleset=ruleset)
    paired_summary = summary if len(baseline) == len(games) else summarize(baseline, targets=targets, ruleset=ruleset)
    paired = _Paired(ruleset, tuple(entries), tuple(lineup), engine, targets, baseline, summary["names"],
                     tuple(paired_summary["targets"]["targets"]), frozenset(crews))
    arms = [("forced", crew) for crew in crews] + [("left out", card) for card in (*crews, *planets)]
    rows = _played(paired, arms, workers or os.cpu_count() or 1, progress)
    run = {
        "ruleset": {"name": ruleset.name, "fingerprint": ruleset.fingerprint},
        "players": players, "lineup": list(lineup), "seed": seed, "games": len(games), "engine": engine,
    }
    return counterfactual.explain_document(
        run=run, summary=summary, arm_games=len(entries), games=games,
        crews=[row for (kind, _), row in zip(arms, rows, strict=True) if kind == "forced"],
        cards=[row for (kind, _), row in zip(arms, rows, strict=True) if kind != "forced"],
    )


def _played(paired: _Paired, arms: Sequence[tuple[str, str]], workers: int, progress: Progress | None) -> list[dict[str, Any]]:
    """Each arm's figures, in the order of ``arms``, however the workers finish."""
    games = len(paired.entries)
    if workers <= 1 or len(arms) <= 1:
        rows = []
        for done, (kind, card) in enumerate(arms, start=1):
            started = time.perf_counter()
            rows.append(paired.arm(kind, card))
            if progress is not None:
                progress(done, len(arms), kind, card, games, time.perf_counter() - started)
        return rows
    results: dict[int, dict[str, Any]] = {}
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, len(arms)), initializer=_init_worker, initargs=(paired,)
    ) as pool:
        futures = {pool.submit(_worker_arm, kind, card): number for number, (kind, card) in enumerate(arms)}
        for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
            number = futures[future]
            results[number], seconds = future.result()
            if progress is not None:
                kind, card = arms[number]
                progress(done, len(arms), kind, card, games, seconds)
    return [results[number] for number in range(len(arms))]


_WORKER_PAIRED: _Paired | None = None


def _init_worker(paired: _Paired) -> None:
    global _WORKER_PAIRED
    lifeline.exit_with_parent()  # no orphan playing on after a kill -9 of the command
    _WORKER_PAIRED = paired


def _worker_arm(kind: str, card: str) -> tuple[dict[str, Any], float]:
    if _WORKER_PAIRED is None:
        raise RuntimeError("_worker_arm outside a worker whose initializer set the run")
    started = time.perf_counter()
    return _WORKER_PAIRED.arm(kind, card), time.perf_counter() - started
