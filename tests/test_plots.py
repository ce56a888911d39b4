"""The report's figures (analysis/plots.py on analysis/svg_chart.py): every figure is an SVG
that parses, carries its title and axis labels as text, and draws one mark per data point."""

from __future__ import annotations

import copy
import doctest
import math
import xml.etree.ElementTree as ET

import pytest
import simulated_games

from stargazer_rules.analysis import compare_summaries, plots, summarize, svg_chart

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return simulated_games.run(ruleset="draft7", lineup=("random",) * 4, blocks=4)


@pytest.fixture(scope="module")
def summary(games: list[dict]) -> dict:
    return summarize(games)


def _parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) > 100 and float(root.get("height")) > 50
    return root


def _texts(root: ET.Element, cls: str) -> list[str]:
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text") if node.get("class") == cls]


def _marks(root: ET.Element) -> int:
    return sum(1 for node in root.iter() if node.get("class") == "mark")


def test_seat_figure_has_its_title_axis_legend_and_a_bar_per_seat(summary: dict) -> None:
    root = _parsed(plots.seats(summary))
    assert _texts(root, "title") == ["Win share by seat (16 games, 95% intervals)"]
    assert _texts(root, "axis-label") == ["win share (%)"]
    assert _texts(root, "tick")[:4] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert _texts(root, "legend-label") == ["fair share"]
    assert _marks(root) == 4
    assert len([g for g in root.iter(f"{SVG}g") if g.get("class") == "whisker"]) == 4


def test_a_bar_is_as_tall_as_its_share(summary: dict) -> None:
    """The bars' heights are in proportion to the seats' win shares (the axis starts at 0)."""
    root = _parsed(plots.seats(summary))
    heights = [float(node.get("height")) for node in root.iter(f"{SVG}rect") if node.get("class") == "mark"]
    shares = [seat["wins"]["rate"] for seat in summary["seats"]["seats"]]
    tallest = max(range(4), key=lambda i: shares[i])
    for height, share in zip(heights, shares, strict=True):
        assert height == pytest.approx(heights[tallest] * share / shares[tallest], abs=0.15)


def test_every_report_figure_draws_a_mark_per_data_point(summary: dict) -> None:
    crew = len(summary["crew"]["cards"])
    planets = summary["planets"]["cards"]
    longest = max(max(card["top_square"]["max"] or 0, len(card["track"])) for card in planets)
    rounds = len(summary["scores"]["by_round"])
    scores, pace = summary["scores"], summary["pace"]
    expected = {
        "crew_picks": (2 * crew, ["picked (% of rounds in play)", "picked first (% of rounds in play)"]),
        "crew_wins": (2 * crew, ["win share (%)"]),
        "planet_accidents": (2 * len(planets), ["first place scores an accident (%)", "planet filled (%)"]),
        "planet_rows": (sum(len(card["track"]) + 1 for card in planets),
                        ["final top square (0: no cube; blank: beyond the track); x: an accident row",
                         "share of games in play"]),
        "scores_by_bot": (len(scores["by_bot"]), ["final score (VP)"]),
        "vp_sources": (3, ["share of all VP scored (%)"]),
        "score_by_round": (2 * rounds, ["round", "provisional score (VP)"]),
        "margins": (len(scores["margin"]["counts"]) + len(scores["lead_changes"]["counts"]),
                    ["winning margin (VP)", "games", "lead changes per game", "games"]),
        "pace": (len(pace["rounds"]["counts"]) + len(pace["triggers"]) + len(pace["options"]["counts"]),
                 ["rounds per game", "games", "end condition (a game may meet several)", "games (%)",
                  "legal options per decision", "decisions"]),
        "feel": (2 * len(summary["feel"]["trajectory"]), ["round", "standing (% of all VP)"]),
    }
    assert longest + 1 == max(len(card["track"]) + 1 for card in planets)  # no track ends short of a top square
    for kind, (marks, labels) in expected.items():
        root = _parsed(getattr(plots, kind)(summary))
        assert _marks(root) == marks, kind
        assert _texts(root, "axis-label") == labels, kind


def test_accident_rows_are_marked_on_the_heatmap(summary: dict) -> None:
    root = _parsed(plots.planet_rows(summary))
    accidents = sum(1 for card in summary["planets"]["cards"] for value in card["track"] if value == 0)
    assert _texts(root, "cell-label") == ["x"] * accidents


def test_the_search_value_is_a_third_line_where_a_search_played(summary: dict) -> None:
    valued = copy.deepcopy(summary)
    for row in valued["feel"]["trajectory"][:3]:
        row["winner_value_mean"] = 0.4
    root = _parsed(plots.feel(valued))
    assert _marks(root) == 2 * len(summary["feel"]["trajectory"]) + 3
    assert "the search's value of the winner" in _texts(root, "legend-label")
    assert _texts(root, "axis-label") == ["round", "standing (% of all VP)or search value (%)"]


def test_comparison_ladder_and_tune_figures(games: list[dict]) -> None:
    comparison = compare_summaries(games, games, label_a="first", label_b="second")
    root = _parsed(plots.comparison_seats(comparison))
    assert _marks(root) == 8
    assert _texts(root, "legend-label") == ["first", "second", "fair share"]
    ladder = {
        "steps": [{"budgets": [1, 2], "wins": {"count": 30.0, "n": 40, "rate": 0.75, "low": 0.6, "high": 0.86},
                   "stronger_wins_more": True},
                  {"budgets": [2, 4], "wins": {"count": 20.0, "n": 40, "rate": 0.5, "low": 0.35, "high": 0.65},
                   "stronger_wins_more": False}],
        "fair_share": 0.5, "skill_depth": 1, "confidence": 0.95,
    }
    root = _parsed(plots.ladder_steps(ladder))
    assert _texts(root, "title") == ["Skill depth 1 (95% intervals)"]
    assert _marks(root) == 2
    assert [node.get("fill") for node in root.iter() if node.get("class") == "mark"] == ["#4a9a5b", "#888888"]
    tune = {
        "trials": [{"number": 0, "value": 3.0, "state": "complete", "best": 3.0},
                   {"number": 1, "value": None, "state": "pruned", "best": 3.0},
                   {"number": 2, "value": 1.5, "state": "complete", "best": 1.5}],
        "front": [{"edits": 1, "value": 2.0, "targets_met": {"met": 7, "of": 8, "base_met": 6}},
                  {"edits": 2, "value": 1.5, "targets_met": {"met": 8, "of": 8, "base_met": 6}}],
    }
    root = _parsed(plots.tune_progress(tune))
    assert _marks(root) == 2 + 3
    assert _texts(root, "axis-label") == ["trial", "weighted shortfall"]
    root = _parsed(plots.tune_front(tune))
    assert _marks(root) == 2
    # the targets with weight met, as the candidates' table and the proposal count them (#36 item 0)
    assert _texts(root, "note") == ["7 of 8 met", "8 of 8 met"]


def test_the_same_summary_draws_the_same_figure(summary: dict) -> None:
    assert plots.pace(summary) == plots.pace(copy.deepcopy(summary))


def test_ticks_are_round_numbers() -> None:
    assert svg_chart.nice_ticks(0, 0.37) == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert svg_chart.nice_ticks(3, 27) == [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0]
    assert svg_chart.nice_ticks(5, 5) == [5]
    assert not math.isnan(sum(svg_chart.nice_ticks(-12.5, 40)))
    assert doctest.testmod(svg_chart).failed == 0
