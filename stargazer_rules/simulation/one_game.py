"""One game: the ``Game`` of a ruleset in this process, a game played one decision at a time,
and the one layout of a game's games.jsonl line, whichever way it was played.

``play_game_stepwise`` asks each seat's bot for every decision and lets the Python engine apply
it with its events; it plays what the kernel cannot (a bot that runs in Python only, a ruleset
the kernel does not compile, ``--engine python``, a bot deadline). ``game_line_of`` lays out
the line of a finished game (docs/simulation.md, "games.jsonl").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from stargazer_rules.bots import make_bot, root_values
from stargazer_rules.bots.base import Bot
from stargazer_rules.engine.game import Game, Setup
from stargazer_rules.engine.scoring import provisional_totals
from stargazer_rules.formats import actions_json, records, values_json
from stargazer_rules.formats.game_lines import GAME_FORMAT, VALUE_DECIMALS
from stargazer_rules.kernel import native
from stargazer_rules.rulesets.model import Ruleset
from stargazer_rules.simulation.planning import PlanEntry, bot_seed, check_lineup, seating
from stargazer_rules.vocabulary.table import State

__all__ = ["game_line_of", "game_of", "play_game_stepwise"]


def play_game_stepwise(
    ruleset_or_game: Ruleset | Game,
    entry: PlanEntry,
    lineup: Sequence[str],
    engine: str = native.DEFAULT_ENGINE,
    wrap: Callable[[int, Bot], Bot] | None = None,
) -> dict[str, Any]:
    """Play the game of ``entry`` with ``lineup`` one decision at a time in Python and return
    its games.jsonl line as a dict. ``wrap(seat, bot)``, when given, is the bot that plays
    ``seat`` instead of ``bot`` (``stargazer explain``'s forced crew: ``bots.forced``).

    ``engine`` ``native`` lets the bots search in the kernel where the ruleset allows (the
    rules of the recorded game are always played by the Python engine, which writes the
    events and the record); the line says which engine's bots played.

    Besides the final score sheet and the record, the line keeps what the analysis needs and a
    record would make it replay: each crew pick with its motivation VP, the provisional totals
    when each round's last turn has ended (``scoring.provisional_totals``: the totals of
    ``game.score``), and the number of legal options of each decision. When a seat's bot
    searches (MCTS), ``value_by_round`` holds, for each round, the root's value for every seat
    of the last search decision made in it (``bots.base.root_values``), None for a round
    without one; a game with no search decision has no such field.
    """
    game = ruleset_or_game if isinstance(ruleset_or_game, Game) else game_of(ruleset_or_game)
    players = entry.players
    check_lineup(lineup, entry)
    seats = seating(lineup, entry.rotation)
    seeds = [bot_seed(entry.deal_seed, entry.rotation, seat) for seat in range(players)]
    bots = [make_bot(spec, seed, engine) for spec, seed in zip(seats, seeds, strict=True)]
    if wrap is not None:
        bots = [wrap(seat, bot) for seat, bot in enumerate(bots)]
    setup = game.deal(players, seed=entry.deal_seed)
    state = game.new_state(setup=setup)
    options: list[int] = []
    actions: list[dict[str, Any]] = []
    picks: list[dict[str, Any]] = []
    score_by_round: list[list[int]] = []
    value_by_round: list[list[float] | None] = []
    searched = False
    order = 0
    while state.legal:
        options.append(len(state.legal))
        bot = bots[game.current_player(state)]
        act = bot.choose(game, state)
        actions.append(actions_json.action_to_json(game, state, act))
        round_number = state.round
        values = root_values(bot)
        if values is not None:
            searched = True
            value_by_round.extend([None] * (round_number - len(value_by_round)))
            value_by_round[round_number - 1] = [round(value, VALUE_DECIMALS) for value in values]
        state, events = game.apply(state, act)
        for event in events:
            key = event.key
            if key == "crew_chosen":
                order = order + 1 if picks and picks[-1]["round"] == round_number else 1
                picks.append(
                    {
                        "round": round_number,
                        "order": order,
                        "seat": event.params["player"],
                        "crew": event.params["crew"],
                        "motivation_vp": 0,
                    }
                )
            elif key == "motivation_bonus":
                picks[-1]["motivation_vp"] = event.params["vp"]
            elif key == "round_ended":
                score_by_round.append(list(provisional_totals(game, state)))
    value_by_round.extend([None] * (state.round - len(value_by_round)))
    return game_line_of(
        game, entry, seats, seeds, native.engine_for(game, engine), setup, state, actions,
        options, picks, score_by_round, value_by_round if searched else None,
    )


def game_line_of(
    game: Game,
    entry: PlanEntry,
    seats: Sequence[str],
    seeds: list[int],
    engine: str,
    setup: Setup,
    state: State,
    actions: list[dict[str, Any]],
    options: list[int],
    picks: list[dict[str, Any]],
    score_by_round: list[list[int]],
    value_by_round: list[list[float] | None] | None,
) -> dict[str, Any]:
    """The games.jsonl line of a game played to ``state`` (docs/simulation.md): the one place
    its fields are laid out, whichever way the game was played. ``value_by_round`` None: no
    decision was searched, and the line has no such field."""
    sheet = game.score(state)
    record = records.GameRecord(
        game.ruleset.name,
        game.ruleset.fingerprint,
        setup,
        tuple(actions),
        entry.deal_seed,
        {"generator": "stargazer simulate", "index": entry.index, "seating": list(seats)},
        finished=game.is_over(state),
    )
    return {
        "format": GAME_FORMAT,
        "index": entry.index,
        "block": entry.block,
        "rotation": entry.rotation,
        "deal_seed": entry.deal_seed,
        "players": entry.players,
        "ruleset": {"name": game.ruleset.name, "fingerprint": game.ruleset.fingerprint},
        "seating": list(seats),
        "bot_seeds": seeds,
        "engine": engine,
        "setup": values_json.setup_to_json(setup),
        "rounds": state.round,
        "triggers": list(state.triggers),
        "decisions": len(actions),
        "options": options,
        "picks": picks,
        "score_by_round": score_by_round,
        **({"value_by_round": value_by_round} if value_by_round is not None else {}),
        "score_sheet": values_json.score_sheet_to_json(sheet),
        "winners": list(sheet.winners),
        "record": records.record_to_json(record),
    }


#: One ``Game`` per ruleset fingerprint in each process (the parent and each worker), built on
#: first use: the one per-process home of a simulation's Games, so that the tables each Game
#: derives (its compiled kernel among them, ``Game.derived``) are built once per process.
_GAMES: dict[str, Game] = {}


def game_of(ruleset: Ruleset) -> Game:
    """The ``Game`` of ``ruleset`` in this process (one per fingerprint; an equal ruleset object
    shares it, one with other effect classes behind the same YAML gets its own)."""
    game = _GAMES.get(ruleset.fingerprint)
    if game is None or game.ruleset != ruleset:
        game = _GAMES[ruleset.fingerprint] = Game(ruleset)
    return game
