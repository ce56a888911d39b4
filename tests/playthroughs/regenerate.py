"""Write the playthrough transcripts: complete games of seeded random legal moves, as YAML.

Each transcript under ``tests/playthroughs/`` is one whole game: the ruleset's name and
fingerprint, the explicit setup, then one entry per decision (who decides, the legal actions,
the action taken as its JSON form, and the events that followed, one per line), and the final
score sheet. ``tests/test_playthroughs.py`` replays every transcript and fails on any
difference, so a change in the engine's behaviour shows up as a readable diff of these files.

After a change of behaviour has been approved, rewrite the transcripts and review the diff::

    python tests/playthroughs/regenerate.py           # rewrite every transcript
    python tests/playthroughs/regenerate.py --check   # exit 1 if any transcript is out of date
    git diff tests/playthroughs/

A game is dealt with ``game.new_state(players=N, seed=S)`` and played with
``random.Random(S).choice(game.legal_actions(state))`` until it is over. The seeds were picked
so that each draft-7 game shows every event key and every action kind
(``python tests/playthroughs/regenerate.py --find-seeds draft7 3`` lists such seeds); the test
checks that the transcripts still do.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from stargazer_rules import Game, load_ruleset
from stargazer_rules.formats import jsonio
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.events import EVENT_KEYS

try:  # English renderings as comments, when the text module is there; the test ignores them
    from stargazer_rules.text.messages import describe_action, render_event
except ImportError:  # pragma: no cover - depends on the checkout
    describe_action = render_event = None  # type: ignore[assignment]

#: The folder of the transcripts: this file's folder.
HERE = Path(__file__).resolve().parent

#: The ``format`` of a transcript document.
FORMAT = "stargazer-playthrough/1"

#: How the tests and this script are told to regenerate, in every header and failure message.
REGENERATE = "python tests/playthroughs/regenerate.py"

#: Lines are wrapped at this width where YAML allows it (flow lists of legal actions).
WIDTH = 100


class Playthrough(NamedTuple):
    """One transcript: a bundled ruleset, a player count and the seed of the deal and the moves."""

    ruleset: str
    players: int
    seed: int

    @property
    def file_name(self) -> str:
        return f"{self.ruleset}-{self.players}p-seed{self.seed}.yaml"

    @property
    def path(self) -> Path:
        return HERE / self.file_name


#: Every transcript. Draft 7's seeds show every event key and action kind in one game each.
PLAYTHROUGHS = (
    Playthrough("draft7", 3, 42),
    Playthrough("draft7", 4, 19),
    Playthrough("base", 4, 1),
)


# -- playing ------------------------------------------------------------------------------


def compact(action_json: Mapping[str, Any]) -> str:
    """An action JSON as one short string, its values joined by spaces: ``survey lava-1 3 clockwise``.

    The keys of an action JSON follow from its ``type``, so the string names the action exactly.
    """
    return " ".join(str(value) for value in action_json.values())


def play(entry: Playthrough, game: Game | None = None) -> tuple[dict[str, Any], list[list[str]]]:
    """The transcript document of ``entry``'s game, and English comments per decision.

    The comments are, per decision, the rendering of the action and then of each event (empty
    strings when ``stargazer_rules.text.messages`` is not available).
    """
    game = game or Game(load_ruleset(entry.ruleset))
    rng = random.Random(entry.seed)
    state = game.new_state(players=entry.players, seed=entry.seed)
    setup = game.deal(entry.players, entry.seed)
    assert game.new_state(setup=setup) == state
    decisions = []
    comments = []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        act = rng.choice(legal)
        player = game.current_player(state)
        decision: dict[str, Any] = {
            "index": len(decisions),
            "round": state.round,
            "stage": state.stage,
            "player": player,
            "legal": [compact(jsonio.action_to_json(game, state, option)) for option in legal],
            "action": jsonio.action_to_json(game, state, act),
        }
        said = [describe_action(game, state, act, "en") if describe_action else ""]
        state, events = game.apply(state, act)
        decision["events"] = [jsonio.event_to_json(event) for event in events]
        said += [render_event(event, game.ruleset, "en") if render_event else "" for event in events]
        decisions.append(decision)
        comments.append(said)
    document = {
        "format": FORMAT,
        "ruleset": {"name": game.ruleset.name, "fingerprint": game.ruleset.fingerprint},
        "seed": entry.seed,
        "setup": jsonio.setup_to_json(setup),
        "decisions": decisions,
        "score_sheet": jsonio.score_sheet_to_json(game.score(state)),
    }
    return document, comments


# -- writing YAML -------------------------------------------------------------------------

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*( [A-Za-z0-9_-]+)*")


def scalar(value: Any) -> str:
    """A YAML scalar: plain where it reads back as the same value, else double-quoted (JSON)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and _PLAIN.fullmatch(value) and yaml.safe_load(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def flow(value: Any) -> str:
    """``value`` in YAML flow style on one line: ``{key: cube_placed, owner: 0}``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{scalar(key)}: {flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    return scalar(value)


def wrapped_list(key: str, items: Sequence[Any], indent: int) -> Iterator[str]:
    """``key: [a, b, ...]`` in flow style, continued on lines indented two more when it is long."""
    parts = [flow(item) for item in items]
    line = " " * indent + f"{key}: ["
    if not parts:
        yield line + "]"
        return
    lines = []
    for number, part in enumerate(parts):
        text = part + ("," if number < len(parts) - 1 else "]")
        if line.endswith("[") or len(line) + 1 + len(text) <= WIDTH:
            line += ("" if line.endswith("[") else " ") + text
        else:
            lines.append(line)
            line = " " * (indent + 2) + text
    lines.append(line)
    yield from lines


def with_comment(line: str, comment: str) -> str:
    return f"{line}  # {comment}" if comment else line


def header(entry: Playthrough, document: Mapping[str, Any]) -> list[str]:
    return [
        f"# Playthrough: ruleset {entry.ruleset}, {entry.players} players, seed {entry.seed}.",
        "# One complete game of seeded random legal moves: the deal is",
        f"# game.new_state(players={entry.players}, seed={entry.seed}), each move",
        f"# random.Random({entry.seed}).choice(game.legal_actions(state)).",
        "#",
        "# Written by tests/playthroughs/regenerate.py; tests/test_playthroughs.py replays it and",
        "# fails on any difference in the events, the legal actions or the final score sheet.",
        "# Do not edit by hand. After an approved change of the rules' behaviour, rewrite every",
        "# transcript and review the diff:",
        f"#     {REGENERATE}",
        "#",
        "# Each decision: its index, round, stage and deciding seat; the legal actions, each as",
        "# its action JSON's values joined by spaces; the action taken (action JSON); the events",
        "# that followed (event JSON), one per line. Seats count from 0, owner -1 is a free cube,",
        "# square 0 a special square. Comments give the English text and are not checked.",
    ]


def render(entry: Playthrough, document: Mapping[str, Any], comments: Sequence[Sequence[str]]) -> str:
    """The transcript as YAML text."""
    lines = header(entry, document)
    lines.append(f"format: {scalar(document['format'])}")
    lines.append(f"ruleset: {flow(document['ruleset'])}")
    lines.append(f"seed: {document['seed']}")
    setup = document["setup"]
    lines.append("setup:")
    lines.append(f"  players: {setup['players']}")
    lines.append(f"  planets: {flow(setup['planets'])}")
    lines.append(f"  crew: {flow(setup['crew'])}")
    lines.append(f"  start_player: {setup['start_player']}")
    lines.append("decisions:")
    for decision, said in zip(document["decisions"], comments, strict=True):
        lines.append(f"  - index: {decision['index']}")
        for key in ("round", "stage", "player"):
            lines.append(f"    {key}: {scalar(decision[key])}")
        lines.extend(wrapped_list("legal", decision["legal"], 4))
        lines.append(with_comment(f"    action: {flow(decision['action'])}", said[0]))
        if decision["events"]:
            lines.append("    events:")
            for event, text in zip(decision["events"], said[1:], strict=True):
                lines.append(with_comment(f"      - {flow(event)}", text))
        else:
            lines.append("    events: []")
    lines.extend(score_sheet_lines(document["score_sheet"]))
    return "\n".join(lines) + "\n"


def score_sheet_lines(sheet: Mapping[str, Any]) -> Iterator[str]:
    """The score sheet: block style down to one line per standing and per seat's item."""
    yield "score_sheet:"
    for key, value in sheet.items():
        if key == "planets":
            yield "  planets:"
            for result in value:
                yield from _block_item(result, 4)
        elif key == "seats":
            yield "  seats:"
            for seat in value:
                yield from _block_item(seat, 4)
        else:
            yield f"  {key}: {flow(value)}"


def _block_item(item: Mapping[str, Any], indent: int) -> Iterator[str]:
    """A mapping as a block list item; its lists of mappings one mapping per line."""
    pad = " " * indent
    for number, (key, value) in enumerate(item.items()):
        lead = pad + ("- " if number == 0 else "  ")
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            yield f"{lead}{key}:"
            for element in value:
                yield f"{pad}    - {flow(element)}"
        else:
            yield f"{lead}{key}: {flow(value)}"


def transcript_text(entry: Playthrough, game: Game | None = None) -> str:
    """The text of ``entry``'s transcript, checked to read back as the document it writes."""
    document, comments = play(entry, game)
    text = render(entry, document, comments)
    assert load_text(text) == document, f"{entry.file_name}: the YAML does not read back"
    return text


def load_text(text: str) -> Any:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)


def load(entry: Playthrough) -> Any:
    """The transcript document of ``entry`` as stored."""
    return load_text(entry.path.read_text(encoding="utf-8"))


# -- picking seeds ------------------------------------------------------------------------


def shown(document: Mapping[str, Any]) -> tuple[set[str], set[str]]:
    """The event keys and action types a transcript document shows."""
    keys = {event["key"] for decision in document["decisions"] for event in decision["events"]}
    kinds = {decision["action"]["type"] for decision in document["decisions"]}
    return keys, kinds


def find_seeds(ruleset: str, players: int, seeds: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Seeds whose game shows every event key and every action kind, with its decision count."""
    game = Game(load_ruleset(ruleset))
    for seed in seeds:
        document, _ = play(Playthrough(ruleset, players, seed), game)
        keys, kinds = shown(document)
        if keys == set(EVENT_KEYS) and kinds == set(A.KINDS):
            yield seed, len(document["decisions"])


# -- the command --------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a transcript is out of date")
    parser.add_argument(
        "--find-seeds",
        nargs=2,
        metavar=("RULESET", "PLAYERS"),
        help="list seeds 1..300 whose game shows every event key and action kind",
    )
    args = parser.parse_args(argv)
    if args.find_seeds:
        ruleset, players = args.find_seeds[0], int(args.find_seeds[1])
        for seed, decisions in find_seeds(ruleset, players, range(1, 301)):
            print(f"seed {seed}: {decisions} decisions")
        return 0
    games: dict[str, Game] = {}
    stale = []
    for entry in PLAYTHROUGHS:
        game = games.setdefault(entry.ruleset, Game(load_ruleset(entry.ruleset)))
        text = transcript_text(entry, game)
        old = entry.path.read_text(encoding="utf-8") if entry.path.exists() else None
        if old == text:
            continue
        stale.append(entry.file_name)
        if not args.check:
            entry.path.write_text(text, encoding="utf-8")
            print(f"wrote tests/playthroughs/{entry.file_name}")
    known = {entry.file_name for entry in PLAYTHROUGHS}
    for extra in sorted(path.name for path in HERE.glob("*.yaml") if path.name not in known):
        print(f"not a transcript of PLAYTHROUGHS (delete it?): {extra}")
    if args.check and stale:
        print(f"out of date: {', '.join(stale)}; run {REGENERATE}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
