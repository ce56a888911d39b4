"""docs/skills.md against the code: the same effect types, the declared parameters, working examples.

Three lists of effect names must agree: the registry (``EFFECT_TYPES``), the crew schema's
``effect`` enum (schemas/crew.schema.json) and the ``## `name` `` headings of docs/skills.md.
Each type's reference block (summary, parameter table, timings) is generated from its
declarations by ``reference`` and must appear in the doc word for word; every YAML example
must load in a copy of draft7 and read as the sentence the doc shows. The worked example of a
custom effect type runs as a doctest of the doc itself (``python -m pytest docs/skills.md``).

To refresh a reference block after changing a declaration: ``python tests/test_skills_doc.py``
prints them all.
"""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path
from typing import Any

import yaml

from stargazer_rules.rulesets.loader import load_ruleset
from stargazer_rules.text.messages import describe_skill
from stargazer_rules.text.catalogue import catalogue
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary import expressions as X
from stargazer_rules.vocabulary.effects import EFFECT_TYPES, REQUIRED, Effect, Param

try:  # run as a script to print the reference blocks
    from ruleset_edits import copy_ruleset, replace
except ImportError:  # pragma: no cover
    copy_ruleset = replace = None  # type: ignore[assignment]

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "skills.md"
CREW_SCHEMA = REPO / "schemas" / "crew.schema.json"

_HEADING = re.compile(r"^## `([a-z_]+)`$", re.MULTILINE)
_YAML_BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)
_READS = re.compile(r"^Reads: \*(.+)\*$", re.MULTILINE)


def reference(cls: type[Effect]) -> str:
    """The part of an effect type's section generated from its declarations."""
    lines = [cls.summary, ""]
    if cls.params:
        lines += ["| parameter | type | default | description |", "| --- | --- | --- | --- |"]
        lines += [
            f"| `{p.name}` | {_type(p)} | {_default(p)} | {p.description} |" for p in cls.params
        ]
    else:
        lines.append("No parameters.")
    timings = ", ".join(
        f"`{timing}`" + (" (default)" if index == 0 else "")
        for index, timing in enumerate(cls.timings)
    )
    lines += ["", f"Timings (`when`): {timings}."]
    return "\n".join(lines)


def _type(param: Param) -> str:
    if param.kind == "integer":
        return "integer" if param.minimum is None else f"integer >= {param.minimum}"
    if param.kind == "choice":
        return "one of " + ", ".join(f"`{choice}`" for choice in param.choices)
    if param.kind == "colour":
        return "colour id"
    if param.kind == "options":
        return f"list of at least {param.minimum or 1} effect lists"
    if param.kind == "effects":
        return "list of effects"
    if param.kind == "amount":
        return "amount" if param.minimum is None else f"amount (a number >= {param.minimum})"
    if param.kind in ("condition", "planets", "seats", "crews", "owner"):
        return {"condition": "condition", "planets": "set of Planets", "seats": "set of seats", "crews": "set of crews", "owner": "owner"}[param.kind]
    raise AssertionError(f"no doc type for parameter kind {param.kind!r}")


def _default(param: Param) -> str:
    if param.required_when is not None:
        other, value = param.required_when
        return f"required when `{other}` is `{value}`"
    if param.default is REQUIRED:
        return "required"
    if param.default is None:
        return "none"
    if isinstance(param.default, dict):
        return "`" + yaml.safe_dump(param.default, default_flow_style=True).strip() + "`"
    if param.default == ():
        return "none"
    return f"`{param.default}`"


def sections() -> dict[str, str]:
    """The doc's effect sections by effect name: the text from the heading to the next one."""
    text = DOC.read_text(encoding="utf-8")
    found = {}
    for match in _HEADING.finditer(text):
        end = text.find("\n## ", match.end())
        found[match.group(1)] = text[match.end() : end if end >= 0 else len(text)]
    return found


def test_registry_schema_and_doc_list_the_same_effect_types():
    schema = json.loads(CREW_SCHEMA.read_text(encoding="utf-8"))
    enum = schema["$defs"]["effect"]["properties"]["effect"]["enum"]
    headings = _HEADING.findall(DOC.read_text(encoding="utf-8"))
    assert len(headings) == len(set(headings))
    assert set(EFFECT_TYPES) == set(enum) == set(headings)
    assert headings == sorted(headings)


def test_each_section_shows_the_declared_summary_parameters_and_timings():
    """The parameter table lists exactly the declared params, with type, default and text."""
    for name, section in sections().items():
        assert reference(EFFECT_TYPES[name]) in section, (
            f"docs/skills.md, {name}:\n{reference(EFFECT_TYPES[name])}"
        )


def _effect_names(effects: list[dict[str, Any]]):
    """The effect names of a skill, nested ones included (options, branches, bodies)."""
    for effect in effects:
        yield effect["effect"]
        for value in effect.values():
            if isinstance(value, list) and value and isinstance(value[0], dict) and "effect" in value[0]:
                yield from _effect_names(value)
            elif isinstance(value, list) and value and isinstance(value[0], list):
                for option in value:
                    yield from _effect_names(option)


def _examples() -> list[tuple[str, list[dict[str, Any]], str]]:
    """(effect name, skill, the sentence the doc says it reads as) for every example."""
    examples = []
    for name, section in sections().items():
        blocks = _YAML_BLOCK.findall(section)
        reads = _READS.findall(section)
        assert len(blocks) == 1 and len(reads) == 1, (
            f"{name}: one YAML example and one 'Reads:' line"
        )
        skill = yaml.safe_load(blocks[0])
        assert isinstance(skill, list), f"{name}: the example is a skill, a list of effects"
        assert name in set(_effect_names(skill)), f"{name}: the example uses {name}"
        examples.append((name, skill, reads[0]))
    return examples


def test_every_yaml_example_loads_and_reads_as_the_doc_says(tmp_path):
    """Each example is the skill of a crew in a copy of draft7, which must load without a problem."""
    folder = copy_ruleset(tmp_path, to="examples")
    crew = yaml.safe_load((folder / "crew.yaml").read_text(encoding="utf-8"))
    examples = _examples()
    for name, skill, _reads in examples:
        crew["crew"].append(
            {
                "id": f"example-{name.replace('_', '-')}",
                "name": {"ja": name, "en": name},
                "survey_count": 2,
                "skill": skill,
            }
        )
    (folder / "crew.yaml").write_text(yaml.safe_dump(crew, allow_unicode=True), encoding="utf-8")
    ruleset = load_ruleset(folder)
    for name, _skill, reads in examples:
        card = ruleset.crew_card(f"example-{name.replace('_', '-')}")
        assert describe_skill(card, ruleset, "en") == reads, name


def test_the_custom_effect_example_runs_end_to_end():
    """The "Adding an effect type" example defines, registers, loads and plays a new type."""
    text = DOC.read_text(encoding="utf-8")
    example = text[text.index("## Adding an effect type") :]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(example, {}, "skills.md: Adding an effect type", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: None)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "run python -m pytest docs/skills.md to see the failure"
    assert result.attempted >= 20
    assert "extend_effect_types(EFFECT_TYPES, SurveyReward)" in example
    assert "load_ruleset(folder, effect_types=effect_types)" in example


if __name__ == "__main__":  # pragma: no cover
    for effect_name, effect_cls in EFFECT_TYPES.items():
        print(f"## `{effect_name}`\n\n{reference(effect_cls)}\n")


# -- the rules language's tables --------------------------------------------------------------

LANGUAGE_SECTIONS = {X.AMOUNT: "amounts", X.CONDITION: "conditions", X.PLANETS: "planet_sets", X.SEATS: "seat_sets", X.CREWS: "crew_sets"}

def _takes(value):
    if value is None:
        return "a bare word"
    if value in X.KINDS:
        return {"amount": "an amount", "condition": "a condition", "planets": "a set of Planets", "seats": "a set of seats", "crews": "a set of crews"}[value]
    if value == X.PAIR:
        return "`[a, b]`, two amounts"
    if value == X.COLOUR:
        return "a colour id"
    if value == X.OWNER_VALUE:
        return "an owner"
    if value == X.CUBES_VALUE:
        return "`{owner, squares, planets}`, each optional"
    if value == X.WHERE_VALUE:
        return "`{where: <condition>, from: <set>}`"
    if value == X.EXTREME_VALUE:
        return "`{seats: <set>, amount: <amount>}` (or `planets`, `crews`)"
    _, kind, least = value
    return f"a list of at least {least} {'amounts' if kind == X.AMOUNT else 'conditions'}"

def language_table(kind):
    """The doc's table of the words of one kind of expression, from the grammar and the catalogue."""
    phrases = catalogue().section(LANGUAGE_SECTIONS[kind])
    rows = ["| word | takes | reads (en) | reads (ja) |", "| --- | --- | --- | --- |"]
    for word, value in X.GRAMMAR[kind].items():
        t = phrases[word]
        en = t.texts.get("en") or t.cases[0].texts["en"]
        ja = t.texts.get("ja") or t.cases[0].texts["ja"]
        rows.append(f"| `{word}` | {_takes(value)} | {en} | {ja} |")
    return "\n".join(rows)



def test_the_language_tables_are_the_grammar_and_its_phrases():
    """Each kind's table in "The rules language" lists exactly the grammar's words, as generated."""
    text = DOC.read_text(encoding="utf-8")
    for kind in X.KINDS:
        assert language_table(kind) in text, f"docs/skills.md, the {kind} table:\n{language_table(kind)}"


def _section(title: str) -> str:
    """The doc's ``## title`` section, up to the next ``## `` heading."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_crew_trigger_table_lists_the_events_and_its_examples_read_as_the_doc_says(tmp_path):
    """"Crew triggers": one table row per crew event (``CREW_EVENTS``, in order), and each YAML
    example, as the informant's triggers in a copy of the ideas ruleset, loads and reads as its
    "Reads:" line."""
    section = _section("Crew triggers")
    rows = re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE)
    assert tuple(rows) == AB.CREW_EVENTS
    blocks, reads = _YAML_BLOCK.findall(section), _READS.findall(section)
    assert len(blocks) == len(reads) >= 2
    informant = "      - on: another_pick\n        do:\n          - effect: gain_vp\n            vp: 1\n"
    for number, (block, said) in enumerate(zip(blocks, reads)):
        triggers = block[block.index("triggers:\n") + len("triggers:\n") :]  # its items, as written
        folder = copy_ruleset(tmp_path, "ideas", str(number))
        replace(folder, "crew.yaml", informant, triggers)
        ruleset = load_ruleset(folder)
        assert describe_skill(ruleset.crew_card("informant"), ruleset, "en") == said
