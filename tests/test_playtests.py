"""Playtests at the table (docs/play.md, "Playtests at the table"): a log read with every
problem located and checked against the ruleset, made from a record or a games.jsonl line the
same way, kept beside the draft, summarised; and ``stargazer calibrate`` naming the rung of
the ladder that games of a hidden rung came from.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import builders
import jsonschema
import pytest

from stargazer_rules import load_ruleset
from stargazer_rules.analysis.calibrate import calibrate, holm
from stargazer_rules.analysis.brief import said_once
from stargazer_rules.analysis.calibration_report import calibration_brief
from stargazer_rules.engine.game import Game
from stargazer_rules.errors import DraftError, PlaytestError
from stargazer_rules.formats import records, schema_checks
from stargazer_rules.frontends.cli import main
from stargazer_rules.playtests import folder
from stargazer_rules.playtests.figures import TABLE_MEASURES, playtest_report, report_lines
from stargazer_rules.playtests.log import PlaytestLog, SeatScore, log_from_yaml_text, log_to_yaml, playtest_schema
from stargazer_rules.playtests.sources import log_from_game_line, log_from_record
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.rulesets.schemas import schema_text
from stargazer_rules.simulation.rung_runs import one_per_deal, rung_run

DRAFT7 = load_ruleset("draft7")

GOOD = textwrap.dedent("""\
    date: 2026-11-28
    ruleset: draft7
    seats: [Aki, Ben, Chie, Dan]
    rounds: 5
    picks:
      - [engineer, armstrong, navigator, pilot]
      - [armstrong, engineer, geologist, navigator]
    scores:
      Aki: {majority: 18, bonus: 6, play: 3, total: 27, hand: 1}
      Ben: {majority: 20, bonus: 5, play: 0, total: 25}
      Chie: {majority: 10, bonus: 4, play: 2, total: 16}
      Dan: {majority: 12, bonus: 5, play: 1, total: 18}
""")


def problems_of(text: str) -> list[str]:
    with pytest.raises(PlaytestError) as raised:
        log_from_yaml_text(text, "log.yaml", DRAFT7)
    return [str(problem) for problem in raised.value.problems]


# -- reading a log -------------------------------------------------------------------------


def test_a_good_log_reads_as_its_game():
    """Seats in turn order, both noted rounds, each score line; the winner by R18."""
    log = log_from_yaml_text(GOOD, "log.yaml", DRAFT7)
    assert log.seats == ("Aki", "Ben", "Chie", "Dan")
    assert log.picks == (("engineer", "armstrong", "navigator", "pilot"), ("armstrong", "engineer", "geologist", "navigator"))
    assert log.scores[0] == SeatScore(18, 6, 3, 27, 1)
    assert log.scores[1] == SeatScore(20, 5, 0, 25, None)
    assert (log.date, log.rounds, log.winners) == ("2026-11-28", 5, (0,))


def test_a_missing_field_is_located_at_the_mapping():
    assert problems_of(GOOD.replace("rounds: 5\n", "")) == ["log.yaml:1:1: missing required key 'rounds'"]


def test_a_misspelt_key_is_located_with_a_suggestion():
    text = GOOD.replace("scores:", "scroes:")
    assert problems_of(text)[0] == (
        "log.yaml:8:1: scroes: unexpected key 'scroes'; allowed keys: format, date, ruleset, fingerprint, seats, "
        "rounds, picks, scores, source, notes (did you mean 'scores'?)"
    )


def test_an_unknown_crew_is_located_with_a_suggestion():
    text = GOOD.replace("[engineer, armstrong, navigator, pilot]", "[engineer, armstrong, navigatr, pilot]")
    assert problems_of(text) == [
        "log.yaml:6:27: picks[0][2]: no crew card 'navigatr' in ruleset draft7 (did you mean 'navigator'?)"
    ]


def test_a_score_line_adds_the_end_of_game_scoring_lines_and_may_be_below_0():
    """R18 with rules.yaml's end_scoring: total = majority + bonus + play + lines; a majority
    may cost VP (majority.accident_vp), so only the bonus and the hand are never below 0."""
    text = GOOD.replace("{majority: 20, bonus: 5, play: 0, total: 25}", "{majority: -2, bonus: 5, play: 0, lines: 3, total: 6}")
    assert log_from_yaml_text(text, "log.yaml", DRAFT7).scores[1] == SeatScore(-2, 5, 0, 6, None, 3)
    assert problems_of(text.replace("lines: 3, total: 6", "lines: 3, total: 3")) == [
        "log.yaml:10:59: scores.Ben.total: the total 3 is not majority + bonus + play + lines = -2 + 5 + 0 + 3 = 6 (R18)"
    ]
    assert "scores.Ben.bonus" in problems_of(text.replace("bonus: 5, play: 0, lines", "bonus: -1, play: 0, lines"))[0]


def test_a_score_line_that_does_not_add_up_is_located_at_its_total():
    """R18: total = majority VP + major-planet bonus + VP scored during play."""
    text = GOOD.replace("play: 0, total: 25", "play: 0, total: 26")
    assert problems_of(text) == [
        "log.yaml:10:49: scores.Ben.total: the total 26 is not majority + bonus + play = 20 + 5 + 0 = 25 (R18)"
    ]


def test_the_checks_against_the_ruleset_report_every_problem_together():
    """R5 (one crew per seat a round, none twice), R14 (the crews laid out), R17 and R13 (the
    bonus counts a player's 12 cubes), the seats of the score sheet, the round limit."""
    text = textwrap.dedent("""\
        date: 2026-02-30
        ruleset: draft-7
        seats: [Aki, Ben, Chie, Dan]
        rounds: 31
        picks:
          - [engineer, armstrong, engineer, pilot]
          - [geologist, navigator, historian]
          - [linguist, mechanic, recruiter, oceanographer]
        scores:
          Aki: {majority: 18, bonus: 13, play: 3, total: 34}
          Bne: {majority: 20, bonus: 5, play: 0, total: 25}
          Chie: {majority: 10, bonus: 4, play: 2, total: 16}
          Dan: {majority: 12, bonus: 5, play: 1, total: 18}
    """)
    assert problems_of(text) == [
        "log.yaml:1:7: date: '2026-02-30' is not a day of the calendar (YYYY-MM-DD)",
        "log.yaml:2:10: ruleset: the log is of ruleset 'draft-7', not of 'draft7', the draft it is beside (did you mean 'draft7'?)",
        "log.yaml:4:9: rounds: 31 rounds: a game of ruleset draft7 ends by round 30 (its round limit)",
        "log.yaml:6:27: picks[0][2]: engineer is taken twice in round 1: a crew with a worker on it is not available (R5)",
        "log.yaml:7:5: picks[1]: round 2 lists 3 crews: each of the 4 seats takes one a round (R5)",
        "log.yaml:6:3: picks: 10 different crews taken, but a 4-player game lays out 6 (R14, R19): armstrong, engineer, "
        "geologist, historian, linguist, mechanic, navigator, oceanographer, pilot, recruiter",
        "log.yaml:11:3: scores.Bne: 'Bne' is not one of the seats (Aki, Ben, Chie, Dan) (did you mean 'Ben'?)",
        "log.yaml:10:3: scores: no score line for 'Ben': every seat has one",
        "log.yaml:10:30: scores.Aki.bonus: a major-planet bonus of 13: the most ruleset draft7's bonus gives one player is 12 (R17, R13)",
    ]


def test_a_player_count_the_ruleset_does_not_support_is_refused():
    text = GOOD.replace("[Aki, Ben, Chie, Dan]", "[Aki, Ben]").split("picks:")[0] + textwrap.dedent("""\
        scores:
          Aki: {majority: 18, bonus: 6, play: 3, total: 27}
          Ben: {majority: 20, bonus: 5, play: 0, total: 25}
    """)
    assert problems_of(text) == ["log.yaml:3:8: seats: 2 seats: ruleset draft7 is played by 3, 4 players (R14)"]


def test_the_schema_file_is_the_generated_schema():
    """schemas/playtest.schema.json is ``playtest_schema()``: python -m stargazer_rules.playtests.log --write."""
    assert (schemas_dir() / "playtest.schema.json").read_text(encoding="utf-8") == schema_text(playtest_schema())


def test_a_tie_goes_to_the_most_cubes_in_hand_then_is_shared():
    """R18: highest total, then most cubes in hand; a tie without hands noted is shared."""
    lines = [SeatScore(10, 2, 0, 12, 3), SeatScore(10, 2, 0, 12, 4), SeatScore(5, 1, 0, 6, 9)]
    assert PlaytestLog("2026-11-28", "draft7", ["A", "B", "C"], 4, lines).winners == (1,)
    unnoted = [SeatScore(10, 2, 0, 12), SeatScore(10, 2, 0, 12, 4), SeatScore(5, 1, 0, 6)]
    assert PlaytestLog("2026-11-28", "draft7", ["A", "B", "C"], 4, unnoted).winners == (0, 1)


def test_a_shared_win_has_a_winning_margin_of_0():
    """The measure's own words: the winner's total less the best other, 0 on a shared win (R18)."""
    shared = [SeatScore(10, 2, 0, 12), SeatScore(10, 2, 0, 12), SeatScore(5, 2, 0, 7)]
    log = PlaytestLog("2026-11-28", "draft7", ["A", "B", "C"], 4, shared)
    assert log.winners == (0, 1) and TABLE_MEASURES["winning_margin"].value(log) == 0
    alone = [SeatScore(10, 2, 0, 12), SeatScore(8, 2, 0, 10), SeatScore(5, 2, 0, 7)]
    assert TABLE_MEASURES["winning_margin"].value(PlaytestLog("2026-11-28", "draft7", ["A", "B", "C"], 4, alone)) == 2


def test_a_written_log_reads_back_as_itself():
    log = log_from_yaml_text(GOOD, "log.yaml", DRAFT7)
    again = log_from_yaml_text(log_to_yaml(log), "again.yaml", DRAFT7)
    assert again == log


# -- logs of recorded games ----------------------------------------------------------------


@pytest.fixture(scope="module")
def greedy_lines(tmp_path_factory):
    """Nine three-player games of greedy bots (three deals in every rotation), as games.jsonl lines."""
    out = tmp_path_factory.mktemp("greedy")
    outcome = rung_run(DRAFT7, "greedy", players=3, deals=3, out=out, workers=1, cache=out / "cache")
    return outcome.games


def test_a_game_line_and_its_record_make_the_same_log(greedy_lines):
    """The seats from the start player (R4, R14), every round's crews in the order taken, the
    final sheet: the same whether read from the line's fields or by replaying its record."""
    game = Game(DRAFT7)
    for line in greedy_lines:
        record = records.record_from_json(line["record"], game)
        from_line = log_from_game_line(line, date="2026-11-28")
        from_record = log_from_record(game, record)
        assert (from_record.scores, from_record.picks, from_record.rounds) == (from_line.scores, from_line.picks, from_line.rounds)
        start = line["setup"]["start_player"]
        assert from_line.seats[0].startswith(f"seat {start + 1} (greedy")
        assert from_line.scores[0].total == line["score_sheet"]["seats"][start]["total"]
        assert sorted((start + position) % 3 for position in from_line.winners) == line["winners"]
        assert sum(len(crews) for crews in from_line.picks) == 3 * line["rounds"]
        log_from_yaml_text(log_to_yaml(from_line), "line.yaml", DRAFT7)  # passes every check


def test_a_record_of_a_ruleset_with_scoring_lines_makes_a_log_with_its_lines():
    """rules.yaml's end_scoring: the log's line holds the lines' VP (summed), and the total
    adds up by R18 with them."""
    hand_penalty = {"name": {"ja": "手元のキューブ", "en": "cubes in hand"}, "vp": {"difference": [0, {"hand": "this_seat"}]}}
    g = builders.game(end_scoring={"hand": hand_penalty})
    setup = g.deal(3, seed=4)
    state, played = g.new_state(setup=setup), []
    while not g.is_over(state):
        played.append(g.legal_actions(state)[0])
        state, _ = g.apply(state, played[-1])
    log = log_from_record(g, records.record_game(g, setup, played))
    sheet = g.score(state)
    assert [score.lines for score in log.scores] == [-sheet.seats[(setup.start_player + k) % 3].hand for k in range(3)]
    assert all(score.total == score.majority + score.bonus + score.play + score.lines for score in log.scores)
    assert log_from_yaml_text(log_to_yaml(log), "line.yaml", g.ruleset).scores == log.scores


def test_an_unfinished_record_makes_no_log(greedy_lines):
    game = Game(DRAFT7)
    record = records.record_from_json(greedy_lines[0]["record"], game)
    cut = records.record_from_actions(game, record.setup, record.actions[:5])
    with pytest.raises(ValueError, match="the record's game is not over"):
        log_from_record(game, cut)


# -- the folder and the commands -----------------------------------------------------------


def test_logs_are_added_beside_the_draft_and_never_overwrite(tmp_path):
    main(["new-draft", str(tmp_path / "draft8"), "--from", "draft7"])
    draft = load_ruleset(tmp_path / "draft8")
    log = log_from_yaml_text(GOOD.replace("ruleset: draft7", "ruleset: draft8"), "log.yaml", draft)
    first = folder.add_log(draft, log)
    second = folder.add_log(draft, log)
    assert [first.name, second.name] == ["2026-11-28-1.yaml", "2026-11-28-2.yaml"]
    assert first.parent == tmp_path / "draft8" / "playtests"
    with pytest.raises(FileExistsError):
        folder.add_log(draft, log, name="2026-11-28-1")
    with pytest.raises(DraftError, match="draft7 is a bundled ruleset"):
        folder.add_log(DRAFT7, log)


def test_playtest_add_list_report_from_the_command_line(tmp_path, capsys):
    main(["new-draft", str(tmp_path / "draft8"), "--from", "draft7"])
    capsys.readouterr()
    rules = ["--rules", str(tmp_path / "draft8")]
    flags = ["--seats", "Aki,Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", "Aki=15,5,2,22,0",
             "--score", "Ben=14,6,2,22,2", "--score", "Chie=9,4,1,14", "--picks", "engineer,armstrong,pilot"]
    assert main(["playtest", "add", *rules, *flags]) == 0
    written = tmp_path / "draft8" / "playtests" / "2026-11-28-1.yaml"
    assert capsys.readouterr().out == (f"added {written}: 2026-11-28, 3 players, 6 rounds, won by Ben with 22, "
                                       "crews noted for 1 round\n")
    hand_written = tmp_path / "mine.yaml"
    hand_written.write_text("# our Friday game\n" + GOOD.replace("draft7", "draft8"), encoding="utf-8")
    assert main(["playtest", "add", *rules, "--file", str(hand_written), "--name", "friday"]) == 0
    assert (tmp_path / "draft8" / "playtests" / "friday.yaml").read_text(encoding="utf-8").startswith("# our Friday game\n")
    capsys.readouterr()
    bad = [*flags[:-1], "engineer,armstrong,pilto"]
    assert main(["playtest", "add", *rules, *bad]) == 1
    err = capsys.readouterr().err
    assert "(the flags):7:31: picks[0][2]: no crew card 'pilto' in ruleset draft8 (did you mean 'pilot'?)" in err
    assert "    7    - [\"engineer\", \"armstrong\", \"pilto\"]" in err
    assert main(["playtest", "list", *rules]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "2026-11-28-1.yaml: 2026-11-28, 3 players, 6 rounds, won by Ben with 22, crews noted for 1 round",
        "friday.yaml: 2026-11-28, 4 players, 5 rounds, won by Aki with 27, crews noted for 2 rounds",
        "2 logs",
    ]
    assert main(["playtest", "report", *rules]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "2 playtest games (1 of 3 players, 1 of 4 players)",
        "  final score: mean 20.4, median 20.4, from 19.3 to 21.5 (2 games)",
        "  winning margin: mean 1.0, median 1, from 0 to 2 (2 games)",
        "  major-planet bonus: mean 5.0, median 5, from 5 to 5 (2 games)",
        "  rounds: mean 5.5, median 5.5, from 5 to 6 (2 games)",
        "  crew pick shares: engineer 27%, armstrong 27%, pilot 18%, navigator 18%, geologist 9% (11 picks in 2 games)",
        "  start player's win share: 1 of 2 games, 50% [9%, 91%] (95% Wilson interval)",
    ]


def test_a_log_with_problems_is_named_by_list_and_stops_report(tmp_path, capsys):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.yaml").write_text(GOOD, encoding="utf-8")
    (logs / "b.yaml").write_text(GOOD.replace("total: 16", "total: 61"), encoding="utf-8")
    assert main(["playtest", "list", "--from", str(logs)]) == 1
    captured = capsys.readouterr()
    assert f"{logs / 'b.yaml'}:11:50: scores.Chie.total: the total 61" in captured.err
    assert captured.out.splitlines()[-1] == "1 log; 1 with problems (above), not counted"
    assert main(["playtest", "report", "--from", str(logs)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "stargazer playtest report: fix the logs above first: a report counts every log"
    assert main(["calibrate", "--from", str(logs)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "stargazer calibrate: fix the logs above first: a calibration counts every log"


def test_report_and_calibrate_stop_without_logs(tmp_path, capsys):
    empty = tmp_path / "none"
    empty.mkdir()
    for command in (["playtest", "report"], ["calibrate"]):
        assert main([*command, "--from", str(empty)]) == 1
        said = capsys.readouterr().err.splitlines()
        assert said == [f"stargazer {' '.join(command)}: no playtest logs in {empty}: add one with stargazer playtest add"]


# -- calibration -----------------------------------------------------------------------------


def test_holm_adjusts_in_step_down_order():
    """Holm (1979): the smallest p times m, the next times m - 1, never below the one before."""
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])


#: Rungs whose play differs clearly: no look ahead, a one-move look ahead, a short search.
RUNGS = ("random", "greedy", "mcts:25")
#: Deals per rung, and the playtests' games: each from its own deal, as at a table.
RUNG_DEALS, LOGS = 100, 40


@pytest.fixture(scope="module")
def rung_logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("rungs")
    return {rung: [log_from_game_line(line) for line in one_per_deal(
        rung_run(DRAFT7, rung, players=4, deals=RUNG_DEALS, out=out, workers=2, cache=out / "cache").games)]
        for rung in RUNGS}


def playtests_of(rung: str, out: Path) -> list[PlaytestLog]:
    """``LOGS`` games of ``rung`` on other deals than the rungs' (seed 10,000 on), as logs."""
    outcome = rung_run(DRAFT7, rung, players=4, deals=LOGS, seed=10_000, out=out, workers=2, cache=out / "cache")
    return [log_from_game_line(line, date="2026-11-28") for line in one_per_deal(outcome.games)]


@pytest.mark.slow
@pytest.mark.parametrize("hidden", RUNGS)
def test_forty_logs_of_a_hidden_rung_are_matched_to_it(hidden, rung_logs, tmp_path):
    """Calibration is given the logs, not their rung, and names it: consistent on every
    measure (Holm-adjusted) and the closest of the consistent rungs."""
    logs = playtests_of(hidden, tmp_path)
    assert len(logs) == LOGS
    result = calibrate(logs, rung_logs)
    assert result["verdict"]["resembles"] == hidden
    row = next(row for row in result["rungs"] if row["rung"] == hidden)
    assert row["consistent"] and row["games"] == RUNG_DEALS


def test_none_resembles_people_who_play_like_no_rung(rung_logs, tmp_path):
    """Random games set beside the searching rungs only: none is consistent, and the verdict
    names the closest and where it differs (random games last more rounds, R10)."""
    logs = playtests_of("random", tmp_path)
    result = calibrate(logs, {rung: rung_logs[rung] for rung in ("greedy", "mcts:25")})
    verdict = result["verdict"]
    assert verdict["resembles"] is None and verdict["closest"] in ("greedy", "mcts:25")
    assert "rounds" in verdict["differs_on"]
    assert verdict["sentence"].startswith(f"none resembles the people: the closest, {verdict['closest']}, differs on ")


def test_calibrate_command_writes_calibration_json_and_the_report_command(rung_logs, tmp_path, capsys):
    """The command's file holds to its schema, and it says how to run a report at the rung."""
    logs_folder = tmp_path / "logs"
    for log in playtests_of("greedy", tmp_path / "games")[:12]:
        folder.add_log(DRAFT7, log, folder=logs_folder)
    out = tmp_path / "calibration"
    assert main(["calibrate", "--from", str(logs_folder), "--rungs", "random,greedy", "--deals", "30",
                 "--workers", "1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    result = json.loads((out / "calibration.json").read_text(encoding="utf-8"))
    assert schema_checks.schema_problems("calibration", result) == []
    jsonschema.Draft202012Validator.check_schema(schema_checks.schema("calibration"))
    assert result["logs"] == 12 and [row["rung"] for row in result["rungs"]] == ["random", "greedy"]
    assert result["verdict"]["resembles"] == result["verdict"]["fastest"] == "greedy"
    assert text.startswith("draft7, 4 players: the people's games beside 2 levels of bots\n\n"
                           "The answer: The people play like greedy bots, the fastest level the logs are consistent with.")
    assert "What to try next:\n  - Reports at that level of play:\n      stargazer simulate --players 4 --bots greedy\n" in text
    assert "How sure: 12 playtest games against 120 games of each level." in text
    assert len(text.splitlines()) <= 25 and said_once(text) == []
    assert "Holm" not in text and "rung" not in text
    page = (out / "calibration.html").read_text(encoding="utf-8")
    assert "<strong>the people resemble greedy" in page and "stargazer simulate --players 4 --bots greedy" in page


def test_too_few_logs_to_tell_levels_apart_suggest_the_fastest_and_say_how_many_would(rung_logs, tmp_path):
    """Eight logs of greedy games: several levels are consistent with them; the suggestion is the
    fastest of those (the first listed), and the brief says how many logs would tell them apart."""
    logs = playtests_of("greedy", tmp_path)[:8]
    result = calibrate(logs, rung_logs)
    decided = result["verdict"]
    consistent = [row["rung"] for row in result["rungs"] if row["consistent"]]
    assert len(consistent) > 1 and decided["fastest"] == consistent[0]
    assert decided["logs_needed"] > 8
    result.update({"ruleset": {"name": "draft7"}, "players": 4, "deals": RUNG_DEALS})
    text = calibration_brief(result).text()
    assert f"Too few to tell {decided['fastest']}, " in text
    assert text.endswith(f"apart: about {decided['logs_needed']:,} playtest games would.")


def test_the_report_of_logs_counts_each_measure(rung_logs):
    report = playtest_report(rung_logs["greedy"][:10])
    assert report["games"] == 10 and report["measures"]["crew_picks"]["n"] == 10
    assert sum(item["picks"] for item in report["measures"]["crew_picks"]["crews"].values()) == sum(
        len(crews) for log in rung_logs["greedy"][:10] for crews in log.picks)
    assert report_lines(report)[0] == "10 playtest games (10 of 4 players)"


@pytest.mark.slow
def test_the_playtest_commands_need_only_the_core_and_calibrate_names_its_extra(tmp_path):
    """``playtest`` runs in a core install (no numpy, no scipy); ``calibrate`` says to install sim."""
    from test_light_install import stargazer

    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.yaml").write_text(GOOD, encoding="utf-8")
    report = stargazer(tmp_path, "playtest", "report", "--from", str(logs))
    assert (report.returncode, report.stderr) == (0, "")
    assert report.stdout.splitlines()[0] == "1 playtest game (1 of 4 players)"
    calibrating = stargazer(tmp_path, "calibrate", "--from", str(logs))
    assert calibrating.returncode == 1
    assert calibrating.stderr.startswith("stargazer calibrate: needs the sim extra")


def test_the_calibration_schema_names_every_measure():
    """calibration.json's measures are ``TABLE_MEASURES``, in their order, each described."""
    from stargazer_rules.playtests.figures import TABLE_MEASURES

    rung = schema_checks.schema("calibration")["properties"]["rungs"]["items"]
    assert rung["properties"]["measures"]["required"] == list(TABLE_MEASURES)
    assert rung["properties"]["differs_on"]["items"]["enum"] == list(TABLE_MEASURES)


def test_playtest_add_takes_a_saved_game_record(tmp_path, capsys):
    """A record of play-random (as of play or the browser table): replayed, its crews and sheet
    logged; a record of another ruleset is refused with the replay's words."""
    main(["new-draft", str(tmp_path / "draft8"), "--from", "draft7"])
    rules = ["--rules", str(tmp_path / "draft8")]
    record = tmp_path / "game.json"
    assert main(["play-random", *rules, "--players", "3", "--seed", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["playtest", "add", *rules, "--record", str(record), "--date", "2026-11-29"]) == 0
    assert capsys.readouterr().out.startswith(f"added {tmp_path / 'draft8' / 'playtests' / '2026-11-29-1.yaml'}: 2026-11-29, 3 players")
    log = folder.read_logs(folder.log_files(tmp_path / "draft8" / "playtests"), load_ruleset(tmp_path / "draft8")).logs[0]
    data = json.loads(record.read_text(encoding="utf-8"))
    draft8 = load_ruleset(tmp_path / "draft8")
    game = Game(draft8)
    sheet = game.score(records.final_state(game, records.record_from_json(data, game)))
    start = data["setup"]["start_player"]
    assert [score.total for score in log.scores] == [sheet.seats[(start + position) % 3].total for position in range(3)]
    assert log.source == "game record game.json" and all(len(crews) == 3 for crews in log.picks)
    assert main(["playtest", "add", "--rules", "draft7", "--record", str(record), "--to", str(tmp_path / "other")]) == 1
    assert capsys.readouterr().err == (f"stargazer playtest add: {record}: this record was made with ruleset draft8 "
                                       f"(fingerprint {draft8.fingerprint[:12]}), but the loaded ruleset is draft7 "
                                       f"(fingerprint {DRAFT7.fingerprint[:12]})\n")
