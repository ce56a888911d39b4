"""Whole simulation games in the kernel (docs/simulation.md, "How a run plays").

Where every seat's bot runs in the kernel, ``runner.play_games`` plays a chunk of games in one
kernel call and writes their lines from what it returns; ``play_game_stepwise`` is the
one-decision-at-a-time loop in Python. The two write the same bytes, line for line, for every
lineup of kernel bots, at 3 and 4 players, on the bundled rulesets and on generated ones (whose
skills ask for every kind of decision); lineups and settings the kernel does not play fall
back to the loop.
"""

from __future__ import annotations

import gc
import signal
import sys
import threading

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ruleset_edits import CUSTOM_EFFECT_TYPES, copy_ruleset, replace
from strategies import bundled_game, generated_game, ruleset_documents

from stargazer_rules import Game, load_ruleset
from stargazer_rules.bots import make_bot, register_bot, time_limit, unregister_bot
from stargazer_rules.bots.base import RandomBot, kernel_seat
from stargazer_rules.formats import records
from stargazer_rules.formats.game_lines import game_line
from stargazer_rules.kernel import native
from stargazer_rules.simulation import runner
from stargazer_rules.simulation.runner import parse_lineup, plan, play_chunk, play_game_stepwise, play_games

#: Lineups whose every seat's bot runs in the kernel: Python's random bot through its twin.
LINEUPS = ("random", "greedy", "mcts:12", "greedy/random/mcts:8", "mcts:iterations=6,rollout=random/random")


def stepwise_lines(game, entries, lineup, engine="native") -> list[str]:
    return [game_line(play_game_stepwise(game, entry, lineup, engine)) for entry in entries]


def kernel_lines(game, entries, lineup, monkeypatch) -> list[str]:
    """The lines of ``play_games``, which must not fall back to the Python loop."""

    def refused(*args, **kwargs):
        raise AssertionError("played step by step in Python, not in the kernel")

    with monkeypatch.context() as patch:
        patch.setattr(runner, "play_game_stepwise", refused)
        return [game_line(line) for line in play_games(game, entries, lineup)]


@pytest.mark.parametrize("name", ["draft7", "base"])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("spec", LINEUPS)
def test_kernel_games_write_the_lines_of_the_python_loop_byte_for_byte(name, players, spec, monkeypatch) -> None:
    """Two blocks of games (every rotation of the lineup on two deals): the same bytes."""
    game = bundled_game(name)
    lineup = parse_lineup(spec, players)
    entries = plan(2 * players, players, seed=11)
    expected = stepwise_lines(game, entries, lineup)
    assert kernel_lines(game, entries, lineup, monkeypatch) == expected
    assert all('"engine":"native"' in line for line in expected)


@pytest.mark.slow
@settings(max_examples=50, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(documents=ruleset_documents(), seed=st.integers(0, 2**16), data=st.data())
def test_kernel_games_of_generated_rulesets_write_the_same_lines(documents, seed, data, monkeypatch) -> None:
    """Generated skills ask for targets, options, start players and round-end decisions: every
    kind of move crosses from the kernel to the record's action JSON as the loop writes it."""
    game = generated_game(documents)
    assume(native.kernel_for(game) is not None)
    players = data.draw(st.sampled_from(game.ruleset.player_counts))
    specs = data.draw(st.sampled_from(LINEUPS)).split("/")
    lineup = parse_lineup(specs[:players], players)
    entries = plan(players, players, seed=seed)
    assert kernel_lines(game, entries, lineup, monkeypatch) == stepwise_lines(game, entries, lineup)


def test_a_chunk_is_played_in_one_kernel_call(monkeypatch) -> None:
    """``play_chunk`` asks the kernel once for all its games, and their lines keep the order."""
    game = bundled_game("draft7")
    calls: list[int] = []
    play = native.play_games

    def counted(game, games):
        calls.append(len(games))
        return play(game, games)

    monkeypatch.setattr(native, "play_games", counted)
    entries = plan(12, 4, seed=2)
    lines = play_chunk(game.ruleset, entries, parse_lineup("greedy", 4))
    assert calls == [12]
    assert [index for index, _ in lines] == list(range(12))


def test_the_record_of_a_kernel_game_replays_to_its_picks_and_round_scores() -> None:
    """The events are not kept: a caller who wants them replays the record, and its events
    give back the line's picks and provisional totals."""
    game = bundled_game("draft7")
    line = play_games(game, plan(4, 4, seed=5)[1:2], parse_lineup("greedy/random", 4))[0]
    record = records.record_from_json(line["record"], game)
    crews = [event.params["crew"] for _, events in records.replay_events(game, record) for event in events
             if event.key == "crew_chosen"]
    assert crews == [pick["crew"] for pick in line["picks"]]
    assert len(line["score_by_round"]) == line["rounds"]
    assert line["record"]["finished"] is True


@pytest.fixture
def kernel_refused(monkeypatch):
    """The kernel's whole-game call, made to fail: what falls back never reaches it."""

    def refused(*args, **kwargs):
        raise AssertionError("played in the kernel")

    monkeypatch.setattr(native, "play_games", refused)


def test_a_python_only_bot_plays_its_games_step_by_step(kernel_refused) -> None:
    class First:
        def __init__(self, seed: int) -> None:
            self.spec = "first-test"

        def choose(self, game, state):
            return state.legal[0]

    register_bot("first-test", First)
    try:
        assert kernel_seat("first-test") is None
        game = bundled_game("draft7")
        line = play_games(game, plan(4, 4)[:1], parse_lineup("greedy/first-test", 4))[0]
        assert line["seating"] == ["greedy:hand=0.5,start=1.0", "first-test", "first-test", "first-test"]
    finally:
        unregister_bot("first-test")


def test_a_random_bot_registered_anew_is_no_longer_the_kernel_s_twin() -> None:
    """Only the built-in random bot has a draw-for-draw twin in the kernel."""

    class Last(RandomBot):
        def choose(self, game, state):
            return state.legal[-1]

    assert kernel_seat("random") == (native.PYTHON_RANDOM, {})
    register_bot("random", Last)
    try:
        assert kernel_seat("random") is None
    finally:
        register_bot("random", RandomBot)
    assert kernel_seat("random") == (native.PYTHON_RANDOM, {})


def test_the_python_engine_and_a_bot_deadline_play_step_by_step(kernel_refused) -> None:
    game = bundled_game("draft7")
    entries = plan(4, 4)[:1]
    lineup = parse_lineup("greedy", 4)
    assert play_games(game, entries, lineup, "python")[0]["engine"] == "python"
    with time_limit(60.0):
        assert play_games(game, entries, lineup)[0]["engine"] == "native"


def test_the_random_bot_s_twin_draws_as_python_s_generator() -> None:
    """``random.Random(seed).choice`` of the legal actions, seed up to 2**64 - 1: the kernel's
    twin of the random bot plays the same game from the same deal."""
    game = bundled_game("draft7")
    for seed in (0, 7, 2**32 - 1, 2**32, 2**64 - 1):
        setup = game.deal(4, seed=3)
        state = game.new_state(setup=setup)
        bots = [make_bot("random", seed) for _ in range(4)]
        expected = []
        while state.legal:
            act = bots[game.current_player(state)].choose(game, state)
            expected.append(act)
            state = game.step(state, act)
        planets = [game.planet_ids.index(card) for card in setup.planets]
        crew = [game.crew_ids.index(card) for card in setup.crew]
        seats = [(native.PYTHON_RANDOM, seed, {})] * 4
        moves = native.play_games(game, [(4, planets, crew, setup.start_player, seats)])[0][0]
        assert [native.to_action(move[:4]) for move in moves] == expected


def test_ctrl_c_while_a_chunk_plays_stops_it_at_a_decision_and_raises() -> None:
    """A signal that arrives while the kernel plays is looked for at the chunk's next decision
    (every few hundredths of a second, ``SIGNAL_EVERY``) and raised from the call, before the
    chunk's results are built: Ctrl-C stops a long chunk as it stops a decision in Python.

    A thread sends SIGINT once the call has released the GIL: it is let go just before the
    call, and the switch interval is made so long that the main thread hands it the GIL only
    where the kernel releases it. The handler counts the memory blocks Python has allocated
    when it runs: a chunk that had finished first would have built hundreds of thousands of
    result objects."""
    game = bundled_game("draft7")
    setup = game.deal(4, seed=1)
    planets = [game.planet_ids.index(card) for card in setup.planets]
    crew = [game.crew_ids.index(card) for card in setup.crew]
    table = (4, planets, crew, setup.start_player, [("greedy", seat, {}) for seat in range(4)])
    blocks_at_signal: list[int] = []
    go = threading.Event()

    def handler(signum, frame):
        blocks_at_signal.append(sys.getallocatedblocks())
        raise KeyboardInterrupt

    def send() -> None:
        go.wait()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    sender = threading.Thread(target=send)
    sender.start()
    previous_handler, previous_interval = signal.signal(signal.SIGINT, handler), sys.getswitchinterval()
    gc.disable()
    try:
        sys.setswitchinterval(1000.0)
        with pytest.raises(KeyboardInterrupt) as raised:
            before = sys.getallocatedblocks()
            go.set()
            native.play_games(game, [table] * 4000)
    finally:
        sys.setswitchinterval(previous_interval)
        go.set()
        sender.join()
        signal.signal(signal.SIGINT, previous_handler)
        gc.enable()
    assert "play_games" in [entry.name for entry in raised.traceback]
    assert len(blocks_at_signal) == 1 and blocks_at_signal[0] - before < 10_000
    assert len(native.play_games(game, [table] * 2)) == 2


def test_a_ruleset_the_kernel_cannot_compile_plays_step_by_step(tmp_path, kernel_refused) -> None:
    """A plugin effect type: ``kernel_for`` is None, and the games are the Python loop's."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "crew.yaml", "      - effect: gain_vp\n        vp: 2\n        when: after_survey", "      - effect: take_cubes_back")
    game = Game(load_ruleset(folder, effect_types=CUSTOM_EFFECT_TYPES))
    assert native.kernel_for(game) is None
    line = play_games(game, plan(4, 4)[:1], parse_lineup("random", 4))[0]
    assert line["engine"] == "python"
