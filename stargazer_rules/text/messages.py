"""Text for people: events, actions, skills and labels in Japanese or English.

The words live in the message catalogue, ``stargazer_rules/text/messages.yaml``; this module picks a
template, turns the ids and seats of its parameters into names in the chosen language, and
fills it in. Players are "Player 1".."Player 4" (seat + 1), the virtual player (-1) is the
"free cube"; planets, crew and colours are shown by their names in the ruleset.

>>> from stargazer_rules import Event, load_ruleset
>>> ruleset = load_ruleset("draft7")
>>> render_event(Event("cube_placed", {"owner": 0, "planet": "lava-1", "square": 3}), ruleset, "en")
'Player 1 places a cube on Lava 1, square 3.'
>>> render_event(Event("cube_placed", {"owner": -1, "planet": "lava-1", "square": 4}), ruleset, "ja")
'フリーキューブが溶岩惑星１のマス4に置かれる。'
>>> describe_skill(ruleset.crew_card("geologist"), ruleset, "en")
'Place 1 of your cubes on the special square of a Planet surveyed this turn (after the survey).'

A template's placeholders are exactly the parameters of what it describes: an event's
``EVENT_KEYS`` entry, an effect type's ``params`` plus ``when``, an action message's
``ACTION_MESSAGES`` entry (tests/test_text.py checks every one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from stargazer_rules.rulesets.model import DRAFT7_END, CrewCard, PlanetCard, Ruleset
from stargazer_rules.text.language import PLAIN, Reading, colour_name, condition_phrase, either_of, phrase
from stargazer_rules.text.catalogue import (  # noqa: F401 - the names callers import from here
    CATALOGUE_PATH,
    LANGS,
    Case,
    Catalogue,
    Template,
    _parts,
    _word,
    catalogue,
    check_lang,
    fill,
    join,
    label,
    load_catalogue,
    placeholders,
    sentences,
    template_fields,
)
from stargazer_rules.vocabulary import abilities as AB
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import EXPRESSION_KINDS, FREE_CUBE_OWNER, OWNER, Effect
from stargazer_rules.vocabulary.expressions import AMOUNT, PLANETS, SEATS
from stargazer_rules.vocabulary.events import Event

if TYPE_CHECKING:
    from stargazer_rules.engine.game import Game
    from stargazer_rules.vocabulary.table import State

#: Every action message and the parameters it is filled with (like ``EVENT_KEYS`` for events).
ACTION_MESSAGES: Mapping[str, tuple[str, ...]] = {
    "pick_crew": ("crew", "vp"),
    "survey": ("count", "planet", "direction", "squares"),
    "survey_nothing": (),
    "survey_step": ("planet", "square"),
    "survey_stop": ("cubes",),
    "target_planet": ("planet",),
    "target_planet_special": ("planet",),
    "target_planet_free_cube": ("planet", "square"),
    "target_crew": ("crew",),
    "target_crew_cube": ("crew",),
    "target_crew_free_cube": ("crew",),
    "target_crew_skill": ("crew",),
    "choose_option": ("option", "effects"),
    "name_start_player": ("player",),
    "target_seat": ("player",),
}

_SEAT_PARAMS = frozenset({"player", "owner", "start_player", "other"})


# -- names ----------------------------------------------------------------------------------


def player_name(seat: int, lang: str) -> str:
    """ "Player 1" for seat 0; the virtual player (-1) is the "free cube"."""
    check_lang(lang)
    if seat == FREE_CUBE_OWNER:
        return _word("players", "free_cube", lang)
    return catalogue().section("players")["seat"].render(lang, {}, {"number": seat + 1})


def trigger_name(trigger: str, lang: str, ruleset: Ruleset | None = None) -> str:
    """Why a game ended (R10: draft 7's ``hand_empty``, ``planets_full``; the round limit) in
    words: the catalogue's phrase of the name, or, for an end condition of ``ruleset`` that is
    not draft 7's of that name, its condition read back (``rules.yaml`` ``end``)."""
    own = ruleset.end_trigger(trigger) if ruleset is not None else None
    if own is not None and own not in DRAFT7_END:
        return condition_phrase(own.condition, ruleset, lang)  # type: ignore[arg-type]
    return _word("triggers", trigger, lang)


def planet_name(ruleset: Ruleset, planet_id: str, lang: str) -> str:
    try:
        return ruleset.planet(planet_id).name.in_lang(lang)
    except KeyError:
        return planet_id


def crew_name(ruleset: Ruleset, crew_id: str, lang: str) -> str:
    try:
        return ruleset.crew_card(crew_id).name.in_lang(lang)
    except KeyError:
        return crew_id


def _shown(name: str, value: Any, ruleset: Ruleset, lang: str) -> Any:
    """A parameter as a person reads it, by the parameter's name."""
    if name in _SEAT_PARAMS:
        return player_name(value, lang)
    if name == "planet":
        return planet_name(ruleset, value, lang)
    if name in ("crew", "skill_of", "by"):  # a crew card by its name, never its id
        return crew_name(ruleset, value, lang)
    if name == "colour":
        return colour_name(ruleset, value, lang)
    if name == "effect":
        return _word("effect_names", value, lang)
    if name == "option":
        return value + 1
    if name == "direction":
        return _word("directions", value, lang)
    if name == "triggers":
        return join((trigger_name(trigger, lang, ruleset) for trigger in value), lang)
    return value


# -- events ---------------------------------------------------------------------------------


def render_event(event: Event, ruleset: Ruleset, lang: str) -> str:
    """One event as a sentence in ``lang``; an event key the catalogue lacks is shown raw."""
    check_lang(lang)
    template = catalogue().get("events", event.key)
    if template is None:
        return f"{event.key}: " + ", ".join(f"{key}={value}" for key, value in event.params.items())
    values = {name: _shown(name, value, ruleset, lang) for name, value in event.params.items()}
    return template.render(lang, event.params, values)


# -- skills ---------------------------------------------------------------------------------


#: The parameter a case of an effect with an amount may fix: whether an amount is computed
#: (an expression) rather than a number, so that "Gain 2 VP." can read "Gain VP equal to ...".
COMPUTED = "computed"
#: The parameter a case may fix to word an effect by who "you" is where it is read
#: (``language.YOU_ROLES``): a planet ability's "Gain 1 VP" is the placed cube's owner's.
YOU = "you"
#: The parameter a case may fix to word a Planet ``to`` that is the next with room after one
#: (``next_with_room``): it says which Planet already, so no "(the first with room)".
TO_NEXT = "to_next"


def _has_planets_to(cls: type[Effect]) -> bool:
    return any(param.name == "to" and param.kind == PLANETS for param in cls.params)


def effect_params(cls: type[Effect]) -> tuple[str, ...]:
    """The parameters an effect's template is filled with: the declared ones, then ``when``
    and ``you`` (and ``computed``, for a type with an amount; ``to_next``, for one with a
    Planet ``to``), all but ``when`` never shown."""
    computed = (COMPUTED,) if any(param.kind == AMOUNT for param in cls.params) else ()
    to_next = (TO_NEXT,) if _has_planets_to(cls) else ()
    return (*(param.name for param in cls.params), "when", YOU, *computed, *to_next)


def default_when(cls: type[Effect], parent_when: str | None = None) -> str:
    """The timing an effect gets when its ``when`` is left out (as the loader resolves it)."""
    return parent_when if parent_when in cls.timings else cls.timings[0]


#: The form (``language.FORMS``) a set parameter of an effect is said in: one member to
#: choose ("Choose another crew"), each member in turn ("Each other player gains 1 VP").
SET_FORMS: Mapping[tuple[str, str], str] = {
    ("choose", "planet"): "one", ("choose", "seat"): "one", ("choose", "crew"): "one", ("use_skill", "crew"): "one",
    ("for_each", "planet"): "each", ("for_each", "seat"): "each", ("for_each", "crew"): "each",
    ("gain_vp", "to"): "each", ("lose_vp", "to"): "each", ("take_free_cubes", "to"): "each", ("take_vp", "from"): "each",
    ("discard_cubes", "from"): "each",
}

#: The effects a "for each player" of one of them is said as: "Each player with the fewest VP
#: gains 1 VP", not "For each of the players with the fewest VP: That player gains 1 VP".
_FOLDED = frozenset({"gain_vp", "lose_vp", "take_free_cubes"})


def _folded(effect: Effect) -> Effect | None:
    """The one effect of a ``for_each`` over seats that gives or takes to ``this_seat``, which
    reads as that effect given to each of the seats; None for any other effect."""
    if effect.name != "for_each" or "seat" not in effect.to_data():
        return None
    body = effect.do  # type: ignore[attr-defined]
    if len(body) != 1 or body[0].name not in _FOLDED or body[0].to_data().get("to") != "this_seat":
        return None
    return body[0]


def describe_effect(
    effect: Effect, ruleset: Ruleset, lang: str, parent_when: str | None = None, ctx: Reading = PLAIN
) -> str:
    """A skill effect as a sentence from its data (``_sentence``), begun with a capital."""
    text = _sentence(effect, ruleset, lang, parent_when, ctx)
    return text[:1].upper() + text[1:]


def _sentence(
    effect: Effect, ruleset: Ruleset, lang: str, parent_when: str | None = None, ctx: Reading = PLAIN
) -> str:
    """A skill effect as a sentence from its data, its timing shown when it is not the default.

    ``parent_when`` is the timing of the ``choose_one`` the effect is an option of; ``ctx``
    what is bound where it is read and who "you" is (a body of ``choose`` reads its member as
    "that crew", a planet ability's "you" is named). An effect type the catalogue lacks (a
    custom one) is shown by its ``summary`` and parameters.
    """
    check_lang(lang)
    folded = _folded(effect)
    if folded is not None:  # each of the seats is "they" in the effect
        return _sentence(folded, ruleset, lang, effect.when, attrs.evolve(ctx.filtering("seats"), each=effect.over))  # type: ignore[attr-defined]
    cls = type(effect)
    params: dict[str, Any] = {param.name: getattr(effect, param.attribute) for param in cls.params}
    params["when"] = effect.when
    params[YOU] = ctx.you
    data = effect.to_data()
    values: dict[str, Any] = {}
    computed = False
    for param in cls.params:
        value = params[param.name]
        inner = ctx.binding(*cls.binds(param, data))
        if param.kind in EXPRESSION_KINDS or param.kind == OWNER:
            if param.kind == AMOUNT and type(value) is not int:
                computed = True
            form = SET_FORMS.get((effect.name, param.name), "all")
            if param.kind == SEATS and ctx.each is not None and getattr(value, "name", None) == "this_seat":
                value, inner = ctx.each, attrs.evolve(ctx, each=None, it=None)  # "each player ..."
            if value is not None and type(value) is not int:
                params[param.name] = value if isinstance(value, str) else value.to_data()
                value = phrase(param.kind, value, ruleset, lang, inner, form)
            values[param.name] = "" if value is None else value
            continue
        if param.kind == "effects":
            params[param.name] = [e.to_data() for e in value]
            value = sentences((describe_effect(e, ruleset, lang, effect.when, inner) for e in value), lang) or label("no_effect", lang)
        elif param.kind == "options":
            value = label("sentence_separator", lang).join(
                label(
                    "option_item",
                    lang,
                    number=index,
                    text=sentences(
                        (describe_effect(e, ruleset, lang, effect.when, ctx) for e in option), lang
                    ),
                )
                for index, option in enumerate(value, start=1)
            )
        elif param.kind == "colour" and value is not None:
            value = colour_name(ruleset, value, lang)
        values[param.name] = value
    if any(param.kind == AMOUNT for param in cls.params):
        params[COMPUTED] = computed  # a case may word a computed amount differently
    if _has_planets_to(cls):
        params[TO_NEXT] = isinstance(params["to"], dict) and "next_with_room" in params["to"]
    shown_when = effect.when != default_when(cls, parent_when)
    values["when"] = _word("timings", effect.when, lang) if shown_when else ""
    template = catalogue().get("effects", effect.name)
    if template is None:
        settings = ", ".join(
            f"{p.name}: {params[p.name]}" for p in cls.params if params[p.name] is not None
        )
        timing = f" ({effect.when})" if shown_when else ""
        return f"{cls.summary or effect.name}" + (f" [{settings}]" if settings else "") + timing
    return template.render(lang, params, values)


def describe_skill(card: CrewCard, ruleset: Ruleset, lang: str) -> str:
    """A crew card's skill as sentences, one per effect."""
    return sentences(skill_sentences(card, ruleset, lang), lang)


def skill_sentences(card: CrewCard, ruleset: Ruleset, lang: str) -> tuple[str, ...]:
    """One sentence per effect of the card's skill, then one per trigger it sets off while held;
    "No skill." for a card with neither."""
    triggers = tuple(describe_crew_trigger(trigger, ruleset, lang) for trigger in card.triggers)
    if not card.skill and not triggers:
        return (label("no_skill", lang),)
    return tuple(describe_effect(effect, ruleset, lang) for effect in card.skill) + triggers


# -- planet abilities -----------------------------------------------------------------------

#: Who "you" (``me``) is in a planet ability's effects, by its event (docs/skills.md, "Planet
#: abilities"): the placed cube's owner, the player whose turn it is; nobody at the others.
ABILITY_YOU = {"cube_placed": "cube_owner", "becomes_full": "turn_player"}


def describe_ability(ability: AB.Ability, ruleset: Ruleset, lang: str) -> str:
    """A planet ability as a sentence: its event and its effects ("When a cube is placed on
    square 3 of this Planet: Gain 1 VP."), or its lasting effect."""
    check_lang(lang)
    section = catalogue().section("abilities")
    if isinstance(ability, AB.Lasting):
        value = ability.value
        named = value if isinstance(value, tuple) else (value,) if ability.word == AB.COUNTS_TOWARD and value not in AB.COUNTS_TOWARD_VALUES else ()
        colours = join((colour_name(ruleset, colour, lang) for colour in named), lang)
        return section[ability.word].render(lang, {"value": value}, {"value": value, "colours": colours})
    reading = Reading(you=ABILITY_YOU.get(ability.event, "me"))
    do = sentences((describe_effect(e, ruleset, lang, AB.ABILITY_WHEN, reading) for e in ability.do), lang)
    square = "any" if ability.square is None else ability.square
    return section[ability.event].render(lang, {"square": square}, {"square": square, "do": do})


def describe_crew_trigger(trigger: AB.Trigger, ruleset: Ruleset, lang: str) -> str:
    """A crew's trigger as a sentence: "While you hold this crew, each time another player
    picks a crew: Gain 1 VP." (docs/skills.md, "Crew triggers"); an ``another_pick`` narrowed
    to crews names them ("each time another player picks Pirate: ...")."""
    check_lang(lang)
    do = sentences((describe_effect(e, ruleset, lang, AB.ABILITY_WHEN) for e in trigger.do), lang)
    square = "any" if trigger.square is None else trigger.square
    crews = "any" if not trigger.crew else "one" if len(trigger.crew) == 1 else "some"
    crew = join((crew_name(ruleset, crew_id, lang) for crew_id in trigger.crew), lang)
    params = {"square": square, "crews": crews}
    return catalogue().section("crew_triggers")[trigger.event].render(lang, params, {"square": square, "crew": crew, "do": do})


def round_end_effects_sentence(ruleset: Ruleset, lang: str) -> str | None:
    """rules.yaml's ``round_end.effects`` (idea R7) as one sentence, read as a planet ability's
    do is ("At the end of every round (the last one too), before the end check: ..."); None when
    there are none."""
    if not ruleset.round_end_effects:
        return None
    do = sentences((describe_effect(e, ruleset, lang, AB.ABILITY_WHEN) for e in ruleset.round_end_effects), lang)
    namers = [card.name.in_lang(lang) for card in ruleset.crew if _uses(card.skill, "name_start_player")]
    if namers and _uses(ruleset.round_end_effects, "set_start_player"):  # R12 names after these effects
        do = sentences((do, label("naming_overrides", lang, crew=either_of(namers, lang))), lang)
    return label("round_end_effects", lang, do=do)


def _uses(effects: Any, name: str) -> bool:
    """Whether any of ``effects``, or an effect inside them, is of type ``name``."""
    def found(data: Any) -> bool:
        if isinstance(data, dict):
            return data.get("effect") == name or any(found(value) for value in data.values())
        return isinstance(data, list) and any(found(item) for item in data)
    return any(found(effect.to_data()) for effect in effects)


def ability_sentences(card: PlanetCard, ruleset: Ruleset, lang: str) -> tuple[str, ...]:
    """One sentence per ability of a planet card; none for a card without abilities."""
    return tuple(describe_ability(ability, ruleset, lang) for ability in card.abilities)


# -- actions --------------------------------------------------------------------------------


def pending_effect(game: Game, state: State) -> Effect | None:
    """The effect whose decision ``state`` waits for, or None outside a skill's decision."""
    if not state.pending:
        return None
    head = state.pending[0]
    return game.effect_at(head.skill_card(state.crew), head.path)  # a skill's, or a setup step's


def describe_action(game: Game, state: State, act: Action, lang: str) -> str:
    """A legal action of ``state`` as a front end offers it, e.g. "Pick Navigator"."""
    check_lang(lang)
    key, params = _action_message(game, state, act, lang)
    ruleset = game.ruleset
    values = {name: _shown(name, value, ruleset, lang) for name, value in params.items()}
    return catalogue().section("actions")[key].render(lang, params, values)


def _action_message(game: Game, state: State, act: Action, lang: str) -> tuple[str, dict[str, Any]]:
    rules = game.ruleset
    kind = act.kind
    if kind == A.PICK_CREW:
        slot = act.target
        vp = (
            state.crew_free[slot] * rules.free_cube_vp
            + len(state.crew_cubes[slot]) * rules.player_cube_vp
        )
        return "pick_crew", {"crew": _crew_id(game, state, slot), "vp": vp}
    if kind == A.SURVEY:
        if act.count == 0:
            return "survey_nothing", {}
        squares = [
            label("square_on", lang, planet=planet_name(rules, _planet_id(game, state, p), lang), square=square)
            for p, square in game.survey_placements(state, act)
        ]
        return "survey", {
            "count": act.count,
            "planet": _planet_id(game, state, act.target),
            "direction": A.DIRECTION_NAMES[act.direction],
            "squares": join(squares, lang),
        }
    if kind == A.SURVEY_STEP:
        return "survey_step", {
            "planet": _planet_id(game, state, act.target),
            "square": len(state.tracks[act.target]) + 1,
        }
    if kind == A.SURVEY_STOP:
        if state.survey_placed == 0:
            return "survey_nothing", {}
        return "survey_stop", {"cubes": state.survey_placed}
    if kind in (A.TARGET_PLANET, A.TARGET_CREW):
        effect = pending_effect(game, state)
        key = (effect.target_message if effect is not None else "") or kind
        if key not in ACTION_MESSAGES:
            raise ValueError(
                f"effect type {effect.name!r} declares target_message {key!r}, which is not an "
                f"action message; expected one of {', '.join(ACTION_MESSAGES)}"
            )
        if kind == A.TARGET_CREW:
            found: dict[str, Any] = {"crew": _crew_id(game, state, act.target)}
        else:
            found = {
                "planet": _planet_id(game, state, act.target),
                "square": len(state.tracks[act.target]) + 1,
            }
        return key, {name: found[name] for name in ACTION_MESSAGES[key]}
    if kind == A.CHOOSE_OPTION:
        effect = pending_effect(game, state)
        assert effect is not None
        option = effect.branches[act.target]
        text = sentences((describe_effect(e, rules, lang, effect.when) for e in option), lang)
        return "choose_option", {"option": act.target, "effects": text}
    if kind == A.NAME_START_PLAYER:
        return "name_start_player", {"player": act.target}
    if kind == A.TARGET_SEAT:
        return "target_seat", {"player": act.target}
    raise ValueError(f"unknown action kind {kind!r}; the kinds are {', '.join(A.KINDS)}")


def _planet_id(game: Game, state: State, position: int) -> str:
    return game.ruleset.planets[state.planets[position]].id


def _crew_id(game: Game, state: State, slot: int) -> str:
    return game.ruleset.crew[state.crew[slot]].id
