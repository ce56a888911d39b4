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

import functools
import string
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import yaml

from stargazer_rules.rulesets.model import CrewCard, Ruleset
from stargazer_rules.vocabulary import actions as A
from stargazer_rules.vocabulary.actions import Action
from stargazer_rules.vocabulary.effects import FREE_CUBE_OWNER, Effect
from stargazer_rules.vocabulary.events import Event

if TYPE_CHECKING:
    from stargazer_rules.engine.game import Game
    from stargazer_rules.vocabulary.table import State

#: The languages of the catalogue.
LANGS = ("ja", "en")

#: The catalogue file, package data next to this module.
CATALOGUE_PATH = Path(__file__).with_name("messages.yaml")

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
    "choose_option": ("option", "effects"),
    "name_start_player": ("player",),
}

_SEAT_PARAMS = frozenset({"player", "owner", "start_player"})


# -- the catalogue --------------------------------------------------------------------------


@attrs.frozen
class Case:
    """A variant of a template, used when every parameter in ``when`` has the given value."""

    when: Mapping[str, Any]
    texts: Mapping[str, str]

    def matches(self, params: Mapping[str, Any]) -> bool:
        return all(key in params and params[key] == value for key, value in self.when.items())


@attrs.frozen
class Template:
    """One catalogue entry: a text per language (``texts``, empty when only ``cases`` exist)
    and the ``cases`` that replace it for particular parameter values, first match first."""

    key: str
    texts: Mapping[str, str]
    cases: tuple[Case, ...] = ()

    def forms(self) -> Iterable[tuple[Mapping[str, Any], Mapping[str, str]]]:
        """Every form as ``(when, texts)``: the cases, then the default (``when`` empty)."""
        for case in self.cases:
            yield case.when, case.texts
        if self.texts:
            yield {}, self.texts

    def render(self, lang: str, params: Mapping[str, Any], values: Mapping[str, Any]) -> str:
        """The text for ``params`` (matched against the cases) filled with display ``values``."""
        for case in self.cases:
            if case.matches(params):
                return fill(case.texts[lang], values)
        if not self.texts:
            raise ValueError(f"message {self.key!r} has no case for {dict(params)!r}")
        return fill(self.texts[lang], values)


@attrs.frozen
class Catalogue:
    """The message catalogue: section name -> entry key -> ``Template``."""

    sections: Mapping[str, Mapping[str, Template]]

    def section(self, name: str) -> Mapping[str, Template]:
        return self.sections[name]

    def get(self, section: str, key: str) -> Template | None:
        return self.sections.get(section, {}).get(key)


def load_catalogue(path: str | Path = CATALOGUE_PATH) -> Catalogue:
    """Read a catalogue file; ``ValueError`` when an entry lacks a language."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    sections: dict[str, dict[str, Template]] = {}
    for section, entries in data.items():
        sections[section] = {
            key: _template(f"{section}.{key}", entry) for key, entry in entries.items()
        }
    return Catalogue(sections)


def _template(where: str, entry: Mapping[str, Any]) -> Template:
    texts = _texts(where, entry, optional=True)
    cases = tuple(
        Case(dict(case["when"]), _texts(f"{where}.cases[{index}]", case, optional=False))
        for index, case in enumerate(entry.get("cases", ()))
    )
    if not texts and not cases:
        raise ValueError(f"{where}: a message needs texts in {' and '.join(LANGS)}, or cases")
    return Template(where.split(".", 1)[1], texts, cases)


def _texts(where: str, entry: Mapping[str, Any], optional: bool) -> dict[str, str]:
    texts = {lang: entry[lang] for lang in LANGS if lang in entry}
    if optional and not texts:
        return {}
    missing = [lang for lang in LANGS if not isinstance(texts.get(lang), str)]
    if missing:
        raise ValueError(f"{where}: no text in {', '.join(missing)}")
    for lang, text in texts.items():
        try:
            _parts(text)
        except ValueError as error:
            raise ValueError(f"{where}.{lang}: {error}") from None
    return texts


@functools.cache
def catalogue() -> Catalogue:
    """The bundled catalogue, read once."""
    return load_catalogue()


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text.format(**values)`` plus ``{n:cube|cubes}``: the number, then the singular or plural noun.

    Each text is parsed once (``_parts``): the server renders every legal action in two
    languages for every answer, and ``string.Formatter`` re-parses the text each time.
    """
    pieces = []
    for literal, name, spec in _parts(text):
        pieces.append(literal)
        if name is None:
            continue
        value = values[name]
        if "|" in spec:
            one, many = spec.split("|", 1)
            pieces.append(f"{value} {one if value == 1 else many}")
        else:
            pieces.append(format(value, spec))
    return "".join(pieces)


@functools.cache
def _parts(text: str) -> tuple[tuple[str, str | None, str], ...]:
    """``text`` as (literal, field name or None, format spec) triples; only plain field names
    (no attribute, index or conversion) are allowed, so that ``fill`` stays this simple."""
    parts = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier()):
            raise ValueError(f"template field {{{name}}} in {text!r}: only plain names are allowed")
        parts.append((literal, name, spec or ""))
    return tuple(parts)


def placeholders(text: str) -> frozenset[str]:
    """The parameter names a template text uses: ``{count:cube|cubes}`` uses ``count``."""
    return frozenset(name for name, _ in template_fields(text))


def template_fields(text: str) -> tuple[tuple[str, str], ...]:
    """The fields of a template text as (name, spec): ``{count:cube|cubes}`` is
    ``("count", "cube|cubes")``, a plain ``{planet}`` is ``("planet", "")``."""
    return tuple((name, spec) for _, name, spec in _parts(text) if name is not None)


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; the languages are {', '.join(LANGS)}")
    return lang


def label(key: str, lang: str, **params: Any) -> str:
    """A label of the catalogue's ``labels`` section, filled with ``params`` as given."""
    template = catalogue().section("labels")[key]
    return template.render(check_lang(lang), params, params)


def _word(section: str, key: str, lang: str) -> str:
    template = catalogue().get(section, key)
    return key if template is None else template.render(lang, {}, {})


# -- names ----------------------------------------------------------------------------------


def player_name(seat: int, lang: str) -> str:
    """ "Player 1" for seat 0; the virtual player (-1) is the "free cube"."""
    check_lang(lang)
    if seat == FREE_CUBE_OWNER:
        return _word("players", "free_cube", lang)
    return catalogue().section("players")["seat"].render(lang, {}, {"number": seat + 1})


def trigger_name(trigger: str, lang: str) -> str:
    """Why a game ended (R10: ``hand_empty``, ``planets_full``; the round limit) in words."""
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


def colour_name(ruleset: Ruleset, colour_id: str, lang: str) -> str:
    try:
        return ruleset.colour(colour_id).name.in_lang(lang)
    except KeyError:
        return colour_id


def join(items: Iterable[str], lang: str) -> str:
    """Items as a list in the language: ``a, b`` / ``a、b``."""
    return label("list_separator", lang).join(items)


def sentences(items: Iterable[str], lang: str) -> str:
    """Sentences one after the other: spaced in English, not in Japanese."""
    return label("sentence_separator", lang).join(items)


def _shown(name: str, value: Any, ruleset: Ruleset, lang: str) -> Any:
    """A parameter as a person reads it, by the parameter's name."""
    if name in _SEAT_PARAMS:
        return player_name(value, lang)
    if name == "planet":
        return planet_name(ruleset, value, lang)
    if name == "crew":
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
        return join((trigger_name(trigger, lang) for trigger in value), lang)
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


def effect_params(cls: type[Effect]) -> tuple[str, ...]:
    """The parameters an effect's template is filled with: the declared ones, then ``when``."""
    return (*(param.name for param in cls.params), "when")


def default_when(cls: type[Effect], parent_when: str | None = None) -> str:
    """The timing an effect gets when its ``when`` is left out (as the loader resolves it)."""
    return parent_when if parent_when in cls.timings else cls.timings[0]


def describe_effect(
    effect: Effect, ruleset: Ruleset, lang: str, parent_when: str | None = None
) -> str:
    """A skill effect as a sentence from its data, its timing shown when it is not the default.

    ``parent_when`` is the timing of the ``choose_one`` the effect is an option of. An effect
    type the catalogue lacks (a custom one) is shown by its ``summary`` and parameters.
    """
    check_lang(lang)
    cls = type(effect)
    params: dict[str, Any] = {param.name: getattr(effect, param.name) for param in cls.params}
    params["when"] = effect.when
    values: dict[str, Any] = {}
    for param in cls.params:
        value = params[param.name]
        if param.kind == "options":
            value = label("sentence_separator", lang).join(
                label(
                    "option_item",
                    lang,
                    number=index,
                    text=sentences(
                        (describe_effect(e, ruleset, lang, effect.when) for e in option), lang
                    ),
                )
                for index, option in enumerate(value, start=1)
            )
        elif param.kind == "colour" and value is not None:
            value = colour_name(ruleset, value, lang)
        values[param.name] = value
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
    """One sentence per effect of the card's skill; "No skill." for a card without one."""
    if not card.skill:
        return (label("no_skill", lang),)
    return tuple(describe_effect(effect, ruleset, lang) for effect in card.skill)


# -- actions --------------------------------------------------------------------------------


def pending_effect(game: Game, state: State) -> Effect | None:
    """The effect whose decision ``state`` waits for, or None outside a skill's decision."""
    if not state.pending:
        return None
    head = state.pending[0]
    effects: Sequence[Effect] = game.ruleset.crew[state.crew[head.slot]].skill
    effect: Effect | None = None
    for depth, index in enumerate(head.path):
        if depth % 2 == 0:
            effect = effects[index]
        else:
            assert effect is not None
            effects = effect.branches[index]
    return effect


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
