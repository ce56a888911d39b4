"""Every bot in both engines honours its deadline and bounds its work, counted in game steps
(never timed): the greedy lookahead plays at most ``Game.bounds.most_turn_decisions`` of the
mover's decisions per action, a deadline that has passed stops any search at its next look,
and a simulation's bots read the Python engine's states into the kernel without re-checking.
"""

from __future__ import annotations

import random

import pytest

from strategies import bundled_game
from stargazer_rules import Game, State, _kernel
from stargazer_rules.bots import BotTimeout, make_bot, time_limit
from stargazer_rules.bots.greedy import CHECK_EVERY, GreedyBot
from stargazer_rules.kernel import native
from stargazer_rules.simulation.runner import PlanEntry, play_game

#: A deadline that has passed before the choice starts: every search stops at its first look.
PASSED = -1.0


class CountingGame(Game):
    """A ``Game`` counting the steps played through it (the bots' work)."""

    steps = 0

    def step(self, state: State, act):  # type: ignore[override]
        self.steps += 1
        return super().step(state, act)


def _round_end(game: Game) -> State:
    """A state waiting on Armstrong's name_start_player (R12), the first of a seeded game."""
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_state(players=4, seed=seed)
        while state.legal and state.stage != "round_end":
            state = game.step(state, rng.choice(state.legal))
        if state.stage == "round_end":
            return state
    raise AssertionError("no game reached a round-end decision")


def test_the_python_greedy_lookahead_is_bounded_by_the_ruleset_whatever_the_state() -> None:
    """2000 steps left of name_start_player (not a state: R12 names once) cost at most what a
    real turn can: 4 seats named, each followed by most_turn_decisions decisions of 4 options."""
    game = CountingGame(bundled_game("draft7").ruleset)
    state = _round_end(game)
    state = state._replace(pending=(state.pending[0]._replace(remaining=2000),))
    game.steps = 0
    chosen = GreedyBot(seed=1).choose(game, state)
    assert chosen in state.legal
    most = game.bounds.most_turn_decisions
    assert game.steps <= 4 * (1 + 4 * most), (game.steps, most)


def test_the_python_greedy_stops_at_a_passed_deadline_within_one_look() -> None:
    game = CountingGame(bundled_game("draft7").ruleset)
    state = _round_end(game)
    state = state._replace(pending=(state.pending[0]._replace(remaining=2000),))
    game.steps = 0
    with time_limit(PASSED), pytest.raises(BotTimeout, match=f"greedy ran out of time after {CHECK_EVERY} steps"):
        GreedyBot(seed=1).choose(game, state)
    assert game.steps == CHECK_EVERY - 1  # the step that looks is not played


def _first_pick(game: Game) -> State:
    return game.new_state(players=4, seed=3)


def _long_lookahead(game: Game) -> State:
    """A state whose greedy lookahead plays more than CHECK_EVERY steps (an ordinary draft7
    decision plays fewer): 2000 steps left of name_start_player, read as the engine's."""
    state = _round_end(game)
    return state._replace(pending=(state.pending[0]._replace(remaining=2000),))


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize(("spec", "state_of"), [("greedy", _long_lookahead), ("mcts:iterations=5000", _first_pick)])
def test_every_searching_bot_stops_at_a_passed_deadline(engine: str, spec: str, state_of) -> None:
    """Greedy looks every CHECK_EVERY game steps, MCTS every 16 iterations, in both engines."""
    game = bundled_game("draft7")
    bot = make_bot(spec, seed=2, engine=engine)
    with time_limit(PASSED), pytest.raises(BotTimeout, match="ran out of time"):
        bot.choose(game, state_of(game))


@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_random_bot_needs_no_deadline_its_choice_is_one_draw(engine: str) -> None:
    game = CountingGame(bundled_game("draft7").ruleset)
    state = _first_pick(game)
    game.steps = 0
    with time_limit(PASSED):
        assert make_bot("random", seed=2, engine=engine).choose(game, state) in state.legal
    assert game.steps == 0


def test_a_simulation_s_kernel_bots_read_its_states_without_checking_them_again() -> None:
    """Every decision crosses to the kernel on the trusted path: the kernel's count of states
    checked against the rules does not move; an untrusted read moves it by one."""
    game = bundled_game("draft7")
    assert native.kernel_for(game) is not None
    before = _kernel.Kernel.rule_checks()
    line = play_game(game, PlanEntry(index=0, block=0, rotation=0, deal_seed=5, players=4), ["greedy"] * 4, engine="native")
    assert len(line["options"]) > 40
    assert _kernel.Kernel.rule_checks() == before
    native.to_kernel(game, game.new_state(players=4, seed=5))
    assert _kernel.Kernel.rule_checks() == before + 1
