"""The cache owns only what it made, and a run writes only into a folder of its own.

An entry of the cache is a folder it made, with its mark (docs/simulation.md, "The cache");
listing, eviction and `cache clear` never touch a user's folders under the cache folder, nor the
run being made, and no link inside the cache or a run folder is followed to write outside it.
`--out` refuses a folder holding what the command did not write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from stargazer_rules.formats.game_lines import GAMES_FILE
from stargazer_rules.frontends import cli
from stargazer_rules.simulation import cache, locks, run_folder

QUICK = ["--games", "8", "--bots", "random", "--workers", "1"]


@pytest.fixture(autouse=True)
def no_report_files(monkeypatch):
    """These tests are about the files of runs; the report pages are left out."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)
    monkeypatch.setattr(analysis, "write_comparison", lambda comparison, out: None)


def _simulate(capsys, *args: str, status: int = 0) -> str:
    assert cli.main(["simulate", *QUICK, *args]) == status
    return capsys.readouterr().err


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (links as what they name)."""
    found = {}
    for root, _folders, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            found[str(path.relative_to(folder))] = os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
    return found


def _users_runs(capsys, tmp_path: Path) -> Path:
    """A folder holding two of a user's run folders (played with another cache) and a file."""
    mine = tmp_path / "mine"
    for seed in ("1", "2"):
        _simulate(capsys, "--out", str(mine / f"run-{seed}"), "--seed", seed, "--cache", str(tmp_path / "elsewhere"))
    (mine / "notes.txt").write_text("mine\n", encoding="utf-8")
    return mine


def test_eviction_and_clear_leave_a_user_s_run_folders_under_the_cache_folder(tmp_path, capsys, monkeypatch):
    """--cache naming a folder of a user's runs, with a bound smaller than one run: the run is
    kept there and evicts nothing of the user's; `cache list` counts only its own entry and
    says what it leaves alone; `cache clear` removes that entry only."""
    mine = _users_runs(capsys, tmp_path)
    before = _tree(mine)
    monkeypatch.setenv(cache.SIZE_VARIABLE, "1")
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(mine))
    err = _simulate(capsys, "--out", str(tmp_path / "b"), "--seed", "3", "--cache", str(mine))
    assert "removed the run used least recently" in err
    (entry,) = cache.entries(mine)
    assert entry.identity["seed"] == 3
    assert {name: data for name, data in _tree(mine).items() if not name.startswith(entry.key)} == before
    assert cli.main(["cache", "list", "--cache", str(mine)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].startswith(f"{mine}: 1 run, ")
    assert listing[-1] == "  left alone: notes.txt, run-1, run-2 (are not a run this cache made)"
    assert cli.main(["cache", "clear", "--cache", str(mine)]) == 0
    assert capsys.readouterr().out.startswith(f"{mine}: removed 1 run (")
    assert _tree(mine) == before


def test_an_out_folder_inside_the_cache_folder_is_refused_before_anything_is_written(tmp_path, capsys):
    mine = _users_runs(capsys, tmp_path)
    before = _tree(mine)
    err = _simulate(capsys, "--out", str(mine / "run-3"), "--cache", str(mine), status=1)
    assert err == (
        f"stargazer simulate: --out {mine / 'run-3'} is inside the cache folder {mine}: the cache keeps only the "
        "runs it makes; choose an --out outside it\n"
    )
    err = _simulate(capsys, "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "out" / "cache"), status=1)
    assert "is inside --out" in err and "choose another --out or --cache" in err
    assert _tree(mine) == before and not (mine / "run-3").exists()


def test_a_folder_named_like_an_entry_without_the_mark_is_not_the_cache_s(tmp_path, capsys):
    """A user's run folder renamed to a key, run.json and all: not listed, not cleared, and the
    run of that key is not written into it."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    (entry,) = cache.entries(store)
    (entry.folder / cache.MARK_FILE).unlink()
    before = _tree(store)
    assert cache.entries(store) == []
    assert cli.main(["cache", "clear", "--cache", str(store)]) == 0
    capsys.readouterr()
    err = _simulate(capsys, "--out", str(tmp_path / "b"), "--cache", str(store))
    assert f"warning: the run was not kept in the cache: {entry.folder} is not a run the cache can write" in err
    assert "move it away, or choose another --cache" in err
    assert _tree(store) == before


def test_a_linked_games_file_in_an_entry_is_neither_read_nor_written_through(tmp_path, capsys):
    """An entry whose games.jsonl is a link to a file outside the cache: the file outside gets
    no line, the entry is not reused (a warning says why), and the run is played."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    (entry,) = cache.entries(store)
    outside = tmp_path / "outside.jsonl"
    outside.write_text("mine\n", encoding="utf-8")
    (entry.folder / GAMES_FILE).unlink()
    (entry.folder / GAMES_FILE).symlink_to(outside)
    err = _simulate(capsys, "--out", str(tmp_path / "b"), "--cache", str(store))
    assert f"draft7: warning: {entry.folder} is not reused: games.jsonl is not a plain file" in err
    assert "draft7: played 8 games" in err
    assert (
        f"draft7: warning: the run was not kept in the cache: {entry.folder} is not a run the cache can write "
        f"(games.jsonl is not a plain file): left as it is; 'stargazer cache clear {entry.key[:12]}' removes it\n"
    ) in err
    assert outside.read_text(encoding="utf-8") == "mine\n"
    assert cli.main(["cache", "clear", "--cache", str(store), entry.key[:12]]) == 0
    assert not os.path.lexists(entry.folder) and outside.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("name", [locks.LOCK_FILE, locks.HOLDER_FILE, run_folder.IDENTITY_FILE + ".partial"])
def test_a_link_where_a_run_keeps_a_file_is_refused_and_its_target_untouched(tmp_path, capsys, name):
    """A lock file, holder file or partial file that is a link to a file outside: one line, the
    file outside as it was."""
    out = tmp_path / "run"
    out.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("mine\n", encoding="utf-8")
    (out / name).symlink_to(outside)
    err = _simulate(capsys, "--out", str(out), "--cache", str(tmp_path / "cache"), status=1)
    assert len(err.splitlines()) == 1 and "is not a plain file" in err
    assert outside.read_text(encoding="utf-8") == "mine\n"


def test_a_linked_entry_folder_is_not_the_cache_s(tmp_path, capsys):
    """CACHE/<key> a link to a folder elsewhere: not listed, not cleared, not written."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    (entry,) = cache.entries(store)
    elsewhere = tmp_path / "elsewhere"
    entry.folder.rename(elsewhere)
    entry.folder.symlink_to(elsewhere, target_is_directory=True)
    before = _tree(elsewhere)
    assert cache.entries(store) == []
    assert cli.main(["cache", "clear", "--cache", str(store)]) == 0
    capsys.readouterr()
    err = _simulate(capsys, "--out", str(tmp_path / "b"), "--cache", str(store))
    assert "is not a run the cache can write (not a plain folder)" in err
    assert _tree(elsewhere) == before


def test_cache_list_over_a_run_json_of_wrong_types_or_a_fifo_is_one_line_each(tmp_path, capsys):
    """run.json with a lineup that is a number, or a FIFO in its place: listed without its
    run, no traceback and no wait."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    _simulate(capsys, "--out", str(tmp_path / "b"), "--seed", "1", "--cache", str(store))
    first, second = cache.entries(store)
    identity = json.loads((first.folder / run_folder.IDENTITY_FILE).read_text(encoding="utf-8"))
    (first.folder / run_folder.IDENTITY_FILE).write_text(json.dumps({**identity, "lineup": 4, "ruleset": "x"}), encoding="utf-8")
    (second.folder / run_folder.IDENTITY_FILE).unlink()
    os.mkfifo(second.folder / run_folder.IDENTITY_FILE)
    assert cli.main(["cache", "list", "--cache", str(store)]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert len(listing) == 3
    assert all("(no readable run.json)  8 games" in line for line in listing[1:])


@pytest.mark.parametrize(
    ("found", "why"),
    [
        ({"lineup": 4}, "its 'lineup' is not a list of bot specs"),
        ({"ruleset": "draft7"}, "its 'ruleset' is not a name and a fingerprint"),
        ({"players": True}, "its 'players' is not a whole number"),
        ({"seed": "0"}, "its 'seed' is not a whole number"),
    ],
)
def test_an_identity_of_the_wrong_shape_is_not_read(found, why):
    identity = cache.run_identity("draft7", "f" * 64, 4, ["random"] * 4, 0, "native")
    assert run_folder.identity_problem(identity) is None
    assert run_folder.identity_problem({**identity, **found}) == why


def test_out_refuses_a_folder_holding_what_the_command_did_not_write(tmp_path, capsys, monkeypatch):
    """A folder of a user's files, and the root folder: one line naming a few of them and
    another --out; nothing written. A new folder, an empty one and one of a run's own are taken."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        (folder / name).write_text("mine\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    err = _simulate(capsys, "--out", str(folder), status=2)
    assert err == (
        f"stargazer simulate: --out {folder} holds what this command did not write (a.txt, b.txt, c.txt and more): "
        "it writes only into a new or empty folder or one of its own; choose another, e.g. --out simulation-draft7-4p\n"
    )
    assert sorted(os.listdir(folder)) == ["a.txt", "b.txt", "c.txt", "d.txt"]
    err = _simulate(capsys, "--out", "/", status=2)
    assert err.startswith("stargazer simulate: --out / holds what this command did not write (")
    (tmp_path / "empty").mkdir()
    _simulate(capsys, "--out", "empty", "--cache", str(tmp_path / "cache"))
    _simulate(capsys, "--out", "empty", "--cache", str(tmp_path / "cache"), "--games", "16")
    err = cli.main(["compare", "draft7", "base", *QUICK, "--out", str(folder), "--cache", str(tmp_path / "cache")])
    assert err == 2 and "holds what this command did not write" in capsys.readouterr().err


def test_the_default_out_name_is_not_suggested_for_itself(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "simulation-draft7-4p").mkdir()
    (tmp_path / "simulation-draft7-4p" / "mine.txt").write_text("mine\n", encoding="utf-8")
    err = _simulate(capsys, status=2)
    assert err.endswith("choose another, e.g. --out simulation-draft7-4p-2\n")


def test_eviction_never_removes_the_run_being_made(tmp_path, capsys, monkeypatch):
    """With a bound of 0 bytes every other entry leaves, the run just kept stays."""
    store = tmp_path / "cache"
    monkeypatch.setenv(cache.SIZE_VARIABLE, "0")
    _simulate(capsys, "--out", str(tmp_path / "a"), "--cache", str(store))
    _simulate(capsys, "--out", str(tmp_path / "b"), "--seed", "1", "--cache", str(store))
    (entry,) = cache.entries(store)
    assert entry.identity["seed"] == 1 and entry.games == 8


@pytest.mark.parametrize(
    ("command", "default"),
    [(["ladder", "--budgets", "1,2", "--games", "6"], "ladder-draft7-4p"), (["tune", "draft7", "--trials", "1"], "tune-draft7-4p")],
)
def test_ladder_and_tune_refuse_a_folder_holding_what_they_did_not_write(tmp_path, capsys, command, default):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("mine\n", encoding="utf-8")
    assert cli.main([*command, "--out", str(folder)]) == 2
    assert capsys.readouterr().err == (
        f"stargazer {command[0]}: --out {folder} holds what this command did not write (a.txt): it writes only into "
        f"a new or empty folder or one of its own; choose another, e.g. --out {default}\n"
    )
    assert os.listdir(folder) == ["a.txt"]


def test_compare_refuses_an_out_inside_the_cache_folder_before_making_anything_there(tmp_path, capsys):
    store = tmp_path / "cache"
    store.mkdir()
    assert cli.main(["compare", "draft7", "base", *QUICK, "--out", str(store / "cmp"), "--cache", str(store)]) == 1
    assert "is inside the cache folder" in capsys.readouterr().err
    assert os.listdir(store) == []


def test_the_library_run_refuses_a_linked_games_file(tmp_path):
    from stargazer_rules import load_ruleset
    from stargazer_rules.simulation import SimulationError, run_simulation

    out = tmp_path / "run"
    out.mkdir()
    outside = tmp_path / "outside.jsonl"
    outside.write_text("mine\n", encoding="utf-8")
    (out / GAMES_FILE).symlink_to(outside)
    with pytest.raises(SimulationError, match="games.jsonl: not a plain file"):
        run_simulation(load_ruleset(), out, players=4, games=4, lineup=("random",) * 4, workers=1, progress=False)
    assert outside.read_text(encoding="utf-8") == "mine\n"


def test_a_linked_ladders_folder_in_the_cache_is_not_written_through(tmp_path):
    """CACHE/ladders a link to a folder elsewhere: the ladder is refused there in one OSError
    and nothing is written in the folder it names."""
    from stargazer_rules.analysis import ladder_report
    from stargazer_rules.simulation import ladder

    step = ladder.StepResult("weak", "strong", 4, (1.0,) * 12, (0.0,) * 12)
    figures = ladder_report.ladder_figures(
        ruleset={"name": "draft7", "fingerprint": "0" * 64}, players=4, budgets=[1, 2], seed=0,
        engine="native", deals=2, seatings=6, steps=[step],
    )
    store = tmp_path / "cache"
    store.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (store / cache.LADDERS_FOLDER).symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OSError, match="ladders is a symbolic link, not a folder: stargazer writes only into a real folder"):
        ladder.write_ladder(figures, tmp_path / "out", store)
    assert os.listdir(elsewhere) == []
