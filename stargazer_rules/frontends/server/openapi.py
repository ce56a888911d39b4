"""The OpenAPI 3.1 document of the JSON API, built from the same JSON Schemas the server checks.

One source: each ``POST /api/<endpoint>`` takes the request schema the server validates with
(``schemas/<endpoint>.request.schema.json``), the library's schemas (state, action, event,
setup, score sheet, record) become components, and each response is described here from the
same components, so that ``GET /openapi.json`` cannot drift from what the server checks and
answers (a schemathesis run in the tests holds the server to it).

OpenAPI 3.1 schemas are JSON Schema 2020-12, so the schemas go in as they are; only their
references are rewritten: ``urn:stargazer-rules:schemas:state.schema.json`` becomes
``#/components/schemas/state``, and a schema's own ``#/$defs/crew`` becomes the component
``state.crew``.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from stargazer_rules.engine.seeds import MAX_SEED
from stargazer_rules.formats import schema_checks
from stargazer_rules.formats.signing import SIGNATURE_PATTERN
from stargazer_rules.frontends.server.service import ENDPOINTS, request_schema
from stargazer_rules.text.messages import LANGS

__all__ = ["openapi_document"]

_LIBRARY_URN = "urn:stargazer-rules:schemas:{}.schema.json"
_COMPONENT = "#/components/schemas/{}"

_SUMMARIES = {
    "new": "A new game: the setup and the first position",
    "legal": "The legal actions of a state, described",
    "apply": "Play an action: the next position and the events",
    "bot": "A bot's action, played: the next position and the events",
    "score": "The score sheet of a state and who wins it",
    "record": "The game record of a setup and its actions",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _COMPONENT.format(name)}


def _rewrite(node: Any, kind: str | None) -> Any:
    """``node`` with library URNs and ``#/$defs/`` references pointing into the components."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("$id", "$schema", "$defs"):
                continue
            if key == "$ref" and isinstance(value, str):
                if value.startswith("#/$defs/") and kind is not None:
                    value = _COMPONENT.format(f"{kind}.{value.removeprefix('#/$defs/')}")
                else:
                    for library in schema_checks.SCHEMA_KINDS:
                        if value == _LIBRARY_URN.format(library):
                            value = _COMPONENT.format(library)
            out[key] = _rewrite(value, kind)
        return out
    if isinstance(node, list):
        return [_rewrite(item, kind) for item in node]
    return node


def _text() -> dict[str, Any]:
    return {
        "description": "A text in Japanese and in English.",
        "type": "object",
        "properties": {"ja": {"type": "string"}, "en": {"type": "string"}},
        "required": ["ja", "en"],
        "additionalProperties": False,
    }


def _object(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "description": description,
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _position_properties() -> dict[str, Any]:
    return {
        "state": _ref("state"),
        "signature": {
            "description": "The server's signature of the state: send it back with the state.",
            "type": "string",
            "pattern": SIGNATURE_PATTERN,
        },
        "current_player": {"type": ["integer", "null"], "minimum": 0},
        "over": {"type": "boolean"},
        "legal": {
            "type": "array",
            "items": _object({"action": _ref("action"), "text": _ref("text")}, "A legal action, described."),
        },
        "score": _ref("score"),
    }


def _events() -> dict[str, Any]:
    return {
        "type": "array",
        "items": _object({"event": _ref("event"), "text": _ref("text")}, "An event, as data and as text."),
    }


def _responses() -> dict[str, dict[str, Any]]:
    """The body of each endpoint's 200 answer."""
    position = _position_properties()
    return {
        "new": _object(
            {
                "setup": _ref("setup"),
                "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": MAX_SEED},
                **position,
                "events": {"type": "array", "maxItems": 0},
            },
            "The setup and the first position.",
        ),
        "legal": _object(
            {
                "current_player": {"type": ["integer", "null"], "minimum": 0},
                "stage": {"type": "string"},
                "actions": {
                    "type": "array",
                    "items": _object(
                        {"action": _ref("action"), "description": {"type": "string"}},
                        "A legal action and its description in the asked language.",
                    ),
                },
            },
            "The legal actions of the state.",
        ),
        "apply": _object({**position, "events": _events()}, "The next position and the events."),
        "bot": _object(
            {
                "bot": {"type": "string"},
                "player": {"type": "integer", "minimum": 0},
                "action": _ref("action"),
                "action_text": _ref("text"),
                **position,
                "events": _events(),
            },
            "The bot's action, then the next position and the events.",
        ),
        "score": _ref("score"),
        "record": _ref("record"),
    }


def _error_response(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref("error")}}}


_REFUSALS = {
    "400": "The body is not UTF-8 JSON, is nested too deeply, or holds a number too long to read.",
    "413": "The body is over 1 MiB.",
    "415": "The body is not sent with Content-Type: application/json.",
    "422": "The schema or the rules refuse the body: the reason, at its JSON path.",
    "503": "The request did not finish within the server's time limit.",
}


def _json_answer(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


@functools.cache
def _document() -> dict[str, Any]:
    components: dict[str, Any] = {}
    for kind in schema_checks.SCHEMA_KINDS:
        schema = schema_checks.schema(kind)
        for name, definition in schema.get("$defs", {}).items():
            components[f"{kind}.{name}"] = _rewrite(definition, kind)
        components[kind] = _rewrite(schema, kind)
    components["text"] = _text()
    components["text_table"] = _object(
        {
            "headers": {"type": ["array", "null"], "items": {"type": "string"}},
            "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "totals": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        },
        "A table of text cells (text.tables.TextTable): the header row or null, the rows, the indices of the total rows.",
    )
    components["score"] = _object(
        {
            "sheet": _ref("score_sheet"),
            "winner": _ref("text"),
            "title": _ref("text"),
            "table": _object(
                {lang: _ref("text_table") for lang in LANGS},
                "The score sheet as the terminal prints it, in Japanese and in English.",
            ),
        },
        "The score sheet (final when the game is over) as data and as a table, its title, and who wins it.",
    )
    components["error"] = {
        "description": "A refusal: its kind, the reason, and the JSON path it is about.",
        "type": "object",
        "properties": {"error": {"type": "string"}, "message": {"type": "string"}, "at": {"type": "string"}},
        "required": ["error", "message"],
        "additionalProperties": False,
    }
    responses = _responses()
    paths: dict[str, Any] = {}
    for endpoint in ENDPOINTS:
        request = _rewrite(request_schema(endpoint), None)
        components[f"{endpoint}.request"] = request
        components[f"{endpoint}.response"] = responses[endpoint]
        paths[f"/api/{endpoint}"] = {
            "post": {
                "operationId": endpoint,
                "summary": _SUMMARIES[endpoint],
                "description": request.get("description", ""),
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref(f"{endpoint}.request")}},
                },
                "responses": {
                    "200": _json_answer("The answer.", _ref(f"{endpoint}.response")),
                    **{status: _error_response(text) for status, text in _REFUSALS.items()},
                },
            }
        }
    loose = {"type": "object"}
    paths["/api/ruleset"] = {
        "get": {
            "operationId": "ruleset",
            "summary": "The ruleset as data, with names and skill sentences in Japanese and English",
            "responses": {"200": _json_answer("The ruleset.", loose)},
        }
    }
    paths["/api/messages"] = {
        "get": {
            "operationId": "messages",
            "summary": "The message catalogue and the page's words",
            "responses": {"200": _json_answer("The catalogue.", loose)},
        }
    }
    paths["/api/schemas/{name}"] = {
        "get": {
            "operationId": "schema",
            "summary": "A request schema or a library schema",
            "parameters": [
                {
                    "name": "name",
                    "in": "path",
                    "required": True,
                    "schema": {"type": "string", "enum": [*ENDPOINTS, *schema_checks.SCHEMA_KINDS]},
                }
            ],
            "responses": {"200": _json_answer("The JSON Schema.", loose), "404": _error_response("No such schema.")},
        }
    }
    paths["/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {"200": _json_answer("The OpenAPI document.", loose)},
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Stargazer rules JSON API",
            "version": "1",
            "description": (
                "The rules of Stargazer as a stateless JSON API: the client keeps each state with "
                "its signature and sends both back. See docs/embedding.md."
            ),
        },
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": paths,
        "components": {"schemas": components},
    }


def openapi_document(state_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the JSON API (a fresh copy each call).

    ``state_schema`` replaces the library's state schema: a server gives the one narrowed to
    its ruleset (``jsonio.state_schema_for``), which is what it checks bodies against.
    """
    document = copy.deepcopy(_document())
    if state_schema is not None:
        components = document["components"]["schemas"]
        for name, definition in state_schema.get("$defs", {}).items():
            components[f"state.{name}"] = _rewrite(definition, "state")
        components["state"] = _rewrite(state_schema, "state")
    return document
