"""Games played whole in the kernel, a chunk at a time: the public ``play_games`` and
``play_game``.

Where every seat's bot runs in the kernel, the ruleset compiles for it and no bot deadline is
set, one kernel call plays a whole chunk of games from the Python engine's deals, and each
line is written from the moves and figures it returns (docs/simulation.md, "How a run plays");
otherwise each game is played step by step (``one_game.play_game_stepwise``). The lines are the
same byte for byte either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stargazer_rules.bots.base import deadline, kernel_seat
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.formats import actions_json
from stargazer_rules.formats.game_lines import VALUE_DECIMALS
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation.one_game import game_line_of, game_of, play_game_stepwise
from stargazer_rules.simulation.planning import PlanEntry, bot_seed, check_lineup, seating

__all__ = ["play_game", "play_games"]


def play_game(
    ruleset_or_game: Ruleset | Game,
    entry: PlanEntry,
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> dict[str, Any]:
    """Play the game of ``entry`` with ``lineup`` and return its games.jsonl line as a dict
    (``play_games`` of one entry: in the kernel where it can, else ``play_game_stepwise``)."""
    return play_games(ruleset_or_game, [entry], lineup, engine)[0]


def play_games(
    ruleset_or_game: Ruleset | Game,
    entries: Sequence[PlanEntry],
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
) -> list[dict[str, Any]]:
    """The games.jsonl lines of ``entries``, each the line ``play_game_stepwise`` writes.

    Where every seat's bot runs in the kernel (``bots.base.kernel_seat``), the ``native``
    engine compiles the ruleset and no bot deadline is set (``bots.time_limit``), one kernel
    call plays the whole chunk from the Python engine's deals, and the lines are written from
    the moves and figures it returns, without replaying them in Python; otherwise each game is
    played step by step in Python.
    """
    game = ruleset_or_game if isinstance(ruleset_or_game, Game) else game_of(ruleset_or_game)
    seats = _kernel_lineup(game, lineup, engine)
    if seats is None:
        return [play_game_stepwise(game, entry, lineup, engine) for entry in entries]
    return _play_in_kernel(game, entries, lineup, seats)


def _kernel_lineup(game: Game, lineup: Sequence[str], engine: str) -> list[tuple[str, dict[str, Any]]] | None:
    """The kernel seat (kind, parameters) of each lineup entry, or None when a game of this
    lineup, engine and ruleset is played step by step in Python."""
    if native.engine_for(game, engine) != "native" or deadline() is not None:
        return None
    seats = [kernel_seat(spec) for spec in lineup]
    return None if None in seats else seats  # type: ignore[return-value]


def _play_in_kernel(
    game: Game, entries: Sequence[PlanEntry], lineup: Sequence[str], kernel_seats: Sequence[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The lines of ``entries``, their games played in one kernel call from the Python
    engine's deals (one deal per block: its games share it). A move's action JSON is built once
    per call (a record copies what it is given); the score sheet is the Python engine's, of
    the final state."""
    deals: dict[tuple[int, int], Setup] = {}
    dealt = []
    tables = []
    for entry in entries:
        check_lineup(lineup, entry)
        seeds = [bot_seed(entry.deal_seed, entry.rotation, seat) for seat in range(entry.players)]
        setup = deals.get((entry.players, entry.deal_seed))
        if setup is None:
            setup = deals[entry.players, entry.deal_seed] = game.deal(entry.players, seed=entry.deal_seed)
        bots = [(kind, seed, params) for (kind, params), seed in zip(seating(kernel_seats, entry.rotation), seeds)]
        planets, _ = game.card_indices(setup)
        crew = game.deck_indices(setup)  # the dealt crew, then R11's queue
        tables.append((entry.players, list(planets), list(crew), setup.start_player, bots))
        dealt.append((entry, seeds, setup))
    crew_ids = game.crew_ids
    engine = native.engine_for(game, "native")
    move_json: dict[tuple[str, int, int, int, int], dict[str, Any]] = {}
    lines = []
    for (entry, seeds, setup), played in zip(dealt, native.play_games(game, tables), strict=True):
        moves, options, kernel_picks, score_by_round, kernel_values, searched, final = played
        actions = []
        for move in moves:
            as_json = move_json.get(move)
            if as_json is None:
                as_json = move_json[move] = actions_json.kernel_move_to_json(game, *move)
            actions.append(as_json)
        picks = [
            {"round": round_number, "order": order, "seat": seat, "crew": crew_ids[card], "motivation_vp": vp}
            for round_number, order, seat, card, vp in kernel_picks
        ]
        values = [None if seat_values is None else [round(v, VALUE_DECIMALS) for v in seat_values] for seat_values in kernel_values]
        lines.append(
            game_line_of(
                game, entry, seating(lineup, entry.rotation), seeds, engine, setup, native.from_kernel(final),
                actions, options, picks, score_by_round, values if searched else None,
            )
        )
    return lines
