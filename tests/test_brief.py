"""The brief compare prints (issue #36 item 1; docs/simulation.md, "The brief"): the answer in one
sentence, the three largest changes in the designer's units, the strongest lead with its command,
and how sure, each figure said once. Crafted comparisons: no game is played here but in the last
test, a few random games."""

from __future__ import annotations

import pytest

from stargazer_rules.analysis.brief import bots_in_words, comparison_brief, lineup_text, said_once, short_spec
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.frontends import cli

MCTS = "mcts:c=0.7,depth=16,iterations=200,prior=3,rollout=full,scale=4.0"
DEFAULTS = {"explain": "greedy", "tune": "mcts:200"}


def _row(key: str, label: str, decision: str, a: tuple, b: tuple, *, goal: str, weight: float = 1.0,
         needed: int | None = None, margin: float = 0.02) -> dict:
    def side(found: tuple) -> dict:
        worst, shown, value, shortfall = found
        return {"worst": worst and worst.lower(), "worst_label": worst, "shown": shown, "value": value,
                "shortfall": shortfall}

    return {"key": key, "measure": key, "label": label, "weight": weight, "decision": decision, "compared": True,
            "goal_text": goal, "a": side(a), "b": side(b), "games_needed": needed, "margin": margin, "games": 1800}


def _metric(ident: str, label: str, kind: str, a: float, b: float, low: float, high: float) -> dict:
    return {"id": ident, "label": label, "kind": kind, "a": {"value": a}, "b": {"value": b},
            "difference": b - a, "low": low, "high": high, "significant": low > 0 or high < 0}


def _comparison(rows: list[dict], metrics: list[dict], warnings: tuple = ()) -> dict:
    run = {"players": 4, "bots": [MCTS], "targets": Targets.default().to_json()}
    return {"confidence": 0.95, "a": {"label": "draft7"}, "b": {"label": "draft8", "run": run},
            "verdict": {"targets": rows, "games": 1800}, "metrics": metrics, "warnings": list(warnings)}


#: The issue's case: draft 8 fixes the seat balance and makes the Historian a must-pick.
FIXED_SEATS_MUST_PICK = _comparison(
    [
        _row("seat_win_share", "Seat win share", "better", ("Seat 4", "32.5%", 0.325, 0.045),
             ("Seat 1", "27.0%", 0.27, 0.0), goal="within ±3 points of 25.0%"),
        _row("seat_balance", "Seat balance", "inconclusive", (None, "88.0%", 0.88, 0.02),
             (None, "91.0%", 0.91, 0.0), goal="at least 90%", needed=2400),
        _row("crew_first_pick", "Crew picked first", "worse", ("Navigator", "41.0%", 0.41, 0.0),
             ("Historian", "86.0%", 0.86, 0.36), goal="at most 50%"),
        _row("crew_picker_advantage", "Crew pickers' extra wins", "inconclusive",
             ("Engineer", "+19.7 points", 0.197, 0.097), ("Engineer", "+18.2 points", 0.182, 0.082),
             goal="within ±10 points of 0", needed=5100),
        _row("tie_rate", "Tie rate", "equivalent", (None, "4.5%", 0.045, 0.0), (None, "3.0%", 0.03, 0.0),
             goal="at most 10%"),
        _row("game_rounds", "Rounds per game", "equivalent", (None, "3.85 rounds", 3.85, 0.0),
             (None, "3.69 rounds", 3.69, 0.0), goal="between 3 and 9 rounds", weight=0.0),
    ],
    [
        _metric("seats.4.win_share", "Seat 4 win share", "rate", 0.325, 0.262, -0.09, -0.036),
        _metric("seats.balance", "Seat balance", "number", 0.88, 0.91, 0.01, 0.05),
        _metric("crew.historian.picked_first", "Historian: picked first", "rate", 0.392, 0.86, 0.41, 0.51),
        _metric("crew.historian.picked", "Historian: picked", "rate", 0.882, 0.991, 0.083, 0.138),
        _metric("pace.rounds", "Rounds per game", "mean", 3.85, 3.69, -0.22, -0.117),
        _metric("scores.total", "Mean final score", "mean", 34.4, 34.3, -0.4, 0.3),
    ],
)


def test_the_brief_of_a_fixed_seat_balance_with_a_new_must_pick_crew():
    text = comparison_brief(FIXED_SEATS_MUST_PICK, rules_b="drafts/draft8", lineup=[MCTS], defaults=DEFAULTS).text()
    assert text == (
        "draft8 against draft7, 4 players, strong bots (mcts:200)\n"
        "\n"
        "The answer: Mixed: draft8 is better than draft7 on seat win share (furthest from the goal: Seat 4 in "
        "draft7, Seat 1 in draft8), but worse on crew picked first (furthest from the goal: Navigator in draft7, "
        "Historian in draft8), of 5 targets compared; of the others, 2 still open and 1 the same in both.\n"
        "\n"
        "What changed most:\n"
        "  - How often Historian is picked first went from 39.2% in draft7 to 86.0% in draft8, up 46.8 points.\n"
        "  - How often Historian is picked went from 88.2% in draft7 to 99.1% in draft8, up 10.9 points.\n"
        "  - Rounds per game went from 3.9 in draft7 to 3.7 in draft8, down 0.2 rounds.\n"
        "\n"
        "What to try next:\n"
        "  - Historian is picked first too often (goal: at most 50%).\n"
        "      stargazer explain --rules drafts/draft8 --players 4 --cards historian --bots mcts:200\n"
        "\n"
        "How sure: 1,800 games of each draft, dealt alike. More games would decide the gap between the best and the "
        "worst seat: about 2,400 games of each (1 other open target needs more).")
    assert len(text.splitlines()) <= 25 and said_once(text) == []


def test_the_answer_names_one_subject_once_when_it_is_the_same_in_both_drafts():
    row = _row("crew_first_pick", "Crew picked first", "worse", ("Historian", "41.0%", 0.41, 0.0),
               ("Historian", "86.0%", 0.86, 0.36), goal="at most 50%")
    text = comparison_brief(_comparison([row], [])).text()
    assert "The answer: No: draft8 is worse than draft7 on crew picked first (Historian in both), and better on " \
           "none of 1 target compared." in text
    assert "  - nothing measurable at these games" in text
    assert "How sure: 1,800 games of each draft, dealt alike. Every target compared is decided at these games." in text


def test_a_seat_that_wins_too_often_leads_to_tune_and_no_statistics_words_reach_the_terminal():
    row = _row("seat_win_share", "Seat win share", "inconclusive", ("Seat 4", "32.5%", 0.325, 0.045),
               ("Seat 4", "31.0%", 0.31, 0.03), goal="within ±3 points of 25.0%", needed=3426)
    balance = _row("seat_balance", "Seat balance", "inconclusive", (None, "80.0%", 0.8, 0.1),
                   (None, "89.0%", 0.89, 0.01), goal="at least 90%", needed=9000)
    text = comparison_brief(_comparison([row, balance], []), rules_b="draft8", lineup=["greedy"] * 4,
                            defaults=DEFAULTS).text()
    assert "The answer: Not yet: no target is better or worse in draft8 than in draft7 at these games " \
           "(2 still open, of 2 targets compared)." in text
    assert "  - Seat 4 wins too often (goal: within ±3 points of 25.0%).\n" \
           "      stargazer tune draft8 --players 4 --bots greedy" in text
    assert "More games would decide seat win share: about 3,426 games of each (1 other open target needs more)." in text
    balance["b"]["shortfall"] = 0.08
    text = comparison_brief(_comparison([row, balance], []), rules_b="draft8").text()
    assert "  - The best seat wins far more often than the worst (goal: at least 90%).\n" \
           "      stargazer tune draft8 --players 4 --bots mcts:200" in text
    for word in ("Bonferroni", "Holm", "paired", "arm", "rung", "picker advantage", "seat balance", "mcts:c="):
        assert word not in text


@pytest.mark.parametrize(("specs", "words", "typed"), [
    ([MCTS] * 4, "strong bots (mcts:200)", "mcts:200"),
    (["mcts:iterations=50"] + ["greedy"] * 3, "quick bots (mcts:50) and greedy bots", "mcts:50/greedy/greedy/greedy"),
    (["random"] * 3, "random bots", "random"),
    (["mcts:iterations=200,c=1.2"], "strong bots (mcts:200,c=1.2)", "mcts:200,c=1.2"),
])
def test_bots_are_named_for_people_and_as_typed(specs, words, typed):
    assert bots_in_words(specs) == words
    assert lineup_text(specs) == typed
    assert short_spec(MCTS) == "mcts:200"


def test_said_once_finds_a_figure_said_twice():
    assert said_once("Mean final score 6.6 -> 7.3, +6.6") == ["6.6"]
    assert said_once("seat 4 of 4 players, 1,800 games, 25.0% and 25.0%") == ["25.0%"]


def test_compare_prints_the_brief(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert cli.main(["compare", "draft7", "base", "--games", "8", "--bots", "random", "--workers", "1",
                     "--out", str(out)]) == 0
    text = capsys.readouterr().out
    brief, _, written = text.partition("\n\nEvery figure: ")
    assert brief.startswith("base against draft7, 4 players, random bots\n\nThe answer: ")
    assert "\nHow sure: 8 games of each draft, dealt alike." in brief
    assert len(brief.splitlines()) <= 25 and said_once(brief) == []
    assert written.startswith(f"{out / 'comparison.html'} and {out / 'comparison.json'}; each ruleset's report in ")
