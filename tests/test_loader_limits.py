"""A ruleset file built to exhaust the loader is one located problem naming the limit, found in a
moment (issue 9, reproductions 5, 6 and 8): alias bombs, deep nesting, NUL characters, huge
files, and counts past the schemas' maximums."""

from __future__ import annotations

import pytest
from work import calls

from stargazer_rules.rulesets import boundedyaml
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.loader import load_ruleset
from tests.ruleset_edits import copy_ruleset, only_problem, read, replace

#: Function calls a refusal may make past those of loading the whole unbroken ruleset: what
#: composing a file of the most values allowed costs (PyYAML's pure-Python composer makes about
#: 185 calls a value). Reading a hostile file to its end (200,000 values composed, an alias
#: bomb expanded) takes many times more.
ALLOWANCE = 200 * boundedyaml.MAX_VALUES


@pytest.fixture(scope="module")
def plain_load_calls(tmp_path_factory):
    """The function calls of loading the unbroken draft 7 ruleset."""
    counted = calls(lambda: load_ruleset(copy_ruleset(tmp_path_factory.mktemp("plain"))))
    assert counted.error is None
    return counted.calls


def _append(folder, file, text):
    """Append ``text`` to ``file``; the 1-based line where it starts."""
    before = read(folder, file)
    (folder / file).write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1


@pytest.fixture
def bounded_problem(plain_load_calls):
    """The one problem of a folder, found within a plain load's calls and ``ALLOWANCE``: work
    counted, so that a loaded machine cannot fail it and a refusal that reads everything does."""

    def found(folder):
        counted = calls(lambda: only_problem(folder))
        assert counted.error is None, counted.error
        assert counted.calls <= plain_load_calls + ALLOWANCE, (counted.calls, plain_load_calls)
        return counted.result

    return found


def test_a_nine_level_alias_bomb_is_refused_at_its_line(tmp_path, bounded_problem):
    """Reproduction 5: 9 levels of 9 aliases (9^10 values) is one problem at the first value past the bound."""
    folder = copy_ruleset(tmp_path)
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    start = _append(folder, "rules.yaml", "\n".join(lines) + "\n")
    problem = bounded_problem(folder)
    # a4 holds 1 + 9 + ... + 9^5 = 66,430 values: the first value past the bound of 50,000.
    assert (problem.file.endswith("rules.yaml"), problem.line, problem.column) == (True, start + 4, 5)
    assert problem.message == "this value holds more than 50,000 values, its aliases (*name) expanded (the limit is 50,000 values in a file)"


def test_an_alias_repeated_into_ten_million_items_is_refused(tmp_path, bounded_problem):
    """Reproduction 5: a list of 1,000 aliases to a list of 10,000 items, refused without building it."""
    folder = copy_ruleset(tmp_path)
    start = _append(folder, "rules.yaml", f"big: &big [{', '.join(['1'] * 10000)}]\nhuge: [{', '.join(['*big'] * 1000)}]\n")
    problem = bounded_problem(folder)
    assert (problem.line, problem.column) == (start + 1, 7)
    assert "the limit is 50,000 values" in problem.message


def test_yaml_nested_5000_deep_is_refused_at_the_limit(tmp_path, bounded_problem):
    """Reproduction 6: 5,000 nested lists are a problem at the 64th (the file's mapping is the first level), not a RecursionError."""
    folder = copy_ruleset(tmp_path)
    start = _append(folder, "rules.yaml", "deep: " + "[" * 5000 + "]" * 5000 + "\n")
    problem = bounded_problem(folder)
    assert (problem.line, problem.column) == (start, len("deep: ") + boundedyaml.MAX_DEPTH)
    assert problem.message == "nested more than 64 levels deep here (the limit is 64)"


def test_choose_one_nested_400_deep_is_refused_not_a_recursion_error(tmp_path, bounded_problem):
    """Reproduction 6: a choose_one inside a choose_one, 400 deep, is the depth problem in crew.yaml."""
    folder = copy_ruleset(tmp_path)
    effect = "{effect: gain_vp, vp: 1}"
    for _ in range(400):
        effect = f"{{effect: choose_one, options: [[{effect}], [{{effect: gain_vp, vp: 1}}]]}}"
    line = replace(folder, "crew.yaml", "      - effect: choose_one\n", f"      - {effect}\n      - effect: choose_one\n")
    problem = bounded_problem(folder)
    assert problem.file.endswith("crew.yaml") and problem.line == line
    assert problem.message.endswith("(the limit is 64)")


def test_a_nul_character_is_located(tmp_path, bounded_problem):
    """Reproduction 6: a NUL in a YAML string is a problem at its line and column, not a ReaderError."""
    folder = copy_ruleset(tmp_path)
    start = _append(folder, "rules.yaml", 'note: "a\0b"\n')
    problem = bounded_problem(folder)
    assert (problem.line, problem.column) == (start, len('note: "a') + 1)
    assert problem.message.startswith("the character U+0000 (NUL) is not allowed in YAML; delete it")


def test_a_control_character_is_named(tmp_path, bounded_problem):
    """Any character YAML refuses is named by its code point and Unicode name where it has one."""
    folder = copy_ruleset(tmp_path)
    start = _append(folder, "planets.yaml", "# bell \x07\n")
    problem = bounded_problem(folder)
    assert (problem.line, problem.column) == (start, 8)
    assert problem.message.startswith("the character U+0007 (a control character) is not allowed in YAML")


def test_a_track_of_a_million_squares_is_refused_in_a_moment(tmp_path, bounded_problem):
    """Reproduction 8: a 10^6-square track is over the size limit; 200,000 squares, over the count of values."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", f"track: [{', '.join(['1'] * 1_000_000)}]")
    assert bounded_problem(folder).message.endswith("over the limit of 1,048,576 for a YAML file")
    replace(folder, "planets.yaml", f"track: [{', '.join(['1'] * 1_000_000)}]", f"track: [{', '.join(['1'] * 200_000)}]")
    problem = bounded_problem(folder)
    assert problem.message == "the file holds more than 50,000 values by here (the limit is 50,000)"
    assert problem.line == 9


def test_a_file_over_the_size_limit_is_refused_before_parsing(tmp_path, bounded_problem):
    """A YAML file over MAX_BYTES is one problem naming its size and the limit."""
    folder = copy_ruleset(tmp_path)
    _append(folder, "rules.yaml", "# " + "x" * boundedyaml.MAX_BYTES + "\n")
    problem = bounded_problem(folder)
    assert problem.line == 0
    assert problem.message.endswith("bytes, over the limit of 1,048,576 for a YAML file")


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("rules.yaml", "cubes_per_player: 12", "cubes_per_player: 1000000000000000000000000000000",
         "expected at most 10000 (the schema's maximum), found a 31-digit number"),
        ("planets.yaml", "track: [1, 3, 0, 5, 7, 0]", f"track: [{', '.join(['1'] * 200)}]",
         "expected at most 100 items (the schema's maxItems), found 200"),
        ("crew.yaml", "      - effect: choose_one\n", "".join(["      - {effect: gain_vp, vp: 1}\n"] * 100) + "      - effect: choose_one\n",
         "expected at most 20 items (the schema's maxItems), found 101"),
        ("crew.yaml", "vp: 2", "vp: 99999", "expected at most 100 (the schema's maximum), found 99999"),
    ],
)
def test_counts_past_the_schema_maximums_are_named(tmp_path, file, old, new, message, bounded_problem):
    """Reproduction 8: 10^30 cubes, a huge track, a skill of thousands of effects each fail their bound, located."""
    folder = copy_ruleset(tmp_path)
    replace(folder, file, old, new)
    problem = bounded_problem(folder)
    assert problem.file.endswith(file)
    assert problem.line > 0
    assert problem.message == message


def test_validate_prints_deep_nesting_as_one_line(tmp_path, capsys):
    """stargazer validate on YAML nested 3,000 deep prints one located line naming the limit, exit 1, no traceback."""
    folder = copy_ruleset(tmp_path)
    _append(folder, "rules.yaml", "deep: " + "[" * 3000 + "]" * 3000 + "\n")
    assert main(["validate", str(folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1, out
    assert out[0].startswith(f"{folder}/rules.yaml:") and out[0].endswith("(the limit is 64)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "is not a game record: its JSON is nested too deeply to read"),
        ('{"format": "stargazer-record/1", "seed": ' + "9" * 5000 + "}", "is not a game record: it holds a number too long to read (over 4300 digits)"),
    ],
)
def test_replay_of_a_record_built_to_break_the_reader_is_one_line(tmp_path, capsys, text, message):
    """Reproductions 4 and 6: a record nested 100,000 deep or with a 5,000-digit seed is one line, exit 1."""
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"stargazer replay: {path} {message}\n"
