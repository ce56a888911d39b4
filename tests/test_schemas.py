"""The JSON Schemas: valid 2020-12, documented on every property for editor completion, closed
to unknown keys, in step with the effect declarations and with the model's defaults."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import yaml

from stargazer_rules.rulesets import schemas
from stargazer_rules.rulesets.model import CrewCard, PlanetCard
from stargazer_rules.rulesets.resources import cards_dir, schemas_dir
from stargazer_rules.rulesets.schemas import CREW_SCHEMA_FILE, crew_schema, load_schema, schema_text
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, extend_effect_types

from ruleset_edits import TakeCubesBack

NAMES = ("rules", "planets", "crew")


def _walk(schema: Any, where: str = "#") -> Iterator[tuple[str, dict]]:
    """Every sub-schema that documents instances, with its location; ``if`` conditions (which
    only test a value) are left out."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            if key in ("if", "const", "enum", "default", "required"):
                continue
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _walk(item, f"{where}/{index}")


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_valid_draft_2020_12_with_id_and_title(name):
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"urn:stargazer-rules:schemas:{name}.schema.json"
    assert schema["title"] and schema["description"]


@pytest.mark.parametrize("name", NAMES)
def test_every_property_has_a_description(name):
    """A YAML language server shows these as the designer types."""
    missing = [
        f"{where}/properties/{key}"
        for where, schema in _walk(load_schema(name))
        for key, sub in schema.get("properties", {}).items()
        if isinstance(schema.get("properties"), dict) and "description" not in sub
    ]
    assert missing == []


@pytest.mark.parametrize("name", NAMES)
def test_every_object_is_closed_to_unknown_keys(name):
    """additionalProperties: false everywhere, so a misspelt key is an error; the effect
    schema dispatches on ``effect`` and closes each type's properties in its ``then``."""
    open_objects = [
        where
        for where, schema in _walk(load_schema(name))
        if "properties" in schema
        and schema.get("additionalProperties") is not False
        and where != "#/$defs/effect"
    ]
    assert open_objects == []
    for rule in load_schema("crew")["$defs"]["effect"]["allOf"]:
        assert rule["then"]["additionalProperties"] is False


#: Keywords that mean the same in draft 2020-12 and draft-07. The YAML language server behind
#: editors implements draft-07 (newer drafts only in part), so the schemas use nothing else.
_PORTABLE_KEYWORDS = {
    # anyOf: the rules language's expressions (an amount is a number or an expression); JSON
    # Schema has it since draft 4, and YAML language servers complete and check it.
    "anyOf",
    "$defs",
    "$id",
    "$ref",
    "$schema",
    "additionalProperties",
    "allOf",
    "const",
    "default",
    "description",
    "enum",
    "if",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "pattern",
    "properties",
    # propertyNames: rules.yaml's end names its triggers by its keys (draft-06 on, the same in
    # draft-07 and 2020-12).
    "propertyNames",
    "required",
    "then",
    "title",
    "type",
}


def _keywords(schema: Any) -> Iterator[str]:
    """Every keyword used in ``schema``; the names under properties and $defs are not keywords."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key
            if key in ("properties", "$defs"):
                for sub in value.values():
                    yield from _keywords(sub)
            elif key not in ("enum", "const", "default", "required"):
                yield from _keywords(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _keywords(item)


@pytest.mark.parametrize("name", NAMES)
def test_schema_uses_only_keywords_editors_understand(name):
    assert set(_keywords(load_schema(name))) <= _PORTABLE_KEYWORDS


def test_crew_schema_file_equals_the_generated_schema():
    """schemas/crew.schema.json is ``crew_schema()``: regenerate it with --write."""
    on_disk = (schemas_dir() / CREW_SCHEMA_FILE).read_text(encoding="utf-8")
    assert json.loads(on_disk) == crew_schema()
    assert on_disk == schema_text(crew_schema())


def test_schemas_check_command_passes(capsys):
    assert schemas.main(["--check"]) == 0
    assert "is up to date" in capsys.readouterr().out


def test_schemas_module_runs_as_a_command_without_warnings():
    """``python -m stargazer_rules.rulesets.schemas --check`` as a developer or CI runs it."""
    result = subprocess.run(
        [sys.executable, "-W", "error", "-m", "stargazer_rules.rulesets.schemas", "--check"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")


def test_schemas_write_command_writes_the_generated_text(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(schemas, "schemas_dir", lambda: tmp_path)
    assert schemas.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().err
    assert schemas.main(["--write"]) == 0
    assert (tmp_path / CREW_SCHEMA_FILE).read_text(encoding="utf-8") == schema_text(crew_schema())
    assert schemas.main(["--check"]) == 0


def test_crew_schema_lists_every_registered_effect():
    names = crew_schema()["$defs"]["effect"]["properties"]["effect"]["enum"]
    assert names == list(EFFECT_TYPES)
    extended = crew_schema(extend_effect_types(EFFECT_TYPES, TakeCubesBack))
    assert extended["$defs"]["effect"]["properties"]["effect"]["enum"] == sorted(
        [*EFFECT_TYPES, "take_cubes_back"]
    )


def test_crew_schema_is_a_fresh_dict_each_time():
    first = crew_schema()
    first["$defs"]["name"]["properties"]["ja"]["description"] = "changed"
    assert crew_schema()["$defs"]["name"]["properties"]["ja"]["description"] == "The Japanese name."


def test_names_are_the_same_in_every_schema():
    """The bilingual name is written three times; keep the copies equal."""
    assert load_schema("rules")["$defs"]["name"] == load_schema("planets")["$defs"]["name"]
    assert load_schema("planets")["$defs"]["name"] == crew_schema()["$defs"]["name"]


def test_load_schema_takes_a_short_name_or_a_file_name():
    assert load_schema("rules") == load_schema("rules.schema.json")


def test_schema_defaults_are_the_model_defaults():
    """R3 special_capacity 1; placeholder and always_in_play false: schema and model agree."""
    planet = load_schema("planets")["$defs"]["planet"]["properties"]
    crew = crew_schema()["$defs"]["crew_card"]["properties"]
    planet_fields = attrs.fields_dict(PlanetCard)
    crew_fields = attrs.fields_dict(CrewCard)
    assert planet["special_capacity"]["default"] == planet_fields["special_capacity"].default == 1
    assert planet["placeholder"]["default"] is planet_fields["placeholder"].default is False
    assert crew["always_in_play"]["default"] is crew_fields["always_in_play"].default is False
    assert crew["placeholder"]["default"] is crew_fields["placeholder"].default is False


_MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.mark.parametrize("ruleset", ["draft7", "base"])
@pytest.mark.parametrize("name", NAMES)
def test_bundled_file_names_its_schema_for_editors(ruleset, name):
    """The modeline on line 1 points at the schema file (from the source checkout)."""
    path = cards_dir() / ruleset / f"{name}.yaml"
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    match = _MODELINE.match(first_line)
    assert match is not None
    assert match.group(1) == f"../../../schemas/{name}.schema.json"


@pytest.mark.parametrize("ruleset", ["draft7", "base"])
@pytest.mark.parametrize("name", NAMES)
def test_bundled_file_is_valid_against_its_schema_file(ruleset, name):
    """What an editor checks is what the loader checks."""
    data = yaml.safe_load((cards_dir() / ruleset / f"{name}.yaml").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(load_schema(name))
    assert [error.message for error in validator.iter_errors(data)] == []
