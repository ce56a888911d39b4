"""The read-back of every bundled ruleset and of 40 generated programs, held to golden files
that a person has read sentence by sentence (issue 37): a change of wording shows as a diff of
``tests/golden/readback/``, to be read again before it is accepted.

- ``{draft7,base,ideas}.{en,ja}.txt``: ``stargazer rules NAME --lang L`` as it prints when piped;
- ``generated.json``: generated rulesets (``strategies.language_rulesets``, a fixed seed), kept
  as data so that a new Hypothesis draws nothing new here; ``generated.{en,ja}.txt`` their
  programs read back: each crew's skill, each planet's abilities, the setup steps, the round
  end, 40 programs in all.

Regenerate the read-back after a deliberate change of wording, then read the diff::

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden_readback.py

and draw the generated rulesets anew (rarely: only when the language gains words)::

    python tests/test_golden_readback.py --draw
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from stargazer_rules import load_ruleset
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.text.messages import LANGS, ability_sentences, describe_skill, round_end_effects_sentence
from stargazer_rules.text.reports import ruleset_report
from stargazer_rules.text.tables import setup_steps_text

GOLDEN = Path(__file__).parent / "golden" / "readback"
BUNDLED = ("draft7", "base", "ideas")
GENERATED = GOLDEN / "generated.json"
#: How many programs (crew skills) the generated rulesets hold, at least, and the seed they
#: are drawn with.
PROGRAMS = 40
SEED = 37
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def bundled_text(name: str, lang: str) -> str:
    """``stargazer rules NAME --lang L``, piped: no wrapping, one final newline."""
    return ruleset_report(load_ruleset(name), lang) + "\n"


def program_lines(ruleset: Ruleset, lang: str) -> list[str]:
    """Every program of a ruleset read back, one line each, named by its card or section."""
    lines = [f"[{card.id}] {describe_skill(card, ruleset, lang)}" for card in ruleset.crew]
    lines += [f"[{card.id}] {sentence}" for card in ruleset.planets for sentence in ability_sentences(card, ruleset, lang)]
    steps = setup_steps_text(ruleset, lang)
    if steps:
        lines.append(f"[setup] {steps}")
    round_end = round_end_effects_sentence(ruleset, lang)
    if round_end:
        lines.append(f"[round end] {round_end}")
    return lines


def generated_text(lang: str) -> str:
    from strategies import load_documents

    blocks = []
    for index, documents in enumerate(json.loads(GENERATED.read_text(encoding="utf-8"))):
        blocks.append("\n".join([f"# ruleset {index}", *program_lines(load_documents(documents), lang)]))
    return "\n\n".join(blocks) + "\n"


def _check(path: Path, text: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{path.name} differs: UPDATE_GOLDEN=1 rewrites it (read the diff)"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", BUNDLED)
def test_a_bundled_rulesets_read_back_is_its_golden_file(name, lang):
    _check(GOLDEN / f"{name}.{lang}.txt", bundled_text(name, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_generated_programs_read_back_is_the_golden_file(lang):
    _check(GOLDEN / f"generated.{lang}.txt", generated_text(lang))


def test_the_generated_rulesets_hold_40_programs():
    from strategies import load_documents

    rulesets = [load_documents(documents) for documents in json.loads(GENERATED.read_text(encoding="utf-8"))]
    assert sum(len(ruleset.crew) for ruleset in rulesets) >= PROGRAMS


def draw_generated() -> list[dict[str, Any]]:
    """Generated rulesets, drawn with a fixed seed until their crews hold ``PROGRAMS`` skills, no
    skill twice (Hypothesis draws its smallest examples first)."""
    from hypothesis import HealthCheck, Phase, given, seed, settings

    from strategies import language_rulesets, load_documents

    drawn: list[dict[str, Any]] = []
    seen: set[str] = set()  # the skills drawn so far, each program kept once

    @seed(SEED)
    @settings(
        database=None, max_examples=400, phases=[Phase.generate], deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(documents=language_rulesets())
    def collect(documents: dict[str, Any]) -> None:
        skills = {json.dumps(card["skill"], sort_keys=True) for card in documents["crew.yaml"]["crew"]}
        if len(seen) < PROGRAMS and not skills & seen and len(skills) == len(documents["crew.yaml"]["crew"]):
            load_documents(documents)  # the loader takes it
            seen.update(skills)
            drawn.append(json.loads(json.dumps(documents)))

    collect()
    return drawn


if __name__ == "__main__":
    if sys.argv[1:] != ["--draw"]:
        sys.exit("usage: python tests/test_golden_readback.py --draw")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    GENERATED.write_text(json.dumps(draw_generated(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{GENERATED}: drawn; now run UPDATE_GOLDEN=1 python -m pytest {Path(__file__).name}")
