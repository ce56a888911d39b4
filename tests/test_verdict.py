"""The verdict of a comparison (better, worse, equivalent, inconclusive) and the findings diff."""

from __future__ import annotations

import copy
import html
import re

import numpy as np
import pytest

import simulated_games
from stargazer_rules.analysis import Bounds, compare_summaries, terminal_comparison
from stargazer_rules.analysis.comparison_report import render_comparison
from stargazer_rules.analysis.findings_diff import findings_diff, near_misses
from stargazer_rules.analysis.verdict import decide, games_needed, verdict


def _rows(probabilities, games: int, seed: int) -> np.ndarray:
    """Credit rows of ``games`` games whose single winner is drawn with these seat probabilities."""
    rng = np.random.default_rng(seed)
    winners = rng.choice(len(probabilities), size=games, p=probabilities)
    return np.eye(len(probabilities))[winners]


UNEVEN = [0.40, 0.20, 0.20, 0.20]
EVEN = [0.25, 0.25, 0.25, 0.25]


def test_a_clearly_better_draft_is_better():
    """A favours seat 1 (40% against 20%); B is even: B's balance is higher beyond doubt."""
    result = verdict(_rows(UNEVEN, 2000, 1), _rows(EVEN, 2000, 2), label_a="draft7", label_b="draft8")
    assert result["decision"] == "better"
    assert result["low"] > 0 and result["difference"] == pytest.approx(result["b"] - result["a"])
    assert result["text"].startswith("Better: draft8 is better balanced than draft7 (balance ")
    assert result["games_needed"] is None


def test_a_clearly_worse_draft_is_worse():
    """The same runs the other way round: worse, with the interval below 0."""
    result = verdict(_rows(EVEN, 2000, 2), _rows(UNEVEN, 2000, 1))
    assert result["decision"] == "worse" and result["high"] < 0
    assert result["text"].startswith("Worse: B is less well balanced than A")


def test_an_identical_draft_is_equivalent():
    """The same games on both sides: change 0, both one-sided tests reject, equivalent."""
    rows = _rows(UNEVEN, 400, 3)
    result = verdict(rows, rows.copy())
    assert result["decision"] == "equivalent"
    assert result["difference"] == 0 and result["equivalence"]["low"] == 0 and result["equivalence"]["high"] == 0
    assert result["equivalence"]["p"] == 0.0
    assert "within ±0.020" in result["text"] and "two one-sided tests" in result["text"]


def test_a_small_change_measured_precisely_is_equivalent():
    """Nearly the same games (5 in 1,000 winners changed): the 90% interval lies inside ±0.02."""
    rows_a = _rows(EVEN, 4000, 4)
    rows_b = rows_a.copy()
    rows_b[::200] = np.roll(rows_b[::200], 1, axis=1)
    result = verdict(rows_a, rows_b)
    assert result["decision"] == "equivalent"
    assert -0.02 < result["equivalence"]["low"] <= result["equivalence"]["high"] < 0.02


def test_too_few_games_are_inconclusive_with_the_games_needed():
    """40 independent games each: no decision, and the games needed exceed the games played."""
    result = verdict(_rows(UNEVEN, 40, 5), _rows(EVEN, 40, 6))
    assert result["decision"] == "inconclusive"
    assert result["games_needed"] > 40
    assert f"about {result['games_needed']:,} paired games would decide it" in result["text"]


def test_fewer_than_two_games_give_no_verdict():
    """One paired game: inconclusive, without figures or a games-needed estimate."""
    result = verdict([[1, 0, 0, 0]], [[0, 1, 0, 0]])
    assert result["decision"] == "inconclusive" and result["difference"] is None
    assert result["games_needed"] is None
    assert result["text"] == "Inconclusive: fewer than 2 paired games of A and B; no verdict."


def test_the_decision_rules_and_the_games_needed_formula():
    """Equivalence wins over significance; the games needed scale with the squared standard error."""
    assert decide(0.01, 0.005, 0.015, 0.006, 0.014, 0.02) == "equivalent"
    assert decide(0.05, 0.01, 0.09, 0.02, 0.08, 0.02) == "better"
    assert decide(-0.05, -0.09, -0.01, -0.08, -0.02, 0.02) == "worse"
    assert decide(0.0, -0.05, 0.05, -0.04, 0.04, 0.02) == "inconclusive"
    # change 0.01, se 0.02 at 100 games (sd 0.2): equivalence needs (1.645 * 0.2 / 0.01)^2 = 1083 games
    assert games_needed(100, 0.01, 0.02, 0.02, 0.95) == 1083
    # change 0.05 beyond the margin: significance needs (1.96 * 0.2 / 0.05)^2 = 62 -> more than 100
    assert games_needed(100, 0.05, 0.02, 0.02, 0.95) == 101


# -- in the comparison ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def games() -> list[dict]:
    return simulated_games.run(ruleset="draft7", lineup=("random",) * 4, blocks=50)


def _with_winners(games, position_of):
    changed = copy.deepcopy(games)
    for number, game in enumerate(changed):
        game["winners"] = [(game["setup"]["start_player"] + position_of(number)) % game["players"]]
    return changed


def test_the_verdict_comes_first_in_the_terminal_json_and_html(games):
    """Even seats against a start player who wins every game: worse, stated first everywhere
    with the same figures as comparison.json."""
    even = _with_winners(games, lambda n: n % 4)
    favoured = _with_winners(games, lambda n: 0)
    comparison = compare_summaries(even, favoured, label_a="even", label_b="favoured")
    decided = comparison["verdict"]
    assert decided["decision"] == "worse" and decided["a"] == 1.0 and decided["b"] == 0.0
    balance = next(m for m in comparison["metrics"] if m["id"] == "seats.balance")
    assert (balance["low"], balance["high"]) == (decided["low"], decided["high"])
    text = terminal_comparison(comparison)
    assert text.splitlines()[0] == f"VERDICT: {decided['text']}"
    assert (f"balance 1.000 -> 0.000, change -1.000 [{decided['low']:+.3f}, {decided['high']:+.3f}] "
            "over 200 paired games") in decided["text"]
    assert decided["high"] < -0.5
    page = render_comparison(comparison)
    assert page.index('id="verdict"') < page.index("<nav>")
    shown = html.unescape(re.search(r'<section id="verdict".*?<strong>(.*?)</strong>', page).group(1))
    assert shown == decided["text"]
    top = comparison["top_changes"]
    assert top and top[0]["id"] == "seats.1.win_share"
    assert [t["effect"] for t in top] == sorted((t["effect"] for t in top), reverse=True)


def _summary(findings, crew=(), planets=(), balance=1.0):
    return {
        "findings": findings,
        "names": {"crew": {}, "planets": {}, "colours": {}},
        "crew": {"cards": list(crew)},
        "planets": {"cards": list(planets)},
        "seats": {"seats": [], "chi_square": {"p": 0.5}, "balance": {"value": balance}, "ties": {"rate": 0.0, "low": 0.0, "high": 0.05, "n": 100}},
        "pace": {"triggers": []},
    }


def _crew(crew, first, low, high, advantage=(0.0, -0.05, 0.05)):
    rate = {"rate": first, "low": low, "high": high, "n": 500, "count": first * 500}
    return {"crew": crew, "in_play": {"count": 100}, "picked_first": rate, "picked": {"rate": 0.6, "low": 0.55, "high": 0.65},
            "picker_advantage": dict(zip(("difference", "low", "high"), advantage))}


def _finding(kind, subject):
    return {"kind": kind, "section": "crew", "subject": subject, "anchor": f"crew-{subject}", "text": f"{kind} {subject}"}


def test_findings_are_resolved_new_or_persisting_with_the_change():
    """A finding only in A is resolved, only in B new, in both persisting; a status change
    whose metric change is not significant only crossed its bound."""
    a = _summary([_finding("crew_first_pick", "linguist"), _finding("crew_first_pick", "pilot")],
                 crew=[_crew("linguist", 0.6, 0.55, 0.65), _crew("pilot", 0.53, 0.505, 0.555), _crew("engineer", 0.3, 0.26, 0.34)])
    b = _summary([_finding("crew_first_pick", "pilot"), _finding("crew_picker_advantage", "engineer")],
                 crew=[_crew("linguist", 0.2, 0.17, 0.23), _crew("pilot", 0.55, 0.52, 0.58),
                       _crew("engineer", 0.3, 0.26, 0.34, advantage=(0.135, 0.105, 0.165))])
    a["crew"]["cards"][2]["picker_advantage"] = {"difference": 0.098, "low": 0.069, "high": 0.127}
    metrics = [
        {"id": "crew.linguist.picked_first", "kind": "rate", "difference": -0.4, "low": -0.45, "high": -0.35, "significant": True},
        {"id": "crew.pilot.picked_first", "kind": "rate", "difference": 0.02, "low": -0.02, "high": 0.06, "significant": False},
    ]
    rows = {row["subject"]: row for row in findings_diff(a, b, metrics, 0.95)}
    assert [row["status"] for row in findings_diff(a, b, metrics, 0.95)] == ["resolved", "new", "persisting"]
    assert rows["linguist"]["status"] == "resolved" and rows["linguist"]["change"]["significant"]
    assert not rows["linguist"]["crossed_bound_only"]
    engineer = rows["engineer"]
    assert engineer["status"] == "new" and engineer["crossed_bound_only"]
    assert engineer["change"]["difference"] == pytest.approx(0.037)
    assert not engineer["change"]["significant"]
    assert rows["pilot"]["status"] == "persisting" and not rows["pilot"]["crossed_bound_only"]


def test_near_misses_are_figures_close_to_their_bound_but_not_findings():
    """Picked first 48% (bound 50%) is a near miss; 30% is not; a finding is never a near miss."""
    summary = _summary([_finding("crew_first_pick", "pilot")],
                       crew=[_crew("navigator", 0.48, 0.44, 0.52), _crew("engineer", 0.30, 0.26, 0.34),
                             _crew("pilot", 0.7, 0.65, 0.75)])
    found = near_misses(summary, Bounds())
    assert [(row["subject"], row["kind"]) for row in found] == [("navigator", "crew_first_pick")]
    assert found[0]["distance"] == pytest.approx(0.02) and not found[0]["past_bound"]


def _cells(page: str, row_id: str) -> list[str]:
    """The text of each cell of the table row with this id."""
    row = re.search(rf'<tr id="{re.escape(row_id)}"[^>]*>(.*?)</tr>', page, re.S).group(1)
    return [html.unescape(re.sub(r"<[^>]+>", " ", cell)).split() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_every_metric_row_of_comparison_html_shows_the_numbers_of_comparison_json(games):
    """Each metric's A and B values, its difference and interval in comparison.html are those
    of comparison.json (a page that printed 1 - share, or swapped A and B, fails)."""
    favoured = _with_winners(games, lambda n: 0 if n % 3 else n % 4)
    comparison = compare_summaries(games, favoured, label_a="A", label_b="B")
    page = render_comparison(comparison)
    checked = 0
    for metric in comparison["metrics"]:
        if metric["a"]["value"] is None or metric["b"]["value"] is None or metric["kind"] == "p":
            continue
        cells = _cells(page, f"metric-{metric['id']}")
        for cell, side in ((cells[1], metric["a"]), (cells[2], metric["b"])):
            shown = f"{100 * side['value']:.1f}%" if metric["kind"] == "rate" else f"{side['value']:.3f}"
            assert cell[0] == shown, metric["id"]
        if metric["difference"] is not None:
            scale, digits = (100, 1) if metric["kind"] == "rate" else (1, 3)
            assert cells[3][0] == f"{scale * metric['difference']:+.{digits}f}", metric["id"]
            assert " ".join(cells[3]).endswith(
                f"[{scale * metric['low']:+.{digits}f}, {scale * metric['high']:+.{digits}f}]"), metric["id"]
        checked += 1
    assert checked > 100
