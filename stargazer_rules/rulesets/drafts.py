"""A new draft from an existing ruleset: the designer's first step towards draft 8.

``new_draft(dest, source="draft7")`` copies the three YAML files of a ruleset (a bundled name or a
folder), and its targets.yaml and tune.yaml when it has them, into a new folder, renames the
ruleset, and copies the JSON Schemas of those files into ``dest/schemas/`` with each file's
schema line pointing at them, so an editor running the YAML
language server completes and checks the files wherever the folder lives (docs/ruleset-format.md).
This matters most for an installed package, whose bundled files sit deep inside site-packages.

The files are copied as text, so the designer's comments and layout survive. The copy is made in
a hidden sibling folder, loaded and checked, and only then renamed into place: a failure leaves
nothing behind.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path

import attrs

from stargazer_rules.errors import DraftError, FileRefused
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.loader import load_ruleset, resolve_ruleset_dir
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.rulesets.resources import BESIDE_FILES, DEFAULT_RULESET, RULESET_FILES, schemas_dir

__all__ = ["DraftError", "borrowed_title", "draft_title", "new_draft", "refuse_taken_folder"]

#: What rules.yaml's ``name`` may be (the rules schema's pattern).
NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]*\Z")
#: The first line of each file: the YAML language server reads its schema from it.
_MODELINE = re.compile(r"\A# yaml-language-server: \$schema=\S*[^\n]*\n?")
#: rules.yaml's ``title:`` in block style (``ja:`` and ``en:`` lines below it) or flow style.
_TITLE_BLOCK = re.compile(r"^title:[ \t]*(?:#[^\n]*)?\n(?:[ \t]+(?:ja|en):[^\n]*\n){2}", re.MULTILINE)
_TITLE_FLOW = re.compile(r"^title:[ \t]*\{[^\n]*\}[ \t]*$", re.MULTILINE)
_FULL_WIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")
#: The opening comment of a bundled file, after its schema line: ``# Stargazer draft 7: the
#: twelve crew cards.``; the words before the colon name the ruleset, and a copy renames them.
_HEADER = re.compile(r"\A# Stargazer\b[^:\n\r\x85\u2028\u2029]*:")  # within its line, as YAML breaks lines
#: rules.yaml's top-level ``name:`` line; the value is replaced, a trailing comment kept.
_NAME_LINE = re.compile(r"^name:[ \t]*[^#\n]*?(?P<comment>[ \t]+#[^\n]*)?$", re.MULTILINE)


def new_draft(
    dest: str | os.PathLike[str],
    source: str | os.PathLike[str] | None = None,
    name: str | None = None,
    title: Mapping[str, str] | None = None,
) -> Ruleset:
    """Copy ruleset ``source`` (default draft 7) to the new folder ``dest``, named ``name``
    (default: the folder's name) and titled ``title`` (ja and en; default ``draft_title(name)``);
    return the copy, loaded.

    Raises ``DraftError`` when ``dest`` exists and is not an empty folder, the name is not a
    ruleset name, or rules.yaml has no ``name:`` line to rename; ``RulesetError`` when the
    source does not load (a draft is copied from a valid ruleset).
    """
    dest = Path(dest)
    name = dest.resolve().name if name is None else name
    if not NAME_PATTERN.match(name):
        raise DraftError(
            f"{name!r} is not a ruleset name (lowercase letters, digits, '-' and '_', starting "
            "with a letter or digit); give one with --name"
        )
    refuse_taken_folder(dest)
    source = DEFAULT_RULESET if source is None else source
    original = load_ruleset(source)  # a draft is copied from a ruleset that loads
    folder, _shown = resolve_ruleset_dir(source)
    title = draft_title(name) if title is None else title
    heading = f"# {title['en']} (copied from {original.name})"

    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.parent / f".{dest.name}-{secrets.token_hex(4)}.partial"
    try:
        staging.mkdir()  # a plain mkdir: the folder gets the user's usual permissions
        (staging / "schemas").mkdir()
        for file_name in RULESET_FILES:
            kind = file_name.removesuffix(".yaml")
            schema = f"{kind}.schema.json"
            outputfiles.write_bytes(staging / "schemas" / schema, (schemas_dir() / schema).read_bytes())
            text = (folder / file_name).read_text(encoding="utf-8")
            text = _reheaded(_with_modeline(text, f"schemas/{schema}"), heading)
            if file_name == "rules.yaml":
                text = _renamed(text, name, folder / file_name)
                text = _retitled(text, title)
            outputfiles.write_text(staging / file_name, text)
        for file_name, schema in BESIDE_FILES.items():  # the targets and the tuning space travel with it
            if (folder / file_name).is_file():
                outputfiles.write_bytes(staging / "schemas" / schema, (schemas_dir() / schema).read_bytes())
                text = _with_modeline((folder / file_name).read_text(encoding="utf-8"), f"schemas/{schema}")
                text = _reheaded(text, heading)
                outputfiles.write_text(staging / file_name, text)
        copy = load_ruleset(staging)  # the copy must load before it takes the folder's place
        if dest.exists():
            dest.rmdir()  # empty, checked above
        staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return attrs.evolve(copy, source=os.fspath(dest))  # as load_ruleset(dest) would show it


def refuse_taken_folder(dest: Path) -> None:
    """Raise ``DraftError`` unless ``dest`` is free for a new ruleset folder: missing, or an
    empty folder (nothing is ever overwritten); ``FileRefused`` for a symbolic link there, even
    to an empty folder (the draft would land elsewhere than it is named)."""
    try:
        mode = os.lstat(dest).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise (outputfiles.path_problem(error, dest) or error) from None
    if stat.S_ISLNK(mode):
        raise FileRefused(f"{dest} is a symbolic link: a new ruleset folder is made only at a real name; "
                          "remove it or give another folder")
    if dest.exists() and not (dest.is_dir() and not any(dest.iterdir())):
        raise DraftError(f"{dest} already exists; give a new folder (nothing is overwritten)")


def _with_modeline(text: str, schema: str) -> str:
    line = f"# yaml-language-server: $schema={schema}\n"
    return _MODELINE.sub(lambda _match: line, text, count=1) if _MODELINE.match(text) else line + text


def _reheaded(text: str, heading: str) -> str:
    """A copied file (its schema line first) whose opening comment names the new draft: the
    words before the colon of ``# Stargazer draft 7: ...`` replaced by ``heading``, or
    ``heading`` added as a line of its own when the file opens otherwise."""
    modeline, _, rest = text.partition("\n")
    rest, count = _HEADER.subn(lambda _match: f"{heading}:", rest, count=1)
    return f"{modeline}\n{rest}" if count else f"{modeline}\n{heading}.\n{rest}"


def draft_title(name: str) -> dict[str, str]:
    """The title of a new draft named ``name``: ``draft8`` -> Stargazer draft 8 / スターゲイザー 草案８."""
    number = re.fullmatch(r"draft[-_]?(\d+)", name)
    if number:
        digits = number.group(1)
        return {"ja": f"スターゲイザー 草案{digits.translate(_FULL_WIDTH_DIGITS)}", "en": f"Stargazer draft {digits}"}
    return {"ja": f"スターゲイザー {name}", "en": f"Stargazer {name}"}


def _retitled(text: str, title: Mapping[str, str]) -> str:
    """rules.yaml with its title replaced (block style written back); unchanged when it has none."""
    block = f"title:\n  ja: {title['ja']}\n  en: {title['en']}\n"
    text, count = _TITLE_BLOCK.subn(lambda _match: block, text, count=1)
    if not count:
        text = _TITLE_FLOW.sub(lambda _match: block.rstrip("\n"), text, count=1)
    return text


def borrowed_title(ruleset: Ruleset) -> str | None:
    """A warning when the ruleset carries the title of a bundled ruleset with another name (a
    copied draft whose title was not changed: every screen would name the source), else None."""
    from stargazer_rules.rulesets.resources import bundled_ruleset_names

    for other in bundled_ruleset_names():
        if other == ruleset.name:
            continue
        source = load_ruleset(other)
        if source.title == ruleset.title:
            where = f"{ruleset.source}/rules.yaml" if ruleset.source else "rules.yaml"
            return (
                f"{where}: the title {ruleset.title.en!r} / {ruleset.title.ja!r} is {other}'s, but this "
                f"ruleset is {ruleset.name}: set 'title' (ja and en) so that screens and reports name this draft"
            )
    return None


def _renamed(text: str, name: str, path: Path) -> str:
    renamed, count = _NAME_LINE.subn(lambda match: f"name: {name}{match.group('comment') or ''}", text, count=1)
    if not count:
        raise DraftError(f"{path}: no top-level 'name:' line to rename; copy the folder by hand")
    return renamed

