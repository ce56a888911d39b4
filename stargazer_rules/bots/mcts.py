"""The MCTS bot: UCT for 3-4 players, each seat maximising its own result (max^n style).

The game has no hidden information and no chance after the deal, so the tree is deterministic:
a node is a state, an edge a legal action, and ``game.step`` gives the child. Every node keeps
the sum of a *vector* of rewards, one per seat; at a node, the seat to move picks the child
whose mean reward *for that seat* plus the UCT exploration term is highest, so every seat
maximises its own result, as in max^n search.

One iteration:

1. **Selection.** From the root, follow the UCT choice of the seat to move
   (``mean + c * sqrt(ln N / n)``) down to a leaf.
2. **Expansion.** A leaf seen before gets all its children at once. Each child starts with
   ``prior`` virtual visits of the heuristic value of its state (``_values``: the provisional
   score sheet, as the greedy bot judges it). Wide survey decisions (20-40 options) are thus
   ordered sensibly from the first visit instead of being tried blindly one by one.
3. **Rollout.** From the leaf, play on with the rollout policy for at most ``depth`` decisions
   (0: to the end of the game) and take the reward vector of the state reached.
4. **Backpropagation.** Add the vector to every node on the path.

The chosen action is the root child with the most visits of its own (virtual visits excluded).
``last_values()`` then gives the root's value for every seat: the mean of the reward vectors of
the decision's ``iterations`` rollouts (who the search thinks is winning, docs/bots.md); it is
an output only, never read by a later decision.

Reward: for each seat, ``sigmoid(lead / scale)`` where lead is the seat's total minus the best
other seat's total (cubes in hand add ``HAND_WEIGHT`` VP each before the end, and break ties at
the end, R18). Like a win (1, or 1/k shared) it is high exactly when the seat is ahead, but it
also tells a near-miss from a rout, which gives a much less noisy signal at small budgets
(measured in docs/bots.md). The same function judges a finished game and a truncated rollout.

Rollout policies: ``random`` (uniform over the legal actions); ``full`` (uniform, but a survey
places as many cubes as it can); ``greedy`` (as ``full``, and the survey's start Planet is the
one that gives the mover the best provisional lead). Nothing is kept between decisions.

Work per decision: besides its iterations, a search stops once it has done ``work_budget``
units of work (a game step, or an option listed by the state a step reaches), checked between
iterations. On the bundled rulesets a search stays under half of it, so their play is what it
was; on a table at the schema's limits, where one step may list thousands of survey options, a
decision of ``mcts:200`` takes seconds instead of a quarter of a minute (docs/bots.md, "Work
per decision").
"""

from __future__ import annotations

import math
import random
import time

from stargazer_rules.bots.base import (
    BotTimeout,
    OneOf,
    deadline,
    integer_in,
    iteration_count,
    number_in,
    register_bot,
)
from stargazer_rules.bots.evaluation import HAND_WEIGHT, tie_break_weight
from stargazer_rules.engine.game import Game
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.vocabulary.actions import SURVEY, Action
from stargazer_rules.vocabulary.table import State

ROLLOUTS = ("random", "full", "greedy")

#: Defaults, chosen by the measurements in docs/bots.md.
ITERATIONS = 400
EXPLORATION = 0.7
ROLLOUT = "full"
DEPTH = 16
PRIOR = 3
SCALE = 4.0

#: The ranges of the parameters: wide around the defaults, and within what the kernel holds.
#: A rollout of 10,000 decisions is longer than any game (0 plays to the end anyway); 1,000
#: virtual visits outweigh any search the server allows; past c=100 the search is all
#: exploration, and past scale=1,000 VP every lead looks the same.
MAX_EXPLORATION = 100.0
MAX_DEPTH = 10_000
MAX_PRIOR = 1_000
MAX_SCALE = 1_000.0

#: The work a decision may do, in units of one game step or one option listed by the state a
#: step reaches (listing is most of a step's cost on a large table), per iteration on average:
#: ``EXPANSION_WORK`` and ``ROLLOUT_STEP_WORK`` for each rollout decision, of at most
#: ``COUNTED_ROLLOUT`` decisions (``work_budget``). The search stops once it has done its budget.
EXPANSION_WORK = 128
ROLLOUT_STEP_WORK = 24
COUNTED_ROLLOUT = 64


def work_budget(iterations: int, depth: int) -> int:
    """The most work of one decision of ``iterations`` iterations with rollouts of ``depth``
    decisions (0: to the end). On the bundled rulesets searches stay under half of it
    (docs/bots.md, "Work per decision")."""
    rollout = min(depth or COUNTED_ROLLOUT, COUNTED_ROLLOUT)
    return iterations * (EXPANSION_WORK + ROLLOUT_STEP_WORK * rollout)


class _Node:
    """A state in the tree: its children (None until expanded), visits and per-seat reward sums."""

    __slots__ = ("state", "action", "mover", "children", "visits", "rewards")

    def __init__(self, state: State, act: Action | None, mover: int | None) -> None:
        self.state = state
        self.action = act
        self.mover = mover
        self.children: list[_Node] | None = None
        self.visits = 0
        self.rewards: list[float] = [0.0] * state.players


def _values(game: Game, state: State, scale: float) -> list[float]:
    """Each seat's reward in (0, 1): the sigmoid of its lead over the best other seat."""
    totals = provisional_totals(game, state)
    weight = HAND_WEIGHT if state.legal else tie_break_weight(game)  # at the end, hands only break ties (R18)
    scores = [total + weight * hand for total, hand in zip(totals, state.hands)]
    best = max(scores)
    leader = scores.index(best)
    runner_up = max(scores[:leader] + scores[leader + 1 :], default=0.0)
    exp = math.exp
    values = []
    for seat, score in enumerate(scores):
        lead = (score - (runner_up if seat == leader else best)) / scale
        values.append(1.0 / (1.0 + exp(-lead)) if lead > -50 else 0.0)
    return values


class MCTSBot:
    """UCT with a reward vector per node (max^n), heuristic priors and cheap rollouts.

    ``iterations`` per decision, exploration constant ``c``, ``rollout`` policy, rollout
    ``depth`` (decisions; 0 plays to the end), ``prior`` virtual visits of the heuristic for a
    new node, reward ``scale`` in VP.
    """

    def __init__(
        self,
        seed: int,
        iterations: int = ITERATIONS,
        c: float = EXPLORATION,
        rollout: str = ROLLOUT,
        depth: int = DEPTH,
        prior: int = PRIOR,
        scale: float = SCALE,
    ) -> None:
        self.spec = "mcts"
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.c = c
        self.rollout = rollout
        self.depth = depth
        self.prior = prior
        self.scale = scale
        self._last_values: list[float] | None = None
        #: The work of the last decision (``work_budget``) and the iterations it ran.
        self.work = 0
        self.simulations = 0

    def last_values(self) -> list[float] | None:
        """Each seat's mean reward in the last decision's simulations; None if it was forced
        or ran out of time."""
        return self._last_values

    def choose(self, game: Game, state: State) -> Action:
        self._last_values = None
        legal = state.legal
        if len(legal) == 1:
            return legal[0]
        self.work = 0
        budget = work_budget(self.iterations, self.depth)
        root = _Node(state, None, game.current_player(state))
        self._expand(game, root)
        root.visits = sum(child.visits for child in root.children)  # type: ignore[union-attr]
        c = self.c
        sqrt, log = math.sqrt, math.log
        expand_after = self.prior  # a node is expanded on its second real visit
        until = deadline()
        simulations = 0
        for iteration in range(self.iterations):
            if until is not None and iteration % 16 == 0 and time.monotonic() > until:
                raise BotTimeout(f"{self.spec} ran out of time after {iteration} of {self.iterations} iterations")
            if self.work > budget and iteration:
                break
            node = root
            path = [root]
            while True:
                children = node.children
                if children is None:
                    if node.visits <= expand_after or not node.state.legal:
                        break
                    self._expand(game, node)
                    children = node.children
                mover = node.mover
                explore = c * sqrt(log(node.visits or 1))
                best = None
                best_value = -math.inf
                for child in children:  # type: ignore[union-attr]
                    visits = child.visits
                    if visits == 0:
                        best = child
                        break
                    value = child.rewards[mover] / visits + explore / sqrt(visits)
                    if value > best_value:
                        best, best_value = child, value
                node = best  # type: ignore[assignment]
                path.append(node)
                if node.visits <= expand_after:
                    break
            rewards = self._rollout(game, node.state)
            simulations += 1
            for visited in path:
                visited.visits += 1
                sums = visited.rewards
                for seat, reward in enumerate(rewards):
                    sums[seat] += reward
        # The root's rewards hold the rollouts only, no priors.
        self.simulations = simulations
        self._last_values = [total / simulations for total in root.rewards]
        prior = self.prior
        best_child = max(
            root.children,  # type: ignore[arg-type]
            key=lambda child: (child.visits - prior, child.rewards[root.mover] / max(child.visits, 1)),
        )
        return best_child.action  # type: ignore[return-value]

    def _expand(self, game: Game, node: _Node) -> None:
        """All children of ``node``, each with ``prior`` virtual visits of its heuristic value."""
        step, current, prior, scale = self._step, game.current_player, self.prior, self.scale
        children = []
        for act in node.state.legal:
            after = step(game, node.state, act)
            child = _Node(after, act, current(after))
            if prior:
                child.visits = prior
                child.rewards = [value * prior for value in _values(game, after, scale)]
            children.append(child)
        self._rng.shuffle(children)  # ties between children go to a seeded random one
        node.children = children

    def _step(self, game: Game, state: State, act: Action) -> State:
        """``game.step``, counted with its work: the step and the options of the state it reaches."""
        after = game.step(state, act)
        self.work += 1 + len(after.legal)
        return after

    def _rollout(self, game: Game, state: State) -> list[float]:
        rng = self._rng
        step = self._step
        left = self.depth or -1  # -1 never reaches 0: play to the end
        policy = self.rollout
        while state.legal and left:
            legal = state.legal
            if policy != "random" and len(legal) > 1 and legal[0].kind == SURVEY:
                most = max(act.count for act in legal)
                fullest = [act for act in legal if act.count == most]
                if policy == "greedy":
                    state = self._best_survey(game, state, fullest)
                else:
                    state = step(game, state, fullest[int(rng.random() * len(fullest))])
            else:
                state = step(game, state, legal[int(rng.random() * len(legal))])
            left -= 1
        return _values(game, state, self.scale)

    def _best_survey(self, game: Game, state: State, options: list[Action]) -> State:
        """The state after the survey that gives the mover the best provisional lead."""
        seat = game.current_player(state)
        rng = self._rng
        best_state = state
        best = -math.inf
        for act in options:
            after = self._step(game, state, act)
            totals = provisional_totals(game, after)
            lead = totals[seat] - max((t for i, t in enumerate(totals) if i != seat), default=0)
            lead += rng.random() * 0.01  # random tie-break
            if lead > best:
                best, best_state = lead, after
        return best_state


register_bot(
    "mcts",
    MCTSBot,
    {
        "iterations": (iteration_count, ITERATIONS),
        "c": (number_in(0, MAX_EXPLORATION), EXPLORATION),
        "rollout": (OneOf(*ROLLOUTS), ROLLOUT),
        "depth": (integer_in(0, MAX_DEPTH), DEPTH),
        "prior": (integer_in(0, MAX_PRIOR), PRIOR),
        "scale": (number_in(0, MAX_SCALE, above=True), SCALE),
    },
    positional="iterations",
    native=True,
)
