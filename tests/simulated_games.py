"""Seeded games as ``games.jsonl`` lines, built by hand through the public API (tests only).

The analysis reads the lines the simulation runner writes (docs/simulation.md, "games.jsonl").
Its tests must not wait for the runner, so this module plays games itself and builds each line
exactly as the contract describes: the plan of blocks and rotations, ``picks`` from the
``crew_chosen`` and ``motivation_bonus`` events, ``score_by_round`` from the provisional score
after each ``round_ended``, one ``options`` count per decision, the score sheet through
``jsonio`` and the record through ``records``.

Bots are the real ``make_bot`` bots, plus ``first`` (always the first legal action), a
deterministic stand-in for a second kind of bot so that lineups can mix specs.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from stargazer_rules import Game, jsonio, load_ruleset, records
from stargazer_rules.actions import Action
from stargazer_rules.bots import make_bot
from stargazer_rules.engine import State

GAME_FORMAT = "stargazer-game/1"


class FirstLegal:
    """Always the first legal action: a deterministic bot with the spec ``first``."""

    spec = "first"

    def choose(self, game: Game, state: State) -> Action:
        return game.legal_actions(state)[0]


def _bot(spec: str, seed: int) -> Any:
    return FirstLegal() if spec == "first" else make_bot(spec, seed)


@functools.cache
def game_of(ruleset: str) -> Game:
    return Game(load_ruleset(ruleset))


def play_line(
    ruleset: str, lineup: Sequence[str], block: int, rotation: int, seed: int = 0
) -> dict[str, Any]:
    """The games.jsonl line of game ``rotation`` of block ``block`` (deal seed ``seed + block``)."""
    game = game_of(ruleset)
    players = len(lineup)
    deal_seed = seed + block
    seating = [lineup[(seat + rotation) % players] for seat in range(players)]
    bot_seeds = [deal_seed * 1000 + rotation * 10 + seat for seat in range(players)]
    bots = [_bot(spec, bot_seed) for spec, bot_seed in zip(seating, bot_seeds)]
    setup = game.deal(players, deal_seed)
    state = game.new_state(setup=setup)
    actions: list[Action] = []
    options: list[int] = []
    picks: list[dict[str, Any]] = []
    score_by_round: list[list[int]] = []
    round_number, order = 1, 0
    while not game.is_over(state):
        legal = game.legal_actions(state)
        options.append(len(legal))
        act = bots[game.current_player(state)].choose(game, state)
        actions.append(act)
        state, events = game.apply(state, act)
        for event in events:
            params = event.params
            if event.key == "crew_chosen":
                order += 1
                picks.append(
                    {
                        "round": round_number,
                        "order": order,
                        "seat": params["player"],
                        "crew": params["crew"],
                        "motivation_vp": 0,
                    }
                )
            elif event.key == "motivation_bonus":
                picks[-1]["motivation_vp"] = params["vp"]
            elif event.key == "round_ended":
                score_by_round.append([seat.total for seat in game.score(state).seats])
            elif event.key == "round_started":
                round_number, order = params["round"], 0
    sheet = game.score(state)
    record = records.record_game(game, setup, actions, seed=deal_seed)
    line = {
        "format": GAME_FORMAT,
        "index": block * players + rotation,
        "block": block,
        "rotation": rotation,
        "deal_seed": deal_seed,
        "players": players,
        "ruleset": {"name": game.ruleset.name, "fingerprint": game.ruleset.fingerprint},
        "seating": seating,
        "bot_seeds": bot_seeds,
        "setup": jsonio.setup_to_json(setup),
        "rounds": state.round,
        "triggers": list(state.triggers),
        "decisions": len(actions),
        "options": options,
        "picks": picks,
        "score_by_round": score_by_round,
        "score_sheet": jsonio.score_sheet_to_json(sheet),
        "winners": list(sheet.winners),
        "record": records.record_to_json(record),
    }
    return json.loads(json.dumps(line))  # plain JSON, as read back from the file


@functools.cache
def _run(ruleset: str, lineup: tuple[str, ...], blocks: int, seed: int) -> str:
    players = len(lineup)
    lines = [
        play_line(ruleset, lineup, block, rotation, seed)
        for block in range(blocks)
        for rotation in range(players)
    ]
    return json.dumps(lines)


def run(
    ruleset: str = "draft7",
    lineup: Sequence[str] = ("random",) * 4,
    blocks: int = 3,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """The lines of a whole run: ``blocks`` blocks of ``len(lineup)`` games (a fresh copy each call)."""
    return json.loads(_run(ruleset, tuple(lineup), blocks, seed))
