"""What a crew or Planet card is worth by counterfactual play: the figures of ``stargazer explain``.

The picker advantage of a summary compares the players who picked a crew with those who did not,
so a crew picked mostly by players already ahead looks strong. Counterfactual play asks the
question directly, on the games of one run (the *baseline*) played again in arms
(``simulation.counterfactual``), game ``i`` of an arm paired with game ``i`` of the run (the same
deal seed, rotation and bot seeds):

- **forced effect** of a crew: in each game one table seat (rotated, each seat once per deal)
  must take the crew whenever it is free; the effect is that seat's win credit (R18: ties
  shared) in the arm minus the same seat's in the run, averaged over the paired games. Positive:
  taking the crew whenever possible wins more than the bot's own choices did. It is measured
  against what the bots would have picked instead, so a crew that is merely average shows a
  negative effect when taking it every round forgoes better picks (and their motivation bonus, R6).
- **left-out effect** of a card: the run's games dealt without it; the change of each turn-order
  seat's win share (arm minus run, paired by game), and each design target compared as
  ``stargazer compare`` compares two drafts (``target_verdict``: paired bootstrap, Bonferroni).

Each effect is a mean of paired differences with its Student's t interval (``paired_effect``),
and the paired games needed to decide it (``verdict.games_needed``: to exclude 0, or to fall
within the equivalence margin, if the mean and spread stay as measured). ``agreement`` sets the
forced effect beside the picker advantage and names where the two disagree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.game_figures import figures_of
from stargazer_rules.analysis.games import seat_at, win_credit
from stargazer_rules.analysis.measures import MEASURES, MeasureContext
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.target_verdict import met_counts, target_changes, verdict_of
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.analysis.verdict import games_needed

__all__ = [
    "AGREEMENT",
    "EXPLAIN_FORMAT",
    "agreement",
    "direction",
    "explain_document",
    "forced_figures",
    "left_out_figures",
    "paired_effect",
    "picker_vp",
]

#: The ``format`` of explain.json (docs/simulation.md, "explain.json").
EXPLAIN_FORMAT = "stargazer-explain/2"

#: Each (picker advantage, forced effect) direction pair that disagrees: its flag and sentence.
#: A direction is ``positive`` or ``negative`` (the interval excludes 0) or ``covers 0``. A
#: negative forced effect beside a picker advantage that covers 0 is no disagreement: taking any
#: crew every round it is free usually costs something (better picks and the motivation bonus
#: forgone, R6), which the picker advantage, counted from free choices, cannot show.
AGREEMENT: Mapping[tuple[str, str], tuple[str, str]] = {
    ("positive", "covers 0"): ("picked by leaders", "its pickers win more, but taking it wins no more"),
    ("positive", "negative"): ("picked by leaders", "its pickers win more, but taking it every time wins less"),
    ("negative", "covers 0"): ("picked by trailers", "its pickers win less, but taking it loses nothing"),
    ("negative", "positive"): ("picked by trailers", "its pickers win less, but taking it every time wins more"),
    ("covers 0", "positive"): ("underrated", "its pickers win no more, but taking it every time wins more"),
}


def direction(low: float | None, high: float | None) -> str | None:
    """``positive`` or ``negative`` when the interval excludes 0, ``covers 0`` when it holds it;
    None without an interval."""
    if low is None or high is None:
        return None
    if low > 0:
        return "positive"
    if high < 0:
        return "negative"
    return "covers 0"


def paired_effect(differences: Sequence[float], margin: float, confidence: float = 0.95) -> dict[str, Any]:
    """The mean of paired ``differences`` (arm minus run, one per paired game) with its Student's
    t interval, its ``direction``, and the paired games needed to decide it (None once decided,
    or when no number of games would: ``verdict.games_needed``).

    >>> effect = paired_effect([0.0, 1.0, 0.0, 1.0], margin=0.02)
    >>> effect["effect"], effect["games"], effect["direction"]
    (0.5, 4, 'covers 0')
    """
    n = len(differences)
    if n == 0:
        return {"effect": None, "low": None, "high": None, "sd": None, "games": 0, "direction": None, "games_needed": None}
    mean, low, high = stats.mean_interval(differences, confidence)
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1)) if n > 1 else 0.0
    found = direction(low, high)
    needed = None
    if found == "covers 0" and n > 1:
        needed = games_needed(n, mean, sd / math.sqrt(n), margin, confidence)
    return {"effect": mean, "low": low, "high": high, "sd": sd, "games": n, "direction": found, "games_needed": needed}


def _paired_lines(baseline: Sequence[Mapping[str, Any]], arm: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    by_index = {game["index"]: game for game in baseline}
    pairs = []
    for game in arm:
        base = by_index.get(game["index"])
        if base is None or (base["deal_seed"], base["rotation"]) != (game["deal_seed"], game["rotation"]):
            raise ValueError(f"game {game['index']} of the arm has no game of the run on its deal and rotation")
        pairs.append((base, game))
    return pairs


def forced_figures(
    baseline: Sequence[Mapping[str, Any]],
    forced: Sequence[Mapping[str, Any]],
    crew: str,
    seats: Sequence[int],
    *,
    margin: float,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """The forced effect of ``crew``: ``forced[k]`` is a game of the arm whose table seat
    ``seats[k]`` was forced; also the games in which that seat took the crew at all, and the
    games whose picks the forcing changed (the others are the run's games move for move)."""
    differences = []
    took = changed = 0
    for (base, game), seat in zip(_paired_lines(baseline, forced), seats, strict=True):
        differences.append(win_credit(game, seat) - win_credit(base, seat))
        took += any(pick["seat"] == seat and pick["crew"] == crew for pick in game["picks"])
        changed += game["picks"] != base["picks"]
    return {
        "crew": crew,
        "forced": paired_effect(differences, margin, confidence),
        "games_taken": took,
        "games_changed": changed,
    }


def left_out_figures(
    baseline: Sequence[Mapping[str, Any]],
    left_out: Sequence[Mapping[str, Any]],
    *,
    targets: Targets,
    context: MeasureContext,
    context_left_out: MeasureContext,
    names: Mapping[str, Any],
    names_left_out: Mapping[str, Any],
    base_answers: Sequence[Mapping[str, Any]],
    left_out_answers: Sequence[Mapping[str, Any]],
    label: str,
) -> dict[str, Any]:
    """The left-out effect: each turn-order seat's paired change of win share, and the targets
    compared (the run as A, the arm as B: ``target_verdict``)."""
    confidence = targets.confidence
    margin = targets.settings.equivalence_margin
    pairs = _paired_lines(baseline, left_out)
    players = baseline[0]["players"]
    seats = []
    for position in range(players):
        differences = [
            win_credit(game, seat_at(game, position)) - win_credit(base, seat_at(base, position)) for base, game in pairs
        ]
        seats.append({"seat": position + 1, **paired_effect(differences, margin, confidence)})
    measures = [MEASURES[target.measure] for target in targets.targets]
    figures_a = figures_of([base for base, _ in pairs], measures, context, metrics=False)
    figures_b = figures_of([game for _, game in pairs], measures, context_left_out, metrics=False)
    rows = target_changes(list(zip(figures_a, figures_b, strict=True)), targets, context, context_left_out, names, names_left_out)
    met = met_counts(base_answers, left_out_answers)  # the targets decided in both, as compare counts them
    verdict = verdict_of(rows, confidence=confidence, label_a="the run", label_b=label, met=met)
    return {"seats": seats, "targets": verdict}


#: The parts of a seat's final score that tell where a crew's pickers' VP come from: the score
#: sheet's field of each, by the word the brief and the page use (R15 majority, R17 the
#: major-planet bonus, VP scored during play: the motivation bonus and the skills).
VP_SOURCES = {"majority": "majority_vp", "bonus": "bonus_vp", "play": "play_vp"}


def picker_vp(games: Sequence[Mapping[str, Any]], crew: str, always_in_play: bool = False) -> dict[str, Any] | None:
    """Where a crew's pickers' VP come from: over the run's games with the crew in play (dealt,
    or ``always_in_play``), the mean VP of each source (``VP_SOURCES``) of the seats that picked
    it and of the other seats, ``difference`` pickers minus others, and ``largest`` the source
    of the largest difference either way; None when no seat picked it or every seat did."""
    pickers = {source: [0.0, 0] for source in VP_SOURCES}
    others = {source: [0.0, 0] for source in VP_SOURCES}
    games_in = 0
    for game in games:
        if not always_in_play and crew not in game["setup"]["crew"]:
            continue
        games_in += 1
        picked = {pick["seat"] for pick in game["picks"] if pick["crew"] == crew}
        for sheet in game["score_sheet"]["seats"]:
            tally = pickers if sheet["seat"] in picked else others
            for source, field in VP_SOURCES.items():
                tally[source][0] += sheet[field]
                tally[source][1] += 1
    if not pickers["majority"][1] or not others["majority"][1]:
        return None
    mean_p = {source: total / count for source, (total, count) in pickers.items()}
    mean_o = {source: total / count for source, (total, count) in others.items()}
    difference = {source: mean_p[source] - mean_o[source] for source in VP_SOURCES}
    largest = max(VP_SOURCES, key=lambda source: abs(difference[source]))
    return {"games": games_in, "pickers": mean_p, "others": mean_o, "difference": difference, "largest": largest}


def agreement(picker_advantage: Mapping[str, Any] | None, forced: Mapping[str, Any] | None) -> dict[str, Any]:
    """The picker advantage's and the forced effect's directions, and where they disagree
    (``AGREEMENT``) a ``flag`` and its sentence; ``flag`` None when they agree or one is missing."""
    picked = direction(picker_advantage.get("low"), picker_advantage.get("high")) if picker_advantage else None
    taken = forced.get("direction") if forced else None
    flag, text = AGREEMENT.get((picked, taken), (None, None)) if picked and taken else (None, None)
    return {"picker": picked, "forced": taken, "flag": flag, "text": text}


def explain_document(
    *,
    run: Mapping[str, Any],
    summary: Mapping[str, Any],
    crews: Sequence[Mapping[str, Any]],
    cards: Sequence[Mapping[str, Any]],
    arm_games: int,
    games: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """explain.json (``schemas/explain.schema.json``): the ``run`` (ruleset, players, lineup,
    seed, games, engine), each crew's forced figures beside its picker advantage (from the run's
    ``summary``, with the cards' names) with their ``agreement`` and where its pickers' VP come
    from (``picker_vp`` over the run's ``games``), and each card's left-out figures (``cards``)."""
    advantage = {card["crew"]: card["picker_advantage"] for card in summary["crew"]["cards"]}
    always = set(summary["crew"]["always_in_play"])
    crew_rows = []
    for row in crews:
        picker = advantage.get(row["crew"])
        crew_rows.append({**row, "picker_advantage": picker, "agreement": agreement(picker, row["forced"]),
                          "picker_vp": picker_vp(games, row["crew"], row["crew"] in always) if games else None})
    return plain(
        {
            "format": EXPLAIN_FORMAT,
            "run": dict(run),
            "confidence": summary["run"]["confidence"],
            "arm_games": arm_games,
            "names": summary["names"],
            "crew": crew_rows,
            "left_out": list(cards),
        }
    )
