"""Several lineups and player counts in one command (``simulation.variants``,
``analysis.variant_verdict``): parsing ``--bots 'a;b' --players 3,4``, targets.yaml's
``players`` and ``lineups``, and simulate / compare end to end on few greedy and random games
(bounded by games, never by time)."""

from __future__ import annotations

import json

import pytest

from stargazer_rules.analysis.targets import Target, Targets
from stargazer_rules.analysis.targets_file import read_targets
from stargazer_rules.analysis.variant_verdict import across_runs, overall_decision
from stargazer_rules.errors import BotSpecError, TargetsError
from stargazer_rules.formats import jsonio
from stargazer_rules.formats.game_lines import GAMES_FILE
from stargazer_rules.frontends.cli import main
from stargazer_rules.simulation import parse_lineup
from stargazer_rules.simulation.runner import read_games
from stargazer_rules.simulation.variants import Variant, parse_player_counts, parse_variants

GREEDY, RANDOM = parse_lineup("greedy", 1)[0], "random"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- parsing -----------------------------------------------------------------------------------


def test_lineups_split_on_semicolons_and_play_at_every_player_count_in_order():
    variants = parse_variants(["greedy;random"], (3, 4))
    assert [v.label for v in variants] == ["3p greedy", "3p random", "4p greedy", "4p random"]
    assert variants[0].lineup == (GREEDY,) * 3 and variants[3].lineup == (RANDOM,) * 4
    assert [v.folder for v in variants] == ["3p-greedy", "3p-random", "4p-greedy", "4p-random"]


def test_a_repeated_bots_without_semicolons_is_still_one_lineup_of_seats():
    """Every command line of before keeps its meaning: --bots mcts:400 --bots greedy is one lineup."""
    (variant,) = parse_variants(["random", "greedy"], (4,))
    assert variant.lineup == (RANDOM, GREEDY, GREEDY, GREEDY)
    (comma,) = parse_variants(["mcts:iterations=400,c=1.4"], (3,))  # ',' stays inside a bot spec
    assert comma.lineup == parse_lineup("mcts:iterations=400,c=1.4", 3)


@pytest.mark.parametrize(("bots", "said"), [
    (["greedy;random", "greedy"], "is given once"),
    (["greedy;;random"], "empty lineup"),
    (["greedy;greedy:hand=0.5"], "given twice"),
    (["greedy,random"], "several lineups are separated by ';'"),
])
def test_a_wrong_list_of_lineups_is_one_error_that_says_how(bots, said):
    with pytest.raises(BotSpecError, match=said):
        parse_variants(bots, (4,))


def test_player_counts_are_a_comma_list_each_once():
    assert parse_player_counts("4") == (4,)
    assert parse_player_counts("3, 4") == (3, 4)
    for wrong, said in (("3,3", "given twice"), ("3,x", "not a whole number"), ("0", "not at least 1")):
        with pytest.raises(ValueError, match=said):
            parse_player_counts(wrong)


# -- targets that name player counts and lineups ------------------------------------------------


def test_a_target_applies_to_the_player_counts_and_lineups_it_names():
    three = Target(measure="tie_rate", goal="at_most", bound=0.1, players=(3,))
    greedy = Target(measure="game_rounds", goal="at_most", bound=9, lineups=("greedy",))
    every = Target(measure="seat_balance", goal="at_least", bound=0.9)
    targets = Targets(targets=[three, greedy, every])
    assert targets.for_variant(3, (GREEDY,) * 3).targets == (three, greedy, every)
    assert targets.for_variant(4, (GREEDY,) * 4).targets == (greedy, every)
    assert targets.for_variant(4, (RANDOM, GREEDY, GREEDY, GREEDY)).targets == (every,)
    # the lineup fills the seats as --bots does: random/greedy is this lineup at any count
    mixed = Target(measure="tie_rate", goal="at_most", bound=0.1, lineups=("random/greedy",))
    assert mixed.applies_to(4, (RANDOM, GREEDY, GREEDY, GREEDY)) and mixed.applies_to(3, (RANDOM, GREEDY, GREEDY))
    assert Target.from_json(three.to_json()) == three and three.to_json()["players"] == [3]


def test_a_targets_file_with_a_misspelt_lineup_is_refused_where_it_is_written(tmp_path):
    path = tmp_path / "targets.yaml"
    path.write_text("targets:\n  - {measure: tie_rate, at_most: 0.1, players: [3]}\n"
                    "  - {measure: tie_rate, at_most: 0.1, lineups: [greedy, 'mcst:200']}\n"
                    "  - {measure: tie_rate, at_most: 0.1, players: [0]}\n", encoding="utf-8")
    with pytest.raises(TargetsError) as caught:
        read_targets(path)
    problems = [str(problem) for problem in caught.value.problems]
    assert len(problems) == 1 and problems[0].startswith(f"{path}:4:")  # the schema first: players [0]
    path.write_text(path.read_text(encoding="utf-8").replace("players: [0]", "players: [4]"), encoding="utf-8")
    with pytest.raises(TargetsError) as caught:
        read_targets(path)
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:3:") and "targets[1].lineups[1]" in str(problem)
    assert "did you mean 'mcts'?" in str(problem)


# -- the verdict across variants ---------------------------------------------------------------


def _summary(statuses: dict[str, str], games: int = 12) -> dict:
    answers = [{"key": key, "label": key.replace("_", " ").capitalize(), "goal_text": "at most 10%", "weight": 1.0,
                "status": status} for key, status in statuses.items()]
    counts = {status: sum(1 for s in statuses.values() if s == status) for status in ("met", "not_met", "unknown")}
    return {"run": {"games": games}, "targets": {"targets": answers, "total": len(answers), **counts}}


def test_the_headline_names_the_variants_where_a_target_fails():
    variants = [Variant(3, (GREEDY,) * 3, "greedy").to_json(), Variant(4, (GREEDY,) * 4, "greedy").to_json()]
    held = across_runs(variants, [_summary({"tie_rate": "met"}), _summary({"tie_rate": "met"})], "defaults")
    assert held["decision"] == "holds" and held["text"].startswith("Holds at all 2 variants.")
    failed = across_runs(variants, [_summary({"tie_rate": "not_met", "game_rounds": "met"}),
                                    _summary({"tie_rate": "met"})], "defaults")
    assert failed["decision"] == "fails"
    assert failed["text"].startswith("Fails at 3p greedy: tie rate (3p greedy).")
    rounds = next(row for row in failed["targets"] if row["key"] == "game_rounds")
    assert rounds["statuses"] == ["met", "not applying"] and rounds["holds"] == "holds" and rounds["applies_at"] == 1
    assert jsonio.schema_problems("variants", failed) == []


@pytest.mark.parametrize(("decisions", "overall"), [
    (["better", "better"], "better"),
    (["better", "inconclusive", "equivalent"], "better"),
    (["better", "worse"], "mixed"),
    (["mixed", "equivalent"], "mixed"),
    (["worse", "inconclusive"], "worse"),
    (["equivalent", "equivalent"], "equivalent"),
    (["equivalent", "inconclusive"], "inconclusive"),
])
def test_the_decision_over_variants_is_better_only_when_worse_nowhere(decisions, overall):
    assert overall_decision(decisions) == overall


# -- end to end --------------------------------------------------------------------------------

TARGETS = """\
targets:
  - {measure: tie_rate, at_most: 0.9}
  - {measure: game_rounds, at_most: 1.0, players: [3]}
  - {measure: seat_balance, at_least: 0.0, lineups: [random]}
"""


def test_simulate_plays_a_run_per_variant_on_the_same_deals_and_judges_each_by_its_targets(tmp_path, capsys):
    (tmp_path / "targets.yaml").write_text(TARGETS, encoding="utf-8")
    out = tmp_path / "sim"
    status, stdout, stderr = cli(capsys, "simulate", "--bots", "greedy;random", "--players", "3,4", "--games", "12",
                                 "--workers", "1", "--targets", str(tmp_path / "targets.yaml"), "--out", str(out))
    assert status == 0, stderr
    overview = json.loads((out / "variants.json").read_text(encoding="utf-8"))
    assert jsonio.schema_problems("variants", overview) == []
    assert [v["label"] for v in overview["variants"]] == ["3p greedy", "3p random", "4p greedy", "4p random"]
    rows = {row["key"]: row for row in overview["targets"]}
    # games at 3 players last more than one round (R10): the 3-player target fails there only
    assert rows["game_rounds"]["statuses"] == ["not_met", "not_met", "not applying", "not applying"]
    assert rows["seat_balance"]["statuses"][0::2] == ["not applying", "not applying"]
    assert overview["decision"] == "fails" and overview["text"].startswith("Fails at 3p greedy, 3p random: rounds per game")
    page = (out / "variants.html").read_text(encoding="utf-8")
    assert overview["text"] in stdout and page.startswith("<!DOCTYPE html>")
    assert all(f'href="{v["folder"]}/report.html"' in page for v in overview["variants"])
    for variant in overview["variants"]:
        summary = json.loads((out / variant["folder"] / "summary.json").read_text(encoding="utf-8"))
        assert summary["targets"]["total"] == variant["total"]
        assert jsonio.schema_problems("summary", summary) == []
    # report reads a variant's folder as any run's, judged by the targets that apply to it
    status, _stdout, stderr = cli(capsys, "report", str(out / "4p-greedy"), "--targets", str(tmp_path / "targets.yaml"))
    assert status == 0, stderr
    again = json.loads((out / "4p-greedy" / "summary.json").read_text(encoding="utf-8"))
    assert [a["key"] for a in again["targets"]["targets"]] == ["tie_rate"]
    # paired: at one player count both lineups play the same deals in the same seat rotations
    greedy, random = (read_games(out / folder / GAMES_FILE) for folder in ("3p-greedy", "3p-random"))
    assert [(g["deal_seed"], g["rotation"]) for g in greedy] == [(g["deal_seed"], g["rotation"]) for g in random]
    # a variant is exactly today's run: the same simulate of one variant is found in the cache
    status, _stdout, stderr = cli(capsys, "simulate", "--bots", "random", "--players", "4", "--games", "12",
                                  "--workers", "1", "--out", str(tmp_path / "one"))
    assert status == 0 and "played" not in stderr, stderr
    assert read_games(tmp_path / "one" / GAMES_FILE) == read_games(out / "4p-random" / GAMES_FILE)


@pytest.mark.slow
def test_compare_gives_a_verdict_per_variant_and_one_over_them(tmp_path, capsys):
    out = tmp_path / "cmp"
    status, stdout, stderr = cli(capsys, "compare", "draft7", "base", "--bots", "random;greedy", "--players", "3,4",
                                 "--games", "12", "--workers", "1", "--out", str(out))
    assert status == 0, stderr
    overview = json.loads((out / "variants.json").read_text(encoding="utf-8"))
    assert jsonio.schema_problems("variants", overview) == []
    decisions = []
    for variant in overview["variants"]:
        comparison = json.loads((out / variant["folder"] / "comparison.json").read_text(encoding="utf-8"))
        assert comparison["verdict"]["decision"] == variant["decision"]
        decisions.append(variant["decision"])
        first, second = (read_games(out / variant["folder"] / name / GAMES_FILE) for name in ("draft7", "base"))
        assert [g["deal_seed"] for g in first] == [g["deal_seed"] for g in second]
    assert overview["decision"] == overall_decision(decisions)
    assert overview["text"] in stdout and "base against draft7" in overview["text"]


def test_one_variant_writes_what_it_always_wrote(tmp_path, capsys):
    """A single lineup and player count: no variants.json, the run in OUT itself."""
    out = tmp_path / "sim"
    status, _stdout, stderr = cli(capsys, "simulate", "--bots", "random", "--players", "3", "--games", "3",
                                  "--workers", "1", "--out", str(out))
    assert status == 0, stderr
    assert (out / GAMES_FILE).is_file() and not (out / "variants.json").exists()


def test_a_player_count_a_ruleset_cannot_seat_stops_before_any_game(tmp_path, capsys):
    status, _stdout, stderr = cli(capsys, "simulate", "--bots", "random", "--players", "3,9", "--games", "3",
                                  "--workers", "1", "--out", str(tmp_path / "sim"))
    assert status == 2 and "9" in stderr
    assert not (tmp_path / "sim").exists()
