"""What one seat sees of a state, as a fixed-size vector of floats and as text.

Stargazer hides nothing: every card is face up and every count is public (R1-R18). An
observation is therefore the whole state, seen *from a seat*: every per-seat field is rotated
so that the viewer comes first (relative seat ``r`` is seat ``(viewer + r) % players``), which
makes the vector seat-symmetric (the same position seen by two seats in the same situation
gives the same vector). Equal states give equal vectors; two viewers of one state get
different vectors unless the state looks the same from both.

Values are raw counts (cubes, VP, rounds) or 0/1 flags, never scaled: ``Game.bounds`` gives
each count's most. The layout is the game's (``Game.observation_layout``, derived once by
``engine.observation_layout``; a block the ruleset can never set is left out of it). This
module is the oracle of the kernel's ``observation.rs``, which fills the layout it receives in
the compiled ruleset; tests/test_fast_api.py holds them equal.
"""

from __future__ import annotations

from stargazer_rules.engine.game import Game
from stargazer_rules.engine.observation_layout import ALL_SURVEY_RULES, LANGUAGE_SURVEY_FIELDS, STAGES, SURVEY_RULES, ObservationLayout
from stargazer_rules.vocabulary.table import PROTECTED_ROUND, State


#: The fields that are 0/1 flags; every other field is a count with its own bound below.
FLAG_FIELDS = frozenset({
    "seats", "to_move", "start_player", "stage", "planet_card", "track", "surveyed", "crew_card",
    "worker", "survey_rules", "survey_counter_clockwise", "survey_start", "survey_last", "pending_slot", "crew_closed",
    "crew_borrowed", "setup",
})


def observation_range(game: Game, layout: ObservationLayout) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The least and the most of each entry of an observation, from the ruleset's bounds
    (``Game.bounds``): the box a learning library declares. A field without a bound here raises
    ValueError naming it, so that a new field cannot reach a space with a bound not its own."""
    bounds = game.bounds
    if bounds.most_vp is None or bounds.least_survey_bonus is None or bounds.most_survey_bonus is None:
        raise ValueError(f"ruleset {game.ruleset.name}: a plugin effect leaves VP or the survey count unbounded")
    most = {
        "round": bounds.most_round,
        "turn": bounds.most_players,
        "stock": bounds.most_stock,
        "hands": bounds.most_hand,
        "vp": bounds.most_vp,
        "removed": bounds.most_hand,
        "special": max(game.special_capacities, default=0),
        "crew_free": bounds.most_free_on_crew,
        "crew_cubes": bounds.most_hand,
        "survey_bonus": bounds.most_survey_bonus,
        "survey_placed": bounds.most_survey_placed,
        "survey_direction": 1,
        "survey_skips": bounds.most_survey_skips,
        "pending": bounds.most_pending,
        "pending_remaining": bounds.most_steps,
        "protected": PROTECTED_ROUND,
    }
    least = {"survey_bonus": bounds.least_survey_bonus, "survey_direction": -1, "survey_skips": -1}
    low: list[float] = []
    high: list[float] = []
    for name, _offset, length in layout.fields:
        if name not in FLAG_FIELDS and name not in most:
            raise ValueError(f"observation field {name!r} has no bound: add it to fast.observation.observation_range")
        low.extend([float(least.get(name, 0))] * length)
        high.extend([float(most.get(name, 1))] * length)
    return tuple(low), tuple(high)


def observe(game: Game, layout: ObservationLayout, state: State, viewer: int) -> list[float]:
    """The observation of ``state`` for seat ``viewer`` (ValueError if not a seat)."""
    players = state.players
    if not 0 <= viewer < players:
        raise ValueError(f"seat {viewer} is not a seat of this game (0..{players - 1})")
    at = layout.offsets()
    n, c, owners, squares = layout.seats, layout.crews, layout.seats + 1, layout.squares
    out = [0.0] * layout.size

    def rel(seat: int) -> int:
        return (seat - viewer) % players

    for r in range(players):
        out[at["seats"] + r] = 1.0
    mover = game.current_player(state)
    if mover is not None:
        out[at["to_move"] + rel(mover)] = 1.0
    out[at["start_player"] + rel(state.start_player)] = 1.0
    if state.stage in STAGES:
        out[at["stage"] + STAGES.index(state.stage)] = 1.0
    else:  # the setup steps, before the first round: a block of their own
        out[at["setup"]] = 1.0
    out[at["round"]] = state.round
    out[at["turn"]] = state.turn
    out[at["stock"]] = state.stock
    for seat in range(players):
        out[at["hands"] + rel(seat)] = state.hands[seat]
        out[at["vp"] + rel(seat)] = state.vp[seat]
        out[at["removed"] + rel(seat)] = state.removed[seat]
    for p, card in enumerate(state.planets):
        out[at["planet_card"] + p * layout.planet_cards + card] = 1.0
        for square, owner in enumerate(state.tracks[p]):
            out[at["track"] + (p * squares + square) * owners + (n if owner < 0 else rel(owner))] = 1.0
        for owner in state.specials[p]:
            out[at["special"] + p * owners + (n if owner < 0 else rel(owner))] += 1.0
    for p in state.surveyed:
        out[at["surveyed"] + p] = 1.0
    for slot, card in enumerate(state.crew):
        out[at["crew_card"] + slot * layout.crew_cards + card] = 1.0
        out[at["crew_free"] + slot] = state.crew_free[slot]
        for owner in state.crew_cubes[slot]:
            out[at["crew_cubes"] + slot * n + rel(owner)] += 1.0
        if state.workers[slot] >= 0:
            out[at["worker"] + slot * n + rel(state.workers[slot])] = 1.0
    for i, (flag, _) in enumerate(SURVEY_RULES):
        out[at["survey_rules"] + i] = 1.0 if state.survey_rules & flag else 0.0
    for flag, name in LANGUAGE_SURVEY_FIELDS:
        if name in at:
            out[at[name]] = 1.0 if state.survey_rules & flag else 0.0
    out[at["survey_bonus"]] = state.survey_bonus
    out[at["survey_placed"]] = state.survey_placed
    if state.survey_last >= 0:
        out[at["survey_last"] + state.survey_last] = 1.0
    out[at["survey_direction"]] = state.survey_direction
    if "survey_skips" in at:
        out[at["survey_skips"]] = state.survey_skips
    out[at["pending"]] = len(state.pending)
    if state.pending:
        head = state.pending[0]
        if head.slot >= 0:  # a setup step has no crew
            out[at["pending_slot"] + head.slot] = 1.0
        out[at["pending_remaining"]] = head.remaining
    # The lasting effects' blocks, when the ruleset can set them (else left out).
    if "crew_closed" in at:
        for slot in state.closed:
            out[at["crew_closed"] + slot] = 1.0
    if "protected" in at:
        for seat in range(players):
            out[at["protected"] + rel(seat)] = state.protected[seat]
    if "crew_borrowed" in at:
        for slot, card in enumerate(state.borrowed):
            if card >= 0:
                out[at["crew_borrowed"] + slot * layout.crew_cards + card] = 1.0
    del c
    return out


def observation_text(game: Game, state: State, viewer: int) -> str:
    """The information of ``observe`` as lines a person reads, seats named relative to the
    viewer ("you", "+1" the next seat clockwise, ...) and cards by id."""
    players = state.players
    if not 0 <= viewer < players:
        raise ValueError(f"seat {viewer} is not a seat of this game (0..{players - 1})")

    def who(seat: int) -> str:
        if seat < 0:
            return "free"
        r = (seat - viewer) % players
        return "you" if r == 0 else f"+{r}"

    def per_seat(values) -> str:
        return ", ".join(f"{who(seat)} {values[seat]}" for seat in sorted(range(players), key=lambda s: (s - viewer) % players))

    mover = game.current_player(state)
    lines = [
        f"seat {viewer} of {players}; to move: {'nobody (over)' if mover is None else who(mover)}; "
        f"start player: {who(state.start_player)}; stage {state.stage}; round {state.round}, turn {state.turn}",
        f"stock {state.stock}",
        f"hands: {per_seat(state.hands)}",
        f"vp: {per_seat(state.vp)}",
        f"removed: {per_seat(state.removed)}",
    ]
    for p, card in enumerate(state.planets):
        track = " ".join(who(owner) for owner in state.tracks[p]) or "-"
        special = " ".join(who(owner) for owner in state.specials[p]) or "-"
        surveyed = "; surveyed" if p in state.surveyed else ""
        lines.append(
            f"planet {p} {game.planet_ids[card]} ({game.planet_lengths[card]} squares): "
            f"track {track}; special {special}{surveyed}"
        )
    for slot, card in enumerate(state.crew):
        cubes = " ".join(who(owner) for owner in sorted(state.crew_cubes[slot], key=lambda s: (s - viewer) % players)) or "-"
        worker = who(state.workers[slot]) if state.workers[slot] >= 0 else "-"
        lines.append(f"crew {slot} {game.crew_ids[card]}: free {state.crew_free[slot]}; cubes {cubes}; worker {worker}")
    rules = ", ".join(name for flag, name in ALL_SURVEY_RULES if state.survey_rules & flag) or "-"
    last = state.survey_last if state.survey_last >= 0 else "-"
    lines.append(
        f"survey: rules {rules}; bonus {state.survey_bonus}; placed {state.survey_placed}; "
        f"last planet {last}; direction {state.survey_direction}"
    )
    if state.pending:
        head = state.pending[0]
        lines.append(f"pending: {len(state.pending)}; next from crew {head.slot} with {head.remaining} steps left")
    else:
        lines.append("pending: 0")
    return "\n".join(lines)
