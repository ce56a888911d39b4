"""The figures a designer reads of a set of games, counted the same way for the people's games
(playtest logs) and the bots' (their games.jsonl lines, made into logs by ``playtests.sources``).

Each measure (``TABLE_MEASURES``) is one value per game, or, for the crews, the game's picks:

- ``score``: the mean of the seats' final totals (R18) in the game;
- ``winning_margin``: the winner's total minus the best total of a seat that did not win
  (0 on a shared win, R18);
- ``bonus``: the mean major-planet bonus of the seats (R17);
- ``rounds``: the round the game ended in (R10);
- ``crew_picks``: how often each crew was taken, over the rounds noted (a log without picks
  is left out of this measure only);
- ``start_player_wins``: 1 when the start player of round 1 won, alone or sharing the win (R18).

``playtest_report`` summarises logs with these figures and their counts, in the core install
(no numpy or scipy): for a number its mean, median and range; for the start player's win share
the Wilson interval (95%); for the crews each one's share of the picks.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from stargazer_rules.playtests.log import PlaytestLog

__all__ = ["TABLE_MEASURES", "TableMeasure", "playtest_report", "report_lines", "values_of", "wilson_interval"]


@attrs.frozen
class TableMeasure:
    """One figure of a game: its ``name``, the words a reader sees, its ``kind`` (``number``: one
    value per game; ``share``: 0 or 1 per game; ``picks``: a count per crew) and how a log gives
    it (``value``: None when the log does not say)."""

    name: str
    label: str
    description: str
    kind: str
    value: Callable[[PlaytestLog], Any]


def _mean_score(log: PlaytestLog) -> float:
    return statistics.fmean(score.total for score in log.scores)


def _winning_margin(log: PlaytestLog) -> int:
    if len(log.winners) > 1:  # a shared win (R18): nobody won by anything
        return 0
    winners = set(log.winners)
    others = [score.total for position, score in enumerate(log.scores) if position not in winners]
    if not others:
        return 0
    return max(log.scores[position].total for position in winners) - max(others)


def _bonus(log: PlaytestLog) -> float:
    return statistics.fmean(score.bonus for score in log.scores)


def _picks(log: PlaytestLog) -> Counter[str] | None:
    if not log.picks:
        return None
    return Counter(crew for crews in log.picks for crew in crews)


def _rounds(log: PlaytestLog) -> int:
    return log.rounds


def _start_player_wins(log: PlaytestLog) -> int:
    return int(0 in log.winners)


#: The measures, in the order they are shown.
TABLE_MEASURES: Mapping[str, TableMeasure] = {
    measure.name: measure
    for measure in (
        TableMeasure("score", "final score", "the mean of the seats' final totals in a game (R18)", "number", _mean_score),
        TableMeasure("winning_margin", "winning margin",
                     "the winner's total minus the best total of a seat that did not win (0 on a shared win)",
                     "number", _winning_margin),
        TableMeasure("bonus", "major-planet bonus", "the mean major-planet bonus of the seats in a game (R17)", "number", _bonus),
        TableMeasure("rounds", "rounds", "the round the game ended in (R10)", "number", _rounds),
        TableMeasure("crew_picks", "crew pick shares", "each crew's share of the crews taken, over the rounds noted",
                     "picks", _picks),
        TableMeasure("start_player_wins", "start player's win share",
                     "the share of games the start player of round 1 won, alone or sharing the win (R18)",
                     "share", _start_player_wins),
    )
}


def values_of(logs: Sequence[PlaytestLog], measure: TableMeasure) -> list[Any]:
    """The measure's value of each log that gives one."""
    values = (measure.value(log) for log in logs)
    return [value for value in values if value is not None]


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` in ``n`` (95% by default), without scipy."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * (p * (1 - p) / n + z2n / (4 * n)) ** 0.5
    return max(0.0, centre - half), min(1.0, centre + half)


def playtest_report(logs: Sequence[PlaytestLog]) -> dict[str, Any]:
    """Every measure of ``logs`` with its count, as plain JSON (the module docstring)."""
    report: dict[str, Any] = {"games": len(logs), "players": dict(Counter(str(log.players) for log in logs)), "measures": {}}
    for measure in TABLE_MEASURES.values():
        values = values_of(logs, measure)
        entry: dict[str, Any] = {"label": measure.label, "description": measure.description, "n": len(values)}
        if measure.kind == "number" and values:
            entry.update(mean=statistics.fmean(values), median=statistics.median(values), min=min(values), max=max(values))
        elif measure.kind == "share" and values:
            low, high = wilson_interval(sum(values), len(values))
            entry.update(count=sum(values), share=sum(values) / len(values), low=low, high=high)
        elif measure.kind == "picks" and values:
            counts: Counter[str] = sum(values, Counter())
            total = sum(counts.values())
            entry.update(picks=total, crews={crew: {"picks": count, "share": count / total}
                                            for crew, count in counts.most_common()})
        report["measures"][measure.name] = entry
    return report


def _short(value: float) -> str:
    """A figure to a tenth, without a trailing ``.0``: 5, 20.4."""
    return f"{value:.1f}".removesuffix(".0")


def report_lines(report: Mapping[str, Any]) -> list[str]:
    """``playtest_report``'s figures as the terminal shows them, one line each."""
    players = ", ".join(f"{count} of {number} players" for number, count in sorted(report["players"].items()))
    lines = [f"{report['games']} playtest {'game' if report['games'] == 1 else 'games'} ({players})"]
    for name, entry in report["measures"].items():
        kind = TABLE_MEASURES[name].kind
        if not entry["n"]:
            lines.append(f"  {entry['label']}: not noted in any log")
        elif kind == "number":
            lines.append(f"  {entry['label']}: mean {entry['mean']:.1f}, median {_short(entry['median'])}, "
                         f"from {_short(entry['min'])} to {_short(entry['max'])} ({entry['n']} games)")
        elif kind == "share":
            lines.append(f"  {entry['label']}: {entry['count']} of {entry['n']} games, {entry['share']:.0%} "
                         f"[{entry['low']:.0%}, {entry['high']:.0%}] (95% Wilson interval)")
        else:
            shares = ", ".join(f"{crew} {item['share']:.0%}" for crew, item in entry["crews"].items())
            lines.append(f"  {entry['label']}: {shares} ({entry['picks']} picks in {entry['n']} games)")
    return lines
