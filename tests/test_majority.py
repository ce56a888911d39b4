"""The majority as data: rules.yaml's ``majority`` section (R15, R16; docs/rules.md, "The
majority as data"), as the loader reads it, the fingerprint keeps it, ``tune`` edits it and the
rules text states it. The worked examples of each knob on both engines are in test_scoring.py
(and ideas R1-R3 in test_ideas.py).
"""

from __future__ import annotations

import pytest

from ruleset_edits import copy_ruleset, line_of, only_problem, replace
from stargazer_rules import Game, load_ruleset
from stargazer_rules.errors import Problem
from stargazer_rules.frontends.cli import main
from stargazer_rules.kernel import native
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.rulesets.resources import cards_dir
from stargazer_rules.tuning.edits import apply_edits
from stargazer_rules.tuning.paths import locate
from stargazer_rules.vocabulary.majority import R15_R16, Majority

#: The section as draft7 and base write it (their rules.yaml, comments aside).
SECTION_KEYS = ("ties", "row_step", "rank_percent", "accident_vp", "free_cubes_take_a_row")


def with_majority(tmp_path, key: str, value: str):
    """A copy of draft7 whose majority section gives ``key`` the YAML ``value``."""
    folder = copy_ruleset(tmp_path)
    line = next(text for text in (folder / "rules.yaml").read_text(encoding="utf-8").splitlines() if text.startswith(f"  {key}:"))
    replace(folder, "rules.yaml", line, f"  {key}: {value}")
    return folder


def test_draft7_and_base_write_out_r15_and_r16():
    """The bundled draft7 and base spell the section out, every key at R15/R16's value."""
    for name in ("draft7", "base"):
        ruleset = load_ruleset(name)
        assert ruleset.majority == R15_R16 == Majority()
        assert tuple(ruleset_to_data(ruleset)["rules"]["majority"]) == SECTION_KEYS
        text = (cards_dir() / name / "rules.yaml").read_text(encoding="utf-8")
        assert "majority:" in text and all(f"  {key}:" in text for key in SECTION_KEYS)


def test_a_rules_yaml_without_the_section_plays_r15_r16_under_the_same_fingerprint(tmp_path):
    """An older rules.yaml without ``majority`` loads with R15/R16 and the fingerprint of the
    one that writes them out: the same rules, so its records and cached runs are the same."""
    folder = copy_ruleset(tmp_path)
    text = (folder / "rules.yaml").read_text(encoding="utf-8")
    (folder / "rules.yaml").write_text(text[: text.index("\nmajority:")] + "\n", encoding="utf-8")
    older = load_ruleset(folder)
    assert older.majority == R15_R16
    assert older.fingerprint == load_ruleset("draft7").fingerprint
    # A key left out keeps its R15/R16 value.
    assert load_ruleset(with_majority(tmp_path / "one", "accident_vp", "-1")).majority == Majority(accident_vp=-1)


@pytest.mark.parametrize(
    ("key", "value", "majority"),
    [
        ("ties", "shared", Majority(ties="shared")),
        ("ties", "first_cube_further_forward", Majority(ties="first_cube_further_forward")),
        ("row_step", "2", Majority(row_step=2)),
        ("rank_percent", "[100, 50, 0]", Majority(rank_percent=(100, 50, 0))),
        ("accident_vp", "-2", Majority(accident_vp=-2)),
        ("free_cubes_take_a_row", "false", Majority(free_cubes_take_a_row=False)),
    ],
)
def test_each_knob_is_read_and_enters_the_fingerprint(tmp_path, key, value, majority):
    """Another majority is other rules: another fingerprint, and the kernel plays it."""
    ruleset = load_ruleset(with_majority(tmp_path, key, value))
    assert ruleset.majority == majority
    assert ruleset.fingerprint != load_ruleset("draft7").fingerprint
    assert native.kernel_for(Game(ruleset)) is not None


def test_a_misspelt_tie_rule_is_refused_at_its_line_with_a_did_you_mean(tmp_path):
    folder = with_majority(tmp_path, "ties", "first_cube_further_bak")
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"),
        line_of(folder, "rules.yaml", "ties:"),
        9,
        "majority.ties",
        "unknown value 'first_cube_further_bak'; expected one of 'first_cube_further_back', "
        "'first_cube_further_forward', 'shared'",
        "first_cube_further_back",
    )


@pytest.mark.parametrize(
    ("key", "inside", "outside", "message"),
    [
        ("row_step", "1", "0", "expected at least 1, found 0"),
        ("row_step", "100", "101", "expected at most 100 (the schema's maximum), found 101"),
        ("accident_vp", "-100", "-101", "expected at least -100, found -101"),
        ("accident_vp", "0", "1", "expected at most 0 (the schema's maximum), found 1"),
        ("rank_percent", "[0]", "[-1]", "expected at least 0, found -1"),
        ("rank_percent", "[100]", "[101]", "expected at most 100 (the schema's maximum), found 101"),
        ("rank_percent", "[100]", "[]", "expected at least 1 item, found none"),
        ("rank_percent", "[100, 100, 100, 100, 100, 100, 100, 100, 100]", "[100, 100, 100, 100, 100, 100, 100, 100, 100, 100]",
         "expected at most 9 items (the schema's maxItems), found 10"),
    ],
)
def test_each_bound_takes_its_value_and_refuses_one_past_it(tmp_path, key, inside, outside, message):
    """The schema's bounds (rules.schema.json ``majority``): the value at the bound loads, one
    past it is refused at its line."""
    load_ruleset(with_majority(tmp_path / "inside", key, inside))
    folder = with_majority(tmp_path / "outside", key, outside)
    problem = only_problem(folder)
    assert (problem.line, problem.message) == (line_of(folder, "rules.yaml", f"  {key}:"), message)


def test_every_knob_is_a_tune_path():
    """``tune`` names each knob as rules.majority.<key> (rank_percent by entry) and edits it."""
    draft7 = load_ruleset("draft7")
    data = ruleset_to_data(draft7)
    places = [locate(data, f"rules.majority.{key}") for key in ("row_step", "accident_vp", "free_cubes_take_a_row", "rank_percent[0]")]
    assert [(place.doc_path, place.value) for place in places] == [
        (("majority", "row_step"), 1), (("majority", "accident_vp"), 0),
        (("majority", "free_cubes_take_a_row"), True), (("majority", "rank_percent", 0), 100),
    ]
    edited = apply_edits(draft7, {"rules.majority.accident_vp": -2, "rules.majority.rank_percent[0]": 50})
    assert edited.majority == Majority(rank_percent=(50,), accident_vp=-2)
    assert edited.fingerprint != draft7.fingerprint


def test_the_rules_text_states_the_majority_from_the_data(capsys):
    """``stargazer rules`` and the printed sheet state R15/R16 for draft7 and the ideas' own
    rule (shared ranks, half for second place, an accident's cost) for ideas, in both languages."""
    assert main(["rules", "ideas", "--lang", "en"]) == 0
    ideas_en = capsys.readouterr().out
    assert main(["rules", "draft7", "--lang", "en"]) == 0
    draft7_en = capsys.readouterr().out
    assert "Tied owners share the better rank" in ideas_en
    assert "Tied owners share the better rank" not in draft7_en
    assert "On a tie, the player whose first cube stands further back (larger number) ranks higher." in draft7_en
    assert "Whoever reads an accident row scores -2 VP, whatever its share." in ideas_en
    assert "Whoever reads an accident row" not in draft7_en
    assert main(["rules", "ideas", "--lang", "ja"]) == 0
    assert "同点の持ち主は上の順位を分け合い" in capsys.readouterr().out
    sheet = " ".join(text for _, text in sheet_items(load_ruleset("ideas"), "en"))
    assert "Tied owners share the better rank" in sheet and "rank 2: 50%" in sheet
