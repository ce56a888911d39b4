"""report.html and comparison.html speak in words: no identifier from the summary or the
comparison (a metric id such as ``seats.balance``, a finding's kind such as
``crew_picker_advantage``, an end condition such as ``hand_empty``) is shown as a reader's text.

The pages are parsed as a browser would show them: the text of every element but ``<style>``,
``<script>`` and ``<code>`` (a name a reader types, such as a bound's ``--bound`` name, or a file
of the docs, is code and is shown as code), the plots' SVG text included, the closed
``<details>`` too (a click opens them). Every id a page would show gets its words from
``analysis.labels`` or from the metric's own label.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import simulated_games

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import (
    Targets,
    compare_summaries,
    summarize,
    terminal_comparison,
    write_comparison,
)
from stargazer_rules.analysis.labels import end_condition, metric_label
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.report import write_report

#: An identifier: snake_case (``hand_empty``) or dotted (``seats.balance``, ``simulation.md``).
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:[_.][a-z0-9]+)+\b")
#: Targets under which every figure of a small run is a near miss or a finding: every kind of
#: row of the comparison is drawn.
EVERYTHING = Targets.default(near_miss=1.0, min_card_games=0)


class _ShownText(HTMLParser):
    """The text a reader is shown, element by element, leaving out style, script and code."""

    HIDDEN = frozenset({"style", "script", "code"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:  # type: ignore[no-untyped-def]
        if tag in self.HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.texts.append(data.strip())


def shown_text(page: str) -> list[str]:
    parser = _ShownText()
    parser.feed(page)
    parser.close()
    return parser.texts


def identifiers(page: str) -> list[str]:
    """Every identifier in the text a reader is shown, with the text around it."""
    return [text for text in shown_text(page) if IDENTIFIER.search(text)]


@pytest.fixture(scope="module")
def comparison() -> dict:
    """draft7 with a first-legal bot against three random ones, and base with first-legal bots
    only (ties in every game, the round limit reached): findings resolved and new, near misses
    of every kind, end conditions, rules that differ."""
    a = simulated_games.run(ruleset="draft7", lineup=("first", "random", "random", "random"), blocks=3)
    b = simulated_games.run(ruleset="base", lineup=("first",) * 4, blocks=3)
    return compare_summaries(a, b, label_a="draft7", label_b="base", targets=EVERYTHING,
                             ruleset_a=load_ruleset("draft7"), ruleset_b=load_ruleset("base"))


def test_comparison_page_shows_no_identifier(comparison: dict, tmp_path: Path) -> None:
    """No metric id, finding kind, end condition or method shows in comparison.html: each has
    its words."""
    near = comparison["near_misses"]
    assert len({row["kind"] for side in ("a", "b") for row in near[side]}) >= 4
    assert comparison["findings_diff"] and comparison["rules_diff"]
    assert any(metric["id"].startswith("pace.trigger.") for metric in comparison["metrics"])
    write_comparison(comparison, tmp_path)
    page = (tmp_path / "comparison.html").read_text(encoding="utf-8")
    assert identifiers(page) == []


def test_near_misses_name_their_figure_in_words(comparison: dict, tmp_path: Path) -> None:
    """A near miss's "target" cell is its measure's label (analysis.measures, the one place)."""
    write_comparison(comparison, tmp_path)
    texts = shown_text((tmp_path / "comparison.html").read_text(encoding="utf-8"))
    near = comparison["near_misses"]
    for measure in {row["measure"] for side in ("a", "b") for row in near[side]}:
        assert MEASURES[measure].label in texts, measure


def test_end_conditions_are_named_in_the_catalogues_words(comparison: dict) -> None:
    """An end condition's metric is labelled with the words the game's own messages give it
    (text/messages.yaml, ``triggers``), on the page and in the terminal."""
    by_id = {metric["id"]: metric for metric in comparison["metrics"]}
    assert end_condition("hand_empty") == "a player has no cubes left"
    assert metric_label(by_id["pace.trigger.round_limit"]) == "Games ending because the round limit was reached"
    assert metric_label(by_id["seats.balance"]) == by_id["seats.balance"]["label"] == "Seat balance"
    terminal = terminal_comparison(comparison)
    assert "hand_empty" not in terminal and "crew_first_pick" not in terminal


@pytest.mark.parametrize(("ruleset", "lineup"), [("draft7", ("random",) * 4), ("base", ("greedy",) * 3)])
def test_report_page_shows_no_identifier(ruleset: str, lineup: tuple[str, ...], tmp_path: Path) -> None:
    """report.html names end conditions in words; a setting's name is shown as code."""
    write_report(summarize(simulated_games.run(ruleset=ruleset, lineup=lineup, blocks=2)), tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert identifiers(page) == []
    assert "<code>min_card_games</code>" in page
    assert end_condition("planets_full") in shown_text(page)
