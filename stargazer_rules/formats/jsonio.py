"""Plain-JSON forms of the values front ends exchange: states, actions, events, sheets, setups.

One front for the modules that do the work, each for one job: ``schema_checks`` (the schemas
and the wording of their errors), ``ruleset_identity`` (the ruleset a document belongs to),
``actions_json``, ``values_json`` (events, setups, score sheets) and ``states_json`` (states,
and the state schema narrowed to a ruleset). Code inside the library imports from those.

A JSON form holds only dicts, lists, strings, integers, booleans and None, and names cards by
id and players by seat where the engine uses positions (ring position, crew slot). Each form
has a JSON Schema under ``schemas/`` (``<kind>.schema.json``); every ``*_to_json`` output
validates against it, and every ``*_from_json`` checks its input against it first.

Reading is strict: a ``*_from_json`` raises ``RecordError`` listing every problem found, each
at its JSON path (``$.planets[2].track``): schema errors, unknown ids, cube counts that break
conservation, a track longer than its planet, a ``legal`` list that disagrees with the rules.
A state belongs to its ruleset: its document carries the ruleset's fingerprint, and reading it
under another ruleset is refused.

Conventions, also in docs/api.md:

- a free cube's owner is ``-1`` (the virtual player, as in events and score sheets);
- a crew without a worker has ``"worker": null``;
- directions are ``"clockwise"`` and ``"counter_clockwise"``.
"""

from __future__ import annotations

from stargazer_rules.formats.actions_json import action_from_json, action_to_json
from stargazer_rules.formats.ruleset_identity import check_ruleset
from stargazer_rules.formats.schema_checks import (
    MAX_CHECKED,
    FILE_SCHEMA_KINDS,
    SCHEMA_KINDS,
    StrictValidator,
    problem_lines,
    schema,
    schema_problems,
    schema_registry,
    validate,
)
from stargazer_rules.formats.states_json import (
    state_from_json,
    state_schema_for,
    state_schema_problems,
    state_to_json,
    unproven_values,
)
from stargazer_rules.formats.values_json import (
    event_from_json,
    event_to_json,
    score_sheet_from_json,
    score_sheet_to_json,
    setup_from_json,
    setup_to_json,
)

__all__ = [
    "MAX_CHECKED",
    "FILE_SCHEMA_KINDS",
    "SCHEMA_KINDS",
    "StrictValidator",
    "action_from_json",
    "action_to_json",
    "check_ruleset",
    "event_from_json",
    "event_to_json",
    "problem_lines",
    "schema",
    "schema_problems",
    "schema_registry",
    "score_sheet_from_json",
    "score_sheet_to_json",
    "setup_from_json",
    "setup_to_json",
    "state_from_json",
    "state_schema_for",
    "state_schema_problems",
    "state_to_json",
    "unproven_values",
    "validate",
]
