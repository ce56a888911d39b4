"""Every bound of the request schemas and of the library schemas they use (state, action,
setup), tried one step past it against the schema itself.

The table below says each bound as it should be. ``test_the_table_is_every_bound_of_the_schemas``
holds the schemas to it both ways, so a bound loosened in a schema (``stock`` allowed down to
-1,000,000, a field nothing else checks) or added without its entry fails; the
parametrized test then validates the value at the bound and one past it against the schema's
own node (its ``$ref`` resolved in its document): the first is taken, the second refused by that
very keyword. A bound spelt wrong (``maximun``) is no bound for jsonschema and no entry of the
walk, and fails too.
"""

from __future__ import annotations

import pytest

from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.formats import jsonio
from stargazer_rules.frontends.server import ENDPOINTS, request_schema

#: The keywords that bound a number, a string, a list or an object.
BOUND_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")

# The facts the bounds say, each once.
PLAYERS = {"minimum": 1, "maximum": 8}  # a ruleset seats 1 to 8 (rules.schema.json player_counts)
SEAT = {"minimum": 0, "maximum": 7}  # a seat index: players - 1 at most
COUNT = {"minimum": 0, "maximum": 1_000_000}  # cubes, VP, steps: far past any game
ID = {"maxLength": 64}  # a card, effect or ruleset id (its pattern bounds its first character)
SEED = {"minimum": 0, "maximum": MAX_SEED}  # engine.seeds

#: Schema -> JSON pointer of a node in it -> its bounds.
EXPECTED: dict[str, dict[str, dict[str, int]]] = {
    "state": {
        "/properties/players": PLAYERS,
        "/properties/round": {"minimum": 1, "maximum": 10_000},
        "/properties/start_player": SEAT,
        "/properties/turn": {"minimum": 0, "maximum": 8},  # turns completed: up to every seat's
        "/properties/current_player": SEAT,
        "/properties/planets": {"minItems": 1, "maxItems": 64},
        "/properties/crew": {"minItems": 1, "maxItems": 128},
        "/properties/seats": {"minItems": 1, "maxItems": 8},
        "/properties/stock": COUNT,
        "/properties/chosen": {"maxItems": 128},
        "/properties/chosen/items": ID,
        "/properties/crew_queue": {"maxItems": 200},  # R11's queue: every crew card (crew.schema.json)
        "/properties/crew_queue/items": ID,
        "/properties/pending": {"maxItems": 1000},
        "/properties/triggers": {"maxItems": 8},  # R10: rules.yaml end's at most 7 conditions, then round_limit
        "/properties/triggers/items": {"maxLength": 40},  # a trigger id of rules.yaml end
        "/properties/legal": {"maxItems": 20_000},
        "/$defs/crew/properties/id": ID,
        "/$defs/crew/properties/free_cubes": COUNT,
        "/$defs/crew/properties/cubes": {"maxItems": 10_000},
        "/$defs/crew/properties/cubes/items": SEAT,
        "/$defs/crew/properties/worker": SEAT,
        "/$defs/crew/properties/borrowed": ID,  # the crew whose skill it applies (use_skill)
        "/$defs/pending/properties/crew": ID,
        "/$defs/pending/properties/effect": ID,
        "/$defs/pending/properties/path": {"minItems": 1, "maxItems": 64},
        "/$defs/pending/properties/path/items": {"minimum": 0, "maximum": 1000},
        "/$defs/pending/properties/remaining": {"minimum": 1, "maximum": 1_000_000},
        "/$defs/pending/properties/seat": SEAT,
        "/$defs/pending/properties/skill_of": ID,  # the crew card whose skill resolves (use_skill)
        "/$defs/planet/properties/id": ID,
        "/$defs/planet/properties/track": {"maxItems": 1000},
        "/$defs/planet/properties/track/items": {"minimum": -1, "maximum": 7},  # -1: a free cube
        "/$defs/planet/properties/special": {"maxItems": 1000},
        "/$defs/planet/properties/special/items": SEAT,
        "/$defs/ruleset/properties/name": ID,
        "/$defs/ruleset/properties/fingerprint": {"minLength": 1, "maxLength": 128},
        "/$defs/seat/properties/hand": COUNT,
        "/$defs/seat/properties/vp": COUNT,
        "/$defs/seat/properties/removed": COUNT,
        "/$defs/seat/properties/taken": {"minimum": 1, "maximum": 1_000_000},  # written only when not 0 (idea R8)
        "/$defs/survey/properties/rules": {"maxItems": 5},  # R8's three lifted limits, a forced direction, a start
        "/$defs/survey/properties/bonus": {"minimum": -1_000_000, "maximum": 1_000_000},  # change_survey_count may lower
        "/$defs/survey/properties/placed": COUNT,
        "/$defs/survey/properties/skips/anyOf/0": COUNT,
        "/$defs/survey/properties/last/anyOf/0": ID,
        "/$defs/survey/properties/surveyed": {"maxItems": 64},
        "/$defs/survey/properties/surveyed/items": ID,
    },
    "action": {
        "/$defs/choose_option/properties/option": {"minimum": 0, "maximum": 1000},
        "/$defs/name_start_player/properties/seat": SEAT,
        "/$defs/target_seat/properties/seat": SEAT,
        "/$defs/pick_crew/properties/crew": ID,
        "/$defs/survey/properties/planet": ID,
        "/$defs/survey/properties/count": COUNT,
        "/$defs/survey/if/properties/count": {"minimum": 1},  # a survey from a Planet places a cube
        "/$defs/survey_step/properties/planet": ID,
        "/$defs/target_crew/properties/crew": ID,
        "/$defs/target_planet/properties/planet": ID,
    },
    "setup": {
        "/properties/players": PLAYERS,
        "/properties/planets": {"maxItems": 64},
        "/properties/planets/items": ID,
        "/properties/crew": {"maxItems": 128},
        "/properties/crew/items": ID,
        "/properties/start_player": SEAT,
        "/properties/queue": {"maxItems": 200},  # R11's queue: every crew card (crew.schema.json)
        "/properties/queue/items": ID,
    },
    "new.request": {
        "/properties/players": PLAYERS,
        "/properties/seed": SEED,
        "/properties/start_player": SEAT,
    },
    "legal.request": {},
    "apply.request": {},
    "bot.request": {"/properties/bot": {"minLength": 1, "maxLength": 200}, "/properties/seed": SEED},
    "score.request": {},
    "record.request": {"/properties/actions": {"maxItems": 100_000}, "/properties/seed": SEED},
}


def _document(name: str) -> dict:
    if name.endswith(".request"):
        return request_schema(name.removesuffix(".request"))
    return jsonio.schema(name)


def _bounds(node, pointer: str = "") -> dict[str, dict[str, int]]:
    """Every node of a schema document that has a bound keyword: pointer -> its bounds."""
    found = {}
    if isinstance(node, dict):
        bounds = {key: node[key] for key in BOUND_KEYWORDS if key in node}
        if bounds:
            found[pointer] = bounds
        for key, value in node.items():
            found |= _bounds(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found |= _bounds(value, f"{pointer}/{index}")
    return found


def _node(document: dict, pointer: str):
    node = document
    for part in pointer.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def test_the_table_covers_every_schema_the_server_checks():
    """Every request schema and every library schema they use has its entry."""
    assert set(EXPECTED) == {f"{endpoint}.request" for endpoint in ENDPOINTS} | {"state", "action", "setup"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_table_is_every_bound_of_the_schemas(name):
    """The schema's bounds are the table's, no more and no fewer."""
    assert _bounds(_document(name)) == EXPECTED[name]


def _cases():
    """(schema, pointer, keyword, value, taken): the value at each bound and one step past it."""
    for name, nodes in sorted(EXPECTED.items()):
        for pointer, bounds in nodes.items():
            for keyword, bound in bounds.items():
                if keyword in ("minimum", "minLength", "minItems"):
                    inside, outside = bound, bound - 1
                else:
                    inside, outside = bound, bound + 1
                if outside < 0 and not keyword.endswith("imum"):
                    continue  # no string or list is shorter than empty
                for size, taken in ((inside, True), (outside, False)):
                    if keyword.endswith("Length"):
                        value = "a" * size
                    elif keyword.endswith("Items"):
                        value = list(range(size))
                    else:
                        value = size
                    shown = value if isinstance(value, int) else f"{type(value).__name__} of {size}"
                    yield pytest.param(name, pointer, keyword, value, taken, id=f"{name}{pointer}:{keyword}={shown}")


@pytest.mark.parametrize(("name", "pointer", "keyword", "value", "taken"), list(_cases()))
def test_each_bound_takes_its_value_and_refuses_one_past_it(name, pointer, keyword, value, taken):
    """Validated against the node itself, within its document (its references resolved there):
    the bound's own keyword refuses the value one past it, and not the value at it."""
    document = _document(name)
    node = _node(document, pointer)
    if keyword.endswith("Items"):
        # The list's own size is the bound: its items' schemas (100,000 actions) are not the test's.
        node = {key: value for key, value in node.items() if key not in ("items", "prefixItems", "contains", "uniqueItems")}
    validator = jsonio.StrictValidator(document, registry=jsonio.schema_registry()).evolve(schema=node)
    refused_by_bound = [error for error in validator.iter_errors(value) if error.validator == keyword and not error.absolute_path]
    assert bool(refused_by_bound) is not taken, (value, [error.message for error in refused_by_bound])


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        (("stock",), -1, "$.stock: -1 is less than the minimum of 0"),
        (("seats", 0, "hand"), -1, "$.seats[0].hand: -1 is less than the minimum of 0"),
        (("seats", 0, "vp"), 1_000_001, "$.seats[0].vp: 1000001 is over the maximum of 1000000"),
        (("crew", 0, "free_cubes"), -1, "$.crew[0].free_cubes: -1 is less than the minimum of 0"),
        (("survey", "bonus"), -1_000_001, "$.survey.bonus: -1000001 is less than the minimum of -1000000"),
        (("round",), 0, "$.round: 0 is less than the minimum of 1"),
    ],
)
def test_a_whole_state_with_one_count_past_its_bound_is_refused_by_the_schema(path, value, problem):
    """The same through a whole state document: the schema alone refuses the field (the state
    reader's conservation check would hide a loosened stock bound, not a loosened hand)."""
    from stargazer_rules import Game, load_ruleset

    game = Game(load_ruleset("draft7"))
    state = jsonio.state_to_json(game, game.new_state(players=3, seed=1))
    assert jsonio.schema_problems("state", state) == []
    target = state
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert problem in [line.replace(" (minimum)", "").replace(" (maximum)", "") for line in jsonio.schema_problems("state", state)]
