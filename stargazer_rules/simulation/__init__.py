"""Balance simulation: plan games, play them with bots on many cores, stream ``games.jsonl``.

See docs/simulation.md for the plan of a run and the line format the analysis reads.
"""

from stargazer_rules.simulation.runner import (
    GAME_FORMAT,
    GAMES_FILE,
    LINEUP_SEPARATOR,
    PlanEntry,
    RunResult,
    SimulationError,
    bot_seed,
    parse_lineup,
    plan,
    play_game,
    play_games,
    read_games,
    run_simulation,
    seating,
)

__all__ = [
    "GAMES_FILE",
    "GAME_FORMAT",
    "LINEUP_SEPARATOR",
    "PlanEntry",
    "RunResult",
    "SimulationError",
    "bot_seed",
    "parse_lineup",
    "plan",
    "play_game",
    "play_games",
    "read_games",
    "run_simulation",
    "seating",
]
