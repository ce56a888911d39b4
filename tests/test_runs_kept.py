"""Nothing lost, nothing doubled, nothing tampered counted: the games of runs.

A finished game line is never deleted by a later command (a smaller ``--games`` reads the first
games, a folder given to another run hands its games to the cache), one process writes a run
folder at a time, and a line whose digest does not match its content, or that belongs to
another run, is named and replayed instead of counted (docs/simulation.md, "Reusing runs").
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stargazer_rules.analysis.brief import Brief
from processes import HANG_GUARD

from stargazer_rules.formats.game_lines import GAMES_FILE, game_line, read_games_file
from stargazer_rules.frontends import cli
from stargazer_rules.frontends.cli import run_commands
from stargazer_rules.simulation import cache, locks

QUICK = ["--games", "8", "--bots", "random", "--workers", "1"]


@pytest.fixture(autouse=True)
def no_report_files(monkeypatch):
    """These tests are about the games; the report pages are left out."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)
    monkeypatch.setattr(analysis, "write_comparison", lambda comparison, out: None)


def _simulate(capsys, *args: str, status: int = 0) -> str:
    assert cli.main(["simulate", *QUICK, *args]) == status
    return capsys.readouterr().err


def _lines(folder: Path) -> list[str]:
    return (folder / GAMES_FILE).read_text(encoding="utf-8").splitlines()


def _indices(folder: Path) -> list[int]:
    return sorted(json.loads(line)["index"] for line in _lines(folder))


# -- append-only --------------------------------------------------------------------------


@pytest.mark.slow
def test_a_smaller_games_reads_the_first_games_and_deletes_none(tmp_path, capsys, monkeypatch):
    """16 games, then --games 8: the first 8 are used and said to be, all 16 stay; --games 16
    again plays nothing."""
    captured = []
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "summarize", lambda games, **options: captured.append(len(games)) or {})
    monkeypatch.setattr(analysis, "terminal_summary", lambda summary: "")
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out), "--games", "16")
    before = _lines(out)
    smaller = _simulate(capsys, "--out", str(out), "--games", "8")
    assert f"draft7: using the first 8 of the 16 games of the run in {out} (--games 16 uses them all)" in smaller
    assert "played" not in smaller and _lines(out) == before
    assert captured == [16, 8]
    again = _simulate(capsys, "--out", str(out), "--games", "16")
    assert "reused the 16 finished games" in again and "played" not in again and _lines(out) == before


@pytest.mark.slow
def test_until_decided_extends_a_larger_run_without_cutting_it(tmp_path, capsys):
    """compare --until-decided with --games smaller than the runs it finds: each look reads the
    first games of the runs, and no line of them is removed or played again."""
    out = tmp_path / "cmp"
    assert cli.main(["compare", "draft7", "base", *QUICK, "--games", "24", "--out", str(out)]) == 0
    capsys.readouterr()
    before = {name: _lines(out / name) for name in ("draft7", "base")}
    assert cli.main(
        ["compare", "draft7", "base", *QUICK, "--until-decided", "--max-games", "16", "--out", str(out)]
    ) == 0
    err = capsys.readouterr().err
    assert "played" not in err
    assert {name: _lines(out / name) for name in ("draft7", "base")} == before


def test_a_folder_given_to_another_run_keeps_its_games_in_the_cache(tmp_path, capsys):
    """Seed 0 then seed 5 into one folder: seed 0's games go to the cache, said so; seed 0 again
    gets them back without playing."""
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out), "--no-cache")
    seed_0 = _lines(out)
    other = _simulate(capsys, "--out", str(out), "--seed", "5")
    assert f"draft7: {out} held 8 games of another run (draft7, 4 players, random/random/random/random, seed 0): kept in the cache" in other
    back = _simulate(capsys, "--out", str(out))
    assert "reused the 8 finished games of the same run in the cache" in back and "played" not in back
    assert _lines(out) == seed_0


def test_resume_refuses_a_folder_of_another_run_and_leaves_it_as_it_was(tmp_path, capsys):
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out))
    before = _lines(out)
    err = _simulate(capsys, "--out", str(out), "--seed", "3", "--resume", status=1)
    assert err == (
        f"stargazer simulate: cannot resume {out}: it holds the games of another run (seed 0, not 3); leave out "
        "--resume to give the folder to this run (its games are kept in the cache), or choose another --out\n"
    )
    assert _lines(out) == before


def test_the_library_never_truncates_a_games_file_it_starts_afresh(tmp_path):
    """run_simulation without resume sets the old file aside in set-aside/ before it starts."""
    from stargazer_rules import load_ruleset
    from stargazer_rules.simulation import run_simulation

    out = tmp_path / "run"
    options = dict(players=4, games=4, lineup=("random",) * 4, workers=1, progress=False)
    run_simulation(load_ruleset(), out, seed=1, **options)
    first = (out / GAMES_FILE).read_text(encoding="utf-8")
    run_simulation(load_ruleset(), out, seed=2, **options)
    aside = sorted((out / "set-aside").glob("*.jsonl"))
    assert [path.read_text(encoding="utf-8") for path in aside] == [first]
    assert aside[0].with_suffix(".why.txt").read_text(encoding="utf-8") == "the games file of a run started afresh\n"


# -- one writer at a time -----------------------------------------------------------------

_HOLD = """
import sys
from stargazer_rules.simulation import locks
with locks.holding(sys.argv[1], "simulate"):
    print("held", flush=True)
    sys.stdin.readline()
"""


@pytest.mark.slow
def test_a_second_writer_is_refused_in_one_line_naming_the_holder(tmp_path, capsys):
    """While another process holds the output folder, simulate refuses at once, exit 1, and
    names that process; once it has gone, the same command runs."""
    out = tmp_path / "run"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "held\n"
        err = _simulate(capsys, "--out", str(out), status=1)
        assert err.startswith(f"stargazer simulate: {out} is being written by process {holder.pid} on ")
        assert err.endswith("; wait for it to finish, or choose another --out\n") and err.count("\n") == 1
        assert not (out / GAMES_FILE).exists()
    finally:
        holder.communicate("\n", timeout=HANG_GUARD)
    assert "played 8 games" in _simulate(capsys, "--out", str(out))


@pytest.mark.slow
def test_two_runs_at_once_on_one_folder_write_each_game_once(tmp_path):
    """Two simulate commands with the same options started together: each game is in the file
    once, whichever ran (the other refused, or reused the finished run)."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "stargazer_rules", "simulate", "--games", "40", "--bots", "random",
               "--workers", "1", "--out", str(out)]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    second = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    results = [(process.wait(timeout=HANG_GUARD), process.stderr.read()) for process in (first, second)]
    for process in (first, second):
        process.stderr.close()
    assert sorted(status for status, _ in results) in ([0, 0], [0, 1]), results
    for status, err in results:
        if status == 1:
            assert "is being written by process" in err, err
    assert _indices(out) == list(range(40))


@pytest.mark.slow
def test_a_run_killed_with_sigkill_is_finished_by_the_next_run_with_every_game_once(tmp_path):
    """kill -9 in the middle of a run leaves its lock to the next run, which keeps the whole
    games and plays the rest."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "stargazer_rules", "simulate", "--games", "800", "--bots", "random",
               "--workers", "1", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games = out / GAMES_FILE
    hung = time.monotonic() + HANG_GUARD  # a guard against a hang, not a limit: the wait is for 20 games
    while not (games.exists() and games.read_bytes().count(b"\n") >= 20):
        assert process.poll() is None and time.monotonic() < hung
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=HANG_GUARD)
    kept = len(read_games_file(games).games)
    finished = subprocess.run(command, capture_output=True, text=True, timeout=HANG_GUARD)
    assert finished.returncode == 0, finished.stderr
    assert f"extending the run in the output folder ({out}): {kept} of 800 games kept" in finished.stderr
    assert _indices(out) == list(range(800))


def test_the_lock_is_reentrant_in_one_process_and_released_after(tmp_path):
    folder = tmp_path / "run"
    with locks.holding(folder, "simulate"), locks.holding(folder, "simulate"):
        assert (folder / locks.HOLDER_FILE).exists()
    assert not (folder / locks.HOLDER_FILE).exists()


# -- tampering ----------------------------------------------------------------------------


def _edit_line(folder: Path, number: int, edit) -> None:
    lines = _lines(folder)
    lines[number - 1] = edit(lines[number - 1])
    (folder / GAMES_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _changed_winners(line: str) -> str:
    game = json.loads(line)
    game["winners"] = [(game["winners"][0] + 1) % game["players"]]
    return json.dumps(game, ensure_ascii=False, separators=(",", ":"))


def test_an_edited_line_is_named_set_aside_and_its_game_played_again(tmp_path, capsys):
    """One game's winners changed by hand: the rerun names the line, plays that game again, and
    ends with the games an untouched run has; the edited line is kept in set-aside/."""
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out), "--no-cache")
    before = _lines(out)
    _edit_line(out, 3, _changed_winners)
    edited = _lines(out)[2]
    index = json.loads(edited)["index"]
    err = _simulate(capsys, "--out", str(out), "--cache", str(tmp_path / "empty-cache"))
    assert f"draft7: {out / GAMES_FILE}:3: game {index} was edited or garbled (its digest does not match its content)" in err
    assert "draft7: 1 line not counted (set aside in" in err
    assert "played 1 game (7 were already there)" in err
    assert sorted(_lines(out)) == sorted(before)
    aside = list((out / "set-aside").glob("*.jsonl"))
    assert [path.read_text(encoding="utf-8") for path in aside] == [edited + "\n"]


def test_a_garbage_line_in_the_middle_is_named_and_only_its_game_replayed(tmp_path, capsys):
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out), "--no-cache")
    before = _lines(out)
    _edit_line(out, 4, lambda line: line[: len(line) // 2])
    err = _simulate(capsys, "--out", str(out), "--cache", str(tmp_path / "empty-cache"))
    assert f"{out / GAMES_FILE}:4: not a JSON line" in err
    assert "played 1 game (7 were already there)" in err
    assert sorted(_lines(out)) == sorted(before)


def test_a_line_of_another_run_with_a_good_digest_refuses_the_folder_for_reuse(tmp_path, capsys):
    """A line copied from a run of another seed checks out on its own but not as this run's
    game: the folder is refused for reuse in one line, set aside, and the run played afresh."""
    out, other = tmp_path / "run", tmp_path / "other"
    _simulate(capsys, "--out", str(out), "--no-cache")
    _simulate(capsys, "--out", str(other), "--seed", "9", "--no-cache")
    before = _lines(out)
    lines = _lines(out)
    lines[1] = _lines(other)[1]
    (out / GAMES_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    err = _simulate(capsys, "--out", str(out), "--cache", str(tmp_path / "empty-cache"))
    assert f"{out / GAMES_FILE}:2: game 1 is not a game of this run: its deal seed is 9, the run's 0" in err
    assert "the games in the output folder are not reused: its lines are not all of this run" in err
    assert "played 8 games in" in err
    assert sorted(_lines(out)) == sorted(before)


def test_a_tampered_line_in_the_cache_is_not_reused(tmp_path, capsys):
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "one"), "--cache", str(store))
    (entry,) = cache.entries(store)
    _edit_line(entry.folder, 2, _changed_winners)
    err = _simulate(capsys, "--out", str(tmp_path / "two"), "--cache", str(store))
    assert f"{entry.folder / GAMES_FILE}:2: game" in err and "edited or garbled" in err
    assert "played 1 game (7 were already there)" in err
    assert sorted(_lines(tmp_path / "two")) == sorted(_lines(tmp_path / "one"))


def test_report_of_a_tampered_run_says_which_lines_it_did_not_count(tmp_path, capsys):
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out))
    _edit_line(out, 5, _changed_winners)
    assert cli.main(["report", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"stargazer report: warning: {out / GAMES_FILE}:5: game ") and err[0].endswith(
        "was edited or garbled (its digest does not match its content); not counted"
    )
    assert err[1] == f"stargazer report: warning: {out / GAMES_FILE}: 1 line not counted: the report is of the other 7 games"


def _format_1(line: str) -> str:
    """The line as version 1 wrote it: no digest."""
    game = json.loads(line)
    del game["digest"]
    return json.dumps({**game, "format": "stargazer-game/1"}, ensure_ascii=False, separators=(",", ":"))


def test_report_counts_lines_without_a_digest_in_words(tmp_path, capsys):
    """One line of format 1 "carries" no digest; two "carry" none."""
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out))
    _edit_line(out, 5, _format_1)
    assert cli.main(["report", str(out)]) == 0
    warning = f"stargazer report: warning: {out / GAMES_FILE}: 1 line of format 1 carries no digest and could not be checked"
    assert warning in capsys.readouterr().err.splitlines()
    _edit_line(out, 6, _format_1)
    assert cli.main(["report", str(out)]) == 0
    assert warning.replace("1 line", "2 lines").replace("carries", "carry") in capsys.readouterr().err.splitlines()


def test_a_line_s_digest_covers_every_field():
    """Changing any one field of a line, or the digest itself, is seen."""
    from stargazer_rules.formats.game_lines import _checked_line

    line = game_line({"format": "stargazer-game/2", "index": 3, "winners": [1], "seating": ["random"]})
    game = json.loads(line)
    for key in ("index", "winners", "seating", "digest"):
        changed = dict(game)
        changed[key] = 4 if key == "index" else ["x"] if key != "digest" else "0" * 32
        text = json.dumps(changed, separators=(",", ":"))
        assert _checked_line(text)[0] is None, key
    assert _checked_line(line)[1] == "ok"


# -- the default cache --------------------------------------------------------------------


def test_the_readme_main_job_then_compare_reuses_draft7_from_the_user_cache(tmp_path, capsys, monkeypatch):
    """With no --cache and no $STARGAZER_CACHE, runs are kept in the user's cache folder, so a
    compare after a simulate plays only the other ruleset."""
    monkeypatch.delenv(cache.CACHE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_folder() == tmp_path / "xdg" / "stargazer-rules" / "runs"
    _simulate(capsys, "--out", str(tmp_path / "sim"))
    assert cli.main(["compare", "draft7", "base", *QUICK, "--out", str(tmp_path / "cmp")]) == 0
    err = capsys.readouterr().err
    assert "draft7: reused the 8 finished games of the same run in the cache" in err
    assert "base: played 8 games" in err and err.count("played") == 1


def test_the_cache_is_bounded_and_lists_and_clears(tmp_path, capsys, monkeypatch):
    """Over its bound the cache drops the run used least recently (saying so); `cache list`
    shows what it holds, `cache clear KEY` and `cache clear` remove runs."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    size = cache.entries(store)[0].size
    monkeypatch.setenv(cache.SIZE_VARIABLE, str(int(size * 1.5)))
    err = _simulate(capsys, "--out", str(tmp_path / "b"), "--seed", "1", "--cache", str(store))
    assert "the cache is over its bound ($STARGAZER_CACHE_SIZE): removed the run used least recently" in err
    (left,) = cache.entries(store)
    assert left.identity["seed"] == 1
    _simulate(capsys, "--out", str(tmp_path / "c"), "--seed", "2", "--cache", str(store))
    assert cli.main(["cache", "list", "--cache", str(store)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].startswith(f"{store}: 1 run, ") and " MB of " in listing[0]
    assert "draft7 4p random x4 seed 2 native  8 games" in listing[1]
    key = cache.entries(store)[0].key
    assert cli.main(["cache", "clear", "--cache", str(store), "ffffff"]) == 2
    assert "no run in" in capsys.readouterr().err
    assert cli.main(["cache", "clear", "--cache", str(store), key[:8]]) == 0
    assert capsys.readouterr().out.startswith(f"{store}: removed 1 run (")
    assert cache.entries(store) == []


@pytest.mark.parametrize(
    ("text", "bound"),
    [("", cache.DEFAULT_BOUND), ("123", 123), ("2GB", 2 * 10**9), ("1.5 mb", 1_500_000), ("0", 0), ("1TB", 10**12),
     ("1000TB", cache.MAX_BOUND)],
)
def test_the_cache_bound_reads_bytes_and_units(monkeypatch, text, bound):
    monkeypatch.setenv(cache.SIZE_VARIABLE, text)
    assert cache.cache_bound() == bound


_NOT_A_SIZE = "is not a size: write bytes, or a number with KB, MB, GB or TB (e.g. 2GB), from 0 to 1 PB\n"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("lots", "'lots'"),
        ("\u0661\u0662", "'\u0661\u0662'"),  # Arabic-Indic digits: ASCII digits only
        ("-5MB", "'-5MB'"),
        ("5 PB", "'5 PB'"),  # not a unit of the list
        ("1e9", "'1e9'"),
        ("inf", "'inf'"),
        ("9" * 5000, f"'{'9' * 40}'... (5,000 characters)"),
    ],
)
def test_a_cache_bound_that_is_not_a_size_is_one_line_before_anything_is_played(tmp_path, capsys, monkeypatch, text, shown):
    """`cache list` and `simulate` alike: one line naming the forms and the range, exit 2, no
    game played and no folder made."""
    monkeypatch.setenv(cache.SIZE_VARIABLE, text)
    assert cli.main(["cache", "list"]) == 2
    assert capsys.readouterr().err == f"stargazer cache: ${cache.SIZE_VARIABLE}={shown} {_NOT_A_SIZE}"
    err = _simulate(capsys, "--out", str(tmp_path / "run"), "--cache", str(tmp_path / "cache"), status=2)
    assert err == f"stargazer simulate: ${cache.SIZE_VARIABLE}={shown} {_NOT_A_SIZE}"
    assert not (tmp_path / "run").exists() and not (tmp_path / "cache").exists()


def test_a_cache_bound_past_the_largest_is_refused_with_the_largest(monkeypatch):
    monkeypatch.setenv(cache.SIZE_VARIABLE, "1001TB")
    with pytest.raises(ValueError, match=r"^\$STARGAZER_CACHE_SIZE='1001TB' is more than the cache may hold: give at most 1 PB$"):
        cache.cache_bound()


def test_until_decided_caps_its_default_most_games_at_the_run_cap(tmp_path, monkeypatch, capsys):
    """--games 30,000 with --until-decided: the default --max-games (4 x --games) would pass the
    cap of a run; it is the cap instead, so the command plans its looks instead of failing."""
    from stargazer_rules.simulation import runner

    monkeypatch.chdir(tmp_path)
    seen = []
    monkeypatch.setattr(run_commands, "_batches", lambda games, most, players: seen.append((games, most)) or [])
    monkeypatch.setattr(run_commands, "_compare_and_write", lambda *args: {})
    monkeypatch.setattr("stargazer_rules.analysis.write_comparison", lambda comparison, out: None)
    monkeypatch.setattr("stargazer_rules.analysis.brief.comparison_brief", lambda comparison, **given: Brief("", "", (), (), ""))
    assert cli.main(["compare", "draft7", "base", "--games", "30000", "--until-decided", "--bots", "random"]) == 0
    assert seen == [(30000, runner.MAX_GAMES)]


def test_a_first_seed_whose_last_block_passes_the_seed_range_is_refused_in_one_line(tmp_path, capsys):
    """Block b is dealt from S + b: with S = 2**64 - 1 the second block's seed is out of range,
    refused before any game is played."""
    from stargazer_rules.engine.seeds import MAX_SEED

    out = tmp_path / "run"
    err = _simulate(capsys, "--out", str(out), "--seed", str(MAX_SEED), status=1)
    assert err == (
        f"stargazer simulate: --seed {MAX_SEED} with 2 blocks of games deals the last block from seed "
        f"{MAX_SEED + 1}, past the largest seed ({MAX_SEED}); give a seed of at most {MAX_SEED - 1}\n"
    )
    assert not (out / GAMES_FILE).exists()
    assert "played 8 games" in _simulate(capsys, "--out", str(out), "--seed", str(MAX_SEED - 1))


@pytest.mark.slow
def test_a_comparison_holds_no_game_line_at_its_looks_or_its_verdict(tmp_path, capsys, monkeypatch):
    """compare --until-decided keeps of each game the figures its verdict and metrics read
    (analysis.game_figures), never the line: at each look and at the comparison no more
    games.jsonl lines are alive than before the command, and a game's figures are 2 kB at most
    (256 numbers)."""
    import gc

    from stargazer_rules import analysis
    from stargazer_rules.analysis import sequential
    from stargazer_rules.analysis.game_figures import GameFigures

    def lines_alive() -> int:
        gc.collect()
        return sum(1 for thing in gc.get_objects() if type(thing) is dict and "score_sheet" in thing)

    seen = []
    look, compare_summaries = sequential.look, analysis.compare_summaries

    def counted_look(pairs, *args, **options):
        seen.append(("look", len(pairs), lines_alive(), {type(game) for pair in pairs for game in pair}))
        return look(pairs, *args, **options)

    def counted_compare(run_a, run_b, **options):
        games = [*run_a.games, *run_b.games]
        seen.append(("compare", len(games), lines_alive(), {type(game) for game in games}))
        assert max(len(game.values) for game in games) <= 256
        return compare_summaries(run_a, run_b, **options)

    monkeypatch.setattr(sequential, "look", counted_look)
    monkeypatch.setattr(analysis, "compare_summaries", counted_compare, raising=False)
    before = lines_alive()
    out = tmp_path / "cmp"
    assert cli.main(["compare", "draft7", "base", *QUICK, "--until-decided", "--max-games", "16", "--out", str(out)]) == 0
    assert seen == [("look", 8, before, {GameFigures}), ("look", 16, before, {GameFigures}),
                    ("compare", 32, before, {GameFigures})]


# -- Ctrl-C keeps what was played ---------------------------------------------------------


@pytest.mark.parametrize("no_cache", [[], ["--no-cache"]])
def test_the_command_ctrl_c_names_keeps_every_game_played(tmp_path, capsys, monkeypatch, no_cache):
    """A run stopped after 6 of its 16 games names the command that finishes it; that command,
    with or without --no-cache, plays only the other 10 and keeps the 6 lines as they were."""
    from stargazer_rules.simulation import runner

    chunks = []
    real = runner.play_chunk

    def stopping(*args):
        if len(chunks) == 3:
            raise KeyboardInterrupt
        chunks.append(args)
        return real(*args)

    monkeypatch.setattr(runner, "play_chunk", stopping)
    out = tmp_path / "run"
    args = ["--out", str(out), "--games", "16", "--cache", str(tmp_path / "cache"), *no_cache]
    err = _simulate(capsys, *args, status=130)
    kept = _lines(out)
    assert len(kept) == 6
    hint = err.splitlines()[-1]
    prefix = f"stargazer simulate: interrupted; the games played so far are kept in {out / GAMES_FILE}: "
    assert hint.startswith(prefix) and hint.endswith(" plays only the rest")
    command = shlex.split(hint[len(prefix) : -len(" plays only the rest")])
    assert command == ["stargazer", "simulate", *QUICK, *args, "--resume"]
    monkeypatch.setattr(runner, "play_chunk", real)
    assert cli.main(command[1:]) == 0
    finished = capsys.readouterr().err
    assert "draft7: played 10 games (6 were already there)" in finished
    assert _lines(out)[:6] == kept and _indices(out) == list(range(16))
