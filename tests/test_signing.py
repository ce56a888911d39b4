"""Signed states: the server's states come back unchanged or are refused, and an unsigned state is
believed only where its board proves it (issue 9, reproduction 3: a client raising its own VP)."""

from __future__ import annotations

import copy

import pytest
from starlette.testclient import TestClient

from stargazer_rules import Game, jsonio, load_ruleset
from stargazer_rules.frontends.server import TableService, create_app
from stargazer_rules.formats.signing import SECRET_ENV, StateSigner, canonical_json

SIGNER = StateSigner("a secret of this test")


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset("draft7"))


@pytest.fixture(scope="module")
def client(game):
    with TestClient(create_app(game.ruleset, signer=SIGNER), raise_server_exceptions=False) as test_client:
        yield test_client


def _post(client, endpoint, body, status=200):
    response = client.post(f"/api/{endpoint}", json=body)
    assert response.status_code == status, response.text
    return response.json()


def _midgame(client, moves=12):
    """A position some moves in, where seats have scored VP, reached by the API's own bot."""
    position = _post(client, "new", {"players": 3, "seed": 5})
    for move in range(moves):
        position = _post(client, "bot", {"state": position["state"], "signature": position["signature"], "bot": "greedy", "seed": move})
    assert any(seat["vp"] for seat in position["state"]["seats"])
    return position


def test_canonical_json_sorts_keys_and_drops_spaces():
    """Two spellings of one document sign alike: the canonical form has sorted keys and no spaces."""
    assert canonical_json({"b": [1, 2], "a": "é"}) == '{"a":"é","b":[1,2]}'.encode()
    assert SIGNER.sign({"b": [1, 2], "a": 1}) == SIGNER.sign({"a": 1, "b": [1, 2]})


def test_a_signature_checks_only_with_its_own_key_and_document():
    """verify is true for the signer's own signature of the same document, false for anything else."""
    document = {"vp": 3}
    signature = SIGNER.sign(document)
    assert len(signature) == 64 and SIGNER.verify(document, signature)
    assert not SIGNER.verify({"vp": 999}, signature)
    assert not StateSigner("another secret").verify(document, signature)
    assert not SIGNER.verify(document, signature.upper())
    assert not SIGNER.verify(document, None)


def test_a_signature_with_any_one_digit_changed_is_refused():
    """Every position, every other hex digit: verify compares the whole signature (a check of
    only its first 16 digits, or its last, fails here)."""
    document = {"seats": [{"vp": 3}]}
    signature = SIGNER.sign(document)
    changed = [
        signature[:index] + digit + signature[index + 1 :]
        for index in range(len(signature))
        for digit in "0123456789abcdef"
        if digit != signature[index]
    ]
    assert len(changed) == 64 * 15
    assert [forged for forged in changed if SIGNER.verify(document, forged)] == []
    assert not SIGNER.verify(document, signature[:-1]) and not SIGNER.verify(document, signature + "0")


def test_the_server_refuses_a_signature_changed_at_any_position(client):
    """Through the API: a position's signature with one digit changed, at each of the 64
    positions, is a 422 at $.signature."""
    position = _post(client, "new", {"players": 3, "seed": 5})
    signature = position["signature"]
    for index in range(len(signature)):
        digit = "0" if signature[index] != "0" else "1"
        forged = signature[:index] + digit + signature[index + 1 :]
        answer = _post(client, "score", {"state": position["state"], "signature": forged}, 422)
        assert (answer["error"], answer["at"]) == ("invalid_state", "$.signature"), index


def test_the_key_comes_from_the_option_then_the_environment_then_chance(monkeypatch):
    """from_environment: --secret wins, else $STARGAZER_SECRET, else a random key per signer."""
    monkeypatch.setenv(SECRET_ENV, "from the environment")
    assert StateSigner.from_environment().sign(1) == StateSigner("from the environment").sign(1)
    assert StateSigner.from_environment("given").sign(1) == StateSigner("given").sign(1)
    monkeypatch.delenv(SECRET_ENV)
    assert StateSigner.from_environment().sign(1) != StateSigner.from_environment().sign(1)
    with pytest.raises(ValueError, match="empty"):
        StateSigner("")


def test_a_signed_state_with_its_vp_raised_is_refused_before_anything_else(client):
    """Reproduction 3: new, seat 0's vp set to 999, apply: 422 invalid_state at $.signature."""
    position = _post(client, "new", {"players": 3, "seed": 5})
    state = copy.deepcopy(position["state"])
    state["seats"][0]["vp"] = 999
    body = {"state": state, "signature": position["signature"], "action": position["legal"][0]["action"]}
    answer = _post(client, "apply", body, 422)
    assert answer["error"] == "invalid_state"
    assert answer["at"] == "$.signature"
    assert answer["message"].startswith("the state does not match its signature")
    # First: a signed body whose state is not even a state is refused for the signature too.
    answer = _post(client, "apply", {"state": {"vp": 999}, "signature": position["signature"], "action": 1}, 422)
    assert (answer["error"], answer["at"]) == ("invalid_state", "$.signature")


def test_an_unsigned_state_with_its_vp_raised_is_refused_as_unproven(client):
    """Reproduction 3 without the signature: VP the board cannot prove are not believed."""
    position = _midgame(client)
    state = copy.deepcopy(position["state"])
    state["seats"][0]["vp"] = 999
    answer = _post(client, "apply", {"state": state, "action": position["legal"][0]["action"]}, 422)
    assert answer["error"] == "unsigned_state"
    assert "$.seats[0].vp = 999" in answer["message"]
    assert answer["message"].endswith("send it back with the signature this server answered with it, or rebuild the game from its record")


def test_a_state_signed_by_another_server_is_refused(client, game):
    """Another secret's signature does not check here: 422 invalid_state."""
    other = TableService(game.ruleset, signer=StateSigner("another server"))
    position = other.new({"players": 3, "seed": 5})
    answer = _post(client, "legal", {"state": position["state"], "signature": position["signature"]}, 422)
    assert answer["error"] == "invalid_state"


def test_a_signed_midgame_state_plays_on_and_an_unsigned_fresh_one_is_checked(client):
    """The server's own signed state continues; an unsigned round-1 state with no VP is checked as before."""
    position = _midgame(client)
    answer = _post(client, "apply", {"state": position["state"], "signature": position["signature"], "action": position["legal"][0]["action"]})
    assert answer["signature"] == SIGNER.sign(answer["state"])
    fresh = _post(client, "new", {"players": 3, "seed": 5})
    assert _post(client, "legal", {"state": fresh["state"]})["actions"]


def test_a_trusted_read_rebuilds_the_same_state_as_a_checked_one(game):
    """state_from_json(trusted=True) gives what the full check gives, for every state of a game."""
    service = TableService(game.ruleset, signer=SIGNER)
    position = service.new({"players": 4, "seed": 9})
    while not position["over"]:
        data = position["state"]
        assert jsonio.state_from_json(game, data, trusted=True) == jsonio.state_from_json(game, data)
        position = service.bot({"state": data, "signature": position["signature"], "bot": "random", "seed": 1})


def test_unproven_values_lists_vp_removed_and_round():
    """jsonio.unproven_values names each value the board cannot prove, at its path."""
    data = {"round": 2, "seats": [{"vp": 0, "removed": 0}, {"vp": 4, "removed": 1}]}
    assert jsonio.unproven_values(data) == ["$.seats[1].vp = 4", "$.seats[1].removed = 1", "$.round = 2"]
    assert jsonio.unproven_values({"round": 1, "seats": [{"vp": 0, "removed": 0}]}) == []


def test_a_signed_state_this_server_cannot_read_is_a_422_not_a_500(client):
    """A document signed with this key but not a state of this version (a server of another
    version, the same secret) is refused as invalid_state: a signed state is read unchecked."""
    for document, error in (({"players": 3}, "invalid_state"), ({"ruleset": {"name": "draft7"}, "seats": 5}, "invalid_state"), ([], "invalid_request")):
        answer = _post(client, "score", {"state": document, "signature": SIGNER.sign(document)}, 422)
        assert answer["error"] == error
    assert answer["message"].startswith("1 problem in the request body of /api/score:\n  $.state: [] is not of type 'object'")


def test_a_signature_with_non_ascii_characters_is_refused_not_an_error():
    """Found by the OpenAPI fuzz: hmac.compare_digest raises TypeError on non-ASCII text."""
    signer = StateSigner("test secret")
    assert signer.verify({"a": 1}, "é" * 64) is False
    assert signer.verify({"a": 1}, signer.sign({"a": 1})) is True


def test_with_a_signed_state_only_an_exactly_listed_action_skips_the_action_schema(client):
    """A signed state's own legal actions are the server's writing, so such an action is not
    schema-checked again; anything else is, in full: a listed action with a value of another
    type (``true`` for the count 1, which Python takes as equal) or an extra property is a
    422 naming the problem, never played."""
    position = _post(client, "new", {"players": 3, "seed": 5})
    position = _post(client, "apply", {**_signed(position), "action": position["legal"][0]["action"]})
    surveys = [item["action"] for item in position["legal"] if item["action"]["type"] == "survey" and item["action"]["count"] == 1]
    assert surveys, "the first survey offers one cube somewhere"
    listed = surveys[0]
    played = _post(client, "apply", {**_signed(position), "action": listed})
    assert played["state"] != position["state"]
    retyped = _post(client, "apply", {**_signed(position), "action": {**listed, "count": True}}, status=422)
    assert retyped["error"] == "invalid_request" and "$.action" in retyped["message"] and "count" in retyped["message"]
    extra = _post(client, "apply", {**_signed(position), "action": {**listed, "extra": 1}}, status=422)
    assert "unexpected property 'extra'" in extra["message"]


def _signed(position):
    return {"state": position["state"], "signature": position["signature"]}
