"""The JSON forms: round trips at every step of seeded random games, schema validity, and the
refusal of malformed or tampered documents with messages that say what is wrong and where."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from stargazer_rules.engine.game import Setup
from stargazer_rules.errors import RecordError
from stargazer_rules.formats import jsonio
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.effects import COUNTER, DIRECTION, EFFECT_TYPES, REPEAT, SKIP, START, SURVEY_RULE_FLAGS
from stargazer_rules.vocabulary.events import EVENT_KEYS, Event
from stargazer_rules.vocabulary.table import State
from playouts import CONFIGS, SEEDS, game, playout, playouts

#: A hand-made deal of draft 7 for three players, so that the examples name known cards.
SETUP = Setup(
    3,
    ("lava-1", "ocean-2", "gas-3", "primordial-1", "dark"),
    ("navigator", "geologist", "quartermaster", "linguist"),
    0,
)

#: Seat 0 surveys three cubes from lava-1; seat 1 picks the quartermaster, whose place_on_crew
#: then asks for a crew.
SCRIPT = [
    {"type": "pick_crew", "crew": "navigator"},
    {"type": "survey", "planet": "lava-1", "count": 3, "direction": "clockwise"},
    {"type": "pick_crew", "crew": "quartermaster"},
]


def scripted(steps: int = len(SCRIPT)) -> State:
    """The draft-7 state after the first ``steps`` actions of ``SCRIPT``."""
    the_game = game("draft7")
    state = the_game.new_state(setup=SETUP)
    for data in SCRIPT[:steps]:
        state = the_game.step(state, jsonio.action_from_json(the_game, state, data))
    return state


def through_json(data: Any) -> Any:
    """``data`` after a trip through JSON text; equal to ``data`` only if it is plain JSON."""
    return json.loads(json.dumps(data))


def rejection(kind_reader, *args: Any) -> str:
    with pytest.raises(RecordError) as caught:
        kind_reader(*args)
    return str(caught.value)


def assert_valid(kind: str, data: Any) -> None:
    assert jsonio.schema_problems(kind, data) == [], kind


# -- round trips ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_state_round_trips_at_every_step(ruleset: str, players: int) -> None:
    """Every state of seeded random games survives JSON text and validates against its schema."""
    the_game = game(ruleset)
    for played in playouts(ruleset, players):
        for state in played.states:
            data = jsonio.state_to_json(the_game, state)
            assert through_json(data) == data
            assert_valid("state", data)
            assert jsonio.state_from_json(the_game, through_json(data)) == state


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_every_legal_action_round_trips(ruleset: str, players: int) -> None:
    """Each legal action of each state of a game reads back as the same action."""
    the_game = game(ruleset)
    played = playout(ruleset, players, SEEDS[0])
    for state in played.states:
        for act in state.legal:
            data = through_json(jsonio.action_to_json(the_game, state, act))
            assert jsonio.action_from_json(the_game, state, data) == act


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_events_round_trip_and_validate(ruleset: str, players: int) -> None:
    """Every event of the games is plain JSON, valid against its schema, and reads back equal."""
    for played in playouts(ruleset, players):
        for events in played.events:
            for event in events:
                data = jsonio.event_to_json(event)
                assert through_json(data) == data
                assert_valid("event", data)
                assert jsonio.event_from_json(through_json(data)) == event


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_score_sheets_round_trip_and_validate(ruleset: str, players: int) -> None:
    """Provisional sheets every few steps and the final sheet are valid and read back equal."""
    the_game = game(ruleset)
    for played in playouts(ruleset, players):
        for state in played.states[::7] + played.states[-1:]:
            sheet = the_game.score(state)
            data = jsonio.score_sheet_to_json(sheet)
            assert through_json(data) == data
            assert_valid("score_sheet", data)
            assert jsonio.score_sheet_from_json(through_json(data)) == sheet


def test_score_sheet_whose_seat_line_disagrees_with_the_planets_is_refused() -> None:
    """A seat's per-Planet line is derived from the standings; a document that differs is refused."""
    played = next(iter(playouts("draft7", 3)))
    data = jsonio.score_sheet_to_json(game("draft7").score(played.states[-1]))
    seat = next(s for s in data["seats"] if s["planets"])
    assert sum(line["vp"] for line in seat["planets"]) == seat["majority_vp"]
    seat["planets"][0]["vp"] += 1
    with pytest.raises(RecordError) as caught:
        jsonio.score_sheet_from_json(data)
    assert f"$.seats[{seat['seat']}].planets: disagrees with the Planets' standings" in str(caught.value)


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_setups_round_trip_and_validate(ruleset: str, players: int) -> None:
    """A dealt setup reads back equal, and is checked against the ruleset when a game is given."""
    the_game = game(ruleset)
    for played in playouts(ruleset, players):
        data = jsonio.setup_to_json(played.setup)
        assert through_json(data) == data
        assert_valid("setup", data)
        assert jsonio.setup_from_json(through_json(data), the_game) == played.setup


def test_playouts_reach_every_action_kind_and_stage() -> None:
    """The round trips are not vacuous: the games use every action kind and reach every stage."""
    kinds = set()
    stages = set()
    for ruleset, players in CONFIGS:
        for played in playouts(ruleset, players):
            kinds |= {act.kind for act in played.actions}
            stages |= {state.stage for state in played.states}
    assert kinds == set(A.KINDS)
    assert stages == {"pick_crew", "before_survey", "survey", "after_survey", "round_end", "over", "setup"}  # setup: ideas R6


# -- the documented forms -------------------------------------------------------------------


def test_survey_rules_are_named_by_the_effect_classes_that_set_them() -> None:
    """A state names each lifted survey limit by the effect whose class carries its flag (R8):
    the schema's names are exactly those, and each playout's flags read back as they were."""
    enum = jsonio.schema("state")["$defs"]["survey"]["properties"]["rules"]["items"]["enum"]
    # A forced counter-clockwise walk is named by its direction (set_survey_direction sets it).
    flags = {name: COUNTER if name == "counter_clockwise" else EFFECT_TYPES[name].flag for name in enum}
    assert flags == {
        "allow_repeat_planet": REPEAT, "may_skip_planets": SKIP, "choose_direction": DIRECTION,
        "counter_clockwise": COUNTER, "survey_start": START,
    }
    assert dict(SURVEY_RULE_FLAGS) == flags and list(SURVEY_RULE_FLAGS) == enum
    the_game = game("draft7")
    seen = set()
    for played in playouts("draft7", 3):
        for state in played.states:
            if state.survey_rules:
                data = jsonio.state_to_json(the_game, state)
                assert data["survey"]["rules"] == [name for name, flag in flags.items() if state.survey_rules & flag]
                assert jsonio.state_from_json(the_game, json.loads(json.dumps(data))) == state
                seen.add(state.survey_rules)
    assert seen == {REPEAT, SKIP}


def test_action_forms_name_cards_by_id() -> None:
    """Actions name crews and Planets by card id, seats by number, directions by word."""
    the_game = game("draft7")
    start = scripted(0)
    assert [jsonio.action_to_json(the_game, start, act) for act in start.legal] == [
        {"type": "pick_crew", "crew": "armstrong"},
        {"type": "pick_crew", "crew": "navigator"},
        {"type": "pick_crew", "crew": "geologist"},
        {"type": "pick_crew", "crew": "quartermaster"},
        {"type": "pick_crew", "crew": "linguist"},
    ]
    survey = scripted(1)
    forms = [jsonio.action_to_json(the_game, survey, act) for act in survey.legal]
    assert forms[0] == {"type": "survey", "count": 0}
    assert {
        "type": "survey",
        "planet": "dark",
        "count": 3,
        "direction": "counter_clockwise",
    } in forms
    examples = [
        (A.action(A.SURVEY_STEP, 2), {"type": "survey_step", "planet": "gas-3"}),
        (A.action(A.SURVEY_STOP), {"type": "survey_stop"}),
        (A.action(A.TARGET_PLANET, 4), {"type": "target_planet", "planet": "dark"}),
        (A.action(A.TARGET_CREW, 0), {"type": "target_crew", "crew": "armstrong"}),
        (A.action(A.CHOOSE_OPTION, 1), {"type": "choose_option", "option": 1}),
        (A.action(A.NAME_START_PLAYER, 2), {"type": "name_start_player", "seat": 2}),
    ]
    for act, data in examples:
        assert jsonio.action_to_json(the_game, survey, act) == data
        assert_valid("action", data)
        assert jsonio.action_from_json(the_game, survey, data) == act


def test_state_form_of_a_skill_decision() -> None:
    """The quartermaster's place_on_crew waits for seat 1: pending, board and supplies by id."""
    the_game = game("draft7")
    data = jsonio.state_to_json(the_game, scripted())
    assert data["stage"] == "before_survey"
    assert data["current_player"] == 1
    assert data["planets"][:3] == [
        {"id": "lava-1", "track": [0], "special": []},
        {"id": "ocean-2", "track": [0], "special": []},
        {"id": "gas-3", "track": [0], "special": []},
    ]
    assert data["crew"][1] == {"id": "navigator", "free_cubes": 0, "cubes": [], "worker": 0}
    assert data["crew"][0]["worker"] is None
    assert data["seats"] == [
        {"hand": 9, "vp": 0, "removed": 0},
        {"hand": 12, "vp": 2, "removed": 0},
        {"hand": 12, "vp": 0, "removed": 0},
    ]
    assert data["chosen"] == ["navigator", "quartermaster"]
    assert data["pending"] == [
        {"crew": "quartermaster", "effect": "place_on_crew", "path": [1], "remaining": 1, "seat": 1}
    ]
    assert data["legal"] == [
        {"type": "target_crew", "crew": "armstrong"},
        {"type": "target_crew", "crew": "navigator"},
        {"type": "target_crew", "crew": "geologist"},
        {"type": "target_crew", "crew": "linguist"},
    ]
    assert data["ruleset"] == {"name": "draft7", "fingerprint": the_game.ruleset.fingerprint}


# -- tampered states ------------------------------------------------------------------------


def tampered(edit) -> str:
    """The message refusing the scripted state's document after ``edit`` changed it."""
    the_game = game("draft7")
    data = copy.deepcopy(jsonio.state_to_json(the_game, scripted()))
    edit(data)
    return rejection(jsonio.state_from_json, the_game, data)


def test_state_with_a_changed_hand_is_refused() -> None:
    """One more cube in a hand breaks the conservation of that seat's cubes."""

    def edit(data):
        data["seats"][0]["hand"] += 1

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.seats[0]: seat 0 has 13 cubes (hand 10 + on the board 3 + removed 0), but each "
        "player has 12"
    )


def test_state_with_a_lost_free_cube_is_refused() -> None:
    """A free cube missing from the stock breaks the conservation of free cubes."""

    def edit(data):
        data["stock"] -= 1

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.stock: 11 free cubes (stock 11 + on tracks 0 + on crew 0), but the game has 12"
    )


def test_state_with_an_unknown_planet_is_refused() -> None:
    """A planet id the ruleset does not have is named with its path."""

    def edit(data):
        data["planets"][3]["id"] = "pluto"

    assert (
        tampered(edit)
        == "1 problem in the state document:\n  $.planets[3].id: unknown planet 'pluto' in "
           "ruleset draft7"
    )


def test_state_with_a_track_longer_than_its_planet_is_refused() -> None:
    """Seven cubes on a six-square track are refused even when the cube count adds up."""

    def edit(data):
        data["planets"][0]["track"] = [0] * 7
        data["seats"][0]["hand"] -= 6

    assert tampered(edit) == (
        "1 problem in the state document:\n  $.planets[0].track: 7 cubes on planet 'lava-1', "
        "whose track has 6 squares"
    )


def test_state_with_a_malformed_value_is_refused_with_its_schema_path() -> None:
    """Schema errors come first, each at its JSON path, all of them."""

    def edit(data):
        data["seats"][2]["hand"] = "twelve"
        data["crew"][0]["worker"] = -1
        data["colour"] = "red"

    assert tampered(edit) == (
        "3 problems in the state document:\n"
        "  $: unexpected property 'colour' (expected: chosen, crew, crew_queue, current_player, legal, "
        "pending, planets, "
        "players, round, ruleset, seats, stage, start_player, stock, survey, triggers, turn)\n"
        "  $.crew[0].worker: -1 is less than the minimum of 0\n"
        "  $.seats[2].hand: 'twelve' is not of type 'integer'"
    )


def test_state_of_another_ruleset_is_refused() -> None:
    """A state document names its ruleset's fingerprint; another ruleset refuses it."""
    the_game = game("draft7")
    data = jsonio.state_to_json(the_game, scripted())
    base = game("base")
    assert rejection(jsonio.state_from_json, base, data) == (
        "this state was made with ruleset draft7 (fingerprint "
        f"{the_game.ruleset.fingerprint[:12]}), "
        f"but the loaded ruleset is base (fingerprint {base.ruleset.fingerprint[:12]})"
    )


def test_state_whose_ruleset_name_disagrees_with_its_fingerprint_is_refused() -> None:
    """The fingerprint covers the name, so a document naming another ruleset has been edited."""

    def edit(data):
        data["ruleset"]["name"] = "draft8"

    assert tampered(edit) == (
        "this state names ruleset draft8, but its fingerprint "
        f"{game('draft7').ruleset.fingerprint[:12]} "
        "is that of ruleset draft7"
    )


def test_state_with_a_forged_legal_list_is_refused() -> None:
    """The legal actions are recomputed; a document offering another one is refused."""

    def edit(data):
        data["legal"][3] = {"type": "target_crew", "crew": "quartermaster"}

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        '  $.legal: disagrees with the rules at [3]: the document has '
        '{"crew": "quartermaster", "type": "target_crew"}, '
        'the rules give {"crew": "linguist", "type": "target_crew"}'
    )


def test_state_with_a_missing_legal_action_is_refused() -> None:
    """A legal list cut short is refused too."""

    def edit(data):
        del data["legal"][-1]

    assert (
        tampered(edit)
        == "1 problem in the state document:\n  $.legal: lists 3 actions, but the rules give 4"
    )

    def keep_one(data):
        del data["legal"][1:]

    assert tampered(keep_one) == "1 problem in the state document:\n  $.legal: lists 1 action, but the rules give 4"


def test_state_with_a_wrong_current_player_is_refused() -> None:
    """current_player is derived; a document that disagrees is refused."""

    def edit(data):
        data["current_player"] = 2

    assert (
        tampered(edit)
        == "1 problem in the state document:\n  $.current_player: is 2, but the rules make it 1"
    )


def test_state_with_a_broken_pending_effect_is_refused() -> None:
    """A pending effect must name an effect of its crew's skill, with its name and step count."""

    def edit(data):
        data["pending"].append(
            {"crew": "linguist", "effect": "gain_vp", "path": [0, 0, 0], "remaining": 2, "seat": 3}
        )
        data["pending"].append(
            {
                "crew": "geologist",
                "effect": "place_on_special",
                "path": [4],
                "remaining": 1,
                "seat": 0,
            }
        )

    assert tampered(edit) == (
        "3 problems in the state document:\n"
        "  $.pending[1].remaining: 2 steps left of 'gain_vp', which has 1\n"
        "  $.pending[1].seat: 3 is not a seat (seats are 0..2)\n"
        "  $.pending[2].path: [4] is not the path of an effect in the skill of crew 'geologist'"
    )


def test_state_waiting_on_an_effect_without_choice_is_refused() -> None:
    """The engine resolves effects that need no decision at once; no state waits on one."""

    def edit(data):
        data["pending"][0].update(effect="gain_vp", path=[0])

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.pending[0]: the first pending effect needs no decision, so no state waits on it"
    )


def test_state_with_a_renamed_pending_effect_is_refused() -> None:
    """The effect name of a pending effect is derived from its path and checked."""

    def edit(data):
        data["pending"][0]["effect"] = "gain_vp"

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.pending[0].effect: is 'gain_vp', but the effect at [1] of crew 'quartermaster' is "
        "'place_on_crew'"
    )


def test_state_with_cubes_of_an_unknown_seat_is_refused() -> None:
    """Owners on tracks are seats or -1 (a free cube); anything else is named (and the cube count,
    meaningless then, is not checked)."""

    def edit(data):
        data["planets"][1]["track"] = [5]

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.planets[1].track[0]: 5 is not an owner: -1 (free cube) or a seat (seats are 0..2)"
    )


def test_state_with_a_crew_area_out_of_order_is_refused() -> None:
    """The always-in-play crew lead the crew area, as new_state lays it out."""

    def edit(data):
        data["crew"][0], data["crew"][1] = data["crew"][1], data["crew"][0]

    assert tampered(edit) == (
        "1 problem in the state document:\n"
        "  $.crew: the crew area must start with the always-in-play crew (armstrong), and only them"
    )


_ODD_VALUES = [
    0,
    1,
    -1,
    -2,
    99,
    1.0,
    True,
    None,
    "",
    "lava-1",
    "armstrong",
    "x",
    [],
    {},
    [0],
    "clockwise",
    "over",
]


def _mutated(data: Any, rng: random.Random) -> Any:
    """``data`` with one random place changed: a number moved by one, an item dropped or repeated,
    or a value replaced by an odd one."""
    data = copy.deepcopy(data)
    places = list(_places(data))
    parent, key, value = rng.choice(places)
    roll = rng.random()
    if roll < 0.5 and type(value) is int:
        parent[key] = value + rng.choice((-1, 1))
    elif roll < 0.6 and isinstance(parent, list):
        del parent[key]
    elif roll < 0.7 and isinstance(parent, list):
        parent.append(copy.deepcopy(value))
    else:
        parent[key] = rng.choice(_ODD_VALUES)
    return data


def _places(data: Any) -> Iterator[tuple[Any, Any, Any]]:
    items = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, value in items:
        yield data, key, value
        yield from _places(value)


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_mutated_states_are_refused_or_read_consistently(ruleset: str, players: int) -> None:
    """A randomly changed document is refused with RecordError, or read as a state whose own JSON
    is that document: never another exception, never a silent repair."""
    the_game = game(ruleset)
    rng = random.Random(f"{ruleset}-{players}")
    states = playout(ruleset, players, SEEDS[0]).states
    refused = 0
    for state in states[:: max(1, len(states) // 10)]:
        original = jsonio.state_to_json(the_game, state)
        for _ in range(10):
            data = _mutated(original, rng)
            try:
                read = jsonio.state_from_json(the_game, data)
            except RecordError:
                refused += 1
            else:
                assert jsonio.state_to_json(the_game, read) == data
    assert refused > 50


def test_state_naming_cards_it_does_not_hold_is_refused_at_each_path() -> None:
    """A chosen or pending crew outside the crew area and a survey Planet outside the ring are
    each refused at their path, in the words an action naming them gets."""
    the_game = game("draft7")
    data = jsonio.state_to_json(the_game, scripted(1))
    data["chosen"] = ["pilot"]
    data["pending"] = [{"crew": "pilot", "effect": "gain_vp", "path": [0], "remaining": 1, "seat": 0}]
    not_in_area = "crew 'pilot' is not in the crew area (armstrong, navigator, geologist, quartermaster, linguist)"
    not_in_ring = "planet 'pluto' is not in the ring (lava-1, ocean-2, gas-3, primordial-1, dark)"
    data["survey"]["last"] = "pluto"
    assert rejection(jsonio.state_from_json, the_game, data) == (
        "3 problems in the state document:\n"
        f"  $.chosen[0]: {not_in_area}\n"
        f"  $.pending[0].crew: {not_in_area}\n"
        f"  $.survey.last: {not_in_ring}"
    )
    data["survey"]["last"] = None
    data["survey"]["surveyed"] = ["lava-1", "pluto"]
    message = rejection(jsonio.state_from_json, the_game, data)
    assert message.endswith(f"\n  $.survey.surveyed[1]: {not_in_ring}")


# -- other documents ------------------------------------------------------------------------


def test_action_naming_a_crew_not_in_play_is_refused() -> None:
    """A crew of the ruleset that was not dealt is not in the crew area."""
    the_game = game("draft7")
    message = rejection(
        jsonio.action_from_json, the_game, scripted(0), {"type": "pick_crew", "crew": "pilot"}
    )
    assert message == (
        "1 problem in the action:\n"
        "  $.crew: crew 'pilot' is not in the crew area (armstrong, navigator, geologist, "
        "quartermaster, linguist)"
    )


def test_malformed_actions_are_refused() -> None:
    """A survey that places cubes needs its start and direction; seats stay within the table."""
    the_game = game("draft7")
    state = scripted(1)
    assert rejection(jsonio.action_from_json, the_game, state, {"type": "survey", "count": 2}) == (
        "2 problems in the action:\n  $: 'direction' is a required property\n  $: 'planet' is a "
        "required property"
    )
    assert rejection(
        jsonio.action_from_json, the_game, state, {"type": "name_start_player", "seat": 3}
    ) == ("1 problem in the action:\n  $.seat: seat 3 is not a seat of 0..2")
    assert rejection(jsonio.action_from_json, the_game, state, {"type": "fly"}).startswith(
        "1 problem in the action:\n  $.type: 'fly' is not one of ["
    )


def test_events_with_unknown_keys_or_missing_parameters_are_refused() -> None:
    """Only the engine's event keys, each with exactly its parameters."""
    assert rejection(jsonio.event_from_json, {"key": "crew_chosen", "player": 0}) == (
        "1 problem in the event:\n  $: 'crew' is a required property"
    )
    assert rejection(jsonio.event_from_json, {"key": "game_won"}).startswith(
        "1 problem in the event:\n  $.key: 'game_won'"
    )


def test_setup_with_unknown_cards_is_refused_under_a_game() -> None:
    """setup_from_json checks ids against the ruleset only when given a game."""
    data = jsonio.setup_to_json(SETUP)
    data["planets"][0] = "pluto"
    assert jsonio.setup_from_json(data).planets[0] == "pluto"
    assert (
        rejection(jsonio.setup_from_json, data, game("draft7"))
        == "invalid setup: unknown planet 'pluto'"
    )


# -- the schemas ----------------------------------------------------------------------------


def _walk(schema: Any, where: str = "#") -> Iterator[tuple[str, dict]]:
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _walk(item, f"{where}/{index}")


@pytest.mark.parametrize("kind", jsonio.SCHEMA_KINDS)
def test_schema_is_valid_2020_12_and_describes_every_property(kind: str) -> None:
    """Each schema is valid 2020-12 with its file's $id and a description on every property."""
    path = schemas_dir() / f"{kind}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:stargazer-rules:schemas:{kind}.schema.json"
    assert schema["description"]
    undocumented = [
        f"{where}/properties/{name}"
        for where, sub in _walk(schema)
        for name, prop in sub.get("properties", {}).items()
        if isinstance(sub.get("properties"), dict) and not prop.get("description")
    ]
    assert undocumented == []


def test_event_schema_lists_every_event_key_with_its_parameters() -> None:
    """The event schema and the engine's EVENT_KEYS name the same keys and parameters."""
    definitions = jsonio.schema("event")["$defs"]
    assert {
        key: tuple(sorted(set(d["properties"]) - {"key"})) for key, d in definitions.items()
    } == {key: tuple(sorted(params)) for key, params in EVENT_KEYS.items()}


def test_action_schema_lists_every_action_kind() -> None:
    """The action schema's types are exactly the engine's action kinds."""
    assert tuple(jsonio.schema("action")["properties"]["type"]["enum"]) == A.KINDS


def test_event_from_json_builds_events_equal_to_the_engine_s() -> None:
    """A round-ended event read back equals the engine's."""
    assert jsonio.event_from_json({"key": "round_ended", "round": 2}) == Event(
        "round_ended", {"round": 2}
    )
