"""Every number of report.html read back and checked against summary.json.

The other analysis tests check the summary and that the report has its sections; a report that
printed every win share as 1 - share, or swapped two columns, would pass them all. Here the
rendered page is parsed: each table's rows are found by their label (seat, crew, planet, colour,
bot, source, round, end condition) and each cell must show exactly the numbers of its summary
entry, in order, formatted as the report formats them (percentages, decimals, intervals,
counts, ``value:count`` lists). Every numeric token of a cell must be expected, so a number the
test does not account for fails it as surely as a wrong one; the prose paragraphs, findings,
warnings and title are read the same way, and a last test makes sure no number is shown
anywhere else. The plots (inline SVG) are drawn from the same summary and are not read back.

Three real runs are rendered, so that every kind of row and sentence is read back: the 200
random games of tests/test_analysis.py (findings, the random-play warning); a partial run with
two bots and targets of their own (a numbered lineup, two rows of scores by bot, a warning with
numbers, no target missed, 90% intervals, a 2.5-point seat advantage at 82.5% power);
and a partial run of ``first`` bots in which a crew is never picked and some planets never get
a cube (the "n/a" cells, seat findings).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import simulated_games

from stargazer_rules.analysis import Targets, summarize
from stargazer_rules.analysis.bootstrap import DRAWS
from stargazer_rules.analysis.feel import FEEL_FIGURES
from stargazer_rules.analysis.report import write_report
from stargazer_rules.text.messages import trigger_name

#: name -> (lineup, blocks, index of a game left out to make a partial run or None, targets).
RUNS = {
    "random": (("random",) * 4, 50, None, Targets.default()),
    "mixed": (("first", "random", "random", "random"), 3, 5,
              Targets.default(confidence=0.9, seat_advantage=0.025, power=0.825, seat_win_share=0.5, min_balance=0.0)),
    "first": (("first",) * 4, 1, 3, Targets.default()),
}

#: A number as the report prints it ("3,736", "12.5", "-5.2", "+7.1", "25.0%", "< 0.001"),
#: "n/a", or ✗ (an accident square). Digits inside words ("draft7", "R16", "10th") are no number.
NUMBER = re.compile(r"(?<![\w.])(?:< )?[-+]?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?%?(?!\w)|n/a|✗")
#: A table: its header row (empty for a table of names and values, whose rows head themselves).
TABLE = re.compile(r"<table>(?:<thead>(.*?)</thead>)?<tbody>(.*?)</tbody></table>", re.S)
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
CELL = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
PARAGRAPH = re.compile(r"<p[ >].*?</p>", re.S)

#: The first heading of every table the tests below check; a table not here fails
#: test_no_number_is_shown_outside_the_checked_places until a test reads it.
TABLES = ("", "target", "setting", "seat", "table seat", "crew", "crew", "planet", "planet", "colour", "colour", "bot",
          "source", "round", "condition", "figure")


@pytest.fixture(scope="module", params=sorted(RUNS))
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """summary.json and report.html of a run, written by write_report as `stargazer simulate` does."""
    lineup, blocks, left_out, targets = RUNS[request.param]
    games = simulated_games.run(ruleset="draft7", lineup=lineup, blocks=blocks)
    if left_out is not None:
        del games[left_out]
    out = tmp_path_factory.mktemp(f"report-{request.param}")
    write_report(summarize(games, targets=targets), out)
    return out


@pytest.fixture(scope="module")
def summary(written: Path) -> dict:
    return json.loads((written / "summary.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def page(written: Path) -> str:
    """report.html without its plots, style and script: what a reader reads as text."""
    text = (written / "report.html").read_text(encoding="utf-8")
    return re.sub(r"<svg.*?</svg>|<style>.*?</style>|<script>.*?</script>", "", text, flags=re.S)


# -- reading the page -----------------------------------------------------------------------


def _text(fragment: str) -> str:
    """The text of an HTML fragment as a reader sees it: line breaks as spaces, other tags
    dropped, entities decoded, runs of white space as one space."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment.replace("<br>", " "))).split())


def _numbers(text: str) -> list[str]:
    """The numbers of a text in order, as NUMBER reads them."""
    return NUMBER.findall(text)


def _rows(page: str, headers: Sequence[str]) -> dict[str, list[str]]:
    """The rows of the one table with these column headings: the text of the cells after the
    first, by the text of the first (the row's label)."""
    tables = [(tuple(_text(c) for c in CELL.findall(head)), body) for head, body in TABLE.findall(page)]
    found = [body for heads, body in tables if heads == tuple(headers)]
    assert len(found) == 1, f"no single table headed {headers}; the tables: {[heads for heads, _ in tables]}"
    rows = [[_text(cell) for cell in CELL.findall(row)] for row in ROW.findall(found[0])]
    by_label = {row[0]: row[1:] for row in rows}
    assert len(by_label) == len(rows), f"two rows with one label in {headers}"
    return by_label


def _shown(text: str, expected: str | list[str]) -> str | list[str]:
    """What a cell or paragraph shows, read like its expectation: the whole text for a str,
    the numeric tokens for a list."""
    return text if isinstance(expected, str) else _numbers(text)


def _check(shown: Mapping[str, list[str]], expected: Mapping[str, list[str | list[str]]]) -> None:
    """Each expected row is shown under its label, no other row is, and each of its cells
    shows exactly the expected numbers in order (a list) or the expected text (a str)."""
    assert sorted(shown) == sorted(expected), "rows missing or extra"
    for label, cells in expected.items():
        assert len(shown[label]) == len(cells), label
        assert [_shown(text, want) for text, want in zip(shown[label], cells)] == cells, label


# -- the summary's figures, formatted as the report formats them ----------------------------


def count(value: float | None, digits: int = 1) -> str:
    """A count or plain figure: "3,736", "49.5"."""
    if value is None:
        return "n/a"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.{digits}f}"


def percent(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{100 * value:.{digits}f}%"


def points(value: float | None, digits: int = 1, sign: str = "") -> str:
    """A share in percentage points: "8.0", with sign="+" "+1.1"."""
    return "n/a" if value is None else f"{100 * value:{sign}.{digits}f}"


def interval(figure: Mapping[str, Any]) -> list[str]:
    return ["n/a"] if figure["low"] is None else [points(figure["low"]), points(figure["high"])]


def rate(figure: Mapping[str, Any]) -> list[str]:
    """A rate: share, then its interval."""
    return [percent(figure["rate"]), *interval(figure)]


def of(figure: Mapping[str, Any]) -> list[str]:
    """A rate's "count / n"."""
    return [count(figure["count"]), count(figure["n"])]


def mean(figure: Mapping[str, Any], digits: int = 2) -> list[str]:
    """A mean and its interval."""
    if figure["mean"] is None:
        return ["n/a"]
    return [f"{figure[key]:.{digits}f}" for key in ("mean", "mean_low", "mean_high")]


def counts(figure: Mapping[str, Any]) -> list[str]:
    """The ``value:count`` pairs of a distribution."""
    return [count(number) for pair in figure["counts"] for number in pair]


def p_value(p: float | None) -> str:
    if p is None:
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.2g}"


def card_name(summary: Mapping[str, Any], kind: str, ident: str, both: bool = True) -> str:
    """A card's or colour's English and Japanese name (the id when the summary has none)."""
    names = summary["names"][kind].get(ident, {"en": ident, "ja": ident})
    return names["en"] if not both or names["en"] == names["ja"] else f"{names['en']} {names['ja']}"


# -- the tests ------------------------------------------------------------------------------


def test_title_run_table_and_warnings_show_the_run(page: str, summary: dict) -> None:
    """The title, the run table (ruleset, players, games and blocks, lineup, confidence) and
    the warnings are summary.json's ``run``."""
    run = summary["run"]
    title = f"Stargazer balance report: {run['ruleset']['name']}, {run['players']} players, {count(run['games'])} games"
    assert _text(re.search(r"<title>(.*?)</title>", page).group(1)) == title
    assert _text(re.search(r"<h1>(.*?)</h1>", page).group(1)) == title
    lineup = run["lineup"]
    if len(set(lineup)) == 1:
        seats = f"{lineup[0]} in every seat"
    else:
        seats = ", ".join(f"{seat}: {spec}" for seat, spec in enumerate(lineup, start=1))
        seats += " (rotated: each bot sits in every seat equally often)"
    _check(
        _rows(page, []),
        {
            "ruleset": [f"{run['ruleset']['name']} {run['ruleset']['fingerprint'][:12]}"],
            "players": [[count(run["players"])]],
            "games": [[count(run["games"]), str(run["first_index"]), str(run["last_index"]),
                       str(run["complete_blocks"]), str(run["blocks"])]],
            "bots (the lineup)": [seats],
            "engine": [[]],
            "intervals": [[f"{100 * run['confidence']:g}%", f"{DRAWS:,}"]],
        },
    )
    shown = [_text(w) for w in re.findall(r'<div class="warning">(.*?)</div>', page, re.S)]
    assert shown == [warning["text"] for warning in run["warnings"]]


def _measure_value(answer: Mapping[str, Any], value: float) -> str:
    """A value in its measure's unit: "31.2%", "+4.2 points", "7.40 rounds"."""
    if answer["unit"] == "share":
        return percent(value)
    if answer["unit"] == "points":
        return f"{points(value, sign='+')} points"
    return f"{value:,.2f} {answer['unit']}"


def _measure_interval(answer: Mapping[str, Any]) -> str:
    low, high = answer["low"], answer["high"]
    if answer["unit"] == "share":
        return f"[{points(low)}, {points(high)}]"
    if answer["unit"] == "points":
        return f"[{points(low, sign='+')}, {points(high, sign='+')}]"
    return f"[{low:,.2f}, {high:,.2f}]"


def _target_row(answer: Mapping[str, Any]) -> list[str]:
    """A target's row as summary.json says it: goal, the status (with the games needed when not
    yet known), the worst subject's value and interval, the weight."""
    if answer["value"] is None:
        value, spread = "n/a", ""
    else:
        who = f"{answer['worst_label']}: " if answer["worst_label"] else ""
        value, spread = who + _measure_value(answer, answer["value"]), _measure_interval(answer)
    status = {"met": "met", "not_met": "NOT MET", "unknown": "not yet known"}[answer["status"]]
    if answer["status"] == "unknown" and answer["games_needed"]:
        status += f" (about {count(answer['games_needed'])} games)"
    elif answer["status"] == "unknown" and answer["note"]:
        status += f" ({answer['note']})"
    return [answer["goal_text"], status, value, spread, f"{answer['weight']:g}"]


def test_targets_findings_and_settings_are_those_of_summary_json(page: str, summary: dict) -> None:
    """Each target's row (goal, status, value of its worst subject, interval, weight), each
    finding's text and link in order, and every setting with its value."""
    judged = summary["targets"]
    level = f"{100 * judged['confidence']:g}%"
    shown = _rows(page, ["target", "goal", "status", "value (worst)", f"{level} interval", "weight"])
    assert shown == {answer["label"]: _target_row(answer) for answer in judged["targets"]}
    items = re.findall(r'<li><a href="#([^"]*)">(.*?)</a></li>', page, re.S)
    assert [(anchor, _text(text)) for anchor, text in items] == [(f["anchor"], f["text"]) for f in summary["findings"]]
    settings = _rows(page, ["setting", "value"])
    assert all(len(cells) == 1 for cells in settings.values())
    assert {key: json.loads(cells[0]) for key, cells in settings.items()} == judged["settings"]
    assert judged["settings"] == summary["run"]["targets"]["settings"]


def test_seat_table_shows_each_seats_wins_and_score(page: str, summary: dict) -> None:
    """Seats in turn order: win share, interval, wins / games, inside or outside the fair
    share's interval, mean score with its interval."""
    part = summary["seats"]
    _check(
        _rows(page, ["seat", "win share", "interval", "wins / games", f"fair {percent(part['fair_share'])}",
                     "mean score [interval]"]),
        {
            seat["label"] + (" (start player)" if seat["seat"] == 0 else ""): [
                [percent(seat["wins"]["rate"])], interval(seat["wins"]), of(seat["wins"]),
                "outside the interval" if seat["excludes_fair"] else "inside the interval",
                mean(seat["score"]),
            ]
            for seat in part["seats"]
        },
    )


def test_table_seat_table_shows_each_table_seats_wins(page: str, summary: dict) -> None:
    """Table seats (the game lines' seat numbers): win share, interval, wins / games."""
    _check(
        _rows(page, ["table seat", "win share", "interval", "wins / games"]),
        {
            seat["label"]: [[percent(seat["wins"]["rate"])], interval(seat["wins"]), of(seat["wins"])]
            for seat in summary["table_seats"]["seats"]
        },
    )


def _advantage(advantage: Mapping[str, Any]) -> list[str]:
    if advantage["difference"] is None:
        return ["n/a"]
    return [points(advantage[key], sign="+") for key in ("difference", "low", "high")]


def _crew_label(summary: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    return card_name(summary, "crew", card["crew"]) + (" (always)" if card["always_in_play"] else "")


def test_crew_table_shows_each_crews_figures(page: str, summary: dict) -> None:
    """Per crew card: games and rounds in play, picked, picked first, games picked, the
    pickers' and the others' win shares with their n, and the pickers' advantage in points."""
    headers = ["crew", "games in play", "rounds in play", "picked", "picked first", "games picked",
               "pickers win", "others win", "difference (points)"]
    _check(
        _rows(page, headers),
        {
            _crew_label(summary, card): [
                of(card["in_play"]),
                [count(card["rounds_in_play"])],
                rate(card["picked"]),
                rate(card["picked_first"]),
                rate(card["games_picked"]),
                [*rate(card["picker_wins"]), count(card["picker_wins"]["n"])],
                [*rate(card["other_wins"]), count(card["other_wins"]["n"])],
                _advantage(card["picker_advantage"]),
            ]
            for card in summary["crew"]["cards"]
        },
    )


def test_crew_pick_table_shows_when_each_crew_is_picked(page: str, summary: dict) -> None:
    """Per crew card: pick round and pick order (mean, interval, value:count), motivation VP
    in all and per pick."""
    _check(
        _rows(page, ["crew", "pick round", "pick order", "motivation VP"]),
        {
            _crew_label(summary, card): [
                mean(card["pick_round"]) + counts(card["pick_round"]),
                mean(card["pick_order"]) + counts(card["pick_order"]),
                [count(card["motivation_vp"]["total"]), *mean(card["motivation_vp"]["per_pick"])],
            ]
            for card in summary["crew"]["cards"]
        },
    )


END_HEADERS = ["games in play", "top square reached", "first place scores an accident"]


def _end_cells(card: Mapping[str, Any]) -> list[list[str]]:
    """How the track of a planet card or a colour ends: games in play, top square, accidents
    with their n."""
    return [
        of(card["in_play"]),
        mean(card["top_square"]) + counts(card["top_square"]),
        [*rate(card["accident"]), count(card["accident"]["n"])],
    ]


def _rank_headers(cards: Sequence[Mapping[str, Any]]) -> list[str]:
    ranks = max(len(card["vp_by_rank"]) for card in cards)
    return ["owners (players)", "free cubes ranked", *(f"rank {rank} VP" for rank in range(1, ranks + 1))]


def _rank_cells(card: Mapping[str, Any], ranks: int) -> list[str | list[str]]:
    """Owners, free cubes, and per rank its mean VP, its n and the VP lost to free cubes; "—"
    for a rank this card never paid."""
    cells: list[str | list[str]] = [mean(card["owners"]) + counts(card["owners"]), rate(card["free_cubes_rank"])]
    for rank in card["vp_by_rank"]:
        cells.append([f"{rank['mean_vp']:.2f}", count(rank["n"]),
                      *([count(rank["vp_lost_to_free_cubes"])] if rank["free_cube_ranks"] else [])])
    return cells + ["—"] * (ranks - len(card["vp_by_rank"]))


def _track(track: Sequence[int] | None) -> list[str]:
    """"row:VP" for each square of the track, ✗ for an accident."""
    if not track:
        return ["n/a"]
    return [token for row, vp in enumerate(track, start=1) for token in (str(row), "✗" if vp == 0 else str(vp))]


def _accident_rows(rows: Sequence[Mapping[str, Any]] | None) -> str | list[str]:
    if rows is None:
        return ["n/a"]
    if not rows:
        return "none"
    return [token for row in rows
            for token in (str(row["row"]), percent(row["reached"]["rate"]), percent(row["scored_by_first"]["rate"]))]


def test_planet_table_shows_how_each_planet_cards_track_ends(page: str, summary: dict) -> None:
    """Per planet card: its colour and track, games in play, top square, accidents, its
    accident rows (reached, scored by first place) and how often it filled."""
    _check(
        _rows(page, ["planet", "colour", "track (row:VP, ✗ accident)", *END_HEADERS,
                     "accident rows (reached / first place scores it)", "filled"]),
        {
            card_name(summary, "planets", card["planet"]): [
                card_name(summary, "colours", card["colour"], both=False),
                _track(card["track"]),
                *_end_cells(card),
                _accident_rows(card["accident_rows"]),
                rate(card["full"]),
            ]
            for card in summary["planets"]["cards"]
        },
    )


def test_planet_rank_table_shows_each_planet_cards_owners_and_vp_per_rank(page: str, summary: dict) -> None:
    """Per planet card: owners, free cubes ranked, the mean VP of each rank."""
    cards = summary["planets"]["cards"]
    ranks = _rank_headers(cards)
    _check(
        _rows(page, ["planet", *ranks]),
        {card_name(summary, "planets", card["planet"]): _rank_cells(card, len(ranks) - 2) for card in cards},
    )


def test_colour_tables_show_each_colours_figures(page: str, summary: dict) -> None:
    """Per colour: planet games, how its tracks end, then owners and VP per rank."""
    colours = summary["planets"]["colours"]
    _check(
        _rows(page, ["colour", "planet games", *END_HEADERS, "filled"]),
        {
            card_name(summary, "colours", colour["colour"]): [[count(colour["planet_games"])], *_end_cells(colour),
                                                              rate(colour["full"])]
            for colour in colours
        },
    )
    ranks = _rank_headers(colours)
    _check(
        _rows(page, ["colour", *ranks]),
        {card_name(summary, "colours", colour["colour"]): _rank_cells(colour, len(ranks) - 2) for colour in colours},
    )


def test_bot_table_shows_each_bots_scores_and_wins(page: str, summary: dict) -> None:
    """Per bot: seat-games, mean score with interval, sd, min / quartiles / max, win share with
    interval, fair share."""
    _check(
        _rows(page, ["bot", "seat-games", "mean [interval]", "sd", "min / p25 / median / p75 / max", "win share",
                     "fair"]),
        {
            bot["bot"]: [
                [count(bot["seat_games"])],
                mean(bot["total"]),
                [count(bot["total"]["sd"])],
                [count(bot["total"][key]) for key in ("min", "p25", "median", "p75", "max")],
                rate(bot["wins"]),
                [percent(bot["fair_share"])],
            ]
            for bot in summary["scores"]["by_bot"]
        },
    )


def test_vp_source_table_shows_each_components_vp(page: str, summary: dict) -> None:
    """Per source of VP: the VP, their share of all VP, the mean per seat-game and its n."""
    parts = summary["scores"]["components"]
    sources = {"planet majority": "majority", "major-planet bonus": "bonus", "VP scored during play": "play"}
    _check(
        _rows(page, ["source", "VP", "share", "mean per seat-game [interval]", "seat-games"]),
        {
            label: [[count(parts[key]["vp"])], [percent(parts[key]["share"])], mean(parts[key]["per_seat_game"]),
                    [count(parts[key]["per_seat_game"]["n"])]]
            for label, key in sources.items()
        },
    )


def test_round_table_shows_each_rounds_scores(page: str, summary: dict) -> None:
    """Per round: games lasting that long, mean score, 10th and 90th percentile, leader's mean."""
    _check(
        _rows(page, ["round", "games", "mean", "10th – 90th percentile", "leader's mean"]),
        {
            str(r["round"]): [[count(r["games"])], [f"{r['mean']:.1f}"], [f"{r['p10']:.1f}", f"{r['p90']:.1f}"],
                              [f"{r['leader_mean']:.1f}"]]
            for r in summary["scores"]["by_round"]
        },
    )


def test_end_condition_table_shows_each_trigger(page: str, summary: dict) -> None:
    """Per end condition, in the words of the game's messages: share of games, interval, games / all games, games it ended alone."""
    _check(
        _rows(page, ["condition", "share of games", "interval", "games", "the only one"]),
        {
            trigger_name(t["trigger"], "en"): [[percent(t["rate"])], interval(t), of(t), [count(t["alone"])]]
            for t in summary["pace"]["triggers"]
        },
    )


def test_feel_table_shows_each_figure_with_its_words(page: str, summary: dict) -> None:
    """Per figure of FEEL_FIGURES: its definition, then the mean and interval (three decimals
    below 1) and n, or for comebacks and shared wins the share, interval and count / n."""
    feel = summary["feel"]
    expected: dict[str, list[str | list[str]]] = {}
    for item in FEEL_FIGURES:
        figure = feel[item.key]
        if item.kind == "rate":
            expected[item.label] = [item.definition, rate(figure), of(figure)]
        else:
            small = figure["mean"] is not None and abs(figure["mean"]) < 1
            expected[item.label] = [item.definition, mean(figure, 3 if small else 2), [count(figure["n"])]]
    _check(_rows(page, ["figure", "what it measures", "mean [interval] or share [interval]", "n"]), expected)


def _paragraphs(summary: Mapping[str, Any]) -> dict[str, str | list[str]]:
    """Every paragraph of the report, by its first words: its text (a str) or its numbers."""
    seats, fair = summary["seats"], summary["seats"]["fair_share"]
    chi, balance, needed = seats["chi_square"], seats["balance"], seats["games_needed"]
    scores, pace, judged = summary["scores"], summary["pace"], summary["targets"]
    margin, leads, rounds, options = scores["margin"], scores["lead_changes"], pace["rounds"], pace["options"]
    return {
        "Produced by the bots:": f"Produced by the bots: {', '.join(summary['run']['bots'])}.",
        f"{judged['met']} of {judged['total']} targets met": [str(judged["met"]), str(judged["total"]),
                                                              str(judged["not_met"]), str(judged["unknown"]),
                                                              f"{100 * judged['confidence']:g}%"],
        **({} if summary["findings"] else {"Every target is met or not yet known.": []}),
        # "seat 1 is the start player", "wins 1 per game won, 1/2 per two-way shared win"
        "Seats in turn order:": ["1", "1", "1", "2", percent(fair)],
        "Chi-square test": [count(chi["statistic"], 2), str(chi["df"]), p_value(chi["p"]), count(chi["n"])],
        # "1 minus the largest gap"
        "Seat balance:": [f"{balance['value']:.3f}", "1", str(balance["best_seat"] + 1),
                            str(balance["worst_seat"] + 1), points(balance["gap"]), count(balance["n"])],
        "Shared wins (ties):": [*rate(seats["ties"]), count(seats["ties"]["n"])],
        # the settings as set, every digit: a 2.5-point advantage is not "2 points"
        "Games needed": [f"{100 * needed['advantage']:g}", percent(fair), f"{100 * needed['power']:g}%",
                         count(needed["games"]), count(needed["have"]), points(needed["detectable_advantage"])],
        # "numbered from 1", "the lines' seat 0 is table seat 1"
        "The table seats of the game lines": ["1", "0", "1", p_value(summary["table_seats"]["chi_square"]["p"])],
        '"Picked" and "picked first"': [],
        # "(1 = first pick of the round)"
        "Pick round and pick order": ["1"],
        "Per planet card": [],
        "All planets of a colour": [],
        "Winning margin:": [*mean(margin), count(margin["median"]), count(margin["n"]),
                            *mean(leads), count(leads["n"])],
        "Rounds per game:": [*mean(rounds), count(rounds["median"]), count(rounds["min"]), count(rounds["max"]),
                             count(rounds["n"])],
        "Decisions per game:": [*mean(pace["decisions"]), count(pace["decisions"]["n"]), *mean(options),
                                count(options["median"]), count(options["p90"]), count(options["max"]),
                                count(options["n"]), *rate(pace["forced"])],
        # "(after the last round: the winner, R18)"
        "A seat's standing after a round": [],
        "How to read this report": [],
        "The statistical words of this page": [],
    }


def test_every_paragraph_shows_the_numbers_of_summary_json(page: str, summary: dict) -> None:
    """The sentences under the tables (chi-square, balance, ties, games needed, margins, pace):
    each paragraph is matched by its first words and its numbers are summary.json's; a
    paragraph the test does not know fails it."""
    expected = _paragraphs(summary)
    seen = []
    for paragraph in PARAGRAPH.findall(page):
        text = _text(paragraph)
        known = [start for start in expected if text.startswith(start)]
        assert len(known) == 1, f"a paragraph this test does not read: {text!r}"
        assert _shown(text, expected[known[0]]) == expected[known[0]], text
        seen.append(known[0])
    assert sorted(seen) == sorted(expected), "paragraphs missing from the report or shown twice"


def test_no_number_is_shown_outside_the_checked_places(page: str) -> None:
    """Every table of the page is one the tests above read, and no number is left once the
    tables, paragraphs, findings, warnings and title are taken out (headings, captions and the
    navigation carry none): a number added anywhere else needs a test first."""
    first_headings = [_text(CELL.search(head).group(1)) if head else "" for head, _ in TABLE.findall(page)]
    assert sorted(first_headings) == sorted(TABLES)
    assert page.count("<table") == len(TABLES)
    rest = re.sub(r"<table>.*?</table>|<p[ >].*?</p>|<li>.*?</li>|<h1>.*?</h1>|<title>.*?</title>"
                  r'|<div class="warning">.*?</div>', " ", page, flags=re.S)
    assert _numbers(_text(rest)) == []
