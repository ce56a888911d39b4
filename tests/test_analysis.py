"""The balance analysis: summary figures against hand counts, statistics against published
values, the report's sections and self-containment, findings, and comparisons of two runs.

Games come from ``tests/simulated_games.py``: seeded games built into games.jsonl lines exactly
as docs/simulation.md describes them.
"""

from __future__ import annotations

import copy
import doctest
import json
import math
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

import attrs
import numpy as np
import pytest
import simulated_games
from hypothesis import given
from hypothesis import strategies as st

from stargazer_rules import analysis
from stargazer_rules.analysis import (
    Targets,
    compare_summaries,
    stats,
    summarize,
    terminal_comparison,
    terminal_summary,
)
from stargazer_rules.analysis.games import lead_changes, winning_margin
from stargazer_rules.analysis.labels import p_number, p_value
from stargazer_rules.analysis.measures import MEASURES, MeasureContext
from stargazer_rules.analysis.report import render_report, write_report
from stargazer_rules.analysis.targets import SETTING_RANGES, Settings

#: A run of 200 four-player random games (50 blocks), and one of 8 for hand counts.
RUN = {"ruleset": "draft7", "lineup": ("random",) * 4, "blocks": 50}
SMALL = {"ruleset": "draft7", "lineup": ("random",) * 4, "blocks": 2}

#: A resource fetched from outside the page: src/href (or CSS url()) to http(s) or //host.
EXTERNAL = re.compile(r"""(?:\b(?:src|href)\s*=\s*["']?|url\(\s*["']?)\s*(?:https?:)?//""", re.IGNORECASE)


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return simulated_games.run(**RUN)


@pytest.fixture(scope="module")
def summary(games: list[dict]) -> dict:
    return summarize(games)


@pytest.fixture(scope="module")
def report_dir(summary: dict, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    write_report(summary, out)
    return out


def _position(game: dict, seat: int) -> int:
    return (seat - game["setup"]["start_player"]) % game["players"]


# -- statistics against published values ---------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_wilson_interval_matches_newcombe_1998(successes: int, n: int, low: float, high: float) -> None:
    """The Wilson score intervals of Newcombe (1998), Table I, to four decimals."""
    found = stats.wilson(successes, n)
    assert (round(found[0], 4), round(found[1], 4)) == (low, high)


def test_wilson_interval_of_nothing_is_everything() -> None:
    """No observation: the interval is [0, 1] and the stored rate is null."""
    assert stats.wilson(0, 0) == (0.0, 1.0)
    assert stats.rate(0, 0) == {"count": 0, "n": 0, "rate": None, "low": None, "high": None}


def test_newcombe_difference_matches_published_examples() -> None:
    """Method 10 of Newcombe (1998b): 56/70 - 48/80 and 9/10 - 3/10."""
    assert [round(x, 4) for x in stats.newcombe(56, 70, 48, 80)] == [0.2, 0.0524, 0.3339]
    assert [round(x, 4) for x in stats.newcombe(9, 10, 3, 10)] == [0.6, 0.1705, 0.809]


def test_chi_square_p_matches_known_values() -> None:
    """Pearson's statistic against equal shares, p from the chi-square survival function."""
    result = stats.chi_square_uniform([30, 20, 25, 25])
    assert result["statistic"] == 2.0 and result["df"] == 3
    assert round(result["p"], 4) == 0.5724
    assert round(stats.chi_square_uniform([60, 40, 50, 50])["p"], 4) == 0.2615
    assert stats.chi_square_uniform([0, 0, 0])["p"] is None


def test_games_needed_for_a_two_point_seat_advantage() -> None:
    """25% vs 27% at 95% and 80% power: 3,736 games (the normal-approximation formula)."""
    assert stats.games_needed(0.25, 0.02) == 3736
    assert stats.games_needed(1 / 3, 0.02) == 4398


def test_paired_and_welch_intervals() -> None:
    """Identical pairs give a zero-width interval; a constant shift is exact; Welch is symmetric."""
    assert stats.paired([1, 2, 3], [1, 2, 3]) == (0.0, 0.0, 0.0)
    assert stats.paired([1, 2, 3], [2, 3, 4]) == (1.0, 1.0, 1.0)
    difference, low, high = stats.welch([1, 2, 3, 4], [3, 4, 5, 6])
    assert difference == 2.0 and round(low + high, 9) == 4.0 and low < 2 < high


def test_stats_doctests() -> None:
    """The examples in stats.py's docstrings hold."""
    assert doctest.testmod(stats).failed == 0


def test_settings_refuse_nonsense() -> None:
    """A share outside (0, 1) is refused with the setting's name; targets survive a JSON round trip."""
    with pytest.raises(ValueError, match=r"^confidence is a number from 0\.5 to 0\.999, not 1\.5$"):
        Settings(confidence=1.5)
    assert Targets.from_json(Targets.default().to_json()) == Targets.default()


_SHARES = [field.name for field in attrs.fields(Settings) if field.name != "min_card_games"]


@given(
    name=st.sampled_from(_SHARES),
    fraction=st.floats(min_value=0, max_value=1),
    count=st.integers(min_value=0, max_value=10**6),
)
def test_a_setting_on_the_command_line_sets_that_setting_and_no_other(name, fraction, count):
    """``--bound NAME=VALUE`` text -> the same Targets as the keyword argument would give."""
    low, high = SETTING_RANGES[name]
    value = min(high, max(low, round(low + fraction * (high - low), 3)))
    targets = Targets.default().with_settings([f"{name}={value}", f" min_card_games = {count} "])
    expected = attrs.evolve(Settings(), **{name: value, "min_card_games": count})
    assert targets == attrs.evolve(Targets.default(), settings=expected)
    assert targets == Targets.default(**{name: value, "min_card_games": count})


@pytest.mark.parametrize(
    ("name", "measure"),
    [("max_tie_rate", "tie_rate"), ("max_accident_rate", "planet_first_place_accident"),
     ("max_picker_advantage", "crew_picker_advantage"), ("min_balance", "seat_balance")],
)
def test_a_former_bound_name_sets_the_goal_of_its_default_target_and_no_other(name, measure):
    """``--bound max_tie_rate=0.15`` (a name from before targets) moves the goal of the tie-rate
    target only; the settings and every other target stay as they were."""
    changed = Targets.default(**{name: 0.15})
    default = Targets.default()
    assert changed.settings == default.settings
    moved = [(old, new) for old, new in zip(default.targets, changed.targets, strict=True) if old != new]
    assert [(old.measure, new.bound) for old, new in moved] == [(measure, 0.15)]


@pytest.mark.parametrize(
    ("p", "cell", "sentence"),
    [(0.0, "< 0.001", "p < 0.001"), (0.00049, "< 0.001", "p < 0.001"), (0.001, "0.001", "p = 0.001"),
     (0.0042, "0.0042", "p = 0.0042"), (0.31, "0.31", "p = 0.31"), (None, "n/a", "p = n/a")],
)
def test_p_values_below_a_thousandth_are_not_shown_as_zero(p, cell, sentence):
    """A chi-square over thousands of games can underflow to 0; "p = 0" claims a certainty."""
    assert (p_number(p), p_value(p)) == (cell, sentence)


# -- the summary: every section, every figure with its sample size -------------------------


def test_summary_has_every_section(summary: dict) -> None:
    """The issue's sections, and plain JSON (a round trip changes nothing)."""
    assert summary["format"] == "stargazer-summary/1"
    for key in ("run", "targets", "names", "findings", "seats", "table_seats", "crew", "planets", "scores", "pace", "feel"):
        assert key in summary
    seats = summary["seats"]
    for key in ("seats", "chi_square", "games_needed", "ties", "balance", "fair_share"):
        assert key in seats
    card = summary["crew"]["cards"][0]
    for key in ("in_play", "picked", "picked_first", "pick_round", "pick_order", "motivation_vp",
                "picker_wins", "other_wins", "picker_advantage"):
        assert key in card
    planet = summary["planets"]["cards"][0]
    for key in ("top_square", "accident", "accident_rows", "vp_by_rank", "owners", "full"):
        assert key in planet
    assert summary["planets"]["colours"]
    for key in ("by_bot", "components", "margin", "by_round", "lead_changes"):
        assert key in summary["scores"]
    for key in ("rounds", "triggers", "options", "decisions", "forced"):
        assert key in summary["pace"]
    assert json.loads(json.dumps(summary)) == summary


def _figures(value, path="$"):
    if isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from _figures(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _figures(item, f"{path}[{index}]")


def test_every_rate_and_mean_has_its_sample_size(summary: dict) -> None:
    """Each rate carries n and its interval; each mean carries n."""
    for path, figure in _figures(summary):
        if "rate" in figure:
            assert {"count", "n", "low", "high"} <= set(figure), path
        if "mean" in figure or "mean_vp" in figure:
            assert "n" in figure, path


def test_run_says_which_bots_played_and_warns_of_random_play(summary: dict) -> None:
    """The lineup is named, and random-only play carries the smoke-test warning."""
    run = summary["run"]
    assert run["lineup"] == ["random"] * 4 and run["bots"] == ["random"] and run["random_only"]
    assert any("random play is a smoke test" in warning["text"] for warning in run["warnings"])
    mixed = summarize(simulated_games.run(ruleset="draft7", lineup=("random", "first", "random", "first"), blocks=2))
    assert mixed["run"]["lineup"] == ["random", "first", "random", "first"]
    assert not mixed["run"]["random_only"]
    assert not any(warning["kind"] == "random_only" for warning in mixed["run"]["warnings"])
    assert [bot["bot"] for bot in mixed["scores"]["by_bot"]] == ["first", "random"]
    assert [bot["seat_games"] for bot in mixed["scores"]["by_bot"]] == [16, 16]


# -- hand counts on a handful of games -----------------------------------------------------


@pytest.fixture(scope="module")
def few() -> list[dict]:
    return simulated_games.run(**SMALL)


def test_seat_wins_match_a_hand_count(few: list[dict]) -> None:
    """Seat shares (in turn order, shared wins split), ties, table seats and the seat balance."""
    summary = summarize(few)
    by_position, by_table = [0.0] * 4, [0.0] * 4
    for game in few:
        for seat in game["winners"]:
            by_position[_position(game, seat)] += 1 / len(game["winners"])
            by_table[seat] += 1 / len(game["winners"])
    found = [seat["wins"]["count"] for seat in summary["seats"]["seats"]]
    assert found == pytest.approx(by_position)
    assert [seat["wins"]["n"] for seat in summary["seats"]["seats"]] == [8] * 4
    assert [seat["wins"]["count"] for seat in summary["table_seats"]["seats"]] == pytest.approx(by_table)
    assert summary["seats"]["ties"]["count"] == sum(1 for game in few if len(game["winners"]) > 1)
    shares = [count / 8 for count in by_position]
    assert summary["seats"]["balance"]["value"] == pytest.approx(1 - (max(shares) - min(shares)))
    expected = stats.chi_square_uniform(by_position)["p"]
    assert summary["seats"]["chi_square"]["p"] == pytest.approx(expected, abs=1e-6)


def test_crew_figures_match_a_hand_count(few: list[dict]) -> None:
    """Picks, first picks, rounds in play, motivation VP and pickers' wins per crew card."""
    summary = summarize(few)
    picks, first, motivation, rounds_in = Counter(), Counter(), Counter(), Counter()
    picker, other = defaultdict(lambda: [0.0, 0]), defaultdict(lambda: [0.0, 0])
    for game in few:
        in_play = ["armstrong", *game["setup"]["crew"]]
        pickers = defaultdict(set)
        for pick in game["picks"]:
            picks[pick["crew"]] += 1
            first[pick["crew"]] += pick["order"] == 1
            motivation[pick["crew"]] += pick["motivation_vp"]
            pickers[pick["crew"]].add(pick["seat"])
        for crew in in_play:
            rounds_in[crew] += game["rounds"]
            for seat in range(4):
                tally = picker[crew] if seat in pickers[crew] else other[crew]
                tally[0] += 1 / len(game["winners"]) if seat in game["winners"] else 0
                tally[1] += 1
    cards = {card["crew"]: card for card in summary["crew"]["cards"]}
    assert set(cards) == set(rounds_in)
    for crew, card in cards.items():
        assert card["picked"]["count"] == picks[crew], crew
        assert card["picked"]["n"] == card["rounds_in_play"] == rounds_in[crew], crew
        assert card["picked_first"]["count"] == first[crew], crew
        assert card["motivation_vp"]["total"] == motivation[crew], crew
        assert [card["picker_wins"]["count"], card["picker_wins"]["n"]] == pytest.approx(picker[crew]), crew
        assert [card["other_wins"]["count"], card["other_wins"]["n"]] == pytest.approx(other[crew]), crew
    assert cards["armstrong"]["always_in_play"] and cards["armstrong"]["in_play"]["count"] == 8
    assert sum(card["picked_first"]["count"] for card in cards.values()) == sum(g["rounds"] for g in few)


def test_planet_figures_match_a_hand_count(few: list[dict]) -> None:
    """Accidents, fills, top squares and accident rows reached per planet card."""
    summary = summarize(few)
    accidents, full, games_in, tops = Counter(), Counter(), Counter(), defaultdict(list)
    for game in few:
        for result in game["score_sheet"]["planets"]:
            games_in[result["planet"]] += 1
            accidents[result["planet"]] += result["accident"]
            full[result["planet"]] += result["full"]
            tops[result["planet"]].append(result["top_square"])
    cards = {card["planet"]: card for card in summary["planets"]["cards"]}
    assert set(cards) == set(games_in)
    for planet, card in cards.items():
        assert card["in_play"]["count"] == games_in[planet]
        assert card["accident"]["count"] == accidents[planet]
        assert card["full"]["count"] == full[planet]
        assert card["top_square"]["counts"] == sorted(Counter(tops[planet]).items()) or card["top_square"]["counts"] == [
            [value, count] for value, count in sorted(Counter(tops[planet]).items())
        ]
        track = simulated_games.game_of("draft7").ruleset.planet(planet).track
        assert card["track"] == list(track)
        rows = [row for row, value in enumerate(track, start=1) if value == 0]
        assert [row["row"] for row in card["accident_rows"]] == rows
        for row in card["accident_rows"]:
            assert row["reached"]["count"] == sum(1 for top in tops[planet] if top >= row["row"])
            assert row["scored_by_first"]["count"] == sum(1 for top in tops[planet] if top == row["row"])
    colours = {colour["colour"]: colour for colour in summary["planets"]["colours"]}
    assert sum(colour["planet_games"] for colour in colours.values()) == 8 * 7


def test_scores_and_pace_match_a_hand_count(few: list[dict]) -> None:
    """VP sources, score by round, rounds, end conditions and options per decision."""
    summary = summarize(few)
    sheets = [seat for game in few for seat in game["score_sheet"]["seats"]]
    components = summary["scores"]["components"]
    assert components["majority"]["vp"] == sum(seat["majority_vp"] for seat in sheets)
    assert components["bonus"]["vp"] == sum(seat["bonus_vp"] for seat in sheets)
    assert components["play"]["vp"] == sum(seat["play_vp"] for seat in sheets)
    assert components["all_vp"] == sum(seat["total"] for seat in sheets)
    first_round = [total for game in few for total in game["score_by_round"][0]]
    assert summary["scores"]["by_round"][0]["mean"] == pytest.approx(sum(first_round) / len(first_round))
    assert summary["scores"]["by_round"][0]["games"] == 8
    pace = summary["pace"]
    assert pace["rounds"]["counts"] == [[r, c] for r, c in sorted(Counter(g["rounds"] for g in few).items())]
    triggers = Counter(t for game in few for t in game["triggers"])
    assert {t["trigger"]: t["count"] for t in pace["triggers"]} == dict(triggers)
    options = [count for game in few for count in game["options"]]
    assert pace["options"]["n"] == len(options) == sum(game["decisions"] for game in few)
    assert pace["options"]["mean"] == pytest.approx(sum(options) / len(options), abs=1e-6)
    assert pace["forced"]["count"] == options.count(1)


def test_lead_changes_and_margin_by_hand() -> None:
    """A tie keeps the last sole leader; the margin is over the best seat that did not win."""
    assert lead_changes([[1, 0], [0, 1], [1, 1], [2, 1], [3, 3], [3, 4]]) == 3
    assert lead_changes([[5, 5], [5, 5]]) == 0
    game = {"winners": [2], "score_sheet": {"seats": [{"seat": s, "total": t} for s, t in enumerate([10, 14, 17, 3])]}}
    assert winning_margin(game) == 3
    game["winners"] = [0, 1, 2, 3]
    assert winning_margin(game) is None


# -- input: partial runs and bad lines -----------------------------------------------------


def test_a_partial_run_still_builds_a_report(games: list[dict], tmp_path: Path) -> None:
    """Games of an interrupted run (missing indices, in any order) summarise with a warning."""
    partial = games[:13] + games[20:27]
    random.Random(3).shuffle(partial)
    summary = summarize(partial)
    assert summary["run"]["games"] == 20
    assert any(warning["kind"] == "partial" for warning in summary["run"]["warnings"])
    write_report(summary, tmp_path)
    assert (tmp_path / "report.html").stat().st_size > 0
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8")) == summary


def test_one_game_is_enough_for_a_summary(games: list[dict]) -> None:
    """A single finished game gives a summary (intervals wide open), and a report renders."""
    summary = summarize(games[:1])
    assert summary["seats"]["games"] == 1
    assert "<svg" in render_report(summary)


def test_bad_input_is_refused_with_a_reason(games: list[dict]) -> None:
    """No games, a line missing keys, or mixed player counts: ValueError saying what."""
    with pytest.raises(ValueError, match="no finished games"):
        summarize([])
    broken = copy.deepcopy(games[0])
    del broken["picks"]
    with pytest.raises(ValueError, match="lacks picks"):
        summarize([broken])
    three = simulated_games.run(ruleset="draft7", lineup=("random",) * 3, blocks=1)
    with pytest.raises(ValueError, match="mix player counts"):
        summarize(games[:4] + three)


def test_without_the_ruleset_cards_are_shown_by_id(games: list[dict]) -> None:
    """A fingerprint the loader cannot match: ids instead of names, no accident rows, a warning."""
    foreign = copy.deepcopy(games[:8])
    for game in foreign:
        game["ruleset"] = {"name": "draft-x", "fingerprint": "0" * 64}
    summary = summarize(foreign)
    assert summary["names"]["crew"] == {}
    assert summary["crew"]["always_in_play"] == ["armstrong"]
    assert summary["planets"]["cards"][0]["accident_rows"] is None
    assert any(warning["kind"] == "no_ruleset" for warning in summary["run"]["warnings"])
    assert "<svg" in render_report(summary)


# -- the report ----------------------------------------------------------------------------


def test_report_is_self_contained(report_dir: Path) -> None:
    """No resource from the network: inline CSS, inline SVG plots and the one inline script
    that sorts the tables."""
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert not EXTERNAL.search(page)
    assert page.lower().count("<script") == 1 and "<script>" in page and "<link" not in page.lower()
    assert page.count("<svg") >= 10 and "<style>" in page
    assert "<?xml" not in page


def test_report_names_the_bots_numbered_like_the_seats(report_dir: Path, tmp_path: Path) -> None:
    """One bot everywhere reads "in every seat"; a mixed lineup is numbered from 1, as the seats."""
    assert ">random in every seat</td>" in (report_dir / "report.html").read_text(encoding="utf-8")
    mixed = simulated_games.run(ruleset="draft7", lineup=("first", "random", "random", "random"), blocks=1)
    write_report(summarize(mixed), tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert ">1: first, 2: random, 3: random, 4: random (rotated: each bot sits in every seat equally often)</td>" in page


def test_report_has_every_section_and_links_findings(report_dir: Path, summary: dict) -> None:
    """The sections' anchors, the lineup, the random-play warning, each finding's link target."""
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    for ident in ("targets", "findings", "seats", "crew", "planets", "scores", "pace", "scores-bots", "scores-vp",
                  "scores-rounds", "scores-margin", "pace-triggers", "seats-ties", "crew-navigator", "planet-lava-1",
                  "colour-red"):
        assert f'id="{ident}"' in page, ident
    assert "random play is a smoke test" in page
    assert "Captain Armstrong" in page and "アームストロング船長" in page
    for finding in summary["findings"]:
        assert f'href="#{finding["anchor"]}"' in page
        assert f'id="{finding["anchor"]}"' in page
    assert json.loads((report_dir / "summary.json").read_text(encoding="utf-8")) == summary


def test_terminal_summary_is_a_short_table(summary: dict) -> None:
    """The targets' answers, seat shares with intervals, the seat balance, chi-square, games
    needed, the targets not met."""
    text = terminal_summary(summary)
    judged = summary["targets"]
    assert (f"targets: {judged['met']} of {judged['total']} met, {judged['not_met']} not met, "
            f"{judged['unknown']} not yet known (defaults)") in text
    # the list counts what the line above counts: targets, not the seats or cards that miss them
    assert f"targets not met ({judged['not_met']}):" in text
    assert all(f"- {finding['text']}" in text for finding in summary["findings"])
    seat = summary["seats"]["seats"][0]["wins"]
    assert f"{100 * seat['rate']:.1f}%  [{100 * seat['low']:.1f}, {100 * seat['high']:.1f}]" in text
    assert "seat balance " in text and "seats alike by chance: p" in text and "3,736" in text
    assert "random play is a smoke test" in text
    assert len(text.splitlines()) < 30


# -- findings ------------------------------------------------------------------------------


def _with_winners(games: list[dict], position_of: callable) -> list[dict]:
    """The games with each game's winner set to the seat at a chosen turn position."""
    changed = copy.deepcopy(games)
    for number, game in enumerate(changed):
        game["winners"] = [(game["setup"]["start_player"] + position_of(number)) % game["players"]]
    return changed


def _kinds(summary: dict) -> Counter:
    return Counter(finding["kind"] for finding in summary["findings"])


def test_seat_findings_fire_for_a_favoured_seat_only(games: list[dict]) -> None:
    """The start player winning 3 games in 4 misses the seat targets; exactly even seats do not."""
    favoured = summarize(_with_winners(games, lambda n: 0 if n % 2 else n % 4))
    kinds = _kinds(favoured)
    # seats 1 and 3 win: seat 1 75%, seats 2 and 4 never, seat 3 exactly its fair 25%
    assert kinds["seat_win_share"] == 3 and kinds["seat_balance"] == 1
    seat_findings = [f for f in favoured["findings"] if f["kind"] == "seat_win_share"]
    assert [f["subject"] for f in seat_findings] == ["1", "2", "4"]
    first = seat_findings[0]
    assert first["anchor"] == "seats" and first["section"] == "seats"
    assert first["text"] == (
        "Seat 1 (the start player): seat win share 75.0% [68.6, 80.5] over 200 games; target within ±3 points of 25.0%."
    )
    balance = next(f for f in favoured["findings"] if f["kind"] == "seat_balance")
    assert balance["text"] == "Seat balance 25.0% [18.5, 30.5] over 200 games; target at least 90%."
    even = summarize(_with_winners(games, lambda n: n % 4))
    assert not {"seat_win_share", "seat_balance"} & set(_kinds(even))
    assert even["seats"]["balance"]["value"] == 1.0
    answers = {answer["key"]: answer for answer in even["targets"]["targets"]}
    assert answers["seat_balance"]["value"] == 1.0 and answers["seat_balance"]["status"] != "not_met"


def test_crew_first_pick_finding(games: list[dict]) -> None:
    """A crew taken with every first pick of its games misses its target; the random picks do not."""
    assert not _kinds(summarize(games))["crew_first_pick"]
    rigged = copy.deepcopy(games)
    for game in rigged:
        if "navigator" in game["setup"]["crew"]:
            for round_number in range(1, game["rounds"] + 1):
                picks = [pick for pick in game["picks"] if pick["round"] == round_number]
                first = picks[0]
                navigator = next((pick for pick in picks if pick["crew"] == "navigator"), None)
                if navigator is not None:  # swap, so that each crew is still picked once a round
                    navigator["crew"] = first["crew"]
                first["crew"] = "navigator"
    summary = summarize(rigged)
    found = [f for f in summary["findings"] if f["kind"] == "crew_first_pick"]
    assert [f["subject"] for f in found] == ["navigator"]
    assert found[0]["anchor"] == "crew-navigator"
    assert found[0]["text"] == "Navigator: crew picked first 100.0% [99.3, 100.0] over 108 games; target at most 50%."


def test_accident_rows_not_reached_and_round_limit_findings(games: list[dict]) -> None:
    """A track that never passes square 3 leaves Gas 1's row-4 and row-7 accidents unreached:
    not yet known against 1% in 100 games (the interval reaches 3.7%), not met against 5%; one
    game ending at the round limit misses its target on the count alone (an exact measure)."""
    assert not _kinds(summarize(games))["accident_row_reached"]
    rigged = copy.deepcopy(games)
    for game in rigged:
        for result in game["score_sheet"]["planets"]:
            if result["planet"] == "gas-1":
                result["top_square"] = min(result["top_square"], 3)
    rigged[5]["triggers"] = ["round_limit"]
    summary = summarize(rigged)
    assert not _kinds(summary)["accident_row_reached"]
    rows = next(a for a in summary["targets"]["targets"] if a["key"] == "accident_row_reached")["subjects"]
    unreached = [row for row in rows if row["subject"] in ("gas-1#4", "gas-1#7")]
    assert [(row["status"], row["value"], row["n"]) for row in unreached] == [("unknown", 0.0, 100)] * 2
    # every resample of 0 of 100 is 0: the games needed come from the Wilson interval that left it
    # unknown, its half-width shrinking as 1/sqrt(games) until it clears 1%: 200 * (3.70 / 2 / 1)^2
    assert unreached[0]["high"] == pytest.approx(0.036993, abs=1e-6)
    assert [row["games_needed"] for row in unreached] == [math.ceil(200 * (unreached[0]["high"] / 2 / 0.01) ** 2)] * 2 == [685] * 2
    strict = summarize(rigged, targets=Targets.default(accident_row_reached=0.05))
    texts = [f["text"] for f in strict["findings"] if f["kind"] == "accident_row_reached"]
    assert texts == [
        "Gas 1 row 4: accident row reached 0.0% [0.0, 3.7] over 100 games; target at least 5%.",
        "Gas 1 row 7: accident row reached 0.0% [0.0, 3.7] over 100 games; target at least 5%.",
    ]
    limit = [f for f in summary["findings"] if f["kind"] == "round_limit_share"]
    assert [(f["subject"], f["anchor"], f["text"]) for f in limit] == [
        ("game", "pace", "Games at the round limit 0.5% [0.1, 2.8] over 200 games; target at most 0%.")
    ]


def test_targets_change_what_is_found(games: list[dict]) -> None:
    """Looser goals find less, stricter find more; too few games of a card find nothing."""
    strict = summarize(games, targets=Targets.default(max_accident_rate=0.1, max_first_pick_share=0.05))
    loose = summarize(games, targets=Targets.default(max_accident_rate=0.95))
    default = _kinds(summarize(games))
    assert _kinds(strict)["planet_first_place_accident"] > default["planet_first_place_accident"] > 0
    assert _kinds(strict)["crew_first_pick"] >= 1 and not default["crew_first_pick"]
    assert not _kinds(loose)["planet_first_place_accident"]
    few_cards = summarize(games, targets=Targets.default(max_accident_rate=0.1, min_card_games=10_000))
    assert not {"planet_first_place_accident", "crew_first_pick"} & set(_kinds(few_cards))
    goals = {target["measure"]: target for target in strict["run"]["targets"]["targets"]}
    assert goals["planet_first_place_accident"]["at_most"] == 0.1
    assert goals["crew_first_pick"]["at_most"] == 0.05


# -- comparisons ---------------------------------------------------------------------------


def test_identical_runs_differ_by_nothing(games: list[dict]) -> None:
    """Every difference is zero with a zero-width interval, nothing is significant, all paired."""
    comparison = compare_summaries(games, copy.deepcopy(games), label_a="draft7", label_b="again")
    assert comparison["pairing"]["pairs"] == 200 and comparison["pairing"]["paired"]
    assert comparison["significant"] == 0
    for metric in comparison["metrics"]:
        if metric["difference"] is not None:
            assert metric["difference"] == pytest.approx(0, abs=1e-9), metric["id"]
            if metric["method"] in ("paired", "bootstrap"):
                assert metric["low"] == pytest.approx(0, abs=1e-9) and metric["high"] == pytest.approx(0, abs=1e-9)
    assert comparison["tested"] > 100
    assert json.loads(json.dumps(comparison)) == comparison
    verdict = comparison["verdict"]
    assert {row["key"]: row["decision"] for row in verdict["targets"]} == dict.fromkeys(
        [target.key for target in Targets.default().targets], "equivalent"
    )
    assert verdict["decision"] == "equivalent"
    assert verdict["text"].startswith("Equivalent: again meets ")
    rows = next(row for row in verdict["targets"] if row["key"] == "accident_row_reached")
    assert rows["a"]["worst"] == rows["b"]["worst"] is not None  # the ruleset of the lines gives the rows


def test_a_comparison_without_the_ruleset_does_not_compare_accident_rows(games: list[dict]) -> None:
    """Lines of a ruleset the loader cannot match have no accident rows: the comparison says the
    target is not compared (as the summary says it cannot be judged) and decides the others."""
    foreign = copy.deepcopy(games[:40])
    for game in foreign:
        game["ruleset"] = {"name": "draft-x", "fingerprint": "0" * 64}
    comparison = compare_summaries(foreign, copy.deepcopy(foreign), label_a="a", label_b="b")
    decisions = {row["key"]: row["decision"] for row in comparison["verdict"]["targets"]}
    assert decisions["accident_row_reached"] == "not compared"
    assert decisions["seat_win_share"] == "equivalent"
    assert comparison["verdict"]["multiplicity"]["targets_compared"] == len(decisions) - 1


def test_a_constructed_difference_is_significant_and_paired(games: list[dict]) -> None:
    """B's start player wins every game: seat 1's share rises 75 points, paired over 200 games."""
    favoured = _with_winners(games, lambda n: 0)
    comparison = compare_summaries(games, favoured, label_a="A", label_b="B")
    metrics = {metric["id"]: metric for metric in comparison["metrics"]}
    seat1 = metrics["seats.1.win_share"]
    assert seat1["method"] == "paired" and seat1["pairs"] == 200 and seat1["significant"]
    assert seat1["b"]["value"] == 1.0
    assert seat1["difference"] == pytest.approx(1.0 - seat1["a"]["value"])
    assert metrics["seats.balance"]["significant"] and metrics["seats.balance"]["method"] == "bootstrap"
    assert not metrics["pace.rounds"]["significant"]
    text = terminal_comparison(comparison)
    assert "Seat 1 win share" in text and "significant changes" in text


def test_games_pair_by_index_not_by_order(games: list[dict]) -> None:
    """Shuffled, partial runs pair the indices both have; a different deal seed is not paired."""
    other = copy.deepcopy(games[10:150])
    random.Random(5).shuffle(other)
    comparison = compare_summaries(games, other, label_a="all", label_b="part")
    assert comparison["pairing"] == {
        "pairs": 140, "only_a": 60, "only_b": 0, "mismatched": 0, "seating_differs": 0, "paired": True,
    }
    seat1 = next(m for m in comparison["metrics"] if m["id"] == "seats.1.win_share")
    assert seat1["difference"] == pytest.approx(0, abs=1e-9) and seat1["pairs"] == 140
    assert seat1["a"]["n"] == 200 and seat1["b"]["n"] == 140
    reseeded = simulated_games.run(ruleset="draft7", lineup=("random",) * 4, blocks=3, seed=100)
    unpaired = compare_summaries(games[:12], reseeded, label_a="a", label_b="b")
    assert unpaired["pairing"]["mismatched"] == 12 and unpaired["pairing"]["pairs"] == 0
    seat1 = next(m for m in unpaired["metrics"] if m["id"] == "seats.1.win_share")
    assert seat1["method"] == "welch"


def test_comparing_summaries_instead_of_games_says_so(games: list[dict], summary: dict) -> None:
    """The comparison pairs games, so it takes games; a summary is refused with the reason."""
    with pytest.raises(TypeError, match="not a 'stargazer-summary/1' document"):
        compare_summaries(summary, games, label_a="a", label_b="b")


def test_comparison_files_are_self_contained(games: list[dict], tmp_path: Path) -> None:
    """comparison.json and comparison.html, with no outside resource and the sections."""
    base = simulated_games.run(ruleset="base", lineup=("random",) * 4, blocks=5)
    comparison = compare_summaries(games[:20], base, label_a="draft7", label_b="base")
    analysis.write_comparison(comparison, tmp_path)
    page = (tmp_path / "comparison.html").read_text(encoding="utf-8")
    assert not EXTERNAL.search(page) and page.lower().count("<script") == page.count("<script>") == 1
    for ident in ("seats", "scores", "pace", "crew", "planets"):
        assert f'id="{ident}"' in page
    assert "<svg" in page and "draft7" in page and "base" in page
    assert json.loads((tmp_path / "comparison.json").read_text(encoding="utf-8")) == comparison


def test_runner_lines_are_read_as_the_contract_says() -> None:
    """Lines from the simulation runner itself summarise and agree with the analysis's counts."""
    simulation = pytest.importorskip("stargazer_rules.simulation")
    from stargazer_rules import load_ruleset

    ruleset = load_ruleset("draft7")
    lineup = simulation.parse_lineup("random", 4)
    lines = [simulation.play_game(ruleset, entry, lineup) for entry in simulation.plan(games=8, players=4, seed=0)]
    summary = summarize(lines, ruleset=ruleset)
    assert summary["run"]["games"] == 8
    assert sum(card["picked"]["count"] for card in summary["crew"]["cards"]) == sum(len(g["picks"]) for g in lines)


def test_goals_are_shown_as_set_every_digit(games: list[dict]) -> None:
    """A 2.5-point goal reads "2.5", not "2": the terminal's games-needed line and the picker
    advantage finding print the goal the user set (report.html is read back in
    tests/test_report_numbers.py)."""
    summary = summarize(games, targets=Targets.default(seat_advantage=0.025, max_picker_advantage=0.025, min_card_games=1))
    assert "games to detect a 2.5-point seat advantage: " in terminal_summary(summary)
    texts = [f["text"] for f in summary["findings"] if f["kind"] == "crew_picker_advantage"]
    assert texts and all(text.endswith("; target within ±2.5 points of 0.") for text in texts)
    assert "games to detect a 2-point seat advantage: " in terminal_summary(summarize(games))


def test_a_summary_and_a_comparison_each_draw_their_resamples_once(games: list[dict], monkeypatch) -> None:
    """Every measure's bootstrap reads one set of resamples: a summary draws it once (not once
    per measure), a comparison once for both runs' matrices (the paired bootstrap), and the
    intervals are those of a set drawn for each measure alone (the same seed)."""
    from stargazer_rules.analysis import bootstrap

    drawn = []
    original = bootstrap.resample_counts

    def counted(n, *args, **kwargs):
        drawn.append(n)
        return original(n, *args, **kwargs)

    monkeypatch.setattr(bootstrap, "resample_counts", counted)
    summary = summarize(games)
    assert drawn == [200]
    run = analysis.Run.summarised(games)
    drawn.clear()
    analysis.compare_summaries(run, run)
    assert drawn == [200]
    from stargazer_rules import load_ruleset

    measure = MEASURES["crew_picker_advantage"]
    context = MeasureContext.of(games, load_ruleset("draft7"))
    matrix = bootstrap.part_matrix(measure, games, context)
    alone = matrix.draws(measure, original(len(games)))
    answer = next(a for a in summary["targets"]["targets"] if a["measure"] == measure.name)
    worst = matrix.subjects.index(answer["worst"])
    column = alone[:, worst]
    low, high = np.quantile(column[np.isfinite(column)], [0.025, 0.975])
    value = float(matrix.values(measure)[worst])
    assert (answer["low"], answer["high"]) == (round(min(float(low), value), 6), round(max(float(high), value), 6))
