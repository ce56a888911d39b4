"""The events, declared once: each key, what it means, and its parameters with their types. The
engine's ``EVENT_KEYS`` and the whole event schema (``schemas/event.schema.json``, generated)
come from here; each key's two sentences are the message catalogue's
(``stargazer_rules/text/messages.yaml``), which a test holds to this list."""

from __future__ import annotations

from typing import Any

import attrs

#: Card ids, effect names and trigger ids: they go into game records and command lines.
ID_PATTERN = "^[a-z0-9][a-z0-9_-]*$"


@attrs.frozen
class EventParam:
    """One parameter of an event and its JSON Schema."""

    name: str
    schema: dict[str, Any] = attrs.field(eq=False)


def number(name: str, doc: str, minimum: int = 0) -> EventParam:
    """A seat, a count, a square or VP: an integer of at least ``minimum``."""
    return EventParam(name, {"description": doc, "type": "integer", "minimum": minimum})


def ident(name: str, doc: str) -> EventParam:
    """A card's id or an effect's name."""
    return EventParam(name, {"description": doc, "type": "string", "pattern": ID_PATTERN})


def ident_or_empty(name: str, doc: str) -> EventParam:
    """A card's id, or empty when no card acts."""
    return EventParam(name, {"description": doc, "type": "string", "pattern": "^([a-z0-9][a-z0-9_-]*)?$"})


def choice(name: str, doc: str, values: tuple[str, ...]) -> EventParam:
    """One of a few names."""
    return EventParam(name, {"description": doc, "enum": list(values)})


def trigger_ids(name: str, doc: str) -> EventParam:
    """The ids of the end conditions that ended the game."""
    item = {
        "description": "A trigger id: one of the ruleset's end conditions (rules.yaml end; draft 7's hand_empty, planets_full) or round_limit.",
        "type": "string",
        "pattern": ID_PATTERN,
        "maxLength": 40,
    }
    return EventParam(name, {"description": doc, "type": "array", "minItems": 1, "uniqueItems": True, "items": item})


@attrs.frozen
class EventKey:
    """One event key: what happened, and its parameters in order."""

    key: str
    doc: str
    params: tuple[EventParam, ...]


EVENTS: tuple[EventKey, ...] = (
    EventKey(
        'crew_chosen',
        'A player placed the worker on a crew (R5).',
        (
            number('player', 'The seat that chose.'),
            ident('crew', 'The crew chosen.'),
        ),
    ),
    EventKey(
        'motivation_bonus',
        'The chooser took the cubes on the crew and scored for them (R6).',
        (
            number('player', 'The seat that chose the crew.'),
            ident('crew', 'The crew chosen.'),
            number('free_cubes', 'Free cubes taken from the crew back to the stock.'),
            number('player_cubes', 'Player cubes taken from the crew out of the game.'),
            number('vp', 'VP scored for them (R6).'),
        ),
    ),
    EventKey(
        'effect_applied',
        "An effect that changes the turn's rules took hold.",
        (
            number('player', 'The chooser.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty for a setup step (rules.yaml setup.each_player), which no crew holds.'),
            ident('effect', "The effect's name, as in the crew YAML."),
        ),
    ),
    EventKey(
        'effect_skipped',
        'An effect had no option left and was skipped (R9).',
        (
            number('player', 'The chooser.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty for a setup step (rules.yaml setup.each_player), which no crew holds.'),
            ident('effect', "The effect's name, as in the crew YAML."),
            number('remaining', 'Steps of the effect skipped because no option was left (R9).', minimum=1),
        ),
    ),
    EventKey(
        'option_chosen',
        "The chooser picked an option of a 'choose one' skill.",
        (
            number('player', 'The chooser.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty for a setup step (rules.yaml setup.each_player), which no crew holds.'),
            number('option', "The option's index, 0 first."),
        ),
    ),
    EventKey(
        'vp_gained',
        'A skill scored VP during play.',
        (
            number('player', 'The seat scoring.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty when a planet ability acts (an ability_triggered event precedes it).'),
            number('vp', 'VP scored (0 when a computed amount gives none).'),
        ),
    ),
    EventKey(
        'cube_placed',
        'A cube went onto a Planet.',
        (
            number('owner', "The cube's owner: a seat, or -1 for a free cube (the virtual player).", minimum=-1),
            ident('planet', "The Planet's card id."),
            number('square', 'The square: 1, 2, ... on the track, 0 the special square.'),
        ),
    ),
    EventKey(
        'cube_to_crew',
        "A player's cube went from hand onto a crew.",
        (
            number('owner', 'The seat whose cube it is.'),
            ident('crew', 'The crew that got the cube.'),
        ),
    ),
    EventKey(
        'free_cube_to_crew',
        'A free cube went from the stock onto a crew (R11 or a skill).',
        (
            ident('crew', 'The crew that got a free cube from the stock.'),
        ),
    ),
    EventKey(
        'crew_replaced',
        "A crew nobody picked held the cap's number of free cubes at a round's end and left the crew area; the first crew of the queue of cards not dealt took its slot (R11, at_cap: replaced).",
        (
            ident('crew', 'The crew that left the crew area.'),
            ident('by', 'The crew that took its slot.'),
        ),
    ),
    EventKey(
        'survey_done',
        'The survey step ended.',
        (
            number('player', 'The seat that surveyed.'),
            number('cubes', 'Cubes placed by the survey.'),
        ),
    ),
    EventKey(
        'turn_ended',
        'A turn ended.',
        (
            number('player', 'The seat whose turn ended.'),
        ),
    ),
    EventKey(
        'round_ended',
        'A round ended.',
        (
            number('round', 'The round that ended.', minimum=1),
        ),
    ),
    EventKey(
        'start_player_named',
        'The next start player was named (R12).',
        (
            number('player', 'The chooser.'),
            number('start_player', 'The next start player.'),
        ),
    ),
    EventKey(
        'start_player_set',
        "The start player changed with no decision (set_start_player, at a round's end): the first of the effect's seats in turn order from the start player.",
        (
            ident_or_empty('crew', "The crew whose skill or trigger it is; empty for rules.yaml's round_end.effects or a planet ability."),
            number('start_player', 'The next start player.'),
        ),
    ),
    EventKey(
        'round_started',
        'A new round began.',
        (
            number('round', 'The round that starts.', minimum=1),
            number('start_player', 'Its start player.'),
        ),
    ),
    EventKey(
        'game_over',
        'The game ended (R10).',
        (
            number('round', 'The last round.', minimum=1),
            trigger_ids('triggers', 'Why the game ended (R10).'),
        ),
    ),
    EventKey(
        'vp_lost',
        'A skill took VP from its chooser (never below 0).',
        (
            number('player', 'The seat losing.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty when a planet ability acts (an ability_triggered event precedes it).'),
            number('vp', 'VP lost.'),
        ),
    ),
    EventKey(
        'vp_taken',
        'A skill took VP from another seat for its chooser.',
        (
            number('player', 'The seat taking.'),
            ident_or_empty('crew', 'The crew whose skill it is; empty when a planet ability acts (an ability_triggered event precedes it).'),
            number('other', 'The seat taken from.'),
            number('vp', 'VP taken.', minimum=1),
        ),
    ),
    EventKey(
        'cube_returned',
        "A cube left a Planet's track, the cubes behind it moving up one square (R2), or its special square (R3).",
        (
            number('player', "The seat whose skill moved it (the crew's holder); -1 when a planet ability or a round-end rule acts.", minimum=-1),
            ident_or_empty('crew', 'The crew whose skill moved it; empty when a planet ability or a round-end rule acts.'),
            number('owner', "The cube's owner: a seat, or -1 for a free cube (the virtual player).", minimum=-1),
            ident('planet', "The Planet's card id."),
            number('square', 'The square it left: 1, 2, ... on the track, 0 the special square (square: special).'),
            choice('to', "Where it went: its owner's hand (a free cube: the stock), or the stock, out of play.", ('hand', 'stock')),
        ),
    ),
    EventKey(
        'cube_moved',
        "A cube left a Planet's track (the cubes behind it moving up one square, R2) or its special square (R3) to go on another Planet's track (a cube_placed follows).",
        (
            number('player', "The seat whose skill moved it (the crew's holder); -1 when a planet ability or a round-end rule acts.", minimum=-1),
            ident_or_empty('crew', 'The crew whose skill moved it; empty when a planet ability or a round-end rule acts.'),
            number('owner', "The cube's owner: a seat, or -1 for a free cube (the virtual player).", minimum=-1),
            ident('planet', "The Planet's card id."),
            number('square', 'The square it left: 1, 2, ... on the track, 0 the special square (square: special).'),
        ),
    ),
    EventKey(
        'free_cubes_collected',
        "A skill took a crew's free cubes to the stock as a motivation bonus (R6).",
        (
            number('player', 'The seat scoring.'),
            ident('crew', 'The crew the cubes were on.'),
            number('free_cubes', 'Free cubes taken.', minimum=1),
            number('vp', 'VP scored.'),
        ),
    ),
    EventKey(
        'free_cubes_taken',
        'A seat took free cubes from the stock into hand as cubes of its own (take_free_cubes, idea R8).',
        (
            number('player', 'The seat taking them.'),
            ident_or_empty('crew', "The crew whose skill it is; empty when a planet ability or rules.yaml's effects act."),
            number('free_cubes', 'Free cubes taken.', minimum=1),
        ),
    ),
    EventKey(
        'cubes_discarded',
        'A seat discarded cubes from hand out of play, removed as R6\'s player cubes are (discard_cubes).',
        (
            number('player', 'The seat discarding them.'),
            ident_or_empty('crew', "The crew whose skill it is; empty when a planet ability or rules.yaml's effects act."),
            number('cubes', 'Cubes discarded.', minimum=1),
        ),
    ),
    EventKey(
        'ability_triggered',
        'A planet ability\'s trigger went off: its effects follow, at once (docs/skills.md, "Planet abilities").',
        (
            ident('planet', "The Planet's card id."),
            choice('event', 'What set it off: cube_placed, becomes_full, round_end or game_end.', ('cube_placed', 'becomes_full', 'round_end', 'game_end')),
        ),
    ),
    EventKey(
        'crew_triggered',
        'A held crew\'s trigger went off: its effects follow, at once, for its holder (docs/skills.md, "Crew triggers").',
        (
            number('player', 'The seat holding the crew ("you" in its effects).'),
            ident('crew', 'The crew held.'),
            choice('event', 'What set it off: another_pick, cube_placed, becomes_full or round_end.', ('another_pick', 'cube_placed', 'becomes_full', 'round_end')),
        ),
    ),
    EventKey(
        'crew_closed',
        'A skill closed a crew until the round ends (close_crew).',
        (
            number('player', 'The seat closing it.'),
            ident('crew', 'The crew closed.'),
        ),
    ),
    EventKey(
        'cubes_protected',
        "A skill protected its chooser's cubes from other players' skills (protect_cubes).",
        (
            number('player', 'The seat protected.'),
            ident('crew', 'The crew whose skill it is.'),
            choice('until', 'How long: until the turn ends or until the round ends.', ('turn_end', 'round_end')),
        ),
    ),
    EventKey(
        'skill_applied',
        "A skill applied another crew's skill as its own (use_skill).",
        (
            number('player', 'The chooser.'),
            ident('crew', 'The crew whose skill it is.'),
            ident('skill_of', 'The crew whose skill it applies as its own.'),
        ),
    ),
)
