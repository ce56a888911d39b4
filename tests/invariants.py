"""Invariants of every state, and a bounded random playout, shared by the property tests.

Each ``check_*`` asserts one invariant of one state, with a message that says which rule broke
and shows the numbers; ``play`` plays a ``Playout`` with the ``choose`` policy and fails, rather
than hangs, if the game outlives the bound that policy guarantees.
"""

from __future__ import annotations

from collections import Counter

import attrs

from stargazer_rules.engine.game import Game
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER
from stargazer_rules.vocabulary.table import State
from strategies import MAX_DECISIONS_PER_ROUND, Playout, choose, round_bound


def check_player_cubes(game: Game, state: State) -> None:
    """R6, R13: hand + own cubes on tracks, special squares and crews + removed = cubes_per_player,
    plus the free cubes the seat took as its own (``take_free_cubes``, idea R8), which a
    ruleset without the effect never counts."""
    on_tracks = Counter(owner for track in state.tracks for owner in track)
    on_specials = Counter(owner for special in state.specials for owner in special)
    on_crews = Counter(owner for cubes in state.crew_cubes for owner in cubes)
    takes = game.bounds.most_hand > game.ruleset.cubes_per_player
    for seat in range(state.players):
        assert takes or state.taken[seat] == 0, f"seat {seat} took {state.taken[seat]} free cubes, but nothing hands them out"
        expected = game.ruleset.cubes_per_player + state.taken[seat]
        parts = {
            "hand": state.hands[seat],
            "tracks": on_tracks[seat],
            "specials": on_specials[seat],
            "crews": on_crews[seat],
            "removed": state.removed[seat],
        }
        assert sum(parts.values()) == expected, f"seat {seat}: {parts} do not add up to {expected}"
        assert min(parts.values()) >= 0, f"seat {seat}: a negative count in {parts}"


def check_free_cubes(game: Game, state: State) -> None:
    """R11, R13: stock + free cubes on tracks + free cubes on crews + those seats took as their
    own (idea R8) = free_cubes."""
    parts = {
        "stock": state.stock,
        "tracks": sum(track.count(FREE_CUBE_OWNER) for track in state.tracks),
        "specials": sum(special.count(FREE_CUBE_OWNER) for special in state.specials),
        "crews": sum(state.crew_free),
        "taken": sum(state.taken),
    }
    assert sum(parts.values()) == game.ruleset.free_cubes, f"free cubes {parts} != {game.ruleset.free_cubes}"
    assert parts["specials"] == 0, "a free cube on a special square"
    assert state.stock >= 0 and min(state.crew_free, default=0) >= 0, parts
    cap = game.ruleset.max_free_cubes_per_crew
    assert all(free <= cap for free in state.crew_free), f"R11: free cubes {state.crew_free} over the cap {cap}"


def check_board(game: Game, state: State) -> None:
    """R2, R3: no track longer than its planet, no special square over its capacity."""
    for p, card_index in enumerate(state.planets):
        card = game.ruleset.planets[card_index]
        assert len(state.tracks[p]) <= card.length, f"planet {card.id}: {state.tracks[p]} on {card.length} squares"
        assert len(state.specials[p]) <= card.special_capacity, f"planet {card.id}: special {state.specials[p]}"


def check_cubes(game: Game, state: State) -> None:
    """Every cube is somewhere, exactly once."""
    check_player_cubes(game, state)
    check_free_cubes(game, state)
    check_board(game, state)


def check_legal(game: Game, state: State) -> None:
    """Legal actions are non-empty until the game is over and empty after; no duplicates."""
    legal = game.legal_actions(state)
    over = game.is_over(state)
    assert bool(legal) != over, f"stage {state.stage}: over={over} with {len(legal)} legal actions"
    assert (game.current_player(state) is None) == over, (state.stage, game.current_player(state))
    assert len(set(legal)) == len(legal), f"duplicate legal actions: {legal}"
    bound = game.most_legal_actions
    assert bound is None or len(legal) <= bound, f"{len(legal)} legal actions, over the bound {bound}"


@attrs.frozen
class Trajectory:
    """A played game: ``states[i + 1]`` is ``actions[i]`` applied to ``states[i]``."""

    states: tuple[State, ...]
    actions: tuple[Action, ...]

    @property
    def final(self) -> State:
        return self.states[-1]

    def steps(self):
        """(before, action, after) for every decision."""
        return zip(self.states, self.actions, self.states[1:])


def play(playout: Playout) -> Trajectory:
    """Play ``playout`` to the end with ``choose``; fail if it outlives ``round_bound``."""
    game = playout.game
    state = playout.new_state()
    rng = playout.policy()
    bound = round_bound(game, state)
    states = [state]
    actions = []
    decisions_this_round = 0
    while state.legal:
        act = choose(game, state, rng)
        after, _events = game.apply(state, act)
        decisions_this_round = decisions_this_round + 1 if after.round == state.round else 0
        assert decisions_this_round <= MAX_DECISIONS_PER_ROUND, f"round {state.round} takes too many decisions"
        assert after.round <= bound, (
            f"round {after.round} is past the bound {bound} that the progress policy guarantees"
        )
        states.append(after)
        actions.append(act)
        state = after
    return Trajectory(tuple(states), tuple(actions))
