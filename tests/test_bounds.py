"""Every seed and bot parameter is bounded where it is parsed, the same way on the command line,
in the server and in make_bot: seeds are integers from 0 to 2**64 - 1 (engine.seeds), each
bot parameter has its range (tests/test_bots.py holds them to docs/bots.md)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from stargazer_rules import load_ruleset
from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.formats import jsonio
from stargazer_rules.formats.signing import StateSigner
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.server import create_app, request_schema

SIGNER = StateSigner("bounds")
SEED_LINE = "is not a seed: give an integer from 0 to 18446744073709551615 (2**64 - 1)"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(load_ruleset("draft7"), signer=SIGNER), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def position(client):
    return client.post("/api/new", json={"players": 3, "seed": 2}).json()


# -- the server -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "problem"),
    [
        (-1, "-1 is less than the minimum of 0"),
        (-(2**63), "-9223372036854775808 is less than the minimum of 0"),
        (MAX_SEED + 1, "18446744073709551616 is over the maximum of 18446744073709551615"),
    ],
)
def test_a_bot_seed_outside_0_to_2_64_is_a_422_at_the_seed(client, position, seed, problem):
    """Before, -1 and -2**63 passed the schema and were a 500 (OverflowError in kernel_bot)."""
    body = {"state": position["state"], "signature": position["signature"], "bot": "greedy", "seed": seed}
    response = client.post("/api/bot", json=body)
    assert response.status_code == 422
    assert response.json() == {"error": "invalid_request", "message": f"1 problem in the request body of /api/bot:\n  $.seed: {problem}"}


@pytest.mark.parametrize("endpoint", ["new", "record"])
def test_a_deal_seed_outside_0_to_2_64_is_a_422(client, position, endpoint):
    """new with seed -1 dealt seed 1's game (Python seeds with the absolute value); a record
    could name a seed no deal has."""
    body = {"players": 3, "seed": -1} if endpoint == "new" else {"setup": position["setup"], "actions": [], "seed": -1}
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code == 422
    assert "  $.seed: -1 is less than the minimum of 0" in response.json()["message"]


def test_the_extreme_seeds_play(client, position):
    """0 and 2**64 - 1 are seeds: the kernel's bot takes them and new deals from them."""
    for seed in (0, MAX_SEED):
        body = {"state": position["state"], "signature": position["signature"], "bot": "mcts:2", "seed": seed}
        assert client.post("/api/bot", json=body).status_code == 200
        assert client.post("/api/new", json={"players": 3, "seed": seed}).json()["seed"] == seed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:depth=99999999999", "bot 'mcts': depth='99999999999' is not an integer from 0 to 10,000"),
        ("mcts:prior=99999999999", "bot 'mcts': prior='99999999999' is not an integer from 0 to 1,000"),
        ("mcts:2,scale=1e-400", "bot 'mcts': scale='1e-400' is not a number above 0, at most 1,000"),
        ("greedy:hand=-1", "bot 'greedy': hand='-1' is not a number from 0 to 100"),
    ],
)
def test_a_bot_parameter_out_of_range_is_a_422_naming_the_range(client, position, spec, message):
    """Before, depth and prior past 32 bits were a 500 from the kernel, and the keep-alive
    connection was reset after it."""
    body = {"state": position["state"], "signature": position["signature"], "bot": spec, "seed": 1}
    response = client.post("/api/bot", json=body)
    assert response.status_code == 422
    assert response.json() == {"error": "unknown_bot", "message": message, "at": "$.bot"}


def test_every_seed_in_the_schemas_has_the_seed_range():
    """The request and record schemas state the range engine.seeds checks (one range, three
    readers: a change of one fails here)."""
    seeds = {
        endpoint: request_schema(endpoint)["properties"]["seed"] for endpoint in ("new", "bot", "record")
    }
    seeds["record document"] = jsonio.schema("record")["properties"]["seed"]
    assert {name: (node["minimum"], node["maximum"]) for name, node in seeds.items()} == dict.fromkeys(seeds, (0, MAX_SEED))


# -- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "4", "--seed"],
        ["play-random", "--players", "3", "--seed"],
        ["play", "--seats", "you,greedy", "--seed"],
    ],
)
@pytest.mark.parametrize(("seed", "shown"), [("-1", "-1"), (str(2**64), str(2**64)), ("1e3", "'1e3'"), ("seven", "'seven'")])
def test_a_seed_outside_0_to_2_64_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv, seed, shown):
    """--seed -1 and --seed 2**64 were taken by simulate and play-random (-1 playing seed 1's
    games); now every --seed is refused in one line naming the range, before any game."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main([*argv, seed])
    assert exit_.value.code == 2
    assert capsys.readouterr().err == f"stargazer {argv[0]}: --seed {shown} {SEED_LINE}\n"
    assert list(tmp_path.iterdir()) == []


def test_the_largest_seed_plays_a_random_game(capsys):
    """play-random --seed 2**64 - 1 plays (the Python deal and moves take any seed of the range)."""
    assert main(["play-random", "--players", "3", "--seed", str(MAX_SEED)]) == 0
    assert str(MAX_SEED) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("mcts:depth=99999999999", "bot 'mcts': depth='99999999999' is not an integer from 0 to 10,000"),
        ("mcts:prior=99999999999", "bot 'mcts': prior='99999999999' is not an integer from 0 to 1,000"),
        ("greedy/mcts:c=1000", "bot 'mcts': c='1000' is not a number from 0 to 100"),
    ],
)
def test_simulate_refuses_a_bot_parameter_out_of_range_in_one_line(tmp_path, capsys, monkeypatch, bots, message):
    """simulate --bots mcts:depth=99999999999 was a traceback from the kernel, after the run began."""
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "4", "--workers", "1", "--bots", bots]) == 2
    assert capsys.readouterr().err == f"stargazer simulate: {message}\n"
    assert list(tmp_path.iterdir()) == []
