"""The greedy bot: the best-looking next state, judged by the provisional score.

For each legal action the bot plays it with ``game.step`` and judges the result with
``evaluation.margin``: its provisional total minus the best other seat's, plus small values for
cubes in hand and for being the start player. Many decisions show nothing in the score at once
(choosing a crew before its survey, a skill's target before the cube is placed), so after the
action the bot keeps playing its own next decisions, each greedily one step ahead, until the
turn ends or another seat is to decide, and judges the state reached. Ties between actions are
broken by the bot's seeded random-number generator.

The lookahead plays at most ``Game.bounds.most_turn_decisions`` decisions (the most one turn
can have), and the bot raises ``BotTimeout`` past the deadline of ``bots.time_limit`` as MCTS
does. A decision also does at most ``MOST_WORK`` units of work whatever the ruleset, a unit
being one game step or one option listed by the state a step reaches (listing is most of a
step's cost on a large table: a step into a survey of 1,600 options costs a hundred others):

1. the legal actions are stepped in a spread order (any first k of them evenly spaced in the
   legal order) until half the work is spent, so that a decision of thousands of options
   judges an even sample of them, and every option when there are not so many;
2. each action stepped gets an equal share of the rest for its lookahead, which stops, judging
   the state before the decision it could not finish, when its share is spent.

On the bundled rulesets the bound is never reached (``tests/test_bots.py`` plays them and
counts), so their play is what it was; on a table at the schema's limits (16 Planets, 8 seats,
skills counting 100 cubes) a decision took up to 11.6 s and now takes well under one
(docs/bots.md, "Work per decision").
"""

from __future__ import annotations

import random
import time

from stargazer_rules.bots.base import BotTimeout, deadline, number_in, register_bot
from stargazer_rules.bots.evaluation import HAND_WEIGHT, START_WEIGHT, margin
from stargazer_rules.engine.game import Game
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.table import State

#: The most VP a cube in hand or the start seat may be worth: more than a whole game's margin.
MAX_WEIGHT = 100.0
#: Values closer than this are ties (float sums of the same VP in another order).
_TIE = 1e-9

#: Game steps between two looks at the deadline (the kernel's greedy looks as often).
CHECK_EVERY = 256
#: The most work of one decision: game steps plus the options of the states they reach.
MOST_WORK = 8_192


class _Lookahead:
    """One decision's lookahead: its game, its deadline, the game steps it has played and
    the work they cost (a step and the options of the state it reaches)."""

    def __init__(self, game: Game, until: float | None, spec: str) -> None:
        self.game = game
        self.until = until
        self.spec = spec
        self.steps = 0
        self.work = 0

    def step(self, state: State, act: Action) -> State:
        """``game.step``, counted with its work; ``BotTimeout`` once the deadline
        (``bots.time_limit``) has passed, looked at every ``CHECK_EVERY`` steps."""
        self.steps += 1
        if self.until is not None and self.steps % CHECK_EVERY == 0 and time.monotonic() > self.until:
            raise BotTimeout(f"{self.spec} ran out of time after {self.steps} steps of its lookahead")
        after = self.game.step(state, act)
        self.work += 1 + len(after.legal)
        return after


class GreedyBot:
    """One turn ahead: greedy over the player's own consecutive decisions.

    ``hand`` is the VP value of a cube in hand, ``start`` that of being the start player
    (``evaluation.margin``).
    """

    def __init__(self, seed: int, hand: float = HAND_WEIGHT, start: float = START_WEIGHT) -> None:
        self.spec = "greedy"
        self._rng = random.Random(seed)
        self.hand = hand
        self.start = start

    def last_values(self) -> None:
        """None: a look one turn ahead judges margins, not each seat's chances."""
        return None

    def choose(self, game: Game, state: State) -> Action:
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        seat = game.current_player(state)
        best = float("-inf")
        best_actions: list[Action] = []
        look = _Lookahead(game, deadline(), self.spec)
        stepped: dict[int, State] = {}
        for index in spread(len(legal)):
            if stepped and look.work >= MOST_WORK // 2:
                break
            stepped[index] = look.step(state, legal[index])
        start, share = look.work, (MOST_WORK - look.work) // len(stepped)
        for k, index in enumerate(sorted(stepped)):
            act = legal[index]
            # The k-th share ends at a fixed mark, so that one lookahead's last step past its
            # share is taken from the next one's and the decision's work never adds them up.
            value = self._follow(look, stepped[index], seat, state.round, state.turn, start + share * (k + 1))
            if value > best + _TIE:
                best, best_actions = value, [act]
            elif value >= best - _TIE:
                best_actions.append(act)
        return best_actions[0] if len(best_actions) == 1 else self._rng.choice(best_actions)

    def _follow(self, look: _Lookahead, state: State, seat: int, round_: int, turn: int, until_work: int) -> float:
        """Play ``seat``'s own next decisions of this turn greedily; the value of where they end.

        At most ``Game.bounds.most_turn_decisions`` of them, the most a turn can have, and
        only until ``look.work`` reaches ``until_work``: a decision that does not fit is not
        played, and the state before it is judged.
        """
        game = look.game
        hand, start = self.hand, self.start
        most = game.bounds.most_turn_decisions
        decisions = 0
        while (
            state.legal
            and state.turn == turn
            and state.round == round_
            and game.current_player(state) == seat
            and decisions < most
            and look.work + len(state.legal) <= until_work
        ):
            best_value = float("-inf")
            best_state = state
            for act in state.legal:
                after = look.step(state, act)
                if look.work > until_work:
                    return margin(game, state, seat, hand, start)
                value = margin(game, after, seat, hand, start)
                if value > best_value + _TIE:
                    best_value, best_state = value, after
            state = best_state
            decisions += 1
        return margin(game, state, seat, hand, start)


def spread(count: int) -> list[int]:
    """``range(count)`` in an order whose every beginning is spread evenly over it: by the
    bit-reversed index (0, 4, 2, 6, 1, 5, 3, 7 for 8)."""
    bits = max(count - 1, 0).bit_length()
    return sorted(range(count), key=lambda index: int(f"{index:0{bits}b}"[::-1] or "0", 2))


register_bot(
    "greedy",
    GreedyBot,
    {"hand": (number_in(0, MAX_WEIGHT), HAND_WEIGHT), "start": (number_in(0, MAX_WEIGHT), START_WEIGHT)},
    native=True,
)
