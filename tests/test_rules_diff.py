"""The rules diff: what differs between two rulesets, card by card and knob by knob."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleset_edits import copy_ruleset, replace
from stargazer_rules.frontends import cli
from stargazer_rules.rulesets.diff import Change, diff_data, diff_rulesets, format_changes
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from strategies import load_documents, ruleset_documents


def _rule_changes(folder) -> list[Change]:
    """The changes of an edited copy of draft7 other than its name."""
    return [c for c in diff_rulesets(load_ruleset("draft7"), load_ruleset(folder)) if c.kind != "ruleset"]


def test_a_changed_track_is_one_change_old_to_new(tmp_path):
    """Lava 1's accident square filled: the planet's track, old -> new, and nothing else."""
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: [1, 3, 4, 5, 7, 0]")
    changes = _rule_changes(folder)
    assert changes == [
        Change("planet", "lava-1", "changed", "track", [1, 3, 0, 5, 7, 0], [1, 3, 4, 5, 7, 0], "Lava 1")
    ]
    assert format_changes(changes) == ["planet lava-1 (Lava 1): track [1, 3, 0, 5, 7, 0] -> [1, 3, 4, 5, 7, 0]"]


def test_a_swapped_skill_shows_both_skills(tmp_path):
    """The Historian's skill swapped: one change of its skill, each side written as effects."""
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "crew.yaml", "      - effect: gain_vp\n        vp: 2\n        when: after_survey",
            "      - effect: place_free_cubes\n        count: 1")
    (change,) = _rule_changes(folder)
    assert (change.kind, change.subject, change.field) == ("crew", "historian", "skill")
    assert format_changes([change]) == [
        "crew historian (Historian): skill gain_vp(vp=2, when=after_survey) -> "
        "place_free_cubes(count=1, when=on_choose)"
    ]


def test_a_crew_added_and_one_removed(tmp_path):
    """A new crew card is 'added' with its fields; a deleted one 'removed' with what it was."""
    folder = copy_ruleset(tmp_path, to="draft8")
    text = (folder / "crew.yaml").read_text(encoding="utf-8")
    start = text.index("  - id: mechanic")
    (folder / "crew.yaml").write_text(
        text[:start] + "  - id: astronomer\n    name: {ja: 天文学者, en: Astronomer}\n    survey_count: 3\n"
        "    skill:\n      - effect: gain_vp\n        vp: 1\n", encoding="utf-8")
    changes = _rule_changes(folder)
    assert [(c.subject, c.action) for c in changes] == [("mechanic", "removed"), ("astronomer", "added")]
    assert format_changes(changes)[1] == (
        "crew astronomer (Astronomer): added (survey_count 3, always_in_play false, "
        "skill gain_vp(vp=1, when=on_choose), placeholder false)"
    )


def test_knobs_and_setups_are_reported_by_name(tmp_path):
    """A knob of rules.yaml (nested ones by their dotted name) and a setup count, old -> new."""
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 11")
    replace(folder, "rules.yaml", "player_cube_vp: 2", "player_cube_vp: 3")
    replace(folder, "rules.yaml", "{players: 4, planets: 7,", "{players: 4, planets: 8,")
    assert format_changes(_rule_changes(folder)) == [
        "knob cubes_per_player: 12 -> 11",
        "knob motivation.player_cube_vp: 2 -> 3",
        "setup for 4 players: planets 7 -> 8",
    ]


def test_the_same_rules_have_no_change():
    """draft7 against itself: no change, and the text says so."""
    assert diff_rulesets(load_ruleset("draft7"), load_ruleset("draft7")) == []
    assert format_changes([]) == ["no difference in the rules"]


def test_stargazer_diff_prints_the_changes(tmp_path, capsys):
    """``stargazer diff A B`` prints one line per change; --json the same as data."""
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(folder, "planets.yaml", "track: [1, 3, 0, 5, 7, 0]", "track: [1, 3, 4, 5, 7, 0]")
    assert cli.main(["diff", "draft7", str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["planet lava-1 (Lava 1): track [1, 3, 0, 5, 7, 0] -> [1, 3, 4, 5, 7, 0]"]
    assert cli.main(["diff", "draft7", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(c["kind"], c["subject"], c["old"], c["new"]) for c in data] == [(
        "planet", "lava-1", [1, 3, 0, 5, 7, 0], [1, 3, 4, 5, 7, 0])]


# -- generated rulesets ---------------------------------------------------------------------


_generated = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@_generated
@given(ruleset_documents())
def test_a_generated_ruleset_has_no_difference_with_itself(documents):
    """diff(A, A) is empty, for loaded rulesets and for their plain data."""
    ruleset = load_documents(documents)
    assert diff_rulesets(ruleset, ruleset) == []
    assert diff_data(ruleset_to_data(ruleset), ruleset_to_data(ruleset)) == []


@st.composite
def _one_edit(draw):
    """Generated documents, and the same with one value edited, with the change expected."""
    documents = draw(ruleset_documents())
    edited = copy.deepcopy(documents)
    where = draw(st.sampled_from(["knob", "track", "survey_count"]))
    if where == "knob":
        old = edited["rules.yaml"]["cubes_per_player"]
        new = old + 1 if old < 15 else old - 1
        edited["rules.yaml"]["cubes_per_player"] = new
        return documents, edited, Change("knob", "cubes_per_player", "changed", None, old, new)
    if where == "track":
        card = draw(st.sampled_from(edited["planets.yaml"]["planets"]))
        square = draw(st.integers(0, len(card["track"]) - 1))
        old = list(card["track"])
        card["track"][square] = (card["track"][square] + 1) % 13
        return documents, edited, Change("planet", card["id"], "changed", "track", old, list(card["track"]),
                                         card["name"]["en"])
    card = draw(st.sampled_from(edited["crew.yaml"]["crew"]))
    old = card["survey_count"]
    card["survey_count"] = (old + 1) % 6
    return documents, edited, Change("crew", card["id"], "changed", "survey_count", old, card["survey_count"],
                                     card["name"]["en"])


@pytest.mark.slow
@_generated
@given(_one_edit())
def test_one_generated_edit_is_reported_exactly(case):
    """One value changed in a generated ruleset: the diff is exactly that one change."""
    documents, edited, expected = case
    assert diff_rulesets(load_documents(documents), load_documents(edited)) == [expected]
