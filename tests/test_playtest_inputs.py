"""What ``stargazer playtest`` takes from its user, refused in one line: a log's name that is a
path, a seat scored twice, more logs than are read at once; and names shown, never obeyed."""

from __future__ import annotations

from pathlib import Path

import pytest

from stargazer_rules import load_ruleset
from stargazer_rules.frontends.cli import main
from stargazer_rules.playtests import folder
from stargazer_rules.playtests.log import log_from_yaml_text

GOOD = """\
date: 2026-11-28
ruleset: draft8
seats: [Aki, Ben, Chie]
rounds: 6
scores:
  Aki: {majority: 15, bonus: 5, play: 2, total: 22}
  Ben: {majority: 14, bonus: 6, play: 2, total: 22}
  Chie: {majority: 9, bonus: 4, play: 1, total: 14}
"""
FLAGS = ["--seats", "Aki,Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", "Aki=15,5,2,22",
         "--score", "Ben=14,6,2,22", "--score", "Chie=9,4,1,14"]


@pytest.fixture
def draft(tmp_path, capsys) -> Path:
    main(["new-draft", str(tmp_path / "draft8"), "--from", "draft7"])
    capsys.readouterr()
    return tmp_path / "draft8"


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err.rstrip("\n")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../../x", "holds a path separator"),
        ("sub/x", "holds a path separator"),
        ("..\\x", "holds a path separator"),
        ("..", "starts with '.'"),
        (".hidden", "starts with '.'"),
        ("", "is empty"),
        ("a\x00b", "U+0000, a control character at character 2"),
        ("two\nlines", "U+000A, a control character at character 4"),
        ("x\u202egpj", "U+202E (right-to-left override)"),
        ("x" * 101, "is 101 characters long: at most 100"),
    ],
)
def test_a_log_name_is_a_file_name_in_its_folder(draft, tmp_path, capsys, name, why):
    """--name ../../x and --name /abs/path wrote outside --to; each is refused, nothing written."""
    to = tmp_path / "logs"
    before = sorted(tmp_path.rglob("*"))
    assert main(["playtest", "add", "--rules", str(draft), *FLAGS, "--name", name, "--to", str(to)]) == 1
    said = one_line_error(capsys)
    assert said.startswith("stargazer playtest add: the log name ") and why in said
    assert "\x00" not in said and "\u202e" not in said and "\n" not in said
    assert sorted(tmp_path.rglob("*")) == before


def test_an_absolute_name_writes_nothing_anywhere(draft, tmp_path, capsys):
    target = tmp_path / "elsewhere" / "x"
    assert main(["playtest", "add", "--rules", str(draft), *FLAGS, "--name", str(target), "--to", str(tmp_path / "logs")]) == 1
    assert "holds a path separator" in one_line_error(capsys)
    assert not (tmp_path / "elsewhere").exists() and not (tmp_path / "logs").exists()


def test_the_library_refuses_the_same_names(draft):
    ruleset = load_ruleset(draft)
    log = log_from_yaml_text(GOOD, "log.yaml", ruleset)
    with pytest.raises(ValueError, match="holds a path separator"):
        folder.add_log(ruleset, log, name="../x")
    assert folder.add_log(ruleset, log, name="friday..night").name == "friday..night.yaml"


def test_a_seat_scored_twice_is_refused_naming_it(draft, capsys):
    """The first --score of a seat was silently dropped."""
    flags = [*FLAGS, "--score", "Aki=16,5,2,23"]
    assert main(["playtest", "add", "--rules", str(draft), *flags]) == 1
    assert one_line_error(capsys) == "stargazer playtest add: --score 'Aki' is given twice: one --score a seat"
    assert not (draft / "playtests").exists()


def test_a_score_figure_is_ascii_digits(draft, capsys):
    flags = [*FLAGS[:-1], "Chie=9,4,1,1\u00b2"]
    assert main(["playtest", "add", "--rules", str(draft), *flags]) == 1
    assert "--score 'Chie=9,4,1,1\u00b2': write NAME=MAJORITY" in one_line_error(capsys)


@pytest.mark.parametrize("command", [["playtest", "list"], ["playtest", "report"], ["calibrate"]])
def test_more_logs_than_are_read_is_one_line(tmp_path, capsys, command):
    """10,001 logs ended in a DraftError traceback."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for number in range(folder.MAX_LOGS + 1):
        (logs / f"{number}.yaml").touch()
    assert main([*command, "--from", str(logs)]) == 1
    assert one_line_error(capsys) == (
        f"stargazer {' '.join(command)}: {logs}: 10,001 playtest logs: at most 10,000 are read at once"
    )
