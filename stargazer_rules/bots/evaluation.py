"""Judging a state for a seat from what a front end shows: the provisional score sheet.

Both search bots use these. ``provisional_totals`` (engine/scoring.py) gives every seat's total as the
board stands; a mid-game total misses what the seat can still do, so the heuristic adds a small
value for each cube still in hand (a cube placed must earn more than that to be worth placing)
and for being the start player (first choice among the crews and their free cubes).
"""

from __future__ import annotations

from stargazer_rules.engine.game import Game
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.vocabulary.table import State

#: VP a cube in hand is worth to its owner mid-game: its future use, discounted. Measured for
#: the greedy bot (docs/bots.md): 0 to 0.75 play alike, 1 loses; 0.5 is the middle.
HAND_WEIGHT = 0.5
#: VP of being the start player mid-game (first pick of the crews); only Armstrong's chooser
#: changes it, so it only decides that choice.
START_WEIGHT = 1.0


def tie_break_weight(game: Game) -> float:
    """VP a cube in hand counts at the end of the game: enough to break a tie of totals (R18),
    too little to outweigh one VP, since no hand holds more than ``cubes_per_player`` (a knob).
    A whole hand is worth at most a thousandth of a VP, so the MCTS reward of a finished game
    is its lead in VP and nothing else."""
    return 0.001 / (game.ruleset.cubes_per_player + 1)


def margin(
    game: Game,
    state: State,
    seat: int,
    hand_weight: float = HAND_WEIGHT,
    start_weight: float = START_WEIGHT,
) -> float:
    """The seat's lead over the best other seat, in VP, with the mid-game terms above.

    At the end of the game only the totals count, and cubes in hand break ties (R18): the hand
    term shrinks to a tie-break there.
    """
    totals = provisional_totals(game, state)
    if not state.legal:  # over: hands only break ties (R18)
        weight = tie_break_weight(game)
        totals = [total + weight * hand for total, hand in zip(totals, state.hands)]
        return totals[seat] - max(totals[:seat] + totals[seat + 1 :], default=0)
    value = totals[seat] - max(totals[:seat] + totals[seat + 1 :], default=0) + hand_weight * state.hands[seat]
    if state.start_player == seat:
        value += start_weight
    return value
