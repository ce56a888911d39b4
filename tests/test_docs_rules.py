"""docs/rules.md stays true: every name it cites exists, every ruling has its section, and its
R20 table is the draft-7 crew data.

The page maps each ruling of RULES.md to code (``module.function``), knobs (``rules.yaml:
path``) and tests (``tests/file.py::test_name``); a rename anywhere breaks a reference, and this
test names the broken one.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import pkgutil
import re
import types
from pathlib import Path
from typing import Any

import pytest

import stargazer_rules
from stargazer_rules import load_ruleset
from stargazer_rules.vocabulary.effects import Effect

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
TEXT = DOC.read_text(encoding="utf-8")

#: Rulings of /work/shared/RULES.md: R1..R20.
RULINGS = range(1, 21)

#: Backticked text, as markdown writes code.
CODE_SPANS = re.findall(r"`([^`\n]+)`", TEXT)

#: The modules of the package, which ``module.function`` references start with.
MODULES = frozenset(info.name for info in pkgutil.iter_modules(stargazer_rules.__path__))

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_FILE_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".toml", ".txt")
_TEST_REF = re.compile(r"(tests/[\w/.-]+\.py)::(test_\w+)")
_BARE_TEST = re.compile(r"(?<![\w/:])test_[a-z0-9_]+\b(?!\.py)")
_PATH = re.compile(r"(?<![\w/])(?:crates|tests|docs|data|schemas|stargazer_rules|benchmarks)/[\w/.-]*\w")
_KNOB = re.compile(r"^(rules|planets|crew)\.yaml: (\S+)$")


# -- what exists ----------------------------------------------------------------------------


@functools.cache
def defined_tests(path: Path) -> frozenset[str]:
    """The names of the test functions a test file defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
    )


@functools.cache
def every_test_function() -> frozenset[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= defined_tests(path)
    return frozenset(names)


def resolve(reference: str) -> Any:
    """The object a ``module.name.attr`` reference names; raises when any part is missing.

    The module may sit in a subpackage (``engine.game.Game``): a name a package does not have
    is imported as its submodule.
    """
    parts = reference.split(".")
    if parts[0] == "stargazer_rules":
        parts = parts[1:]
    path = f"stargazer_rules.{parts[0]}"
    found: Any = importlib.import_module(path)
    for name in parts[1:]:
        path += f".{name}"
        if isinstance(found, types.ModuleType) and not hasattr(found, name):
            found = importlib.import_module(path)
        else:
            found = getattr(found, name)
    return found


def code_references() -> list[str]:
    """Every backticked ``module.function`` reference of the page (file names excluded)."""
    return sorted(
        {
            span
            for span in CODE_SPANS
            if _DOTTED.fullmatch(span) and not span.endswith(_FILE_SUFFIXES)
        }
    )


def sections(level: str) -> dict[str, str]:
    """The page's sections at a heading level (``##`` or ``###``): heading -> text."""
    pattern = re.compile(rf"^{level} (.+)$", re.MULTILINE)
    found = list(pattern.finditer(TEXT))
    result = {}
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(TEXT)
        following = re.search(rf"^#{{1,{len(level)}}} ", TEXT[match.end() : end], re.MULTILINE)
        stop = match.end() + following.start() if following else end
        result[match.group(1).strip()] = TEXT[match.end() : stop]
    return result


def ruling_sections() -> dict[int, str]:
    result = {}
    for heading, body in sections("##").items():
        match = re.fullmatch(r"R(\d+) .+", heading)
        if match:
            result[int(match.group(1))] = body
    return result


# -- references -----------------------------------------------------------------------------


def test_the_page_cites_code_tests_and_knobs():
    """The checks below have something to check: the page is not empty of references."""
    assert len(code_references()) > 50
    assert len(_TEST_REF.findall(TEXT)) > 100
    assert len([span for span in CODE_SPANS if _KNOB.match(span)]) > 20


@pytest.mark.parametrize("reference", code_references())
def test_every_cited_function_exists(reference):
    """Each ``module.function`` of the page names a module of the package and an attribute of it."""
    assert reference.split(".")[0] in MODULES | {"stargazer_rules"}, (
        f"docs/rules.md cites `{reference}`, but {reference.split('.')[0]!r} is not a module of "
        f"stargazer_rules ({', '.join(sorted(MODULES))})"
    )
    try:
        resolve(reference)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"docs/rules.md cites `{reference}`, which does not exist: {error}", pytrace=False)


def test_every_cited_test_exists_in_its_file():
    """Each ``tests/file.py::test_name`` names a test function that file defines."""
    missing = []
    for file, name in sorted(set(_TEST_REF.findall(TEXT))):
        path = ROOT / file
        if not path.is_file():
            missing.append(f"{file} (no such file)")
        elif name not in defined_tests(path):
            missing.append(f"{file}::{name}")
    assert not missing, f"docs/rules.md cites tests that do not exist: {missing}"


def test_every_bare_test_name_exists():
    """A test named without its file must still exist in some test file."""
    names = set(_BARE_TEST.findall(_TEST_REF.sub("", TEXT)))
    missing = sorted(names - every_test_function())
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_every_cited_file_exists():
    """Each path of the repository the page mentions is there."""
    missing = sorted({path for path in _PATH.findall(TEXT) if not (ROOT / path).exists()})
    assert not missing, f"docs/rules.md mentions files that do not exist: {missing}"


@functools.cache
def _schema(file: str) -> dict[str, Any]:
    return json.loads((ROOT / "schemas" / f"{file}.schema.json").read_text(encoding="utf-8"))


def _schema_child(root: dict[str, Any], node: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The schema of property ``key`` (or the items, for ``[]``) of ``node``, following $ref and
    the per-effect ``allOf`` branches of the crew schema."""
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if key == "[]":
        return node.get("items")
    if key in node.get("properties", {}):
        return node["properties"][key]
    for branch in node.get("allOf", ()):
        found = _schema_child(root, branch.get("then", {}), key)
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("knob", sorted({span for span in CODE_SPANS if _KNOB.match(span)}))
def test_every_cited_knob_is_a_key_of_its_file(knob):
    """Each ``file.yaml: path`` knob is a key its file's JSON Schema describes."""
    file, path = _KNOB.match(knob).groups()
    root = _schema(file)
    node: dict[str, Any] | None = root
    walked = []
    for key in re.findall(r"\[\]|[^.\[\]]+", path):
        node = _schema_child(root, node, key)
        walked.append(key)
        assert node is not None, f"docs/rules.md cites `{knob}`, but {file}.yaml has no {''.join(walked)}"


def test_named_sections_referred_to_elsewhere_exist():
    """Code, data and docs that point to 'docs/rules.md, "Section"' find that section."""
    headings = set(sections("##")) | set(sections("###"))
    pointers = []
    for pattern in ("stargazer_rules/*.py", "data/cards/*/*.yaml", "docs/*.md", "README.md"):
        for path in ROOT.glob(pattern):
            text = path.read_text(encoding="utf-8")
            pointers += [(path.name, name) for name in re.findall(r'docs/rules\.md, "([^"]+)"', text)]
    assert pointers, "nothing points into docs/rules.md any more: drop this test"
    missing = [pointer for pointer in pointers if pointer[1] not in headings]
    assert not missing, f"sections pointed to but missing from docs/rules.md: {missing}"


# -- sections -------------------------------------------------------------------------------


def test_every_ruling_has_exactly_one_section():
    """R1..R20 each have a '## Rn' section, in order, and there is no other ruling."""
    numbers = [int(n) for n in re.findall(r"^## R(\d+) ", TEXT, re.MULTILINE)]
    assert numbers == list(RULINGS)


@pytest.mark.parametrize("number", RULINGS)
def test_every_ruling_section_names_code_knobs_and_tests(number):
    """Each ruling's section says where it lives, its knobs (or none) and the tests that prove it."""
    found = ruling_sections()
    assert number in found, f"docs/rules.md has no section '## R{number} ...'"
    body = found[number]
    for label in ("**Code:**", "**Knobs:**", "**Tests:**"):
        assert f"- {label}" in body, f"R{number} has no {label} line"
    assert _TEST_REF.search(bullet(body, "Tests")), f"R{number} cites no test"
    code = re.findall(r"`([^`]+)`", bullet(body, "Code"))
    assert any(_DOTTED.fullmatch(span) for span in code), f"R{number} cites no code"
    knobs = bullet(body, "Knobs")
    assert knobs.startswith("none") or any(_KNOB.match(span) for span in re.findall(r"`([^`]+)`", knobs)), (
        f"R{number}: name its knobs or say none"
    )


def bullet(body: str, label: str) -> str:
    """The text of the ``- **Label:**`` bullet of a section, its continuation lines joined."""
    match = re.search(rf"^- \*\*{label}:\*\* ?(.*(?:\n  .*)*)", body, re.MULTILINE)
    assert match, f"no '- **{label}:**' bullet"
    return " ".join(line.strip() for line in match.group(1).splitlines())


def decision_sections() -> dict[str, str]:
    start = TEXT.index("## Decisions where the rulings are silent")
    end = TEXT.index("\n## ", start + 1)
    part = TEXT[start:end]
    found = list(re.finditer(r"^### (.+)$", part, re.MULTILINE))
    return {
        match.group(1): part[match.end() : found[i + 1].start() if i + 1 < len(found) else len(part)]
        for i, match in enumerate(found)
    }


def test_every_decision_says_where_how_tested_and_what_was_meant():
    """Each decision cites code and tests and says what the designer most plausibly meant."""
    decisions = decision_sections()
    assert len(decisions) >= 15
    for heading, body in decisions.items():
        assert "**Code:**" in body or "`rulesets.checks." in body, f"decision {heading!r} cites no code"
        assert _TEST_REF.search(body), f"decision {heading!r} cites no test"
        assert "most plausibly meant" in body.lower(), f"decision {heading!r} does not say what was meant"


def test_the_decisions_of_the_architecture_page_are_all_here():
    """docs/architecture.md says its decisions are recorded here too: each is a heading here."""
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    part = architecture[architecture.index("## Decisions where the rulings are silent") :]
    titles = [title.strip().rstrip(".").lower() for title in re.findall(r"^- \*\*(.+?)\*\*", part, re.MULTILINE)]
    assert titles
    headings = [heading.lower() for heading in decision_sections()]
    missing = [title for title in titles if not any(title in heading for heading in headings)]
    assert not missing, f"decisions of docs/architecture.md without a section in docs/rules.md: {missing}"


def test_the_decisions_named_in_the_brief_are_here():
    """The round limit, removed cubes, crew targets, round-end order, choose_one, R16 and the loader."""
    headings = " | ".join(decision_sections()).lower()
    for needle in (
        "round limit",
        "removed cubes",
        "place_on_crew",
        "add_free_cubes",
        "several round-end effects",
        "choose_one",
        "k - r + 1 < 1",
        "loader",
    ):
        assert needle in headings, needle
    round_limit = decision_sections().get("Round limit", "")
    assert "`rules.yaml: max_rounds`" in round_limit, "no '### Round limit' with its knob"


# -- R20: the reconstruction ----------------------------------------------------------------

#: The kinds of skill R20 requires, by the effects that demonstrate each.
R20_KINDS = {
    "special square": {"place_on_special"},
    "player cubes on crews": {"place_on_crew"},
    "lifts a placement limit": {"allow_repeat_planet", "may_skip_planets"},
    "free cubes on Planets": {"place_free_cubes"},
}


def _effect_names(effects: tuple[Effect, ...]) -> list[str]:
    """Effect names of a skill in order, options of ``choose_one`` after it."""
    names = []
    for effect in effects:
        names.append(effect.name)
        for option in effect.branches:
            names += _effect_names(option)
    return names


def r20_rows() -> list[dict[str, Any]]:
    """The rows of the R20 table: crew id, survey count, effect names, kind text."""
    body = ruling_sections()[20]
    rows = []
    for line in body.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        rows.append(
            {
                "crew": cells[0].strip("`"),
                "survey_count": int(cells[1]),
                "effects": re.findall(r"`([a-z_]+)`", cells[2]),
                "kind": cells[3],
            }
        )
    return rows


def test_r20_reconstruction_table_matches_the_draft7_crew():
    """R20: the table lists every reconstructed crew with its survey count and effects, as the data has them."""
    ruleset = load_ruleset("draft7")
    rows = r20_rows()
    reconstructed = [card for card in ruleset.crew if not card.always_in_play]
    assert [row["crew"] for row in rows] == [card.id for card in reconstructed]
    for row, card in zip(rows, reconstructed):
        assert (row["survey_count"], row["effects"]) == (card.survey_count, _effect_names(card.skill)), card.id
        assert card.placeholder, f"{card.id} is reconstructed (R20): mark it placeholder: true"
    # R19: the draft describes his skill, but his survey count is the ruling's, so he is marked too.
    assert ruleset.crew_card("armstrong").placeholder


def test_r19_armstrongs_survey_count_is_marked_as_a_placeholder_in_every_bundled_ruleset():
    """R19, not the draft, gives Captain Armstrong's survey count 2: draft 7 and base mark his
    card placeholder, as every other value that is not the designer's is marked (R20)."""
    for name in ("draft7", "base"):
        armstrong = load_ruleset(name).crew_card("armstrong")
        assert (armstrong.survey_count, armstrong.placeholder) == (2, True), name


def test_r20_draft7_uses_every_skill_kind_the_draft_implies():
    """R20: each kind of skill the draft's text implies is demonstrated by a crew, and the table says which."""
    rows = r20_rows()
    for kind, effects in R20_KINDS.items():
        demonstrating = [row for row in rows if row["kind"].startswith(kind)]
        assert demonstrating, f"no crew of the R20 table demonstrates {kind!r}"
        for row in demonstrating:
            assert effects & set(row["effects"]), f"{row['crew']} is said to demonstrate {kind!r}"
    limits = {name for row in rows for name in row["effects"]} & R20_KINDS["lifts a placement limit"]
    assert limits == R20_KINDS["lifts a placement limit"], "both placement limits (two in a row, skip) are lifted"


def test_r20_skills_that_add_surveys_stay_modest():
    """R20: skills that simply add surveys were picked first in earlier drafts: at most +1 here."""
    ruleset = load_ruleset("draft7")
    deltas = [
        effect.delta
        for card in ruleset.crew
        for effect in card.skill
        if effect.name == "change_survey_count"
    ]
    assert deltas and max(deltas) <= 1
