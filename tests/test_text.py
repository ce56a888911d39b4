"""The message catalogue (stargazer_rules/text/messages.yaml) and the text of events, actions and skills.

The catalogue is checked against the code: every event key, effect type and action message has
a text in both languages, and every text's placeholders are exactly the parameters it is filled
with, so rendering never raises ``KeyError`` and never silently drops a value. Then everything a
game can produce, on every bundled ruleset, is rendered in both languages.
"""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
import yaml
from ruleset_edits import CUSTOM_EFFECT_TYPES, TakeCubesBack, copy_ruleset

from stargazer_rules import Event, Game, Setup, load_ruleset
from stargazer_rules.formats import jsonio
from stargazer_rules.rulesets.resources import bundled_ruleset_names
from stargazer_rules.text.messages import (
    ACTION_MESSAGES,
    CATALOGUE_PATH,
    COMPUTED,
    TO_NEXT,
    YOU,
    LANGS,
    catalogue,
    describe_action,
    describe_effect,
    describe_skill,
    effect_params,
    fill,
    label,
    load_catalogue,
    placeholders,
    player_name,
    render_event,
)
from stargazer_rules.vocabulary.actions import TARGET_CREW, action
from stargazer_rules.vocabulary.effects import AFTER_SURVEY, EFFECT_TYPES, Effect, extend_effect_types
from stargazer_rules.vocabulary.expressions import AMOUNT, CONDITION, PLANETS, SEATS
from stargazer_rules.vocabulary.events import EVENT_KEYS

BUNDLED = bundled_ruleset_names()


@functools.cache
def ruleset(name: str = "draft7"):
    return load_ruleset(name)


@functools.cache
def game(name: str = "draft7") -> Game:
    return Game(ruleset(name))


# -- the catalogue against the code -----------------------------------------------------------


def _forms(section: str):
    """(key, when, lang, text) for every form of every entry of a catalogue section."""
    for key, template in catalogue().section(section).items():
        for when, texts in template.forms():
            for lang in LANGS:
                yield key, when, lang, texts[lang]


def _inapplicable(cls: type[Effect], when: dict[str, Any]) -> frozenset[str]:
    """Parameters that have no value in a form: required only with a value ``when`` excludes."""
    return frozenset(
        param.name
        for param in cls.params
        if param.required_when is not None
        and param.required_when[0] in when
        and when[param.required_when[0]] != param.required_when[1]
    )


def _check_form(
    where: str,
    text: str,
    when: dict[str, Any],
    params: set[str],
    exempt: frozenset[str] = frozenset(),
) -> None:
    used = placeholders(text)
    assert used <= params, f"{where}: {sorted(used - params)} are not parameters ({sorted(params)})"
    assert set(when) <= params, f"{where}: case on {sorted(set(when) - params)}, not parameters"
    missing = params - used - set(when) - exempt
    assert not missing, f"{where}: {sorted(missing)} are neither shown nor fixed by the case"


def test_every_event_key_has_a_text_in_both_languages():
    """Each key of EVENT_KEYS, and no other, is in the catalogue, with ja and en in every form."""
    events = catalogue().section("events")
    assert set(events) == set(EVENT_KEYS)
    for key, template in events.items():
        assert list(template.forms()), key
        for _when, texts in template.forms():
            assert set(texts) == set(LANGS), key
            assert all(texts[lang].strip() for lang in LANGS), key


def test_event_placeholders_are_exactly_the_event_params():
    """A text shows every parameter of its event (or its case fixes it), and nothing else."""
    for key, when, lang, text in _forms("events"):
        _check_form(f"events.{key} {when} [{lang}]", text, when, set(EVENT_KEYS[key]))


def test_every_effect_type_has_a_sentence_whose_placeholders_are_its_params():
    """The effect templates match the registry; each form shows the declared params and ``when``,
    except a param its case makes inapplicable (``colour`` unless ``planets: colour``)."""
    assert set(catalogue().section("effects")) == set(EFFECT_TYPES)
    assert set(catalogue().section("effect_names")) == set(EFFECT_TYPES)
    for key, when, lang, text in _forms("effects"):
        cls = EFFECT_TYPES[key]
        _check_form(
            f"effects.{key} {when} [{lang}]",
            text,
            when,
            set(effect_params(cls)),
            _inapplicable(cls, when) | {COMPUTED, YOU, TO_NEXT},
        )


def test_choice_params_are_covered_by_cases_or_a_default():
    """An effect text without a default has a case for every value of its choice parameter."""
    for key, template in catalogue().section("effects").items():
        if template.texts:
            continue
        for param in EFFECT_TYPES[key].params:
            if param.kind == "choice":
                covered = {case.when.get(param.name) for case in template.cases}
                assert set(param.choices) <= covered, f"effects.{key}: no case for {param.name}"


def test_action_messages_match_their_declared_params():
    assert set(catalogue().section("actions")) == set(ACTION_MESSAGES)
    target_messages = {cls.target_message for cls in EFFECT_TYPES.values()} - {""}
    assert target_messages <= set(ACTION_MESSAGES)
    for key, when, lang, text in _forms("actions"):
        _check_form(f"actions.{key} {when} [{lang}]", text, when, set(ACTION_MESSAGES[key]))


def test_labels_use_the_same_placeholders_in_both_languages():
    for key, template in catalogue().section("labels").items():
        for when, texts in template.forms():
            assert placeholders(texts["ja"]) == placeholders(texts["en"]), f"labels.{key} {when}"


def test_words_exist_for_every_timing_direction_and_trigger():
    from stargazer_rules.vocabulary.effects import TIMINGS
    from stargazer_rules.vocabulary.table import TRIGGERS

    assert set(catalogue().section("timings")) == set(TIMINGS)
    assert set(catalogue().section("directions")) == {"clockwise", "counter_clockwise"}
    assert set(catalogue().section("triggers")) == set(TRIGGERS)


def test_the_catalogue_is_package_data():
    """messages.yaml sits inside the package, which the wheel ships whole (pyproject.toml)."""
    package = Path(__import__("stargazer_rules").__file__).parent
    assert CATALOGUE_PATH.parent == package / "text"
    pyproject = (package.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'packages = ["stargazer_rules"]' in pyproject


def test_a_text_missing_a_language_is_refused(tmp_path):
    path = tmp_path / "messages.yaml"
    path.write_text(
        yaml.safe_dump({"events": {"turn_ended": {"en": "{player}'s turn ends."}}}),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"events.turn_ended: no text in ja"):
        load_catalogue(path)


@pytest.mark.parametrize("field", ["{player.name}", "{players[0]}", "{player!r}", "{}"])
def test_a_text_with_more_than_a_plain_field_is_refused_where_it_is(tmp_path, field):
    """``fill`` knows plain names and format specs only; anything else is a catalogue error."""
    path = tmp_path / "messages.yaml"
    path.write_text(
        yaml.safe_dump({"events": {"turn_ended": {"en": f"{field}'s turn ends.", "ja": "{player}"}}}),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"events.turn_ended.en: template field .* only plain names"):
        load_catalogue(path)


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        ("{count:cube|cubes} on {planet}", {"count": 1, "planet": "Lava"}, "1 cube on Lava"),
        ("{count:cube|cubes} on {planet}", {"count": 3, "planet": "Lava"}, "3 cubes on Lava"),
        ("{count:cube|cubes}", {"count": 0}, "0 cubes"),
        ("{delta:+} VP {{not a field}}", {"delta": 4}, "+4 VP {not a field}"),
        ("{delta:+}", {"delta": -2}, "-2"),
        ("{x:>5}|{x}", {"x": "ab"}, "   ab|ab"),
        ("ラウンド{round}", {"round": 2}, "ラウンド2"),
    ],
)
def test_fill_is_format_with_a_plural_noun(text, values, expected):
    assert fill(text, values) == expected
    if "|" not in text.replace("}|{", ""):
        assert fill(text, values) == text.format(**values)


# -- players and events -----------------------------------------------------------------------


def test_players_are_numbered_from_1_and_free_cubes_named():
    assert [player_name(seat, "en") for seat in (0, 3, -1)] == ["Player 1", "Player 4", "free cube"]
    assert [player_name(seat, "ja") for seat in (0, 3, -1)] == [
        "プレイヤー1",
        "プレイヤー4",
        "フリーキューブ",
    ]


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown language 'fr'; the languages are ja, en"):
        render_event(Event("turn_ended", {"player": 0}), ruleset(), "fr")


@pytest.mark.parametrize(
    ("event", "en", "ja"),
    [
        (
            Event("cube_placed", {"owner": 1, "planet": "lava-2", "square": 0}),
            "Player 2 places a cube on Lava 2's special square.",
            "プレイヤー2が溶岩惑星２の特務マスにキューブを置く。",
        ),
        (
            Event(
                "motivation_bonus",
                {"player": 2, "crew": "pilot", "free_cubes": 1, "player_cubes": 0, "vp": 1},
            ),
            "Player 3 takes Pilot's motivation bonus: 1 VP for 1 free cube, back to the stock.",
            "プレイヤー3が操縦士のやる気ボーナスで1VPを得る（フリーキューブ1個をストックへ）。",
        ),
        (
            Event(
                "motivation_bonus",
                {"player": 0, "crew": "pilot", "free_cubes": 2, "player_cubes": 1, "vp": 4},
            ),
            "Player 1 takes Pilot's motivation bonus: 4 VP for 2 free cubes and 1 player cube, to the stock.",
            "プレイヤー1が操縦士のやる気ボーナスで4VPを得る（フリーキューブ2個と、プレイヤーのキューブ1個をストックへ）。",
        ),
        (
            Event("game_over", {"round": 7, "triggers": ["hand_empty", "planets_full"]}),
            "The game ends after round 7: a player has no cubes left, enough Planets are full.",
            "ラウンド7の終わりでゲーム終了：キューブが尽きたプレイヤーがいる、規定数の惑星のマスが埋まった。",
        ),
        (
            Event("option_chosen", {"player": 3, "crew": "linguist", "option": 0}),
            "Player 4 chooses option 1 of Linguist's skill.",
            "プレイヤー4が言語学者のスキルの選択肢1を選ぶ。",
        ),
        (
            Event(
                "effect_skipped",
                {
                    "player": 0,
                    "crew": "xenobiologist",
                    "effect": "place_free_cubes",
                    "remaining": 2,
                },
            ),
            "Player 1's Xenobiologist skips free cubes onto Planets 2 times: it cannot be applied.",
            "プレイヤー1の異星生物学者のスキル「惑星へのフリーキューブ」は適用できないので飛ばす（2回分）。",
        ),
    ],
)
def test_events_read_as_sentences(event, en, ja):
    assert render_event(event, ruleset(), "en") == en
    assert render_event(event, ruleset(), "ja") == ja


def test_an_event_the_catalogue_lacks_is_shown_raw():
    """A custom effect may log its own key: it is shown, not lost."""
    assert render_event(Event("cubes_taken_back", {"player": 0, "cubes": 2}), ruleset(), "en") == (
        "cubes_taken_back: player=0, cubes=2"
    )


def _random_game_events(name: str, players: int, seed: int):
    """Every (state before, action, events) of a seeded random game."""
    g = game(name)
    rng = random.Random(seed)
    state = g.new_state(players=players, seed=seed)
    while not g.is_over(state):
        act = rng.choice(g.legal_actions(state))
        after, events = g.apply(state, act)
        yield state, act, events
        state = after


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("players", [3, 4])
def test_every_event_and_action_of_a_random_game_renders_in_both_languages(name, players):
    seen = set()
    for state, act, events in _random_game_events(name, players, seed=11 + players):
        for lang in LANGS:
            assert describe_action(game(name), state, act, lang)
            for event in events:
                text = render_event(event, ruleset(name), lang)
                assert not text.startswith(event.key + ":"), text
                assert "{" not in text and "}" not in text, text
                seen.add(event.key)
    assert {"crew_chosen", "cube_placed", "survey_done", "round_ended", "game_over"} <= seen


# -- skills -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("crew_id", "en", "ja"),
    [
        (
            "geologist",
            "Place 1 of your cubes on the special square of a Planet surveyed this turn (after the survey).",
            "調査の後、自分のキューブ1個を、この手番に調査した惑星の特務マスに置く。",
        ),
        (
            "linguist",
            "Choose one: (1) Gain 2 VP. (2) Place 1 of your cubes on the special square of any Planet.",
            "次から1つを選ぶ：（1）2VPを得る。（2）自分のキューブ1個を、好きな惑星の特務マスに置く。",
        ),
        ("historian", "Gain 2 VP (after the survey).", "調査の後、2VPを得る。"),
        ("mechanic", "Survey count +1 this turn.", "この手番の調査回数+1。"),
        (
            "oceanographer",
            "Place 1 of your cubes on the special square of a blue Planet.",
            "自分のキューブ1個を、青の惑星の特務マスに置く。",
        ),
        (
            "armstrong",
            "At the end of the round, unless it ends the game, name the next start player, yourself included.",
            "ラウンド終了時（ゲームが終わるときを除く）、次のスタートプレイヤーを指名する（自分も可）。",
        ),
    ],
)
def test_skills_read_as_sentences(crew_id, en, ja):
    card = ruleset().crew_card(crew_id)
    assert describe_skill(card, ruleset(), "en") == en
    assert describe_skill(card, ruleset(), "ja") == ja


def test_a_crew_without_a_skill_says_so():
    card = ruleset("base").crew_card("navigator")
    assert (
        describe_skill(card, ruleset("base"), "en"),
        describe_skill(card, ruleset("base"), "ja"),
    ) == (
        "No skill.",
        "スキルなし。",
    )


def _generated_effects() -> list[dict[str, Any]]:
    """One effect mapping per effect type, choice value and allowed timing, from the declarations."""
    generated = []
    for effect_name, cls in EFFECT_TYPES.items():
        choices = [
            [(param.name, value) for value in param.choices]
            for param in cls.params
            if param.kind == "choice"
        ]
        for combination in itertools.product(*choices):
            fixed = dict(combination)
            needed = {
                need.timing
                for need in cls.timing_requirements
                if fixed.get(need.param) == need.value
            }
            for when in cls.timings:
                if needed and when not in needed:
                    continue
                data: dict[str, Any] = {"effect": effect_name, **fixed, "when": when}
                for param in cls.params:
                    if param.kind in ("integer", AMOUNT):
                        data[param.name] = 2 if param.minimum is None else param.minimum + 1
                    elif param.kind == CONDITION:
                        data[param.name] = {"at_least": ["round", 2]}
                    elif param.kind == "effects" and param.required:
                        inner = {"effect": "change_survey_count", "delta": 1} if when == "survey" else {"effect": "gain_vp", "vp": 1}
                        data[param.name] = [inner]
                    elif param.kind == SEATS and param.required:
                        data[param.name] = "everyone"  # set_start_player's seat
                    elif param.kind == PLANETS and ("do" in (p.name for p in cls.params) or param.default == "this_planet"):
                        data[param.name] = "with_room"  # choose and for_each take one set; no Planet is bound here
                    elif (
                        param.kind == "colour"
                        and fixed.get(param.required_when[0]) == param.required_when[1]
                    ):
                        data[param.name] = "green"
                    elif param.kind == "options":
                        data[param.name] = [
                            [{"effect": "gain_vp", "vp": 1}],
                            [{"effect": "gain_vp", "vp": 3}],
                        ]
                generated.append(data)
    return generated


def _generated_ruleset(tmp: Path):
    folder = copy_ruleset(tmp, to="generated")
    crew = yaml.safe_load((folder / "crew.yaml").read_text(encoding="utf-8"))
    for index, data in enumerate(_generated_effects()):
        crew["crew"].append(
            {
                "id": f"gen{index}",
                "name": {"ja": f"生成{index}", "en": f"Generated {index}"},
                "survey_count": 2,
                "skill": [data],
            }
        )
    (folder / "crew.yaml").write_text(yaml.safe_dump(crew, allow_unicode=True), encoding="utf-8")
    return load_ruleset(folder)


def test_every_effect_type_is_described_in_both_languages(tmp_path):
    """All of draft7's skills and a generated instance of each type, timing and choice value."""
    rules = _generated_ruleset(tmp_path)
    generated = [card for card in rules.crew if card.id.startswith("gen")]
    assert {card.skill[0].name for card in generated} == set(EFFECT_TYPES)
    for card in rules.crew:
        for lang in LANGS:
            text = describe_skill(card, rules, lang)
            assert text and "{" not in text and "}" not in text, (card.id, text)
            assert "None" not in text, (card.id, text)
    by_data = {str(card.skill[0].to_data()): card for card in generated}
    special_colour = next(c for d, c in by_data.items() if "'colour': 'green'" in d)
    assert (
        describe_skill(special_colour, rules, "en")
        == "Place 2 of your cubes on the special square of a green Planet."
    )
    change = next(c for c in generated if c.skill[0].name == "change_survey_count")
    assert describe_skill(change, rules, "en") == "Survey count +2 this turn."
    assert describe_skill(change, rules, "ja") == "この手番の調査回数+2。"


def test_timings_are_shown_only_when_not_the_default():
    rules = ruleset()
    historian = rules.crew_card("historian").skill[0]
    assert describe_effect(historian, rules, "en") == "Gain 2 VP (after the survey)."
    linguist = rules.crew_card("linguist").skill[0]
    option = linguist.options[0][0]
    assert describe_effect(option, rules, "en", parent_when=linguist.when) == "Gain 2 VP."


def test_a_custom_effect_is_described_by_its_summary():
    effect = TakeCubesBack(when="after_survey", cubes=2)
    assert describe_effect(effect, ruleset(), "en") == "Take cubes back into hand. [cubes: 2]"
    assert describe_effect(effect, ruleset(), "ja") == "Take cubes back into hand. [cubes: 2]"
    assert "take_cubes_back" in CUSTOM_EFFECT_TYPES


# -- actions --------------------------------------------------------------------------------------


SETUP = Setup(
    players=3,
    planets=("lava-1", "ocean-2", "gas-3", "primordial-1", "dark"),
    crew=("navigator", "geologist", "quartermaster", "linguist"),
    start_player=0,
)


def _play(state, *actions: dict):
    g = game()
    for data in actions:
        state = g.step(state, jsonio.action_from_json(g, state, data))
    return state


def _described(state, lang: str = "en") -> list[str]:
    g = game()
    return [describe_action(g, state, act, lang) for act in g.legal_actions(state)]


def test_crew_choices_name_the_crew_and_any_motivation_bonus():
    state = game().new_state(setup=SETUP)
    assert _described(state) == [
        "Pick Captain Armstrong",
        "Pick Navigator",
        "Pick Geologist",
        "Pick Quartermaster",
        "Pick Linguist",
    ]
    assert _described(state, "ja")[1] == "航法士を選ぶ"


def test_survey_choices_show_the_squares_the_walk_fills():
    state = _play(game().new_state(setup=SETUP), {"type": "pick_crew", "crew": "navigator"})
    described = _described(state)
    assert described[0] == "Place nothing"
    assert (
        "Survey 3 cubes from Lava 1 clockwise: Lava 1 square 1, Ocean 2 square 1, Gas 3 square 1"
        in described
    )
    assert (
        "Survey 2 cubes from Lava 1 counter-clockwise: Lava 1 square 1, Dark Planet square 1"
        in described
    )
    assert "溶岩惑星１から反時計回りに2個調査：溶岩惑星１のマス1、暗黒惑星のマス1" in _described(
        state, "ja"
    )


def test_target_choices_depend_on_the_pending_effect():
    state = _play(
        game().new_state(setup=SETUP),
        {"type": "pick_crew", "crew": "navigator"},
        {"type": "survey", "planet": "lava-1", "count": 3, "direction": "clockwise"},
        {"type": "pick_crew", "crew": "quartermaster"},
    )
    assert _described(state) == [
        "Put one of your cubes on Captain Armstrong",
        "Put one of your cubes on Navigator",
        "Put one of your cubes on Geologist",
        "Put one of your cubes on Linguist",
    ]
    state = _play(
        state,
        {"type": "target_crew", "crew": "linguist"},
        {"type": "survey", "planet": "ocean-2", "count": 2, "direction": "clockwise"},
        {"type": "pick_crew", "crew": "geologist"},
        {"type": "survey", "planet": "gas-3", "count": 1, "direction": "clockwise"},
    )
    assert _described(state) == ["Put the cube on Gas 3's special square"]
    assert _described(state, "ja") == ["キューブをガス惑星３の特務マスに置く"]


def test_options_and_the_start_player_are_described():
    state = _play(
        game().new_state(setup=SETUP),
        {"type": "pick_crew", "crew": "linguist"},
    )
    assert _described(state) == [
        "Option 1: Gain 2 VP.",
        "Option 2: Place 1 of your cubes on the special square of any Planet.",
    ]
    assert _described(state, "ja")[0] == "選択肢1：2VPを得る。"
    state = _play(
        state,
        {"type": "choose_option", "option": 0},
        {"type": "survey", "count": 0},
        {"type": "pick_crew", "crew": "armstrong"},
        {"type": "survey", "count": 0},
        {"type": "pick_crew", "crew": "navigator"},
        {"type": "survey", "count": 0},
    )
    assert _described(state) == [
        "Name Player 1 start player",
        "Name Player 2 start player",
        "Name Player 3 start player",
    ]
    assert _described(state, "ja")[2] == "プレイヤー3をスタートプレイヤーに指名する"


def test_free_cubes_and_cube_by_cube_surveys_are_described():
    setup = Setup(
        4,
        ("lava-1", "ocean-2", "gas-3", "primordial-1", "dark", "diamond", "lava-2"),
        ("xenobiologist", "engineer", "recruiter", "pilot", "mechanic"),
        0,
    )
    state = _play(game().new_state(setup=setup), {"type": "pick_crew", "crew": "xenobiologist"})
    assert _described(state)[0] == "Put a free cube on Lava 1, square 1"
    state = _play(state, {"type": "target_planet", "planet": "lava-1"})
    assert _described(state)[0] == "Put a free cube on Lava 1, square 2"
    state = _play(
        state,
        {"type": "target_planet", "planet": "lava-1"},
        {"type": "survey", "count": 0},
        {"type": "pick_crew", "crew": "engineer"},
        {"type": "survey_step", "planet": "dark"},
    )
    assert _described(state) == [
        "Put the next cube on Dark Planet, square 2",
        "Put the next cube on Diamond Planet, square 1",
        "Stop the survey (1 cube placed)",
    ]
    state = _play(state, {"type": "survey_stop"}, {"type": "pick_crew", "crew": "recruiter"})
    assert _described(state)[0] == "Put a free cube on Captain Armstrong"
    state = _play(
        state,
        {"type": "target_crew", "crew": "armstrong"},
        {"type": "survey", "count": 0},
        {"type": "pick_crew", "crew": "armstrong"},
    )
    assert _described(state)[0] == "Place nothing"
    g = game()
    state = g.new_state(setup=setup)
    state = _play(
        state,
        {"type": "pick_crew", "crew": "recruiter"},
        {"type": "target_crew", "crew": "pilot"},
        {"type": "survey", "count": 0},
    )
    assert _described(state)[3] == "Pick Pilot (motivation bonus 1 VP)"
    assert _described(state, "ja")[3] == "操縦士を選ぶ（やる気ボーナス1VP）"


@attrs.frozen(kw_only=True)
class GiftFreeCube(Effect):
    """A custom effect that asks for a crew and names the sentence of that decision itself."""

    name: ClassVar[str] = "gift_free_cube"
    summary: ClassVar[str] = "Put a free cube from the stock on another crew."
    timings: ClassVar[tuple[str, ...]] = (AFTER_SURVEY,)
    target_message: ClassVar[str] = "target_crew_free_cube"

    def choices(self, table, seat, slot):
        return tuple(action(TARGET_CREW, other) for other in range(table.crew_count) if other != slot)

    def apply(self, table, seat, slot, choice):
        table.stock_to_crew(choice.target)
        return ()


def _historian_with(tmp_path: Path, effect_type: type[Effect]):
    """A game of draft 7 whose Historian has the one effect ``effect_type``, at its target decision."""
    folder = copy_ruleset(tmp_path)
    text = (folder / "crew.yaml").read_text(encoding="utf-8")
    historian = "      - effect: gain_vp\n        vp: 2\n        when: after_survey\n"
    assert text.count(historian) == 1
    (folder / "crew.yaml").write_text(
        text.replace(historian, f"      - effect: {effect_type.name}\n"), encoding="utf-8"
    )
    g = Game(load_ruleset(folder, effect_types=extend_effect_types(EFFECT_TYPES, effect_type)))
    planets = ("lava-1", "ocean-2", "gas-3", "primordial-1", "dark")
    state = g.new_state(setup=Setup(3, planets, ("historian", "geologist", "pilot", "linguist")))
    for move in (
        {"type": "pick_crew", "crew": "historian"},
        {"type": "survey", "planet": "lava-1", "count": 2, "direction": "clockwise"},
    ):
        state = g.step(state, jsonio.action_from_json(g, state, move))
    return g, state


def test_a_custom_effect_names_the_sentence_of_its_target_decision(tmp_path):
    """The target sentence is declared on the effect class, so a new type words its decision
    like the built-in ones (here add_free_cubes' sentence) instead of a plain "Choose"."""
    g, state = _historian_with(tmp_path, GiftFreeCube)
    assert [describe_action(g, state, act, "en") for act in g.legal_actions(state)] == [
        "Put a free cube on Captain Armstrong",
        "Put a free cube on Geologist",
        "Put a free cube on Pilot",
        "Put a free cube on Linguist",
    ]
    assert describe_action(g, state, g.legal_actions(state)[1], "ja") == "フリーキューブを地質学者に置く"


def test_a_target_sentence_that_is_no_action_message_is_refused(tmp_path):
    @attrs.frozen(kw_only=True)
    class Misnamed(GiftFreeCube):
        name: ClassVar[str] = "misnamed"
        target_message: ClassVar[str] = "target_crew_gift"

    g, state = _historian_with(tmp_path, Misnamed)
    with pytest.raises(ValueError) as caught:
        describe_action(g, state, g.legal_actions(state)[0], "en")
    assert str(caught.value) == (
        "effect type 'misnamed' declares target_message 'target_crew_gift', which is not an "
        "action message; expected one of " + ", ".join(ACTION_MESSAGES)
    )


def test_labels_fill_their_cases():
    assert label("score_bonus_cell", "en", vp=0, colours="") == "0"
    assert label("score_bonus_cell", "en", vp=6, colours="red 3 + blue 3") == "6 (red 3 + blue 3)"


def test_every_terminal_printer_escapes_a_name_that_would_drive_the_terminal():
    """A name holding ESC [2J (clear the screen) and U+202E reached the printers by a ruleset
    built in Python, not the loader: `stargazer rules`, the play screen and the event log show
    its escapes, and the terminal receives neither character."""
    import attrs

    from stargazer_rules.engine.game import Game
    from stargazer_rules.formats.records import GameRecord
    from stargazer_rules.frontends.terminal import record_seats, screen_lines
    from stargazer_rules.rulesets.loader import load_ruleset
    from stargazer_rules.rulesets.model import Name
    from stargazer_rules.text.reports import ruleset_report

    ruleset = load_ruleset("draft7")
    named = Name("航法士\x1b[2J", "Nav\x1b[2J\u202eigator")
    crew = tuple(attrs.evolve(card, name=named) if card.id == "navigator" else card for card in ruleset.crew)
    game = Game(attrs.evolve(ruleset, crew=crew, title=Name("草案\a", "Draft\b 7")))
    state = game.new_state(players=3, seed=0)
    printed = [ruleset_report(game.ruleset, lang) for lang in ("en", "ja")]
    record = GameRecord("draft7", ruleset.fingerprint, game.deal(3, seed=0), (), metadata={"seats": ["human", "greedy\x1b[2J", "random"]})
    printed.append(" ".join(spec or "" for spec in record_seats(record)))
    printed += screen_lines(game, state, "en", ("P1", "P2", "P3"))
    text = "\n".join(printed)
    assert "Nav\\u001b[2J\\u202eigator" in text and "Draft\\u0008 7" in text and "greedy\\u001b[2J" in text
    assert not any(char in text for char in "\x1b\u202e\a\b")


def test_direction_names_live_in_the_vocabulary_and_every_reader_uses_them():
    """R8: the two directions of a survey have one name each (``actions.DIRECTION_NAMES``): the
    action schema's enum, the catalogue's ``directions`` and the JSON forms all use it."""
    from stargazer_rules.vocabulary.actions import CLOCKWISE, COUNTER_CLOCKWISE, DIRECTION_NAMES

    assert DIRECTION_NAMES == {CLOCKWISE: "clockwise", COUNTER_CLOCKWISE: "counter_clockwise"}
    enum = jsonio.schema("action")["$defs"]["survey"]["properties"]["direction"]["enum"]
    assert enum == list(DIRECTION_NAMES.values())
    assert set(catalogue().section("directions")) == set(DIRECTION_NAMES.values())
    game = Game(ruleset())
    state = game.new_state(players=3, seed=0)
    act = action("survey", target=0, count=1, direction=COUNTER_CLOCKWISE)
    assert jsonio.action_to_json(game, state, act)["direction"] == "counter_clockwise"


def test_every_title_that_names_a_ruleset_is_filled_by_the_one_title_builder():
    """``reports.ruleset_title`` fills every title naming a ruleset, in both catalogues: each
    placeholder is the ruleset's title, name or short fingerprint, or one the caller passes."""
    from stargazer_rules.printing.words import catalogue as printing_catalogue
    from stargazer_rules.printing.words import say
    from stargazer_rules.text.reports import ruleset_title

    rules = ruleset()
    titles = {
        ("text", "ruleset_title"): {},
        ("text", "game_title"): {"players": 3, "seed": 5},
        ("text", "play_title"): {"players": 3, "seed": 5},
        ("text", "replay_title"): {"players": 3, "seed": 5, "moves": 40},
        ("printing", "footer"): {"page": 2},
        ("printing", "sheet_title"): {},
    }
    for (where, key), more in titles.items():
        section = (catalogue() if where == "text" else printing_catalogue()).section("labels")
        used = set().union(*(placeholders(texts[lang]) for _, texts in section[key].forms() for lang in LANGS))
        assert used <= {"title", "name", "fingerprint", *more}, key
        render = label if where == "text" else say
        en = ruleset_title(rules, "en", key, render=render, **more)
        assert rules.title.en in en, key
        if "fingerprint" in used:
            assert rules.fingerprint[:12] in en and rules.fingerprint[:13] not in en, key


@pytest.mark.parametrize(
    ("key", "params", "en", "ja"),
    [
        (
            "cube_moved",
            {"player": 0, "crew": "ferryman", "owner": 3, "planet": "lava-1", "square": 3},
            "Player 1's Ferryman moves Player 4's cube off Lava 1, square 3 (the cubes behind it move up one square).",
            "プレイヤー1が渡し守で溶岩惑星１のマス3のプレイヤー4のキューブを動かす（後ろのキューブは1マスずつ前に詰める）。",
        ),
        (
            "cube_returned",
            {"player": 1, "crew": "recaller", "owner": 0, "planet": "gas-1", "square": 2, "to": "hand"},
            "Player 2's Recaller sends Player 1's cube on Gas 1, square 2, back to its owner's hand.",
            "プレイヤー2が呼び戻し係でガス惑星１のマス2のプレイヤー1のキューブを持ち主の手元に戻す。",
        ),
        (
            "cube_returned",
            {"player": 1, "crew": "recaller", "owner": -1, "planet": "gas-1", "square": 2, "to": "hand"},
            "Player 2's Recaller sends the free cube on Gas 1, square 2, to the stock.",
            "プレイヤー2が呼び戻し係でガス惑星１のマス2のフリーキューブをストックに戻す。",
        ),
        (
            "cube_moved",
            {"player": -1, "crew": "", "owner": 2, "planet": "lava-1", "square": 1},
            "Player 3's cube moves off Lava 1, square 1 (the cubes behind it move up one square).",
            "溶岩惑星１のマス1のプレイヤー3のキューブが移動する（後ろのキューブは1マスずつ前に詰める）。",
        ),
    ],
)
def test_a_cube_moved_by_a_skill_is_moved_by_the_skill_s_user(key, params, en, ja):
    """The game log names who moved a cube and with which crew ("Player 1's Ferryman moves
    Player 4's cube ..."), a free cube as "the free cube"; a rule or an ability moves it with
    nobody named."""
    ideas = load_ruleset("ideas")
    assert render_event(Event(key, params), ideas, "en") == en
    assert render_event(Event(key, params), ideas, "ja") == ja
