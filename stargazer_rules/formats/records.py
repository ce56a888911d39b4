"""Game records: a whole game as data, and its replay.

A ``GameRecord`` holds what a replay needs and nothing it can derive: the ruleset's name and
fingerprint, the explicit ``Setup`` (so no random-number generator is involved), the seed it was
dealt from when there was one, and every decision as action JSON (cards by id, so a record
reads without the engine's positions). Its JSON form is checked by ``schemas/record.schema.json``.

A record is refused under another ruleset, and an illegal action stops a replay with
``RecordError`` naming the action's index. A record listing more moves than a game of its
ruleset can have (``Game.most_moves``, from the round limit) is refused before any of them is
read. A record says how many moves it has and whether its game ended (``moves``, ``finished``,
required since ``stargazer-record/2``), so that one whose last moves were cut off is refused
instead of replaying as a shorter game; ``record_from_json(..., unfinished=True)`` reads such a
record as the unfinished game it now is. A ``stargazer-record/1`` document may leave both out:
it is still read, and ``unchecked`` says what cannot be checked of it.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.errors import IllegalActionError, RecordError, SetupError
from stargazer_rules.formats import actions_json, ruleset_identity, schema_checks, values_json
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.events import Event
from stargazer_rules.vocabulary.table import State

__all__ = [
    "RECORD_FORMAT",
    "GameRecord",
    "final_state",
    "missing_moves",
    "record_from_actions",
    "record_from_json",
    "record_game",
    "record_to_json",
    "replay",
    "replay_events",
    "replay_states",
    "unchecked",
]

#: The ``format`` of a record document: its kind and version. Records are written in it.
RECORD_FORMAT = "stargazer-record/2"

#: The first version, still read: ``moves`` and ``finished`` were optional.
RECORD_FORMAT_1 = "stargazer-record/1"

#: How many legal actions the message of an illegal one lists.
_SHOWN_LEGAL = 8


@attrs.frozen
class GameRecord:
    """One game as data.

    ``ruleset`` and ``fingerprint`` name the rules it was played under; ``setup`` is the explicit
    deal and ``seed`` the seed it was dealt from (None for a deal made by hand; informational,
    the replay uses ``setup``). ``actions`` are the decisions in order, as action JSON;
    ``metadata`` is free-form JSON (player names, date, ...). ``finished`` says whether the game
    had ended after the last action (None when the record does not say: a
    ``stargazer-record/1`` document without it); a replay checks it. Records compare by value;
    holding dicts, they are not hashable.
    """

    ruleset: str
    fingerprint: str
    setup: Setup
    actions: tuple[dict[str, Any], ...] = attrs.field(converter=tuple)
    seed: int | None = None
    metadata: dict[str, Any] = attrs.field(factory=dict, converter=dict)
    finished: bool | None = None


def record_game(
    game: Game,
    setup: Setup,
    actions: Iterable[Action],
    seed: int | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Play ``actions`` from ``setup`` and record them; ``RecordError`` at the first illegal one."""
    state = _start(game, setup)
    recorded = []
    for index, act in enumerate(actions):
        recorded.append(actions_json.action_to_json(game, state, act))
        state = _step(game, state, act, index, recorded[-1])
    return GameRecord(
        game.ruleset.name,
        game.ruleset.fingerprint,
        setup,
        tuple(recorded),
        seed,
        dict(metadata or {}),
        game.is_over(state),
    )


def record_from_actions(
    game: Game,
    setup: Setup,
    actions: Iterable[Mapping[str, Any]],
    seed: int | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> GameRecord:
    """The record of ``actions`` (action JSON) played from ``setup``, each checked by replaying
    it, with ``finished`` from the replay; ``RecordError`` at the first that is not legal."""
    record = GameRecord(
        game.ruleset.name, game.ruleset.fingerprint, setup, tuple(actions), seed, dict(metadata or {})
    )
    return attrs.evolve(record, finished=game.is_over(final_state(game, record)))


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """``record`` as a JSON document (``schemas/record.schema.json``, ``RECORD_FORMAT``).

    ``ValueError`` for a record that does not know whether its game ended (``finished`` None,
    read from an older document or made by hand): the document says it, so replay the record
    and set it (``record_from_actions`` does both)."""
    if record.finished is None:
        raise ValueError(
            "a record document says whether its game ended: set the record's finished "
            "(records.record_from_actions replays the actions and sets it)"
        )
    document = {
        "format": RECORD_FORMAT,
        "ruleset": ruleset_identity.ruleset_json(record.ruleset, record.fingerprint),
        "setup": values_json.setup_to_json(record.setup),
        "seed": record.seed,
        "actions": [dict(act) for act in record.actions],
        "moves": len(record.actions),
        "finished": record.finished,
        "metadata": dict(record.metadata),
    }
    return document


def record_from_json(data: Any, game: Game | None = None, *, unfinished: bool = False) -> GameRecord:
    """The record a JSON document describes; ``RecordError`` when malformed.

    With ``game``, the record is also refused unless it was made with the game's ruleset
    (fingerprint), lists no more moves than its games can have (``Game.most_moves``) and its
    setup fits it; its actions are checked when it is replayed. A record that lists fewer
    actions than its ``moves`` (cut off) is refused, unless ``unfinished``: then it is read as
    the unfinished game of the actions it has (``missing_moves`` says how many are gone).

    The number of actions is checked before the schema reads any of them, so a record far too
    long costs the time to count its list, not to check or replay it.
    """
    if isinstance(data, Mapping) and isinstance(data.get("actions"), list):
        _check_length(len(data["actions"]), game)
    schema_checks.validate("record", data, "game record")
    if game is not None:
        ruleset_identity.check_ruleset(game, data, "record")
    setup = values_json.setup_from_json(data["setup"], game)
    ruleset = data["ruleset"]
    finished = data.get("finished")
    listed = len(data["actions"])
    if "moves" in data and data["moves"] != listed:
        if data["moves"] < listed or not unfinished:
            raise RecordError(
                f"the record has {data['moves']} moves but lists {listed}: "
                + (
                    f"its last {data['moves'] - listed} are missing (the file was cut off?); "
                    "replay what is left as an unfinished game with --unfinished"
                    if data["moves"] > listed
                    else "it was changed after it was written"
                )
            )
        finished = False
    return GameRecord(
        ruleset["name"],
        ruleset["fingerprint"],
        setup,
        tuple(data["actions"]),
        data["seed"],
        data["metadata"],
        finished,
    )


def unchecked(data: Mapping[str, Any]) -> str | None:
    """What cannot be checked of a record document that leaves out ``moves`` or ``finished``
    (allowed in ``stargazer-record/1`` only), as a sentence; None when everything can be."""
    if data.get("format") != RECORD_FORMAT_1:
        return None
    lacking = [key for key in ("moves", "finished") if key not in data]
    if not lacking:
        return None
    consequences = {
        "moves": "whether moves were cut off its end",
        "finished": "whether its game had ended",
    }
    return (
        f"a {RECORD_FORMAT_1} record without {' or '.join(repr(key) for key in lacking)}: "
        f"{' and '.join(consequences[key] for key in lacking)} cannot be checked, so it is "
        "replayed as the game it lists"
    )


def missing_moves(data: Mapping[str, Any]) -> int:
    """How many moves a record document's ``moves`` counts beyond the actions it lists."""
    return max(0, data.get("moves", 0) - len(data.get("actions", ())))


def replay_states(game: Game, record: GameRecord) -> Iterator[State]:
    """The states of a recorded game: the first before any decision, then one after each action."""
    for state, _events in _replay(game, record, with_events=False):
        yield state


def replay_events(game: Game, record: GameRecord) -> Iterator[tuple[State, tuple[Event, ...]]]:
    """Each state after an action of the record, with the events of that action."""
    replayed = _replay(game, record, with_events=True)
    next(replayed)
    yield from replayed


def replay(game: Game, record: GameRecord) -> tuple[State, ...]:
    """Every state of a recorded game, the start first: ``len(record.actions) + 1`` states."""
    return tuple(replay_states(game, record))


def final_state(game: Game, record: GameRecord) -> State:
    """The state after the record's last action."""
    return deque(replay_states(game, record), maxlen=1)[0]


def _replay(
    game: Game, record: GameRecord, with_events: bool
) -> Iterator[tuple[State, tuple[Event, ...]]]:
    ruleset_identity.check_ruleset(
        game, {"ruleset": ruleset_identity.ruleset_json(record.ruleset, record.fingerprint)}, "record"
    )
    _check_length(len(record.actions), game)
    state = _start(game, record.setup)
    yield state, ()
    last = len(record.actions) - 1
    for index, data in enumerate(record.actions):
        act = actions_json.action_from_json(
            game, state, data, at=f"$.actions[{index}]", what="game record"
        )
        if with_events:
            if act not in state.legal:
                _step(game, state, act, index, data)  # raises, saying why
            state, events = game.apply(state, act)
        else:
            state, events = _step(game, state, act, index, data), ()
        if index == last:
            _check_finished(game, record, state)
        yield state, events
    if last < 0:
        _check_finished(game, record, state)


def _check_finished(game: Game, record: GameRecord, state: State) -> None:
    """Refuse a record whose ``finished`` disagrees with its replay, before its last state."""
    if record.finished is None or record.finished == game.is_over(state):
        return
    moves = len(record.actions)
    if record.finished:
        raise RecordError(
            f"the record says its game ended, but after its {moves} moves the game goes on "
            f"(round {state.round}): moves are missing"
        )
    raise RecordError(f"the record says its game goes on, but it ended with move {moves}")


def _check_length(moves: int, game: Game | None) -> None:
    """Refuse a record listing more moves than a game of ``game``'s ruleset can have, or,
    without a game, more than the record schema allows any ruleset."""
    if game is None:
        most = schema_checks.schema("record")["properties"]["actions"]["maxItems"]
        if moves > most:
            raise RecordError(f"$.actions: the record lists {moves:,} moves, more than any record may ({most:,})")
        return
    if moves > game.most_moves:
        rules = game.ruleset
        raise RecordError(
            f"$.actions: the record lists {moves:,} moves, but a game of ruleset {rules.name} has "
            f"at most {game.most_moves:,} ({rules.max_rounds} rounds, its round limit): it is "
            "not a game of these rules"
        )


def _start(game: Game, setup: Setup) -> State:
    try:
        return game.new_state(setup=setup)
    except SetupError as error:
        raise RecordError(
            f"the record's setup does not fit ruleset {game.ruleset.name}: {error}"
        ) from None


def _step(game: Game, state: State, act: Action, index: int, data: Mapping[str, Any]) -> State:
    try:
        return game.step(state, act)
    except IllegalActionError:
        raise RecordError(_illegal(game, state, index, data)) from None


def _illegal(game: Game, state: State, index: int, data: Mapping[str, Any]) -> str:
    """Why action ``index`` cannot be played, in the record's own terms (ids, not positions)."""
    head = f"action {index} of the record, {_compact(data)}, is not legal"
    if game.is_over(state):
        return f"{head}: the game is already over (round {state.round})"
    legal = [_compact(actions_json.action_to_json(game, state, act)) for act in state.legal]
    shown = ", ".join(legal[:_SHOWN_LEGAL]) + (
        f", ... ({len(legal)} in all)" if len(legal) > _SHOWN_LEGAL else ""
    )
    return (
        f"{head}: in round {state.round}, stage {state.stage}, seat {game.current_player(state)} "
        f"chooses among {shown}"
    )


def _compact(data: Mapping[str, Any]) -> str:
    return json.dumps(data, separators=(", ", ": "))
