"""The native kernel's layers: no module of ``crates/kernel/src`` refers to another in a circle,
each refers only to the layers below it, and the game's behaviour (``impl Game``) lives only in
the game's own files, as ``tests/test_layers.py`` holds the Python package's.

The layers, bottom up (docs/architecture.md): the limits, errors and random numbers <- ``expr``
(the rules language's node types) <- ``rules`` (the compiled ruleset, the action index's sizes)
<- ``state`` and ``python_deal`` <- ``game`` (everything a game does: its flow, the language
evaluated, the abilities, the scoring) <- ``action_index``, ``observation`` and ``check`` (the
state checker) <- ``batch``, ``bots`` and ``fixtures`` <- ``lib`` (the crate's public surface,
for the bindings). A module is a file directly under ``src`` or a folder (``game/``, ``rules/``,
``check/``, ``bots/``, ``fixtures/``); the references are read from the text (``crate::x``, in
``use`` or in a path). The unit tests at a file's end (``#[cfg(test)] mod tests``) are left
out: they sit above every layer and may use the fixtures.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from test_layers import circles

CRATES = Path(__file__).resolve().parent.parent / "crates"
SOURCE = CRATES / "kernel" / "src"

#: The most lines of a Rust file a reader is asked to hold; a file past it does several jobs.
MOST_LINES = 700
#: Files written by a generator, never by hand, which the limit leaves out.
GENERATED = {"kernel/src/fixtures/compiled.rs", "kernel/src/contract.rs"}

#: Layer of each module of the kernel crate, bottom up; a module may refer to those of lower layers.
RUST_LAYERS = {
    "contract": 0,
    "limits": 1,
    "error": 1,
    "rng": 1,
    "python_random": 1,
    "expr": 2,
    "rules": 3,
    "state": 4,
    "python_deal": 4,
    "game": 5,
    "action_index": 6,
    "observation": 6,
    "check": 6,
    "batch": 7,
    "bots": 7,
    "fixtures": 7,
    "lib": 8,
}

_TESTS = re.compile(r"^#\[cfg\(test\)\]\s*\nmod tests\b", re.MULTILINE)
_COMMENT = re.compile(r"//.*$", re.MULTILINE)
_GROUP = re.compile(r"\bcrate::\{([^}]*)\}")
_PATH = re.compile(r"\bcrate::([A-Za-z_][A-Za-z0-9_]*)")
_IMPL_GAME = re.compile(r"^\s*impl(?:<[^>]*>)?\s+(?:[\w:]+\s+for\s+)?Game\b", re.MULTILINE)


def module_of(relative: str) -> str:
    """``game/scoring.rs`` -> ``game``, ``batch.rs`` -> ``batch``."""
    return relative.split("/")[0].removesuffix(".rs")


def library_code(text: str) -> str:
    """A file's text without its unit tests and its comments."""
    tests = _TESTS.search(text)
    return _COMMENT.sub("", text[: tests.start()] if tests else text)


def referenced(text: str) -> set[str]:
    """The first segment of every ``crate::`` path of a file's code (a module or a root item)."""
    code = library_code(text)
    found = {match.group(1) for match in _PATH.finditer(code)}
    for group in _GROUP.finditer(code):
        found |= {item.strip().split("::")[0] for item in group.group(1).split(",") if item.strip()}
    return found


def graph_of(sources: dict[str, str]) -> tuple[dict[str, frozenset[str]], list[str]]:
    """Each module -> the other modules it refers to, and each reference to an item of the
    crate's root (the bindings' surface, which no module inside the crate reads)."""
    modules = {module_of(relative) for relative in sources}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    root_items = []
    for relative, text in sorted(sources.items()):
        module = module_of(relative)
        for name in sorted(referenced(text)):
            if name in modules:
                graph[module].add(name)
            elif module != "lib":
                root_items.append(f"{relative}: crate::{name}")
    return {module: frozenset(targets - {module}) for module, targets in graph.items()}, root_items


def upward(graph: dict[str, frozenset[str]], layers: dict[str, int]) -> list[str]:
    """Every reference to a module of the same layer or one above."""
    return [
        f"{module} -> {target}"
        for module, targets in sorted(graph.items())
        for target in sorted(targets)
        if layers[target] >= layers[module]
    ]


def impl_game_outside(sources: dict[str, str]) -> list[str]:
    return sorted(
        relative
        for relative, text in sources.items()
        if module_of(relative) != "game" and _IMPL_GAME.search(library_code(text))
    )


@functools.cache
def kernel_sources() -> dict[str, str]:
    return {path.relative_to(SOURCE).as_posix(): path.read_text(encoding="utf-8") for path in sorted(SOURCE.rglob("*.rs"))}


def kernel_graph() -> dict[str, frozenset[str]]:
    return graph_of(kernel_sources())[0]


def test_the_crate_is_read():
    graph = kernel_graph()
    assert {"game/mod.rs", "rules/mod.rs", "check/mod.rs", "lib.rs"} <= set(kernel_sources())
    assert {"rules", "state", "expr"} <= graph["game"]
    assert "game" in graph["check"]


def test_every_kernel_module_sits_in_a_layer():
    assert sorted(set(kernel_graph()) - set(RUST_LAYERS)) == []
    assert sorted(set(RUST_LAYERS) - set(kernel_graph())) == []


def test_no_kernel_module_refers_to_another_in_a_circle():
    assert circles(kernel_graph()) == []


def test_each_kernel_module_refers_only_to_the_layers_below():
    assert upward(kernel_graph(), RUST_LAYERS) == []


def test_no_kernel_module_reads_the_crates_root():
    """``lib.rs`` re-exports for the bindings; inside the crate each path names its module
    (``crate::limits::MAX_PLAYERS``), so the graph shows the real reference."""
    assert graph_of(kernel_sources())[1] == []


def test_the_games_behaviour_is_only_in_the_games_own_files():
    """``impl Game`` under ``game/`` alone: the checker, the observation and the bots call the
    game, they add nothing to it."""
    assert impl_game_outside(kernel_sources()) == []
    assert "game/scoring.rs" in [relative for relative, text in kernel_sources().items() if _IMPL_GAME.search(text)]


def test_a_planted_circle_an_upward_reference_and_a_stray_impl_are_each_found():
    sources = {
        "rules/mod.rs": "use crate::expr::Set;\nuse crate::state::{State, Stage};\n",
        "state.rs": "// crate::game in a comment is no reference\nuse crate::rules::Rules;\n",
        "expr.rs": "pub enum Set {}\n#[cfg(test)]\nmod tests {\n    use crate::game::Game;\n}\n",
        "game/mod.rs": "use crate::{rules::Rules, state};\npub struct Game;\n",
        "game/scoring.rs": "impl Game {}\n",
        "check.rs": "use crate::MAX_PLAYERS;\nimpl Game {\n}\n",
    }
    graph, root_items = graph_of(sources)
    assert graph == {
        "rules": frozenset({"expr", "state"}),
        "state": frozenset({"rules"}),
        "expr": frozenset(),
        "game": frozenset({"rules", "state"}),
        "check": frozenset(),
    }
    assert circles(graph) == [["rules", "state"]]
    layers = {"expr": 1, "rules": 2, "state": 3, "game": 4, "check": 5}
    assert upward(graph, layers) == ["rules -> state"]
    assert root_items == ["check.rs: crate::MAX_PLAYERS"]
    assert impl_game_outside(sources) == ["check.rs"]


def too_long(files: dict[str, int], most: int = MOST_LINES) -> list[str]:
    return [f"{name}: {lines} lines" for name, lines in sorted(files.items()) if lines > most and name not in GENERATED]


def test_no_rust_file_written_by_hand_passes_700_lines():
    files = {
        path.relative_to(CRATES).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(CRATES.glob("*/*/**/*.rs"))
    }
    assert "kernel/src/game/mod.rs" in files
    assert too_long(files) == []
    planted = {"kernel/src/game/mod.rs": 701, "kernel/src/fixtures/compiled.rs": 900, "kernel/src/rng.rs": 700}
    assert too_long(planted) == ["kernel/src/game/mod.rs: 701 lines"]


if __name__ == "__main__":  # print the layers, bottom up, each with the modules it refers to
    for module, targets in sorted(kernel_graph().items(), key=lambda item: (RUST_LAYERS[item[0]], item[0])):
        print(f"{RUST_LAYERS[module]} {module:<14} -> {', '.join(sorted(targets)) or '(nothing)'}")
