"""The package's layers: no module imports in a circle, and each layer imports only those below.

The layers, bottom up (docs/architecture.md): ``vocabulary`` (effects, actions, events and the
table they act on) <- ``rulesets`` <- ``engine`` <- ``formats``, ``text``, ``kernel`` (the
native kernel's Python side) and ``playtests`` (the games played at the table) <- ``bots``, ``fast`` (the fast API over the kernel), ``simulation``
and ``analysis`` <- ``tuning`` (the search over a ruleset's values, which plays and judges
candidates) and ``adapters`` (the game for OpenSpiel, PettingZoo and Gymnasium, over the fast
API and the bots) <- ``frontends`` (with
``printing``, the cards and rules sheet, at the level of ``analysis``); ``errors`` serves them
all. No import runs upward, without exception.
The imports are read from the source with ``ast``, every one of them: at module level, inside
functions and under ``if TYPE_CHECKING:``, since a circle that only the type checker follows is
still a circle for a reader. No module passes 700 lines (``MOST_LINES``), as the Rust files do not
(``tests/test_rust_layers.py``).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import stargazer_rules

PACKAGE = Path(stargazer_rules.__file__).resolve().parent

#: Layer of each top-level folder of the package, bottom up; a layer may import its own modules
#: and those of the layers below.
LAYERS = {
    "contract": 0,
    "vocabulary": 1,
    "rulesets": 2,
    "engine": 3,
    "formats": 4,
    "text": 4,
    "kernel": 4,
    "playtests": 4,
    "bots": 5,
    "fast": 5,
    "simulation": 5,
    "analysis": 5,
    "printing": 5,
    "tuning": 6,
    "adapters": 6,
    "frontends": 7,
}

#: Modules at the top of the package: the shared errors (importable anywhere), the public
#: surface and ``python -m stargazer_rules``.
TOP_MODULES = {"stargazer_rules.errors": 0, "stargazer_rules": 8, "stargazer_rules.__main__": 8}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def imports() -> dict[str, frozenset[str]]:
    """Each module of the package -> the modules of the package it imports, anywhere in it."""
    known = modules()
    graph = {}
    for name, path in known.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    found.add(submodule if submodule in known else node.module)
        graph[name] = frozenset(target for target in found if target in known and target != name)
    return graph


def circles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_of(module: str) -> tuple[str, int]:
    if module in TOP_MODULES:
        return module, TOP_MODULES[module]
    folder = module.split(".")[1]
    assert folder in LAYERS, f"{module} is in no layer: put it in one of {sorted(LAYERS)}"
    return folder, LAYERS[folder]


def layer_imports() -> dict[str, frozenset[str]]:
    """Each layer (a top-level folder, or a top module) -> the other layers its modules import."""
    graph: dict[str, set[str]] = {}
    for module, targets in imports().items():
        graph.setdefault(layer_of(module)[0], set()).update(layer_of(t)[0] for t in targets)
    return {layer: frozenset(targets - {layer}) for layer, targets in graph.items()}


def test_the_package_is_read():
    assert {"stargazer_rules.engine.game", "stargazer_rules.rulesets.loader"} <= set(modules())
    assert "stargazer_rules.vocabulary.table" in imports()["stargazer_rules.vocabulary.effects.base"]
    assert "stargazer_rules.vocabulary.effects" in imports()["stargazer_rules.rulesets.model"]


def test_no_module_imports_in_a_circle():
    """Above all the vocabulary's: the effects name the ``Table`` they act on, and the game runs
    the effects and the scoring; ``table`` is its own module so that these imports run one way."""
    assert circles(imports()) == []


def test_no_two_layers_import_each_other():
    """The rulesets build crew skills from the vocabulary, the engine runs them over a ruleset:
    neither the vocabulary nor the rulesets import the engine back, for type checking either."""
    graph = layer_imports()
    both_ways = sorted(
        f"{layer} <-> {target}"
        for layer, targets in graph.items()
        for target in targets
        if layer < target and layer in graph.get(target, ())
    )
    assert both_ways == []
    assert graph["contract"] == frozenset()  # data only: the bottom of both engines
    assert graph["vocabulary"] <= {"contract", "stargazer_rules.errors"}
    assert graph["rulesets"] <= {"contract", "vocabulary", "stargazer_rules.errors"}


def test_the_circle_finder_finds_one():
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert circles(graph) == [["a", "b", "c"]]


def test_every_module_sits_in_a_layer():
    for module in modules():
        layer_of(module)


def test_each_layer_imports_only_itself_and_the_layers_below():
    wrong = []
    for module, targets in imports().items():
        folder, rank = layer_of(module)
        for target in sorted(targets):
            _, target_rank = layer_of(target)
            if target_rank > rank:
                wrong.append(f"{module} imports {target}")
            elif target_rank == rank and folder != layer_of(target)[0] and folder in ("formats", "text", "kernel"):
                wrong.append(f"{module} imports {target}, a sibling layer")
    assert wrong == []



# -- module sizes -----------------------------------------------------------------------------

#: The most lines a module of the package may hold: past it a module is doing several jobs
#: (the Rust files have the same limit, ``tests/test_rust_layers.py``).
MOST_LINES = 700
#: Modules written by a generator, never by hand, which the limit leaves out: none today.
GENERATED: frozenset[str] = frozenset()


def too_long(sizes: dict[str, int], most: int = MOST_LINES) -> list[str]:
    return [
        f"{name}: {lines} lines"
        for name, lines in sorted(sizes.items())
        if lines > most and name not in GENERATED
    ]


def test_no_module_passes_700_lines():
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()}
    assert "stargazer_rules.engine.game" in sizes
    assert too_long(sizes) == []
    planted = {"stargazer_rules.engine.game": 701, "stargazer_rules.text.messages": 700, "stargazer_rules.rulesets.checks": 1144}
    assert too_long(planted) == ["stargazer_rules.engine.game: 701 lines", "stargazer_rules.rulesets.checks: 1144 lines"]

if __name__ == "__main__":  # print the layers, bottom up, each with the layers it imports
    rank = {**LAYERS, **TOP_MODULES}
    ranked = sorted(layer_imports().items(), key=lambda item: (rank[item[0]], item[0]))
    for layer, targets in ranked:
        print(f"{layer:<28} -> {', '.join(sorted(targets)) or '(nothing)'}")
