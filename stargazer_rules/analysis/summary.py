"""``games.jsonl`` lines -> the summary: every figure of the report, with its sample size.

The summary is plain JSON (docs/simulation.md, "summary.json"): the report, the terminal table
and the comparison are all drawn from it, never from the games again. Rates carry their count,
``n`` and Wilson interval (``stats.rate``); distributions their ``n``, mean with interval and
quantiles (``stats.describe``).

Seats are counted in turn order: "seat 1" is the player who starts the game (the deal's start
player), "seat 2" the next clockwise, and so on, because that, not the number of a chair, is
what the rules make unequal. The table seats (0-based, as in the game lines) are summarised too.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stargazer_rules.analysis import stats
from stargazer_rules.analysis.feel import FEEL_FIGURES, feel_figures, sole_winner, trajectory
from stargazer_rules.analysis.games import (
    checked_games,
    lead_changes,
    turn_position,
    value_trajectory,
    win_credit,
    winning_margin,
)
from stargazer_rules.analysis.measures import MEASURES, MeasureContext
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.target_check import check_targets, findings_of, measured, subject_intervals
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.formats.game_lines import GAME_FORMAT

if TYPE_CHECKING:
    from stargazer_rules.rulesets.model import Ruleset

__all__ = ["GAME_FORMAT", "SUMMARY_FORMAT", "ruleset_of_lines", "summarize"]

#: The ``format`` of the summary it writes.
SUMMARY_FORMAT = "stargazer-summary/1"

#: The owner of a free cube on a track: the virtual player (R15).
_FREE = -1

_RANDOM_WARNING = (
    "Only random bots played: random play is a smoke test, never the basis of a balance claim."
)


def summarize(
    games: Iterable[Mapping[str, Any]],
    *,
    targets: Targets | None = None,
    ruleset: Ruleset | None = None,
    external: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The summary of finished games (the content of summary.json).

    ``games`` are games.jsonl lines in any order, a whole run or part of one. ``targets`` are the
    design targets the run is judged by (``analysis.target_check``; default
    ``Targets.default()``); the targets not met are the findings. ``external`` holds figures
    not counted from games (``skill_depth`` from a ladder run). ``ruleset`` gives the cards' names and tracks; when
    it is None the ruleset is loaded by the name in the lines, and used only if its fingerprint
    matches (otherwise cards are shown by id and accident rows are not listed).

    Raises ``ValueError`` for no games, a line missing a key, or lines of different player
    counts or rulesets (summarise those separately).
    """
    targets = targets or Targets.default()
    played = checked_games(games)
    ruleset = ruleset_of_lines(played[0]["ruleset"], ruleset)
    conf = targets.confidence
    names = _names(ruleset)
    context = MeasureContext.of(played, ruleset, external)
    # one computation per figure: the picker advantage's interval of the crew table is the one
    # its target is judged by (analysis.target_check), whether or not a target names it
    advantage = MEASURES["crew_picker_advantage"]
    figures = measured([*(MEASURES[t.measure] for t in targets.targets), advantage], played, context)
    judged = check_targets(played, targets, context, names, figures)
    summary: dict[str, Any] = {
        "format": SUMMARY_FORMAT,
        "run": _run(played, ruleset, targets),
        "targets": judged,
        "names": names,
        "seats": _seats(played, targets),
        "table_seats": _table_seats(played, conf),
        "crew": _crew(played, ruleset, conf, subject_intervals(figures[advantage.name], advantage, conf)),
        "planets": _planets(played, ruleset, conf),
        "scores": _scores(played, conf),
        "pace": _pace(played, conf),
        "feel": _feel(played, conf),
    }
    summary["findings"] = findings_of(judged)
    return plain(summary)


# -- input ----------------------------------------------------------------------------------


def ruleset_of_lines(named: Mapping[str, str], given: Ruleset | None) -> Ruleset | None:
    """The ruleset the games were played under, if it can be had with the same fingerprint."""
    if given is None:
        from stargazer_rules.errors import RulesetError
        from stargazer_rules.rulesets.loader import load_ruleset

        try:
            given = load_ruleset(named["name"])
        except (RulesetError, OSError, ValueError):
            return None
    return given if given.fingerprint == named["fingerprint"] else None


def _is_random(spec: str) -> bool:
    return spec.split(":", 1)[0].strip() == "random"


# -- the run --------------------------------------------------------------------------------


def _run(played: Sequence[Mapping[str, Any]], ruleset: Ruleset | None, targets: Targets) -> dict[str, Any]:
    players = played[0]["players"]
    lineups = Counter(
        tuple(game["seating"][(j - game["rotation"]) % players] for j in range(players)) for game in played
    )
    lineup = list(lineups.most_common(1)[0][0])
    specs = sorted({spec for game in played for spec in game["seating"]})
    engines = sorted({game.get("engine", "python") for game in played})  # lines from before the kernel say none
    blocks = Counter(game["block"] for game in played)
    indices = [game["index"] for game in played]
    missing = (max(indices) + 1) - len(indices)
    random_only = all(_is_random(spec) for spec in specs)
    warnings = []
    if random_only:
        warnings.append({"kind": "random_only", "text": _RANDOM_WARNING})
    if missing or any(count < players for count in blocks.values()):
        incomplete = sum(1 for count in blocks.values() if count < players)
        warnings.append(
            {
                "kind": "partial",
                "text": (
                    f"A partial run: {len(played):,} games, {missing:,} missing below index {max(indices)}, "
                    f"{incomplete} block(s) without every seat rotation; seats are not rotated evenly."
                ),
            }
        )
    if len(engines) > 1:
        warnings.append(
            {"kind": "engines", "text": f"The games mix bots of the {' and '.join(engines)} engines."}
        )
    if len(lineups) > 1:
        warnings.append(
            {"kind": "lineups", "text": f"The games mix {len(lineups)} lineups; the most common is shown."}
        )
    if ruleset is None:
        warnings.append(
            {
                "kind": "no_ruleset",
                "text": "The ruleset could not be loaded with the games' fingerprint: cards are shown "
                "by id and accident rows are not listed.",
            }
        )
    return {
        "games": len(played),
        "players": players,
        "ruleset": dict(played[0]["ruleset"]),
        "lineup": lineup,
        "bots": specs,
        "engine": engines[0] if len(engines) == 1 else "mixed",
        "random_only": random_only,
        "blocks": len(blocks),
        "complete_blocks": sum(1 for count in blocks.values() if count == players),
        "missing_games": missing,
        "first_index": indices[0],
        "last_index": indices[-1],
        "confidence": targets.confidence,
        "targets": targets.to_json(),
        "warnings": warnings,
    }


def _names(ruleset: Ruleset | None) -> dict[str, Any]:
    if ruleset is None:
        return {"crew": {}, "planets": {}, "colours": {}}

    def pair(name: Any) -> dict[str, str]:
        return {"en": name.en, "ja": name.ja}

    return {
        "crew": {card.id: pair(card.name) for card in ruleset.crew},
        "planets": {card.id: pair(card.name) for card in ruleset.planets},
        "colours": {colour.id: pair(colour.name) for colour in ruleset.colours},
    }


# -- seats ----------------------------------------------------------------------------------


def _seat_figures(credits: Sequence[float], n: int, players: int, bounds_conf: float) -> dict[str, Any]:
    fair = 1 / players
    seats = []
    for place, credit in enumerate(credits):
        wins = stats.rate(credit, n, bounds_conf)
        seats.append(
            {
                "seat": place,
                "label": f"Seat {place + 1}",
                "wins": wins,
                "excludes_fair": n > 0 and not (wins["low"] <= fair <= wins["high"]),
            }
        )
    return {"fair_share": fair, "seats": seats, "chi_square": {**stats.chi_square_uniform(credits), "n": n}}


def _balance(seats: Sequence[Mapping[str, Any]], n: int) -> dict[str, Any]:
    shares = [seat["wins"]["rate"] for seat in seats]
    best = max(range(len(shares)), key=lambda s: shares[s])
    worst = min(range(len(shares)), key=lambda s: shares[s])
    gap = shares[best] - shares[worst]
    return {"value": 1 - gap, "gap": gap, "best_seat": best, "worst_seat": worst, "n": n}


def _seats(played: Sequence[Mapping[str, Any]], targets: Targets) -> dict[str, Any]:
    settings = targets.settings
    conf = settings.confidence
    players = played[0]["players"]
    n = len(played)
    credits = [0.0] * players
    totals: list[list[float]] = [[] for _ in range(players)]
    for game in played:
        for seat_sheet in game["score_sheet"]["seats"]:
            seat = seat_sheet["seat"]
            credits[turn_position(game, seat)] += win_credit(game, seat)
            totals[turn_position(game, seat)].append(seat_sheet["total"])
    figures = _seat_figures(credits, n, players, conf)
    for seat, scores in zip(figures["seats"], totals):
        seat["score"] = stats.describe(scores, conf)
    fair = figures["fair_share"]
    ties = sum(1 for game in played if len(game["winners"]) > 1)
    return {
        "order": "turn order from the start player: seat 1 starts the game",
        "players": players,
        "games": n,
        **figures,
        "balance": _balance(figures["seats"], n),
        "ties": stats.rate(ties, n, conf),
        "games_needed": {
            "advantage": settings.seat_advantage,
            "confidence": conf,
            "power": settings.power,
            "games": stats.games_needed(fair, settings.seat_advantage, conf, settings.power),
            "have": n,
            "detectable_advantage": stats.detectable_advantage(fair, n, conf, settings.power),
        },
    }


def _table_seats(played: Sequence[Mapping[str, Any]], conf: float) -> dict[str, Any]:
    players = played[0]["players"]
    credits = [0.0] * players
    for game in played:
        for seat in range(players):
            credits[seat] += win_credit(game, seat)
    figures = _seat_figures(credits, len(played), players, conf)
    for seat in figures["seats"]:
        seat["label"] = f"Table seat {seat['seat'] + 1}"
    return {"order": "the seat numbers of the game lines (seat 0 is table seat 1)", "games": len(played), **figures}


# -- crew -----------------------------------------------------------------------------------


def _always_in_play(played: Sequence[Mapping[str, Any]], ruleset: Ruleset | None) -> list[str]:
    if ruleset is not None:
        return [card.id for card in ruleset.crew if card.always_in_play]
    dealt = {crew for game in played for crew in game["setup"]["crew"]}
    picked = {pick["crew"] for game in played for pick in game["picks"]}
    return sorted(picked - dealt)


def _crew(played: Sequence[Mapping[str, Any]], ruleset: Ruleset | None, conf: float,
          advantages: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    players = played[0]["players"]
    always = _always_in_play(played, ruleset)
    n = len(played)
    games_in: Counter[str] = Counter()
    rounds_in: Counter[str] = Counter()
    picks: Counter[str] = Counter()
    first: Counter[str] = Counter()
    by_round: defaultdict[str, Counter[int]] = defaultdict(Counter)
    by_order: defaultdict[str, Counter[int]] = defaultdict(Counter)
    motivation: defaultdict[str, list[int]] = defaultdict(list)
    games_picked: Counter[str] = Counter()
    picker = defaultdict(lambda: [0.0, 0])  # crew -> [win credit, seat-games]
    other = defaultdict(lambda: [0.0, 0])
    for game in played:
        in_play = always + [crew for crew in game["setup"]["crew"] if crew not in always]
        pickers: defaultdict[str, set[int]] = defaultdict(set)
        for pick in game["picks"]:
            crew = pick["crew"]
            picks[crew] += 1
            first[crew] += pick["order"] == 1
            by_round[crew][pick["round"]] += 1
            by_order[crew][pick["order"]] += 1
            motivation[crew].append(pick["motivation_vp"])
            pickers[crew].add(pick["seat"])
        for crew in in_play:
            games_in[crew] += 1
            rounds_in[crew] += game["rounds"]
            games_picked[crew] += bool(pickers[crew])
            for seat in range(players):
                tally = picker[crew] if seat in pickers[crew] else other[crew]
                tally[0] += win_credit(game, seat)
                tally[1] += 1
    order = [card.id for card in ruleset.crew] if ruleset is not None else sorted(games_in)
    cards = []
    for crew in order:
        if not games_in[crew]:
            continue
        picker_wins = stats.rate(picker[crew][0], picker[crew][1], conf)
        other_wins = stats.rate(other[crew][0], other[crew][1], conf)
        advantage = advantages.get(crew, {"difference": None, "low": None, "high": None})
        cards.append(
            {
                "crew": crew,
                "always_in_play": crew in always,
                "in_play": stats.rate(games_in[crew], n, conf),
                "rounds_in_play": rounds_in[crew],
                "picked": stats.rate(picks[crew], rounds_in[crew], conf),
                "picked_first": stats.rate(first[crew], rounds_in[crew], conf),
                "games_picked": stats.rate(games_picked[crew], games_in[crew], conf),
                "pick_round": _counted(by_round[crew], conf),
                "pick_order": _counted(by_order[crew], conf),
                "motivation_vp": {
                    "total": sum(motivation[crew]),
                    "per_pick": stats.describe(motivation[crew], conf),
                    "per_game_in_play": sum(motivation[crew]) / games_in[crew],
                },
                "picker_wins": picker_wins,
                "other_wins": other_wins,
                "picker_advantage": advantage,
            }
        )
    return {
        "games": n,
        "always_in_play": always,
        "rounds": sum(game["rounds"] for game in played),
        "cards": cards,
    }


def _counted(tally: Mapping[int, int], conf: float) -> dict[str, Any]:
    """A distribution given as counts of whole numbers."""
    values = [value for value, count in sorted(tally.items()) for _ in range(count)]
    return stats.describe(values, conf, counts=True)


# -- planets --------------------------------------------------------------------------------


class _PlanetTally:
    """What one planet card (or one colour) did across the games it was in play."""

    def __init__(self) -> None:
        self.games = 0
        self.in_games: set[int] = set()
        self.top: list[int] = []
        self.with_cubes = 0
        self.accidents = 0
        self.full = 0
        self.owners: list[int] = []
        self.free_cubes = 0
        self.rank_vp: defaultdict[int, list[int]] = defaultdict(list)
        self.rank_free: Counter[int] = Counter()
        self.rank_lost: Counter[int] = Counter()

    def add(self, index: int, result: Mapping[str, Any]) -> None:
        self.games += 1
        self.in_games.add(index)
        self.top.append(result["top_square"])
        if result["top_square"] > 0:
            self.with_cubes += 1
        self.accidents += bool(result["accident"])
        self.full += bool(result["full"])
        owners = [standing["owner"] for standing in result["standings"]]
        self.owners.append(sum(1 for owner in owners if owner != _FREE))
        self.free_cubes += _FREE in owners
        for standing in result["standings"]:
            self.rank_vp[standing["rank"]].append(standing["vp"])
            if standing["owner"] == _FREE:
                self.rank_free[standing["rank"]] += 1
                self.rank_lost[standing["rank"]] += standing["vp"]

    def figures(self, n: int, conf: float) -> dict[str, Any]:
        return {
            "in_play": stats.rate(len(self.in_games), n, conf),
            "planet_games": self.games,
            "top_square": stats.describe(self.top, conf, counts=True),
            "accident": stats.rate(self.accidents, self.with_cubes, conf),
            "full": stats.rate(self.full, self.games, conf),
            "owners": stats.describe(self.owners, conf, counts=True),
            "free_cubes_rank": stats.rate(self.free_cubes, self.games, conf),
            "vp_by_rank": [
                {
                    "rank": rank,
                    "n": len(values),
                    "mean_vp": stats.describe(values, conf)["mean"],
                    "total_vp": sum(values),
                    "free_cube_ranks": self.rank_free[rank],
                    "vp_lost_to_free_cubes": self.rank_lost[rank],
                }
                for rank, values in sorted(self.rank_vp.items())
            ],
        }


def _planets(played: Sequence[Mapping[str, Any]], ruleset: Ruleset | None, conf: float) -> dict[str, Any]:
    n = len(played)
    cards: dict[str, _PlanetTally] = defaultdict(_PlanetTally)
    colours: dict[str, _PlanetTally] = defaultdict(_PlanetTally)
    colour_of: dict[str, str] = {}
    for game in played:
        for result in game["score_sheet"]["planets"]:
            cards[result["planet"]].add(game["index"], result)
            colours[result["colour"]].add(game["index"], result)
            colour_of[result["planet"]] = result["colour"]
    if ruleset is not None:
        card_order = [card.id for card in ruleset.planets if card.id in cards]
        colour_order = [colour.id for colour in ruleset.colours if colour.id in colours]
    else:
        card_order, colour_order = sorted(cards), sorted(colours)
    planets = []
    for planet in card_order:
        tally = cards[planet]
        entry = {"planet": planet, "colour": colour_of[planet], **tally.figures(n, conf)}
        if ruleset is not None:
            track = list(ruleset.planet(planet).track)
            entry["track"] = track
            entry["accident_rows"] = [
                {
                    "row": row,
                    "reached": stats.rate(sum(1 for top in tally.top if top >= row), tally.games, conf),
                    "scored_by_first": stats.rate(sum(1 for top in tally.top if top == row), tally.games, conf),
                }
                for row, value in enumerate(track, start=1)
                if value == 0
            ]
        else:
            entry["track"] = None
            entry["accident_rows"] = None
        planets.append(entry)
    return {
        "games": n,
        "cards": planets,
        "colours": [{"colour": colour, **colours[colour].figures(n, conf)} for colour in colour_order],
    }


# -- scores ---------------------------------------------------------------------------------


def _scores(played: Sequence[Mapping[str, Any]], conf: float) -> dict[str, Any]:
    players = played[0]["players"]
    by_bot: defaultdict[str, list[int]] = defaultdict(list)
    bot_credit: Counter[str] = Counter()
    parts = {"majority": 0, "bonus": 0, "play": 0}
    per_seat_game: dict[str, list[int]] = {"majority": [], "bonus": [], "play": [], "total": []}
    for game in played:
        for sheet in game["score_sheet"]["seats"]:
            spec = game["seating"][sheet["seat"]]
            by_bot[spec].append(sheet["total"])
            bot_credit[spec] += win_credit(game, sheet["seat"])
            for part in parts:
                parts[part] += sheet[f"{part}_vp"]
                per_seat_game[part].append(sheet[f"{part}_vp"])
            per_seat_game["total"].append(sheet["total"])
    all_vp = sum(parts.values())
    rounds = max(len(game["score_by_round"]) for game in played)
    by_round = []
    for r in range(rounds):
        lasting = [game["score_by_round"][r] for game in played if len(game["score_by_round"]) > r]
        values = [total for totals in lasting for total in totals]
        described = stats.describe(values, conf)
        by_round.append(
            {
                "round": r + 1,
                "games": len(lasting),
                "n": described["n"],
                "mean": described["mean"],
                "p10": described["p10"],
                "p90": described["p90"],
                "leader_mean": stats.describe([max(t) for t in lasting], conf)["mean"],
            }
        )
    margins = [m for m in (winning_margin(game) for game in played) if m is not None]
    return {
        "by_bot": [
            {
                "bot": spec,
                "seat_games": len(totals),
                "total": stats.describe(totals, conf, counts=True),
                "wins": stats.rate(bot_credit[spec], len(totals), conf),
                "fair_share": 1 / players,
            }
            for spec, totals in sorted(by_bot.items())
        ],
        "components": {
            "seat_games": len(per_seat_game["total"]),
            "all_vp": all_vp,
            **{
                part: {
                    "vp": parts[part],
                    "share": parts[part] / all_vp if all_vp else None,
                    "per_seat_game": stats.describe(per_seat_game[part], conf),
                }
                for part in parts
            },
            "total": stats.describe(per_seat_game["total"], conf),
        },
        "margin": stats.describe(margins, conf, counts=True),
        "by_round": by_round,
        "lead_changes": stats.describe([lead_changes(game["score_by_round"]) for game in played], conf, counts=True),
    }


# -- pace -----------------------------------------------------------------------------------


def _pace(played: Sequence[Mapping[str, Any]], conf: float) -> dict[str, Any]:
    n = len(played)
    triggers: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    for game in played:
        triggers.update(set(game["triggers"]))
        if len(game["triggers"]) == 1:
            alone[game["triggers"][0]] += 1
    options = [count for game in played for count in game["options"]]
    return {
        "games": n,
        "rounds": stats.describe([game["rounds"] for game in played], conf, counts=True),
        "triggers": [
            {"trigger": trigger, **stats.rate(triggers[trigger], n, conf), "alone": alone[trigger]}
            for trigger in sorted(triggers)
        ],
        "decisions": stats.describe([game["decisions"] for game in played], conf),
        "options": stats.describe(options, conf, counts=True),
        "forced": stats.rate(sum(1 for count in options if count == 1), len(options), conf),
    }


# -- how the game feels ---------------------------------------------------------------------


def _feel(played: Sequence[Mapping[str, Any]], conf: float) -> dict[str, Any]:
    """Each figure of ``feel.FEEL_FIGURES`` over the games that have it (a rate for the 1-or-0
    figures, else a distribution), and the mean standings round by round."""
    per_game = [feel_figures(game) for game in played]
    section: dict[str, Any] = {"games": len(played)}
    for figure in FEEL_FIGURES:
        values = [figures[figure.key] for figures in per_game if figures[figure.key] is not None]
        if figure.kind == "rate":
            section[figure.key] = stats.rate(sum(1 for value in values if value), len(values), conf)
        else:
            section[figure.key] = stats.describe(values, conf)
    section["trajectory"] = _mean_trajectory(played)
    return section


def _mean_trajectory(played: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per round, over the games won alone lasting that long: the mean standing of the eventual
    winner and the mean best standing (the leader's, or the top shared by a tie)."""
    winner_by_round: defaultdict[int, list[float]] = defaultdict(list)
    best_by_round: defaultdict[int, list[float]] = defaultdict(list)
    value_by_round: defaultdict[int, list[float]] = defaultdict(list)
    for game in played:
        winner = sole_winner(game)
        if winner is None:
            continue
        for index, row in enumerate(trajectory(game)):
            winner_by_round[index].append(row[winner])
            best_by_round[index].append(max(row))
        for index, values in enumerate(value_trajectory(game) or ()):
            if values is not None:  # the search's root value for the eventual winner (TAG's StateEstimate)
                value_by_round[index].append(values[winner])
    return [
        {
            "round": index + 1,
            "n": len(winner_by_round[index]),
            "winner_mean": math.fsum(winner_by_round[index]) / len(winner_by_round[index]),
            "leader_mean": math.fsum(best_by_round[index]) / len(best_by_round[index]),
            "value_n": len(value_by_round[index]),
            "winner_value_mean": (math.fsum(value_by_round[index]) / len(value_by_round[index])
                                  if value_by_round[index] else None),
        }
        for index in sorted(winner_by_round)
    ]
