"""Every file the package writes goes through one writer, ``rulesets.outputfiles``.

A write that opens a name as it comes follows a symlink planted there (and so overwrites a file
elsewhere) or blocks on a FIFO; the one writer never does (tests/test_output_links.py walks the
commands). This test reads the package's source with ``ast`` and fails on any other way of
writing a file: ``open``/``Path.open``/``os.fdopen`` with a writing mode, ``os.open`` with a
writing flag, ``write_text``, ``write_bytes``, ``shutil`` copies and moves, an image's
``save(path)``, ``os.replace``, ``os.rename``, ``.rename``, ``touch``, hard and symbolic
links, temporary files, SQLite connections. The few that stay outside are listed below with
the reason each is safe; an entry no longer used is an error too, so the list stays exact.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import stargazer_rules

PACKAGE = Path(stargazer_rules.__file__).resolve().parent
WRITER = "rulesets/outputfiles.py"

#: (module, kind of write) -> why it may stay outside the one writer.
ALLOWED = {
    ("frontends/cli/__init__.py", "os.open for writing"):
        "stdout pointed at /dev/null after the reader of a pipe went away: nothing is written to a file",
    ("rulesets/drafts.py", ".rename"):
        "a new draft's staging folder, made by this process, renamed to a name checked free (missing, or an "
        "empty real folder); a rename replaces a name and never follows a link",
    ("tuning/edits.py", ".rename"):
        "the proposal's staging folder renamed into place, as new-draft's",
    ("tuning/tune_run.py", ".rename"):
        "OUT/proposal moved aside to proposal.previous, both checked to be real folders first",
    ("simulation/cache.py", "os.rename"):
        "a new cache entry's folder, made with its mark by this process, renamed to its key (a rename never "
        "follows a link at the target; an entry that is a link is refused when used)",
    ("printing/export.py", ".save(path)"):
        "each card's image is saved by PIL into an in-memory buffer (io.BytesIO), then written by the one writer",
    ("tuning/search.py", "sqlite3.connect"):
        "SQLite writes the study file itself; the study file and its -journal, -wal and -shm are refused first "
        "when anything but a regular file is at their names",
}

_WRITING_MODE = frozenset("wax+")
_WRITING_FLAGS = frozenset({"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"})
_SHUTIL_WRITES = frozenset({"copy", "copy2", "copyfile", "copytree", "copymode", "copystat", "move"})
_METHOD_WRITES = {"write_text": ".write_text", "write_bytes": ".write_bytes", "touch": ".touch",
                  "rename": ".rename", "symlink_to": ".symlink_to", "hardlink_to": ".hardlink_to"}
_MODULE_CALLS = {
    ("os", "replace"): "os.replace", ("os", "rename"): "os.rename", ("os", "renames"): "os.rename",
    ("os", "link"): "os.link", ("os", "symlink"): "os.symlink", ("os", "truncate"): "os.truncate",
    ("os", "mkfifo"): "os.mkfifo", ("tempfile", "mkstemp"): "tempfile.mkstemp",
    ("tempfile", "NamedTemporaryFile"): "tempfile.NamedTemporaryFile", ("sqlite3", "connect"): "sqlite3.connect",
}


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for given in call.keywords:
        if given.arg == keyword:
            return given.value
    return call.args[position] if len(call.args) > position else None


def _writes_by_mode(mode: ast.expr | None) -> bool:
    """A mode that writes, or one that cannot be read from the source (it may write)."""
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return bool(_WRITING_MODE & set(mode.value))
    return True


def _names(node: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} | {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def writes_in(source: str) -> list[tuple[int, str]]:
    """The lines and kinds of the file writes in ``source`` (module text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            if _writes_by_mode(_argument(node, 1, "mode")):
                found.append((node.lineno, "open for writing"))
            continue
        if not isinstance(func, ast.Attribute):
            continue
        owner = func.value.id if isinstance(func.value, ast.Name) else None
        name = func.attr
        if (owner, name) in _MODULE_CALLS:
            found.append((node.lineno, _MODULE_CALLS[owner, name]))
        elif owner == "os" and name == "open":
            flags = _argument(node, 1, "flags")
            if flags is not None and _names(flags) & _WRITING_FLAGS:
                found.append((node.lineno, "os.open for writing"))
        elif owner == "os" and name == "fdopen":
            if _writes_by_mode(_argument(node, 1, "mode")):
                found.append((node.lineno, "os.fdopen for writing"))
        elif owner == "shutil" and name in _SHUTIL_WRITES:
            found.append((node.lineno, f"shutil.{name}"))
        elif name == "open":
            position = 1 if owner in {"io", "codecs"} else 0
            if _writes_by_mode(_argument(node, position, "mode")):
                found.append((node.lineno, ".open for writing"))
        elif owner == "outputfiles" or (name == "touch" and node.args):
            continue  # the one writer; a function named touch (Path.touch takes no path)
        elif name in _METHOD_WRITES:
            found.append((node.lineno, _METHOD_WRITES[name]))
        elif name == "save" and (node.args or any(k.arg in {"fp", "filename"} for k in node.keywords)):
            found.append((node.lineno, ".save(path)"))  # PIL's image.save(fp); a canvas's save() has no argument
    return sorted(found)


@functools.cache
def package_writes() -> dict[tuple[str, str], list[int]]:
    """(module, kind) -> the lines of each write outside the one writer, over the package."""
    found: dict[tuple[str, str], list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == WRITER:
            continue
        for line, kind in writes_in(path.read_text(encoding="utf-8")):
            found.setdefault((module, kind), []).append(line)
    return found


def test_every_write_goes_through_the_one_writer() -> None:
    stray = {place: lines for place, lines in package_writes().items() if place not in ALLOWED}
    assert not stray, "files written outside rulesets.outputfiles: " + "; ".join(
        f"{module}:{','.join(map(str, lines))} ({kind})" for (module, kind), lines in sorted(stray.items()))


def test_the_allowed_writes_are_all_still_there() -> None:
    stale = sorted(set(ALLOWED) - set(package_writes()))
    assert not stale, f"allowed writes no longer in the source (remove them from ALLOWED): {stale}"


def test_the_writer_itself_is_seen_to_write() -> None:
    """The detector finds the writer's own writes: it reads what it is meant to read."""
    kinds = {kind for _line, kind in writes_in((PACKAGE / WRITER).read_text(encoding="utf-8"))}
    assert {"os.open for writing", "os.replace", "os.fdopen for writing"} <= kinds


@pytest.mark.parametrize(
    ("snippet", "kind"),
    [
        ('Path("x").write_text("y")', ".write_text"),
        ('(folder / "a.json").write_bytes(data)', ".write_bytes"),
        ('open(path, "w", encoding="utf-8")', "open for writing"),
        ('open(path, mode="ab")', "open for writing"),
        ("open(path, chosen_mode)", "open for writing"),
        ('path.open("x")', ".open for writing"),
        ('path.open(mode="r+")', ".open for writing"),
        ('io.open(path, "w")', ".open for writing"),
        ("os.open(path, os.O_WRONLY | os.O_CREAT)", "os.open for writing"),
        ("os.open(path, flags=os.O_RDWR)", "os.open for writing"),
        ('os.fdopen(handle, "wb")', "os.fdopen for writing"),
        ("shutil.copyfile(a, b)", "shutil.copyfile"),
        ("shutil.copy2(a, b)", "shutil.copy2"),
        ("shutil.move(a, b)", "shutil.move"),
        ('image.save(folder / "a.png", format="PNG")', ".save(path)"),
        ("os.replace(a, b)", "os.replace"),
        ("os.rename(a, b)", "os.rename"),
        ("staging.rename(dest)", ".rename"),
        ("path.touch()", ".touch"),
        ("os.symlink(a, b)", "os.symlink"),
        ("tempfile.mkstemp(dir=folder)", "tempfile.mkstemp"),
        ("sqlite3.connect(path)", "sqlite3.connect"),
    ],
)
def test_the_detector_finds_a_write(snippet: str, kind: str) -> None:
    assert writes_in(f"def f():\n    {snippet}\n") == [(2, kind)]


@pytest.mark.parametrize(
    "snippet",
    [
        'open(path, encoding="utf-8")',
        'open(path, "rb")',
        'path.open("r", encoding="utf-8")',
        "path.open()",
        "os.open(path, os.O_RDONLY | os.O_NONBLOCK)",
        'os.fdopen(handle, "rb")',
        "path.read_text()",
        "canvas.save()",
        'text.replace("a", "b")',
        "outputfiles.write_text(path, text)",
        "outputfiles.open_for_append(path)",
        "cache.touch(folder, identity)",
    ],
)
def test_the_detector_lets_reads_pass(snippet: str) -> None:
    assert writes_in(f"def f():\n    {snippet}\n") == []
