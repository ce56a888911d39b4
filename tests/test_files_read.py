"""Every file the library reads is checked before it is read (``rulesets.boundedfiles``), and
YAML is read as editors write it (``rulesets.yamlsource``): each refusal is one line, at once."""

from __future__ import annotations

import os
import socket
import unicodedata
from pathlib import Path

import pytest

from stargazer_rules.errors import FileRefused
from stargazer_rules.rulesets import boundedfiles
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.yamlsource import parse_yaml

from ruleset_edits import copy_ruleset, only_problem, read, replace

# -- the bounded reader ---------------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    """``open`` of a FIFO blocks until a writer comes: the reader never opens one."""
    fifo = tmp_path / "crew.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match=r"crew.yaml is a FIFO \(named pipe\), not a YAML file$"):
        boundedfiles.read_text(fifo, 1000, "YAML file")


def test_a_device_is_refused_before_a_byte_is_read(tmp_path):
    """``/dev/zero`` never ends: reading it ran out of memory after 4 GB."""
    with pytest.raises(FileRefused, match=r"^/dev/zero is a character device, not a game record$"):
        boundedfiles.read_bytes("/dev/zero", 1000, "game record")


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(os.fspath(path))
        with pytest.raises(FileRefused, match="is a socket, not a file$"):
            boundedfiles.read_bytes(path, 1000)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(FileRefused, match="is a folder, not a ladder"):
        boundedfiles.read_json(tmp_path, 1000, "ladder")


def test_a_file_over_its_bound_is_refused_by_its_size(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 1001)
    with pytest.raises(FileRefused, match=r"is 1,001 bytes, over the limit of 1,000 for a file$"):
        boundedfiles.read_bytes(path, 1000)
    assert boundedfiles.read_bytes(path, 1001) == b" " * 1001


def test_a_symlink_out_of_its_folder_is_refused_and_one_inside_it_followed(tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("a: 1\n", encoding="utf-8")
    folder = tmp_path / "draft"
    folder.mkdir()
    (folder / "out.yaml").symlink_to(outside)
    (folder / "real.yaml").write_text("b: 2\n", encoding="utf-8")
    (folder / "in.yaml").symlink_to("real.yaml")
    with pytest.raises(FileRefused, match=f"out.yaml is a symlink to {outside}, outside its folder {folder}"):
        boundedfiles.read_text(folder / "out.yaml", 1000)
    assert boundedfiles.read_text(folder / "in.yaml", 1000) == "b: 2\n"


def test_a_symlink_loop_is_one_line(tmp_path):
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    with pytest.raises(FileRefused, match="a.yaml is a symlink loop"):
        boundedfiles.read_text(tmp_path / "a.yaml", 1000)


def test_open_plain_streams_a_regular_file_and_follows_no_link_at_all(tmp_path):
    """The cache's own files: a regular file opens; a link (even beside it) and a FIFO do not."""
    (tmp_path / "games.jsonl").write_bytes(b"{}\n")
    with boundedfiles.open_plain(tmp_path / "games.jsonl") as file:
        assert file.read() == b"{}\n"
    (tmp_path / "link").symlink_to(tmp_path / "games.jsonl")
    with pytest.raises(OSError):
        boundedfiles.open_plain(tmp_path / "link")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(FileRefused, match="fifo is not a regular file"):
        boundedfiles.open_plain(tmp_path / "fifo")


def test_a_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        boundedfiles.read_text(tmp_path / "none.yaml", 1000)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"a": NaN}', "NaN is not a JSON number"),
        (b'{"a": -Infinity}', "-Infinity is not a JSON number"),
        (b"[" * 100_000, "nested too deeply"),
        (b"9" * 5000, "a number too long to read"),
        (b'{"a": 1', "not a JSON record: Expecting ',' delimiter at line 1, column 8"),
        (b"\xff\xfe", "not UTF-8 text (invalid start byte at byte 0)"),
    ],
)
def test_json_is_read_strictly_in_one_line(tmp_path, content, reason):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(FileRefused) as caught:
        boundedfiles.read_json(path, 1_000_000, "record")
    assert reason in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_excerpt_is_short_and_on_one_line():
    assert boundedfiles.excerpt("a\nb") == "a b"
    assert len(boundedfiles.excerpt("x" * 10_000)) == boundedfiles.EXCERPT_CHARS


# -- the ruleset's files through it ------------------------------------------------------------


def test_a_fifo_as_crew_yaml_is_a_problem_not_a_hang(tmp_path):
    folder = copy_ruleset(tmp_path)
    (folder / "crew.yaml").unlink()
    os.mkfifo(folder / "crew.yaml")
    assert only_problem(folder).message == "it is a FIFO (named pipe), not a YAML file"


def test_a_symlinked_yaml_file_is_never_quoted_whole(tmp_path):
    """crew.yaml linked to a text file in its folder: the problem quotes an excerpt of it."""
    folder = copy_ruleset(tmp_path)
    (folder / "notes.txt").write_text("lorem ipsum " * 500, encoding="utf-8")
    (folder / "crew.yaml").unlink()
    (folder / "crew.yaml").symlink_to("notes.txt")
    problem = only_problem(folder)
    assert problem.message.startswith("expected a mapping, found 'lorem ipsum lorem")
    assert len(problem.message) < 120


# -- YAML as editors write it -------------------------------------------------------------------


def _saved_as(folder: Path, file: str, change) -> None:
    text = read(folder, file)
    (folder / file).write_bytes(change(text).encode("utf-8"))


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda text: "\ufeff" + text, id="byte order mark"),
        pytest.param(lambda text: text.replace("\n", "\r\n"), id="CRLF"),
        pytest.param(lambda text: text.replace("\n", "\r"), id="CR"),
        pytest.param(lambda text: unicodedata.normalize("NFD", text), id="decomposed Unicode"),
    ],
)
def test_a_file_saved_by_any_editor_is_the_same_ruleset(tmp_path, change):
    """The same ruleset, the same fingerprint, whatever the editor wrote."""
    folder = copy_ruleset(tmp_path)
    for file in ("crew.yaml", "planets.yaml", "rules.yaml"):
        _saved_as(folder, file, change)
    assert load_ruleset(folder).fingerprint == load_ruleset("draft7").fingerprint


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda text: "\ufeff" + text, id="byte order mark"),
        pytest.param(lambda text: text.replace("\n", "\r\n"), id="CRLF"),
        pytest.param(lambda text: text.replace("\n", "\r"), id="CR"),
    ],
)
def test_a_problem_has_the_same_line_and_column_whatever_the_line_ends(tmp_path, change):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "rules.yaml", "free_cubes: 12", "free_cubes: twelve")
    expected = only_problem(folder)
    _saved_as(folder, "rules.yaml", change)
    found = only_problem(folder)
    assert (found.line, found.column, found.message) == (expected.line, expected.column, expected.message)
    assert found.line == line


def test_a_name_in_decomposed_unicode_is_normalised_to_composed():
    composed = "ガ"
    document = parse_yaml(f"name: {unicodedata.normalize('NFD', composed)}\n", "f.yaml")
    assert document.data == {"name": composed}


def test_keys_equal_once_normalised_are_duplicates():
    document = parse_yaml(f"{unicodedata.normalize('NFD', 'ガ')}: 1\nガ: 2\n", "f.yaml")
    assert [p.message for p in document.problems] == ["duplicate key 'ガ'; the first is at line 1, and this one replaces it"]


def test_a_merge_key_is_refused_with_its_reason(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "    survey_count: 3\n", "    <<: {survey_count: 3}\n")
    problem = only_problem(folder)
    assert (problem.line, problem.column) == (line, 5)
    assert problem.message.startswith("a '<<' merge key is YAML 1.1 only")


@pytest.mark.parametrize("written", [".nan", ".NaN", ".inf", "-.Inf", "1e999"])
def test_a_number_that_is_not_finite_is_refused_where_it_is_written(written):
    """A NaN passes every minimum and maximum of a schema: it is refused before any of them."""
    document = parse_yaml(f"settings:\n  power: {written}\n", "t.yaml")
    assert [(p.line, p.column, p.path) for p in document.problems] == [(2, 10, "settings.power")]
    assert document.problems[0].message.startswith(f"{written} is not a finite number")


def test_an_integer_of_thousands_of_digits_is_one_problem():
    document = parse_yaml("a: " + "7" * 5000 + "\n", "f.yaml")
    assert [p.message for p in document.problems] == [
        "invalid YAML: an integer of 5,000 digits: no number in these files has more than 40"
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("crew:\n  - id: a\n    name: x\n   survey_count: 2\n", 4,
         "this line is indented differently from the lines it belongs with (the block that starts at "
         "line 2): indent it by as many spaces as its neighbours"),
        ("a:\n\tb: 1\n", 2, "a tab character: YAML indents with spaces only; replace the tab with spaces"),
        ("a: b: c\n", 1, "a ':' where no key can start: quote a value that holds ': ', or check the line "
         "above for a missing ':' or a wrong indentation"),
        ("a: {x: 1\nb: 3\n", 2, "the mapping in { } that starts at line 1 is not closed, or a ',' is missing "
         "between its entries: close it with '}'"),
        ("a: 'abc\nb: 2\n", 3, "the quoted text that starts at line 1 is never closed: end it with its quote"),
        ("a: *nothing\n", 1, "*nothing names no anchor: write &nothing on a value before it, or write the value out"),
        ("a: @x\n", 1, "a value cannot begin with '@' unless it is quoted: put the value in quotes"),
    ],
)
def test_a_syntax_error_is_a_sentence_at_its_line(text, line, message):
    """Not the parser's "expected <block end>, but found '<block mapping start>'"."""
    (problem,) = parse_yaml(text, "f.yaml").problems
    assert (problem.line, problem.message) == (line, f"invalid YAML: {message}")


# -- cached runs and their games -------------------------------------------------------------------


def test_a_games_file_that_is_a_fifo_or_a_device_is_one_line_of_report(tmp_path, capsys):
    from stargazer_rules.frontends.cli import main

    (tmp_path / "games.jsonl").symlink_to("/dev/zero")
    assert main(["report", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"stargazer report: {tmp_path / 'games.jsonl'} is a symlink to /dev/zero, outside its folder {tmp_path}: "
        "copy the games file there instead of linking to it\n"
    )
    (tmp_path / "games.jsonl").unlink()
    os.mkfifo(tmp_path / "games.jsonl")
    assert main(["report", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"stargazer report: {tmp_path / 'games.jsonl'} is a FIFO (named pipe), not a games file\n"


def test_a_run_identity_that_is_a_fifo_or_holds_nan_is_no_identity(tmp_path):
    """A folder whose run.json cannot be read holds no run this tool knows: never a hang."""
    from stargazer_rules.simulation import run_folder

    os.mkfifo(tmp_path / run_folder.IDENTITY_FILE)
    assert run_folder.read_identity(tmp_path) is None
    (tmp_path / run_folder.IDENTITY_FILE).unlink()
    (tmp_path / run_folder.IDENTITY_FILE).write_text('{"players": NaN}', encoding="utf-8")
    assert run_folder.read_identity(tmp_path) is None


# -- numbers a person types ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["\u0661\u0662", "1_000", " 12", "12.0", "1e3", "0x10", "+" + "9" * 41])
def test_a_whole_number_is_ascii_digits_only(text):
    """``int`` alone takes other scripts' digits, underscores and spaces."""
    from stargazer_rules.rulesets.yamlsource import number_from_text

    with pytest.raises(ValueError):
        number_from_text(text, whole=True)


@pytest.mark.parametrize("text", ["inf", "-Infinity", "nan", ".nan", ".inf", "1e999", "0.\u0661", "1_0.5", ""])
def test_a_number_is_ascii_digits_and_finite(text):
    from stargazer_rules.rulesets.yamlsource import number_from_text

    with pytest.raises(ValueError):
        number_from_text(text)


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["play-random", "--players", "3", "--seed", "\u0661"], "--seed '\u0661' is not a seed"),
        (["simulate", "--games", "\u0661\u0662"], "argument --games: '\u0661\u0662' is not a whole number in ASCII digits"),
        (["simulate", "--bots", "mcts:\u0661\u0660\u0660", "--games", "1"], "iterations='\u0661\u0660\u0660' is not an integer"),
    ],
)
def test_options_take_numbers_in_ascii_digits_only(capsys, argv, error):
    from stargazer_rules.frontends.cli import main

    try:
        status = main(argv)
    except SystemExit as exit_:  # argparse's usage errors
        status = exit_.code
    assert status == 2
    assert error in capsys.readouterr().err


def test_a_targets_yaml_beside_the_ruleset_that_is_a_fifo_is_refused_not_skipped(tmp_path, capsys):
    from stargazer_rules.frontends.cli import main

    folder = copy_ruleset(tmp_path)
    (folder / "targets.yaml").unlink()
    os.mkfifo(folder / "targets.yaml")
    assert main(["validate", str(folder)]) == 1
    assert capsys.readouterr().out == f"{folder / 'targets.yaml'}: it is a FIFO (named pipe), not a YAML file\n"
