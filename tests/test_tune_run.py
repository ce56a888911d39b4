"""``stargazer tune`` end to end (``tuning.tune_run``, ``tuning.tune_report``, the command) on
draft 7 with a small space and targets an edit clearly meets: greedy bots, one worker, a few
dozen games a candidate, so the work is bounded by games, not by time."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from stargazer_rules.analysis.measures import MeasureContext
from stargazer_rules.analysis.target_check import check_targets
from stargazer_rules.analysis.targets_file import read_targets
from stargazer_rules.errors import Problem, RulesetError
from stargazer_rules.formats.game_lines import GAMES_FILE
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.loader import load_ruleset, short_fingerprint
from stargazer_rules.simulation.runner import read_games
from stargazer_rules.tuning import tune_run
from stargazer_rules.analysis.brief import said_once

SPACE = """\
space:
  rules.cubes_per_player: [12, 8, 6]
  rules.motivation.free_cube_vp: [1, 2]
max_edits: 1
"""
#: Fewer cubes a player end the game sooner (R10): 6 cubes meet the rounds target, 12 do not.
TARGETS = """\
targets:
  - {measure: game_rounds, at_most: 3.0}
  - {measure: tie_rate, at_most: 0.5}
"""


@pytest.fixture
def tune_files(tmp_path):
    (tmp_path / "tune.yaml").write_text(SPACE, encoding="utf-8")
    (tmp_path / "targets.yaml").write_text(TARGETS, encoding="utf-8")
    return tmp_path


def tune_args(folder, *more):
    return ["tune", "draft7", "--space", str(folder / "tune.yaml"), "--targets", str(folder / "targets.yaml"),
            "--bots", "greedy", "--workers", "1", "--trials", "6", "--games-per-trial", "48",
            "--recheck-games", "96", "--out", str(folder / "out"), "--cache", str(folder / "cache"), *more]


def trial_lines(err):
    return [line for line in err.splitlines() if line.startswith("stargazer tune: trial ")]


@pytest.mark.slow
def test_tune_proposes_the_edit_that_meets_the_missed_target(tune_files, capsys):
    assert main(tune_args(tune_files)) == 0
    out, err = capsys.readouterr()
    facts = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    # the space holds 4 assignments of at most one edit: all played, the base first
    assert facts["counts"]["complete"] + facts["counts"]["pruned"] == 4
    assert facts["trials"][0]["edits"] == {} and facts["trials"][0]["state"] == "complete"
    assert facts["base"]["missed"] == ["game_rounds"]
    assert facts["proposal"]["edits"] == {"rules.cubes_per_player": 6}
    assert facts["rechecks"][0]["decision"] == "better"
    proposal = load_ruleset(str(tune_files / "out" / "proposal"))
    assert proposal.cubes_per_player == 6
    assert "knob cubes_per_player: 12 -> 6" in out
    assert facts["proposal"]["text"].startswith(
        f"Proposed: the edits of trial {facts['proposal']['trial']} (in {tune_files / 'out' / 'proposal'}): better "
        "than the base on rounds per game, worse on none; in the re-check's fresh games it meets ")
    # the table and the proposal count the same targets the same way (#36): both targets have weight
    recheck = facts["rechecks"][0]
    assert recheck["targets_met"]["of"] == 2 and recheck["met"] == [recheck["targets_met"]["met"], 2]
    (searched,) = [c for c in facts["candidates"] if c["trial"] == facts["proposal"]["trial"]]
    assert searched["targets_met"]["games"] == "search" and searched["targets_met"]["of"] == 2
    assert out.startswith(f"draft7 tuned, greedy bots: {facts['counts']['complete'] + facts['counts']['pruned']} "
                          f"candidates played\n\nThe answer: Yes: the edits of trial {facts['proposal']['trial']} make "
                          "draft7 better on rounds per game, and worse on none.\n\nWhat the proposal changes:\n"
                          "  - knob cubes_per_player: 12 -> 6.\n")
    assert f"      stargazer compare draft7 {tune_files / 'out' / 'proposal'}\n" in out
    assert len(out.splitlines()) <= 25 and said_once(out) == []
    page = (tune_files / "out" / "tune.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert f"{tune_files / 'tune.yaml'}: 2 parameters, at most 1 edit</td>" in page  # not "1 edits"
    lines = trial_lines(err)
    assert lines[0] == "stargazer tune: trial 0 (1 of 6 played): " + lines[0].split(": ", 2)[2]
    assert all(" left" in line for line in lines)
    # one line per candidate played; the samples not played are counted into the next line
    assert len(lines) == facts["counts"]["complete"] + facts["counts"]["pruned"]
    assert not any("not played," in line for line in lines)
    said = sum(int(n) for line in lines
               for n in re.findall(r"(\d+) (?:over max_edits|refused|repeated)", line.split(" (", 1)[-1]))
    played = [i for i, trial in enumerate(facts["trials"]) if trial["state"] in ("complete", "pruned")
              and not trial["invalid"] and not trial["repeat_of"]]
    assert said == sum(1 for trial in facts["trials"][: played[-1]] if trial["invalid"] or trial["repeat_of"])


@pytest.mark.slow
def test_the_objective_is_the_weighted_shortfall_of_the_targets(tune_files):
    assert main(tune_args(tune_files)) == 0
    facts = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    base = load_ruleset("draft7")
    games = read_games(tune_files / "out" / "runs" / f"draft7-{short_fingerprint(base.fingerprint)}" / GAMES_FILE)
    targets = read_targets(tune_files / "targets.yaml", base)
    section = check_targets(games, targets, MeasureContext.of(games, base), {})
    expected = sum(a["weight"] * max(0.0, a["miss"]) for a in section["targets"] if a["miss"] is not None)
    assert len(games) == 48
    assert facts["base"]["value"] == pytest.approx(expected)
    assert expected > 0


@pytest.mark.slow
def test_the_same_command_again_resumes_and_plays_nothing(tune_files, capsys):
    assert main(tune_args(tune_files)) == 0
    first = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    capsys.readouterr()
    assert main(tune_args(tune_files)) == 0
    _, err = capsys.readouterr()
    again = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    assert trial_lines(err) == []
    assert again["trials"] == first["trials"]
    assert again["proposal"]["edits"] == first["proposal"]["edits"]
    assert (tune_files / "out" / "proposal.previous").is_dir()


@pytest.mark.slow
def test_a_study_whose_objective_was_edited_is_refused_on_resume(tune_files, capsys):
    """The base's objective set to 0 in study.db would report the base as meeting every target:
    its games, read back from the cache, say otherwise, and nothing is written."""
    assert main(tune_args(tune_files)) == 0
    capsys.readouterr()
    study = tune_files / "out" / tune_run.STUDY_FILE
    connection = sqlite3.connect(study)
    with connection:
        connection.execute("UPDATE trial_values SET value = 0 WHERE trial_id = (SELECT min(trial_id) FROM trials)")
    connection.close()
    (tune_files / "out" / "tune.json").unlink()
    assert main(tune_args(tune_files)) == 1
    _, err = capsys.readouterr()
    assert re.fullmatch(
        rf"stargazer tune: {re.escape(str(study))}: trial 0 says its objective is 0, but its 48 games give [0-9.]+: "
        rf"the study was changed after this tool wrote it; to start afresh, delete {re.escape(str(study))} "
        r"and its -wal and -shm files if any \(the games played stay in the run cache\)\n", err)
    assert not (tune_files / "out" / "tune.json").exists()


@pytest.mark.slow
def test_a_candidate_that_does_not_load_is_counted_and_never_played(tune_files, monkeypatch, capsys):
    real = tune_run.apply_edits

    def refusing(ruleset, edits):
        if edits.get("rules.motivation.free_cube_vp") == 2:
            raise RulesetError([Problem("rules.yaml", 12, 3, "motivation.free_cube_vp", "refused for the test")])
        return real(ruleset, edits)

    monkeypatch.setattr(tune_run, "apply_edits", refusing)
    assert main(tune_args(tune_files)) == 0
    facts = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    refused = [row for row in facts["trials"] if row["edits"] == {"rules.motivation.free_cube_vp": 2}]
    assert refused and all(row["state"] in ("refused", "repeat") for row in refused)
    assert refused[0]["state"] == "refused"
    # counted apart from the samples over max_edits (#28 item 0)
    over = [row for row in facts["trials"] if row["state"] == "over_max_edits"]
    assert all(row["invalid"].endswith("more than max_edits (1)") for row in over)
    assert (facts["counts"]["refused"], facts["counts"]["over_max_edits"]) == (
        sum(1 for row in facts["trials"] if row["state"] == "refused"), len(over))
    page = (tune_files / "out" / "tune.html").read_text(encoding="utf-8")
    assert f"{facts['counts']['refused']} refused by the ruleset&#x27;s checks (not played)" in page
    assert refused[0]["invalid"].endswith("refused for the test")
    played = sorted(path.name for path in (tune_files / "out" / "runs").iterdir())
    assert len(played) == 3  # the base, 8 cubes and 6 cubes
    assert "trial" in capsys.readouterr().err


def test_a_space_with_problems_stops_before_any_game(tune_files, capsys):
    (tune_files / "tune.yaml").write_text("space:\n  rules.no_such_key: [1, 2]\n", encoding="utf-8")
    assert main(tune_args(tune_files)) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"stargazer tune: {tune_files / 'tune.yaml'}:2")
    assert not (tune_files / "out").exists()


@pytest.mark.slow
def test_over_several_player_counts_the_objective_is_the_sum_of_theirs(tune_files, capsys):
    """--players 3,4: every candidate plays both, each judged by the targets that apply to it
    (tie_rate here at 4 players only), and its objective is the sum of the two; the re-check
    compares base and candidate at both and proposes only an edit better at one and worse at none."""
    (tune_files / "targets.yaml").write_text(
        "targets:\n  - {measure: game_rounds, at_most: 3.0}\n  - {measure: tie_rate, at_most: 0.5, players: [4]}\n",
        encoding="utf-8")
    assert main(tune_args(tune_files, "--players", "3,4")) == 0
    capsys.readouterr()
    facts = json.loads((tune_files / "out" / "tune.json").read_text(encoding="utf-8"))
    base = load_ruleset("draft7")
    targets = read_targets(tune_files / "targets.yaml", base)
    expected, totals = 0.0, 0
    for players in (3, 4):
        folder = tune_files / "out" / "runs" / f"draft7-{short_fingerprint(base.fingerprint)}" / f"{players}p-greedy"
        games = read_games(folder / GAMES_FILE)
        judged = targets.for_variant(players, games[0]["seating"])
        value, variant_facts = tune_run.objective_of(games, judged, base)
        expected += value
        totals += variant_facts["total"]
        assert facts["trials"][0]["facts"]["variants"][f"{players}p greedy"]["total"] == len(judged.targets)
    assert [len(targets.for_variant(p, ("greedy",) * p).targets) for p in (3, 4)] == [1, 2]
    assert facts["base"]["value"] == pytest.approx(expected) and expected > 0
    base_facts = facts["trials"][0]["facts"]
    assert base_facts["total"] == totals == 3
    # each weighted target's status named with its variant, as the table and the proposal count them
    assert sorted(base_facts["statuses"]) == ["game_rounds@3p greedy", "game_rounds@4p greedy", "tie_rate@4p greedy"]
    assert [v["label"] for v in facts["settings"]["variants"]] == ["3p greedy", "4p greedy"]
    recheck = facts["rechecks"][0]
    assert set(recheck["variants"]) == {"3p greedy", "4p greedy"}
    assert recheck["decision"] == "better" and all(v["decision"] == "better" for v in recheck["variants"].values())
    assert facts["proposal"]["edits"] == {"rules.cubes_per_player": 6}
