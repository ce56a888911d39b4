"""``stargazer new-draft`` and ``drafts.new_draft``: a new draft from an existing ruleset.

The copy must be the same rules under a new name (compared as data, for the bundled rulesets
and for generated ones), keep every line of the designer's files but the schema line and the
name, carry schemas its schema lines point at, and never leave half a folder behind.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from ruleset_edits import copy_ruleset, replace
from strategies import ruleset_documents

from stargazer_rules.errors import RulesetError
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.drafts import DraftError, new_draft
from stargazer_rules.rulesets.loader import load_ruleset, ruleset_to_data
from stargazer_rules.rulesets.resources import RULESET_FILES, cards_dir, schemas_dir

MODELINE = "# yaml-language-server: $schema="


def without_name(data: dict) -> dict:
    """The data without the ruleset's name and title (a new draft has its own)."""
    data = json.loads(json.dumps(data))
    del data["rules"]["name"]
    del data["rules"]["title"]
    return data


@pytest.mark.parametrize("source", ["draft7", "base"])
def test_a_draft_is_the_same_rules_under_a_new_name(tmp_path, source):
    copy = new_draft(tmp_path / "next", source, name="next-draft")
    original = load_ruleset(source)
    assert copy.name == "next-draft"
    assert (copy.title.en, copy.title.ja) == ("Stargazer next-draft", "スターゲイザー next-draft")
    assert without_name(ruleset_to_data(copy)) == without_name(ruleset_to_data(original))
    assert copy.fingerprint != original.fingerprint
    reloaded = load_ruleset(tmp_path / "next")
    assert (copy, copy.fingerprint, copy.source) == (reloaded, reloaded.fingerprint, reloaded.source)


def test_every_line_is_kept_but_the_schema_line_the_opening_comment_the_name_and_the_title(tmp_path):
    """Only the schema lines, the opening comment's words naming the ruleset, the name and the
    title (both languages, from the name) change."""
    folder = tmp_path / "draft8"
    new_draft(folder)
    for file_name in (*RULESET_FILES, "targets.yaml", "tune.yaml"):
        before = (cards_dir() / "draft7" / file_name).read_text(encoding="utf-8").splitlines()
        after = (folder / file_name).read_text(encoding="utf-8").splitlines()
        changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
        kind = file_name.removesuffix(".yaml")
        assert before[1].startswith("# Stargazer draft 7: ")
        expected = [
            (before[0], f"{MODELINE}schemas/{kind}.schema.json"),
            (before[1], before[1].replace("# Stargazer draft 7:", "# Stargazer draft 8 (copied from draft7):", 1)),
        ]
        if file_name == "rules.yaml":
            name_line = next(line for line in before if line.startswith("name:"))
            expected.append((name_line, "name: draft8"))
            expected.append(("  ja: スターゲイザー 草案７", "  ja: スターゲイザー 草案８"))
            expected.append(("  en: Stargazer draft 7", "  en: Stargazer draft 8"))
        assert changed == expected


def test_the_schema_lines_point_at_copies_of_the_schemas(tmp_path):
    folder = tmp_path / "draft8"
    new_draft(folder)
    for file_name in (*RULESET_FILES, "targets.yaml"):  # the design targets travel with the draft
        first = (folder / file_name).read_text(encoding="utf-8").splitlines()[0]
        target = folder / first.removeprefix(MODELINE)
        assert target.read_bytes() == (schemas_dir() / target.name).read_bytes()
    assert sorted(path.name for path in (folder / "schemas").iterdir()) == [
        "crew.schema.json",
        "planets.schema.json",
        "rules.schema.json",
        "targets.schema.json",
        "tune.schema.json",
    ]
    bundled = (cards_dir() / "draft7" / "targets.yaml").read_text(encoding="utf-8").splitlines()[2:]
    assert (folder / "targets.yaml").read_text(encoding="utf-8").splitlines()[2:] == bundled


def test_the_opening_comment_of_each_copy_names_the_new_draft_and_its_source(tmp_path):
    """A copy of base names draft 8 where base named itself; a file opening with a comment of
    the designer's own gets a line naming the draft above it."""
    new_draft(tmp_path / "draft8", "base")
    crew = (tmp_path / "draft8" / "crew.yaml").read_text(encoding="utf-8").splitlines()
    assert crew[1] == "# Stargazer draft 8 (copied from base): the draft-7 crew with their survey counts and no skill but Armstrong's."
    source = copy_ruleset(tmp_path, "draft7", to="mine")
    text = (source / "planets.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    (source / "planets.yaml").write_text("".join([text[0], "# My planets.\n", *text[2:]]), encoding="utf-8")
    replace(source, "rules.yaml", "name: draft7", "name: mine")
    new_draft(tmp_path / "next-one", source)
    lines = (tmp_path / "next-one" / "planets.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[1:3] == ["# Stargazer next-one (copied from mine).", "# My planets."]


def test_a_file_without_a_schema_line_gets_one_and_a_comment_after_the_name_is_kept(tmp_path):
    source = copy_ruleset(tmp_path, "draft7", to="mine")
    text = (source / "planets.yaml").read_text(encoding="utf-8")
    (source / "planets.yaml").write_text(text.split("\n", 1)[1], encoding="utf-8")
    replace(source, "rules.yaml", "name: draft7", "name: mine   # the working copy")
    new_draft(tmp_path / "next", source)
    assert (tmp_path / "next" / "planets.yaml").read_text(encoding="utf-8").startswith(
        f"{MODELINE}schemas/planets.schema.json\n# "
    )
    assert "\nname: next   # the working copy\n" in (tmp_path / "next" / "rules.yaml").read_text(encoding="utf-8")


def test_the_name_defaults_to_the_folder_name_and_an_empty_folder_is_used(tmp_path):
    (tmp_path / "draft-8").mkdir()
    assert new_draft(tmp_path / "draft-8").name == "draft-8"


@pytest.mark.parametrize(
    ("name", "message"),
    [("Draft 8", "'Draft 8' is not a ruleset name"), ("-x", "'-x' is not a ruleset name"), ("", "'' is not a ruleset name")],
)
def test_a_name_that_is_not_a_ruleset_name_is_refused(tmp_path, name, message):
    with pytest.raises(DraftError, match=message):
        new_draft(tmp_path / "next", name=name)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_overwritten(tmp_path):
    (tmp_path / "draft8").mkdir()
    (tmp_path / "draft8" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(DraftError, match="already exists; give a new folder"):
        new_draft(tmp_path / "draft8")
    assert [path.name for path in (tmp_path / "draft8").iterdir()] == ["notes.txt"]


def test_a_failure_half_way_leaves_nothing_behind(tmp_path):
    """A rules.yaml whose name line cannot be found (a quoted key) fails after two files are
    written; neither the folder nor the staging folder remains."""
    source = copy_ruleset(tmp_path / "src", "draft7")
    replace(source, "rules.yaml", "name: draft7", '"name": draft7')
    load_ruleset(source)  # still a valid ruleset
    with pytest.raises(DraftError, match="no top-level 'name:' line to rename"):
        new_draft(tmp_path / "out" / "next", source)
    assert list((tmp_path / "out").iterdir()) == []


def test_a_source_that_does_not_load_is_refused(tmp_path):
    source = copy_ruleset(tmp_path, "draft7", to="broken")
    replace(source, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: twelve")
    with pytest.raises(RulesetError):
        new_draft(tmp_path / "next", source)
    assert not (tmp_path / "next").exists()


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents=ruleset_documents())
def test_any_valid_ruleset_copies_to_the_same_rules(documents):
    """Generated rulesets, written as YAML without schema lines: the copy loads to the same data."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "source")
        source.mkdir()
        for file_name, document in documents.items():
            text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
            (source / file_name).write_text(text, encoding="utf-8")
        copy = new_draft(Path(folder, "copy"), source, name="copy")
        assert without_name(ruleset_to_data(copy)) == without_name(ruleset_to_data(load_ruleset(source)))


# -- the command line ---------------------------------------------------------------------


def test_new_draft_from_the_command_line_says_what_to_do_next(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["new-draft", "draft8"]) == 0
    out = capsys.readouterr().out.splitlines()
    ruleset = load_ruleset(tmp_path / "draft8")
    assert out[0] == f"draft8: draft8, copied from draft7 — 14 planets, 12 crew, 3-4 players, fingerprint {ruleset.fingerprint[:12]}"
    assert out[1] == "title: Stargazer draft 8 / スターゲイザー 草案８"
    assert "'stargazer validate draft8'; 'stargazer compare draft7 draft8'" in out[2]
    assert main(["validate", "draft8"]) == 0
    assert "warning" not in capsys.readouterr().out


def test_validate_warns_when_a_copied_draft_keeps_its_sources_title(tmp_path, capsys):
    """A draft copied by hand, renamed but still titled "Stargazer draft 7", gets one warning."""
    folder = tmp_path / "draft8"
    shutil.copytree(cards_dir() / "draft7", folder)
    replace(folder, "rules.yaml", "name: draft7", "name: draft8")
    assert main(["validate", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        f"warning: {folder}/rules.yaml: the title 'Stargazer draft 7' / 'スターゲイザー 草案７' is draft7's, "
        "but this ruleset is draft8: set 'title' (ja and en) so that screens and reports name this draft"
    )
    assert main(["validate", "draft7"]) == 0
    assert "warning" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new-draft", "{tmp}/d", "--from", "draf"], "stargazer new-draft: draf: no such folder"),
        (["new-draft", "{tmp}/d", "--name", "D8"], "stargazer new-draft: 'D8' is not a ruleset name"),
        (["new-draft", "{tmp}/taken"], "stargazer new-draft: {tmp}/taken already exists; give a new folder"),
    ],
)
def test_new_draft_errors_are_one_line_and_exit_1(tmp_path, capsys, argv, message):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("", encoding="utf-8")
    status = main([part.format(tmp=tmp_path) for part in argv])
    captured = capsys.readouterr()
    assert (status, captured.out) == (1, "")
    assert captured.err.startswith(message.format(tmp=tmp_path)) and captured.err.count("\n") == 1
    assert not (tmp_path / "d").exists()


def test_new_draft_help_explains_the_copy(capsys):
    with pytest.raises(SystemExit):
        main(["new-draft", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--from DIR" in text and "--name NAME" in text and "nothing is overwritten" in text
