"""Paths a command is given that it cannot use are one line, never a traceback.

A symlink loop where a ruleset's targets.yaml or tune.yaml, its playtests folder or the cache
folder should be; a ``--out`` longer than the system allows; ``--cache`` naming a file or
``/dev/null``: each stops the command with one line naming the option or the path and what is
wrong with it. And a comparison's own folder is reused when it is run again (docs/simulation.md).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from stargazer_rules.frontends import cli

QUICK = ["--games", "2", "--bots", "random", "--workers", "1"]
LONG = "x" * 300
LOG = ["--seats", "Aki,Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", "Aki=15,5,2,22,0",
       "--score", "Ben=14,6,2,22,2", "--score", "Chie=9,4,1,14"]


def one_line(capsys, argv: list[str]) -> str:
    """The one error line of ``stargazer argv``, which must fail without a traceback."""
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("stargazer ")]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture(scope="module")
def draft(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("draft") / "draft8"
    assert cli.main(["new-draft", str(path)]) == 0
    return path


def test_compare_run_again_into_its_own_folder_reuses_it(tmp_path, capsys):
    out = tmp_path / "cmp"
    command = ["compare", "base", "draft7", *QUICK, "--out", str(out)]
    assert cli.main(command) == 0
    assert cli.main(command) == 0, capsys.readouterr().err
    assert f"Every figure: {out / 'comparison.html'} and {out / 'comparison.json'}" in capsys.readouterr().out


def test_compare_still_refuses_a_folder_holding_what_it_did_not_write(tmp_path, capsys):
    out = tmp_path / "cmp"
    (out / "base").mkdir(parents=True)
    (out / "base" / "notes.txt").write_text("mine\n", encoding="utf-8")
    line = one_line(capsys, ["compare", "base", "draft7", *QUICK, "--out", str(out)])
    assert line.startswith(f"stargazer compare: --out {out} holds what this command did not write (base)")


@pytest.mark.parametrize("name", ["targets.yaml", "tune.yaml"])
def test_a_symlink_loop_beside_the_ruleset_is_one_line(draft, tmp_path, capsys, name):
    looped = tmp_path / "looped"
    shutil.copytree(draft, looped)
    (looped / name).unlink()
    (looped / name).symlink_to(name)
    loop = f"{looped / name}: it is a symlink loop: it leads back to itself, never to a YAML file"
    assert cli.main(["validate", str(looped)]) == 1
    assert loop in capsys.readouterr().out
    if name == "targets.yaml":
        command = ["simulate", "--rules", str(looped), *QUICK, "--out", str(tmp_path / "run")]
    else:
        command = ["tune", str(looped), "--trials", "1", "--games-per-trial", "4", "--recheck-games", "4",
                   "--bots", "random", "--workers", "1", "--out", str(tmp_path / "tune")]
    assert one_line(capsys, command).endswith(loop)


def test_a_symlink_loop_in_the_playtests_folder_is_one_line(draft, tmp_path, capsys):
    looped = tmp_path / "looped"
    shutil.copytree(draft, looped)
    (looped / "playtests").mkdir()
    (looped / "playtests" / "a.yaml").symlink_to("a.yaml")
    assert cli.main(["playtest", "list", "--rules", str(looped)]) == 1
    err = capsys.readouterr().err
    assert f"{looped / 'playtests' / 'a.yaml'}: it is a symlink loop" in err and "Traceback" not in err


def test_a_playtests_folder_linking_to_itself_is_one_line(draft, tmp_path, capsys):
    looped = tmp_path / "looped"
    shutil.copytree(draft, looped)
    (looped / "playtests").symlink_to("playtests")
    folder = looped / "playtests"
    assert one_line(capsys, ["playtest", "list", "--rules", str(looped)]) == (
        f"stargazer playtest: {folder} is a symlink loop: it leads back to itself, never to a file or folder")
    assert one_line(capsys, ["playtest", "add", "--rules", str(looped), *LOG]) == (
        f"stargazer playtest add: {folder} is a symbolic link, not a folder: stargazer writes only into a real "
        "folder; remove it or write elsewhere")


def test_a_cache_folder_linking_to_itself_is_one_line_naming_the_option(tmp_path, capsys, monkeypatch):
    loop = tmp_path / "cache"
    loop.symlink_to("cache")
    said = f"{loop} is a symlink loop: it leads back to itself, never to a file or folder"
    out = tmp_path / "run"
    assert one_line(capsys, ["simulate", *QUICK, "--out", str(out), "--cache", str(loop)]) == (
        f"stargazer simulate: --cache {said}")
    assert not out.exists()
    monkeypatch.setenv("STARGAZER_CACHE", str(loop))
    assert one_line(capsys, ["cache", "list"]) == f"stargazer cache: $STARGAZER_CACHE {said}"


@pytest.mark.parametrize(("given", "kind"), [("file", "a file"), ("/dev/null", "a character device")])
def test_cache_naming_a_file_or_dev_null_is_one_line_naming_the_option(tmp_path, capsys, given, kind):
    if given == "file":
        given = str(tmp_path / "notes.txt")
        Path(given).write_text("mine\n", encoding="utf-8")
    for command in (["simulate", *QUICK, "--out", str(tmp_path / "run")],
                    ["ladder", "--budgets", "1,2", "--games", "2", "--workers", "1", "--out", str(tmp_path / "ladder")]):
        assert one_line(capsys, [*command, "--cache", given]) == (
            f"stargazer {command[0]}: --cache {given} is {kind}, not a folder: the cache keeps its runs in a folder; "
            "name a folder (missing, it is made)")
        assert not (tmp_path / command[-1]).exists()


@pytest.mark.parametrize("command", [
    ["simulate", *QUICK],
    ["compare", "base", "draft7", *QUICK],
    ["ladder", "--budgets", "1,2", "--games", "2", "--workers", "1"],
    ["explain", *QUICK],
    ["simulate", "--players", "3,4", *QUICK],
])
def test_an_out_too_long_for_the_system_is_one_line_naming_the_option(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, [*command, "--out", LONG])
    assert line == (f"stargazer {command[0]}: --out {LONG[:80]}… is a name too long for this system "
                    "(300 characters, its longest part 300): choose a shorter one")


def test_tune_out_too_long_is_one_line_naming_the_option(draft, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line(capsys, ["tune", str(draft), "--trials", "1", "--games-per-trial", "4", "--bots", "random",
                             "--workers", "1", "--out", LONG])
    assert line.startswith(f"stargazer tune: --out {LONG[:80]}… is a name too long for this system")


@pytest.mark.parametrize("command", [["print", "--out"], ["play-random", "--players", "3", "--record"], ["new-draft"]])
def test_a_file_name_too_long_is_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert "is a name too long for this system (300 characters" in one_line(capsys, [*command, LONG])


def test_a_games_file_hard_linked_to_another_file_is_never_appended_to(tmp_path, capsys):
    """A hard link at games.jsonl shares its bytes with a file elsewhere: --resume says what
    it is going to do, then refuses it in one line, and the other file keeps its bytes."""
    out = tmp_path / "run"
    assert cli.main(["simulate", "--games", "4", "--bots", "random", "--workers", "1", "--out", str(out)]) == 0
    decoy = tmp_path / "decoy.jsonl"
    (out / "games.jsonl").rename(decoy)
    os.link(decoy, out / "games.jsonl")
    before = decoy.read_bytes()
    capsys.readouterr()
    assert cli.main(["simulate", "--games", "8", "--bots", "random", "--workers", "1", "--out", str(out), "--resume"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"stargazer simulate: {out / 'games.jsonl'} is a hard link (the file has 2 names): stargazer appends only to "
        "a file of its own; remove it or write elsewhere"
    )
    assert decoy.read_bytes() == before
