"""The command line's bad values, missing parts and interrupts (issue 9, reproductions 7, 9, 10):
each a one-line error, a truncated record refused, and simulate's workers gone with their parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from processes import HANG_GUARD, children, descendants, left_running

from stargazer_rules import Game, load_ruleset, records
from stargazer_rules.frontends.cli import main
from stargazer_rules.errors import RecordError
from stargazer_rules.simulation import estimate, runner

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
    # With moves dropped too, the finished flag still catches it, at the end of the replay.
    cut.pop("moves")
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
        ("tcp://127.0.0.1:99999", "--scheduler tcp://127.0.0.1:99999: '99999' is not a port of 1 to 65535"),
    ],
)
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(tmp_path, capsys, address, message):
    """A scheduler address that cannot be one is refused before any connection."""
    assert main(["simulate", "--games", "4", "--scheduler", address, "--out", str(tmp_path / "run")]) == 2
    assert capsys.readouterr().err == f"stargazer simulate: {message}\n"


def test_an_unreachable_scheduler_says_what_it_tried_and_gives_up(tmp_path, capsys, monkeypatch):
    """Reproduction 10: a dead address is tried for SCHEDULER_TIMEOUT seconds, said first, then one line, exit 1."""
    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", 1)
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
    """Starts a long simulate run on two workers and returns it once it has written a few
    games: (process, games file, stderr file). Its stderr goes to a file (a pipe would stay open
    as long as any orphaned worker holds it). However the test ends, the run and every process
    it started are killed and reaped, so that none outlives the test (a process left running
    would be reported, as an unraisable ResourceWarning, in whichever test comes next)."""
    games = tmp_path / "run" / "games.jsonl"
    err = tmp_path / "stderr.txt"
    with err.open("w") as stream:
        process = subprocess.Popen([*SIMULATE, "--out", str(tmp_path / "run")], stdout=subprocess.DEVNULL, stderr=stream)
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


def test_kill_9_of_simulate_leaves_no_worker_running(simulation):
    """Reproduction 7: after kill -9 of the run, its worker processes end of themselves."""
    process, _games, _err = simulation
    workers = children(process.pid)
    assert len(workers) >= 2
    os.kill(process.pid, signal.SIGKILL)
    process.wait(HANG_GUARD)
    assert left_running(workers, seconds=HANG_GUARD) == []


def test_ctrl_c_during_simulate_keeps_whole_lines_and_hints_resume(simulation):
    """Ctrl-C: exit 130, the --resume hint, only whole games in the file, and no worker left."""
    process, games, err = simulation
    workers = children(process.pid)
    process.send_signal(signal.SIGINT)
    assert process.wait(HANG_GUARD) == 130
    assert err.read_text().splitlines()[-1] == f"stargazer simulate: interrupted; the games played so far are in {games}: add --resume to finish the run"
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
