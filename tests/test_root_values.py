"""The MCTS bots' root values (docs/bots.md, "Root values") and the runner's ``value_by_round``
(docs/simulation.md, "games.jsonl"): one value per seat in the reward's range, alike in both
engines, no decision changed by keeping them, and a line that carries them checks out and is
reused like any other."""

from __future__ import annotations

import hashlib
import json

import pytest

from stargazer_rules import Game, load_ruleset
from stargazer_rules.analysis.games import checked_games, value_trajectory
from stargazer_rules.bots import make_bot, register_bot, root_values, unregister_bot
from stargazer_rules.formats import jsonio
from stargazer_rules.formats.game_lines import GAMES_FILE, VALUE_DECIMALS, game_line, read_games_file
from stargazer_rules.frontends import cli
from stargazer_rules.simulation import cache, parse_lineup, plan, play_game, read_games
from stargazer_rules.simulation.runner import game_of
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State

ENGINES = ("native", "python")


@pytest.fixture(scope="module")
def game() -> Game:
    return game_of(load_ruleset("draft7"))


def greedy_states(game: Game, deal: int, players: int = 4) -> list[State]:
    """Every state of a seeded greedy game in which a decision is pending."""
    bot = make_bot("greedy", deal)
    state = game.new_state(players=players, seed=deal)
    states = []
    while state.legal:
        states.append(state)
        state = game.step(state, bot.choose(game, state))
    return states


# -- the bots -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spec", ["mcts:30", "mcts:30,rollout=greedy,depth=0", "mcts:30,rollout=random,prior=0"])
def test_an_mcts_decision_gives_every_seat_a_value_in_the_reward_range(game, engine, spec) -> None:
    """After each searched decision of a game, one value per seat, each from 0 to 1 (the reward
    is a sigmoid of the seat's lead); after a forced move, None."""
    for players in (3, 4):
        bot = make_bot(spec, 5, engine)
        state = game.new_state(players=players, seed=2)
        searched = forced = 0
        while state.legal:
            act = bot.choose(game, state)
            values = root_values(bot)
            if len(state.legal) == 1:
                assert values is None
                forced += 1
            else:
                assert values is not None and len(values) == players
                assert all(0.0 <= value <= 1.0 for value in values), values
                searched += 1
            state = game.step(state, act)
        assert searched > 10 and forced > 0


def test_bots_that_do_not_search_give_no_values(game) -> None:
    """random and greedy (either engine), and a registered kind without ``last_values``."""

    class Plain:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, game: Game, state: State) -> Action:
            return state.legal[0]

    register_bot("plain-test", Plain)
    try:
        built_in = [make_bot("random", 1), make_bot("greedy", 1), make_bot("greedy", 1, "python")]
        state = game.new_state(players=4, seed=3)
        for bot in built_in:
            bot.choose(game, state)
            assert bot.last_values() is None and root_values(bot) is None
        plain = make_bot("plain-test", 1)
        plain.choose(game, state)
        assert root_values(plain) is None
    finally:
        unregister_bot("plain-test")


def test_the_engines_values_are_equal_where_the_search_draws_no_random_number(game) -> None:
    """At a game's last decision every option ends the game, so every rollout is the final
    reward of a child and the search is the same sequence of UCT choices in both engines,
    whatever their generators: the same root values (to rounding), one per seat."""
    compared = 0
    for deal in range(8):
        for state in greedy_states(game, deal)[-3:]:
            if len(state.legal) < 2 or any(game.step(state, act).legal for act in state.legal):
                continue
            kernel, python = make_bot("mcts:60", 1), make_bot("mcts:60", 1, "python")
            kernel.choose(game, state)
            python.choose(game, state)
            assert len(kernel.last_values()) == 4
            assert kernel.last_values() == pytest.approx(python.last_values(), abs=1e-12)
            compared += 1
    assert compared >= 6


@pytest.mark.slow
def test_the_engines_values_agree_as_two_samples_of_one_search(game) -> None:
    """Mid-game the engines draw different random numbers; at 400 iterations their values for
    the same state and seed differ by about 0.015 a seat on average (measured: at most 0.04),
    as two runs of one search do. A different definition in one engine (the priors' virtual
    visits counted, another seat order) moves them much further."""
    states = [greedy_states(game, 100 + deal)[20] for deal in range(8)]
    differences = []
    for state in states:
        kernel, python = make_bot("mcts:400", 1), make_bot("mcts:400", 1, "python")
        kernel.choose(game, state)
        python.choose(game, state)
        differences += [abs(a - b) for a, b in zip(kernel.last_values(), python.last_values(), strict=True)]
    assert len(differences) == 32
    assert sum(differences) / len(differences) < 0.03
    assert max(differences) < 0.08


#: The actions of three draft7 games (plan(8, 4, seed=40), games 0, 3 and 6) played by
#: ``LINEUP``, as sha256 of their compact JSON, recorded before the bots kept root values.
LINEUP = "mcts:40/mcts:40,rollout=greedy,depth=0/mcts:40,rollout=random,prior=0/greedy"
ACTIONS_BEFORE = {
    ("native", 0): "1009a02324bb19daa10eed5acb0df23ec6e3a486bc3e9bae2630ce4b5210b968",
    ("native", 3): "1175d7d297a14fa85177dc08f4601664da3caf472e65894d2082091a840bf05d",
    ("native", 6): "d92e893f27946acfa7c69e2c47d7d0b934004c3e2b25929b61b204d4d19bee9f",
    ("python", 0): "b3afefcf04ac693f42eaabf95446d0ce906b051ab4f434da200216fde9346202",
    ("python", 3): "9bbea8aad9229c72ab469948164e8b506077ba866e6fe2490e3a9b687d4dc60e",
    ("python", 6): "e8f50e027e2d64c6d5876fa2a5695a0461a4ffefbb602586048f931824eac2bb",
}


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "index"), sorted(ACTIONS_BEFORE))
def test_keeping_the_values_changes_no_decision(game, engine, index) -> None:
    """Three MCTS variants and greedy, in both engines, choose the very actions they chose
    before the root values were kept (same seeds, same games)."""
    entry = next(entry for entry in plan(8, 4, seed=40) if entry.index == index)
    line = play_game(game, entry, parse_lineup(LINEUP, 4), engine)
    actions = json.dumps(line["record"]["actions"], separators=(",", ":"))
    assert hashlib.sha256(actions.encode()).hexdigest() == ACTIONS_BEFORE[engine, index]
    assert len(line["value_by_round"]) == line["rounds"]


# -- the games line -------------------------------------------------------------------------


def expected_values(game: Game, line: dict) -> list:
    """``value_by_round`` made again from the line's own seating and seeds: the game replayed
    decision by decision, each round keeping the values of its last searched decision."""
    bots = [make_bot(spec, seed) for spec, seed in zip(line["seating"], line["bot_seeds"], strict=True)]
    by_round: list = [None] * line["rounds"]
    state = game.new_state(setup=jsonio.setup_from_json(line["setup"], game))
    while state.legal:
        bot = bots[game.current_player(state)]
        act = bot.choose(game, state)
        if bot.last_values() is not None:
            by_round[state.round - 1] = [round(value, VALUE_DECIMALS) for value in bot.last_values()]
        state = game.step(state, act)
    return by_round


@pytest.mark.parametrize("lineup", ["mcts:30", "mcts:30/greedy/random"])
def test_a_line_of_mcts_seats_holds_each_rounds_last_search_values(game, lineup) -> None:
    """One entry per round, each the values of the round's last search decision, whichever
    seat made it; one value per table seat."""
    for entry in plan(6, 3, seed=7)[:3]:
        line = play_game(game, entry, parse_lineup(lineup, 3))
        values = line["value_by_round"]
        assert len(values) == line["rounds"] == len(line["score_by_round"])
        assert all(seats is not None and len(seats) == 3 for seats in values)
        assert values == expected_values(game, line)


class RoundOneSearcher:
    """Plays the first legal action and claims a search in round 1 only: rounds without a
    search decision."""

    def __init__(self, seed: int) -> None:
        self.values: list[float] | None = None

    def choose(self, game: Game, state: State) -> Action:
        self.values = [0.25, 0.5, 0.75] if state.round == 1 else None
        return state.legal[0]

    def last_values(self) -> list[float] | None:
        return self.values


def test_a_round_without_a_search_decision_is_null(game) -> None:
    register_bot("round-one-test", RoundOneSearcher)
    try:
        line = play_game(game, plan(3, 3)[0], parse_lineup("round-one-test/greedy", 3))
    finally:
        unregister_bot("round-one-test")
    assert line["rounds"] > 2
    assert line["value_by_round"] == [[0.25, 0.5, 0.75]] + [None] * (line["rounds"] - 1)
    assert jsonio.schema_problems("game_line", json.loads(game_line(line))) == []


#: The keys of a line, in order, as they were before ``value_by_round``.
KEYS = ["format", "index", "block", "rotation", "deal_seed", "players", "ruleset", "seating", "bot_seeds", "engine",
        "setup", "rounds", "triggers", "decisions", "options", "picks", "score_by_round", "score_sheet", "winners",
        "record"]


def test_a_line_without_a_searching_seat_has_no_value_by_round(game) -> None:
    """Greedy and random seats: the line's keys are those it always had, in their order; with
    MCTS, ``value_by_round`` comes after ``score_by_round`` and nothing else moves."""
    entry = plan(4, 4)[1]
    for lineup in ("greedy", "random", "greedy/random"):
        line = play_game(game, entry, parse_lineup(lineup, 4))
        assert list(line) == KEYS
        assert value_trajectory(line) is None
    searched = play_game(game, entry, parse_lineup("mcts:20/greedy", 4))
    assert list(searched) == KEYS[:17] + ["value_by_round"] + KEYS[17:]


def test_the_schema_bounds_value_by_round(game) -> None:
    line = json.loads(game_line(play_game(game, plan(3, 3)[0], parse_lineup("mcts:20", 3))))
    assert jsonio.schema_problems("game_line", line) == []
    line["value_by_round"][0] = [0.5, 1.5, 0.5]
    line["value_by_round"][1] = []
    assert jsonio.schema_problems("game_line", line) == [
        "$.value_by_round[0]: [0.5, 1.5, 0.5] is not valid under any of the given schemas",
        "$.value_by_round[1]: [] is not valid under any of the given schemas",
    ]


def test_value_trajectory_reads_the_lines_values_and_none_without_them(game) -> None:
    line = play_game(game, plan(3, 3)[0], parse_lineup("mcts:20", 3))
    assert value_trajectory(line) == line["value_by_round"]
    line["value_by_round"][1] = None
    assert value_trajectory(line)[1] is None
    del line["value_by_round"]  # a line written before the field existed
    assert value_trajectory(line) is None


# -- a run ----------------------------------------------------------------------------------


@pytest.fixture
def no_report_files(monkeypatch):
    """These tests are about the games; the report pages (plots: seconds each) are left out."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)


def test_a_simulated_mcts_run_writes_values_that_pass_every_check_and_is_reused(tmp_path, capsys, no_report_files) -> None:
    """``simulate`` with MCTS bots: every line has one entry per round, passes its digest and
    the schema, holds as a game of its run, and the same options reuse the run untouched."""
    out = tmp_path / "run"
    argv = ["simulate", "--games", "4", "--bots", "mcts:20", "--workers", "1", "--out", str(out)]
    assert cli.main(argv) == 0
    assert "played 4 games" in capsys.readouterr().err
    path = out / GAMES_FILE
    texts = path.read_text(encoding="utf-8").splitlines()
    for text in texts:
        assert jsonio.schema_problems("game_line", json.loads(text)) == []
    read = read_games_file(path)
    assert (read.refused, len(read.games)) == ((), 4)
    for game in read.games:
        assert len(game["value_by_round"]) == game["rounds"]
    identity = json.loads((out / "run.json").read_text(encoding="utf-8"))
    held = cache.checked_run(out, identity)
    assert (held.foreign, held.refused, len(held.games)) == (None, (), 4)
    before = path.read_bytes()
    assert cli.main(argv) == 0
    assert f"reused the 4 finished games of the same run in the output folder ({out})" in capsys.readouterr().err
    assert path.read_bytes() == before and not (out / "set-aside").exists()


def test_lines_without_value_by_round_are_read_beside_lines_with_it(tmp_path, game) -> None:
    """A line written before the field existed (its digest made without it) reads and
    analyses with the new ones."""
    lineup = parse_lineup("mcts:20", 3)
    lines = [play_game(game, entry, lineup) for entry in plan(3, 3)]
    del lines[0]["value_by_round"]
    path = tmp_path / GAMES_FILE
    path.write_text("".join(game_line(line) + "\n" for line in lines), encoding="utf-8")
    games = read_games(path)
    assert [("value_by_round" in line) for line in games] == [False, True, True]
    assert [value_trajectory(line) is None for line in checked_games(games)] == [True, False, False]
    identity = cache.run_identity("draft7", game.ruleset.fingerprint, 3, lineup, 0, "native")
    assert cache.checked_run(tmp_path, identity).foreign is None

