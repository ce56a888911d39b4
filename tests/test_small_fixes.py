"""The designer's small complaints of the verdict issue, each fixed and held by a test."""

from __future__ import annotations

import copy
import html
import re

from ruleset_edits import copy_ruleset, replace
from stargazer_rules.analysis import compare_summaries, summarize, terminal_comparison
from stargazer_rules.analysis.report import render_report
from stargazer_rules.frontends import cli
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.text.messages import describe_skill

import simulated_games


def test_a_count_of_one_is_one_cube_not_one_at_a_time(tmp_path):
    """place_on_crew, add_free_cubes and place_free_cubes with count 1 read as one cube, in
    both languages; count 2 keeps "one at a time"."""
    ruleset = load_ruleset("draft7")
    quartermaster, recruiter = ruleset.crew_card("quartermaster"), ruleset.crew_card("recruiter")
    assert describe_skill(quartermaster, ruleset, "en") == (
        "Gain 2 VP. Place 1 of your cubes on another crew of your choice; whoever picks that crew later "
        "scores the motivation bonus for it."
    )
    assert "1個ずつ" not in describe_skill(quartermaster, ruleset, "ja")
    assert "自分のキューブ1個を、好きな他のクルーに置く。" in describe_skill(quartermaster, ruleset, "ja")
    assert describe_skill(recruiter, ruleset, "en") == "Gain 1 VP. Put 1 free cube from the stock on another crew of your choice."
    assert "one at a time" in describe_skill(ruleset.crew_card("xenobiologist"), ruleset, "en")
    assert "1個ずつ" in describe_skill(ruleset.crew_card("xenobiologist"), ruleset, "ja")


def test_the_japanese_placeholder_note_does_not_name_draft_7(tmp_path, capsys):
    """`stargazer rules --lang ja` of any ruleset: the note says reconstructed, as the English does."""
    folder = copy_ruleset(tmp_path, to="other")
    replace(folder, "rules.yaml", "name: draft7", "name: other")
    assert cli.main(["rules", str(folder), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "草案７" not in out.split("\n", 1)[1]
    assert "\n* 仮の値（R20）：再構成した値。デザイナーが上書きする。\n" in out


def test_the_compare_table_prints_the_decimals_of_the_json():
    """Balance and means with three decimals in the terminal, as comparison.json holds them."""
    games = simulated_games.run(blocks=6)
    other = copy.deepcopy(games)
    for number, game in enumerate(other):
        game["winners"] = [(game["setup"]["start_player"] + (0 if number % 3 else 1)) % 4]
    comparison = compare_summaries(games, other)
    balance = next(m for m in comparison["metrics"] if m["id"] == "seats.balance")
    row = next(line for line in terminal_comparison(comparison).splitlines() if line.startswith("Seat balance"))
    assert row.split()[2:5] == [f"{balance['a']['value']:.3f}", f"{balance['b']['value']:.3f}", f"{balance['difference']:+.3f}"]


def test_report_seats_are_numbered_from_1_and_counts_do_not_wrap():
    """The table seats read "Table seat 1" to 4 (never 0); value:count lists break between pairs only;
    every table has a sortable heading driven by an inline script."""
    summary = summarize(simulated_games.run(blocks=3))
    assert [seat["label"] for seat in summary["table_seats"]["seats"]] == [f"Table seat {n}" for n in range(1, 5)]
    page = render_report(summary)
    assert "Table seat 0" not in page and "(0 first)" not in page
    # value:count lists wrap between pairs only: a pair holds no space to break at
    counts = [text for text in re.findall(r"<br><span class='note'>([^<]*)</span>", page) if ":" in text]
    assert counts and all(re.fullmatch(r"[\d,]+:[\d,]+( [\d,]+:[\d,]+)*", html.unescape(text)) for text in counts)
    assert page.count("<table>") == page.count('<div class="scroll"><table>')
    assert 'th.classList.add("sortable")' in page and "src=" not in page.split("<script>")[1]
