"""The contract (``stargazer_rules/contract/``): what crosses between the engines is declared once,
and everything generated from it is current (``python -m stargazer_rules.kernel.contract
--check``); each side reads the declarations (the state's fields by name, the knobs by name,
the events' keys and schema)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
import yaml

from stargazer_rules import Game, load_ruleset
from stargazer_rules.contract.enums import ACTION_KINDS, STAGES
from stargazer_rules.contract.events import EVENTS
from stargazer_rules.contract.knobs import KNOBS, Knob
from stargazer_rules.contract.limits import LIMIT
from stargazer_rules.contract.state import STATE_FIELD_NAMES, STATE_FIELDS
from stargazer_rules.errors import RulesetError
from stargazer_rules.kernel import contract, native
from stargazer_rules.kernel.compiled import CompiledKnobs, compile_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import cards_dir
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary import table
from stargazer_rules.vocabulary.events import EVENT_KEYS
from stargazer_rules.vocabulary.table import State

ROOT = Path(__file__).resolve().parent.parent


def write_ruleset(folder: Path) -> Path:
    """A copy of draft 7's folder to edit."""
    shutil.copytree(cards_dir() / "draft7", folder)
    return folder


@functools.cache
def draft7() -> Game:
    return Game(load_ruleset())


def test_every_generated_file_is_current() -> None:
    """What CI and a fresh clone run: exit 0 and say so."""
    done = subprocess.run(
        [sys.executable, "-m", "stargazer_rules.kernel.contract", "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the 6 files generated from the contract are up to date\n"


def test_a_new_knob_makes_the_kernel_the_bindings_and_the_rules_schema_stale(monkeypatch) -> None:
    """One declaration reaches every generated file it belongs to, and --check names each."""
    knob = Knob("hand_limit", ("setup", "hand_limit"), 1, 99, "The most cubes a hand holds.", "count_hand_limit", kernel_most=99)
    monkeypatch.setattr(contract, "KNOBS", (*KNOBS, knob))
    names = sorted(path.name for path in contract.stale())
    assert names == ["contract.rs", "contract.rs", "rules.schema.json"]
    generated = contract.generated()
    kernel = generated[ROOT / "crates" / "kernel" / "src" / "contract.rs"]
    assert "    /// setup.hand_limit\n    pub hand_limit: i64,\n" in kernel
    assert '            hand_limit: within(self.hand_limit, "setup.hand_limit", 99)?,\n' in kernel
    assert '        hand_limit: knobs.get("hand_limit")?,\n' in generated[ROOT / "crates" / "python" / "src" / "contract.rs"]
    schema = json.loads(generated[ROOT / "schemas" / "rules.schema.json"])
    assert schema["properties"]["setup"]["properties"]["hand_limit"] == {
        "description": "The most cubes a hand holds.", "type": "integer", "minimum": 1, "maximum": 99,
    }


def test_check_exits_1_naming_the_stale_file(monkeypatch, capsys) -> None:
    monkeypatch.setattr(contract, "EVENTS", EVENTS[:-1])
    assert contract.main(["--check"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{ROOT / 'schemas' / 'event.schema.json'} is out of date; run: python -m stargazer_rules.kernel.contract --write"
    ]


def test_the_python_side_is_built_from_the_declarations() -> None:
    assert State._fields == STATE_FIELD_NAMES
    assert {field.name: field.python_type for field in STATE_FIELDS} == State.__annotations__
    assert tuple(EVENT_KEYS) == tuple(event.key for event in EVENTS)
    assert all(EVENT_KEYS[event.key] == tuple(param.name for param in event.params) for event in EVENTS)
    assert sorted(A.KINDS) == sorted(ACTION_KINDS.names)
    assert {table.PICK_CREW, table.BEFORE_SURVEY, table.SURVEYING, table.AFTER_SURVEY_STAGE, table.ROUND_END_STAGE, table.SETUP_STAGE, table.OVER} == set(STAGES.names)
    assert tuple(field.name for field in attrs.fields(CompiledKnobs)) == tuple(knob.name for knob in KNOBS)
    assert {knob.name for knob in KNOBS} <= {field.name for field in attrs.fields(Ruleset)}


def test_the_schemas_say_what_the_contract_declares() -> None:
    event = json.loads((ROOT / "schemas" / "event.schema.json").read_text(encoding="utf-8"))
    assert event["properties"]["key"]["enum"] == sorted(EVENT_KEYS)
    assert {key: tuple(spec["properties"])[1:] for key, spec in event["$defs"].items()} == dict(EVENT_KEYS)
    rules = json.loads((ROOT / "schemas" / "rules.schema.json").read_text(encoding="utf-8"))
    assert rules["properties"]["end"]["maxProperties"] == LIMIT["MOST_END_TRIGGERS"] == 7
    assert rules["properties"]["motivation"]["properties"]["player_cube_vp"] == KNOBS[3].schema()
    state = json.loads((ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8"))
    assert state["properties"]["stage"]["enum"] == list(STAGES.names)


def test_the_kernel_reads_and_writes_a_state_by_the_fields_names() -> None:
    game = draft7()
    state = game.new_state(players=4, seed=3)
    for act in game.legal_actions(state)[:1]:
        state = game.apply(state, act)[0]
    kernel_state = native.to_kernel(game, state)
    fields = kernel_state.fields()
    assert sorted(fields) == sorted(STATE_FIELD_NAMES)
    assert native.from_kernel(kernel_state) == state


def test_a_state_without_a_declared_field_is_refused_naming_it() -> None:
    game = draft7()
    state = game.new_state(players=3, seed=1)

    class Missing:
        def __getattr__(self, name: str):
            if name == "queue":
                raise AttributeError(name)
            return getattr(state, name)

    with pytest.raises(Exception, match=r"not a state of this ruleset: a state has a field queue"):
        native.to_kernel(game, Missing())  # type: ignore[arg-type]


@pytest.mark.parametrize("knob", KNOBS, ids=lambda knob: knob.name)
def test_each_knob_is_read_at_its_path_and_crosses_by_its_name(tmp_path, knob: Knob) -> None:
    """A value inside the schema's range, at the knob's rules.yaml path, reaches the ruleset,
    the compiled ruleset the kernel reads and back; min-1 and max+1 are refused there."""
    folder = write_ruleset(tmp_path / "r")
    rules_file = folder / "rules.yaml"
    data = yaml.safe_load(rules_file.read_text(encoding="utf-8"))
    section = data
    for key in knob.path[:-1]:
        section = section.setdefault(key, {})
    value = knob.minimum + 1 if knob.minimum + 1 <= knob.maximum else knob.minimum
    section[knob.path[-1]] = value
    rules_file.write_text(yaml.safe_dump(data), encoding="utf-8")
    ruleset = load_ruleset(folder)
    assert getattr(ruleset, knob.name) == value
    assert getattr(compile_ruleset(Game(ruleset)).knobs, knob.name) == value
    for beyond in (knob.minimum - 1, knob.maximum + 1):
        section[knob.path[-1]] = beyond
        rules_file.write_text(yaml.safe_dump(data), encoding="utf-8")
        with pytest.raises(RulesetError, match=knob.path[-1]):
            load_ruleset(folder)


def test_a_knob_left_out_takes_its_declared_default(tmp_path) -> None:
    folder = write_ruleset(tmp_path / "r")
    rules_file = folder / "rules.yaml"
    data = yaml.safe_load(rules_file.read_text(encoding="utf-8"))
    data.pop("max_rounds", None)
    data.pop("survey", None)
    rules_file.write_text(yaml.safe_dump(data), encoding="utf-8")
    ruleset = load_ruleset(folder)
    assert (ruleset.max_rounds, ruleset.survey_minimum) == (30, 0)
    assert [knob.default for knob in KNOBS if knob.default is not None] == [0, 30]
