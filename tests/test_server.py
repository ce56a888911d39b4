"""``stargazer serve``'s JSON API, through Starlette's TestClient: every endpoint and bad requests.

Each answer is checked against the library itself: a position is what ``Game``, ``jsonio`` and
``text`` give for the same state, a bot's move is what ``make_bot`` chooses, a record replays.
Refusals are 4xx with the reason, never a 500: a seeded fuzzer tampers with real states.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from starlette.testclient import TestClient

from stargazer_rules import Game, load_ruleset
from stargazer_rules.bots import make_bot
from stargazer_rules.formats import jsonio
from stargazer_rules.formats import records
from stargazer_rules.formats.signing import StateSigner
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.server import ENDPOINTS, MAX_BODY_BYTES, create_app, request_schema
from stargazer_rules.frontends.server.service import PAGE_MESSAGES_PATH
from stargazer_rules.rulesets.loader import ruleset_to_data
from stargazer_rules.text import reports, tables
from stargazer_rules.text import messages
from stargazer_rules.vocabulary.events import EVENT_KEYS, Event

SIGNER = StateSigner("test secret")
STATIC = Path(__file__).parent.parent / "stargazer_rules" / "frontends" / "server" / "static"
SETUP = {
    "players": 3,
    "planets": ["lava-1", "ocean-2", "gas-3", "primordial-1", "dark"],
    "crew": ["navigator", "geologist", "quartermaster", "linguist"],
    "start_player": 0,
}


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("draft7")


@pytest.fixture(scope="module")
def game(ruleset):
    return Game(ruleset)


@pytest.fixture(scope="module")
def client(ruleset):
    with TestClient(create_app(ruleset, signer=SIGNER), raise_server_exceptions=False) as test_client:
        yield test_client


def post(client: TestClient, endpoint: str, body: Any) -> Any:
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def refused(client: TestClient, endpoint: str, body: Any, status: int = 422) -> dict[str, Any]:
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code == status, response.text
    return response.json()


def both(render) -> dict[str, str]:
    return {"ja": render("ja"), "en": render("en")}


def expected_position(game, state) -> dict[str, Any]:
    """What a position response holds for ``state``, computed by the library."""
    sheet = game.score(state)
    data = jsonio.state_to_json(game, state)
    return {
        "state": data,
        "signature": SIGNER.sign(data),
        "current_player": game.current_player(state),
        "over": game.is_over(state),
        "legal": [
            {
                "action": jsonio.action_to_json(game, state, act),
                "text": both(lambda lang, act=act: messages.describe_action(game, state, act, lang)),
            }
            for act in state.legal
        ],
        "score": {
            "sheet": jsonio.score_sheet_to_json(sheet),
            "winner": both(lambda lang: reports.winner_line(sheet, lang)),
            "title": both(lambda lang: tables.score_title(sheet, lang)),
            "table": both(lambda lang: tables.score_table(game, sheet, lang).to_json()),
        },
    }


def played_states(client: TestClient, players: int = 4, seed: int = 3) -> list[dict[str, Any]]:
    """Every state JSON of one game played by random bots through the API."""
    return [position["state"] for position in played_positions(client, players, seed)]


def played_positions(client: TestClient, players: int = 4, seed: int = 3) -> list[dict[str, Any]]:
    """Every position of one game played by random bots through the API, each state sent back signed."""
    position = post(client, "new", {"players": players, "seed": seed})
    positions = [position]
    while not position["over"]:
        body = {"state": position["state"], "signature": position["signature"], "bot": "random", "seed": len(positions)}
        position = post(client, "bot", body)
        positions.append(position)
    return positions


def signed(position: dict[str, Any]) -> dict[str, Any]:
    """The state and signature of a position, as a front end sends them back."""
    return {"state": position["state"], "signature": position["signature"]}


# -- new ------------------------------------------------------------------------------------


def test_new_game_from_players_and_seed_is_the_librarys_deal(client, game):
    """POST /api/new with players and a seed deals as Game.deal and answers the first position."""
    answer = post(client, "new", {"players": 4, "seed": 7})
    setup = game.deal(4, seed=7)
    assert answer == {
        "setup": jsonio.setup_to_json(setup),
        "seed": 7,
        **expected_position(game, game.new_state(setup=setup)),
        "events": [],
    }
    assert answer["legal"][0]["text"] == {"ja": "アームストロング船長を選ぶ", "en": "Pick Captain Armstrong"}


def test_new_game_without_a_seed_draws_one_and_returns_it(client, game):
    """A new game with no seed is dealt from a seed the server draws and reports, so it can be replayed."""
    answer = post(client, "new", {"players": 3})
    assert isinstance(answer["seed"], int)
    assert answer["setup"] == jsonio.setup_to_json(game.deal(3, seed=answer["seed"]))


def test_new_game_from_an_explicit_setup(client, game):
    """An explicit setup is played as given; its answer has no seed."""
    answer = post(client, "new", {"setup": SETUP})
    assert answer["seed"] is None
    assert answer["setup"] == SETUP
    assert answer["state"] == jsonio.state_to_json(game, game.new_state(setup=jsonio.setup_from_json(SETUP)))


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        ({}, "invalid_request", "a new game needs players (and a seed) or an explicit setup"),
        (
            {"setup": SETUP, "players": 3},
            "invalid_request",
            "give either an explicit setup or players (with seed, start_player), not both: "
            "the body has setup and players",
        ),
        (
            {"players": 5, "seed": 1},
            "invalid_setup",
            "5 players are not supported by this ruleset (supported: 3, 4)",
        ),
        (
            {"players": 3, "seed": 1, "start_player": 3},
            "invalid_setup",
            "invalid setup: start player 3 is not a seat of 0..2",
        ),
        (
            {"setup": {**SETUP, "planets": ["pluto", *SETUP["planets"][1:]]}},
            "invalid_setup",
            "invalid setup: unknown planet 'pluto'",
        ),
        (
            {"players": "four"},
            "invalid_request",
            "1 problem in the request body of /api/new:\n  $.players: 'four' is not of type 'integer'",
        ),
        (
            {"players": 4, "colour": "red"},
            "invalid_request",
            "1 problem in the request body of /api/new:\n  $: unexpected property 'colour' "
            "(expected: players, seed, setup, start_player)",
        ),
    ],
)
def test_new_game_refusals_say_why(client, body, error, message):
    """A new game that cannot be dealt is a 422 naming the problem."""
    answer = refused(client, "new", body)
    assert answer["error"] == error
    assert answer["message"].startswith(message), answer["message"]


# -- legal, apply, bot, score ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_legal_describes_every_action_in_the_language(client, game, lang):
    """POST /api/legal lists the state's legal actions with messages.describe_action in the language asked."""
    state = game.new_state(setup=jsonio.setup_from_json(SETUP))
    state = game.step(state, state.legal[1])  # navigator: the survey decision
    answer = post(client, "legal", {"state": jsonio.state_to_json(game, state), "lang": lang})
    assert answer == {
        "current_player": 0,
        "stage": "survey",
        "actions": [
            {
                "action": jsonio.action_to_json(game, state, act),
                "description": messages.describe_action(game, state, act, lang),
            }
            for act in state.legal
        ],
    }


def test_legal_defaults_to_english(client, game):
    """Without lang the descriptions are in English."""
    state = game.new_state(setup=jsonio.setup_from_json(SETUP))
    answer = post(client, "legal", {"state": jsonio.state_to_json(game, state)})
    assert answer["actions"][1] == {"action": {"type": "pick_crew", "crew": "navigator"}, "description": "Pick Navigator"}


def test_apply_answers_the_next_position_and_the_events_in_both_languages(client, game, ruleset):
    """POST /api/apply plays the action as Game.apply and renders every event in ja and en."""
    state = game.new_state(setup=jsonio.setup_from_json(SETUP))
    state = game.step(state, state.legal[1])
    action = {"type": "survey", "planet": "lava-1", "count": 3, "direction": "clockwise"}
    answer = post(client, "apply", {"state": jsonio.state_to_json(game, state), "action": action})
    following, events = game.apply(state, jsonio.action_from_json(game, state, action))
    assert answer == {
        **expected_position(game, following),
        "events": [
            {"event": event.to_json(), "text": both(lambda lang, e=event: messages.render_event(e, ruleset, lang))}
            for event in events
        ],
    }
    assert answer["events"][0] == {
        "event": {"key": "cube_placed", "owner": 0, "planet": "lava-1", "square": 1},
        "text": {"ja": "プレイヤー1が溶岩惑星１のマス1にキューブを置く。", "en": "Player 1 places a cube on Lava 1, square 1."},
    }


def test_apply_refuses_an_action_that_is_not_legal(client, game):
    """An action naming a crew in the area but not legal now is a 422 with IllegalActionError's reason."""
    state = game.new_state(setup=jsonio.setup_from_json(SETUP))
    state = game.step(state, state.legal[1])  # navigator chosen: now a survey
    answer = refused(
        client, "apply", {"state": jsonio.state_to_json(game, state), "action": {"type": "pick_crew", "crew": "linguist"}}
    )
    assert answer == {
        "error": "illegal_action",
        "message": "the state waits for survey, not pick_crew (stage survey)",
        "at": "$.action",
    }


def test_apply_refuses_an_action_naming_a_crew_outside_the_area(client, game):
    """An action with an id the state does not hold is a 422 with jsonio's RecordError text."""
    state = game.new_state(setup=jsonio.setup_from_json(SETUP))
    answer = refused(
        client, "apply", {"state": jsonio.state_to_json(game, state), "action": {"type": "pick_crew", "crew": "pilot"}}
    )
    assert answer == {
        "error": "invalid_action",
        "message": "1 problem in the action:\n  $.action.crew: crew 'pilot' is not in the crew area "
        "(armstrong, navigator, geologist, quartermaster, linguist)",
        "at": "$.action",
    }


def test_a_finished_game_takes_no_more_moves(client):
    """apply and bot on a state whose game is over are 422 game_over."""
    final = played_positions(client, players=3, seed=5)[-1]
    for endpoint, extra in (("apply", {"action": {"type": "survey_stop"}}), ("bot", {"bot": "random", "seed": 0})):
        answer = refused(client, endpoint, {**signed(final), **extra})
        assert answer["error"] == "game_over"
        assert answer["message"].startswith("the game is over (round ")


def test_bot_answers_the_action_the_bot_chooses_and_plays_it(client, game, ruleset):
    """POST /api/bot makes the bot from its spec and seed, and plays its choice as apply does."""
    state = game.new_state(players=4, seed=11)
    act = make_bot("random", 5).choose(game, state)
    answer = post(client, "bot", {"state": jsonio.state_to_json(game, state), "bot": "random", "seed": 5})
    following, events = game.apply(state, act)
    assert answer["bot"] == "random"
    assert answer["player"] == game.current_player(state)
    assert answer["action"] == jsonio.action_to_json(game, state, act)
    assert answer["action_text"] == both(lambda lang: messages.describe_action(game, state, act, lang))
    assert {key: answer[key] for key in ("state", "signature", "current_player", "over", "legal", "score")} == expected_position(
        game, following
    )
    assert [item["event"] for item in answer["events"]] == [event.to_json() for event in events]


def test_bot_refuses_an_unknown_spec_with_a_suggestion(client, game):
    """A misspelt bot is a 422 with BotSpecError's did-you-mean."""
    state = jsonio.state_to_json(game, game.new_state(players=4, seed=1))
    answer = refused(client, "bot", {"state": state, "bot": "randon", "seed": 1})
    assert answer["error"] == "unknown_bot"
    assert answer["message"].startswith("unknown bot 'randon' (did you mean 'random'?)")


def test_score_is_provisional_mid_game_and_final_at_the_end(client, game):
    """POST /api/score answers Game.score's sheet and the winner line, final only when the game is over."""
    positions = played_positions(client, players=4, seed=8)
    for position in (positions[len(positions) // 2], positions[-1]):
        state = jsonio.state_from_json(game, position["state"])
        sheet = game.score(state)
        answer = post(client, "score", signed(position))
        assert answer == {
            "sheet": jsonio.score_sheet_to_json(sheet),
            "winner": both(lambda lang: reports.winner_line(sheet, lang)),
            "title": both(lambda lang: tables.score_title(sheet, lang)),
            "table": both(lambda lang: tables.score_table(game, sheet, lang).to_json()),
        }
        assert answer["sheet"]["final"] is game.is_over(state)
    assert answer["sheet"]["final"] is True
    # The table the terminal prints, rendered: a page draws its cells and fills no template.
    assert answer["title"] == {"ja": "最終得点", "en": "Final score"}
    table = answer["table"]["en"]
    assert table["headers"][:5] == ["Planet majority (VP, rank, row used)", "Player 1", "Player 2", "Player 3", "Player 4"]
    assert [row[0] for row in table["rows"][-5:]] == ["Majority", "Major-planet bonus", "VP during play", "Total", "Cubes in hand"]
    assert table["totals"] == [len(table["rows"]) - 2]
    assert table["rows"][-2][1:] == [str(seat.total) for seat in sheet.seats]
    assert table["rows"][-1][1:] == [str(seat.hand) for seat in sheet.seats]


# -- record ---------------------------------------------------------------------------------


def test_record_builds_a_record_that_replays_to_the_game(client, game):
    """POST /api/record turns a setup and its actions into a record document that replays."""
    rng = random.Random(2)
    setup = game.deal(3, seed=2)
    state = game.new_state(setup=setup)
    actions = []
    while not game.is_over(state):
        act = rng.choice(state.legal)
        actions.append(jsonio.action_to_json(game, state, act))
        state = game.step(state, act)
    body = {"setup": jsonio.setup_to_json(setup), "seed": 2, "actions": actions, "metadata": {"seats": ["human", "greedy", "greedy"]}}
    document = post(client, "record", body)
    assert document == {
        "format": records.RECORD_FORMAT,
        "ruleset": {"name": "draft7", "fingerprint": game.ruleset.fingerprint},
        **body,
        "moves": len(actions),
        "finished": True,
    }
    assert records.final_state(game, records.record_from_json(document, game)) == state


def test_record_refuses_an_illegal_action_naming_its_index(client):
    """A record whose action 2 is not legal is a 422 with the replay's RecordError."""
    actions = [{"type": "pick_crew", "crew": "navigator"}, {"type": "survey", "count": 0}, {"type": "pick_crew", "crew": "navigator"}]
    answer = refused(client, "record", {"setup": SETUP, "actions": actions})
    assert answer["error"] == "invalid_record"
    assert answer["message"].startswith('action 2 of the record, {"type": "pick_crew", "crew": "navigator"}, is not legal')


# -- documents ------------------------------------------------------------------------------


def test_ruleset_answers_its_data_names_and_skills(client, ruleset):
    """GET /api/ruleset is ruleset_to_data plus names and skill sentences in both languages."""
    answer = client.get("/api/ruleset").json()
    assert answer["name"] == "draft7"
    assert answer["fingerprint"] == ruleset.fingerprint
    assert answer["data"] == json.loads(json.dumps(ruleset_to_data(ruleset)))
    assert answer["player_counts"] == [3, 4]
    assert "random" in answer["bots"]
    assert answer["names"]["planets"]["lava-1"] == {"ja": "溶岩惑星１", "en": "Lava 1"}
    assert answer["skills"]["geologist"]["en"] == list(
        messages.skill_sentences(ruleset.crew_card("geologist"), ruleset, "en")
    )
    assert set(answer["skills"]) == {card.id for card in ruleset.crew}
    assert set(answer["skill_text"]) == {card.id for card in ruleset.crew}
    assert answer["skill_text"]["geologist"]["en"] == (
        "Place 1 of your cubes on the special square of a Planet surveyed this turn (after the survey)."
    )
    assert answer["names"]["players"] == {
        "-1": {"ja": "フリーキューブ", "en": "free cube"},
        **{str(seat): {"ja": f"プレイヤー{seat + 1}", "en": f"Player {seat + 1}"} for seat in range(4)},
    }


def test_messages_answers_the_catalogue_and_the_pages_words(client):
    """GET /api/messages holds messages.yaml as JSON and the page's words, each in ja and en."""
    answer = client.get("/api/messages").json()
    assert answer["languages"] == ["ja", "en"]
    assert set(answer["events"]) == set(EVENT_KEYS)
    assert answer["labels"]["score_title"] == {"ja": "最終得点", "en": "Final score"}
    assert answer["page"] == yaml.safe_load(PAGE_MESSAGES_PATH.read_text(encoding="utf-8"))
    assert all(set(entry) == {"ja", "en"} for entry in answer["page"].values())


def test_every_word_the_page_uses_is_in_its_catalogue():
    """Each data-text key of index.html and each words("...") key of app.js is in page_messages.yaml."""
    page = yaml.safe_load(PAGE_MESSAGES_PATH.read_text(encoding="utf-8"))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r'data-text="(\w+)"', html)) | set(re.findall(r'words\("(\w+)"', script))
    stages = {f"stage_{stage}" for stage in jsonio.schema("state")["properties"]["stage"]["enum"]}
    assert used | stages <= set(page), sorted((used | stages) - set(page))
    labels = set(re.findall(r'label\("(\w+)"', script))
    assert labels <= set(messages.catalogue().section("labels")), sorted(labels - set(messages.catalogue().section("labels")))


def test_the_page_receives_no_catalogue_template_and_fills_only_plain_fields():
    """app.js takes only the page's words from GET /api/messages (every library text reaches it
    rendered), and each word is one text per language whose fields are plain ``{name}``: all
    that app.js's ``fill`` does, so no ``{n:one|many}``, format spec or case."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    assert script.count('api("/api/messages")') == 1
    assert 'api("/api/messages").then((all) => all.page)' in script
    assert re.findall(r"\.(?:labels|effect_names|timings|triggers|directions|cases|free_cube)\b", script) == []
    page = yaml.safe_load(PAGE_MESSAGES_PATH.read_text(encoding="utf-8"))
    assert [key for key, entry in page.items() if set(entry) != set(messages.LANGS)] == []
    fields = [
        (key, lang, name, spec)
        for key, entry in page.items()
        for lang in messages.LANGS
        for name, spec in messages.template_fields(entry[lang])
    ]
    assert [field for field in fields if field[3]] == []
    assert ("planet_title", "ja", "colour", "") in fields


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_request_schemas_are_served_and_valid(client, endpoint):
    """GET /api/schemas/<endpoint> is the endpoint's request schema, a valid 2020-12 schema."""
    answer = client.get(f"/api/schemas/{endpoint}").json()
    assert answer == request_schema(endpoint)
    jsonschema.Draft202012Validator.check_schema(answer)
    assert answer["additionalProperties"] is False


def test_library_schemas_are_served_too(client, game):
    """GET /api/schemas/state is jsonio's state schema narrowed to the server's ruleset (the one
    it checks bodies with), the others as jsonio has them; an unknown name is a 404 listing the names."""
    assert client.get("/api/schemas/state").json() == jsonio.state_schema_for(game)
    assert client.get("/api/schemas/setup").json() == jsonio.schema("setup")
    response = client.get("/api/schemas/planet")
    assert response.status_code == 404
    assert response.json()["message"].startswith("no schema 'planet'; the schemas are new, legal, apply")


def test_the_page_and_its_files_are_served(client):
    """GET / is the page; its script and style are under /static."""
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js"' in page.text
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        assert kind in response.headers["content-type"]


# -- bad requests ---------------------------------------------------------------------------


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_every_body_is_checked_against_its_schema(client, endpoint):
    """Every POST endpoint refuses a body with an unknown property, and one that is not an object."""
    answer = refused(client, endpoint, {"tampered": True})
    assert answer["error"] == "invalid_request"
    assert "unexpected property 'tampered'" in answer["message"]
    answer = refused(client, endpoint, [1, 2])
    assert f"1 problem in the request body of /api/{endpoint}:\n  $: [1, 2] is not of type 'object'" == answer["message"]


@pytest.mark.parametrize(
    ("content", "status", "error", "message"),
    [
        (b"{", 400, "bad_json", "the request body is not JSON: Expecting property name"),
        (b"\xff\xfe", 400, "bad_json", "the request body is not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, 400, "bad_json", "the request body is nested too deeply"),
        (b" " * (MAX_BODY_BYTES + 1), 413, "too_large", f"the request body is over {MAX_BODY_BYTES} bytes"),
    ],
)
def test_bodies_that_are_not_json_are_refused(client, content, status, error, message):
    """A body that is not JSON is a 400; one over the size limit a 413."""
    response = client.post("/api/score", content=content, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert response.json()["error"] == error
    assert response.json()["message"].startswith(message)


def test_unknown_routes_and_methods_answer_json(client):
    """An unknown route is a 404 and a GET of a POST endpoint a 405, both as JSON."""
    assert client.get("/api/nothing").json() == {"error": "not_found", "message": "Not Found: GET /api/nothing"}
    response = client.get("/api/apply")
    assert response.status_code == 405
    assert response.json()["error"] == "method_not_allowed"


def test_a_tampered_state_is_refused_with_the_record_error(client, game):
    """A state whose cubes do not add up is a 422 carrying jsonio's RecordError text, at $.state."""
    data = jsonio.state_to_json(game, game.new_state(setup=jsonio.setup_from_json(SETUP)))
    data["seats"][0]["hand"] = 10
    for endpoint, extra in (
        ("legal", {}),
        ("score", {}),
        ("apply", {"action": {"type": "pick_crew", "crew": "navigator"}}),
        ("bot", {"bot": "random", "seed": 1}),
    ):
        answer = refused(client, endpoint, {"state": data, **extra})
        assert answer == {
            "error": "invalid_state",
            "message": "1 problem in the state document:\n  $.seats[0]: seat 0 has 10 cubes "
            "(hand 10 + on the board 0 + removed 0), but each player has 12",
            "at": "$.state",
        }


def test_a_state_of_another_ruleset_is_refused(client):
    """A base state sent to a draft7 server is refused by its fingerprint."""
    base = Game(load_ruleset("base"))
    data = jsonio.state_to_json(base, base.new_state(players=3, seed=1))
    answer = refused(client, "score", {"state": data})
    assert answer["error"] == "invalid_state"
    assert answer["message"].startswith("this state was made with ruleset base (fingerprint ")


def _paths(document: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(document, dict):
        for key, value in document.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _paths(value, (*prefix, index))
    return found


_VALUES = [0, 1, -1, 2, 7, 99, None, "x", "lava-1", "navigator", "over", [], {}, True, 1.5, 10**20, [-1, 0]]


def _tamper(document: Any, rng: random.Random) -> Any:
    """``document`` with one to three values replaced, removed, appended to or nudged."""
    document = copy.deepcopy(document)
    for _ in range(rng.choice((1, 1, 2, 3))):
        path = rng.choice(_paths(document)[1:])
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        key, roll = path[-1], rng.random()
        if roll < 0.6:
            parent[key] = copy.deepcopy(rng.choice(_VALUES))
        elif roll < 0.75:
            del parent[key]
            return document  # the other paths may be gone
        elif isinstance(parent[key], list):
            parent[key].append(copy.deepcopy(rng.choice(_VALUES)))
        elif isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] += rng.choice((-1, 1))
    return document


@pytest.mark.slow
def test_tampered_bodies_never_cause_a_server_error(client):
    """A seeded fuzzer: 240 tampered states and bodies on every endpoint get 200 or a 4xx with a reason, never a 5xx."""
    rng = random.Random(20240601)
    states = played_states(client, players=4, seed=3)
    statuses = []
    for index in range(240):
        state = rng.choice(states)
        endpoint = ENDPOINTS[index % len(ENDPOINTS)]
        if endpoint == "new":
            body: Any = {"setup": SETUP}
        elif endpoint == "record":
            body = {"setup": SETUP, "actions": [{"type": "pick_crew", "crew": "navigator"}, {"type": "survey", "count": 0}]}
        else:
            body = {"state": state}
            if endpoint == "apply":
                body["action"] = copy.deepcopy(rng.choice(state["legal"] or [{"type": "survey_stop"}]))
            elif endpoint == "bot":
                body.update(bot="random", seed=index)
        body = _tamper(body, rng) if rng.random() < 0.2 else {**body, **({"state": _tamper(state, rng)} if "state" in body else {})}
        if rng.random() < 0.2:
            body = _tamper(body, rng)
        response = client.post(f"/api/{endpoint}", json=body)
        statuses.append(response.status_code)
        assert response.status_code < 500, (endpoint, json.dumps(body), response.text)
        if response.status_code != 200:
            answer = response.json()
            assert 400 <= response.status_code < 500
            assert answer["error"] and answer["message"], answer
    assert statuses.count(422) > 120  # most tampering is caught


def test_a_signed_state_is_still_checked_for_shape_and_bounds(client):
    """A signature proves where a state came from, not its form: start_player 1.5 re-signed
    with the secret was a 500 (the engine indexed a tuple with it); now a 422 at its path."""
    state = copy.deepcopy(played_states(client, players=4, seed=3)[5])
    state["start_player"] = 1.5
    for endpoint in ("legal", "score", "apply", "bot"):
        body: dict[str, Any] = {"state": state, "signature": SIGNER.sign(state)}
        if endpoint == "apply":
            body["action"] = state["legal"][0]
        elif endpoint == "bot":
            body.update(bot="random", seed=1)
        response = client.post(f"/api/{endpoint}", json=body)
        assert response.status_code == 422, (endpoint, response.text)
        assert "$.start_player: 1.5 is not of type integer" in response.json()["message"]


def test_a_signed_states_own_legal_action_is_read_with_its_checks(client):
    """The action a body takes from a signed state's legal list skips the action schema only
    when the rules make it: a re-signed list of a malformed action is a 422, not a 500."""
    state = copy.deepcopy(played_states(client, players=4, seed=3)[5])
    state["legal"][0]["type"] = [[]]
    body = {"state": state, "signature": SIGNER.sign(state), "action": state["legal"][0]}
    response = client.post("/api/apply", json=body)
    assert response.status_code == 422, response.text


def test_tampered_signed_states_never_cause_a_server_error(client):
    """A seeded fuzzer: 240 states tampered and then signed with the server's own secret get
    200 or a 4xx, never a 5xx (a client holding the secret cannot make the server fail)."""
    rng = random.Random(20261201)
    states = played_states(client, players=4, seed=3)
    statuses = []
    for index in range(240):
        state = _tamper(rng.choice(states), rng)
        endpoint = ("legal", "score", "apply", "bot")[index % 4]
        body: dict[str, Any] = {"state": state, "signature": SIGNER.sign(state)}
        if endpoint == "apply":
            legal = state.get("legal")
            body["action"] = copy.deepcopy(legal[0]) if isinstance(legal, list) and legal else {"type": "survey_stop"}
        elif endpoint == "bot":
            body.update(bot="random", seed=index)
        response = client.post(f"/api/{endpoint}", json=body)
        statuses.append(response.status_code)
        assert response.status_code < 500, (endpoint, json.dumps(body), response.text)
    assert statuses.count(422) > 100  # most tampering is caught even under a good signature


# -- the command ----------------------------------------------------------------------------


def _served(monkeypatch):
    """What ``stargazer serve`` would listen on and run, without serving: a list that gets
    ``(host, port, app, workers)`` for each run; the socket is a real one on a free port."""
    from stargazer_rules.frontends.server import listening

    calls = []
    bound = listening.listening_socket

    def fake_socket(host, port):
        calls.append([host, port])
        return bound("127.0.0.1", 0)

    monkeypatch.setattr(listening, "listening_socket", fake_socket)
    monkeypatch.setattr(listening, "url", lambda host, sock: f"http://{host}:{calls[-1][1]}/")
    monkeypatch.setattr(listening, "run", lambda app, sock, workers: calls[-1].extend([app, workers]))
    return calls


def test_serve_listens_on_loopback_by_default(monkeypatch, capsys):
    """stargazer serve runs the app on 127.0.0.1:8000 unless told otherwise."""
    calls = _served(monkeypatch)
    assert main(["serve"]) == 0
    assert main(["serve", "--host", "0.0.0.0", "--port", "9001", "--rules", "base"]) == 0
    assert [(host, port, workers) for host, port, _app, workers in calls] == [("127.0.0.1", 8000, 1), ("0.0.0.0", 9001, 1)]
    assert TestClient(calls[1][2], base_url="http://localhost").get("/api/ruleset").json()["name"] == "base"
    assert capsys.readouterr().err.splitlines() == [
        "stargazer serve: draft7 on http://127.0.0.1:8000/",
        "stargazer serve: base on http://0.0.0.0:9001/",
    ]


def test_serve_reports_a_ruleset_that_cannot_be_loaded(capsys, tmp_path):
    """A missing ruleset folder is a one-line error and exit 1, before anything listens."""
    assert main(["serve", "--rules", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err.startswith("stargazer serve: ")


def test_events_render_in_the_page_catalogue_too(client, ruleset):
    """The catalogue served to the page renders an event as messages.render_event does (its cases included)."""
    catalogue = client.get("/api/messages").json()["events"]
    event = Event("cube_placed", {"owner": -1, "planet": "lava-1", "square": 4})
    case = next(c for c in catalogue["cube_placed"]["cases"] if all(event.params.get(k) == v for k, v in c["when"].items()))
    assert case["en"].format(planet="Lava 1", square=4) == messages.render_event(event, ruleset, "en")
