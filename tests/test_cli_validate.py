"""``stargazer validate``: a summary line and exit 0 for a valid ruleset; every problem, one per
line, and exit 1 otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.cli.common import player_ranges
from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.rulesets.resources import bundled_ruleset_names

from ruleset_edits import copy_ruleset, problems_of, replace

REPO = Path(__file__).resolve().parent.parent
NAMES = ", ".join(bundled_ruleset_names())


def test_validate_without_dir_checks_bundled_draft7(capsys):
    assert main(["validate"]) == 0
    fingerprint = load_ruleset("draft7").fingerprint[:12]
    assert capsys.readouterr().out == (
        f"draft7: valid — 14 planets, 12 crew, 3-4 players, fingerprint {fingerprint}\n"
    )


def test_validate_a_bundled_name(capsys):
    assert main(["validate", "base"]) == 0
    fingerprint = load_ruleset("base").fingerprint[:12]
    assert capsys.readouterr().out == (
        f"base: valid — 14 planets, 12 crew, 3-4 players, fingerprint {fingerprint}\n"
    )


def test_validate_a_folder_shows_it_as_given(tmp_path, capsys, monkeypatch):
    copy_ruleset(tmp_path, to="draft8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft8/"]) == 0
    assert capsys.readouterr().out.startswith("draft8/: valid — 14 planets, 12 crew, 3-4 players")


def test_validate_prints_every_problem_and_exits_1(tmp_path, capsys, monkeypatch):
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(
        folder,
        "crew.yaml",
        "      - effect: gain_vp\n        vp: 2\n      - effect: place_on_crew",
        "      - effect: gain_vpp\n        vp: 2\n      - effect: place_on_crew",
    )
    replace(folder, "rules.yaml", "planets: 7,", "planets: 15,")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft8"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "draft8/rules.yaml:19:27: player_counts[1].planets: 4 players deal 15 planets, but "
        "planets.yaml has only 14 planet cards",
        "draft8/crew.yaml:35:17: crew.quartermaster.skill[0].effect: unknown effect 'gain_vpp' "
        "(did you mean 'gain_vp'?)",
    ]
    assert captured.err == "draft8: 2 problems\n"


def test_validate_output_is_the_problems_of_the_error(tmp_path, capsys):
    folder = copy_ruleset(tmp_path)
    (folder / "planets.yaml").unlink()
    replace(folder, "crew.yaml", "    survey_count: 3\n", "    survey_count: three\n")
    assert main(["validate", str(folder)]) == 1
    expected = [str(problem) for problem in problems_of(folder)]
    assert capsys.readouterr().out.splitlines() == expected
    assert expected[0] == f"{folder / 'planets.yaml'}: file not found"


def test_validate_a_missing_folder(capsys):
    assert main(["validate", "draft_7"]) == 1
    captured = capsys.readouterr()
    assert captured.out == (
        "draft_7: no such folder; expected a ruleset folder with rules.yaml, "
        f"planets.yaml, crew.yaml, or the name of a bundled ruleset ({NAMES}) "
        "(did you mean 'draft7'?)\n"
    )
    assert captured.err == "draft_7: 1 problem\n"


def test_help_describes_the_command_and_its_argument(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["validate", "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "usage: stargazer validate [-h] [DIR]" in text
    assert f"a ruleset folder, or a bundled ruleset name ({NAMES})" in " ".join(text.split())


def test_top_level_help_lists_validate(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    assert "validate  check a ruleset folder and report every problem" in capsys.readouterr().out


def test_no_command_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main([])
    assert exited.value.code == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err


def test_python_dash_m_runs_the_command():
    """``python -m stargazer_rules`` is the ``stargazer`` command."""
    result = subprocess.run(
        [sys.executable, "-m", "stargazer_rules", "validate", "base"],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("base: valid — ")


@pytest.mark.parametrize(
    ("counts", "text"),
    [((3, 4), "3-4"), ((4,), "4"), ((2, 4, 5), "2, 4-5"), ((2, 3, 4, 5), "2-5"), ((2, 4), "2, 4")],
)
def test_player_counts_are_shown_as_ranges(counts, text):
    assert player_ranges(counts) == text


def test_a_name_written_as_two_surrogate_escapes_is_refused_by_validate_and_print(tmp_path, capsys):
    """A name written "\\ud83d\\ude80" (two halves of a character) made print fail with a
    UnicodeEncodeError while validate accepted the folder: both now give the located problem."""
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "en: Navigator}", 'en: "Rocket \\ud83d\\ude80"}')
    problem = (
        f"{folder / 'crew.yaml'}:{line}:25: crew.navigator.name.en: a name cannot hold U+D83D, half of a character "
        "written as two escapes: found 'Rocket \\ud83d\\ude80' (a string), character 8; write the character "
        "itself, or the one escape \\U0001F680 (names are printed to terminals, cards and pages)"
    )
    assert main(["validate", str(folder)]) == 1
    assert capsys.readouterr().out.splitlines()[0] == problem
    assert main(["print", str(folder), "--out", str(tmp_path / "cards.pdf")]) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (f"{problem}\n", f"{folder}: 1 problem\n")
    assert not (tmp_path / "cards.pdf").exists()


def test_validate_checks_the_tune_yaml_beside_the_ruleset(tmp_path, capsys, monkeypatch):
    """A misspelt path in tune.yaml is found by validate, located, before tune reads it."""
    folder = copy_ruleset(tmp_path, to="draft8")
    line = replace(folder, "tune.yaml", "crew.engineer.survey_count:", "crew.engineer.survey_cont:")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft8"]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1
    assert captured.out.startswith(f"draft8/tune.yaml:{line}:3: ")
    assert "survey_count" in captured.out  # the did-you-mean
    assert captured.err == "draft8: the ruleset is valid; 1 problem in its tune.yaml\n"


def test_validate_counts_the_problems_of_each_file_beside_the_ruleset(tmp_path, capsys, monkeypatch):
    """Problems in targets.yaml and tune.yaml are listed in that order and counted per file."""
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "targets.yaml", "measure: tie_rate,", "measure: tie_rates,")
    replace(folder, "tune.yaml", "max_edits: 3", "max_edits: 30")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft8"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["draft8/targets.yaml", "draft8/tune.yaml"]
    assert "max_edits is 30, but the space has 7 parameters; write 1 to 7" in lines[1]
    assert captured.err == "draft8: the ruleset is valid; 1 problem in its targets.yaml and 1 problem in its tune.yaml\n"


@pytest.mark.parametrize(
    ("space", "problem"),
    [
        ("planets.lava-1.track[2]: [1, 2]",
         "2:28: space.planets.lava-1.track[2]: planets.lava-1.track[2] is 0 in draft7, and its values leave that out: "
         "a search starts from the ruleset as it is, so list 0 too"),
        ("rules.motivation.free_cube_vp: &v [1, 2]\n  crew.engineer.survey_count: *v",
         "2:34: space.crew.engineer.survey_count: crew.engineer.survey_count is 3 in draft7, and its values leave that "
         "out: a search starts from the ruleset as it is, so list 3 too"),
        ("planets.lava-1.track[2]: {from: 1, to: 3}",
         "2:28: space.planets.lava-1.track[2]: planets.lava-1.track[2] is 0 in draft7, and its values leave that out: "
         "a search starts from the ruleset as it is, so list 0 too"),
        ("planets.lava-1.track[2]: [0, 1]\n  planets.lava-1.track[02]: [0, 3]",
         "3:3: space.planets.lava-1.track[02]: names the same value as planets.lava-1.track[2]: a value is one "
         "parameter; list its values once"),
    ],
)
def test_validate_refuses_what_tune_refuses_in_tune_yaml(tmp_path, capsys, monkeypatch, space, problem):
    """A value list without the base value (an aliased list too) passed validate, then tune
    refused it; two paths to one value passed both. Both read the file with the one
    ``read_space``: the same problem, at its line, from each, before any game is played."""
    copy_ruleset(tmp_path, to="draft8")
    (tmp_path / "draft8" / "tune.yaml").write_text(f"space:\n  {space}\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "draft8"]) == 1
    captured = capsys.readouterr()
    assert captured.out == f"draft8/tune.yaml:{problem}\n"
    assert main(["tune", "draft8", "--trials", "1", "--workers", "1", "--out", "t"]) == 1
    assert capsys.readouterr().err == f"stargazer tune: draft8/tune.yaml:{problem}\n"
    assert not (tmp_path / "t").exists()
