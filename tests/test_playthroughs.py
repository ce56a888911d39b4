"""Playthrough transcripts: whole recorded games replayed, so that any change of behaviour shows.

Each file under ``tests/playthroughs/`` is one complete game of seeded random moves, written
by ``tests/playthroughs/regenerate.py``: the setup, every decision with its legal actions, the
action taken and the events that followed, and the final score sheet. The tests replay each
transcript's actions from its setup and fail at the first difference, naming the decision,
what the transcript expects and what the engine does now.

A difference is either a bug or an intended change. When the change is intended and approved,
rewrite the transcripts with ``python tests/playthroughs/regenerate.py`` and review the diff.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from stargazer_rules import Game, load_ruleset
from stargazer_rules.formats import jsonio
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.events import EVENT_KEYS


def _load_generator() -> Any:
    path = Path(__file__).with_name("playthroughs") / "regenerate.py"
    spec = importlib.util.spec_from_file_location("playthroughs_regenerate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple subclasses look their module up
    spec.loader.exec_module(module)
    return module


generator = _load_generator()
PLAYTHROUGHS = generator.PLAYTHROUGHS

HOW_TO_REGENERATE = (
    "If this change of behaviour is intended and approved, rewrite the transcripts with\n"
    f"    {generator.REGENERATE}\n"
    "and review the diff (git diff tests/playthroughs/) before committing it."
)

by_playthrough = pytest.mark.parametrize("entry", PLAYTHROUGHS, ids=lambda entry: entry.file_name)


@functools.cache
def bundled_game(name: str) -> Game:
    return Game(load_ruleset(name))


@functools.cache
def transcript(entry: Any) -> Any:
    if not entry.path.exists():
        pytest.fail(f"{entry.file_name} is missing.\n{HOW_TO_REGENERATE}", pytrace=False)
    return generator.load(entry)


def differs(entry: Any, where: str, expected: Any, actual: Any, detail: str = "") -> None:
    """Fail with the first difference: where, expected, actual, and how to regenerate."""
    lines = [f"{entry.file_name}: {where}: the engine no longer does what the transcript records."]
    if detail:
        lines.append(detail)
    lines += [f"  expected: {generator.flow(expected)}", f"  actual:   {generator.flow(actual)}", HOW_TO_REGENERATE]
    pytest.fail("\n".join(lines), pytrace=False)


def first_difference(expected: Any, actual: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """The JSON path and values of the first place where two JSON values differ, or None."""
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        for key in list(expected) + [key for key in actual if key not in expected]:
            if key not in expected or key not in actual:
                return f"{path}.{key}", expected.get(key, "<missing>"), actual.get(key, "<missing>")
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (one, other) in enumerate(zip(expected, actual)):
            found = first_difference(one, other, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path} (length)", len(expected), len(actual)
        return None
    if expected != actual or type(expected) is not type(actual):
        return path, expected, actual
    return None


def first_different_event(expected: list[Any], actual: list[Any]) -> tuple[int, Any, Any]:
    """The index of the first event that differs, and both events ("<none>" past the end)."""
    for index in range(max(len(expected), len(actual))):
        one = expected[index] if index < len(expected) else "<none>"
        other = actual[index] if index < len(actual) else "<none>"
        if one != other:
            return index, one, other
    raise ValueError("the events are equal")


# -- the transcripts ------------------------------------------------------------------------


def test_the_transcripts_are_the_generators_playthroughs():
    """Every playthrough of regenerate.py has its file, and no stray transcript lies around."""
    folder = Path(__file__).with_name("playthroughs")
    stored = sorted(path.name for path in folder.glob("*.yaml"))
    expected = sorted(entry.file_name for entry in PLAYTHROUGHS)
    assert stored == expected, f"transcripts {stored}, but regenerate.py writes {expected}.\n{HOW_TO_REGENERATE}"
    assert {(entry.ruleset, entry.players) for entry in PLAYTHROUGHS} >= {("draft7", 3), ("draft7", 4), ("base", 4)}


@by_playthrough
def test_the_bundled_ruleset_is_the_one_the_transcript_was_played_with(entry):
    """A changed bundled ruleset (any value: its fingerprint) needs new transcripts, reviewed."""
    recorded = transcript(entry)["ruleset"]
    ruleset = bundled_game(entry.ruleset).ruleset
    assert recorded["name"] == ruleset.name == entry.ruleset
    if recorded["fingerprint"] != ruleset.fingerprint:
        pytest.fail(
            f"{entry.file_name}: ruleset {ruleset.name} changed: the transcript was played with "
            f"fingerprint {recorded['fingerprint'][:12]}, the bundled ruleset now has "
            f"{ruleset.fingerprint[:12]}.\nRuleset changed; regenerate and review the diff:\n"
            f"    {generator.REGENERATE}\n    git diff tests/playthroughs/",
            pytrace=False,
        )


@by_playthrough
def test_the_transcript_replays_exactly(entry):
    """Replaying the actions from the setup gives the same legal actions, events and score sheet."""
    data = transcript(entry)
    game = bundled_game(entry.ruleset)
    assert data["format"] == generator.FORMAT
    setup = jsonio.setup_from_json(data["setup"], game)
    assert data["seed"] == entry.seed and setup == game.deal(entry.players, entry.seed), "the deal changed"
    state = game.new_state(setup=setup)
    for number, decision in enumerate(data["decisions"]):
        where = f"decision {number} (round {decision['round']}, {decision['stage']}, seat {decision['player']})"
        assert decision["index"] == number, f"{entry.file_name}: decision {number} is numbered {decision['index']}"
        if game.is_over(state):
            differs(entry, where, decision["action"], "the game is over", "the game ended before this decision")
        now = {"round": state.round, "stage": state.stage, "player": game.current_player(state)}
        recorded = {key: decision[key] for key in now}
        if now != recorded:
            differs(entry, where, recorded, now, "the decision is asked at another point or of another seat")
        options = {generator.compact(jsonio.action_to_json(game, state, act)): act for act in game.legal_actions(state)}
        if set(options) != set(decision["legal"]):
            missing = [option for option in decision["legal"] if option not in options]
            extra = [option for option in options if option not in decision["legal"]]
            detail = f"legal actions no longer offered: {missing}; newly offered: {extra}"
            differs(entry, where, decision["legal"], list(options), detail)
        act = options.get(generator.compact(decision["action"]))
        if act is None or jsonio.action_to_json(game, state, act) != decision["action"]:
            differs(entry, where, decision["action"], list(options), "the recorded action is not legal now")
        state, events = game.apply(state, act)
        actual = [jsonio.event_to_json(event) for event in events]
        if actual != decision["events"]:
            index, expected_event, actual_event = first_different_event(decision["events"], actual)
            detail = f"event {index} after the action {generator.flow(decision['action'])} differs"
            differs(entry, where, expected_event, actual_event, detail)
    if not game.is_over(state):
        after = [generator.compact(jsonio.action_to_json(game, state, act)) for act in game.legal_actions(state)]
        differs(entry, f"after decision {len(data['decisions']) - 1}", "the game is over", after, "the game goes on")
    sheet = jsonio.score_sheet_to_json(game.score(state))
    found = first_difference(data["score_sheet"], sheet)
    if found is not None:
        path, expected_part, actual_part = found
        differs(entry, "the final score sheet", expected_part, actual_part, f"first difference at {path}")


#: What only the rules language's effect types, planet abilities and crew triggers make, which draft 7 has
#: none of: their worked examples (tests/test_effects.py, tests/test_ideas.py) and the ideas
#: playouts (tests/playouts.py) show them.
LANGUAGE_ONLY = frozenset({
    "cube_moved", "cube_returned", "free_cubes_collected", "vp_lost", "vp_taken", A.TARGET_SEAT,
    "ability_triggered",
    "crew_triggered",  # crew triggers: tests/test_crew_triggers.py
    "crew_closed", "cubes_protected", "skill_applied",  # the lasting effects: no draft-7 crew has them
    "free_cubes_taken",  # take_free_cubes (idea R8): tests/test_take_free_cubes.py
    "cubes_discarded",  # discard_cubes: tests/test_discard_cubes.py
    "start_player_set",  # set_start_player: tests/test_start_player.py
    "crew_replaced",  # rules.yaml's round_end.unpicked_crews.at_cap: replaced (draft 7: stays): tests/test_crew_replaced.py
})


def test_the_draft7_transcripts_show_every_event_and_action_kind():
    """Together the draft-7 games show every event key and every action kind draft 7's effects
    can make, so none goes untested."""
    keys: set[str] = set()
    kinds: set[str] = set()
    for entry in PLAYTHROUGHS:
        if entry.ruleset == "draft7":
            shown_keys, shown_kinds = generator.shown(transcript(entry))
            keys |= shown_keys
            kinds |= shown_kinds
    missing = sorted(set(EVENT_KEYS) - keys - LANGUAGE_ONLY) + sorted(set(A.KINDS) - kinds - LANGUAGE_ONLY)
    assert not missing, (
        f"the draft-7 transcripts no longer show {missing}: pick seeds that do "
        "(python tests/playthroughs/regenerate.py --find-seeds draft7 3) in PLAYTHROUGHS of "
        "tests/playthroughs/regenerate.py, regenerate and review"
    )


# -- the checker itself ---------------------------------------------------------------------


def test_first_difference_names_the_path_and_both_values():
    """The failure message's locator: the JSON path of the first difference, both values."""
    assert first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == ("$.a[1].b", 2, 3)
    assert first_difference([1, 2], [1, 2, 3]) == ("$ (length)", 2, 3)
    assert first_difference({"a": 1}, {"a": 1, "c": 0}) == ("$.c", "<missing>", 0)
    assert first_difference({"a": True}, {"a": 1}) == ("$.a", True, 1)
    assert first_difference({"a": [1]}, {"a": [1]}) is None


def test_a_changed_event_fails_with_the_decision_and_both_events(monkeypatch):
    """An edited transcript fails at the edited decision, showing the expected and actual event."""
    entry = PLAYTHROUGHS[0]
    data = generator.load(entry)
    decision = next(d for d in data["decisions"] if any(e["key"] == "cube_placed" for e in d["events"]))
    event = next(e for e in decision["events"] if e["key"] == "cube_placed")
    real = dict(event)
    event["square"] += 1
    monkeypatch.setattr(generator, "load", lambda _entry: data)
    transcript.cache_clear()
    try:
        with pytest.raises(pytest.fail.Exception) as caught:
            test_the_transcript_replays_exactly(entry)
    finally:
        transcript.cache_clear()
    message = str(caught.value)
    assert message.startswith(f"{entry.file_name}: decision {decision['index']} (round {decision['round']}, ")
    assert f"\n  expected: {generator.flow(event)}\n  actual:   {generator.flow(real)}\n" in message
    assert generator.REGENERATE in message


def test_first_different_event_pads_with_none():
    """A missing or extra event is shown against "<none>"."""
    assert first_different_event([{"key": "a"}], [{"key": "a"}, {"key": "b"}]) == (1, "<none>", {"key": "b"})
    assert first_different_event([{"key": "a"}], [{"key": "c"}]) == (0, {"key": "a"}, {"key": "c"})
