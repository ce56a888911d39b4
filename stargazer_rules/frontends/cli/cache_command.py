"""The ``cache`` command: list or clear the finished runs that ``simulate`` and ``compare``
keep and reuse (``simulation.cache``); its own module, as it plays nothing and reads no run."""

from __future__ import annotations

import argparse
import os

from stargazer_rules.frontends.cli.common import EXIT_INVALID, EXIT_USAGE, say_error, wrapped
from stargazer_rules.simulation import cache


def add_cache(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "cache",
        help="list or clear the finished runs that simulate and compare reuse",
        description=wrapped(
            "simulate and compare keep every finished run in a cache folder and reuse it when the "
            "same ruleset, players, lineup, seed, engine and library are asked for again. The "
            f"folder is --cache DIR, else ${cache.CACHE_VARIABLE}, else the user's cache folder "
            f"({_default_cache_folder()}); "
            f"its size is bounded by ${cache.SIZE_VARIABLE} (default "
            f"{cache.DEFAULT_BOUND / 1e9:g} GB), the runs used least recently leaving first."
        ),
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the runs in the cache, the most recently used first")
    listing.add_argument("--cache", default=None, metavar="DIR", help="the cache folder (default: as above)")
    listing.set_defaults(run=run_cache_list)
    clearing = actions.add_parser("clear", help="remove runs from the cache (all of them, or those named)")
    clearing.add_argument("keys", nargs="*", metavar="KEY", help="the first digits of the runs' keys, as 'list' shows them")
    clearing.add_argument("--cache", default=None, metavar="DIR", help="the cache folder (default: as above)")
    clearing.set_defaults(run=run_cache_clear)


def _default_cache_folder() -> str:
    """The user's cache folder for the help; every command builds the help, and platformdirs,
    which finds the folder, comes with the sim extra."""
    if os.environ.get(cache.CACHE_VARIABLE):
        return "as set"
    try:
        return str(cache.cache_folder(None))
    except ImportError:
        return "found by platformdirs, of the sim extra"


def run_cache_list(args: argparse.Namespace) -> int:
    """Print the cache folder, its runs and its size against the bound."""
    folder = cache.cache_folder(args.cache)
    try:
        bound = cache.cache_bound()
    except ValueError as error:
        say_error("cache", str(error))
        return EXIT_USAGE
    found = cache.entries(folder)
    total = sum(entry.size for entry in found)
    print(f"{folder}: {len(found)} run{'s' if len(found) != 1 else ''}, {total / 1e6:.1f} MB of {bound / 1e6:,.0f} MB")
    for entry in found:
        print(f"  {entry.describe()}")
    others = cache.foreign_folders(folder)
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3:,} more" if len(others) > 3 else "")
        print(f"  left alone: {shown} ({'is' if len(others) == 1 else 'are'} not a run this cache made)")
    return 0


def run_cache_clear(args: argparse.Namespace) -> int:
    """Remove the runs named (or all); one line per run another process is writing."""
    folder = cache.cache_folder(args.cache)
    known = cache.entries(folder)
    unknown = [key for key in args.keys if not any(entry.key.startswith(key) for entry in known)]
    if unknown:
        say_error("cache", f"no run in {folder} has a key starting with {', '.join(unknown)}: 'stargazer cache list' shows them")
        return EXIT_USAGE
    removed, busy = cache.clear(folder, args.keys)
    for entry in busy:
        say_error("cache", f"left {entry.key[:12]}: another process is writing it")
    freed = sum(entry.size for entry in removed)
    print(f"{folder}: removed {len(removed)} run{'s' if len(removed) != 1 else ''} ({freed / 1e6:.1f} MB)")
    return EXIT_INVALID if busy else 0
