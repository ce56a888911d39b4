"""docs/embedding.md stays true: its HTTP example is what the app answers, and its event
catalogue is messages.yaml, every event key included.

The catalogue section is generated; after changing messages.yaml, print the new section with
``python tests/test_embedding_doc.py`` and paste it between the markers.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient

from stargazer_rules import load_ruleset
from stargazer_rules.formats.signing import StateSigner
from stargazer_rules.frontends.server import create_app
from stargazer_rules.text.messages import CATALOGUE_PATH
from stargazer_rules.vocabulary.events import EVENT_KEYS

DOC = Path(__file__).resolve().parent.parent / "docs" / "embedding.md"
BEGIN = "<!-- events: generated from stargazer_rules/text/messages.yaml by tests/test_embedding_doc.py -->"
END = "<!-- end of events -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def event_catalogue() -> str:
    """The doc's event table: one row per event key and one per case, in catalogue order."""
    events = yaml.safe_load(CATALOGUE_PATH.read_text(encoding="utf-8"))["events"]
    lines = ["| key | parameters | 日本語 | English |", "| --- | --- | --- | --- |"]
    for key, entry in events.items():
        params = ", ".join(EVENT_KEYS[key])
        # an entry of cases only (cube_returned) has no text of its own
        lines.append(f"| `{key}` | {params} | {_cell(entry.get('ja', '—'))} | {_cell(entry.get('en', '—'))} |")
        for case in entry.get("cases", ()):
            when = ", ".join(f"{name} = {json.dumps(value)}" for name, value in case["when"].items())
            lines.append(f"| ↳ when {when} | | {_cell(case['ja'])} | {_cell(case['en'])} |")
    return "\n".join(lines)


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _example(name: str) -> Any:
    """The JSON block right after ``<!-- example: NAME -->`` in the doc."""
    match = re.search(rf"<!-- example: {re.escape(name)} -->\s*```json\n(.*?)\n```", _doc(), re.S)
    assert match, f"no example {name!r} in {DOC.name}"
    return json.loads(match.group(1))


@pytest.fixture(scope="module")
def client():
    # The doc's signatures are made with this secret.
    with TestClient(create_app(load_ruleset("draft7"), signer=StateSigner("docs/embedding.md"))) as test_client:
        yield test_client


def test_the_event_catalogue_is_messages_yaml():
    """The doc's event table is generated from messages.yaml and up to date."""
    doc = _doc()
    assert BEGIN in doc and END in doc
    section = doc.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert section == event_catalogue(), "regenerate it: python tests/test_embedding_doc.py"


def test_the_doc_lists_every_event_key():
    """Every key of EVENT_KEYS has its row in the doc's catalogue."""
    section = _doc().split(BEGIN, 1)[1].split(END, 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert listed == list(yaml.safe_load(CATALOGUE_PATH.read_text(encoding="utf-8"))["events"])
    assert set(listed) == set(EVENT_KEYS)


def test_the_http_example_is_what_the_app_answers(client):
    """The doc's POST /api/apply request gets exactly the response the doc shows."""
    response = client.post("/api/apply", json=_example("apply-request"))
    assert response.status_code == 200
    assert response.json() == _example("apply-response")


def test_the_tampered_example_is_what_the_app_answers(client):
    """The doc's request with seat 0's hand changed to 10 gets the 422 the doc shows."""
    body = copy.deepcopy(_example("apply-request"))
    body["state"]["seats"][0]["hand"] = 10
    response = client.post("/api/apply", json=body)
    assert response.status_code == 422
    assert response.json() == _example("tampered-response")


if __name__ == "__main__":
    print(BEGIN)
    print()
    print(event_catalogue())
    print()
    print(END)


def test_every_file_the_docs_name_is_where_they_say():
    """A path of the checkout written in README.md or docs/*.md (``stargazer_rules/...``,
    ``tests/...``) names a file or folder that exists, so a moved module is followed in the docs."""
    root = DOC.parent.parent
    pattern = re.compile(r"`((?:stargazer_rules|tests|benchmarks|crates|schemas|data|docs)/[\w./-]+)`")
    named = {
        path
        for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]
        for path in pattern.findall(doc.read_text(encoding="utf-8"))
    }
    assert "stargazer_rules/frontends/server/openapi.py" in named
    assert sorted(path for path in named if not (root / path).exists()) == []
