"""No request can hold the server: bounded schema checks, bounded bots, work off the event loop,
and a clean 4xx for numbers and arrays past any game's size (issue 9, reproductions 1, 2 and 4)."""

from __future__ import annotations

import asyncio
import copy
import threading

import httpx2 as httpx
import pytest
from processes import HANG_GUARD
from starlette.testclient import TestClient
from work import calls

from stargazer_rules import Game, load_ruleset
from stargazer_rules.bots import register_bot, unregister_bot
from stargazer_rules.bots.kernel_backed import KernelBackedBot
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.cli.serve_command import DEFAULT_MAX_BOT_ITERATIONS, DEFAULT_TIME_LIMIT
from stargazer_rules.frontends.server import RequestError, TableService, create_app, service
from stargazer_rules.formats.signing import StateSigner

SIGNER = StateSigner("limits")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("draft7")


@pytest.fixture(scope="module")
def client(ruleset):
    with TestClient(create_app(ruleset, signer=SIGNER), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def position(client):
    response = client.post("/api/new", json={"players": 4, "seed": 7})
    assert response.status_code == 200
    return response.json()


@pytest.fixture(scope="module")
def table(ruleset):
    """The service behind the routes, called in this thread so that its work can be counted."""
    return TableService(ruleset, signer=SIGNER)


def _refusal_calls(call) -> int:
    """The function calls ``call()`` makes before it is refused with a 422."""
    counted = calls(call)
    assert isinstance(counted.error, RequestError) and counted.error.status == 422, counted
    return counted.calls


def test_a_legal_list_of_30000_strings_is_refused_at_once(client, table, position, ruleset):
    """Reproduction 1: a state whose legal holds 30,000 strings is a 422 naming the bound, the
    most legal actions a state of this server's ruleset can list, and its check costs no more
    than that of 300 such strings: the check stops at its bound, whatever the list's length."""
    bound = Game(ruleset).most_legal_actions
    state = {**position["state"], "legal": ["x" * 4] * 30000}
    response = client.post("/api/legal", json={"state": state})
    assert response.status_code == 422
    message = response.json()["message"]
    assert f"  $.state.legal: has 30000 items, more than the {bound} allowed (maxItems)\n" in message
    assert message.endswith("  (the check stops after 50 errors)")
    assert len(message) < 2000
    short = {**position["state"], "legal": ["x" * 4] * 300}
    assert _refusal_calls(lambda: table.legal({"state": state})) <= _refusal_calls(lambda: table.legal({"state": short})) + 100


def test_a_hundred_thousand_seats_are_refused_at_once(client, table, position):
    """Reproduction 1: "seats": [1]*100000 on apply is a 422 costing what 100 seats cost, not
    minutes and gigabytes."""
    act = position["legal"][0]["action"]
    state = {**position["state"], "seats": [1] * 100000}
    response = client.post("/api/apply", json={"state": state, "action": act})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
    few = {**position["state"], "seats": [1] * 100}
    assert _refusal_calls(lambda: table.apply({"state": state, "action": act})) <= _refusal_calls(
        lambda: table.apply({"state": few, "action": act})
    ) + 100


@pytest.mark.parametrize(
    ("field", "grow", "expected"),
    [
        ("seats", lambda state: state["seats"].append(dict(state["seats"][0])), "$.state.seats: has 5 items, more than the 4 allowed"),
        ("players", lambda state: state.update(players=5), "$.state.players: 5 is over the maximum of 4"),
        ("track", lambda state: state["planets"][0].update(track=[0] * 8), "$.state.planets[0].track: has 8 items, more than the 7 allowed"),
        ("legal", lambda state: state["legal"].extend(state["legal"][:1] * 169), "$.state.legal: has 1"),
    ],
)
def test_a_state_larger_than_this_rulesets_tables_is_refused_by_its_size(client, position, ruleset, field, grow, expected):
    """The request schemas carry the server's ruleset's sizes (jsonio.state_schema_for): draft 7
    seats at most 4 players, its longest track has 7 squares, and no state lists more legal
    actions than ``Game.most_legal_actions``; an unsigned state past one of them is refused by
    the schema check, naming the bound, before any rule reads it."""
    state = copy.deepcopy(position["state"])
    grow(state)
    response = client.post("/api/legal", json={"state": state})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
    assert expected in response.json()["message"]
    if field == "legal":
        assert f"more than the {Game(ruleset).most_legal_actions} allowed (maxItems)" in response.json()["message"]


def test_an_absurd_bot_budget_is_refused_before_the_bot_starts(client, position, monkeypatch):
    """Reproduction 2: mcts:1000000000000 is a 422 naming the bound; mcts:20000 is over this
    server's; neither bot is asked to choose."""
    chosen = []
    monkeypatch.setattr(KernelBackedBot, "choose", lambda bot, game, state: chosen.append(bot.spec))
    body = {"state": position["state"], "signature": position["signature"], "seed": 1}
    response = client.post("/api/bot", json={**body, "bot": "mcts:1000000000000"})
    assert response.status_code == 422
    assert response.json()["error"] == "unknown_bot"
    assert "is not an integer from 1 to 1,000,000 (try mcts:400" in response.json()["message"]
    response = client.post("/api/bot", json={**body, "bot": "mcts:20000"})
    assert response.status_code == 422
    assert response.json() == {
        "error": "bot_budget",
        "message": "bot mcts:c=0.7,depth=16,iterations=20000,prior=3,rollout=full,scale=4.0 asks for 20000 "
        "iterations a decision; this server allows at most 1000 (--max-bot-iterations): try mcts:1000",
        "at": "$.bot",
    }
    assert chosen == []


def test_a_bot_past_the_time_limit_is_a_503(ruleset, position):
    """A bot that cannot finish within --time-limit is answered 503 time_limit: mcts:1000000
    would think for many seconds, and the answer says the search was stopped at 0.3 s."""
    app = create_app(ruleset, signer=SIGNER, max_bot_iterations=1_000_000, time_limit=0.3)
    with TestClient(app, raise_server_exceptions=False) as client:
        body = {"state": position["state"], "signature": position["signature"], "seed": 1, "bot": "mcts:1000000"}
        response = client.post("/api/bot", json=body)
    assert response.status_code == 503
    assert response.json()["error"] == "time_limit"
    assert "time limit of 0.3 s" in response.json()["message"]


class _WaitingBot:
    """A bot that chooses only once the test lets it: a request that holds a worker thread for
    as long as the test needs, however fast or loaded the machine."""

    released = threading.Event()
    started = threading.Event()

    def __init__(self, seed: int) -> None:
        self.spec = "waiting-test"

    def choose(self, game, state):
        _WaitingBot.started.set()
        assert _WaitingBot.released.wait(HANG_GUARD), "the test never released the bot"
        return state.legal[0]


def test_one_heavy_request_does_not_stop_another_client(ruleset, position):
    """While one client's bot is still thinking (it chooses only when released), another
    client's GET and POST are answered: the bot holds a worker thread, not the event loop."""
    register_bot("waiting-test", _WaitingBot)
    _WaitingBot.released.clear()
    _WaitingBot.started.clear()

    async def scenario() -> None:
        app = create_app(ruleset, signer=SIGNER)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=HANG_GUARD) as client:
            body = {"state": position["state"], "signature": position["signature"], "seed": 1, "bot": "waiting-test"}
            heavy = asyncio.ensure_future(client.post("/api/bot", json=body))
            while not _WaitingBot.started.is_set():
                await asyncio.sleep(0.01)
            assert (await client.get("/api/schemas/new")).status_code == 200
            scored = await client.post("/api/score", json={"state": position["state"], "signature": position["signature"]})
            assert scored.status_code == 200
            assert not heavy.done()
            _WaitingBot.released.set()
            assert (await heavy).status_code == 200

    try:
        asyncio.run(scenario())
    finally:
        _WaitingBot.released.set()
        unregister_bot("waiting-test")


def test_a_5000_digit_seed_is_a_400_not_a_500(client):
    """Reproduction 4: an integer Python will not read is a 400 bad_json; a long one it reads, a 422."""
    response = client.post("/api/new", content='{"players": 3, "seed": ' + "9" * 5000 + "}", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "bad_json"
    assert "number too long" in response.json()["message"]
    response = client.post("/api/new", json={"players": 3, "seed": 10**100})
    assert response.status_code == 422
    assert "  $.seed: a 101-digit number is over the maximum of 18446744073709551615" in response.json()["message"]


def test_the_command_line_and_the_server_share_their_defaults():
    """stargazer serve's defaults are the server's own (the CLI keeps a copy to load fast)."""
    assert (DEFAULT_MAX_BOT_ITERATIONS, DEFAULT_TIME_LIMIT) == (service.DEFAULT_MAX_BOT_ITERATIONS, service.DEFAULT_TIME_LIMIT)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "99999"], "stargazer serve: --port 99999 is not a port: give one of 1 to 65535 (0: any free port)"),
        (["--port", "-1"], "stargazer serve: --port -1 is not a port: give one of 1 to 65535 (0: any free port)"),
        (["--max-bot-iterations", "0"], "stargazer serve: --max-bot-iterations 0 is outside 1 to 1,000,000"),
        (["--time-limit", "0"], "stargazer serve: --time-limit 0 is outside 0 to 3600 seconds (default 10)"),
        (["--secret", ""], "stargazer serve: --secret is empty: give a secret, or leave the option out for a random one"),
    ],
)
def test_serve_refuses_bad_values_in_one_line(capsys, argv, message):
    """Each bad serve option is one line on stderr and exit 2, before anything listens."""
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith(message)


def test_the_request_schemas_bound_every_array_and_integer():
    """Every array in a request schema (and the library schemas it uses) has maxItems, every integer a maximum."""
    from stargazer_rules.formats import jsonio

    missing = []

    def walk(node, where):
        if isinstance(node, dict):
            types = node.get("type")
            types = types if isinstance(types, list) else [types]
            if "array" in types and "maxItems" not in node:
                missing.append(where)
            if "integer" in types and "maximum" not in node:
                missing.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}[{index}]")

    for endpoint in service.ENDPOINTS:
        walk(service.request_schema(endpoint), endpoint)
    for kind in ("state", "action", "setup", "record"):
        walk(jsonio.schema(kind), kind)
    assert missing == []
    # jsonschema checks keywords in their order: a bound before "items" refuses a long list
    # before its items are read.
    for name in ("legal", "seats", "planets", "crew"):
        keywords = list(jsonio.schema("state")["properties"][name])
        assert keywords.index("maxItems") < keywords.index("items"), name
