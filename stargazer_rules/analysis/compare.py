"""Two runs side by side: every metric of A and B, the difference B - A and its interval.

Runs made by ``stargazer simulate`` with the same seed, games and lineup play the same deals,
rotations and seatings (docs/simulation.md, "The plan of a run"), so game ``index`` i of run A
and of run B differ only by the ruleset (or the bots). Comparing them game by game removes
the luck of the deal from the difference: the interval of a *paired* difference is usually
much narrower than that of two independent runs.

How each difference gets its interval:

- ``paired``: a per-game figure (a seat's share of the win, a tie, rounds, scores, an end
  condition) over the games present in both runs with the same deal seed and rotation; the
  mean difference with Student's t. Ratios (options per decision, a bot's win share, a share
  of all VP) are linearised first (z_i = (x_i - R*d_i) / mean(d)), the standard Taylor method.
- ``bootstrap``: the balance number (a maximum minus a minimum, not a mean): 1,000 paired
  resamples of the games, a seeded generator, the percentile interval.
- ``newcombe`` / ``welch``: figures of a card (crew, planet, colour), which is not in play in
  every game, from the two summaries as independent samples.
- ``none``: shown side by side only (the chi-square p-value).

A difference is *significant* when its interval excludes 0. With many metrics some are flagged
by chance (about 1 in 20 at 95%); the comparison says how many to expect.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.findings_diff import findings_diff, near_misses
from stargazer_rules.analysis.game_figures import (
    GameFigures,
    bot_figure_ids,
    figures_of,
    seat_figure_id,
    trigger_figure_id,
)
from stargazer_rules.analysis.games import checked_games
from stargazer_rules.analysis.measures import MEASURES, MeasureContext
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.summary import ruleset_of_lines, summarize
from stargazer_rules.analysis.summary_view import Distribution, Rate, SummaryView, to_json, view_of
from stargazer_rules.analysis.target_verdict import met_counts, target_changes, verdict_of
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.analysis.verdict import (
    BOOTSTRAP,
    BOOTSTRAP_SEED,
    balance_of,
    paired_balance_draws,
    top_changes,
)
from stargazer_rules.rulesets import outputfiles

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = ["COMPARISON_FORMAT", "Run", "compare_summaries", "write_comparison"]

#: The ``format`` of comparison.json.
COMPARISON_FORMAT = "stargazer-comparison/3"


@attrs.frozen
class Run:
    """One side of a comparison: what the comparison keeps of each of a run's games, and the
    run's ``summary``.

    ``games`` may be given as games.jsonl lines: they are checked and kept as their
    ``GameFigures`` (the figures and parts the comparison reads, with the targets the summary
    was made with: ``analysis.game_figures``), so a run held for a comparison costs about 2 kB
    a game, not the 50 kB of its lines. The comparison reads the cards' figures from the
    summary, so a caller that writes each run's report anyway (``stargazer compare``)
    summarises each run once. ``context`` is the measures' context of the run (made from the
    games and ``ruleset`` when not given).
    """

    games: tuple[Any, ...] = attrs.field(converter=tuple)
    summary: Mapping[str, Any]
    ruleset: Ruleset | None = None
    external: Mapping[str, float] = attrs.field(factory=dict)
    context: MeasureContext | None = None

    def __attrs_post_init__(self) -> None:
        run = view_of(self.summary).run
        lines = [game for game in self.games if not isinstance(game, GameFigures)]
        if lines:
            if len(lines) != len(self.games):
                raise TypeError("a Run holds games.jsonl lines or their GameFigures, not both")
            played = checked_games(lines)
            context = self.context or MeasureContext.of(played, self.ruleset, self.external)
            targets = Targets.from_json(self.summary["run"]["targets"])
            figures = figures_of(played, (MEASURES[t.measure] for t in targets.targets), context)
            object.__setattr__(self, "games", figures)
            object.__setattr__(self, "context", context)
        if self.context is None:
            raise ValueError("a Run of game figures needs the context they were made in (context=...)")
        indices = sorted({game.index for game in self.games})
        if (run.games, run.first_index, run.last_index) != (len(indices), indices[0] if indices else None,
                                                               indices[-1] if indices else None):
            raise ValueError(
                f"the summary is of {run.games:,} games (index {run.first_index} to {run.last_index}), not of "
                f"these {len(indices)} games: make the run with Run.summarised(games, ...)"
            )

    @classmethod
    def summarised(
        cls,
        games: Iterable[Mapping[str, Any]],
        *,
        targets: Targets | None = None,
        ruleset: Ruleset | None = None,
        external: Mapping[str, float] | None = None,
    ) -> Run:
        """The run of ``games`` with their summary (``summarize`` with ``targets``, ``ruleset``
        and ``external``). The run keeps the ruleset the summary used (without ``ruleset``, the
        one the lines name when its fingerprint matches), so the comparison measures the same."""
        played = checked_games(games)
        ruleset = ruleset_of_lines(played[0]["ruleset"], ruleset)
        return cls(played, summarize(played, targets=targets, ruleset=ruleset, external=external), ruleset, external or {})

    @property
    def indices(self) -> list[int]:
        return [game.index for game in self.games]


def compare_summaries(
    run_a: Run | Sequence[Mapping[str, Any]],
    run_b: Run | Sequence[Mapping[str, Any]],
    *,
    label_a: str = "A",
    label_b: str = "B",
    targets: Targets | None = None,
    ruleset_a: Ruleset | None = None,
    ruleset_b: Ruleset | None = None,
) -> dict[str, Any]:
    """Compare two runs (the content of comparison.json); see the module docstring.

    Each run is a ``Run`` (its games with their summary, made with the same ``targets``), or
    its games alone, which are then summarised here (``summarize``, with ``ruleset_a`` /
    ``ruleset_b`` for the cards' names when given). The rulesets also give the rules diff.
    Games are paired by ``index`` where both runs have the index with the same deal seed
    and rotation.
    """
    targets = targets or Targets.default()
    conf = targets.confidence
    side_a = _run_of(run_a, "A", targets, ruleset_a)
    side_b = _run_of(run_b, "B", targets, ruleset_b)
    played_a = sorted(side_a.games, key=lambda game: game.index)
    played_b = sorted(side_b.games, key=lambda game: game.index)
    summary_a, summary_b = view_of(side_a.summary), view_of(side_b.summary)
    pairs, pairing, warnings = _pairs(played_a, played_b)
    context = _Context(played_a, played_b, pairs, conf)
    metrics: list[dict[str, Any]] = []
    metrics += _seat_metrics(context, summary_a, summary_b)
    metrics += _score_metrics(context, summary_a, summary_b)
    metrics += _pace_metrics(context, summary_a, summary_b)
    metrics += _crew_metrics(summary_a, summary_b, conf)
    metrics += _planet_metrics(summary_a, summary_b, conf)
    rules_diff = None
    if ruleset_a is not None and ruleset_b is not None:
        from stargazer_rules.rulesets.diff import diff_rulesets

        rules_diff = [change.to_json() for change in diff_rulesets(ruleset_a, ruleset_b)]
        _mark_changed(metrics, rules_diff, summary_a, summary_b)
    else:
        for metric in metrics:
            metric["rules_changed"] = False
    # rows about the cards that changed first, each section keeping its own order otherwise
    metrics.sort(key=lambda metric: not metric["rules_changed"])
    rows = target_changes(pairs, targets, side_a.context, side_b.context, side_a.summary["names"], side_b.summary["names"])
    met = met_counts(side_a.summary["targets"]["targets"], side_b.summary["targets"]["targets"])
    decided = verdict_of(rows, confidence=conf, label_a=label_a, label_b=label_b, met=met)
    comparison = {
        "format": COMPARISON_FORMAT,
        "confidence": conf,
        "verdict": decided,
        "top_changes": top_changes(metrics, conf),
        "rules_diff": rules_diff,
        "findings_diff": findings_diff(summary_a, summary_b, metrics, conf),
        "near_misses": {"distance": targets.settings.near_miss, "a": near_misses(summary_a, targets.settings),
                        "b": near_misses(summary_b, targets.settings)},
        "a": _side_json(label_a, summary_a),
        "b": _side_json(label_b, summary_b),
        "pairing": pairing,
        "warnings": warnings,
        "metrics": metrics,
        "significant": sum(1 for metric in metrics if metric["significant"]),
        "tested": sum(1 for metric in metrics if metric["difference"] is not None),
    }
    return plain(comparison)


def _run_of(given: Run | Sequence[Mapping[str, Any]], side: str, targets: Targets, ruleset: Ruleset | None) -> Run:
    """``given`` as a ``Run``: games are summarised; a summary alone is refused (its games are
    needed for the pairing), and so is a run summarised with other targets."""
    if isinstance(given, Run):
        if view_of(given.summary).run.targets.to_json() != plain(targets.to_json()):
            raise ValueError(
                f"run {side} was summarised with other targets than the comparison's: "
                "make both runs with Run.summarised(games, targets=targets) and pass the same targets"
            )
        return given
    if isinstance(given, Mapping):
        raise TypeError(
            "compare_summaries takes each run's games (lists of games.jsonl lines) or a Run "
            f"(the games with their summary), not a {given.get('format', 'mapping')!r} document: "
            "it pairs the games by index"
        )
    return Run.summarised(given, targets=targets, ruleset=ruleset)


def _side_json(label: str, summary: SummaryView) -> dict[str, Any]:
    """What comparison.json keeps of one run's summary."""
    return {"label": label, "run": to_json(summary.run), "findings": to_json(summary.findings),
            "names": to_json(summary.names)}


def write_comparison(comparison: dict[str, Any], out_dir: Path) -> None:
    """Write ``comparison.json`` and a self-contained ``comparison.html`` into ``out_dir``."""
    from stargazer_rules.analysis.comparison_report import render_comparison
    from stargazer_rules.analysis.report import write_json

    out_dir = outputfiles.output_folder(out_dir)
    write_json(comparison, out_dir / "comparison.json")
    outputfiles.write_text(out_dir / "comparison.html", render_comparison(comparison))


def _mark_changed(metrics: list[dict[str, Any]], rules_diff: Sequence[Mapping[str, Any]],
                  summary_a: SummaryView, summary_b: SummaryView) -> None:
    """Set each metric's ``rules_changed``: it is about a crew, planet or colour the rules diff
    names (a colour also when one of its planets changed)."""
    touched: dict[str, set[str]] = {"crew": set(), "planet": set(), "colour": set()}
    for change in rules_diff:
        if change["kind"] in touched:
            touched[change["kind"]].add(change["subject"])
    for summary in (summary_a, summary_b):
        for card in summary.planets.cards:
            if card.planet in touched["planet"]:
                touched["colour"].add(card.colour)
    for metric in metrics:
        parts = metric["id"].split(".")
        if parts[0] == "crew":
            changed = parts[1] in touched["crew"]
        elif parts[0] == "planets":
            changed = parts[2] in touched["planet" if parts[1] == "planet" else "colour"]
        else:
            changed = False
        metric["rules_changed"] = changed


# -- pairing --------------------------------------------------------------------------------


def _pairs(
    played_a: Sequence[GameFigures], played_b: Sequence[GameFigures]
) -> tuple[list[tuple[GameFigures, GameFigures]], dict[str, Any], list[str]]:
    by_index_b = {game.index: game for game in played_b}
    pairs, mismatched, seating = [], 0, 0
    for game in played_a:
        other = by_index_b.get(game.index)
        if other is None:
            continue
        if game.deal != other.deal:
            mismatched += 1
            continue
        seating += game.seating != other.seating
        pairs.append((game, other))
    indices_a = {game.index for game in played_a}
    warnings = []
    if mismatched:
        warnings.append(
            f"{mismatched} game indices have different deal seeds or rotations in the two runs and are not paired."
        )
    if seating:
        warnings.append(f"{seating} paired games seat different bots: the difference includes the bots.")
    if len(pairs) < 2:
        warnings.append("Fewer than 2 paired games: differences are computed as between independent runs.")
    pairing = {
        "pairs": len(pairs),
        "only_a": len(indices_a - set(by_index_b)),
        "only_b": len(set(by_index_b) - indices_a),
        "mismatched": mismatched,
        "seating_differs": seating,
        "paired": len(pairs) >= 2,
    }
    return pairs, pairing, warnings


class _Context:
    """The games of both runs and their pairs, for per-game metrics."""

    def __init__(self, played_a, played_b, pairs, confidence: float) -> None:
        self.played_a = played_a
        self.played_b = played_b
        self.pairs = pairs
        self.confidence = confidence


# -- metric records -------------------------------------------------------------------------


def _side(value: float | None, n: int, low: float | None = None, high: float | None = None) -> dict[str, Any]:
    return {"value": value, "n": n, "low": low, "high": high}


def _metric(
    ident: str,
    section: str,
    label: str,
    kind: str,
    a: Mapping[str, Any],
    b: Mapping[str, Any],
    difference: tuple[float, float, float] | None,
    method: str,
    *,
    headline: bool = False,
    anchor: str | None = None,
    pairs: int | None = None,
) -> dict[str, Any]:
    diff, low, high = difference if difference is not None else (None, None, None)
    return {
        "id": ident,
        "section": section,
        "label": label,
        "kind": kind,
        "headline": headline,
        "anchor": anchor or section,
        "a": dict(a),
        "b": dict(b),
        "difference": diff,
        "low": low,
        "high": high,
        "method": method if difference is not None else "none",
        "pairs": pairs,
        "significant": difference is not None and (low > 0 or high < 0),
    }


def _ratio(values: Sequence[tuple[float, float]]) -> float | None:
    denominator = sum(d for _, d in values)
    return sum(x for x, _ in values) / denominator if denominator else None


def _linearised(values: Sequence[tuple[float, float]]) -> list[float]:
    """Per-game values whose mean's variance is the ratio's (Taylor linearisation)."""
    ratio = _ratio(values) or 0.0
    mean_d = sum(d for _, d in values) / len(values)
    return [(x - ratio * d) / mean_d for x, d in values]


def _per_game(
    context: _Context,
    ident: str,
    section: str,
    label: str,
    kind: str,
    *,
    headline: bool = False,
    anchor: str | None = None,
) -> dict[str, Any] | None:
    """A metric from the per-game figure ``ident`` (``GameFigures.figure``): each run's value
    over all its games; the difference over the paired games (or, without pairs, between the
    runs as independent samples)."""
    conf = context.confidence

    def figure(game: GameFigures) -> tuple[float, float] | None:
        return game.figure(ident)

    values_a = [v for v in map(figure, context.played_a) if v is not None and v[1] > 0]
    values_b = [v for v in map(figure, context.played_b) if v is not None and v[1] > 0]
    if not values_a and not values_b:
        return None
    side_a = _side_of(values_a, kind, conf)
    side_b = _side_of(values_b, kind, conf)
    paired = []
    for game_a, game_b in context.pairs:
        va, vb = figure(game_a), figure(game_b)
        if va is not None and vb is not None and va[1] > 0 and vb[1] > 0:
            paired.append((va, vb))
    if len(paired) >= 2:
        ratio_a, ratio_b = _ratio([p[0] for p in paired]), _ratio([p[1] for p in paired])
        z_a, z_b = _linearised([p[0] for p in paired]), _linearised([p[1] for p in paired])
        _, low, high = stats.paired(z_a, z_b, conf)
        difference = ratio_b - ratio_a
        result = (difference, difference + low, difference + high)
        method = "paired"
    elif len(values_a) >= 2 and len(values_b) >= 2:
        # linearised values have mean 0: Welch's interval around 0 is the half-width
        _, low, high = stats.welch(_linearised(values_a), _linearised(values_b), conf)
        difference = _ratio(values_b) - _ratio(values_a)
        result = (difference, difference + low, difference + high)
        method = "welch"
    else:
        result, method = None, "none"
    return _metric(ident, section, label, kind, side_a, side_b, result, method,
                   headline=headline, anchor=anchor, pairs=len(paired))


def _side_of(values: Sequence[tuple[float, float]], kind: str, conf: float) -> dict[str, Any]:
    if not values:
        return _side(None, 0)
    ratio = _ratio(values)
    if kind == "rate" and all(d == 1 for _, d in values):
        low, high = stats.wilson(sum(x for x, _ in values), len(values), conf)
        return _side(ratio, len(values), low, high)
    if len(values) < 2:
        return _side(ratio, len(values))
    z = _linearised(values)
    _, low, high = stats.mean_interval(z, conf)
    return _side(ratio, len(values), ratio + low, ratio + high)


# -- seats ----------------------------------------------------------------------------------


def _seat_metrics(context: _Context, summary_a: SummaryView, summary_b: SummaryView) -> list[dict[str, Any]]:
    players = max(summary_a.run.players, summary_b.run.players)
    metrics = []
    for position in range(players):
        metric = _per_game(
            context, seat_figure_id(position), "seats", f"Seat {position + 1} win share", "rate", headline=True,
        )
        if metric is not None:
            metrics.append(metric)
    metrics.append(_balance_metric(context, summary_a, summary_b))
    p_a, p_b = summary_a.seats.chi_square.p, summary_b.seats.chi_square.p
    metrics.append(
        _metric("seats.chi_square_p", "seats", "Seat chi-square p", "p",
                _side(p_a, summary_a.seats.games), _side(p_b, summary_b.seats.games),
                None, "none", headline=True)
    )
    metrics.append(_per_game(context, "seats.ties", "seats", "Shared wins (ties)", "rate", headline=True))
    return metrics


def _credit_rows(games: Sequence[GameFigures]) -> list[list[float]]:
    return [game.credit_row() for game in games]


def _balance_metric(context: _Context, summary_a: SummaryView, summary_b: SummaryView) -> dict[str, Any]:
    import numpy as np

    conf = context.confidence
    balance_a, balance_b = summary_a.seats.balance, summary_b.seats.balance
    side_a, side_b = _side(balance_a.value, balance_a.n), _side(balance_b.value, balance_b.n)
    players_a, players_b = summary_a.run.players, summary_b.run.players
    alpha = (1 - conf) / 2
    if players_a != players_b:
        return _metric("seats.balance", "seats", "Seat balance", "number", side_a, side_b, None, "none", headline=True)
    if len(context.pairs) >= 2:
        rows_a = np.array(_credit_rows([a for a, _ in context.pairs]))
        rows_b = np.array(_credit_rows([b for _, b in context.pairs]))
        draws = [paired_balance_draws(rows_a, rows_b)]
        method, pairs = "bootstrap", len(context.pairs)
        difference = float(balance_of(rows_b) - balance_of(rows_a))
    else:
        rows_a = np.array(_credit_rows(context.played_a))
        rows_b = np.array(_credit_rows(context.played_b))
        if len(rows_a) < 2 or len(rows_b) < 2:
            return _metric("seats.balance", "seats", "Seat balance", "number", side_a, side_b, None, "none", headline=True)
        rng = np.random.default_rng(BOOTSTRAP_SEED)
        draws = []
        for _ in range(BOOTSTRAP // 100):
            picks_a = rng.integers(0, len(rows_a), size=(100, len(rows_a)))
            picks_b = rng.integers(0, len(rows_b), size=(100, len(rows_b)))
            draws.append(balance_of(rows_b[picks_b]) - balance_of(rows_a[picks_a]))
        method, pairs = "bootstrap", 0
        difference = balance_b.value - balance_a.value
    spread = np.concatenate(draws)
    low, high = (float(q) for q in np.quantile(spread, [alpha, 1 - alpha]))
    return _metric("seats.balance", "seats", "Seat balance", "number", side_a, side_b,
                   (difference, min(low, difference), max(high, difference)), method, headline=True, pairs=pairs)


# -- scores and pace ------------------------------------------------------------------------


def _score_metrics(context: _Context, summary_a: SummaryView, summary_b: SummaryView) -> list[dict[str, Any]]:
    candidates = [
        _per_game(context, "scores.total", "scores", "Mean final score", "mean", headline=True, anchor="scores-bots"),
    ]
    for part, label in (("majority", "planet majority"), ("bonus", "the major-planet bonus"), ("play", "play")):
        candidates.append(_per_game(context, f"scores.{part}.mean", "scores", f"Mean VP per seat from {label}", "mean",
                                    anchor="scores-vp"))
        candidates.append(_per_game(context, f"scores.{part}.share", "scores", f"Share of all VP from {label}", "rate",
                                    anchor="scores-vp"))
    specs = sorted({bot.bot for s in (summary_a, summary_b) for bot in s.scores.by_bot})
    for spec in specs:
        wins, total = bot_figure_ids(spec)
        candidates.append(_per_game(context, wins, "scores", f"{spec}: win share", "rate", anchor="scores-bots"))
        candidates.append(_per_game(context, total, "scores", f"{spec}: mean final score", "mean", anchor="scores-bots"))
    candidates.append(_per_game(context, "scores.margin", "scores", "Winning margin", "mean",
                                headline=True, anchor="scores-margin"))
    candidates.append(_per_game(context, "scores.lead_changes", "scores", "Lead changes per game", "mean",
                                headline=True, anchor="scores-margin"))
    return [metric for metric in candidates if metric is not None]


def _pace_metrics(context: _Context, summary_a: SummaryView, summary_b: SummaryView) -> list[dict[str, Any]]:
    candidates = [
        _per_game(context, "pace.rounds", "pace", "Rounds per game", "mean", headline=True),
        _per_game(context, "pace.decisions", "pace", "Decisions per game", "mean"),
        _per_game(context, "pace.options", "pace", "Legal options per decision", "mean"),
        _per_game(context, "pace.forced", "pace", "Forced decisions (one option)", "rate"),
    ]
    triggers = sorted({t.trigger for s in (summary_a, summary_b) for t in s.pace.triggers})
    for trigger in triggers:
        candidates.append(_per_game(context, trigger_figure_id(trigger), "pace", f"Games ending by {trigger}", "rate",
                                    anchor="pace-triggers"))
    return [metric for metric in candidates if metric is not None]


# -- cards (independent samples, from the summaries) ----------------------------------------


def _rate_metric(ident: str, section: str, label: str, anchor: str, a: Rate | None,
                 b: Rate | None, conf: float) -> dict[str, Any]:
    side_a = _side(a.rate, a.n, a.low, a.high) if a else _side(None, 0)
    side_b = _side(b.rate, b.n, b.low, b.high) if b else _side(None, 0)
    difference = None
    if a and b and a.n and b.n:
        diff, low, high = stats.newcombe(b.count, b.n, a.count, a.n, conf)
        difference = (diff, low, high)
    return _metric(ident, section, label, "rate", side_a, side_b, difference, "newcombe", anchor=anchor)


def _mean_metric(ident: str, section: str, label: str, anchor: str, a: Distribution | None,
                 b: Distribution | None, conf: float) -> dict[str, Any]:
    side_a = _side(a.mean, a.n, a.mean_low, a.mean_high) if a else _side(None, 0)
    side_b = _side(b.mean, b.n, b.mean_low, b.mean_high) if b else _side(None, 0)
    difference = None
    if a and b and a.n and b.n:
        difference = stats.welch_moments((a.mean, a.sd, a.n), (b.mean, b.sd, b.n), conf)
    return _metric(ident, section, label, "mean", side_a, side_b, difference, "welch", anchor=anchor)


def _crew_metrics(summary_a: SummaryView, summary_b: SummaryView, conf: float) -> list[dict[str, Any]]:
    cards_a = {card.crew: card for card in summary_a.crew.cards}
    cards_b = {card.crew: card for card in summary_b.crew.cards}
    order = list(cards_a) + [crew for crew in cards_b if crew not in cards_a]
    metrics = []
    for crew in order:
        a, b = cards_a.get(crew), cards_b.get(crew)
        shown = (summary_b if b else summary_a).name("crew", crew)
        link = f"crew-{crew}"
        for key, label, rate_a, rate_b in (
            ("picked", "picked", a and a.picked, b and b.picked),
            ("picked_first", "picked first", a and a.picked_first, b and b.picked_first),
            ("picker_wins", "pickers win", a and a.picker_wins, b and b.picker_wins),
        ):
            metrics.append(_rate_metric(f"crew.{crew}.{key}", "crew", f"{shown}: {label}", link, rate_a, rate_b, conf))
        metrics.append(_mean_metric(f"crew.{crew}.motivation_vp", "crew", f"{shown}: motivation VP per pick", link,
                                    a and a.motivation_vp.per_pick, b and b.motivation_vp.per_pick, conf))
    return metrics


def _planet_metrics(summary_a: SummaryView, summary_b: SummaryView, conf: float) -> list[dict[str, Any]]:
    metrics = []
    for key, kind in (("planet", "planets"), ("colour", "colours")):
        if key == "planet":
            cards_a = {card.planet: card for card in summary_a.planets.cards}
            cards_b = {card.planet: card for card in summary_b.planets.cards}
        else:
            cards_a = {card.colour: card for card in summary_a.planets.colours}
            cards_b = {card.colour: card for card in summary_b.planets.colours}
        order = list(cards_a) + [card for card in cards_b if card not in cards_a]
        for card in order:
            a, b = cards_a.get(card), cards_b.get(card)
            shown = (summary_b if b else summary_a).name(kind, card)
            link = f"{key}-{card}"
            prefix = f"planets.{key}.{card}"
            metrics.append(_rate_metric(f"{prefix}.accident", "planets", f"{shown}: accident for first place", link,
                                        a and a.accident, b and b.accident, conf))
            metrics.append(_rate_metric(f"{prefix}.full", "planets", f"{shown}: filled", link,
                                        a and a.full, b and b.full, conf))
            metrics.append(_mean_metric(f"{prefix}.top_square", "planets", f"{shown}: top square", link,
                                        a and a.top_square, b and b.top_square, conf))
            metrics.append(_mean_metric(f"{prefix}.owners", "planets", f"{shown}: owners", link,
                                        a and a.owners, b and b.owners, conf))
    return metrics
