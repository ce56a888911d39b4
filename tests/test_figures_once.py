"""Every figure said once and the same way (issue #28 item 0; docs/simulation.md, "Design
targets", "The verdict"): one interval per figure wherever it is shown, one counting rule for the
targets met, differences B - A with their direction in words, the summary's count of targets not
met and its list made from one list, a sequential verdict that says why it differs from the
fixed-sample one. Small crafted inputs or a few dozen seeded games."""

from __future__ import annotations

import html
import re

import pytest
import simulated_games

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import summarize
from stargazer_rules.analysis.report import render_report
from stargazer_rules.analysis.target_check import interval_text
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.target_verdict import change_text, met_counts, verdict_of
from stargazer_rules.analysis.targets import Target, Targets
from stargazer_rules.analysis.terminal import terminal_summary

DRAFT7 = load_ruleset("draft7")
ADVANTAGE = Target(measure="crew_picker_advantage", goal="within", bound=0.10)
#: every crew card is picked in less than 99% of its rounds in play: one target missed by many
ALWAYS_PICKED = Target(measure="crew_pick_share", goal="at_least", bound=0.99)


@pytest.fixture(scope="module")
def summary() -> dict:
    games = simulated_games.run(ruleset="draft7", lineup=("random",) * 4, blocks=10)
    targets = Targets(targets=(ADVANTAGE, ALWAYS_PICKED)).with_settings(["min_card_games=0"])
    return summarize(games, ruleset=DRAFT7, targets=targets)


def test_the_picker_advantage_has_one_interval_in_the_crew_table_and_the_targets(summary):
    """The crew table's interval of a crew's picker advantage is the one its target is judged by
    (the bootstrap of the games), not a second (Newcombe's) beside it; on the page, both tables
    show the same text for the worst crew."""
    (answer,) = [a for a in summary["targets"]["targets"] if a["measure"] == "crew_picker_advantage"]
    judged = {s["subject"]: s for s in answer["subjects"]}
    cards = summary["crew"]["cards"]
    assert len(cards) == len(judged) > 5
    for card in cards:
        subject = judged[card["crew"]]
        advantage = card["picker_advantage"]
        assert (advantage["difference"], advantage["low"], advantage["high"]) == (
            subject["value"], subject["low"], subject["high"])
    worst = next(card for card in cards if card["crew"] == answer["worst"])["picker_advantage"]
    page = html.unescape(render_report(summary))
    shown = interval_text(MEASURES["crew_picker_advantage"], worst["low"], worst["high"])
    crew_row = re.search(rf'<tr id="crew-{answer["worst"]}">.*?</tr>', page).group(0)
    target_row = re.search(r"<tr[^>]*><td class=\"text\">Crew picker advantage</td>.*?</tr>", page).group(0)
    assert shown in crew_row and shown in target_row


def test_the_count_of_targets_not_met_is_the_length_of_its_list(summary):
    """One target missed by twelve crew cards is one target not met, in the targets line and in
    the list below it, whose item names the target and lists its cards."""
    text = terminal_summary(summary)
    assert "targets: 0 of 2 met, 1 not met, 1 not yet known (defaults)" in text
    lines = text.splitlines()
    at = lines.index("targets not met (1):")
    assert lines[at + 1] == f"  - Crew picked, missed by {len(summary['findings'])}:"
    assert len(summary["findings"]) == 12 and lines[at + 2].startswith("    - Captain Armstrong: crew picked")
    page = html.unescape(render_report(summary))
    assert "<h3 id=\"findings\">Targets not met (1)</h3>" in page
    assert "<li>Crew picked, missed by 12:<ul>" in page


# -- the comparison ----------------------------------------------------------------------------


def _answer(key: str, status: str) -> dict:
    return {"key": key, "label": key.replace("_", " ").capitalize(), "status": status}


def test_a_target_decided_in_one_run_only_counts_for_neither():
    """The skill depth measured by a ladder of draft7 only: draft7's 8 of 12 and draft8's 7 of 12
    would compare different things; over the 11 targets decided in both runs each meets 7, and
    the headline names the one not counted."""
    keys = [f"target_{k}" for k in range(11)]
    draft7 = [_answer(key, "met" if k < 7 else "not_met") for k, key in enumerate(keys)] + [_answer("skill_depth", "met")]
    draft8 = [_answer(key, "met" if k < 7 else "not_met") for k, key in enumerate(keys)] + [_answer("skill_depth", "unknown")]
    met = met_counts(draft7, draft8)
    assert (met["a"], met["b"]) == ([7, 11], [7, 11])
    assert met["one_side"] == [{"key": "skill_depth", "label": "Skill depth", "a": "met", "b": "unknown"}]
    row = {"key": "tie_rate", "measure": "tie_rate", "label": "Tie rate", "unit": "share", "weight": 1.0,
           "margin": 0.02, "goal_text": "at most 10%", "games": 1800, "compared": True,
           "a": {"shortfall": 0.1, "worst_label": None, "shown": "20.0%"},
           "b": {"shortfall": 0.0, "worst_label": None, "shown": "8.0%"}, "change": -0.1, "se": 0.01}
    decided = verdict_of([row], confidence=0.95, label_a="draft7", label_b="draft8", met=met)
    assert decided["text"] == (
        "Better: draft8 meets 7 of 11 targets decided in both runs (draft7: 7 of 11; not counted, decided in "
        "draft7 only: skill depth): better on tie rate (20.0% -> 8.0%), worse on none, inconclusive on none "
        "(over 1,800 paired games).")


def test_a_shortfall_change_is_b_minus_a_with_its_direction_in_words():
    row = {"change": 0.061, "low": 0.02, "high": 0.102}
    assert change_text(row) == "B - A +0.061 [+0.020, +0.102]: B misses by 0.061 more (lower is better)"
    assert change_text({"change": -0.061, "low": -0.1, "high": -0.02}).endswith(": B misses by 0.061 less (lower is better)")
    assert change_text({"change": 0.0, "low": 0.0, "high": 0.0}).endswith(": the same shortfall (lower is better)")
