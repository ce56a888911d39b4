"""Game records: JSON round trips, replays identical to the games recorded, and refusals that name
the ruleset or the action at fault."""

from __future__ import annotations

import json

import attrs
import pytest

from stargazer_rules.engine.game import Setup
from stargazer_rules.errors import RecordError
from stargazer_rules.formats import actions_json, jsonio, schema_checks
from stargazer_rules.formats.records import (
    GameRecord,
    final_state,
    record_from_actions,
    record_from_json,
    record_game,
    record_to_json,
    replay,
    replay_events,
    replay_states,
    unchecked,
)
from playouts import CONFIGS, SEEDS, game, playout, playouts

#: A hand-made deal of draft 7 for three players.
SETUP = Setup(
    3,
    ("lava-1", "ocean-2", "gas-3", "primordial-1", "dark"),
    ("navigator", "geologist", "quartermaster", "linguist"),
    0,
)


def recorded(ruleset: str, players: int, seed: int) -> GameRecord:
    played = playout(ruleset, players, seed)
    return record_game(
        game(ruleset), played.setup, played.actions, seed=seed, metadata={"event": "test"}
    )


def hand_made(actions: list[dict]) -> GameRecord:
    """A record of ``SETUP`` with these actions, saying its game goes on."""
    the_game = game("draft7")
    return GameRecord("draft7", the_game.ruleset.fingerprint, SETUP, tuple(actions), finished=False)


def survey_options() -> tuple:
    """The legal surveys after the first player of ``SETUP`` picks the navigator."""
    the_game = game("draft7")
    state = the_game.new_state(setup=SETUP)
    state = the_game.step(
        state, jsonio.action_from_json(the_game, state, {"type": "pick_crew", "crew": "navigator"})
    )
    return state.legal


def refusal(function, *args) -> str:
    with pytest.raises(RecordError) as caught:
        function(*args)
    return str(caught.value)


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_replay_reproduces_every_state(ruleset: str, players: int) -> None:
    """Replaying a recorded game yields states equal to the original ones, step by step."""
    the_game = game(ruleset)
    for seed in SEEDS:
        record = recorded(ruleset, players, seed)
        original = playout(ruleset, players, seed).states
        assert replay(the_game, record) == original
        assert final_state(the_game, record) == original[-1]
        assert the_game.is_over(final_state(the_game, record))


@pytest.mark.parametrize(("ruleset", "players"), CONFIGS)
def test_record_round_trips_through_json_text(ruleset: str, players: int) -> None:
    """A record's JSON is plain JSON, valid against the record schema, and reads back equal."""
    the_game = game(ruleset)
    record = recorded(ruleset, players, SEEDS[0])
    data = record_to_json(record)
    text = json.dumps(data)
    assert json.loads(text) == data
    assert jsonio.schema_problems("record", data) == []
    assert record_from_json(json.loads(text), the_game) == record
    assert (
        replay(the_game, record_from_json(json.loads(text)))
        == playout(ruleset, players, SEEDS[0]).states
    )


def test_record_carries_setup_seed_and_metadata() -> None:
    """The record names the ruleset, keeps the explicit deal, the seed and the metadata."""
    record = recorded("draft7", 3, 1)
    data = record_to_json(record)
    assert data["format"] == "stargazer-record/2"
    assert data["ruleset"] == {"name": "draft7", "fingerprint": game("draft7").ruleset.fingerprint}
    assert data["setup"] == jsonio.setup_to_json(playout("draft7", 3, 1).setup)
    assert data["seed"] == 1
    assert data["metadata"] == {"event": "test"}
    assert len(data["actions"]) == len(playout("draft7", 3, 1).actions)


def test_replay_states_is_lazy_and_replay_events_match_apply() -> None:
    """replay_states yields one state at a time; replay_events gives each action's events."""
    the_game = game("draft7")
    played = playout("draft7", 4, 1)
    record = recorded("draft7", 4, 1)
    states = replay_states(the_game, record)
    assert next(states) == played.states[0]
    assert next(states) == played.states[1]
    assert list(replay_events(the_game, record)) == list(zip(played.states[1:], played.events))


def test_record_of_another_ruleset_is_refused() -> None:
    """A draft-7 record is refused by a base game, naming both rulesets and their fingerprints."""
    record = recorded("draft7", 3, 0)
    base = game("base")
    expected = (
        "this record was made with ruleset draft7 (fingerprint "
        f"{game('draft7').ruleset.fingerprint[:12]}), "
        f"but the loaded ruleset is base (fingerprint {base.ruleset.fingerprint[:12]})"
    )
    assert refusal(replay, base, record) == expected
    assert refusal(record_from_json, record_to_json(record), base) == expected


def test_record_names_the_illegal_action() -> None:
    """The second player may not pick the crew the first took: action 2 is named, with options."""
    record = hand_made(
        [
            {"type": "pick_crew", "crew": "navigator"},
            {"type": "survey", "count": 0},
            {"type": "pick_crew", "crew": "navigator"},
        ]
    )
    assert refusal(replay, game("draft7"), record) == (
        'action 2 of the record, {"type": "pick_crew", "crew": "navigator"}, is not legal: in '
        'round 1, '
        'stage pick_crew, seat 1 chooses among {"type": "pick_crew", "crew": "armstrong"}, '
        '{"type": "pick_crew", "crew": "geologist"}, '
        '{"type": "pick_crew", "crew": "quartermaster"}, '
        '{"type": "pick_crew", "crew": "linguist"}'
    )


def test_record_with_an_action_out_of_turn_lists_a_few_options() -> None:
    """A pick where a survey is due names the stage and lists the first options of many."""
    record = hand_made(
        [{"type": "pick_crew", "crew": "navigator"}, {"type": "pick_crew", "crew": "linguist"}]
    )
    message = refusal(replay, game("draft7"), record)
    assert message.startswith(
        'action 1 of the record, {"type": "pick_crew", "crew": "linguist"}, is not legal: in '
        'round 1, '
        'stage survey, seat 0 chooses among {"type": "survey", "count": 0}, '
        '{"type": "survey", "planet": "lava-1", "count": 1, "direction": "clockwise"}, '
    )
    assert message.endswith(f", ... ({len(survey_options())} in all)")


def test_record_going_on_after_the_end_is_refused() -> None:
    """An action after the game is over is named as such."""
    record = recorded("base", 3, 0)
    extra = GameRecord(
        record.ruleset,
        record.fingerprint,
        record.setup,
        record.actions + ({"type": "survey", "count": 0},),
    )
    rounds = playout("base", 3, 0).states[-1].round
    assert refusal(replay, game("base"), extra) == (
        f'action {len(record.actions)} of the record, {{"type": "survey", "count": 0}}, is not '
        'legal: '
        f"the game is already over (round {rounds})"
    )


def test_record_naming_an_unknown_card_is_refused_with_its_path() -> None:
    """An action naming a Planet that is not in the ring is located in the record."""
    record = hand_made(
        [
            {"type": "pick_crew", "crew": "navigator"},
            {"type": "survey", "planet": "pluto", "count": 1, "direction": "clockwise"},
        ]
    )
    assert refusal(replay, game("draft7"), record) == (
        "1 problem in the game record:\n"
        "  $.actions[1].planet: planet 'pluto' is not in the ring (lava-1, ocean-2, gas-3, "
        "primordial-1, dark)"
    )


def test_record_game_refuses_an_illegal_action_too() -> None:
    """record_game plays what it records, so it cannot record an impossible game."""
    the_game = game("draft7")
    played = playout("draft7", 3, 0)
    actions = played.actions[:1] + played.actions[:1]
    assert refusal(record_game, the_game, played.setup, actions).startswith(
        "action 1 of the record, "
    )


def test_malformed_record_documents_are_refused() -> None:
    """Schema problems of a record are listed with their paths."""
    data = record_to_json(recorded("draft7", 3, 0))
    data["format"] = "stargazer-record/3"
    data["setup"]["players"] = "three"
    del data["metadata"]
    data["actions"][0] = {"type": "pick_crew"}
    assert refusal(record_from_json, data) == (
        "4 problems in the game record:\n"
        "  $: 'metadata' is a required property\n"
        "  $.actions[0]: 'crew' is a required property\n"
        "  $.format: 'stargazer-record/3' is not one of ['stargazer-record/2', 'stargazer-record/1']\n"
        "  $.setup.players: 'three' is not of type 'integer'"
    )


def test_record_whose_setup_does_not_fit_the_ruleset_is_refused() -> None:
    """The setup is checked against the ruleset (R14) when the record is read or replayed."""
    data = record_to_json(hand_made([]))
    data["setup"]["crew"][0] = "armstrong"
    assert (
        refusal(record_from_json, data, game("draft7"))
        == "invalid setup: crew 'armstrong' is always in play and is not dealt"
    )
    record = record_from_json(data)
    assert refusal(replay, game("draft7"), record) == (
        "the record's setup does not fit ruleset draft7: invalid setup: crew 'armstrong' is "
        "always in play and is not dealt"
    )


def test_every_playout_is_recorded_and_replayed() -> None:
    """Every configuration and seed replays to its final state (a smoke test of the whole path)."""
    for ruleset, players in CONFIGS:
        for played in playouts(ruleset, players):
            record = record_from_json(
                json.loads(json.dumps(record_to_json(recorded(ruleset, players, played.seed))))
            )
            assert final_state(game(ruleset), record) == played.states[-1]


# -- a record's length and its end (format version 2) --------------------------------------


class Counted:
    """Counts the calls of a function it wraps (the work a refusal did before refusing)."""

    def __init__(self, function) -> None:
        self.function = function
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.function(*args, **kwargs)


@pytest.fixture
def work(monkeypatch) -> dict[str, Counted]:
    """The schema checks and actions read of records, counted."""
    counted = {
        "validate": Counted(schema_checks.validate),
        "action_from_json": Counted(actions_json.action_from_json),
    }
    monkeypatch.setattr(schema_checks, "validate", counted["validate"])
    monkeypatch.setattr(actions_json, "action_from_json", counted["action_from_json"])
    return counted


def test_most_moves_follows_from_the_round_limit_and_bounds_every_playout() -> None:
    """The round limit bounds a game: 30 rounds of 4 turns, each a pick, a survey of at most a
    hand and a stop (R7, R8) and the longest skill's decisions; no playout comes near it."""
    for name in ("draft7", "base"):
        the_game = game(name)
        rules = the_game.ruleset
        assert the_game.most_moves % (rules.max_rounds * 4) == 0
        assert the_game.most_moves > rules.max_rounds * 4 * (1 + rules.cubes_per_player + 1)
    assert (game("draft7").most_moves, game("base").most_moves) == (1920, 1800)
    for ruleset, players in CONFIGS:
        for played in playouts(ruleset, players):
            assert len(played.actions) <= game(ruleset).most_moves


def test_record_longer_than_its_ruleset_allows_is_refused_before_any_move_is_read(work) -> None:
    """One move past Game.most_moves: refused with no schema check and no action read or
    replayed, by record_from_json and by a replay of a GameRecord alike."""
    the_game = game("draft7")
    data = record_to_json(recorded("draft7", 3, 0))
    too_many = the_game.most_moves + 1
    data["actions"] = (data["actions"] * too_many)[:too_many]
    data["moves"] = too_many
    expected = (
        "$.actions: the record lists 1,921 moves, but a game of ruleset draft7 has at most "
        "1,920 (30 rounds, its round limit): it is not a game of these rules"
    )
    assert refusal(record_from_json, data, the_game) == expected
    long_record = attrs.evolve(recorded("draft7", 3, 0), actions=tuple(data["actions"]))
    assert refusal(replay, the_game, long_record) == expected
    assert (work["validate"].calls, work["action_from_json"].calls) == (0, 0)


def test_record_longer_than_any_record_may_be_is_refused_unread_without_a_game(work) -> None:
    """Without a game, the record schema's bound (100,000 moves) is checked before the schema."""
    data = record_to_json(recorded("draft7", 3, 0))
    data["actions"] = data["actions"][:1] * 100_001
    assert refusal(record_from_json, data) == (
        "$.actions: the record lists 100,001 moves, more than any record may (100,000)"
    )
    assert work["validate"].calls == 0


def test_record_without_moves_and_finished_and_cut_short_is_refused() -> None:
    """Format 2 requires both: a record with them deleted and its last 5 moves cut is refused
    by the schema instead of replaying as a shorter game."""
    data = record_to_json(recorded("draft7", 3, 0))
    del data["moves"], data["finished"]
    data["actions"] = data["actions"][:-5]
    assert refusal(record_from_json, data, game("draft7")) == (
        "2 problems in the game record:\n"
        "  $: 'finished' is a required property\n"
        "  $: 'moves' is a required property"
    )


def test_version_1_record_is_read_saying_what_cannot_be_checked() -> None:
    """A stargazer-record/1 document may leave out moves and finished: it is read as the game it
    lists, and unchecked() says what could not be checked; a version-2 one has nothing unchecked."""
    data = record_to_json(recorded("draft7", 3, 0))
    assert unchecked(data) is None
    old = {key: value for key, value in data.items() if key not in ("moves", "finished")}
    old["format"] = "stargazer-record/1"
    old["actions"] = old["actions"][:-5]
    record = record_from_json(old, game("draft7"))
    assert record.finished is None and len(replay(game("draft7"), record)) == len(old["actions"]) + 1
    assert unchecked(old) == (
        "a stargazer-record/1 record without 'moves' or 'finished': whether moves were cut off "
        "its end and whether its game had ended cannot be checked, so it is replayed as the "
        "game it lists"
    )
    assert unchecked({**old, "moves": len(old["actions"])}) == (
        "a stargazer-record/1 record without 'finished': whether its game had ended cannot be "
        "checked, so it is replayed as the game it lists"
    )


def test_a_record_that_does_not_know_its_end_is_not_written() -> None:
    """record_to_json writes format 2, which says whether the game ended: it refuses finished=None."""
    with pytest.raises(ValueError, match=r"^a record document says whether its game ended"):
        record_to_json(attrs.evolve(hand_made([]), finished=None))


def test_record_from_actions_checks_each_action_and_knows_the_end() -> None:
    """record_from_actions replays action JSON: finished comes from the replay."""
    played = playout("draft7", 3, 1)
    whole = record_to_json(recorded("draft7", 3, 1))["actions"]
    built = record_from_actions(game("draft7"), played.setup, whole, seed=1, metadata={"event": "test"})
    assert built == recorded("draft7", 3, 1)
    assert record_from_actions(game("draft7"), played.setup, whole[:3]).finished is False
