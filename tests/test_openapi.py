"""GET /openapi.json describes the API from the schemas the server checks, and a bounded
schemathesis run holds the app to it: every generated request, valid or not, gets an answer
the document declares (status, content type, body schema), never a 5xx."""

from __future__ import annotations

import jsonschema
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from starlette.testclient import TestClient

from stargazer_rules import Game, load_ruleset
from stargazer_rules.formats import jsonio
from stargazer_rules.frontends.server import ENDPOINTS, create_app, request_schema
from stargazer_rules.frontends.server.openapi import openapi_document
from stargazer_rules.formats.signing import StateSigner

RULESET = load_ruleset("draft7")
APP = create_app(RULESET, signer=StateSigner("openapi"), time_limit=5.0)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)


def test_the_document_is_served_and_is_openapi_3_1():
    """GET /openapi.json answers the builder's document with the state schema narrowed to the
    server's ruleset (what it checks bodies with), version 3.1.0, one operation per route."""
    with TestClient(APP) as client:
        document = client.get("/openapi.json").json()
    assert document == openapi_document(state_schema=jsonio.state_schema_for(Game(RULESET)))
    assert document["components"]["schemas"]["state"]["properties"]["seats"]["maxItems"] == 4
    assert openapi_document()["components"]["schemas"]["state"]["properties"]["seats"]["maxItems"] == 8
    assert document["openapi"] == "3.1.0"
    assert sorted(document["paths"]) == sorted(
        [*(f"/api/{name}" for name in ENDPOINTS), "/api/ruleset", "/api/messages", "/api/schemas/{name}", "/openapi.json"]
    )
    for name, component in document["components"]["schemas"].items():
        jsonschema.Draft202012Validator.check_schema(component)


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_each_request_body_is_the_request_schema_the_server_checks(endpoint):
    """One source: the document's request body is the server's request schema, references rewritten."""
    document = openapi_document()
    body = document["paths"][f"/api/{endpoint}"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    component = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    served = request_schema(endpoint)
    assert component["properties"].keys() == served["properties"].keys()
    assert component["required"] == served["required"]
    assert "urn:" not in str(component)


def test_a_real_game_answers_fit_the_response_schemas():
    """new, legal, bot, apply, score and record answers of a real game validate against the document."""
    document = openapi_document()
    registry_schema = {**document["components"]["schemas"]}

    def check(endpoint, answer):
        schema = {"$ref": f"#/components/schemas/{endpoint}.response", "components": {"schemas": registry_schema}}
        jsonschema.Draft202012Validator(schema).validate(answer)

    with TestClient(APP) as client:
        position = client.post("/api/new", json={"players": 3, "seed": 2}).json()
        check("new", position)
        actions = []
        while not position["over"]:
            signed = {"state": position["state"], "signature": position["signature"]}
            check("legal", client.post("/api/legal", json=signed).json())
            check("score", client.post("/api/score", json=signed).json())
            position = client.post("/api/bot", json={**signed, "bot": "random", "seed": len(actions)}).json()
            check("bot", position)
            actions.append(position["action"])
        record = client.post("/api/record", json={"setup": client.post("/api/new", json={"players": 3, "seed": 2}).json()["setup"], "actions": actions}).json()
        check("record", record)


@pytest.mark.slow
@SCHEMA.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_app_keeps_to_its_openapi_document(case):
    """schemathesis: generated requests (valid and invalid) get declared answers, never a 5xx.

    Every check runs but positive_data_acceptance: a body that fits its schema may still be
    refused by the rules (a setup the ruleset does not deal, a state whose cubes do not add
    up), a 422 the document declares.
    """
    response = case.call()
    assert response.status_code < 500, response.text
    case.validate_response(response, excluded_checks=[positive_data_acceptance])
