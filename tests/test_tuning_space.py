"""tune.yaml and the edits of a proposal: every problem at its file:line, and edits that change
exactly the values they name, in memory and in the text of a new draft (comments kept)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from strategies import ruleset_documents
from ruleset_edits import copy_ruleset, replace
from stargazer_rules.errors import DraftError, RulesetError, SpaceError
from stargazer_rules.rulesets.drafts import new_draft
from stargazer_rules.rulesets.diff import diff_data, diff_rulesets, format_changes
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.resources import RULESET_FILES, cards_dir, schemas_dir
from stargazer_rules.tuning.edits import apply_edits, edits_text, proposal_title, write_proposal
from stargazer_rules.tuning.paths import locate, with_values
from stargazer_rules.tuning.space import Parameter, main as schema_main, read_space, space_for, space_schema

DRAFT7 = load_ruleset("draft7")
MODELINE = "# yaml-language-server: $schema="


def write(tmp_path: Path, text: str, name: str = "tune.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str, ruleset=DRAFT7) -> list[str]:
    """The problems of a tune.yaml holding ``text``, with its file shown as ``tune.yaml``."""
    path = write(tmp_path, text)
    with pytest.raises(SpaceError) as caught:
        read_space(path, ruleset)
    assert str(caught.value).splitlines()[0].endswith("in the tuning space:")
    return [str(problem).replace(str(path), "tune.yaml") for problem in caught.value.problems]


# -- reading tune.yaml ----------------------------------------------------------------------


def test_a_space_holds_each_parameter_with_its_choices_and_base_value(tmp_path):
    """A list is kept in its order, a range expanded with both ends; base is the ruleset's value."""
    path = write(tmp_path, "space:\n"
                 "  crew.engineer.survey_count: [3, 2]\n"
                 "  planets.lava-1.track[2]: {from: 0, to: 4}   # the first accident of Lava 1 (R2)\n"
                 "  planets.lava-1.placeholder: [false, true]\n"
                 "max_edits: 2\n")
    space = read_space(path, DRAFT7)
    assert space.parameters == {
        "crew.engineer.survey_count": Parameter("crew.engineer.survey_count", (3, 2), 3),
        "planets.lava-1.track[2]": Parameter("planets.lava-1.track[2]", (0, 1, 2, 3, 4), 0),
        "planets.lava-1.placeholder": Parameter("planets.lava-1.placeholder", (False, True), True),
    }
    assert (space.max_edits, space.source) == (2, str(path))


def test_max_edits_left_out_is_every_parameter(tmp_path):
    path = write(tmp_path, "space:\n  rules.motivation.free_cube_vp: [1, 2]\n  rules.free_cubes: [10, 12]\n")
    assert read_space(path, DRAFT7).max_edits == 2


def test_a_path_that_names_nothing_is_refused_at_its_line_with_a_did_you_mean(tmp_path):
    found = problems(tmp_path, "space:\n"
                     "  crew.enginer.survey_count: [2]\n"
                     "  crew.engineer.survey_cont: [2]\n"
                     "  rules.motivaton.free_cube_vp: [2]\n"
                     "  planets.lava-1.track[6]: [1]\n"
                     "  planets.lava-1.track: [1]\n"
                     "  rules.motivation: [1]\n"
                     "  crew.engineer.name.en: [1]\n"
                     "  crew.engineer: [1]\n"
                     "  planets.lava-1.track.first: [1]\n"
                     "  rules.max_rounds[0]: [1]\n"
                     "  rules.player_counts[0].players: [2]\n")
    assert found == [
        "tune.yaml:2:3: space.crew.enginer.survey_count: no crew card 'enginer' in ruleset draft7 (did you mean 'engineer'?)",
        "tune.yaml:3:3: space.crew.engineer.survey_cont: crew.engineer has no key 'survey_cont'; keys: id, name, "
        "survey_count, always_in_play, skill, placeholder (did you mean 'survey_count'?)",
        "tune.yaml:4:3: space.rules.motivaton.free_cube_vp: rules has no key 'motivaton'; keys: name, title, colours, "
        "player_counts, cubes_per_player, free_cubes, motivation, survey, max_rounds, round_end, setup, majority, bonus, end, end_scoring "
        "(did you mean 'motivation'?)",
        "tune.yaml:5:3: space.planets.lava-1.track[6]: planets.lava-1.track has 6 entries; [6] names none ([0] to [5])",
        "tune.yaml:6:3: space.planets.lava-1.track: planets.lava-1.track is a list, not a value; name one entry: "
        "planets.lava-1.track[0] to planets.lava-1.track[5]",
        "tune.yaml:7:3: space.rules.motivation: rules.motivation is a mapping, not a value; name one of its keys: "
        "rules.motivation.free_cube_vp, rules.motivation.player_cube_vp",
        "tune.yaml:8:3: space.crew.engineer.name.en: crew.engineer.name.en is the text 'Engineer', not a number or "
        "true/false; only those are tuned",
        "tune.yaml:9:3: space.crew.engineer: 'crew.engineer' is not a path to a value; write crew.<id>.<key>, "
        "planets.<id>.<key>[index] or rules.<key>.<key>, e.g. crew.engineer.survey_count",
        "tune.yaml:10:3: space.planets.lava-1.track.first: planets.lava-1.track is a list; write [index] ([0] to [5]), not .first",
        "tune.yaml:11:3: space.rules.max_rounds[0]: rules.max_rounds is already a value (30); end the path there",
        "tune.yaml:12:3: space.rules.player_counts[0].players: rules.player_counts[0].players is the player count the "
        "setup is for, not a value to tune; tune its planets, crew or full_planets_to_end",
    ]


def test_a_planet_id_is_matched_among_the_planets(tmp_path):
    assert problems(tmp_path, "space:\n  planets.lava_1.track[0]: [1]\n") == [
        "tune.yaml:2:3: space.planets.lava_1.track[0]: no planet card 'lava_1' in ruleset draft7 (did you mean 'lava-1'?)",
    ]


def test_a_value_of_another_type_than_the_rulesets_is_refused_at_its_entry(tmp_path):
    found = problems(tmp_path, "space:\n"
                     "  rules.motivation.free_cube_vp: [1, true, 2.0, 1]\n"
                     "  planets.lava-1.placeholder: [false, 0]\n"
                     "  planets.lava-2.placeholder: {from: 0, to: 1}\n")
    assert found == [
        "tune.yaml:2:38: space.rules.motivation.free_cube_vp[1]: expected an integer (rules.motivation.free_cube_vp "
        "is 1 in draft7), found true (true or false)",
        "tune.yaml:2:44: space.rules.motivation.free_cube_vp[2]: expected an integer (rules.motivation.free_cube_vp "
        "is 1 in draft7), found 2.0 (a number); write 2",
        "tune.yaml:2:49: space.rules.motivation.free_cube_vp[3]: 1 is listed twice; list each value once",
        "tune.yaml:3:39: space.planets.lava-1.placeholder[1]: expected true or false (planets.lava-1.placeholder "
        "is true in draft7), found 0 (an integer)",
        "tune.yaml:4:31: space.planets.lava-2.placeholder: a range {from, to} is for an integer, and "
        "planets.lava-2.placeholder is true or false; list the values: [true, false]",
    ]


def test_each_value_the_ruleset_refuses_is_a_problem_at_its_own_line(tmp_path):
    """Every listed value and both ends of a range are tried: R7's survey count is at least 0,
    and R14 cannot deal more planets than the cards."""
    found = problems(tmp_path, "space:\n"
                     "  crew.pilot.survey_count: [3, -2, -1]\n"
                     "  crew.engineer.survey_count:\n"
                     "    from: -1\n"
                     "    to: 3\n"
                     "  rules.player_counts[0].planets: {from: 5, to: 15}\n")
    assert found == [
        "tune.yaml:2:32: space.crew.pilot.survey_count[1]: draft7 refuses crew.pilot.survey_count = -2: "
        "crew.yaml: crew.pilot.survey_count: expected at least 0, found -2",
        "tune.yaml:2:36: space.crew.pilot.survey_count[2]: draft7 refuses crew.pilot.survey_count = -1: "
        "crew.yaml: crew.pilot.survey_count: expected at least 0, found -1",
        "tune.yaml:4:11: space.crew.engineer.survey_count.from: draft7 refuses crew.engineer.survey_count = -1: "
        "crew.yaml: crew.engineer.survey_count: expected at least 0, found -1",
        "tune.yaml:6:49: space.rules.player_counts[0].planets.to: draft7 refuses rules.player_counts[0].planets = 15: "
        "rules.yaml: player_counts[0].planets: 3 players deal 15 planets, but planets.yaml has only 14 planet cards",
    ]


def test_a_range_must_run_upwards_and_stay_small(tmp_path):
    found = problems(tmp_path, "space:\n"
                     "  planets.lava-2.track[1]: {from: 5, to: 2}\n"
                     "  planets.lava-2.track[4]: {from: 0, to: 100}\n")
    assert found == [
        "tune.yaml:2:35: space.planets.lava-2.track[1].from: from 5 is above to 2; write the smaller first",
        "tune.yaml:3:28: space.planets.lava-2.track[4]: from 0 to 100 is 101 values; a parameter takes at most 100",
    ]


def test_a_default_written_nowhere_cannot_be_tuned_since_no_proposal_could_edit_it(tmp_path):
    """Lava 1 leaves its special capacity to the default (R3): there is no text to change."""
    assert problems(tmp_path, "space:\n  planets.lava-1.special_capacity: [1, 2]\n") == [
        "tune.yaml:2:3: space.planets.lava-1.special_capacity: planets.lava-1.special_capacity is not written in "
        "planets.yaml (the ruleset takes its default, 1); write it there to tune it",
    ]


def test_max_edits_runs_from_one_to_the_number_of_parameters(tmp_path):
    entries = "space:\n  rules.free_cubes: [10, 12]\n  rules.motivation.free_cube_vp: [1, 2]\n"
    assert problems(tmp_path, entries + "max_edits: 3\n") == [
        "tune.yaml:4:12: max_edits: max_edits is 3, but the space has 2 parameters; write 1 to 2",
    ]
    assert problems(tmp_path, entries + "max_edits: 0\n") == ["tune.yaml:4:12: max_edits: expected at least 1, found 0"]
    assert read_space(write(tmp_path, entries + "max_edits: 2\n"), DRAFT7).max_edits == 2


def test_the_shape_of_the_file_is_checked_by_its_schema_first(tmp_path):
    assert problems(tmp_path, "spaces:\n  rules.free_cubes: [10]\n") == [
        "tune.yaml:1:1: spaces: unexpected key 'spaces'; allowed keys: space, max_edits (did you mean 'space'?)",
        "tune.yaml:1:1: missing required key 'space'",
    ]
    assert problems(tmp_path, "space:\n  rules.free_cubes: 10\n  rules.cubes_per_player: {from: 1}\n  rules.max_rounds: []\n") == [
        "tune.yaml:2:21: space.rules.free_cubes: expected a list or a mapping, found 10 (an integer)",
        "tune.yaml:3:27: space.rules.cubes_per_player: missing required key 'to'",
        "tune.yaml:4:21: space.rules.max_rounds: expected at least 1 item, found none",
    ]
    assert problems(tmp_path, "space: {}\n") == ["tune.yaml:1:8: space: {} should be non-empty"]
    assert problems(tmp_path, "space:\n  rules.free_cubes: [10]\n  rules.free_cubes: [12]\n") == [
        "tune.yaml:3:3: space.rules.free_cubes: duplicate key 'rules.free_cubes'; the first is at line 2, and this one replaces it",
    ]


def test_a_missing_file_is_one_problem(tmp_path):
    with pytest.raises(SpaceError) as caught:
        read_space(tmp_path / "tune.yaml", DRAFT7)
    assert [str(p) for p in caught.value.problems] == [f"{tmp_path / 'tune.yaml'}: file not found"]


def test_the_bundled_space_is_named_by_its_ruleset_not_by_the_installations_folder():
    assert space_for(DRAFT7).source == "bundled draft7/tune.yaml"


def test_the_space_is_found_beside_the_ruleset_or_given(tmp_path):
    folder = copy_ruleset(tmp_path)
    (folder / "tune.yaml").write_text("space:\n  rules.free_cubes: [10, 12]\n", encoding="utf-8")
    ruleset = load_ruleset(folder)
    assert space_for(ruleset).source == str(folder / "tune.yaml")
    other = write(tmp_path, "space:\n  rules.max_rounds: [20, 30]\n", name="other.yaml")
    assert list(space_for(ruleset, other).parameters) == ["rules.max_rounds"]
    (folder / "tune.yaml").unlink()
    with pytest.raises(SpaceError) as caught:
        space_for(ruleset)
    assert str(caught.value.problems[0]) == (
        f"{folder / 'tune.yaml'}: no tune.yaml beside the ruleset; write one (docs/ruleset-format.md, "
        "\"tune.yaml\") or give --space FILE"
    )


def test_draft7_ships_a_space_that_reads_clean(tmp_path):
    """draft7's tune.yaml reads against draft7 as it stands, turn-order VP knob included."""
    path = cards_dir() / "draft7" / "tune.yaml"
    assert path.read_text(encoding="utf-8").splitlines()[0] == f"{MODELINE}../../../schemas/tune.schema.json"
    space = read_space(path, DRAFT7)
    assert {"crew.engineer.survey_count", "rules.motivation.free_cube_vp",
            "rules.setup.turn_order_vp[0]"} <= set(space.parameters)
    assert space.parameters["rules.setup.turn_order_vp[0]"].choices == (0, 1, 2, 3)
    accidents = [p for p in space.parameters.values() if p.path.startswith("planets.") and p.base == 0]
    assert len(accidents) >= 2 and all(0 in p.choices and len(p.choices) > 1 for p in accidents)


def test_schema_file_is_the_generated_schema(capsys):
    assert (schemas_dir() / "tune.schema.json").read_text(encoding="utf-8") == json.dumps(
        space_schema(), indent=2, ensure_ascii=False) + "\n"
    assert schema_main(["--check"]) == 0


def test_the_schema_path_pattern_is_the_grammar_locate_reads():
    """An editor underlines exactly the keys that are not paths."""
    pattern = re.compile(space_schema()["properties"]["space"]["propertyNames"]["pattern"])
    data = ruleset_to_data(DRAFT7)
    for path in ("crew.engineer.survey_count", "planets.lava-1.track[2]", "rules.player_counts[1].crew",
                 "crew.quartermaster.skill[0].vp"):
        assert pattern.match(path) and locate(data, path).__class__.__name__ == "Place"
    for path in ("crew.engineer", "rules", "crew[0].survey_count", "Crew.engineer.survey_count", "rules.a b"):
        assert not pattern.match(path) and locate(data, path).__class__.__name__ == "Miss"


# -- edits ----------------------------------------------------------------------------------


def test_apply_edits_changes_exactly_the_named_values():
    edited = apply_edits(DRAFT7, {"planets.lava-1.track[2]": 4, "crew.quartermaster.skill[0].vp": 3})
    assert [(c.kind, c.subject, c.field) for c in diff_rulesets(DRAFT7, edited)] == [
        ("planet", "lava-1", "track"), ("crew", "quartermaster", "skill")]
    assert edited.planet("lava-1").track == (1, 3, 4, 5, 7, 0)
    assert edited.crew_card("quartermaster").skill[0].vp == 3
    assert (edited.name, edited.source) == (DRAFT7.name, DRAFT7.source)


def test_tune_paths_reach_the_numbers_of_this_turns_survey():
    """S7's skip limit and S14's cubes on the start Planet are values a proposal may edit; a
    limit below 0 is refused as the language refuses it (R7, R8)."""
    ideas = load_ruleset("ideas")
    data = ruleset_to_data(ideas)
    assert locate(data, "crew.contrarian.skill[1].at_most").value == 1
    assert locate(data, "crew.driller.skill[0].cubes").value == 2
    edited = apply_edits(ideas, {"crew.contrarian.skill[1].at_most": 2, "crew.driller.skill[0].cubes": 3})
    assert edited.crew_card("contrarian").skill[1].at_most == 2 and edited.crew_card("driller").skill[0].cubes == 3
    with pytest.raises(RulesetError) as caught:
        apply_edits(ideas, {"crew.contrarian.skill[1].at_most": -1})
    assert [p.message for p in caught.value.problems] == ["expected at least 0, found -1"]


def test_apply_edits_refuses_an_invalid_result_with_the_rulesets_problems():
    with pytest.raises(RulesetError) as caught:
        apply_edits(DRAFT7, {"rules.player_counts[1].planets": 15, "crew.engineer.survey_count": 2.5})
    assert [f"{Path(p.file).name}: {p.path}: {p.message}" for p in caught.value.problems] == [
        "rules.yaml: player_counts[1].planets: 4 players deal 15 planets, but planets.yaml has only 14 planet cards",
        "crew.yaml: crew.engineer.survey_count: expected an integer, found 2.5 (a number)",
    ]


def test_apply_edits_refuses_a_path_that_names_nothing():
    with pytest.raises(RulesetError) as caught:
        apply_edits(DRAFT7, {"crew.navigater.survey_count": 2})
    assert str(caught.value.problems[0]) == (
        f"{DRAFT7.source}: crew.navigater.survey_count: no crew card 'navigater' in ruleset draft7 (did you mean 'navigator'?)")


def test_edits_text_words_the_edits_as_stargazer_diff_does():
    """Two edits of one list are the one change they make; an edit to the base value is said so."""
    assert edits_text(DRAFT7, {"planets.lava-1.track[2]": 4, "planets.lava-1.track[5]": 9,
                               "rules.motivation.free_cube_vp": 2, "crew.engineer.survey_count": 3}) == [
        "knob motivation.free_cube_vp: 1 -> 2",
        "planet lava-1 (Lava 1): track [1, 3, 0, 5, 7, 0] -> [1, 3, 4, 5, 7, 9]",
    ]  # in the order stargazer diff lists changes
    assert edits_text(DRAFT7, {"crew.engineer.survey_count": 3}) == ["crew.engineer.survey_count: 3 (unchanged)"]


def _lines(folder: Path, file: str) -> list[str]:
    return (folder / file).read_text(encoding="utf-8").splitlines()


def test_a_proposal_is_a_new_draft_with_the_values_replaced_where_they_stand(tmp_path):
    """Every line but the edited values is the one new_draft writes: comments and layout kept."""
    edits = {"planets.lava-1.track[2]": 4, "crew.engineer.survey_count": 2, "rules.motivation.free_cube_vp": 2}
    proposal = write_proposal("draft7", edits, tmp_path / "draft8")
    plain = tmp_path / "plain" / "draft8"
    new_draft(plain, "draft7")
    changed = {
        file: [(old, new) for old, new in zip(_lines(plain, file), _lines(tmp_path / "draft8", file), strict=True) if old != new]
        for file in (*RULESET_FILES, "targets.yaml", "tune.yaml")
    }
    assert changed == {
        "rules.yaml": [("  free_cube_vp: 1", "  free_cube_vp: 2")],
        "planets.yaml": [("    track: [1, 3, 0, 5, 7, 0]", "    track: [1, 3, 4, 5, 7, 0]")],
        "crew.yaml": [("    survey_count: 3", "    survey_count: 2")],
        "targets.yaml": [],
        "tune.yaml": [],
    }
    assert [(c.kind, c.subject, c.field) for c in diff_rulesets(DRAFT7, proposal)] == [
        ("ruleset", "name", None), ("ruleset", "title", None), ("knob", "motivation.free_cube_vp", None),
        ("planet", "lava-1", "track"), ("crew", "engineer", "survey_count")]
    assert load_ruleset(tmp_path / "draft8") == proposal and proposal.source == str(tmp_path / "draft8")
    assert _lines(tmp_path / "draft8", "tune.yaml")[0] == f"{MODELINE}schemas/tune.schema.json"
    assert (tmp_path / "draft8" / "schemas" / "tune.schema.json").is_file()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["draft8", "plain"]


def test_a_proposal_keeps_a_comment_beside_the_value_and_counts_lines_as_yaml_does(tmp_path):
    """A line separator (U+2028) in a comment ends a line for YAML: the values below it are
    still found where the file was read."""
    base = copy_ruleset(tmp_path, to="mine")
    replace(base, "rules.yaml", "name: draft7", "name: mine")
    replace(base, "rules.yaml", "  free_cube_vp: 1", "  free_cube_vp: 1 # R6, for now")
    replace(base, "planets.yaml", "# Stargazer draft 7", "# Stargazer\u2028# draft 7")
    write_proposal(base, {"rules.motivation.free_cube_vp": 3, "planets.gas-1.track[6]": 10}, tmp_path / "next")
    assert "\n  free_cube_vp: 3 # R6, for now\n" in (tmp_path / "next" / "rules.yaml").read_text(encoding="utf-8")
    planets = (tmp_path / "next" / "planets.yaml").read_text(encoding="utf-8")
    assert "# Stargazer\u2028# draft 7" in planets and "\n    track: [0, 2, 4, 0, 6, 8, 10]\n" in planets


def test_a_proposal_that_the_rules_refuse_writes_nothing(tmp_path):
    with pytest.raises(RulesetError):
        write_proposal("draft7", {"crew.engineer.survey_count": -1}, tmp_path / "draft8")
    assert list(tmp_path.iterdir()) == []


def test_a_proposal_of_a_default_written_nowhere_writes_nothing(tmp_path):
    with pytest.raises(DraftError) as caught:
        write_proposal("draft7", {"planets.lava-1.special_capacity": 2}, tmp_path / "draft8")
    assert str(caught.value) == (
        "planets.lava-1.special_capacity is not written in planets.yaml (the ruleset takes its default, 1); write it there to tune it")
    assert list(tmp_path.iterdir()) == []


def test_a_proposal_never_overwrites_a_folder(tmp_path):
    (tmp_path / "draft8").mkdir()
    (tmp_path / "draft8" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(DraftError, match="already exists; give a new folder"):
        write_proposal("draft7", {"crew.engineer.survey_count": 2}, tmp_path / "draft8")
    assert [path.name for path in tmp_path.iterdir()] == ["draft8"]


def test_a_value_shared_through_a_yaml_anchor_is_not_edited_behind_the_designers_back(tmp_path):
    """Editing the anchor would change every alias of it too: refused, and nothing is written."""
    base = copy_ruleset(tmp_path, to="mine")
    replace(base, "rules.yaml", "name: draft7", "name: mine")
    replace(base, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: &twelve 12")
    replace(base, "rules.yaml", "free_cubes: 12", "free_cubes: *twelve")
    with pytest.raises(DraftError) as caught:
        write_proposal(base, {"rules.free_cubes": 10}, tmp_path / "next")
    assert str(caught.value) == (
        f"{tmp_path / 'next'}: writing the edits in place changed more than them (knob cubes_per_player: 12 -> 10); "
        "edit the files by hand")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mine"]


# -- property over generated rulesets -------------------------------------------------------


def _leaves(node: Any, shown: str) -> list[tuple[str, Any]]:
    """Every number and true/false written in a document, with its path as tune.yaml names it."""
    if isinstance(node, dict):
        return [leaf for key, value in node.items() for leaf in _leaves(value, f"{shown}.{key}")]
    if isinstance(node, list):
        return [leaf for index, value in enumerate(node) for leaf in _leaves(value, f"{shown}[{index}]")]
    if shown.startswith("rules.player_counts[") and shown.endswith(".players"):
        return []  # the setup's key, never tuned
    return [(shown, node)] if isinstance(node, (int, float)) else []


def written_paths(documents: dict[str, Any]) -> list[tuple[str, Any]]:
    paths = _leaves(documents["rules.yaml"], "rules")
    for file, key in (("planets.yaml", "planets"), ("crew.yaml", "crew")):
        for card in documents[file][key]:
            paths += [(f"{key}.{card['id']}{rest}", value) for rest, value in _leaves(card, "") if rest != ".id"]
    return paths


def _commented(text: str) -> str:
    """Each line with a numbered comment, but the title's three, which new_draft writes anew."""
    lines = text.splitlines()
    title = next((index for index, line in enumerate(lines) if line.startswith("title:")), -3)
    return "".join(line + ("\n" if title <= index <= title + 2 else f"  # line {index}\n") for index, line in enumerate(lines))


def _comments(folder: Path, file: str) -> list[str]:
    return re.findall(r"# line \d+", (folder / file).read_text(encoding="utf-8"))


@pytest.mark.slow
@given(documents=ruleset_documents(), data=st.data())
def test_an_edit_of_a_generated_ruleset_changes_that_value_and_nothing_else(documents, data):
    """apply_edits and the folder write_proposal makes differ from the base by the edit alone
    (and the draft's name and title); every comment of the copied files is still there."""
    path, old = data.draw(st.sampled_from(written_paths(documents)), label="path")
    if isinstance(old, bool):
        new: Any = not old
    else:
        new = data.draw(st.sampled_from([value for value in range(old - 2, old + 4) if value != old]), label="value")
    with tempfile.TemporaryDirectory(prefix="stargazer-tune-") as root:
        base_folder = Path(root, "base")
        base_folder.mkdir()
        for file, document in documents.items():
            text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
            (base_folder / file).write_text(_commented(text), encoding="utf-8")
        base = load_ruleset(base_folder)
        try:
            expected = apply_edits(base, {path: new})
        except RulesetError:
            with pytest.raises(RulesetError):
                write_proposal(base_folder, {path: new}, Path(root, "proposal"))
            assert sorted(p.name for p in Path(root).iterdir()) == ["base"]
            return
        data_before = ruleset_to_data(base)
        place = locate(data_before, path)
        assert ruleset_to_data(expected) == with_values(data_before, {place: new})
        changes = diff_rulesets(base, expected)
        assert changes and changes == diff_data(data_before, with_values(data_before, {place: new}))
        assert edits_text(base, {path: new}) == format_changes(changes)

        proposal = write_proposal(base_folder, {path: new}, Path(root, "proposal"))
        loaded = load_ruleset(Path(root, "proposal"))
        assert loaded == proposal
        assert [c for c in diff_rulesets(base, loaded) if c.kind != "ruleset"] == changes
        assert {c.subject for c in diff_rulesets(base, loaded) if c.kind == "ruleset"} <= {"name", "title"}
        for file in RULESET_FILES:
            assert _comments(Path(root, "proposal"), file) == _comments(base_folder, file)


def test_tunes_proposal_is_titled_as_its_draft_in_each_language(tmp_path):
    """The proposal tune writes keeps its draft's title, in Japanese and English, marked as
    tune's (not "スターゲイザー proposal", its folder's name in another language)."""
    write_proposal("draft7", {"rules.motivation.free_cube_vp": 2}, tmp_path / "proposal", title=proposal_title(DRAFT7))
    rules = (tmp_path / "proposal" / "rules.yaml").read_text(encoding="utf-8")
    assert "title:\n  ja: スターゲイザー 草案７（調整案）\n  en: Stargazer draft 7 (tuned)\n" in rules
    assert rules.splitlines()[1].startswith("# Stargazer draft 7 (tuned) (copied from draft7): ")
    assert load_ruleset(tmp_path / "proposal").title.ja == "スターゲイザー 草案７（調整案）"
