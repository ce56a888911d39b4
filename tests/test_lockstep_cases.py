"""Generated rulesets on which the two engines once disagreed, kept as data and played in
lockstep at the seeds that showed it (`benchmarks/language_lockstep.py` prints such a ruleset).

- ``move_cube_sets_off_protection.json``: a ``move_cube`` over several Planets whose landing
  sets off a Planet's ``protect_cubes`` mid-effect. The Python engine read the owners and the
  protection again for each Planet while the kernel read them once, as the effect starts; both
  read them once (a protection set off mid-effect holds from the next effect on).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from differential import play_lockstep
from strategies import choose, generated_game

CASES = Path(__file__).resolve().parent / "lockstep_cases"


@pytest.mark.parametrize(("case", "players", "deal", "play"), [
    ("move_cube_sets_off_protection", 4, 2, 0),
    ("move_cube_sets_off_protection", 4, 2, 1),
    ("move_cube_sets_off_protection", 4, 2, 2),
])
def test_the_engines_agree_on_a_case_they_once_disagreed_on(case: str, players: int, deal: int, play: int) -> None:
    game = generated_game(json.loads((CASES / f"{case}.json").read_text(encoding="utf-8")))
    rng = random.Random(play)
    assert play_lockstep(game, game.deal(players, deal), rng, choose=lambda state: choose(game, state, rng)) > 7


def test_a_protection_set_off_mid_move_holds_from_the_next_effect_on() -> None:
    """Deal 2, play 1: Player 4's skill moves Player 3's cube off p0 to p1, then off p1 to p8,
    whose landing protects Player 3's cubes; the move goes on to p8's cube all the same (the
    protection was read as the effect started), so it comes back to p1."""
    game = generated_game(json.loads((CASES / "move_cube_sets_off_protection.json").read_text(encoding="utf-8")))
    state = game.new_state(setup=game.deal(4, 2))
    rng = random.Random(1)
    for _ in range(7):
        state, events = game.apply(state, choose(game, state, rng))
    moved = [(event.params["planet"], event.params["square"]) for event in events if event.key == "cube_moved"]
    assert moved == [("p0", 1), ("p1", 2), ("p8", 2)]
    assert "cubes_protected" in [event.key for event in events]
