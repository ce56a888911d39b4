"""Reusing finished runs: a run is identified by what makes its games, not by where it lies.

A game is a pure function of the ruleset, its deal seed, its rotation, the lineup and the
engine whose bots played (docs/simulation.md, "The plan of a run"), and the library that
played it. ``run_identity`` is that identity without the number of games: two runs with the
same identity hold the same game at every index, so a run of 1,800 games *is* the first 1,800
games of a run of 3,600. ``simulate`` and ``compare`` therefore

- **reuse** a run of the same identity with at least the games asked for, from the output
  folder (``OUT/run.json`` beside ``OUT/games.jsonl``) or from a cache folder
  (``CACHE/<key>/``, ``key`` a hash of the identity), without playing a game;
- **extend** a shorter one (an interrupted run, or fewer ``--games``) as ``--resume`` does: only
  the missing games are played;
- and say which they did. ``--no-cache`` plays everything again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import attrs

from stargazer_rules.simulation.runner import GAMES_FILE, game_line, plan, read_games, seating

__all__ = [
    "IDENTITY_FILE",
    "Reuse",
    "cache_folder",
    "code_digest",
    "identity_key",
    "library_version",
    "prepare",
    "run_identity",
    "store",
    "write_identity",
]

#: The identity of the run in an output folder, beside games.jsonl.
IDENTITY_FILE = "run.json"
#: The ``format`` of run.json.
RUN_FORMAT = "stargazer-run/1"
#: The environment variable naming the cache folder (no cache folder when unset or empty).
CACHE_VARIABLE = "STARGAZER_CACHE"


def library_version() -> str:
    """The installed version of stargazer-rules (part of a run's identity)."""
    try:
        return metadata.version("stargazer-rules")
    except metadata.PackageNotFoundError:
        return "unknown"


#: The parts of the package whose code decides what a game's line holds: the rules, the
#: formats, the kernel and its Python side, the bots and the runner. Text, analysis and front
#: ends only read the lines, so editing them keeps the runs.
_PLAYING_CODE = ("engine", "rulesets", "formats", "kernel", "bots", "simulation")


@functools.cache
def code_digest() -> str:
    """A hash of the code that plays the games: the Python files of ``_PLAYING_CODE``, the
    compiled kernel and the bundled schemas (16 hex digits).

    Part of a run's identity beside the version: an editable install (a checkout being worked
    on) keeps its version while its rules change, and a run of the old code must not be
    taken for one of the new.
    """
    return digest_of_code(Path(__file__).resolve().parent.parent)


def digest_of_code(package: Path) -> str:
    """``code_digest`` of the package folder ``package``."""
    files = [path for part in _PLAYING_CODE for path in sorted((package / part).rglob("*.py"))]
    files += sorted(package.glob("_kernel*.so")) + sorted(package.glob("_kernel*.pyd"))
    files += sorted((package / "_bundled" / "schemas").glob("*.json"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(package).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def run_identity(ruleset_name: str, fingerprint: str, players: int, lineup: Sequence[str], seed: int, engine: str) -> dict[str, Any]:
    """What makes a run's games: ruleset fingerprint, players, lineup, seed, engine, and the
    library (its version and ``code_digest``)."""
    return {
        "format": RUN_FORMAT,
        "ruleset": {"name": ruleset_name, "fingerprint": fingerprint},
        "players": players,
        "lineup": list(lineup),
        "seed": seed,
        "engine": engine,
        "version": library_version(),
        "code": code_digest(),
    }


def identity_key(identity: Mapping[str, Any]) -> str:
    """A short hash of the identity (the ruleset's name left out: only its content counts)."""
    content = {key: value for key, value in identity.items() if key != "ruleset"}
    content["fingerprint"] = identity["ruleset"]["fingerprint"]
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def cache_folder(given: str | None = None) -> Path | None:
    """The cache folder: ``given`` (``--cache``), else ``$STARGAZER_CACHE``, else none."""
    chosen = given if given is not None else os.environ.get(CACHE_VARIABLE, "")
    return Path(chosen).expanduser() if chosen else None


@attrs.frozen
class Reuse:
    """What ``prepare`` found: ``source``, the folder whose games were kept (``where`` is
    ``out`` or ``cache``), ``games`` kept and ``planned`` the games of the run asked for."""

    source: Path
    where: str
    games: int
    planned: int

    @property
    def complete(self) -> bool:
        return self.games >= self.planned

    def describe(self) -> str:
        place = "the output folder" if self.where == "out" else "the cache"
        if self.complete:
            return (
                f"reused the {self.games:,} finished games of the same run in {place} ({self.source}): same "
                "ruleset fingerprint, players, lineup, seed, engine and library (version and code); "
                "--no-cache plays them again"
            )
        return f"extending the run in {place} ({self.source}): {self.games:,} of {self.planned:,} games kept"


def _identity_of(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / IDENTITY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _games_of(folder: Path, planned: int, identity: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The games of ``folder`` with an index below ``planned``; with ``identity``, only those
    whose line agrees with it (a games file left by another run is never taken for this one)."""
    try:
        games = [game for game in read_games(folder / GAMES_FILE) if game["index"] < planned]
    except (OSError, ValueError):
        return []
    if identity is not None:
        games = [game for game in games if _matches(game, identity)]
    return games


def _matches(game: Mapping[str, Any], identity: Mapping[str, Any]) -> bool:
    return (
        game["ruleset"]["fingerprint"] == identity["ruleset"]["fingerprint"]
        and game["players"] == identity["players"]
        and game["deal_seed"] == identity["seed"] + game["block"]
        and list(game["seating"]) == list(seating(identity["lineup"], game["rotation"]))
        and game.get("engine", "python") == identity["engine"]
    )


def prepare(out: str | os.PathLike[str], identity: Mapping[str, Any], games: int, cache: Path | None) -> Reuse | None:
    """Make ``out`` hold the most games of a run with this ``identity`` that the output folder
    or the cache has (at most the ``games`` of the plan), and say where they came from; None
    when neither has any. ``out/run.json`` is written with the identity."""
    out = Path(out)
    planned = len(plan(games, identity["players"], identity["seed"]))
    candidates = []
    if _same(_identity_of(out), identity):
        candidates.append((out, "out"))
    if cache is not None:
        folder = cache / identity_key(identity)
        if _same(_identity_of(folder), identity):
            candidates.append((folder, "cache"))
    best: tuple[list[dict[str, Any]], Path, str] | None = None
    for folder, where in candidates:
        kept = _games_of(folder, planned, identity)
        if kept and (best is None or len(kept) > len(best[0])):
            best = (kept, folder, where)
    out.mkdir(parents=True, exist_ok=True)
    write_identity(out, identity)
    if best is None:
        return None
    kept, folder, where = best
    path = out / GAMES_FILE
    if where == "cache" or len(_games_of(out, 1 << 62)) != len(kept):
        # exactly the planned games of the run, in index order
        path.write_text("".join(game_line(game) + "\n" for game in kept), encoding="utf-8")
    return Reuse(folder, where, len(kept), planned)


def store(out: str | os.PathLike[str], identity: Mapping[str, Any], cache: Path | None) -> Path | None:
    """Copy the run in ``out`` into the cache unless the cache already has as many games."""
    if cache is None:
        return None
    out = Path(out)
    folder = cache / identity_key(identity)
    count = len(_games_of(out, 1 << 62))
    if count and count > len(_games_of(folder, 1 << 62)):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out / GAMES_FILE, folder / GAMES_FILE)
        write_identity(folder, identity)
    return folder


def _same(found: Mapping[str, Any] | None, identity: Mapping[str, Any]) -> bool:
    if found is None:
        return False
    keys = ("players", "lineup", "seed", "engine", "version", "code")
    return found.get("ruleset", {}).get("fingerprint") == identity["ruleset"]["fingerprint"] and all(
        found.get(key) == identity[key] for key in keys
    )


def write_identity(folder: str | os.PathLike[str], identity: Mapping[str, Any]) -> None:
    """Write ``folder/run.json`` (the folder made if missing)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / IDENTITY_FILE).write_text(json.dumps(dict(identity), indent=2) + "\n", encoding="utf-8")
