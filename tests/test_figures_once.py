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
from stargazer_rules.analysis.measures import MEASURES
from stargazer_rules.analysis.report import render_report
from stargazer_rules.analysis.sequential import apply_looks, decide_look
from stargazer_rules.analysis.target_check import interval_text
from stargazer_rules.analysis.target_verdict import change_text, met_counts, verdict_of
from stargazer_rules.analysis.targets import Target, Targets
from stargazer_rules.analysis.terminal import terminal_summary
from stargazer_rules.tuning.tune_run import proposal_text, proposed_of

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
    target_row = re.search(r"<tr[^>]*><td class=\"text\">Crew pickers' extra wins</td>.*?</tr>", page).group(0)
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
    listing = re.search(r'<ul class="findings">(.*)</ul>', page).group(1)
    assert listing.startswith("<li>Crew picked, missed by 12:<ul>") and listing.count("<li>") == 1 + 12


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


def test_a_target_called_better_is_never_also_named_not_counted():
    """Seat win share met in draft7 and not yet known in draft8 is counted for neither; when the
    paired games call it better, the headline names it once, as better."""
    met = met_counts([_answer("seat_win_share", "not_met"), _answer("tie_rate", "met")],
                     [_answer("seat_win_share", "unknown"), _answer("tie_rate", "met")])
    assert [row["key"] for row in met["one_side"]] == ["seat_win_share"]
    row = {"key": "seat_win_share", "measure": "seat_win_share", "label": "Seat win share", "unit": "share",
           "weight": 1.0, "margin": 0.02, "goal_text": "within ±3 points of 25.0%", "games": 1800, "compared": True,
           "a": {"shortfall": 0.075, "worst_label": "Seat 4", "shown": "32.5%"},
           "b": {"shortfall": 0.0, "worst_label": "Seat 4", "shown": "27.0%"}, "change": -0.075, "se": 0.01}
    decided = verdict_of([row], confidence=0.95, label_a="draft7", label_b="draft8", met=met)
    assert decided["text"] == (
        "Better: draft8 meets 1 of 1 targets decided in both runs (draft7: 1 of 1): better on seat win share "
        "(Seat 4 32.5% -> 27.0%), worse on none, inconclusive on none (over 1,800 paired games).")


def test_a_shortfall_change_is_b_minus_a_with_its_direction_in_words():
    row = {"change": 0.061, "low": 0.02, "high": 0.102}
    assert change_text(row) == "B - A +0.061 [+0.020, +0.102]: B misses by 0.061 more (lower is better)"
    assert change_text({"change": -0.061, "low": -0.1, "high": -0.02}).endswith(": B misses by 0.061 less (lower is better)")
    assert change_text({"change": 0.0, "low": 0.0, "high": 0.0}).endswith(": the same shortfall (lower is better)")


def test_a_sequential_look_says_why_it_leaves_open_what_the_fixed_sample_test_decides():
    """The same 1,800 paired games: a change of -0.05 with se 0.02 (z 2.5) is better by the
    fixed-sample test (boundary 1.96) and open at the first of four looks (boundary 3.92): the
    target and the headline say which test decides what, with both boundaries."""
    row = {"key": "crew_picker_advantage", "measure": "crew_picker_advantage", "label": "Crew pickers' extra wins",
           "unit": "points", "weight": 1.0, "margin": 0.02, "goal_text": "within ±10 points of 0", "games": 1800,
           "compared": True, "a": {"shortfall": 0.08, "worst_label": "Quartermaster", "shown": "-18.0 points"},
           "b": {"shortfall": 0.03, "worst_label": "Quartermaster", "shown": "-13.0 points"},
           "change": -0.05, "se": 0.02}
    met = {"a": [0, 1], "b": [0, 1], "one_side": []}
    decided = verdict_of([row], confidence=0.95, label_a="draft7", label_b="draft8", met=met)
    assert decided["targets"][0]["decision"] == "better"
    step = decide_look(-0.05, 0.02, 0.25, 0.0, confidence=0.95, margin=0.02)
    assert step["decision"] == "continue" and step["boundary"] == pytest.approx(3.92, abs=0.005)
    first = {"games": 1800, "fraction": 0.25, "max_games": 7200, "alpha_each": 0.05, "decision": "continue",
             "open": ["Crew pickers' extra wins"], "decided": {"crew_picker_advantage": "continue"},
             "targets": [{"key": "crew_picker_advantage", "label": "Crew pickers' extra wins", "weight": 1.0,
                          "change": -0.05, "se": 0.02, "decision": "continue", "boundary": step["boundary"]}]}
    comparison = {"verdict": decided, "a": {"label": "draft7"}, "b": {"label": "draft8"}}
    apply_looks(comparison, [first], 7200)
    (target,) = comparison["verdict"]["targets"]
    assert (target["fixed_decision"], target["decision"]) == ("better", "inconclusive")
    assert target["differs"] == (
        "crew pickers' extra wins: better by the fixed-sample test (|change| > 1.96 standard errors), inconclusive at "
        "look 1 of at most 4 (|change| > 3.92 standard errors)")
    assert comparison["verdict"]["text"].endswith(
        "O'Brien-Fleming alpha spending. The fixed-sample test of the same games decides otherwise on "
        f"{target['differs']}: a look spends only part of the error budget, so its boundary lies further out than "
        "the fixed-sample test's.")


# -- tune ----------------------------------------------------------------------------------------


def _recheck(trial: int, value: float, met: int, decision: str = "better", unknown=("Seat balance",)) -> dict:
    return {"trial": trial, "value": value, "decision": decision, "met": [met, 11], "base_met": [7, 11],
            "one_side": ["Skill depth"], "not_met": ["Crew picked first"] * (11 - met - len(unknown)),
            "unknown": list(unknown),
            "targets": [{"key": "tie_rate", "label": "Tie rate", "decision": "better"},
                        {"key": "seat_balance", "label": "Seat balance", "decision": "inconclusive"}]}


def test_a_tune_proposal_is_ranked_by_the_targets_it_meets_then_the_objective():
    """Trial 3 has the lowest objective but meets 7 targets like the base; trial 5 meets 8: it is
    proposed. Between two that meet as many, the lower objective wins; a worse one never."""
    assert proposed_of([_recheck(3, 0.10, 7), _recheck(5, 0.20, 8), _recheck(9, 0.05, 9, "mixed")])["trial"] == 5
    assert proposed_of([_recheck(5, 0.20, 8), _recheck(6, 0.15, 8)])["trial"] == 6
    assert proposed_of([_recheck(3, 0.10, 9, "inconclusive")]) is None


def test_a_tune_proposal_is_described_by_the_targets_it_meets_and_leaves_open():
    assert proposal_text(_recheck(3, 0.10, 7), "out/proposal") == (
        "Proposed: the edits of trial 3 (in out/proposal): better than the base on tie rate, worse on none; in the "
        "re-check's fresh games it meets 7 of 11 targets with weight decided in both runs, as the base does (not "
        "counted, decided in one run only: skill depth); not met: crew picked first, crew picked first, crew picked "
        "first; not yet known: seat balance.")
    assert ", where the base meets 7 (" in proposal_text(_recheck(5, 0.2, 8), "out/proposal")


# -- the briefs on the terminal -----------------------------------------------------------------


def _terminal_brief(text: str) -> str:
    """What a command prints before the line naming its files."""
    brief, _, files = text.partition("\n\nEvery figure: ")
    assert files, text
    return brief


def test_no_figure_is_said_twice_by_compare_tune_explain_or_calibrate(tmp_path, capsys):
    """Each of the four commands' briefs, from a few quick games: at most about 25 lines, and no
    figure (a decimal, a percentage, a count of thousands) said twice."""
    from stargazer_rules.analysis.brief import said_once
    from stargazer_rules.frontends.cli import main
    from stargazer_rules.playtests import folder
    from stargazer_rules.playtests.sources import log_from_game_line
    from stargazer_rules.simulation.rung_runs import one_per_deal, rung_run

    quick = ["--workers", "1", "--cache", str(tmp_path / "cache")]
    (tmp_path / "tune.yaml").write_text("space:\n  rules.cubes_per_player: [12, 6]\nmax_edits: 1\n", encoding="utf-8")
    (tmp_path / "targets.yaml").write_text("targets:\n  - {measure: game_rounds, at_most: 3.0}\n", encoding="utf-8")
    logs = tmp_path / "logs"
    games = rung_run(DRAFT7, "random", players=4, deals=12, seed=10_000, out=tmp_path / "played", workers=1,
                     cache=tmp_path / "cache").games
    for line in one_per_deal(games):
        folder.add_log(DRAFT7, log_from_game_line(line, date="2026-12-01"), folder=logs)
    commands = [
        ["compare", "draft7", "base", "--games", "8", "--bots", "random", "--out", str(tmp_path / "compare")],
        ["explain", "--rules", "draft7", "--games", "24", "--bots", "random", "--cards", "engineer,lava-1",
         "--out", str(tmp_path / "explain")],
        ["tune", "draft7", "--space", str(tmp_path / "tune.yaml"), "--targets", str(tmp_path / "targets.yaml"),
         "--bots", "random", "--trials", "2", "--games-per-trial", "16", "--recheck-games", "16",
         "--out", str(tmp_path / "tune")],
        ["calibrate", "--from", str(logs), "--rungs", "random,greedy", "--deals", "12", "--out", str(tmp_path / "cal")],
    ]
    for command in commands:
        assert main([*command, *quick]) == 0, command
        brief = _terminal_brief(capsys.readouterr().out)
        assert len(brief.splitlines()) <= 25, brief
        assert said_once(brief) == [], brief
        for word in ("Bonferroni", "Holm", "rung", "picker advantage", "seat balance", "paired games"):
            assert word not in brief, (word, brief)


#: The words a designer does not use, as the terminal must not say them (the glossary in
#: docs/simulation.md keeps the few that remain; the pages and JSON files may say them).
STATISTICIANS_WORDS = re.compile(r"\b(?:rungs?|Holm(?:-adjusted)?|Bonferroni|paired games|arms?|picker advantage|"
                                 r"seat balance)\b", re.IGNORECASE)


@pytest.mark.parametrize("command", ["simulate", "compare", "tune", "explain", "calibrate", "ladder", "report",
                                     "playtest", "playtest report", "cache list"])
def test_the_help_texts_speak_a_designers_words(command, capsys):
    """`stargazer calibrate --help` said "rung" and "Holm-adjusted", explain's "arms" and "picker
    advantage": each command's help, and the list of commands, in plain words. An option's name
    (``--rungs``, ``--arm-games``) may stay; its help says what it is in plain words."""
    from stargazer_rules.frontends.cli import main

    with pytest.raises(SystemExit):
        main([*command.split(), "--help"])
    text = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    text += capsys.readouterr().out
    words = re.sub(r"--[\w-]+|max_picker_advantage", "", text)  # option names and --bound's former names
    assert STATISTICIANS_WORDS.findall(words) == [], text
    assert "%%" not in text
