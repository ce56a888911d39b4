"""The OpenSpiel game, the PettingZoo AEC environment and the Gymnasium environment, each held
to its library's own checks (``pyspiel.random_sim_test`` and the state checks of OpenSpiel's
``games_sim_test``; PettingZoo's ``api_test``, ``seed_test`` and ``render_test``; Gymnasium's
``check_env``) and to the engine: deals, returns and observations are the ones the rules give.

Every loop is bounded by a count of games or steps.
"""

from __future__ import annotations

import importlib
import pickle
import random
import sys
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from stargazer_rules.adapters import gymnasium as gym_adapter
from stargazer_rules.adapters import openspiel
from stargazer_rules.adapters import pettingzoo as pz_adapter
from stargazer_rules.adapters.shared import fast_game, observation_bounds
from stargazer_rules.errors import BotSpecError, IllegalActionError

#: Decisions a simulated game may take before a test gives up on it (draft 7 games take < 100).
MOST_ACTIONS = 400


def credit_of_sheet(fast, state) -> list[float]:
    """Win credit from the Python engine's score sheet (R18): the oracle of every adapter's returns."""
    sheet = fast.game.score(state)
    assert sheet.final
    return [1 / len(sheet.winners) if seat in sheet.winners else 0.0 for seat in range(len(sheet.seats))]


# -- OpenSpiel ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_passes_random_sim_test(players):
    """OpenSpiel's own C++ conformance playouts, serialisation included."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_openspiel_game_defaults_and_info():
    """Draft 7 at four seats, the deal a chance node of 1,000 seeds, win credit in [0, 1] summing to 1."""
    game = pyspiel.load_game(openspiel.GAME_NAME)
    fast = fast_game("draft7")
    assert str(game) == "python_stargazer(deals=1000,players=4,ruleset=draft7)"
    assert game.num_players() == 4
    assert game.num_distinct_actions() == fast.num_actions
    assert game.max_chance_outcomes() == 1000
    assert game.max_game_length() == fast.game.most_moves
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.observation_tensor_size() == fast.observation_size


def test_openspiel_chance_outcome_is_the_deal_of_that_seed():
    """Outcome i of the chance node is ``Game.deal(players, seed=i)`` (R14), the fast API's deal of seed i."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": 3, "deals": 50})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [seed for seed, _ in outcomes] == list(range(50))
    assert sum(chance for _, chance in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 17) == "deal seed 17"
    state.apply_action(17)
    fast = fast_game("draft7")
    dealt = fast.new_state(players=3, seed=17)
    assert state.to_state() == dealt.to_state()
    assert state.current_player() == dealt.current_player()
    assert state.legal_actions() == sorted(dealt.legal_ids())


def test_openspiel_game_parameters_are_checked_with_one_line_each():
    """A table size the ruleset lacks and a deal count out of range are refused, saying what to write."""
    with pytest.raises(ValueError) as players:
        pyspiel.load_game(openspiel.GAME_NAME, {"players": 5})
    assert str(players.value) == "python_stargazer: players=5, but ruleset draft7 is played by 3 or 4; write players=4"
    with pytest.raises(ValueError) as deals:
        pyspiel.load_game(openspiel.GAME_NAME, {"deals": 0})
    assert str(deals.value) == "python_stargazer: deals=0; write a whole number from 1 to 1048576"


def test_openspiel_ruleset_parameter_loads_base():
    """The ``ruleset`` parameter names a bundled ruleset (or a folder): base plays under its own rules."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"ruleset": "base", "players": 3})
    state = game.new_initial_state()
    state.apply_action(3)
    assert state.to_state() == fast_game("base").new_state(players=3, seed=3).to_state()


def _apply_and_check_clone(test_state, action):
    """games_sim_test's ``apply_action_test_clone``: a clone plays on exactly like its original."""
    clone = test_state.clone()
    assert str(clone) == str(test_state) and clone.history() == test_state.history()
    test_state.apply_action(action)
    clone.apply_action(action)
    assert str(clone) == str(test_state) and clone.history() == test_state.history()


def _check_serialisation(game, state):
    """games_sim_test's ``serialize_deserialize``: OpenSpiel's text form and pickle both round-trip."""
    new_game, new_state = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and str(new_state) == str(state)
    assert new_state.history() == state.history()
    unpickled = pickle.loads(pickle.dumps(state))
    assert str(unpickled) == str(state) and unpickled.history() == state.history()
    if not state.is_chance_node():
        assert unpickled.to_state() == state.to_state()


@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_playouts_pass_the_state_checks_of_games_sim_test(players):
    """Twelve seeded random playouts: clones, serialisation and pickles at every power-of-two
    step, no legal action at the end, returns in range and equal to the score sheet's win credit."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": players})
    unpickled_game = pickle.loads(pickle.dumps(game))
    assert str(unpickled_game) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    fast = fast_game("draft7")
    rng = np.random.RandomState(players)
    for _ in range(12):
        state = game.new_initial_state()
        actions, next_check = 0, 1
        while not state.is_terminal():
            assert actions < MOST_ACTIONS
            actions += 1
            if actions >= next_check:
                _check_serialisation(game, state)
                next_check *= 2
            if state.is_chance_node():
                seeds, chances = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(seeds, p=chances)))
            else:
                seat = state.current_player()
                assert state.observation_tensor(seat) == pytest.approx(state.fast_state.observation(seat))
                assert state.observation_string(seat) == state.fast_state.observation_text(seat)
                _apply_and_check_clone(state, int(rng.choice(state.legal_actions(seat))))
        assert state.legal_actions() == []
        assert all(state.legal_actions(seat) == [] for seat in range(players))
        returns = state.returns()
        assert [state.player_return(seat) for seat in range(players)] == returns
        assert returns == pytest.approx(credit_of_sheet(fast, state.to_state()))
        assert sum(returns) == pytest.approx(1.0)


def test_openspiel_information_state_is_the_history():
    """Perfect recall of a public game is its history (OpenSpiel's observer for public-information games)."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(5)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0) == state.information_state_string(2)
    assert state.information_state_string(1) == ", ".join(str(action) for action in state.history())


def test_openspiel_action_strings_name_cards():
    """A legal action reads as its JSON form (cards by id, docs/api.md); the chance node's as its seed."""
    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(0)
    first = state.legal_actions()[0]
    action = fast_game("draft7").action_of(first)
    assert action.kind == "pick_crew"
    crew_id = fast_game("draft7").game.crew_ids[state.to_state().crew[action.target]]
    assert state.action_to_string(first) == f'{{"type": "pick_crew", "crew": "{crew_id}"}}'


def test_openspiel_bot_action_is_the_bots_choice():
    """``bot_action`` plays a ``make_bot`` bot at an OpenSpiel state: the id of the action it chooses."""
    from stargazer_rules.bots import make_bot

    game = pyspiel.load_game(openspiel.GAME_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(9)
    fast = fast_game("draft7")
    expected = make_bot("greedy", 4).choose(fast.game, state.to_state())
    assert fast.action_of(openspiel.bot_action(make_bot("greedy", 4), state)) == expected


# -- PettingZoo -----------------------------------------------------------------------------

#: What PettingZoo's api_test says of any environment whose observation is a Dict of
#: observation and action_mask, unless it is one of PettingZoo's own classic games.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
#: Said when api_test looks at an agent whose game has ended (it has no legal action).
FINISHED_AGENT_WARNING = "Action mask numpy array is all zeros (no legal actions)."


@pytest.mark.parametrize("players", [3, 4])
def test_pettingzoo_passes_api_test(players):
    """PettingZoo's api_test, with only the warnings its classic games' Dict observations raise."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(pz_adapter.env(players=players), num_cycles=200)
    said = {str(warning.message) for warning in caught}
    assert DICT_OBSERVATION_WARNINGS <= said <= DICT_OBSERVATION_WARNINGS | {FINISHED_AGENT_WARNING}


def test_pettingzoo_passes_seed_test_and_seeds_choose_deals():
    """Equal seeds replay equal games (seed_test); other seeds deal other tables."""
    seed_test(pz_adapter.env, num_cycles=100)
    first, second = pz_adapter.raw_env(), pz_adapter.raw_env()
    first.reset(seed=1)
    second.reset(seed=2)
    assert first.deal_seed != second.deal_seed
    assert first.fast_state.to_state() != second.fast_state.to_state()


def test_pettingzoo_passes_render_test_and_ansi_is_the_observation_text():
    """render_test for "ansi" and "human"; "ansi" returns the fast API's text of the agent to act."""
    render_test(pz_adapter.env)
    env = pz_adapter.raw_env(render_mode="ansi")
    env.reset(seed=3)
    seat = int(env.agent_selection.removeprefix("player_"))
    assert env.render() == env.fast_state.observation_text(seat)


def test_pettingzoo_follows_the_game_and_pays_win_credit():
    """The agent to act is the seat the rules ask; at the end each agent's reward is its win
    credit from the score sheet, and every agent leaves."""
    env = pz_adapter.raw_env(players=3)
    fast = fast_game("draft7")
    rng = np.random.default_rng(0)
    for episode in range(6):
        env.reset(seed=episode)
        rewards = {}
        for steps, agent in enumerate(env.agent_iter(MOST_ACTIONS)):
            observation, reward, terminated, _, _ = env.last()
            if terminated:
                rewards[agent] = reward
                env.step(None)
                continue
            assert agent == f"player_{env.fast_state.current_player()}"
            mask = observation["action_mask"]
            assert np.flatnonzero(mask).tolist() == sorted(env.fast_state.legal_ids())
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.agents == [] and steps < MOST_ACTIONS - 1
        credit = credit_of_sheet(fast, env.fast_state.to_state())
        assert rewards == {f"player_{seat}": credit[seat] for seat in range(3)}


def test_pettingzoo_illegal_action_is_refused_naming_the_legal_ones():
    """An action outside the mask is misuse: IllegalActionError lists the legal ids."""
    env = pz_adapter.raw_env(players=3)
    env.reset(seed=0)
    legal = sorted(env.fast_state.legal_ids())
    illegal = next(action for action in range(fast_game("draft7").num_actions) if action not in legal)
    with pytest.raises(IllegalActionError) as refused:
        env.step(illegal)
    assert str(refused.value) == f"{env.agent_selection}: action {illegal} is not legal here; choose one of {legal} (its action_mask)"


def test_pettingzoo_players_are_checked():
    with pytest.raises(ValueError) as refused:
        pz_adapter.env(players=2)
    assert str(refused.value) == "stargazer_v0: players=2, but ruleset draft7 is played by 3 or 4; write players=4"


# -- Gymnasium ------------------------------------------------------------------------------


def test_gymnasium_registered_env_passes_check_env_without_a_warning():
    """Gymnasium's check_env on the registered id, every render mode included, warns of nothing."""
    env = gymnasium.make(gym_adapter.ENV_ID)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(warning.message) for warning in caught] == []
    assert isinstance(env.unwrapped, gym_adapter.StargazerEnv)


@pytest.mark.parametrize("seat", [0, 2])
def test_gymnasium_learner_acts_only_in_its_seat_and_is_paid_its_win_credit(seat):
    """The bots play every other seat; each observation is the learner's decision; the last
    reward is its win credit from the score sheet."""
    env = gym_adapter.StargazerEnv(players=3, seat=seat, opponents=("greedy", "random"))
    fast = fast_game("draft7")
    rng = np.random.default_rng(seat)
    for episode in range(4):
        observation, info = env.reset(seed=episode)
        done, reward, steps = False, 0.0, 0
        while not done:
            assert steps < MOST_ACTIONS
            assert env.fast_state.current_player() == seat
            assert observation == pytest.approx(env.fast_state.observation(seat))
            assert np.flatnonzero(info["action_mask"]).tolist() == sorted(env.fast_state.legal_ids())
            observation, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            assert not truncated
            steps += 1
        assert reward == credit_of_sheet(fast, env.fast_state.to_state())[seat]
        assert env.action_masks().tolist() == [0] * fast.num_actions


def test_gymnasium_seeds_replay_deals_and_bots():
    """Equal seeds give equal games, bots included; the deal comes from the seed."""
    first, second = gym_adapter.StargazerEnv(), gym_adapter.StargazerEnv()
    for env in (first, second):
        env.reset(seed=11)
    for _ in range(30):
        if first.fast_state.is_over():
            break
        action = min(first.fast_state.legal_ids())
        a, b = first.step(action), second.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:3] == b[1:3]
    assert first.fast_state.to_state() == second.fast_state.to_state()
    third = gym_adapter.StargazerEnv()
    third.reset(seed=12)
    assert third.deal_seed != first.deal_seed


def test_gymnasium_random_seat_is_drawn_at_each_reset():
    env = gym_adapter.StargazerEnv(seat="random", opponents="random")
    seats = set()
    for episode in range(16):
        _, info = env.reset(seed=episode)
        seats.add(info["seat"])
        assert env.fast_state.current_player() == info["seat"]
    assert seats == {0, 1, 2, 3}


def test_gymnasium_illegal_action_ends_the_episode_with_its_reward():
    """A learner ignoring the mask is told so: the episode ends with ``illegal_reward``."""
    env = gym_adapter.StargazerEnv(illegal_reward=-2.0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.0, True, False, True)


def test_gymnasium_options_are_checked_with_one_line_each():
    with pytest.raises(ValueError) as count:
        gym_adapter.StargazerEnv(players=3, opponents=("greedy",) * 3)
    assert str(count.value) == "StargazerEnv: 3 opponents for the 2 other seats; name one bot spec or 2"
    with pytest.raises(ValueError) as seat:
        gym_adapter.StargazerEnv(players=3, seat=3)
    assert str(seat.value) == "StargazerEnv: seat=3; write a seat from 0 to 2 or 'random'"
    with pytest.raises(BotSpecError) as spec:
        gym_adapter.StargazerEnv(opponents="gredy")
    assert "did you mean 'greedy'?" in str(spec.value)


# -- shared ---------------------------------------------------------------------------------


def test_observation_bounds_hold_every_observation_of_bot_games():
    """The Box of the spaces holds every observation of greedy and random games at both sizes."""
    from stargazer_rules.bots import make_bot

    fast = fast_game("draft7")
    low, high = observation_bounds(fast)
    assert (low <= high).all() and np.isfinite(high).all()
    for players in (3, 4):
        for seed in range(3):
            state = fast.new_state(players=players, seed=seed)
            bots = [make_bot("greedy" if seat % 2 else "random", seed) for seat in range(players)]
            for _ in range(MOST_ACTIONS):
                for seat in range(players):
                    vector = np.asarray(state.observation(seat), np.float32)
                    assert ((low <= vector) & (vector <= high)).all()
                if state.is_over():
                    break
                bot = bots[state.current_player()]
                state.step(fast.action_id(bot.choose(fast.game, state.to_state())))
            assert state.is_over()


@pytest.mark.parametrize(
    ("module", "library", "extra"),
    [
        ("stargazer_rules.adapters.openspiel", "pyspiel", "openspiel"),
        ("stargazer_rules.adapters.pettingzoo", "pettingzoo", "rl"),
        ("stargazer_rules.adapters.gymnasium", "gymnasium", "rl"),
    ],
)
def test_missing_library_raises_the_line_that_installs_it(monkeypatch, module, library, extra):
    monkeypatch.setitem(sys.modules, library, None)  # what Python does for a module it cannot find
    monkeypatch.delitem(sys.modules, module)
    with pytest.raises(ImportError) as missing:
        importlib.import_module(module)
    assert str(missing.value) == f"pip install 'stargazer-rules[{extra}]'"


def test_random_module_is_not_used_for_seeding():
    """The adapters draw from numpy generators the libraries seed, never from ``random``'s global state."""
    random.seed(1)
    env = gym_adapter.StargazerEnv()
    env.reset(seed=5)
    deal = env.deal_seed
    random.seed(2)
    env.reset(seed=5)
    assert env.deal_seed == deal


def test_a_library_that_fails_to_import_keeps_its_own_error(monkeypatch):
    """Only a missing library is answered with the install line: a broken one says what broke."""
    from stargazer_rules.adapters import shared

    def broken(name):
        raise ImportError("libopen_spiel.so: cannot open shared object file")

    monkeypatch.setattr(shared.importlib, "import_module", broken)
    with pytest.raises(ImportError) as failed:
        shared.require("pyspiel", "openspiel")
    assert str(failed.value) == "libopen_spiel.so: cannot open shared object file"


# -- every parameter and action checked -----------------------------------------------------


@pytest.mark.parametrize("bad", ["3", 1.7, True])
def test_gymnasium_step_refuses_an_action_that_is_not_an_integer(bad):
    """step('3') and step(1.7) were converted and played; now a TypeError, and nothing moves."""
    env = gym_adapter.StargazerEnv()
    env.reset(seed=5)
    before = env.fast_state.fields()
    with pytest.raises(TypeError, match="an action must be an integer"):
        env.step(bad)
    assert env.fast_state.fields() == before


@pytest.mark.parametrize("reward", [float("nan"), float("inf"), -float("inf"), 1e9, True, "-1"])
def test_gymnasium_illegal_reward_is_a_finite_number_in_range(reward):
    """illegal_reward=nan was taken; a reward is finite and within REWARD_RANGE."""
    with pytest.raises(ValueError, match=r"illegal_reward=.*; write a number from -1000 to 1000"):
        gym_adapter.StargazerEnv(illegal_reward=reward)


def test_gymnasium_takes_numpy_numbers():
    """numpy's floats and integers are numbers: a reward of np.float32 and an action of np.int64."""
    env = gym_adapter.StargazerEnv(illegal_reward=np.float32(-2.0))
    env.reset(seed=1)
    _obs, reward, *_ = env.step(np.int64(env.action_masks().argmax()))
    assert env.illegal_reward == -2.0 and reward == 0.0


@pytest.mark.parametrize("ruleset", [["draft7"], 7, None])
def test_the_adapters_refuse_a_ruleset_that_is_not_a_name_or_folder(ruleset):
    """ruleset is a bundled name or a folder: a list or a number is one TypeError saying so."""
    with pytest.raises(TypeError, match="write a bundled ruleset's name"):
        gym_adapter.StargazerEnv(ruleset=ruleset)


@pytest.mark.parametrize("opponents", [[1, 2, 3], 5])
def test_gymnasium_opponents_are_bot_specs(opponents):
    """opponents are texts: numbers are refused with what to write."""
    with pytest.raises(ValueError, match="name one bot spec"):
        gym_adapter.StargazerEnv(opponents=opponents)


@pytest.mark.parametrize("bad", [1.7, "0", True])
def test_pettingzoo_step_refuses_an_action_that_is_not_an_integer(bad):
    """step(1.7) and step('0') were converted and played; now a TypeError."""
    env = pz_adapter.env()
    env.reset(seed=3)
    before = env.unwrapped.fast_state.fields()
    with pytest.raises(TypeError, match="an action must be an integer"):
        env.step(bad)
    assert env.unwrapped.fast_state.fields() == before


@pytest.mark.parametrize("outcome", [1000, 5000])
def test_openspiel_refuses_a_chance_outcome_that_is_not_listed(outcome):
    """With deals=1000 the outcomes are 0..999: outcome 1000 was dealt; now a ValueError."""
    state = pyspiel.load_game(openspiel.GAME_NAME, {"deals": 1000}).new_initial_state()
    with pytest.raises(ValueError, match=f"chance outcome {outcome} is not a deal of this game: its outcomes are 0 to 999"):
        state.apply_action(outcome)
    assert state.is_chance_node()
    state.apply_action(999)
    assert not state.is_chance_node()


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5, "3"])
def test_reset_seeds_are_whole_numbers_in_range(seed):
    """reset(seed=...) of both environments takes 0 to 2**64 - 1: the rest is refused with the
    range (a bool, a float or a text as a TypeError), never handed on to numpy."""
    for env in (gym_adapter.StargazerEnv(), pz_adapter.raw_env()):
        with pytest.raises((TypeError, ValueError)):
            env.reset(seed=seed)
    numpy_seeded, int_seeded = pz_adapter.raw_env(), pz_adapter.raw_env()
    numpy_seeded.reset(seed=np.int64(7))
    int_seeded.reset(seed=7)
    assert numpy_seeded.deal_seed == int_seeded.deal_seed
