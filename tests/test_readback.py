"""The read-back says what the data does (issue 37's wrong sentences): who acts, which crew or
Planet is meant ("that crew" for one chosen, "this crew" for the card), the cubes behind a moved
cube moving up (R2), no stock parenthetical on a placement from hand, and a number's noun
agreeing with it; and no read-back of a generated program shows an internal word."""

from __future__ import annotations

import copy
import functools
import re
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings

from strategies import language_rulesets, load_documents

from stargazer_rules import load_ruleset
from stargazer_rules.errors import RulesetError
from stargazer_rules.rulesets.yamlsource import parse_yaml
from stargazer_rules.printing.sheet import sheet_items
from stargazer_rules.text.messages import LANGS, ability_sentences, describe_skill, round_end_effects_sentence
from stargazer_rules.text.tables import counts_table, setup_steps_text, unpicked_free_cubes_text


@functools.cache
def ruleset(name: str):
    return load_ruleset(name)


def skill(crew_id: str, lang: str) -> str:
    ideas = ruleset("ideas")
    return describe_skill(ideas.crew_card(crew_id), ideas, lang)


def abilities(planet_id: str, lang: str) -> tuple[str, ...]:
    ideas = ruleset("ideas")
    return ability_sentences(ideas.planet(planet_id), ideas, lang)


SKILLS = {
    "scavenger": (
        'Choose another crew with at least 1 free cube on it: Take the free cubes on that crew to the stock, scoring the motivation bonus for them.',
        '他のクルーのうちフリーキューブが1個以上あるクルーを1つ選ぶ：そのクルーのフリーキューブをストックに戻し、やる気ボーナスを得る。',
    ),
    "gatekeeper": (
        'Choose another crew nobody picked this round: Close that crew: nobody may pick it until the round ends (only while enough crews stay open for the turns left).',
        '他のクルーのうちこのラウンドに誰も選んでいないクルーを1つ選ぶ：そのクルーを封鎖する：このラウンドの終わりまで誰も選べない（残りの手番に足りるクルーが残る場合のみ）。',
    ),
    "ferryman": (
        'Choose a Planet where you have a cube: Your cube that stands furthest back on that Planet moves to the rearmost square of the next Planet with room clockwise after that Planet (never the Planet it leaves); the cubes behind it move up one square.',
        '自分のキューブがある惑星を1つ選ぶ：その惑星で最も後ろにある自分のキューブを、その惑星から時計回りで次の空きマスのある惑星（元の惑星以外）の次のマスに移す。後ろのキューブは1マスずつ前に詰める。',
    ),
    "recaller": (
        "Choose a Planet with a cube on it: The cube that stands furthest back on that Planet returns to its owner's hand (a free cube to the stock); the cubes behind it move up one square.",
        'キューブがある惑星を1つ選ぶ：その惑星で最も後ろにあるキューブを持ち主の手元に戻す（フリーキューブはストックへ）。後ろのキューブは1マスずつ前に詰める。',
    ),
    "cartographer": (
        'At the end of the round in which you pick this crew (the last round too): If you have a cube on every Planet: Gain 3 VP.',
        'このクルーを選んだラウンドの終わりに（最後のラウンドも）：すべての惑星に自分のキューブがあるなら：3VPを得る。',
    ),
    "pathfinder": (
        "Before this turn's survey, on the Planet where it starts: Put a free cube from the stock on the rearmost square of that Planet.",
        'この手番の調査の前に、調査を始める惑星で：ストックのフリーキューブ1個をその惑星の次の空きマスに置く。',
    ),
    "tax-collector": (
        "For each other player: Put one of that player's cubes from their hand on this crew; whoever picks it later scores the motivation bonus for it.",
        '他のプレイヤーのそれぞれについて：そのプレイヤーのキューブ1個を、その手元からこのクルーに置く。後でそのクルーを選んだプレイヤーが、やる気ボーナスを得る。',
    ),
    "hoarder": (
        'Gain VP equal to 6 fewer than the number of cubes in your hand, at least 0.',
        '自分の手元のキューブの数より6少ない数（最小0）に等しいVPを得る。',
    ),
}


@pytest.mark.parametrize("crew_id", sorted(SKILLS))
def test_an_ideas_skill_reads_as_the_data_plays(crew_id):
    """A chosen crew is "that crew" and the card "this crew"; Ferryman's cubes behind move up
    (R2); Pathfinder's free cube comes from the stock, a cube of a player from hand."""
    en, ja = SKILLS[crew_id]
    assert skill(crew_id, "en") == en
    assert skill(crew_id, "ja") == ja


def test_gas_1_names_who_gains():
    """P3: "you" at a cube_placed ability is the placed cube's owner; a free cube's is nobody."""
    assert abilities("gas-1", "en") == ("When a cube is placed on square 3 of this Planet: Its owner gains 1 VP (nobody, for a free cube).",)
    assert abilities("gas-1", "ja") == ("この惑星のマス3にキューブが置かれるたび：そのキューブの持ち主が1VPを得る（フリーキューブなら誰も得ない）。",)


def test_ocean_1_says_on_this_planet():
    assert abilities("ocean-1", "en") == ("When this Planet becomes full: Each player with a cube on this Planet gains 1 VP.",)
    assert abilities("ocean-1", "ja") == ("この惑星が埋まったとき：この惑星にキューブがあるプレイヤーがそれぞれ1VPを得る。",)


def test_primordial_3_reads_its_own_planet_as_this_planet_and_each_player_as_who_gains():
    """A "for each player" of one gain reads as each player gaining, their cubes counted."""
    en, = abilities("primordial-3", "en")
    ja, = abilities("primordial-3", "ja")
    assert en.endswith(": Each player gains VP equal to the number of their cubes on the special squares of this Planet.")
    assert ja.endswith("：全プレイヤーがそれぞれこの惑星の特務マスにある自分のキューブの数に等しいVPを得る。")


def test_setup_step_places_a_cube_from_hand_with_no_stock_parenthetical():
    ideas = ruleset("ideas")
    assert setup_steps_text(ideas, "en") == "Choose a Planet with room: Put one of your cubes from your hand on the rearmost square of that Planet."
    assert setup_steps_text(ideas, "ja") == "空きマスのある惑星を1つ選ぶ：自分のキューブ1個を手元からその惑星の次の空きマスに置く。"


def test_r11_amount_reads_the_crew_that_gets_the_cubes_as_that_crew():
    ideas = ruleset("ideas")
    assert unpicked_free_cubes_text(ideas, "en") == "1 minus the number of free cubes on that crew (none when below 1)"
    assert unpicked_free_cubes_text(ideas, "ja") == "1からそのクルーの上のフリーキューブの数を引いた数（1未満なら0）"
    assert ["Free cubes to each unpicked crew", "1 minus the number of free cubes on that crew (none when below 1)"] in [
        list(row) for row in counts_table(ideas, "en").rows
    ]


def _round_end(name: str, lang: str) -> str:
    return next(text for _, text in sheet_items(ruleset(name), lang) if text.startswith(("Otherwise", "そうでなければ")))


def test_the_sheets_round_end_agrees_its_number_and_reads_an_amount():
    assert _round_end("draft7", "en") == (
        "Otherwise put 1 free cube from the stock on each crew with no worker, in crew-area order, while the stock "
        "lasts (a crew holds at most 3). Everyone takes back their worker, and the next round starts."
    )
    assert _round_end("draft7", "ja") == (
        "そうでなければ、ワーカーの置かれていないクルーに、並び順に【ストック】からフリーキューブを1個ずつ置く（1クルーに3個まで）。"
        "ストックが尽きたらそこまで。全員がワーカーを手元に戻し、次のラウンドを始める。"
    )
    assert _round_end("ideas", "en") == (
        "Otherwise, on each crew with no worker, in crew-area order, put as many free cubes from the stock as 1 minus "
        "the number of free cubes on that crew (none when below 1), while the stock lasts; a crew holds any number. "
        "Everyone takes back their worker, and the next round starts."
    )
    assert _round_end("ideas", "ja") == (
        "そうでなければ、ワーカーの置かれていないクルーのそれぞれに、並び順に【ストック】からフリーキューブを置く。"
        "置く数は1からそのクルーの上のフリーキューブの数を引いた数（1未満なら0）。1クルーの上限なし。"
        "ストックが尽きたらそこまで。全員がワーカーを手元に戻し、次のラウンドを始める。"
    )


#: Words of the data and the code that a read-back never shows: the bound words, an owner key
#: (not "the cube's owner:" before a colon),
#: the virtual player's constant, any snake_case name, None, a brace.
INTERNAL = re.compile(r"this_seat|this_crew|this_planet|(?<!'s )owner:|free_cube_owner|\b[a-z]+_[a-z_]+\b|\bNone\b|[{}]")


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents=language_rulesets())
def test_no_read_back_of_a_generated_program_shows_an_internal_word(documents):
    """Every crew's skill, planet ability, setup step and round-end effect of a generated
    ruleset, in both languages."""
    generated = load_documents(documents)
    for lang in LANGS:
        said = [describe_skill(card, generated, lang) for card in generated.crew]
        said += [sentence for card in generated.planets for sentence in ability_sentences(card, generated, lang)]
        said += [setup_steps_text(generated, lang), unpicked_free_cubes_text(generated, lang)]
        said += [round_end_effects_sentence(generated, lang) or ""]
        for text in said:
            assert not INTERNAL.search(text), (lang, text)


# -- every value is said ------------------------------------------------------------------

#: Words of the rules language swapped for another of the same kind, to see the sentence change.
SWAPS = {
    "me": "others", "others": "everyone", "everyone": "me", "start_player": "left", "left": "start_player",
    "with_room": "full", "full": "with_room", "surveyed": "with_room", "unpicked": "others",
    "free": "anyone", "anyone": "free", "normal": "special", "special": "normal",
}


def _leaves(data, path=()):
    """Every number and word of a skill's data with its path (``when``, ids and names left out)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in ("when", "effect"):
                yield from _leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _leaves(value, (*path, index))
    elif type(data) is int or (isinstance(data, str) and data in SWAPS):
        yield path, data


def _changed(data, path, value):
    data = copy.deepcopy(data)
    holder = data
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return data


def _other(value):
    return value + 1 if type(value) is int else SWAPS[value]


def _said_alike(documents, card_index, most_mutations):
    """The mutations of one crew's skill, each loaded, whose read-back is unchanged."""
    base = load_documents(documents)
    card = documents["crew.yaml"]["crew"][card_index]
    before = {lang: describe_skill(base.crew_card(card["id"]), base, lang) for lang in LANGS}
    unchanged = []
    for path, value in list(_leaves(card["skill"]))[:most_mutations]:
        mutated = copy.deepcopy(documents)
        mutated["crew.yaml"]["crew"][card_index]["skill"] = _changed(card["skill"], path, _other(value))
        try:
            changed = load_documents(mutated)
        except RulesetError:
            continue  # a value the loader refuses there: nothing to read back
        for lang in LANGS:
            if describe_skill(changed.crew_card(card["id"]), changed, lang) == before[lang]:
                unchanged.append((lang, path, value, before[lang]))
    return unchanged


def _bundled_documents(name):
    folder = resources.files("stargazer_rules") / "_bundled" / "cards" / name
    return {file: parse_yaml((folder / file).read_text(encoding="utf-8"), file).data for file in ("rules.yaml", "planets.yaml", "crew.yaml")}


@pytest.mark.parametrize("crew_id", ["hoarder", "steward", "veteran", "pioneer", "scavenger", "tax-collector", "pirate"])
def test_every_number_and_word_of_an_ideas_skill_is_said(crew_id):
    """Changing any number or set word of a skill changes its sentence, in both languages."""
    documents = _bundled_documents("ideas")
    index = next(i for i, card in enumerate(documents["crew.yaml"]["crew"]) if card["id"] == crew_id)
    assert _said_alike(documents, index, most_mutations=12) == []



#: Crews of a generated ruleset and values of each skill mutated per example: each mutation
#: loads a ruleset, so an example costs up to 4 x 12 loads.
GENERATED_CREWS, GENERATED_MUTATIONS = 4, 12


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents=language_rulesets())
def test_every_number_and_word_of_a_generated_skill_is_said(documents):
    """Changing any number or set, owner or squares word of a generated program changes its
    sentence, in both languages (every value is said). A mutation the loader refuses is
    skipped; one refused inside a body was a crash the property shrank for minutes (the loader
    built the body around None), now one problem (tests/test_loader.py)."""
    for index in range(min(GENERATED_CREWS, len(documents["crew.yaml"]["crew"]))):
        assert _said_alike(documents, index, most_mutations=GENERATED_MUTATIONS) == []
