"""The simulation runner and ``stargazer simulate`` / ``compare`` (docs/simulation.md).

Small runs with the random and greedy bots: the plan, the games.jsonl line against the
contract and against a replay of its own record, determinism across worker counts and a Dask
cluster (an in-process ``LocalCluster`` on 127.0.0.1), resuming an interrupted run, and the
command line's output files and one-line errors.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path

import distributed
import pytest

from stargazer_rules import Game, load_ruleset
from stargazer_rules.analysis.targets_file import targets_for
from stargazer_rules.bots import BotSpecError, make_bot
from stargazer_rules.errors import RecordError
from stargazer_rules.formats import jsonio, records
from stargazer_rules.formats.game_lines import game_line, line_digest, read_games_file
from stargazer_rules.frontends.cli import main
from stargazer_rules.simulation import (
    GAME_FORMAT,
    GAMES_FILE,
    PlanEntry,
    SimulationError,
    parse_lineup,
    plan,
    play_game,
    read_games,
    run_simulation,
    seating,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "simulation.md"
MIXED = ("greedy", "random", "random", "random")


def canonical(spec: str) -> str:
    """The spec a bot reports (defaults filled in), as lines and lineups name it."""
    return make_bot(spec, 0).spec


GREEDY = canonical("greedy")


@functools.cache
def game(name: str = "draft7") -> Game:
    return Game(load_ruleset(name))


def run(tmp_path: Path, name: str = "out", **options) -> list[str]:
    """Run a simulation into ``tmp_path/name``; its lines sorted by index."""
    settings = {"players": 4, "games": 8, "lineup": ("random",) * 4, "workers": 1, "progress": False}
    settings.update(options)
    run_simulation(game().ruleset, tmp_path / name, **settings)
    return sorted_lines(tmp_path / name / GAMES_FILE)


def sorted_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return sorted(lines, key=lambda line: json.loads(line)["index"])


# -- the plan -----------------------------------------------------------------------------


def test_plan_blocks_share_a_deal_seed_and_index_is_block_times_players_plus_rotation():
    """Block b is dealt from seed + b; its games are the rotations 0..players-1."""
    entries = plan(12, 4, seed=7)
    assert [entry.index for entry in entries] == list(range(12))
    for entry in entries:
        assert entry.index == entry.block * 4 + entry.rotation
        assert entry.deal_seed == 7 + entry.block
        assert entry.players == 4
    assert [entry.rotation for entry in entries[4:8]] == [0, 1, 2, 3]


def test_plan_rounds_games_up_to_whole_blocks():
    """--games 5 with 3 players plays two whole blocks: 6 games."""
    assert len(plan(5, 3)) == 6
    assert len(plan(6, 3)) == 6
    assert plan(0, 4) == ()


@pytest.mark.parametrize("players", [3, 4])
def test_rotation_seats_every_lineup_entry_in_every_seat_equally(players):
    """Over a block, each lineup entry sits in each seat exactly once."""
    lineup = tuple(f"bot{i}" for i in range(players))
    counts = Counter(
        (seat, spec)
        for entry in plan(3 * players, players)
        for seat, spec in enumerate(seating(lineup, entry.rotation))
    )
    assert counts == Counter({(seat, spec): 3 for seat in range(players) for spec in lineup})
    assert seating(lineup, 1)[0] == lineup[1]


def test_lineup_last_bot_fills_the_remaining_seats_and_specs_become_canonical():
    """One spec fills every seat; 'greedy/random' is one greedy bot against random ones."""
    assert parse_lineup("random", 4) == ("random",) * 4
    assert parse_lineup("greedy/random", 4) == (GREEDY, "random", "random", "random")
    assert parse_lineup(["greedy", "random/greedy"], 3) == (GREEDY, "random", GREEDY)
    assert parse_lineup(" greedy:hand=0.25 / random", 3)[0] == canonical("greedy:hand=0.25")


def test_lineup_errors_say_what_to_type():
    with pytest.raises(BotSpecError, match=re.escape("unknown bot 'gredy' (did you mean 'greedy'?)")):
        parse_lineup("random/gredy", 4)
    with pytest.raises(SimulationError, match=re.escape("the lineup names 4 bots (random/random/random/random) for 3 players; give at most 3")):
        parse_lineup("random/random/random/random", 3)
    with pytest.raises(BotSpecError, match="empty bot spec"):
        parse_lineup("random//greedy", 4)


# -- one games.jsonl line -----------------------------------------------------------------


def contract_fields() -> list[str]:
    """The top-level fields of the example line in docs/simulation.md."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{\n  \"format\": \"stargazer-game/2\".*?)```", text, re.S)
    assert block is not None, "docs/simulation.md has no example games.jsonl line"
    return re.findall(r'^  "(\w+)":', block.group(1), re.M)


def test_a_line_has_every_field_of_the_contract_in_its_order():
    """The keys of a line are those of docs/simulation.md's example, in the same order;
    ``value_by_round`` only when a seat searches (MCTS)."""
    searched = json.loads(game_line(play_game(game(), plan(4, 4)[1], (canonical("mcts:10"), *MIXED[1:]))))
    assert list(searched) == contract_fields()
    line = json.loads(game_line(play_game(game(), plan(4, 4)[1], MIXED)))
    assert list(line) == [field for field in contract_fields() if field != "value_by_round"]
    assert line["format"] == GAME_FORMAT
    assert line["digest"] == line_digest({key: value for key, value in line.items() if key != "digest"})
    assert (line["index"], line["block"], line["rotation"], line["deal_seed"]) == (1, 0, 1, 0)
    assert line["seating"] == ["random", "random", "random", "greedy"]  # as given: play_game takes canonical specs
    assert line["ruleset"] == {"name": "draft7", "fingerprint": game().ruleset.fingerprint}
    assert line["setup"] == jsonio.setup_to_json(game().deal(4, seed=0))
    assert json.loads(json.dumps(line)) == line


@pytest.mark.parametrize(
    ("name", "players", "lineup", "index"),
    [("draft7", 4, MIXED, 6), ("draft7", 3, ("greedy",) * 3, 4), ("base", 4, ("random",) * 4, 3)],
)
def test_a_line_agrees_with_a_replay_of_its_own_record(name, players, lineup, index):
    """The record replays to the line's score sheet; picks, score_by_round, options, rounds and
    triggers equal a count made by hand from the replay's states and events."""
    g = game(name)
    entry = plan(index + 1, players)[index]
    line = play_game(g.ruleset, entry, lineup)
    record = records.record_from_json(line["record"], g)
    assert record.seed == entry.deal_seed
    start = g.new_state(setup=record.setup)
    steps = list(records.replay_events(g, record))
    final = steps[-1][0]
    assert jsonio.score_sheet_to_json(g.score(final)) == line["score_sheet"]
    assert line["winners"] == line["score_sheet"]["winners"] == list(g.score(final).winners)
    assert line["score_sheet"]["final"] is True
    states = [start] + [state for state, _events in steps]
    assert line["options"] == [len(g.legal_actions(state)) for state in states[:-1]]
    assert line["decisions"] == len(record.actions) == len(steps)
    # The record says how many moves it has and that its game ended, so that a record cut
    # out of games.jsonl with its last moves missing is refused rather than replayed short.
    assert (line["record"]["moves"], line["record"]["finished"], record.finished) == (line["decisions"], True, True)
    cut = {**line["record"], "actions": line["record"]["actions"][:-1]}
    with pytest.raises(RecordError, match="its last 1 are missing"):
        records.record_from_json(cut, g)
    picks, totals = [], []
    for before, (after, events) in zip(states, steps):
        for event in events:
            if event.key == "crew_chosen":
                in_round = [pick for pick in picks if pick["round"] == before.round]
                picks.append({"round": before.round, "order": len(in_round) + 1, "seat": event.params["player"], "crew": event.params["crew"], "motivation_vp": 0})
            elif event.key == "motivation_bonus":
                picks[-1]["motivation_vp"] = event.params["vp"]
            elif event.key == "round_ended":
                totals.append([seat.total for seat in g.score(after).seats])
    assert line["picks"] == picks
    assert line["score_by_round"] == totals
    assert len(totals) == line["rounds"] == final.round
    assert totals[-1] == [seat["total"] for seat in line["score_sheet"]["seats"]]
    assert line["triggers"] == list(final.triggers)
    assert len(picks) == players * final.round


def test_the_same_game_is_played_under_any_ruleset_object_and_every_time():
    """play_game is a pure function: a Ruleset or a Game, first or second call, same line."""
    entry = PlanEntry(5, 1, 1, 1, 4)
    assert play_game(game(), entry, MIXED) == play_game(load_ruleset("draft7"), entry, MIXED)


# -- a run --------------------------------------------------------------------------------


def test_one_and_two_workers_write_the_same_lines(tmp_path):
    """Sorted by index, the files of --workers 1 and --workers 2 are byte for byte equal."""
    lineup = ("greedy", "random", "random")
    one = run(tmp_path, "one", players=3, games=12, lineup=lineup, workers=1)
    two = run(tmp_path, "two", players=3, games=12, lineup=lineup, workers=2)
    assert len(one) == 12
    assert one == two


def test_a_dask_cluster_writes_the_same_lines(tmp_path):
    """--scheduler: the same games through distributed.Client, here a LocalCluster on loopback."""
    with distributed.LocalCluster(
        processes=False,
        n_workers=1,
        threads_per_worker=1,
        host="127.0.0.1",
        protocol="tcp",
        dashboard_address=None,
    ) as cluster:
        through_dask = run(tmp_path, "dask", games=8, lineup=MIXED, workers=None, scheduler=cluster.scheduler_address)
    assert through_dask == run(tmp_path, "local", games=8, lineup=MIXED)


def test_resume_plays_only_the_missing_games_and_ends_as_an_uninterrupted_run(tmp_path):
    """An interrupted file (3 whole lines and half of a fourth) is finished by resume=True."""
    whole = run(tmp_path, "whole", games=8)
    folder = tmp_path / "cut"
    folder.mkdir()
    (folder / GAMES_FILE).write_text("\n".join(whole[:3]) + "\n" + whole[3][:100], encoding="utf-8")
    result = run_simulation(
        game().ruleset, folder, players=4, games=8, lineup=("random",) * 4, workers=1, resume=True, progress=False
    )
    assert (result.played, result.skipped) == (5, 3)
    assert sorted_lines(folder / GAMES_FILE) == whole
    again = run_simulation(
        game().ruleset, folder, players=4, games=12, lineup=("random",) * 4, workers=2, resume=True, progress=False
    )
    assert (again.played, again.skipped) == (4, 8)
    assert sorted_lines(folder / GAMES_FILE) == run(tmp_path, "twelve", games=12)


def test_without_resume_the_games_file_starts_afresh(tmp_path):
    run(tmp_path, games=8)
    assert len(run(tmp_path, games=4)) == 4


def test_resume_refuses_a_file_of_another_run(tmp_path):
    run(tmp_path, games=4)
    with pytest.raises(SimulationError, match=r"cannot resume .*games\.jsonl: its game 0 is of another run \(its seating is random/random/random/random, the run's greedy/random/random/random\)"):
        run(tmp_path, games=8, lineup=MIXED, resume=True)
    with pytest.raises(SimulationError, match=r"its game 0 is of another run \(its deal seed is 0, the run's 5\)"):
        run(tmp_path, games=8, seed=5, resume=True)


def test_read_games_ignores_a_truncated_last_line_and_sorts_by_index(tmp_path):
    lines = run(tmp_path, games=4)
    path = tmp_path / "games.jsonl"
    path.write_text(lines[2] + "\n" + lines[0] + "\n" + lines[1][:-10], encoding="utf-8")
    assert [g["index"] for g in read_games(path)] == [0, 2]


def test_read_games_refuses_a_broken_line_before_the_last(tmp_path):
    lines = run(tmp_path, games=4)
    path = tmp_path / "games.jsonl"
    path.write_text(lines[0] + '\n{"index": \n' + lines[1] + "\n", encoding="utf-8")
    with pytest.raises(SimulationError, match=re.escape(f"{path}:2: not a JSON line")):
        read_games(path)


# -- the command line ---------------------------------------------------------------------


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_simulate_writes_the_games_the_summary_and_the_report(tmp_path, capsys):
    out = tmp_path / "sim"
    status, stdout, stderr = cli(
        capsys, "simulate", "--games", "8", "--bots", "greedy/random", "--workers", "1", "--out", str(out)
    )
    assert status == 0, stderr
    assert re.search(r"^draft7: played 8 games in [\d.]+ s \([\d.,]+ games/s, native engine\) on 1 worker -> ", stderr, re.M)
    games = read_games(out / GAMES_FILE)
    assert [g["index"] for g in games] == list(range(8))
    assert {g["engine"] for g in games} == {"native"}
    assert games[0]["seating"] == [GREEDY, "random", "random", "random"]
    assert (out / "summary.json").is_file() and (out / "report.html").is_file()
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))
    # The bots named for people (issue 36); their full specs are in summary.json.
    assert stdout.splitlines()[0].endswith(", 4 players, 8 games; greedy bots and random bots, native engine")


def test_games_rounded_up_to_whole_blocks_are_said_before_they_play(tmp_path, capsys):
    """--games 6 with 4 players plays 8 (two deals, the lineup in every seat): said first, and
    not said when the count asked is played."""
    status, _, stderr = cli(capsys, "simulate", "--games", "6", "--bots", "random", "--workers", "1", "--out", str(tmp_path / "six"))
    assert status == 0, stderr
    said = "draft7: --games 6 plays 8: games come in blocks of 4, one deal with the lineup in every seat"
    assert said in stderr.splitlines() and stderr.index(said) < stderr.index("draft7: played 8 games")
    status, _, stderr = cli(capsys, "simulate", "--games", "8", "--bots", "random", "--workers", "1", "--out", str(tmp_path / "eight"))
    assert status == 0 and "plays 8:" not in stderr


def test_simulate_resume_from_the_command_line(tmp_path, capsys):
    out = str(tmp_path / "sim")
    cli(capsys, "simulate", "--games", "4", "--bots", "random", "--workers", "1", "--out", out)
    status, _stdout, stderr = cli(
        capsys, "simulate", "--games", "8", "--bots", "random", "--workers", "1", "--out", out, "--resume"
    )
    assert status == 0, stderr
    assert "played 4 games (4 were already there)" in stderr
    assert len(read_games(Path(out) / GAMES_FILE)) == 8


def test_simulate_default_out_folder_is_named_for_the_ruleset_and_players(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _stdout, stderr = cli(capsys, "simulate", "--rules", "base", "--players", "3", "--games", "3", "--bots", "random", "--workers", "1")
    assert status == 0, stderr
    assert len(read_games(tmp_path / "simulation-base-3p" / GAMES_FILE)) == 3


def test_compare_runs_both_rulesets_with_the_same_deals_and_bots(tmp_path, capsys):
    out = tmp_path / "cmp"
    status, stdout, stderr = cli(
        capsys, "compare", "draft7", "base", "--games", "4", "--bots", "random", "--workers", "1", "--out", str(out)
    )
    assert status == 0, stderr
    first, second = read_games(out / "draft7" / GAMES_FILE), read_games(out / "base" / GAMES_FILE)
    assert [g["deal_seed"] for g in first] == [g["deal_seed"] for g in second] == [0] * 4
    assert [g["bot_seeds"] for g in first] == [g["bot_seeds"] for g in second]
    assert (out / "draft7" / "summary.json").is_file() and (out / "base" / "report.html").is_file()
    assert stdout.strip()


def _goal(summary: dict, measure: str) -> dict:
    return next(target for target in summary["run"]["targets"]["targets"] if target["measure"] == measure)


def test_bounds_from_the_command_line_reach_the_summary_and_change_the_findings(tmp_path, capsys):
    """--bound on simulate, then ``report`` on the same games with other goals: the findings
    follow the goals, over the targets.yaml beside draft7. No planet's accident rate can be
    above 100%; with a goal of 0 and every card counted, any accident at first place misses."""
    out = tmp_path / "sim"
    argv = ["simulate", "--games", "40", "--bots", "random", "--workers", "1", "--out", str(out)]
    status, _stdout, stderr = cli(capsys, *argv, "--bound", "max_accident_rate=1", "--bound", "min_card_games=0")
    assert status == 0, stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    beside = targets_for(load_ruleset("draft7"), None)
    assert summary["targets"]["source"] == beside.source != "defaults"
    assert (_goal(summary, "planet_first_place_accident")["at_most"], summary["targets"]["settings"]["min_card_games"]) == (1, 0)
    assert not [f for f in summary["findings"] if f["kind"] == "planet_first_place_accident"]

    status, stdout, stderr = cli(capsys, "report", str(out), "--bound", "max_accident_rate=0", "--bound", "min_card_games=0")
    assert status == 0, stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["targets"]["source"] == beside.source
    assert _goal(summary, "planet_first_place_accident")["at_most"] == 0
    assert _goal(summary, "tie_rate") == next(t.to_json() for t in beside.targets if t.measure == "tie_rate")
    accidents = [f for f in summary["findings"] if f["kind"] == "planet_first_place_accident"]
    assert accidents and all(f["text"].endswith("; target at most 0%.") for f in accidents)
    assert "written: " in stdout and (out / "report.html").is_file()


def test_report_rebuilds_the_summary_of_an_interrupted_run(tmp_path, capsys):
    out = tmp_path / "sim"
    run(tmp_path, "sim", games=8)
    lines = (out / GAMES_FILE).read_text(encoding="utf-8").splitlines(keepends=True)
    (out / GAMES_FILE).write_text("".join(lines[:5]) + lines[5][:40], encoding="utf-8")
    status, stdout, stderr = cli(capsys, "report", str(out))
    assert status == 0, stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["games"] == 5
    assert "5 games" in stdout


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("max_tie=0.1", "no setting or measure 'max_tie' (did you mean 'max_tie_rate'?); settings: confidence, "),
        ("game_rounds=9..6", "game_rounds=9..6: between [9.0, 6.0]: the first value is above the second"),
        ("max_tie_rate=1.5", "max_tie_rate=1.5: 1.5 is not a share: tie_rate is a fraction (0 to 1; write 0.5 for 50%)"),
        ("confidence=1", "confidence=1: confidence is a number from 0.5 to 0.999, not 1.0"),
        ("min_card_games=2.5", "min_card_games=2.5: '2.5' is not a whole number in ASCII digits (from 0 to 1,000,000)"),
        ("min_card_games=-1", "min_card_games=-1: min_card_games is a whole number from 0 to 1,000,000, not -1"),
        ("max_tie_rate", "'max_tie_rate' is not NAME=VALUE (for example tie_rate=0.15)"),
    ],
)
@pytest.mark.parametrize("command", [["simulate"], ["compare", "draft7", "base"], ["report", "somewhere"]])
def test_a_bad_bound_is_a_usage_error_that_says_what_to_type(capsys, command, setting, message):
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--bound", setting])
    assert exit_info.value.code == 2
    assert f"argument --bound: {message}" in capsys.readouterr().err


def test_report_of_a_comparison_folder_names_its_runs(tmp_path, capsys):
    out = tmp_path / "cmp"
    cli(capsys, "compare", "draft7", "base", "--games", "4", "--bots", "random", "--workers", "1", "--out", str(out))
    status, stdout, stderr = cli(capsys, "report", str(out))
    assert (status, stdout) == (1, "")
    assert stderr == (
        f"stargazer report: {out}/games.jsonl: no such file; it holds the runs of a comparison: "
        f"give one of {out}/base, {out}/draft7\n"
    )
    assert cli(capsys, "report", str(out / "base"))[0] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "{missing}"], "stargazer report: {missing}/games.jsonl: no such file; give the folder a 'stargazer simulate' run wrote to"),
        (["report", "{empty}"], "stargazer report: {empty}/games.jsonl: no finished game yet"),
        (["report", "{sim}", "--rules", "base"], "stargazer report: {sim}/games.jsonl: the games were played with draft7 (fingerprint "),
        (["report", "{sim}", "--rules", "draft8"], "stargazer report: draft8: no such folder"),
    ],
)
def test_report_errors_are_one_line_and_exit_1(tmp_path, capsys, argv, message):
    folders = {name: tmp_path / name for name in ("missing", "empty", "sim")}
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / GAMES_FILE).write_text("", encoding="utf-8")
    run(tmp_path, "sim", games=4)
    argv = [part.format(**folders) for part in argv]
    code, stdout, stderr = cli(capsys, *argv)
    assert (code, stdout) == (1, "")
    assert stderr.startswith(message.format(**folders))
    assert stderr.count("\n") == 1
    assert not (tmp_path / "sim" / "summary.json").exists()


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["simulate", "--rules", "draft8"], 1, "stargazer simulate: draft8: no such folder; expected a ruleset folder with rules.yaml, planets.yaml, crew.yaml, or the name of a bundled ruleset (base, corpus, draft7, ideas) (did you mean 'draft7'?)"),
        (["simulate", "--bots", "gredy"], 2, "stargazer simulate: unknown bot 'gredy' (did you mean 'greedy'?); bots: "),
        (["simulate", "--bots", "greedy:hnd=1"], 2, "stargazer simulate: bot 'greedy' has no parameter 'hnd' (did you mean 'hand'?)"),
        (["simulate", "--players", "5"], 2, "stargazer simulate: draft7: 5 players are not supported by this ruleset (supported: 3, 4)"),
        (["simulate", "--players", "3", "--bots", "random/random/random/greedy"], 2, "stargazer simulate: the lineup names 4 bots (random/random/random/greedy) for 3 players; give at most 3"),
        (["compare", "draft7", "draf"], 1, "stargazer compare: draf: no such folder"),
        (["compare", "draft7", "base", "--bots", "randon"], 2, "stargazer compare: unknown bot 'randon' (did you mean 'random'?)"),
    ],
)
def test_bad_input_prints_one_line_and_exits_non_zero(tmp_path, capsys, argv, status, message):
    """No traceback, no output folder: one line on stderr saying what to type instead."""
    code, stdout, stderr = cli(capsys, *argv, "--out", str(tmp_path / "out"))
    assert (code, stdout) == (status, "")
    assert stderr.startswith(message)
    assert stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--games", "0"], "argument --games: 0 is not at least 1"),
        (["simulate", "--workers", "x"], "argument --workers: 'x' is not a whole number"),
        (["simulate", "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"], "argument --scheduler: not allowed with argument --workers"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_help_explains_the_lineup_syntax_and_defaults(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert "--bots mcts:400/greedy" in text
    assert "default 1,800" in text and "default 4" in text and "default mcts:200" in text
    assert "--engine {native,python}" in text


def test_reading_a_games_file_never_runs_the_cycle_collector(tmp_path):
    """Parsed JSON holds no reference cycles: the collector is paused while the lines are read
    (it would walk the growing heap again and again: hundreds of times for these lines), and
    runs again afterwards, at most once before the reader returns."""
    import gc

    lines = run(tmp_path, games=8)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(line + "\n" for line in lines * 40), encoding="utf-8")  # 320 lines, 312 repeats
    collections = []

    def seen(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        read = read_games_file(path)
    finally:
        gc.callbacks.remove(seen)
    assert len(read.games) == 8 and len(read.refused) == 312
    assert len(collections) <= 1
    assert gc.isenabled()
