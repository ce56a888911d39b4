"""Bots: players that choose among the legal actions, seeing only what a front end sees.

A bot is named by a spec string, as on the command line: ``"random"``, ``"greedy"``,
``"mcts:400"`` or ``"mcts:iterations=800"``. ``make_bot(spec, seed)`` builds one; the same spec
and seed choose the same actions for the same states, so simulations replay exactly. After a
decision, ``root_values(bot)`` says what a searching bot (MCTS) thought of each seat's chances.
"""

from __future__ import annotations

from stargazer_rules.bots import greedy, kernel_backed, mcts  # noqa: F401  (each registers itself)
from stargazer_rules.bots.base import (
    MAX_ITERATIONS,
    Bot,
    bot_names,
    make_bot,
    parse_spec,
    register_bot,
    root_values,
    time_limit,
    unregister_bot,
)
from stargazer_rules.errors import BotSpecError, BotTimeout

__all__ = [
    "MAX_ITERATIONS",
    "Bot",
    "BotSpecError",
    "BotTimeout",
    "bot_names",
    "make_bot",
    "parse_spec",
    "register_bot",
    "root_values",
    "time_limit",
    "unregister_bot",
]
