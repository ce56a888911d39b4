"""The command line's bad values, missing parts and interrupts (issue 9, reproductions 7, 9, 10):
each a one-line error, a truncated record refused, and simulate's workers gone with their parent."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest
from processes import HANG_GUARD, children, descendants, left_running
from ruleset_edits import copy_ruleset, read, replace

from stargazer_rules import Game, load_ruleset, records
from stargazer_rules.frontends.cli import build_parser, main
from stargazer_rules.errors import RecordError
from stargazer_rules.simulation import dask_cluster, estimate, planning, pool, runner

SIMULATE = [sys.executable, "-m", "stargazer_rules", "simulate", "--games", "100000", "--workers", "2", "--bots", "random"]


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset("draft7"))


@pytest.fixture(scope="module")
def finished(game):
    """A whole game's record document, played by the first legal action every time."""
    setup = game.deal(3, seed=4)
    state = game.new_state(setup=setup)
    acts = []
    while not game.is_over(state):
        acts.append(state.legal[0])
        state = game.step(state, state.legal[0])
    return records.record_to_json(records.record_game(game, setup, acts, seed=4))


def test_a_record_says_how_many_moves_it_has_and_whether_the_game_ended(game, finished):
    """record_to_json writes moves and finished; a whole game's record replays with them."""
    assert finished["moves"] == len(finished["actions"]) and finished["finished"] is True
    record = records.record_from_json(finished, game)
    assert game.is_over(records.final_state(game, record))


def test_a_record_with_its_last_moves_cut_off_is_refused(game, finished):
    """Reproduction 9: the last 5 actions deleted, the record is refused, saying how many are missing."""
    cut = {**finished, "actions": finished["actions"][:-5]}
    with pytest.raises(RecordError, match=rf"^the record has {finished['moves']} moves but lists {finished['moves'] - 5}: its last 5 are missing"):
        records.record_from_json(cut, game)
    # In a version-1 record without moves, the finished flag still catches it, at the end of the replay.
    cut.pop("moves")
    cut["format"] = "stargazer-record/1"
    with pytest.raises(RecordError, match=r"^the record says its game ended, but after its \d+ moves the game goes on"):
        records.final_state(game, records.record_from_json(cut, game))


def test_a_cut_record_replays_as_unfinished_only_when_asked(game, finished):
    """unfinished=True reads the cut record as an unfinished game: it replays, not over."""
    cut = {**finished, "actions": finished["actions"][:-5]}
    record = records.record_from_json(cut, game, unfinished=True)
    assert record.finished is False and records.missing_moves(cut) == 5
    assert not game.is_over(records.final_state(game, record))


def test_replay_refuses_a_cut_record_and_replays_it_with_unfinished(tmp_path, capsys, finished):
    """stargazer replay: one line and exit 1 for a cut record; with --unfinished it plays, saying so."""
    path = tmp_path / "cut.json"
    path.write_text(json.dumps({**finished, "actions": finished["actions"][:-5]}), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"stargazer replay: {path}: the record has ")
    assert err.rstrip().endswith("replay what is left as an unfinished game with --unfinished")
    assert main(["replay", str(path), "--unfinished"]) == 0
    captured = capsys.readouterr()
    moves = finished["moves"]
    assert captured.err == f"stargazer replay: {path} lists {moves - 5} of its {moves} moves (5 missing): replayed as an unfinished game\n"


def test_replay_words_a_record_of_one_move_in_the_singular(tmp_path, capsys, finished):
    path = tmp_path / "one.json"
    path.write_text(json.dumps({**finished, "moves": 1, "actions": []}), encoding="utf-8")
    assert main(["replay", str(path), "--unfinished"]) == 0
    assert capsys.readouterr().err == (
        f"stargazer replay: {path} lists 0 of its 1 move (1 missing): replayed as an unfinished game\n")


def test_replay_refuses_a_record_longer_than_the_round_limit_allows_unread(tmp_path, capsys, monkeypatch, game, finished):
    """Reproduction 7: a record of many games' moves is one line and exit 1, before any action is
    checked or replayed (a 1,000,000-move one: benchmarks/record_refusal.py)."""
    path = tmp_path / "long.json"
    moves = game.most_moves + 1
    path.write_text(json.dumps({**finished, "actions": (finished["actions"] * moves)[:moves], "moves": moves}), encoding="utf-8")
    read = []
    monkeypatch.setattr(records.actions_json, "action_from_json", lambda *args, **kwargs: read.append(args))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"stargazer replay: {path}: $.actions: the record lists {moves:,} moves, but a game of ruleset draft7 has "
        f"at most {game.most_moves:,} (30 rounds, its round limit): it is not a game of these rules\n"
    )
    assert read == []


def test_replay_of_a_version_1_record_without_moves_says_what_it_cannot_check(tmp_path, capsys, finished):
    """Reproduction 7: the cut record without moves/finished is refused as format 2; written as
    format 1 it replays (exit 0), with a line saying that a cut end cannot be told."""
    cut = {key: value for key, value in finished.items() if key not in ("moves", "finished")}
    cut["actions"] = cut["actions"][:-5]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(cut), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"stargazer replay: {path}: 2 problems in the game record: $: 'finished' is a required property "
        "$: 'moves' is a required property\n"
    )
    path.write_text(json.dumps({**cut, "format": "stargazer-record/1"}), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().err == (
        f"stargazer replay: {path} is a stargazer-record/1 record without 'moves' or 'finished': whether moves "
        "were cut off its end and whether its game had ended cannot be checked, so it is replayed as the game it lists\n"
    )


def test_out_naming_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    """Reproduction 10: --out naming a file says so, instead of [Errno 17] File exists."""
    file = tmp_path / "taken"
    file.write_text("x", encoding="utf-8")
    assert main(["simulate", "--games", "4", "--workers", "1", "--out", str(file)]) == 2
    assert capsys.readouterr().err == f"stargazer simulate: --out {file} is a file, not a folder: name a folder for the run's files\n"


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("localhost:8786", "--scheduler localhost:8786 is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"),
        ("tcp://127.0.0.1:99999", "--scheduler tcp://127.0.0.1:99999: '99999' is not a port of 1 to 65535 (in digits 0-9)"),
        ("tcp://127.0.0.1:\u00b2", "--scheduler tcp://127.0.0.1:\u00b2: '\u00b2' is not a port of 1 to 65535 (in digits 0-9)"),
        ("tcp://127.0.0.1:\uff11\uff12\uff13", "--scheduler tcp://127.0.0.1:\uff11\uff12\uff13: '\uff11\uff12\uff13' is not a port of "
         "1 to 65535 (in digits 0-9)"),
        ("tcp://127.0.0.1:" + "9" * 4301, "--scheduler tcp://127.0.0.1:" + "9" * 43 + "\u2026: '" + "9" * 19 + "\u2026' is not a port "
         "of 1 to 65535 (in digits 0-9)"),
        ("tcp://\x1b[2J:1", "--scheduler tcp://\\u001b[2J:1 is not a scheduler address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786)"),
    ],
)
@pytest.mark.parametrize("command", [["simulate", "--games", "4"], ["compare", "draft7", "base", "--games", "4"], ["tune", "draft7"]])
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(tmp_path, capsys, address, message, command):
    """A scheduler address that cannot be one is refused before any connection and before any
    folder is made ('\u00b2' and fullwidth digits pass str.isdigit, and were a traceback after
    compare had made its folders)."""
    assert main([*command, "--scheduler", address, "--out", str(tmp_path / "run")]) == 2
    assert capsys.readouterr().err == f"stargazer {command[0]}: {message}\n"
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_scheduler_says_what_it_tried_and_gives_up(tmp_path, capsys, monkeypatch):
    """Reproduction 10: a dead address is tried for SCHEDULER_TIMEOUT seconds, said first, then one line, exit 1."""
    monkeypatch.setattr(dask_cluster, "SCHEDULER_TIMEOUT", 1)
    assert main(["simulate", "--games", "4", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "run")]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "stargazer simulate: connecting to the Dask scheduler at tcp://127.0.0.1:9 (waiting up to 1 s)"
    assert lines[1].startswith("stargazer simulate: cannot reach the Dask scheduler at tcp://127.0.0.1:9 (tried for 1 s): ")
    assert len(lines) == 2
    assert not (tmp_path / "run" / "games.jsonl").exists()


def test_scheduler_without_the_dask_extra_is_one_line(tmp_path, capsys, monkeypatch):
    """Without the distributed package, --scheduler says which extra to install."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    assert main(["simulate", "--games", "4", "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path / "run")]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "stargazer simulate: --scheduler needs Dask's distributed package: pip install 'stargazer-rules[dask]'"
    )


@pytest.fixture
def simulation(tmp_path):
    """A long simulate run on two workers (``_running_simulation``)."""
    with _running_simulation(tmp_path, new_session=False) as running:
        yield running


@pytest.fixture
def simulation_in_its_own_session(tmp_path):
    """The same run leading its own process group, as a command started at a terminal does."""
    with _running_simulation(tmp_path, new_session=True) as running:
        yield running


@contextlib.contextmanager
def _running_simulation(tmp_path, new_session: bool):
    """Starts a long simulate run on two workers and yields it once it has written a few
    games: (process, games file, stderr file). Its stderr goes to a file (a pipe would stay open
    as long as any orphaned worker holds it). However the test ends, the run and every process
    it started are killed and reaped, so that none outlives the test (a process left running
    would be reported, as an unraisable ResourceWarning, in whichever test comes next)."""
    games = tmp_path / "run" / "games.jsonl"
    err = tmp_path / "stderr.txt"
    with err.open("w") as stream:
        process = subprocess.Popen(
            [*SIMULATE, "--out", str(tmp_path / "run")], stdout=subprocess.DEVNULL, stderr=stream,
            start_new_session=new_session,
        )
    started: list[int] = []
    try:
        # Past the short calibration run a long run starts with (simulation/estimate.py), so that
        # the workers found are those of the run proper. Bounded by the games written, not by
        # seconds: the run plays until killed, so only a run that dies stops the wait early.
        wanted = estimate.CALIBRATION + 8
        deadline = time.monotonic() + HANG_GUARD
        while not (games.exists() and games.read_bytes().count(b"\n") >= wanted):
            assert process.poll() is None, err.read_text()
            assert time.monotonic() < deadline, "the run hung: no games written"
            time.sleep(0.1)
            started = _seen(process, started)
        yield process, games, err
    finally:
        if process.poll() is None:
            started = _seen(process, started)
            process.kill()
        process.wait(HANG_GUARD)
        left_running(started, seconds=0)


def _seen(process: subprocess.Popen, known: list[int]) -> list[int]:
    """``known`` and the processes ``process`` runs now (a worker may end while it is read)."""
    try:
        return sorted(set(known) | set(descendants(process.pid)))
    except (FileNotFoundError, ProcessLookupError):
        return known


@pytest.mark.slow
def test_kill_9_of_simulate_leaves_no_worker_running(simulation):
    """Reproduction 7: after kill -9 of the run, its worker processes end of themselves."""
    process, _games, _err = simulation
    workers = children(process.pid)
    assert len(workers) >= 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait(HANG_GUARD)
    assert left_running(workers, seconds=HANG_GUARD) == []


@pytest.mark.slow
def test_ctrl_c_during_simulate_keeps_whole_lines_and_hints_resume(simulation):
    """Ctrl-C: exit 130, the command that finishes the run (the same options and --resume),
    only whole games in the file, and no worker left."""
    process, games, err = simulation
    workers = children(process.pid)
    process.send_signal(signal.SIGINT)
    assert process.wait(HANG_GUARD) == 130
    again = shlex.join(["stargazer", *SIMULATE[3:], "--out", str(games.parent), "--resume"])
    assert err.read_text().splitlines()[-1] == (
        f"stargazer simulate: interrupted; the games played so far are kept in {games}: {again} plays only the rest"
    )
    data = games.read_bytes()
    assert data.endswith(b"\n")
    assert all(json.loads(line)["format"] for line in data.splitlines())
    assert left_running(workers, seconds=0) == []


class _CtrlC:
    """A stdin whose every read is Ctrl-C."""

    def readline(self, *args):
        raise KeyboardInterrupt

    read = readline

    def isatty(self):
        return False

    def __iter__(self):
        return self

    def __next__(self):
        raise KeyboardInterrupt


def test_ctrl_c_during_replay_step_is_exit_130(tmp_path, capsys, monkeypatch, finished):
    """Ctrl-C while replay --step waits for Enter ends with exit 130 and no traceback."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", _CtrlC())
    assert main(["replay", str(path), "--step"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_during_play_is_exit_130(capsys, monkeypatch):
    """Ctrl-C while play waits for a person's move ends with exit 130 and no traceback."""
    monkeypatch.setattr(sys, "stdin", _CtrlC())
    assert main(["play", "--seats", "you,greedy,greedy", "--seed", "1"]) == 130
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["simulate", "--games", "4", "--bots", "mcts:1000000000000"], ["play", "--seats", "you,mcts:1000000000000"]])
def test_an_absurd_bot_budget_is_one_line_with_a_suggestion(tmp_path, capsys, monkeypatch, argv):
    """Reproduction 2 on the command line: mcts:1000000000000 is refused in one line, exit 2, before any game."""
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == (
        f"stargazer {argv[0]}: bot 'mcts': iterations='1000000000000' is not an integer from 1 to 1,000,000 "
        "(try mcts:400, the default: under a second a decision)\n"
    )
    assert list(tmp_path.iterdir()) == []


# -- plans bounded ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["simulate", "--games", "1000000000000"],
            "argument --games: 1,000,000,000,000 games is more than a run may play (100,000): give at most 100000, "
            "or split the work into runs with other --seed values",
        ),
        (
            ["compare", "draft7", "base", "--until-decided", "--max-games", "100001"],
            "argument --max-games: 100,001 games is more than a run may play (100,000): give at most 100000, "
            "or split the work into runs with other --seed values",
        ),
        (
            ["simulate", "--workers", "10000"],
            f"argument --workers: 10,000 workers is more than a run starts (64): give at most 64; the default, "
            f"one per core, is {os.cpu_count() or 1} here",
        ),
    ],
)
def test_games_and_workers_past_their_caps_are_usage_errors(capsys, argv, message):
    """Reproduction 8: --games 10^12 and --workers 10000 are refused while the options are read,
    naming the cap (runner.MAX_GAMES, runner.MAX_WORKERS), before anything is planned or started."""
    assert (runner.MAX_GAMES, runner.MAX_WORKERS) == (100_000, 64)
    with pytest.raises(SystemExit) as caught:
        build_parser().parse_args(argv)
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"stargazer {argv[0]}: error: {message}"


def test_a_plan_past_the_cap_is_refused_before_any_entry_is_built(monkeypatch):
    """runner.plan refuses 10^12 games without building one PlanEntry (counted; the old plan built
    them one by one, for ever)."""
    assert len(runner.plan(runner.MAX_GAMES, 4)) == runner.MAX_GAMES
    built = []

    def entry(*args):
        built.append(args)
        if len(built) > 1000:
            raise AssertionError("plan builds the entries of a plan past the cap")
        return args

    monkeypatch.setattr(planning, "PlanEntry", entry)
    with pytest.raises(runner.SimulationError, match=r"^1,000,000,000,000 games is more than a run may play \(100,000\)"):
        runner.plan(10**12, 4)
    assert built == []


def test_run_simulation_refuses_more_workers_than_the_cap_before_starting_any(tmp_path, monkeypatch):
    """The library call has the same cap as the option: no process pool is made for 10,000 workers."""
    pools = []
    monkeypatch.setattr(pool.concurrent.futures, "ProcessPoolExecutor", lambda *args, **kwargs: pools.append(kwargs))
    with pytest.raises(runner.SimulationError, match=r"^--workers must be from 1 to 64, not 10000$"):
        runner.run_simulation(load_ruleset("draft7"), tmp_path, players=3, games=6, lineup=["random"] * 3, workers=10000)
    assert pools == []


def test_eight_players_on_sixteen_planets_play_their_games(tmp_path, capsys):
    """Reproduction 8: a ruleset dealing 16 Planets to 8 players plays 8 greedy games, each ended
    within the moves its round limit allows, and the run's line says how many it played."""
    folder = copy_ruleset(tmp_path, "draft7", "eight")
    replace(folder, "rules.yaml", "name: draft7", "name: eight")
    replace(folder, "rules.yaml", "title:\n  ja: スターゲイザー 草案７\n  en: Stargazer draft 7", "title:\n  ja: 八人\n  en: Eight")
    replace(
        folder,
        "rules.yaml",
        "  - {players: 4, planets: 7, crew: 5, full_planets_to_end: 4}\n",
        "  - {players: 4, planets: 7, crew: 5, full_planets_to_end: 4}\n  - {players: 8, planets: 16, crew: 9, full_planets_to_end: 8}\n",
    )
    line = next(text for text in read(folder, "rules.yaml").splitlines() if "turn_order_vp:" in text)
    replace(folder, "rules.yaml", line, line.replace("[0, 0, 0, 0]", "[0, 0, 0, 0, 0, 0, 0, 0]"))  # a VP per seat
    more = "".join(
        f"  - id: extra-{n}\n    name: {{ja: 追加{n}, en: Extra {n}}}\n    colour: white\n    track: [1, 3, 0, 5, 7, 0]\n    placeholder: true\n"
        for n in (1, 2)
    )
    (folder / "planets.yaml").write_text(read(folder, "planets.yaml") + more, encoding="utf-8")
    out = tmp_path / "run"
    argv = ["simulate", "--rules", str(folder), "--players", "8", "--games", "8", "--bots", "greedy", "--workers", "1", "--out", str(out), "--no-cache"]
    assert main(argv) == 0
    assert "eight: played 8 games in " in capsys.readouterr().err
    games = runner.read_games(out / runner.GAMES_FILE)
    most = Game(load_ruleset(folder)).most_moves
    assert [len(game["setup"]["planets"]) for game in games] == [16] * 8
    assert all(game["decisions"] <= most for game in games)


def test_ctrl_c_anywhere_is_one_line_and_exit_130(capsys, monkeypatch):
    """Ctrl-C while a command loads its ruleset (here validate and rules) is one line, exit 130."""
    from stargazer_rules.frontends.cli import common

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(common, "load_ruleset", interrupted)  # every command loads its ruleset there
    for command in ("validate", "rules"):
        try:
            status = main([command, "draft7"])
        except KeyboardInterrupt:
            pytest.fail(f"Ctrl-C escaped stargazer {command} as a traceback")
        assert (status, capsys.readouterr().err) == (130, f"stargazer {command}: interrupted\n")


@pytest.mark.slow
def test_ctrl_c_at_the_terminal_stops_simulate_with_one_line_and_no_worker_traceback(simulation_in_its_own_session):
    """Ctrl-C at a terminal signals the whole process group: the workers stay quiet, and the run
    ends with exit 130 and its one line (no worker's KeyboardInterrupt traceback)."""
    process, games, err = simulation_in_its_own_session
    workers = children(process.pid)
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=HANG_GUARD) == 130
    text = err.read_text()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    again = shlex.join(["stargazer", *SIMULATE[3:], "--out", str(games.parent), "--resume"])
    assert text.splitlines()[-1] == (
        f"stargazer simulate: interrupted; the games played so far are kept in {games}: {again} plays only the rest"
    )
    assert left_running(workers) == []  # up to HANG_GUARD: a guard against a hang, not a limit
