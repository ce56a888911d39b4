"""The core install: the rules API and the commands that need no extra work with only the core
dependencies importable, and every command of an extra says in one line which one to install.

Each test runs the command in a subprocess whose ``sitecustomize`` puts a finder first on
``sys.meta_path`` that refuses every top-level module outside the standard library and the core
dependencies (pyproject.toml's ``dependencies``), as an install without extras would: numpy,
scipy, matplotlib, reportlab, starlette, optuna, ... raise ``ModuleNotFoundError``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from stargazer_rules.frontends.cli.common import COMMAND_EXTRAS

ROOT = Path(__file__).resolve().parent.parent

#: The top-level modules of the core dependencies (pyyaml, jsonschema and what it needs, attrs).
CORE_MODULES = ("attr", "attrs", "jsonschema", "jsonschema_specifications", "referencing", "rpds",
                "stargazer_rules", "typing_extensions", "yaml")

_SITECUSTOMIZE = '''
import sys

ALLOWED = {allowed!r}


class _OnlyTheCore:
    """Refuses the modules a core install does not have."""

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top not in ALLOWED and top not in sys.stdlib_module_names and top not in sys.builtin_module_names:
            raise ModuleNotFoundError(f"No module named {{name!r}} (not in a core install)", name=name)
        return None


sys.meta_path.insert(0, _OnlyTheCore())
'''


def core_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a process that can import only the standard library and the core."""
    site = tmp_path / "core-site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(
        _SITECUSTOMIZE.format(allowed=set(CORE_MODULES)), encoding="utf-8"
    )
    # Without $STARGAZER_CACHE, as on a user's machine: the help of ``cache`` names the default folder.
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "STARGAZER_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    env["NO_COLOR"] = "1"
    return env


def stargazer(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """``stargazer ARGS`` in ``tmp_path`` with the core alone, no input."""
    return subprocess.run(
        [sys.executable, "-m", "stargazer_rules", *args], cwd=tmp_path, env=core_env(tmp_path),
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
    )


def test_the_import_hook_makes_the_extras_unimportable(tmp_path):
    """The check of this file holds only if the hook refuses what a core install lacks."""
    code = ("import importlib\n"
            "for name in ('numpy', 'scipy', 'matplotlib', 'reportlab', 'starlette', 'optuna', 'filelock', 'tqdm'):\n"
            "    try:\n        importlib.import_module(name)\n    except ModuleNotFoundError:\n        print(name, 'missing')\n")
    result = subprocess.run([sys.executable, "-c", code], env=core_env(tmp_path), capture_output=True, text=True,
                            cwd=tmp_path, check=True)
    assert result.stdout.split("\n")[:-1] == [f"{name} missing" for name in
                                               ("numpy", "scipy", "matplotlib", "reportlab", "starlette", "optuna",
                                                "filelock", "tqdm")]


def test_the_python_api_and_the_kernel_need_only_the_core(tmp_path):
    """``Game``, the JSON forms and the native kernel load and play with the core alone."""
    code = textwrap.dedent("""
        import sys
        from stargazer_rules import Game, jsonio, load_ruleset
        from stargazer_rules.kernel import native
        game = Game(load_ruleset())
        state = game.new_state(players=4, seed=7)
        while not game.is_over(state):
            state = game.step(state, game.legal_actions(state)[0])
        assert jsonio.state_from_json(game, jsonio.state_to_json(game, state)) == state
        kernel = native.kernel_for(game)
        assert kernel is not None, native.fallback_reason(game)
        assert native.from_kernel(native.to_kernel(game, state)) == state
        extras = sorted(m for m in ("numpy", "scipy", "matplotlib", "reportlab", "filelock", "platformdirs")
                        if m in sys.modules)
        print("played", game.score(state).winners, extras)
    """)
    result = subprocess.run([sys.executable, "-c", code], env=core_env(tmp_path), capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("played (") and result.stdout.endswith(" []\n")


#: The packages of the core install (`fast` among them: its batches import numpy only when
#: called): each of their modules imports with the core alone. The
#: jobs' own packages (``analysis`` and ``tuning`` of sim and tune, ``printing``,
#: ``frontends.server``) import their extra's libraries at the top.
CORE_PACKAGES = ("bots", "engine", "fast", "formats", "frontends.cli", "frontends.terminal", "kernel", "playtests",
                 "rulesets", "simulation", "text", "vocabulary")


def test_every_module_of_the_core_packages_imports_with_the_core_alone(tmp_path):
    """No module of the core's packages imports an extra's library when it is imported."""
    code = textwrap.dedent(f"""
        import importlib, pkgutil
        import stargazer_rules
        names = ["stargazer_rules"]
        for package in {CORE_PACKAGES!r}:
            module = importlib.import_module("stargazer_rules." + package)
            names.append(module.__name__)
            names += [info.name for info in pkgutil.walk_packages(module.__path__, module.__name__ + ".")]
        for name in names:
            importlib.import_module(name)
        print(len(names), "modules")
    """)
    result = subprocess.run([sys.executable, "-c", code], env=core_env(tmp_path), capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.split()[0]) > 60


@pytest.mark.slow
def test_the_rules_commands_need_only_the_core(tmp_path):
    """validate, rules, new-draft and diff run and say what they say with every extra installed."""
    validate = stargazer(tmp_path, "validate")
    assert (validate.returncode, validate.stderr) == (0, "")
    assert validate.stdout.startswith("draft7: valid")
    rules = stargazer(tmp_path, "rules", "base")
    assert (rules.returncode, rules.stderr) == (0, "")
    assert "Crew" in rules.stdout
    draft = stargazer(tmp_path, "new-draft", "draft8")
    assert draft.returncode == 0, draft.stderr
    assert (tmp_path / "draft8" / "schemas" / "crew.schema.json").is_file()
    assert stargazer(tmp_path, "validate", "draft8").returncode == 0
    diff = stargazer(tmp_path, "diff", "draft7", "base", "--json")
    assert diff.returncode == 0, diff.stderr
    assert json.loads(diff.stdout)


@pytest.mark.slow
def test_the_play_commands_need_only_the_core(tmp_path):
    """play-random writes a record that replay plays back; play plays an all-bot table."""
    played = stargazer(tmp_path, "play-random", "--players", "3", "--seed", "1", "--record", "game.json")
    assert played.returncode == 0, played.stderr
    replayed = stargazer(tmp_path, "replay", "game.json")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.splitlines()[-1] == played.stdout.splitlines()[-2]  # the winners line
    bots = stargazer(tmp_path, "play", "--seats", "greedy", "--players", "3", "--seed", "2")
    assert (bots.returncode, bots.stderr) == (0, "")
    assert "Seats: Player 1 (greedy), Player 2 (greedy), Player 3 (greedy)" in bots.stdout


COMMANDS_OF_EXTRAS = [
    (["simulate", "--games", "2", "--workers", "1"], "sim"),
    (["compare", "draft7", "base", "--games", "2"], "sim"),
    (["report", "nowhere"], "sim"),
    (["ladder", "--games", "2"], "sim"),
    (["cache", "list"], "sim"),
    (["tune", "draft7"], "tune"),
    (["print", "--out", "cards.pdf"], "print"),
    (["serve", "--port", "0"], "serve"),
]


@pytest.mark.parametrize(("args", "extra"), COMMANDS_OF_EXTRAS, ids=[args[0] for args, _ in COMMANDS_OF_EXTRAS])
def test_a_command_of_an_extra_names_the_extra_in_one_line(tmp_path, args, extra):
    """Without its extra a command prints one line naming the pip command, exit 1, and writes nothing."""
    result = stargazer(tmp_path, *args)
    missing = ", ".join(name for name in COMMAND_EXTRAS[args[0]].modules)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"stargazer {args[0]}: needs the {extra} extra ({missing}: not installed): "
        f"pip install 'stargazer-rules[{extra}]'\n"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["core-site"]


def test_the_missing_modules_are_the_ones_named(tmp_path):
    """With all but one of an extra's modules importable, the line names that one."""
    result = subprocess.run(
        [sys.executable, "-m", "stargazer_rules", "tune", "draft7"], cwd=tmp_path, capture_output=True, text=True,
        env=env_without(tmp_path, "optuna"),
    )
    assert (result.returncode, result.stderr) == (
        1, "stargazer tune: needs the tune extra (optuna: not installed): pip install 'stargazer-rules[tune]'\n"
    )


def env_without(tmp_path: Path, name: str) -> dict[str, str]:
    """The environment of a process that can import everything but ``name`` and its submodules."""
    site = tmp_path / "block-one"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n\nclass _Block:\n    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {name!r} or name.startswith({name + '.'!r}):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n        return None\n\n"
        "sys.meta_path.insert(0, _Block())\n", encoding="utf-8",
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return env | {"PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "NO_COLOR": "1",
                  "STARGAZER_CACHE": str(tmp_path / "cache")}


def test_the_help_of_a_command_of_an_extra_needs_only_the_core(tmp_path):
    """``--help`` reads the options before anything is run, so it works without the extra."""
    result = stargazer(tmp_path, "simulate", "--help")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("usage: stargazer simulate")


def test_every_extra_of_the_table_installs_the_modules_it_names():
    """Each command's extra is in pyproject.toml, and each module that proves it installed
    comes from a package that extra (or an extra it includes) lists."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    distributions = metadata.packages_distributions()

    def packages(extra: str) -> set[str]:
        names: set[str] = set()
        for requirement in extras[extra]:
            name = requirement.split(";")[0].split(">")[0].split("=")[0].split("<")[0].strip()
            if name.startswith("stargazer-rules["):
                for inner in name.removeprefix("stargazer-rules[").removesuffix("]").split(","):
                    names |= packages(inner)
            else:
                names.add(name.lower().replace("_", "-"))
        return names

    for command, extra in COMMAND_EXTRAS.items():
        assert extra.name in extras, command
        for module in extra.modules:
            assert {d.lower().replace("_", "-") for d in distributions[module]} & packages(extra.name), (command, module)
    jobs = set(extras) - {"all", "test"}
    assert packages("all") == set().union(*(packages(job) for job in jobs))
    assert packages("all") <= packages("test")


@pytest.mark.slow
def test_without_the_kernel_simulate_plays_on_the_python_engine_with_one_warning(tmp_path):
    """A package without its compiled kernel (a source tree never built) plays every game on
    the Python engine and says so in exactly one line."""
    result = subprocess.run(
        [sys.executable, "-m", "stargazer_rules", "simulate", "--games", "4", "--workers", "1", "--bots", "greedy",
         "--out", "sim"],
        cwd=tmp_path, capture_output=True, text=True,
        env=env_without(tmp_path, "stargazer_rules._kernel"),
    )
    assert result.returncode == 0, result.stderr
    warning = ("stargazer simulate: warning: draft7 runs on the Python engine: the native kernel is not built "
               "(No module named 'stargazer_rules._kernel')")
    lines = result.stderr.splitlines()
    assert [line for line in lines if "warning" in line] == [warning] == lines[:1]
    assert lines[1].startswith("draft7: played 4 games in ") and lines[1].endswith(", python engine) on 1 worker -> sim/games.jsonl")
    games = [json.loads(line) for line in (tmp_path / "sim" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [game["engine"] for game in games] == ["python"] * 4


def test_the_readme_lists_every_extra_with_the_commands_that_need_it():
    """README's "Installing" table has one row per extra of pyproject.toml, and the commands
    in its rows are those of ``COMMAND_EXTRAS``."""
    from stargazer_rules.frontends.cli import build_parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Installing\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| `")]
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert [row[0].strip("| `") for row in rows] == list(extras)
    commands = set(build_parser()._subparsers._group_actions[0].choices)
    listed = {word: row[0].strip("| `") for row in rows for word in code_words(row[1]) if word in commands}
    assert listed == {command: extra.name for command, extra in COMMAND_EXTRAS.items()}


def code_words(cell: str) -> list[str]:
    """The one-word code spans of a table cell (``simulate``, not ``simulate --scheduler``)."""
    return [span for span in cell.split("`")[1::2] if " " not in span]


def test_the_hook_allows_every_core_dependency():
    """Each package of pyproject.toml's ``dependencies`` has its modules in ``CORE_MODULES``, so
    a new core dependency is importable in these tests once it is listed there too."""
    core = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    distributions = metadata.packages_distributions()
    allowed = {d.lower() for module in CORE_MODULES if module != "stargazer_rules" for d in distributions[module]}
    assert {requirement.split(">")[0].split("=")[0].strip().lower() for requirement in core} <= allowed
