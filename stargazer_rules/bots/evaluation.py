"""Judging a state for a seat from what a front end shows: the provisional score sheet.

Both search bots use these. ``provisional_totals`` (scoring.py) gives every seat's total as the
board stands; a mid-game total misses what the seat can still do, so the heuristic adds a small
value for each cube still in hand (a cube placed must earn more than that to be worth placing)
and for being the start player (first choice among the crews and their free cubes).
"""

from __future__ import annotations

from stargazer_rules.engine import Game, State
from stargazer_rules.scoring import provisional_totals, winners

#: VP a cube in hand is worth to its owner mid-game: its future use, discounted. Measured for
#: the greedy bot (docs/bots.md): 0 to 0.75 play alike, 1 loses; 0.5 is the middle.
HAND_WEIGHT = 0.5
#: VP of being the start player mid-game (first pick of the crews); only Armstrong's chooser
#: changes it, so it only decides that choice.
START_WEIGHT = 1.0


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
    own = totals[seat]
    best_other = max((total for other, total in enumerate(totals) if other != seat), default=0)
    if not state.legal:  # over
        hands = state.hands
        best_hand = max((hand for other, hand in enumerate(hands) if other != seat), default=0)
        return own - best_other + 0.001 * (hands[seat] - best_hand)
    value = own - best_other + hand_weight * state.hands[seat]
    if state.start_player == seat:
        value += start_weight
    return value


def win_shares(game: Game, state: State) -> tuple[float, ...]:
    """Each seat's share of the win of a finished game (R18): 1/k for each of k winners."""
    won = winners(provisional_totals(game, state), state.hands)
    share = 1.0 / len(won)
    return tuple(share if seat in won else 0.0 for seat in range(state.players))
