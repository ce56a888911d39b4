"""The loader: bundled rulesets load with their knobs, and every kind of broken data is reported
with file, line, column, path, a message that says what was expected, and a suggestion."""

from __future__ import annotations

import doctest
from pathlib import Path
from typing import ClassVar

import attrs

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from stargazer_rules.errors import Problem, RulesetError
import stargazer_rules.rulesets.loader
from stargazer_rules.rulesets.loader import fingerprint, fingerprinted_data, load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.model import PlayerCountSetup, UnpickedCrews
from stargazer_rules.rulesets.resources import bundled_ruleset_names, cards_dir
from stargazer_rules.vocabulary.effects import (
    AFTER_SURVEY,
    EFFECT_TYPES,
    ON_CHOOSE,
    ROUND_END,
    SURVEY,
    AllowRepeatPlanet,
    ChooseOne,
    Effect,
    GainVP,
    NameStartPlayer,
    Param,
    PlaceOnSpecial,
    TimingRequirement,
    extend_effect_types,
)

from ruleset_edits import (
    CUSTOM_EFFECT_TYPES,
    TakeCubesBack,
    copy_ruleset,
    line_of,
    only_problem,
    problems_of,
    read,
    replace,
)

# -- the bundled rulesets -------------------------------------------------------------------


def _yaml(name: str, file: str) -> dict:
    return yaml.safe_load((cards_dir() / name / file).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_bundled_ruleset_has_the_draft7_components(name):
    """Section 2: 14 planet cards and 12 crew; R19: Armstrong alone is always in play."""
    ruleset = load_ruleset(name)
    assert ruleset.name == name
    assert len(ruleset.planets) == 14
    assert len(ruleset.crew) == 12
    assert [card.id for card in ruleset.crew if card.always_in_play] == ["armstrong"]
    assert ruleset.crew_card("armstrong").survey_count == 2
    assert ruleset.crew_card("armstrong").skill == (NameStartPlayer(when=ROUND_END),)


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_r14_setups_are_the_yaml_player_counts(name):
    """R14/R10: 3 players deal 5 planets and 4 crew, 4 players 7 and 5; the end needs n full."""
    ruleset = load_ruleset(name)
    assert ruleset.player_counts == (3, 4)
    assert ruleset.setups == {
        3: PlayerCountSetup(players=3, planets=5, crew=4, full_planets_to_end=3),
        4: PlayerCountSetup(players=4, planets=7, crew=5, full_planets_to_end=4),
    }


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_knobs_equal_the_yaml_values(name):
    """R6, R7, R11, R13: every rule count of the ruleset is the value written in rules.yaml."""
    rules = _yaml(name, "rules.yaml")
    ruleset = load_ruleset(name)
    assert ruleset.cubes_per_player == rules["cubes_per_player"] == 12
    assert ruleset.free_cubes == rules["free_cubes"] == 12
    assert ruleset.unpicked_crews == UnpickedCrews(free_cubes=1, cap=3)
    assert rules["round_end"] == {"effects": [], "unpicked_crews": {"free_cubes": 1, "cap": 3}}
    assert ruleset.round_end_effects == ()
    assert ruleset.max_free_cubes_per_crew == 3
    assert ruleset.free_cube_vp == rules["motivation"]["free_cube_vp"] == 1
    assert ruleset.player_cube_vp == rules["motivation"]["player_cube_vp"] == 2
    assert ruleset.survey_minimum == rules["survey"]["minimum"] == 0
    assert [c.id for c in ruleset.colours] == [c["id"] for c in rules["colours"]]
    assert ruleset.title.en == rules["title"]["en"]


def test_planet_cards_equal_the_yaml():
    """R1, R3: tracks as written; special_capacity defaults to 1, the diamond's is 2."""
    planets = _yaml("draft7", "planets.yaml")["planets"]
    ruleset = load_ruleset("draft7")
    assert [card.track for card in ruleset.planets] == [tuple(p["track"]) for p in planets]
    assert [card.colour for card in ruleset.planets] == [p["colour"] for p in planets]
    assert ruleset.planet("diamond").special_capacity == 2
    assert ruleset.planet("lava-1").special_capacity == 1
    assert all(card.placeholder for card in ruleset.planets)


def test_base_crew_have_no_skill_but_armstrongs():
    """base is draft 7 without skills: the baseline of the benchmarks."""
    ruleset = load_ruleset("base")
    assert [card.id for card in ruleset.crew if card.skill] == ["armstrong"]


def test_effects_are_built_with_declared_defaults_and_timings():
    """A top-level effect without ``when`` takes its type's first timing; defaults fill in."""
    ruleset = load_ruleset("draft7")
    assert ruleset.crew_card("geologist").skill == (
        PlaceOnSpecial(when=AFTER_SURVEY, count=1, planets="surveyed"),
    )
    assert ruleset.crew_card("quartermaster").skill[0] == GainVP(when=ON_CHOOSE, vp=2)
    assert ruleset.crew_card("engineer").skill == (AllowRepeatPlanet(when=SURVEY),)


def test_choose_one_options_are_tuples_of_effects_with_the_parent_timing():
    """A nested effect without ``when`` takes its parent's timing when its type allows it."""
    skill = load_ruleset("draft7").crew_card("linguist").skill
    assert skill == (
        ChooseOne(
            when=ON_CHOOSE,
            options=(
                (GainVP(when=ON_CHOOSE, vp=2),),
                (PlaceOnSpecial(when=ON_CHOOSE, count=1, planets="any"),),
            ),
        ),
    )


def test_module_docstring_example_runs():
    """The example at the top of loader.py is true."""
    assert doctest.testmod(stargazer_rules.rulesets.loader).failed == 0


# -- finding the folder ---------------------------------------------------------------------


def test_no_path_loads_bundled_draft7():
    assert load_ruleset() == load_ruleset("draft7")
    assert load_ruleset().source == str(cards_dir() / "draft7")


def test_bundled_names_are_the_folders_of_data_cards():
    """Sorted; a designer's data/cards/draft8 joins them without a code change."""
    names = bundled_ruleset_names()
    assert {"base", "draft7"} <= set(names)
    assert list(names) == sorted(path.parent.name for path in cards_dir().glob("*/rules.yaml"))


def test_a_name_and_its_folder_load_the_same_ruleset():
    by_name = load_ruleset("base")
    by_folder = load_ruleset(cards_dir() / "base")
    assert by_name == by_folder
    assert by_name.fingerprint == by_folder.fingerprint


def test_an_existing_folder_wins_over_a_bundled_name(tmp_path, monkeypatch):
    """``draft7`` is a folder here, so it is read rather than the bundled ruleset."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "cubes_per_player: 12 ", "cubes_per_player: 10 ")
    monkeypatch.chdir(tmp_path)
    assert load_ruleset("draft7").cubes_per_player == 10


def test_unknown_name_suggests_a_bundled_one():
    assert only_problem("draft-7") == Problem(
        "draft-7",
        0,
        0,
        "",
        "no such folder; expected a ruleset folder with rules.yaml, planets.yaml, crew.yaml, "
        f"or the name of a bundled ruleset ({', '.join(bundled_ruleset_names())})",
        "draft7",
    )


def test_a_file_given_as_folder_is_a_problem(tmp_path):
    file = tmp_path / "rules.yaml"
    file.write_text("name: x\n", encoding="utf-8")
    problem = only_problem(file)
    assert problem.message == (
        "expected a ruleset folder with rules.yaml, planets.yaml, crew.yaml, found a file"
    )


# -- fingerprint and plain data -------------------------------------------------------------


def test_fingerprint_is_the_hash_of_the_canonical_data():
    ruleset = load_ruleset("draft7")
    assert ruleset.fingerprint == fingerprint(fingerprinted_data(ruleset))
    # R15/R16's majority section is left out of what is hashed (docs/rules.md, "The majority as
    # data"), so is R17's bonus section ("The major-planet bonus as data"), so is draft 7's end
    # (R10), so is an end_scoring of no line, and R11's 1 free cube with a cap is hashed as the
    # older max_free_cubes_per_crew.
    rules = {key: value for key, value in ruleset_to_data(ruleset)["rules"].items() if key not in ("majority", "bonus", "round_end", "end", "end_scoring")}
    assert fingerprinted_data(ruleset) == {**ruleset_to_data(ruleset), "rules": {**rules, "max_free_cubes_per_crew": 3}}
    assert len(ruleset.fingerprint) == 64


def test_fingerprint_ignores_comments_whitespace_and_layout(tmp_path):
    """Reformatting a file changes nothing a game record depends on."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "cubes_per_player: 12          # R13", "cubes_per_player:    12")
    replace(folder, "rules.yaml", "# Stargazer draft 7", "#   a different comment\n\n\n#")
    replace(folder, "crew.yaml", "    survey_count: 2           # R19: the draft prints no survey count for him either", "    survey_count: 2")
    replace(
        folder,
        "planets.yaml",
        "    track: [1, 3, 0, 5, 7, 0]\n    placeholder: true",
        "    placeholder: true\n    track:\n"
        + "".join(f"      - {v}\n" for v in (1, 3, 0, 5, 7))
        + "      - 0",
    )
    assert load_ruleset(folder).fingerprint == load_ruleset("draft7").fingerprint


def test_fingerprint_counts_written_defaults_as_defaults(tmp_path):
    """``special_capacity: 1`` written out is the same ruleset as the default left out (R3)."""
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "planets.yaml",
        "track: [1, 3, 0, 5, 7, 0]\n",
        "track: [1, 3, 0, 5, 7, 0]\n    special_capacity: 1\n",
    )
    replace(
        folder,
        "crew.yaml",
        "      - effect: place_free_cubes\n",
        "      - effect: place_free_cubes\n        when: on_choose\n",
    )
    assert load_ruleset(folder).fingerprint == load_ruleset("draft7").fingerprint


def test_fingerprint_changes_when_a_value_changes(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: [1, 3, 0, 5, 7, 1]")
    changed = load_ruleset(folder)
    assert changed.fingerprint != load_ruleset("draft7").fingerprint
    assert changed != load_ruleset("draft7")


def _write_documents(folder: Path, data: dict, *, flow: bool = False) -> None:
    folder.mkdir()
    for key, document in data.items():
        text = yaml.safe_dump(
            document, allow_unicode=True, sort_keys=False, default_flow_style=flow
        )
        (folder / f"{key}.yaml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", ["draft7", "base"])
def test_ruleset_to_data_round_trips(tmp_path, name):
    """YAML -> Ruleset -> plain data -> YAML gives an equal ruleset with the same fingerprint."""
    ruleset = load_ruleset(name)
    _write_documents(tmp_path / "again", ruleset_to_data(ruleset))
    again = load_ruleset(tmp_path / "again")
    assert again == ruleset
    assert again.fingerprint == ruleset.fingerprint


def _shuffled(value, random, ordered=False):
    """``value`` with every mapping's keys in a random order, but rules.yaml's ``end``, whose
    order is the order the log names its triggers in (R10)."""
    if isinstance(value, dict):
        keys = list(value)
        if not ordered:
            random.shuffle(keys)
        return {key: _shuffled(value[key], random, key == "end") for key in keys}
    if isinstance(value, list):
        return [_shuffled(item, random) for item in value]
    return value


@pytest.mark.slow
@settings(max_examples=15, deadline=None, derandomize=True)
@given(random=st.randoms(use_true_random=False), flow=st.booleans())
def test_fingerprint_does_not_depend_on_key_order_or_style(tmp_path_factory, random, flow):
    ruleset = load_ruleset("draft7")
    folder = tmp_path_factory.mktemp("shuffled") / "ruleset"
    _write_documents(folder, _shuffled(ruleset_to_data(ruleset), random), flow=flow)
    assert load_ruleset(folder).fingerprint == ruleset.fingerprint


# -- broken YAML ----------------------------------------------------------------------------


def test_malformed_yaml_is_reported_at_its_line(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder, "planets.yaml", "    track: [1, 2, 3, 4, 5]\n", "    track: [1, 2, 3, 4, 5\n"
    )
    assert only_problem(folder) == Problem(
        str(folder / "planets.yaml"),
        line + 1,
        16,
        "",
        f"invalid YAML: the list in [ ] that starts at line {line} is not closed, or a ',' is "
        "missing between its items: close it with ']'",
    )


def test_missing_file_is_named_and_the_other_files_still_checked(tmp_path):
    folder = copy_ruleset(tmp_path)
    (folder / "crew.yaml").unlink()
    replace(folder, "rules.yaml", "free_cubes: 12 ", "free_cubes: twelve ")
    assert problems_of(folder) == (
        Problem(
            str(folder / "rules.yaml"),
            22,
            13,
            "free_cubes",
            "expected an integer, found 'twelve' (a string)",
        ),
        Problem(str(folder / "crew.yaml"), 0, 0, "", "file not found"),
    )


def test_empty_file_expects_a_mapping(tmp_path):
    folder = copy_ruleset(tmp_path)
    (folder / "planets.yaml").write_text("# nothing yet\n", encoding="utf-8")
    problem = only_problem(folder)
    assert (problem.file, problem.message) == (
        str(folder / "planets.yaml"),
        "the file is empty; expected a mapping",
    )


def test_duplicate_yaml_key_is_a_problem(tmp_path):
    """PyYAML would silently keep the second value; the loader says so."""
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder, "crew.yaml", "    survey_count: 3\n", "    survey_count: 3\n    survey_count: 2\n"
    )
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line + 1,
        5,
        "crew.navigator.survey_count",
        f"duplicate key 'survey_count'; the first is at line {line}, and this one replaces it",
    )


def test_relative_folder_is_shown_as_given(tmp_path, monkeypatch):
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "rules.yaml", "free_cubes: 12 ", "free_cubes: -1 ")
    monkeypatch.chdir(tmp_path)
    assert str(only_problem("draft8")) == (
        "draft8/rules.yaml:22:13: free_cubes: expected at least 0, found -1"
    )


# -- schema problems ------------------------------------------------------------------------


def test_wrong_type_says_what_was_expected_and_found(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "    survey_count: 3\n", "    survey_count: three\n")
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line,
        19,
        "crew.navigator.survey_count",
        "expected an integer, found 'three' (a string)",
    )


def test_an_integer_with_a_leading_zero_is_refused_asking_for_one_reading(tmp_path):
    """YAML 1.1 reads track: [010, 3] as octal 8, YAML 1.2 as 10: the file is refused at the
    value, asking for 10 or 8, instead of scoring square 1 as 8 VP (R1)."""
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: [010, 3, 0, 5, 7, 0]")
    assert only_problem(folder) == Problem(
        str(folder / "planets.yaml"),
        line,
        13,
        "planets.lava-1.track[0]",
        "010 has a leading zero: YAML 1.1 reads it as octal 8, YAML 1.2 as 10; write 10 or 8",
    )


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("0x1", "expected an integer, found '0x1' (a string): YAML 1.1 reads it as the integer 1, YAML 1.2 (how this file is read) as text; write 1"),
        ("1_0", "expected an integer, found '1_0' (a string): YAML 1.1 reads it as the integer 10, YAML 1.2 (how this file is read) as text; write 10"),
        ("3.0", "expected an integer, found 3.0 (a number); write 3"),
        ("1e1", "expected an integer, found 10.0 (a number); write 10"),
    ],
)
def test_hex_and_float_vp_are_refused_where_an_integer_is_wanted(tmp_path, written, message):
    """A VP value (R1) written 0x1, 1_0, 3.0 or 1e1 is not an integer count in YAML 1.2 and JSON
    Schema terms: refused at its place, saying what to write, never read as 1, 10 or 3."""
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", f"track: [1, {written}, 0, 5, 7, 0]")
    assert only_problem(folder) == Problem(str(folder / "planets.yaml"), line, 16, "planets.lava-1.track[1]", message)


@pytest.mark.parametrize(("written", "word"), [("yes", "true"), ("On", "true"), ("no", "false"), ("off", "false")])
def test_a_yaml_1_1_boolean_word_is_refused_where_a_boolean_is_wanted(tmp_path, written, word):
    """always_in_play: yes is a boolean in YAML 1.1 and text in YAML 1.2: refused at its place,
    saying what to write, never read one way by this loader and another by the designer's editor."""
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "    always_in_play: true\n", f"    always_in_play: {written}\n")
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line,
        21,
        "crew.armstrong.always_in_play",
        f"expected true or false, found {written!r} (a string): YAML 1.1 reads it as {word}, YAML 1.2 (how this "
        f"file is read) as text; write {word}",
    )


def test_a_name_written_no_is_the_word_no(tmp_path):
    """YAML 1.1 read an unquoted name No as false; YAML 1.2 reads the word."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "    always_in_play: true\n", "    always_in_play: True\n")
    assert load_ruleset(folder).crew[0].always_in_play is True
    from stargazer_rules.rulesets.yamlsource import _Yaml12Loader

    assert yaml.load("name: No\nflag: false", Loader=_Yaml12Loader) == {"name": "No", "flag": False}


def test_yaml_1_2_numbers_read_as_before_where_both_readings_agree(tmp_path):
    """Decimal integers, a signed delta and 0 read as they always did: the bundled data is the same."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: [+1, 3, 0, 5, 7, 0]")
    assert load_ruleset(folder).planets[0].track == (1, 3, 0, 5, 7, 0)


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (
            r'"Nav\u001b[2Jigator"',
            "a name cannot hold U+001B, a control character: found 'Nav\\x1b[2Jigator' (a string), character 4; "
            "delete it (names are printed to terminals, cards and pages)",
        ),
        (
            r'"Nav\aig\bator"',
            "a name cannot hold U+0007, a control character: found 'Nav\\x07ig\\x08ator' (a string), character 4; "
            "delete it (names are printed to terminals, cards and pages)",
        ),
        (
            r'"Nav\u202Eigator"',
            "a name cannot hold U+202E (right-to-left override), a direction control that reorders the text around "
            "it: found 'Nav\\u202eigator' (a string), character 4; delete it (names are printed to terminals, cards "
            "and pages)",
        ),
        (
            r'"Rocket \ud83d\ude80"',
            "a name cannot hold U+D83D, half of a character written as two escapes: found 'Rocket \\ud83d\\ude80' "
            "(a string), character 8; write the character itself, or the one escape \\U0001F680 (names are printed "
            "to terminals, cards and pages)",
        ),
    ],
)
def test_a_name_with_a_control_character_an_override_or_half_a_character_is_refused(tmp_path, written, message):
    """Names are printed: an escape that clears the screen, a bell, a backspace, a right-to-left
    override or a lone surrogate (which no printer can encode) is refused at the name."""
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "en: Navigator}", f"en: {written}}}")
    assert only_problem(folder) == Problem(str(folder / "crew.yaml"), line, 25, "crew.navigator.name.en", message)


def test_every_name_schema_refuses_the_same_characters():
    """The crew, planet and rules schemas hold one name definition, with printable.NAME_PATTERN."""
    from stargazer_rules.rulesets.printable import NAME_PATTERN
    from stargazer_rules.rulesets.schemas import crew_schema, load_schema

    for schema in (crew_schema(), load_schema("planets"), load_schema("rules")):
        name = schema["$defs"]["name"]["properties"]
        assert (name["ja"]["pattern"], name["en"]["pattern"]) == (NAME_PATTERN, NAME_PATTERN)


def test_unknown_key_is_reported_at_the_key_with_a_suggestion(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "planets.yaml", "    special_capacity: 2", "    special_capcity: 2")
    assert only_problem(folder) == Problem(
        str(folder / "planets.yaml"),
        line,
        5,
        "planets.diamond.special_capcity",
        "unexpected key 'special_capcity'; allowed keys: id, name, colour, track, "
        "special_capacity, placeholder, abilities",
        "special_capacity",
    )


def test_missing_required_key(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "  en: Stargazer draft 7\n", "")
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"), 6, 3, "title", "missing required key 'en'"
    )


def test_misspelt_effect_name_gives_one_clear_problem(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder,
        "crew.yaml",
        "      - effect: gain_vp\n        vp: 2\n      - effect: place_on_crew",
        "      - effect: gain_vpp\n        vp: 2\n      - effect: place_on_crew",
    )
    problem = only_problem(folder)
    assert problem == Problem(
        str(folder / "crew.yaml"),
        line,
        17,
        "crew.quartermaster.skill[0].effect",
        "unknown effect 'gain_vpp'",
        "gain_vp",
    )
    assert str(problem) == (
        f"{folder / 'crew.yaml'}:{line}:17: crew.quartermaster.skill[0].effect: unknown effect 'gain_vpp' "
        "(did you mean 'gain_vp'?)"
    )


def test_unrecognisable_effect_name_lists_the_vocabulary(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "      - effect: allow_repeat_planet", "      - effect: teleport")
    assert only_problem(folder).message == (
        "unknown effect 'teleport'; expected one of " + ", ".join(EFFECT_TYPES)
    )


def test_misspelt_effect_parameter(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "        vp: 1\n", "        vpp: 1\n")
    file = str(folder / "crew.yaml")
    assert problems_of(folder) == (
        Problem(file, line - 1, 9, "crew.recruiter.skill[0]", "missing required key 'vp'"),
        Problem(
            file,
            line,
            9,
            "crew.recruiter.skill[0].vpp",
            "unexpected key 'vpp'; allowed keys: effect, when, vp, to",
            "vp",
        ),
    )


def test_timing_not_allowed_for_the_effect_type(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder, "crew.yaml", "        delta: 1\n", "        delta: 1\n        when: on_choose\n"
    )
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line + 1,
        15,
        "crew.mechanic.skill[0].when",
        "effect 'change_survey_count' cannot resolve at 'on_choose'; expected 'survey'",
    )


def test_unknown_enum_value_suggests_the_closest(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "        planets: surveyed\n", "        planets: surveyd\n")
    problem = only_problem(folder)
    assert (problem.path, problem.message, problem.suggestion) == (
        "crew.geologist.skill[0].planets",
        "unknown value 'surveyd'; expected one of 'any', 'colour', 'surveyed'",
        "surveyed",
    )


def test_bad_id_and_empty_track(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "planets.yaml", "  - id: lava-1", "  - id: Lava 1")
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: []")
    assert [(p.path, p.message) for p in problems_of(folder)] == [
        (
            "planets[0].id",
            "expected an id of lowercase letters, digits, '-' and '_', found 'Lava 1' (a string)",
        ),
        ("planets[0].track", "expected at least 1 item, found none"),
    ]


# -- cross-file checks ----------------------------------------------------------------------


def test_unknown_planet_colour(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "planets.yaml", "colour: white", "colour: whte")
    assert only_problem(folder) == Problem(
        str(folder / "planets.yaml"),
        line,
        13,
        "planets.diamond.colour",
        "unknown colour 'whte'; expected one of the colours of rules.yaml: red, blue, yellow, "
        "green, black, white",
        "white",
    )


def test_unknown_colour_in_an_effect(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "        colour: blue", "        colour: bleu")
    problem = only_problem(folder)
    assert (problem.line, problem.path, problem.suggestion) == (
        line,
        "crew.oceanographer.skill[0].colour",
        "blue",
    )


def test_colour_removed_from_rules_is_reported_where_used(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "  - {id: blue, name: {ja: 青, en: blue}}\n", "")
    problems = problems_of(folder)
    assert [p.path for p in problems] == [
        "planets.ocean-1.colour",
        "planets.ocean-2.colour",
        "planets.ocean-3.colour",
        "crew.oceanographer.skill[0].colour",
    ]


def test_a_card_is_named_by_its_id_and_by_its_place_only_when_its_id_cannot_name_it(tmp_path):
    """crew.engineer.survey_count, as tune.yaml names it; a card whose id is repeated or not an
    id is named crew[4], and file:line:column stay."""
    folder = copy_ruleset(tmp_path)
    text = read(folder, "crew.yaml").replace(
        "  - id: engineer\n    name: {ja: 機関士, en: Engineer}\n    survey_count: 3",
        "  - id: engineer\n    name: {ja: 機関士, en: Engineer}\n    survey_count: -3",
    )
    (folder / "crew.yaml").write_text(text, encoding="utf-8")
    line = line_of(folder, "crew.yaml", "survey_count: -3")
    file = str(folder / "crew.yaml")
    message = "expected at least 0, found -3"
    assert only_problem(folder) == Problem(file, line, 19, "crew.engineer.survey_count", message)
    replace(folder, "crew.yaml", "  - id: engineer", "  - id: Engineer")
    assert [(p.path, p.line) for p in problems_of(folder)] == [("crew[5].id", line - 2), ("crew[5].survey_count", line)]
    replace(folder, "crew.yaml", "  - id: Engineer", "  - id: pilot")
    assert [(p.path, p.line) for p in problems_of(folder)][-1] == ("crew[5].survey_count", line)


def test_a_card_is_named_by_an_id_only_as_the_schemas_allow_one():
    """The rule that picks the ids to name cards by is the crew and planets schemas' own
    (pattern and length): an id the schema refuses never names a card."""
    from stargazer_rules.rulesets import yamlsource
    from stargazer_rules.rulesets.schemas import crew_schema, load_schema

    for schema in (crew_schema(), load_schema("planets")):
        (key,) = (name for name in ("crew", "planets") if name in schema["properties"])
        card = schema["properties"][key]["items"]
        card = schema["$defs"][card["$ref"].rsplit("/", 1)[1]] if "$ref" in card else card
        ident = card["properties"]["id"]
        assert (ident["pattern"], ident["maxLength"]) == (yamlsource.CARD_ID_PATTERN, yamlsource.CARD_ID_MAX_LENGTH)
    cards = [{"id": "e" * 64}, {"id": "e" * 65}, {"id": "eng\n"}, {"id": 5}, {"id": ["a"]}, "card", {"id": "ok"}]
    assert yamlsource.card_ids({"crew": cards}) == {("crew", 0): "e" * 64, ("crew", 6): "ok"}
    assert yamlsource.format_path(("crew", 1, "id"), yamlsource.card_ids({"crew": cards})) == "crew[1].id"


def test_duplicate_planet_id(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "planets.yaml", "  - id: lava-2", "  - id: lava-1")
    assert only_problem(folder) == Problem(
        str(folder / "planets.yaml"),
        line,
        9,
        "planets[1].id",
        "duplicate planet id 'lava-1'; planets[0] at line 6 already has it",
    )


def test_duplicate_colour_and_crew_ids(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "{id: white,", "{id: black,")
    replace(folder, "planets.yaml", "colour: white", "colour: black")
    replace(folder, "crew.yaml", "  - id: pilot", "  - id: engineer")
    assert [p.message for p in problems_of(folder)] == [
        "duplicate colour id 'black'; colours[4] at line 14 already has it",
        "duplicate crew id 'engineer'; crew[4] at line 41 already has it",
    ]


def test_r14_too_few_planets_for_a_player_count(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "rules.yaml", "planets: 7,", "planets: 15,")
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"),
        line,
        27,
        "player_counts[1].planets",
        "4 players deal 15 planets, but planets.yaml has only 14 planet cards",
    )


def test_r14_too_few_crew_to_deal(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "crew: 5,", "crew: 12,")
    assert only_problem(folder).message == (
        "4 players deal 12 crew, but crew.yaml has only 11 crew that are not always_in_play"
    )


def test_r5_every_player_needs_a_crew_to_choose(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "crew: 5,", "crew: 2,")
    assert only_problem(folder).message == (
        "4 players each choose a different crew every round, but the crew area holds only "
        "1 always_in_play + 2 dealt = 3"
    )


def test_r10_end_needs_no_more_full_planets_than_dealt(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "full_planets_to_end: 3}", "full_planets_to_end: 6}")
    problem = only_problem(folder)
    assert (problem.path, problem.message) == (
        "player_counts[0].full_planets_to_end",
        "full_planets_to_end is 6, but only 5 Planets are dealt for 3 players; expected at most 5",
    )


def test_r10_end_defaults_to_the_number_of_players(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", ", full_planets_to_end: 4}", "}")
    assert load_ruleset(folder).setups[4].full_planets_to_end == 4


def test_r10_default_end_must_be_reachable_too(tmp_path):
    """Left out, full_planets_to_end is the number of players (R10): 2 Planets cannot reach 3."""
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder, "rules.yaml", "planets: 5, crew: 4, full_planets_to_end: 3}", "planets: 2, crew: 4}"
    )
    assert only_problem(folder) == Problem(
        str(folder / "rules.yaml"),
        line,
        5,
        "player_counts[0]",
        "full_planets_to_end (by default the number of players) is 3, but only 2 Planets are "
        "dealt for 3 players; expected at most 2",
    )


def test_r7_survey_minimum_defaults_to_zero(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "survey:\n  minimum: 0", "")
    ruleset = load_ruleset(folder)
    assert ruleset.survey_minimum == 0
    assert ruleset.fingerprint == load_ruleset("draft7").fingerprint


def test_player_count_listed_twice(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "{players: 4,", "{players: 3,")
    assert only_problem(folder).message == (
        "3 players are listed twice; the first is player_counts[0]"
    )


def test_surveyed_planets_need_after_survey(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder,
        "crew.yaml",
        "        when: after_survey\n    placeholder: true\n\n  - id: quartermaster",
        "    placeholder: true\n\n  - id: quartermaster",
    )
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line - 2,
        17,
        "crew.geologist.skill[0].effect",
        "planets: surveyed needs when: after_survey, but this 'place_on_special' resolves at "
        "on_choose",
    )


def test_option_effect_must_share_the_choose_one_timing(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder,
        "crew.yaml",
        "              vp: 2\n",
        "              vp: 2\n              when: after_survey\n",
    )
    assert only_problem(folder) == Problem(
        str(folder / "crew.yaml"),
        line + 1,
        21,
        "crew.linguist.skill[0].options[0][0].when",
        "option effect 'gain_vp' resolves at after_survey, but its choose_one resolves at "
        "on_choose; an option's effects must resolve at on_choose or survey",
    )


def test_survey_option_under_on_choose_takes_its_own_timing(tmp_path):
    """allow_repeat_planet cannot resolve on_choose, so it takes its first timing, survey."""
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "crew.yaml",
        "          - - effect: gain_vp\n              vp: 2\n",
        "          - - effect: allow_repeat_planet\n",
    )
    option = load_ruleset(folder).crew_card("linguist").skill[0].options[0]
    assert option == (AllowRepeatPlanet(when=SURVEY),)


def test_survey_option_under_after_survey_is_a_problem(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "crew.yaml",
        "      - effect: choose_one\n",
        "      - effect: choose_one\n        when: after_survey\n",
    )
    replace(
        folder,
        "crew.yaml",
        "          - - effect: gain_vp\n              vp: 2\n",
        "          - - effect: allow_repeat_planet\n",
    )
    assert only_problem(folder).message == (
        "option effect 'allow_repeat_planet' resolves at survey, but its choose_one resolves at "
        "after_survey; an option's effects must resolve at after_survey"
    )


def test_option_effects_inherit_an_after_survey_parent(tmp_path):
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "crew.yaml",
        "      - effect: choose_one\n",
        "      - effect: choose_one\n        when: after_survey\n",
    )
    replace(folder, "crew.yaml", "              planets: any", "              planets: surveyed")
    options = load_ruleset(folder).crew_card("linguist").skill[0].options
    assert options == (
        (GainVP(when=AFTER_SURVEY, vp=2),),
        (PlaceOnSpecial(when=AFTER_SURVEY, planets="surveyed"),),
    )


def test_colour_without_planets_colour_is_a_problem(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = replace(folder, "crew.yaml", "        planets: colour\n", "        planets: any\n")
    problem = only_problem(folder)
    assert (problem.line, problem.path, problem.message) == (
        line + 1,
        "crew.oceanographer.skill[0].colour",
        "'colour' is only used when planets is 'colour'; found planets 'any' (a string)",
    )


def test_several_problems_in_all_files_are_reported_together(tmp_path):
    """One RulesetError lists every problem, in file order (rules, planets, crew) and line order."""
    folder = copy_ruleset(tmp_path)
    replace(
        folder, "crew.yaml", "      - effect: may_skip_planets", "      - effect: may_skip_planet"
    )
    replace(folder, "rules.yaml", "    cap: 3 ", "    cap: three ")
    replace(folder, "planets.yaml", "colour: green", "colour: gren", count=3)
    replace(folder, "crew.yaml", "    survey_count: 3\n", "    survey_count: -3\n")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(folder)
    problems = caught.value.problems
    assert [(Path(p.file).name, p.path) for p in problems] == [
        ("rules.yaml", "round_end.unpicked_crews.cap"),
        ("planets.yaml", "planets.primordial-1.colour"),
        ("planets.yaml", "planets.primordial-2.colour"),
        ("planets.yaml", "planets.primordial-3.colour"),
        ("crew.yaml", "crew.navigator.survey_count"),
        ("crew.yaml", "crew.pilot.skill[0].effect"),
    ]
    assert str(caught.value).splitlines()[0] == "6 problems in the ruleset:"
    assert problems[5].suggestion == "may_skip_planets"


# -- custom effect types --------------------------------------------------------------------


def _use_custom_effect(folder: Path, cubes: str) -> int:
    return replace(
        folder,
        "crew.yaml",
        "      - effect: change_survey_count\n        delta: 1\n",
        f"      - effect: take_cubes_back\n        cubes: {cubes}\n",
    )


def test_custom_effect_type_is_accepted_when_registered(tmp_path):
    folder = copy_ruleset(tmp_path)
    _use_custom_effect(folder, "2")
    ruleset = load_ruleset(folder, effect_types=CUSTOM_EFFECT_TYPES)
    assert ruleset.crew_card("mechanic").skill == (TakeCubesBack(when=AFTER_SURVEY, cubes=2),)


def test_custom_effect_parameters_are_checked_by_the_schema(tmp_path):
    folder = copy_ruleset(tmp_path)
    _use_custom_effect(folder, "0")
    assert (
        only_problem(folder, effect_types=CUSTOM_EFFECT_TYPES).message
        == "expected at least 1, found 0"
    )


def test_custom_effect_is_unknown_without_the_registry(tmp_path):
    folder = copy_ruleset(tmp_path)
    line = _use_custom_effect(folder, "2")
    problem = only_problem(folder)
    assert (problem.line, problem.path) == (line, "crew.mechanic.skill[0].effect")
    assert problem.message.startswith("unknown effect 'take_cubes_back'")


@attrs.frozen(kw_only=True)
class ReturnCubes(Effect):
    """A custom effect with a timing requirement of its own, declared like place_on_special's."""

    name: ClassVar[str] = "return_cubes"
    summary: ClassVar[str] = "Take a cube back into hand."
    timings: ClassVar[tuple[str, ...]] = (ON_CHOOSE, AFTER_SURVEY)
    params: ClassVar[tuple[Param, ...]] = (
        Param("planets", "choice", "Which Planets.", choices=("any", "surveyed"), default="any"),
    )
    timing_requirements: ClassVar[tuple[TimingRequirement, ...]] = (
        TimingRequirement("planets", "surveyed", AFTER_SURVEY),
    )

    planets: str = "any"

    def apply(self, table, seat, slot, choice):
        return ()


def test_a_custom_effect_types_timing_requirement_is_checked(tmp_path):
    """R9: a new type declares on its class which parameter values need which timing, and the
    loader holds the YAML to them as it holds place_on_special's ``planets: surveyed``."""
    folder = copy_ruleset(tmp_path)
    line = replace(
        folder,
        "crew.yaml",
        "      - effect: change_survey_count\n        delta: 1\n",
        "      - effect: return_cubes\n        planets: surveyed\n",
    )
    problem = only_problem(folder, effect_types=extend_effect_types(EFFECT_TYPES, ReturnCubes))
    assert (problem.line, problem.path, problem.message) == (
        line,
        "crew.mechanic.skill[0].effect",
        "planets: surveyed needs when: after_survey, but this 'return_cubes' resolves at on_choose",
    )
    replace(
        folder,
        "crew.yaml",
        "      - effect: return_cubes\n",
        "      - effect: return_cubes\n        when: after_survey\n",
    )
    ruleset = load_ruleset(folder, effect_types=extend_effect_types(EFFECT_TYPES, ReturnCubes))
    assert ruleset.crew_card("mechanic").skill == (ReturnCubes(when=AFTER_SURVEY, planets="surveyed"),)


def test_a_timing_requirement_must_name_a_param_and_a_timing_of_its_type():
    """A mistyped requirement is refused when the registry is built, never silently unchecked."""

    @attrs.frozen(kw_only=True)
    class Mistyped(ReturnCubes):
        name: ClassVar[str] = "mistyped"
        timing_requirements: ClassVar[tuple[TimingRequirement, ...]] = (
            TimingRequirement("planet", "surveyed", AFTER_SURVEY),
        )

    with pytest.raises(ValueError) as caught:
        extend_effect_types(EFFECT_TYPES, Mistyped)
    assert str(caught.value) == (
        "effect type 'mistyped': the timing requirement 'planet: surveyed needs when: "
        "after_survey' must name one of its params (planets) and one of its timings "
        "(on_choose, after_survey)"
    )


def test_the_default_registry_is_not_changed_by_extending_it():
    assert "take_cubes_back" in CUSTOM_EFFECT_TYPES
    assert "take_cubes_back" not in EFFECT_TYPES


def test_line_of_helper_finds_lines(tmp_path):
    """The helper the tests rely on counts lines from 1."""
    folder = copy_ruleset(tmp_path)
    assert line_of(folder, "rules.yaml", "name: draft7") == 4
    assert read(folder, "rules.yaml").splitlines()[3] == "name: draft7"


def test_an_effect_refused_inside_a_body_is_one_problem_not_a_crash(tmp_path):
    """An effect whose class refuses its parameters inside ``for_each`` (here place_cube_on_crew
    with owner ``anyone``) is the one problem at its place; the ``for_each`` around it is not
    built (it used to be built around None and raise AttributeError)."""
    folder = copy_ruleset(tmp_path, "ideas")
    line = line_of(folder, "crew.yaml", "owner: this_seat")
    replace(folder, "crew.yaml", "owner: this_seat\n            crew: this_crew", "owner: anyone\n            crew: this_crew")
    problem = only_problem(folder)
    assert str(problem) == (
        f"{folder / 'crew.yaml'}:{line - 1}:13: crew.tax-collector.skill[0].do[0]: effect 'place_cube_on_crew' could "
        "not be built from these parameters: place_cube_on_crew needs an owner: a set of seats or free, not anyone"
    )
