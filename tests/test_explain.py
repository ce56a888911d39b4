"""``stargazer explain``: counterfactual play (issue #28 item 1; docs/simulation.md, "stargazer
explain"). A crew forced on one seat whenever it is free, and a card left out of the deal, each
on the run's own deals, paired game by game with the run.

The worked test plays a copy of the ``base`` ruleset (no crew has a skill but Captain Armstrong,
R19) with every survey count 2 (R7) but the Historian's, raised by 2 to 4, and no motivation
bonus (R6 at 0 VP). The forced effect is measured against the bots' own choice, so a crew is
neutral only when it is as good as what the seat would otherwise take: here every other
skill-less crew is such a crew, while taking one every round in a game with the bonus would
forgo the motivation VP of the crews left to gather cubes (with it, the Geologist's forced
effect is about -5 points at 400 games, significantly negative). Random bots: their own pick is
any free crew, so the Historian's extra surveys are a clear gain.
"""

from __future__ import annotations

import json
import math
import re

import jsonschema
import pytest

from stargazer_rules.analysis.brief import said_once
from stargazer_rules.analysis.explain_report import explain_brief, render_explain
from ruleset_edits import copy_ruleset, replace

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import counterfactual, stats
from stargazer_rules.analysis.explain_run import explain_run
from stargazer_rules.analysis.games import win_credit
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.analysis.verdict import games_needed
from stargazer_rules.bots import make_bot
from stargazer_rules.bots.forced import ForcedCrewBot, forced_pick
from stargazer_rules.formats import jsonio
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.rulesets.variants import ruleset_without
from stargazer_rules.simulation.counterfactual import forced_seat, play_forced, play_left_out
from stargazer_rules.simulation.kernel_games import play_games
from stargazer_rules.simulation.one_game import game_of
from stargazer_rules.simulation.planning import plan
from stargazer_rules.vocabulary.actions import PICK_CREW

MARGIN = 0.02


# -- the paired-difference maths on crafted data ----------------------------------------------


def test_a_paired_effect_is_the_mean_difference_with_its_t_interval():
    differences = [1.0, 0.0, 0.0, 0.5, -0.5, 1.0, 0.0, 0.0]
    effect = counterfactual.paired_effect(differences, MARGIN)
    mean = sum(differences) / len(differences)
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (len(differences) - 1))
    half = float(stats._t(0.95, len(differences) - 1)) * sd / math.sqrt(len(differences))
    assert effect["effect"] == pytest.approx(0.25)
    assert effect["sd"] == pytest.approx(sd)
    assert (effect["low"], effect["high"]) == pytest.approx((mean - half, mean + half))
    assert effect["direction"] == "covers 0"
    # undecided: the games needed are the comparison's (verdict.games_needed), more than played
    assert effect["games_needed"] == games_needed(8, mean, sd / math.sqrt(8), MARGIN, 0.95)
    assert effect["games_needed"] > 8


def test_a_decided_effect_needs_no_more_games_and_says_its_sign():
    up = counterfactual.paired_effect([0.5, 1.0, 0.5, 1.0] * 10, MARGIN)
    down = counterfactual.paired_effect([-0.5, -1.0, -0.5, -1.0] * 10, MARGIN)
    assert (up["direction"], up["games_needed"]) == ("positive", None)
    assert (down["direction"], down["games_needed"]) == ("negative", None)
    assert up["low"] > 0 and down["high"] < 0


def test_no_difference_at_all_is_an_interval_of_zero_width_that_covers_0():
    effect = counterfactual.paired_effect([0.0] * 20, MARGIN)
    assert (effect["effect"], effect["low"], effect["high"], effect["direction"]) == (0.0, 0.0, 0.0, "covers 0")
    assert effect["games_needed"] is None  # no spread: nothing more to learn
    assert counterfactual.paired_effect([], MARGIN)["direction"] is None


@pytest.mark.parametrize(
    ("picker", "forced", "flag"),
    [
        ((0.05, 0.15), "covers 0", "picked by leaders"),
        ((0.05, 0.15), "negative", "picked by leaders"),
        ((-0.15, -0.05), "covers 0", "picked by trailers"),
        ((-0.15, -0.05), "positive", "picked by trailers"),
        ((-0.05, 0.05), "positive", "underrated"),
        ((-0.05, 0.05), "negative", None),  # the forcing's own cost, not a disagreement
        ((0.05, 0.15), "positive", None),
        ((-0.05, 0.05), "covers 0", None),
    ],
)
def test_the_flag_names_where_the_picker_advantage_and_the_forced_effect_disagree(picker, forced, flag):
    low, high = picker
    found = counterfactual.agreement({"difference": (low + high) / 2, "low": low, "high": high}, {"direction": forced})
    assert found["flag"] == flag
    assert (found["text"] is None) == (flag is None)
    assert counterfactual.agreement(None, {"direction": forced})["flag"] is None


# -- the arms ----------------------------------------------------------------------------------


def test_a_forced_seat_picks_the_crew_whenever_it_is_free_and_otherwise_its_bot_decides():
    ruleset = load_ruleset("draft7")
    game = game_of(ruleset)
    state = game.new_state(players=4, seed=3)
    free = [game.crew_ids[card] for slot, card in enumerate(state.crew)
            if any(act.kind == PICK_CREW and act.target == slot for act in state.legal)]
    absent = next(card.id for card in ruleset.crew if card.id not in {game.crew_ids[c] for c in state.crew})
    bot = ForcedCrewBot(make_bot("greedy", 1), free[-1])
    act = bot.choose(game, state)
    assert game.crew_ids[state.crew[act.target]] == free[-1] and bot.taken == 1
    assert forced_pick(game, state, absent) is None  # not in play: the bot decides
    assert ForcedCrewBot(make_bot("greedy", 1), absent).choose(game, state) == make_bot("greedy", 1).choose(game, state)


def test_a_forced_arm_is_the_run_where_the_forcing_changed_no_pick():
    ruleset = load_ruleset("draft7")
    entries = plan(16, 4, seed=5)
    lineup = ("greedy",) * 4
    run = play_games(ruleset, entries, lineup)
    arm = play_forced(ruleset, entries, lineup, "navigator")
    assert [forced_seat(entry) for entry in entries[:4]] == [0, 1, 2, 3]
    unchanged = [(a, b) for a, b in zip(run, arm, strict=True) if a["picks"] == b["picks"]]
    assert unchanged and len(unchanged) < len(run)
    for a, b in unchanged:
        assert a["score_sheet"] == b["score_sheet"] and a["record"]["actions"] == b["record"]["actions"]
    figures = counterfactual.forced_figures(run, arm, "navigator", [forced_seat(e) for e in entries], margin=MARGIN)
    assert figures["games_changed"] == len(run) - len(unchanged)
    expected = [win_credit(b, forced_seat(e)) - win_credit(a, forced_seat(e)) for a, b, e in zip(run, arm, entries, strict=True)]
    assert figures["forced"]["effect"] == pytest.approx(sum(expected) / len(expected))


def test_a_card_left_out_is_gone_from_the_ruleset_and_every_deal():
    ruleset = load_ruleset("draft7")
    without = ruleset_without(ruleset, "lava-1")
    assert "lava-1" not in {card.id for card in without.planets} and len(without.planets) == len(ruleset.planets) - 1
    arm = play_left_out(ruleset, plan(8, 4), ("random",) * 4, "engineer")
    assert arm.why is None and len(arm.lines) == 8
    assert all("engineer" not in line["setup"]["crew"] for line in arm.lines)
    with pytest.raises(KeyError):
        ruleset_without(ruleset, "nobody")


def test_a_card_whose_absence_leaves_no_deal_is_said_not_played(tmp_path):
    folder = copy_ruleset(tmp_path, "base")
    replace(folder, "rules.yaml", "players: 4, planets: 7, crew: 5", "players: 4, planets: 7, crew: 11")
    ruleset = load_ruleset(folder)
    arm = play_left_out(ruleset, plan(4, 4), ("random",) * 4, "geologist")
    assert arm.lines == [] and arm.ruleset is None
    assert arm.why is not None and arm.why.startswith(("the deal cannot be made without it", "the ruleset without it is not valid"))


# -- the worked test: a stronger crew and a crew without a skill -------------------------------


def _stronger_historian(tmp_path):
    folder = copy_ruleset(tmp_path, "base")
    text = (folder / "crew.yaml").read_text(encoding="utf-8")
    text = text.replace("survey_count: 3,", "survey_count: 2,")
    text = re.sub(r"(\{id: historian,.*?survey_count: )2,", r"\g<1>4,", text)
    (folder / "crew.yaml").write_text(text, encoding="utf-8")
    replace(folder, "rules.yaml", "  free_cube_vp: 1\n  player_cube_vp: 2", "  free_cube_vp: 0\n  player_cube_vp: 0")
    return load_ruleset(folder)


def test_a_crew_with_two_more_surveys_is_worth_taking_and_a_crew_without_a_skill_is_not(tmp_path):
    ruleset = _stronger_historian(tmp_path)
    counts = {card.id: (card.survey_count, len(card.skill)) for card in ruleset.crew}
    assert counts["historian"] == (4, 0) and counts["geologist"] == (2, 0) and counts["engineer"] == (2, 0)
    entries = plan(400, 4, seed=0)
    lineup = ("random",) * 4
    run = play_games(ruleset, entries, lineup)
    seats = [forced_seat(entry) for entry in entries]
    historian = counterfactual.forced_figures(run, play_forced(ruleset, entries, lineup, "historian"), "historian", seats, margin=MARGIN)
    geologist = counterfactual.forced_figures(run, play_forced(ruleset, entries, lineup, "geologist"), "geologist", seats, margin=MARGIN)
    assert historian["forced"]["direction"] == "positive", historian
    assert historian["forced"]["low"] > 0.02  # clearly: more than two points
    assert geologist["forced"]["direction"] == "covers 0", geologist
    assert geologist["games_taken"] > 150  # dealt in about 5 of 11 deals, taken there: the arm is not the run again


# -- the command -------------------------------------------------------------------------------


@pytest.mark.slow
def test_explain_writes_explain_json_by_its_schema_and_prints_both_tables(tmp_path, capsys):
    out = tmp_path / "explain"
    status = main(["explain", "--rules", "draft7", "--games", "24", "--bots", "random", "--cards", "engineer,lava-1",
                   "--out", str(out), "--cache", str(tmp_path / "cache")])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    doc = json.loads((out / "explain.json").read_text(encoding="utf-8"))
    schema = json.loads((schemas_dir() / "explain.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema, registry=jsonio.schema_registry()).validate(doc)
    assert jsonio.schema_problems("explain", doc) == []
    assert [row["crew"] for row in doc["crew"]] == ["engineer"]
    assert [(row["card"], row["kind"]) for row in doc["left_out"]] == [("engineer", "crew"), ("lava-1", "planet")]
    assert doc["crew"][0]["forced"]["games"] == doc["arm_games"] == 24
    summary_advantage = doc["crew"][0]["picker_advantage"]
    assert set(summary_advantage) == {"difference", "low", "high"}
    assert captured.out.startswith("draft7, 4 players, random bots: what each card is worth\n! these are random bots; "
                                   "compare plays strong bots (mcts:200) by default, so its figures differ: "
                                   "--bots mcts:200 plays as compare does\n")
    assert "A seat that takes Engineer whenever it is free wins " in captured.out
    assert len(captured.out.splitlines()) <= 25 and said_once(captured.out) == []
    assert "3 of 3 replays done" in captured.err
    page = (out / "explain.html").read_text(encoding="utf-8")
    assert page.count("<table") == 3 and "Each seat without the card" in page


def _crew_row(crew: str, effect: float, low: float, high: float, picker: tuple, flag=None, text=None, needed=None,
              vp=None) -> dict:
    return {"crew": crew, "forced": {"effect": effect, "low": low, "high": high, "games": 800, "games_needed": needed,
                                     "direction": "covers 0" if low < 0 < high else "positive" if low > 0 else "negative"},
            "picker_advantage": dict(zip(("difference", "low", "high"), picker)),
            "agreement": {"flag": flag, "text": text}, "games_taken": 700, "picker_vp": vp}


def _sheet(seat: int, majority: int, bonus: int, play: int) -> dict:
    return {"seat": seat, "majority_vp": majority, "bonus_vp": bonus, "play_vp": play,
            "total": majority + bonus + play}


def test_the_pickers_vp_are_told_apart_by_source():
    """Two games with the Engineer dealt: its pickers (seat 0, then seat 2) score 6 VP more from
    majority, 1 more from the bonus and 1 fewer in play than the other seats of those games; the
    game it was not dealt in counts for nobody."""
    def game(crew: list, picker: int, sheets: list) -> dict:
        return {"setup": {"crew": crew}, "picks": [{"seat": picker, "crew": "engineer"}, {"seat": 1, "crew": "pilot"}],
                "score_sheet": {"seats": sheets}}

    games = [
        game(["engineer", "pilot"], 0, [_sheet(0, 20, 4, 2), _sheet(1, 14, 3, 3), _sheet(2, 14, 3, 3)]),
        game(["engineer", "pilot"], 2, [_sheet(0, 12, 2, 4), _sheet(1, 12, 2, 4), _sheet(2, 18, 3, 3)]),
        game(["pilot"], 0, [_sheet(0, 50, 9, 9), _sheet(1, 0, 0, 0), _sheet(2, 0, 0, 0)]),
    ]
    vp = counterfactual.picker_vp(games, "engineer")
    assert vp["games"] == 2 and vp["largest"] == "majority"
    assert vp["pickers"] == {"majority": 19.0, "bonus": 3.5, "play": 2.5}
    assert vp["others"] == {"majority": 13.0, "bonus": 2.5, "play": 3.5}
    assert vp["difference"] == {"majority": 6.0, "bonus": 1.0, "play": -1.0}
    # a crew every seat picked, or none did, has no others to set its pickers beside
    assert counterfactual.picker_vp(games, "navigator") is None
    # Captain Armstrong is in play in every game, dealt or not
    assert counterfactual.picker_vp(games[2:], "engineer", always_in_play=True)["games"] == 1


def test_the_brief_of_explain_says_why_the_picker_advantage_differs_and_what_to_try():
    """The Engineer's pickers win 20.2 points more, yet taking it wins only 3.8 more: the brief says
    that its pickers are those already ahead; the card whose absence helps the targets is the lead."""
    doc = {
        "run": {"ruleset": {"name": "draft7"}, "players": 4, "lineup": ["greedy"] * 4, "games": 800},
        "arm_games": 800, "confidence": 0.95,
        "names": {"crew": {"engineer": {"en": "Engineer"}, "pilot": {"en": "Pilot"}, "mechanic": {"en": "Mechanic"}},
                  "planets": {"lava-1": {"en": "Lava 1"}}},
        "crew": [
            _crew_row("engineer", 0.038, -0.011, 0.087, (0.202, 0.15, 0.25), "picked by leaders",
                      "its pickers win more, but taking it wins no more", needed=2900,
                      vp={"games": 800, "largest": "majority", "difference": {"majority": 4.1, "bonus": 0.3, "play": -0.6},
                          "pickers": {"majority": 27.0, "bonus": 6.3, "play": 2.1},
                          "others": {"majority": 22.9, "bonus": 6.0, "play": 2.7}}),
            _crew_row("pilot", -0.051, -0.08, -0.022, (-0.04, -0.09, 0.01)),
            _crew_row("mechanic", 0.012, -0.02, 0.044, (0.01, -0.03, 0.05), needed=5400),
        ],
        "left_out": [{"card": "lava-1", "kind": "planet", "why": None, "seats": [], "targets": {"decision": "better"}}],
    }
    text = explain_brief(doc, rules="drafts/draft8", compared_lineup="mcts:200").text()
    assert text == (
        "draft7, 4 players, greedy bots: what each card is worth\n"
        "! these are greedy bots; compare plays strong bots (mcts:200) by default, so its figures differ: "
        "--bots mcts:200 plays as compare does\n"
        "\n"
        "The answer: Pilot is worth the least of the crews explained.\n"
        "\n"
        "What matters most:\n"
        "  - A seat that takes Pilot whenever it is free wins 5.1 points less often.\n"
        "  - A seat that takes Engineer whenever it is free wins 3.8 points more often (not yet sure); yet its pickers "
        "win more, but taking it wins no more: the players who choose it are those already ahead, so the crew follows "
        "the winners rather than making them; its pickers score 4.1 VP more from majority than the others.\n"
        "  - A seat that takes Mechanic whenever it is free wins 1.2 points more often (not yet sure).\n"
        "\n"
        "What to try next:\n"
        "  - Without Lava 1 the game does better on your targets: try a draft without it.\n"
        "      stargazer new-draft draft-without-lava-1 --from drafts/draft8\n"
        "\n"
        "How sure: 800 games, and each card's replays of its games dealt alike. More games would decide Engineer: "
        "about 2,900 games (--games).")
    assert said_once(text) == [] and "picker advantage" not in text
    # a VP figure the brief already said is left to the page; the source is still said
    doc["crew"][0]["picker_vp"]["difference"]["majority"] = 5.1
    text = explain_brief(doc, rules="drafts/draft8").text()
    assert "making them; its pickers score more VP from majority than the others.\n" in text
    assert said_once(text) == []
    run = {**doc["run"], "ruleset": {"name": "draft7", "fingerprint": "0" * 64}, "seed": 0, "engine": "native"}
    page = render_explain({**doc, "run": run, "left_out": []})
    assert "majority +5.1, bonus +0.3, play -0.6" in page
    assert "its pickers score 5.1 VP more from majority than the others.</li>" in page


def test_explain_refuses_a_card_the_ruleset_does_not_have(tmp_path, capsys):
    status = main(["explain", "--rules", "draft7", "--cards", "enginer", "--out", str(tmp_path / "x")])
    assert status == 2
    assert "enginer" in capsys.readouterr().err


def test_explain_refuses_several_lineups_before_playing(tmp_path, capsys):
    """Its arms pair with one run's games: two lineups are refused in one line, nothing written."""
    status = main(["explain", "--rules", "draft7", "--bots", "greedy;random", "--out", str(tmp_path / "x")])
    assert status == 2
    assert "plays one lineup at one player count; --bots gives 2 variants" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_the_document_is_the_same_on_any_number_of_workers():
    ruleset = load_ruleset("draft7")
    entries = plan(16, 4, seed=2)
    lineup = ("random",) * 4
    run = play_games(ruleset, entries, lineup)
    options = {"seed": 2, "arm_games": 8, "crews": ["pilot"], "planets": ["lava-1"]}
    alone = explain_run(ruleset, run, lineup, Targets.default(), workers=1, **options)
    shared = explain_run(ruleset, run, lineup, Targets.default(), workers=2, **options)
    assert alone == shared
    assert alone["arm_games"] == 8 and alone["run"]["games"] == 16
    assert [row["card"] for row in alone["left_out"]] == ["pilot", "lava-1"]


def test_an_arm_is_read_only_against_the_run_games_of_its_deals():
    ruleset = load_ruleset("draft7")
    run = play_games(ruleset, plan(8, 4, seed=0), ("random",) * 4)
    other = play_games(ruleset, plan(8, 4, seed=9), ("random",) * 4)
    with pytest.raises(ValueError, match="no game of the run on its deal"):
        counterfactual.forced_figures(run, other, "pilot", [0, 1, 2, 3] * 2, margin=MARGIN)
