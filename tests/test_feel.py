"""How a game feels (analysis/feel.py): each figure on hand-built games whose value is known,
and every figure in its range on random games played by the runner."""

from __future__ import annotations

import math
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import simulated_games
from hypothesis import given
from hypothesis import strategies as st
from strategies import BUNDLED, Playout, playouts

from stargazer_rules.analysis import stats, summarize, view_of
from stargazer_rules.analysis.feel import (
    FEEL_FIGURES,
    feel_figures,
    leaders,
    trajectory,
)
from stargazer_rules.analysis.plain_json import plain
from stargazer_rules.analysis.summary_view import Distribution, Feel, Rate
from stargazer_rules.simulation import PlanEntry, play_game

DOCS = Path(__file__).resolve().parent.parent / "docs" / "simulation.md"


def line(
    score_by_round: Sequence[Sequence[int]],
    winners: Sequence[int],
    *,
    decisions: int | None = None,
    options: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The fields of a games.jsonl line the figures read: one pick per turn, every seat a turn a round."""
    players, rounds = len(score_by_round[0]), len(score_by_round)
    picks = [{"round": r + 1, "order": p + 1, "seat": p} for r in range(rounds) for p in range(players)]
    options = [2] * len(picks) if options is None else list(options)
    return {
        "players": players,
        "rounds": rounds,
        "score_by_round": [list(totals) for totals in score_by_round],
        "winners": list(winners),
        "picks": picks,
        "decisions": len(options) if decisions is None else decisions,
        "options": options,
    }


def test_the_figures_are_those_of_FEEL_FIGURES_in_its_order() -> None:
    """One home for the keys: the figures, their labels and definitions come in one order."""
    keys = [figure.key for figure in FEEL_FIGURES]
    assert keys == ["lead_changes", "drama", "winner_trailed", "decisiveness", "stability", "comeback",
                    "tie", "rounds", "decisions", "decisions_per_turn", "branching"]
    assert list(feel_figures(line([[1, 0]], [0]))) == keys
    assert [figure.key for figure in FEEL_FIGURES if figure.kind == "rate"] == ["comeback", "tie"]
    assert all(figure.label and figure.definition.endswith(".") for figure in FEEL_FIGURES)


def test_standings_are_shares_of_the_provisional_totals_and_even_while_nobody_scored() -> None:
    assert trajectory(line([[0, 0, 0], [2, 1, 1], [6, 0, 2]], [0])) == [
        [1 / 3, 1 / 3, 1 / 3], [0.5, 0.25, 0.25], [0.75, 0.0, 0.25]]



def test_standings_count_totals_below_zero_from_the_lowest() -> None:
    """Accidents that cost VP (majority.accident_vp) put totals below 0: (-2, 0, 2) reads as
    (0, 2, 4), and (-2, -2) as even."""
    assert trajectory(line([[-2, 0, 2], [-1, -1, 0]], [2])) == [[0.0, 1 / 3, 2 / 3], [0.0, 0.0, 1.0]]
    assert trajectory(line([[-2, -2]], [0])) == [[0.5, 0.5]]

def test_a_game_led_from_the_first_round_has_no_drama_and_is_decided_at_round_one() -> None:
    """Seat 0 leads every round: no lead change, never behind, decided after round 1 of 3."""
    figures = feel_figures(line([[1, 0], [3, 1], [6, 2]], [0]))
    assert figures["lead_changes"] == 0
    assert figures["drama"] == 0.0
    assert figures["winner_trailed"] == 0.0
    assert figures["decisiveness"] == pytest.approx(1 / 3)
    assert figures["comeback"] == 0.0
    assert figures["tie"] == 0.0
    # standings (1, 0), (3/4, 1/4), (3/4, 1/4): each seat moves 1/4 then 0
    assert figures["stability"] == pytest.approx(0.125)


def test_a_lead_that_changes_every_round() -> None:
    """Seats 0 and 1 swap the lead each round; seat 1 wins, behind in rounds 1 and 3."""
    figures = feel_figures(line([[2, 1], [2, 3], [5, 3], [5, 7]], [1]))
    assert figures["lead_changes"] == 3
    assert figures["winner_trailed"] == 0.5
    # round 1: 2/3 - 1/3; round 3: 5/8 - 3/8
    assert figures["drama"] == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert figures["decisiveness"] == 1.0
    assert figures["comeback"] == 0.0  # it led after round 2, the middle of 4


def test_a_comeback_from_behind_at_the_middle_round() -> None:
    """Seat 1 trails after rounds 1 and 2 (the middle of 3) and wins: a comeback decided at the end."""
    figures = feel_figures(line([[4, 0], [4, 1], [4, 6]], [1]))
    assert figures["comeback"] == 1.0
    assert figures["lead_changes"] == 1
    assert figures["winner_trailed"] == pytest.approx(2 / 3)
    assert figures["drama"] == pytest.approx((1.0 + 0.6) / 2)
    assert figures["decisiveness"] == 1.0


def test_a_shared_win_has_no_eventual_winner_to_follow() -> None:
    """R18: with the win shared, the winner's figures are None and the game is a tie."""
    figures = feel_figures(line([[1, 1], [2, 2]], [0, 1]))
    assert {key: figures[key] for key in ("drama", "winner_trailed", "decisiveness", "comeback")} == dict.fromkeys(
        ("drama", "winner_trailed", "decisiveness", "comeback"))
    assert figures["tie"] == 1.0
    assert figures["lead_changes"] == 0
    assert leaders(line([[1, 1], [2, 2]], [0, 1])) == [None, None]


def test_a_tie_on_totals_broken_by_cubes_in_hand_is_decided_only_by_the_final_result() -> None:
    """R18: seat 1 draws level in the last round and wins on cubes: it leads only after the last
    round, so the game is decided at 1.0; the lead changes count the totals alone (none)."""
    game = line([[3, 1], [4, 4]], [1])
    assert leaders(game) == [0, 1]
    figures = feel_figures(game)
    assert figures["decisiveness"] == 1.0
    assert figures["winner_trailed"] == 0.5
    assert figures["drama"] == 0.5
    assert figures["comeback"] == 1.0  # behind after round 1, the middle of 2
    assert figures["lead_changes"] == 0


def test_a_round_tied_at_the_top_has_no_leader_and_the_winner_was_not_behind_in_it() -> None:
    """Tied with seat 1 after round 1, seat 0 was not leading (winner not leading 1/2) but not
    behind either: the round adds 0 to drama."""
    game = line([[2, 2], [3, 1]], [0])
    assert leaders(game) == [None, 0]
    figures = feel_figures(game)
    assert figures["winner_trailed"] == 0.5
    assert figures["drama"] == 0.0
    assert figures["decisiveness"] == 1.0


def test_a_one_round_game_has_no_swing() -> None:
    figures = feel_figures(line([[3, 1, 0]], [0]))
    assert figures["stability"] is None
    assert figures["decisiveness"] == 1.0
    assert figures["comeback"] == 0.0


def test_pace_per_turn_and_options_per_decision() -> None:
    """Two rounds of two seats are four turns (one pick each, R5); twelve decisions make three a turn."""
    figures = feel_figures(line([[1, 0], [2, 0]], [0], decisions=12, options=[1, 2, 3, 6]))
    assert figures["rounds"] == 2
    assert figures["decisions"] == 12
    assert figures["decisions_per_turn"] == 3.0
    assert figures["branching"] == 3.0
    assert feel_figures(line([[1, 0]], [0], decisions=0, options=[]))["branching"] is None


# -- random games -----------------------------------------------------------------------------


def _played(playout: Playout) -> dict[str, Any]:
    """The games.jsonl line the runner writes for the playout's deal, random bots in every seat."""
    entry = PlanEntry(0, 0, 0, playout.deal_seed, playout.players)
    return play_game(playout.game, entry, ["random"] * playout.players)


@pytest.mark.slow
@given(data=st.data())
def test_every_figure_of_a_played_game_lies_in_its_range(data: st.DataObject) -> None:
    """Standings sum to 1 each round; shares lie in [0, 1], the round the game was decided in
    (0, 1]; a winner leads after the last round; pace figures agree with the line."""
    source = data.draw(st.sampled_from((*BUNDLED, "generated")), label="source")
    game = _played(data.draw(playouts(source), label="playout"))
    rows = trajectory(game)
    assert len(rows) == game["rounds"] == len(game["score_by_round"])
    assert all(math.isclose(math.fsum(row), 1.0) and all(0 <= share <= 1 for share in row) for row in rows)
    figures = feel_figures(game)
    assert list(figures) == [figure.key for figure in FEEL_FIGURES]
    assert 0 <= figures["lead_changes"] <= game["rounds"] - 1
    sole = len(game["winners"]) == 1
    assert leaders(game)[-1] == (game["winners"][0] if sole else None)
    for key in ("drama", "winner_trailed", "comeback"):
        assert (figures[key] is not None) == sole and (figures[key] is None or 0 <= figures[key] <= 1), key
    assert figures["decisiveness"] is None if not sole else 0 < figures["decisiveness"] <= 1
    if sole:
        assert figures["winner_trailed"] <= 1 - 1 / game["rounds"]
        assert figures["decisiveness"] * game["rounds"] == pytest.approx(round(figures["decisiveness"] * game["rounds"]))
    assert (figures["stability"] is None) == (game["rounds"] == 1)
    assert figures["stability"] is None or 0 <= figures["stability"] <= 1
    assert figures["tie"] == float(not sole)
    assert figures["decisions_per_turn"] == game["decisions"] / (game["rounds"] * game["players"])
    assert figures["branching"] is None or 1 <= figures["branching"] <= max(game["options"])


# -- the summary's feel section ---------------------------------------------------------------


@pytest.fixture(scope="module")
def games_with_a_shared_win() -> list[dict[str, Any]]:
    """Eight random games of draft7, the first made a win shared by seats 0 and 1 (R18)."""
    games = simulated_games.run(lineup=("random",) * 4, blocks=2)
    first = games[0]
    best = max(first["score_by_round"][-1])
    first["score_by_round"][-1][0] = first["score_by_round"][-1][1] = best
    first["winners"] = [0, 1]
    return games


def test_the_summary_gives_each_figure_over_the_games_that_have_it(games_with_a_shared_win) -> None:
    """The shared win counts for the ties and the pace, not for the winner's figures."""
    games = games_with_a_shared_win
    feel = summarize(games)["feel"]
    per_game = [feel_figures(game) for game in games]
    assert feel["games"] == 8
    assert feel["tie"] == plain(stats.rate(1, 8))
    assert feel["drama"]["n"] == feel["winner_trailed"]["n"] == feel["decisiveness"]["n"] == 7
    assert feel["comeback"]["n"] == 7
    assert feel["comeback"]["count"] == sum(1 for figures in per_game[1:] if figures["comeback"])
    assert feel["lead_changes"]["n"] == feel["rounds"]["n"] == feel["branching"]["n"] == 8
    assert feel["drama"]["mean"] == pytest.approx(math.fsum(f["drama"] for f in per_game[1:]) / 7, abs=1e-6)
    assert feel["decisions_per_turn"]["max"] == pytest.approx(
        max(game["decisions"] / len(game["picks"]) for game in games), abs=1e-6)


def test_the_mean_trajectory_follows_the_winners_and_leaders_of_games_won_alone(games_with_a_shared_win) -> None:
    """Round r: over the games won alone lasting r rounds, the winner's and the best standing."""
    games = games_with_a_shared_win
    trajectory_rows = summarize(games)["feel"]["trajectory"]
    alone = games[1:]
    assert [row["round"] for row in trajectory_rows] == list(range(1, max(g["rounds"] for g in alone) + 1))
    for row in trajectory_rows:
        lasting = [game for game in alone if game["rounds"] >= row["round"]]
        standings = [[total / sum(totals) for total in totals]
                     for totals in (game["score_by_round"][row["round"] - 1] for game in lasting)]
        assert row["n"] == len(lasting)
        assert row["winner_mean"] == pytest.approx(
            math.fsum(s[g["winners"][0]] for s, g in zip(standings, lasting)) / len(lasting), abs=1e-6)
        assert row["leader_mean"] == pytest.approx(math.fsum(max(s) for s in standings) / len(lasting), abs=1e-6)
        assert row["leader_mean"] >= row["winner_mean"]


def test_the_summary_view_reads_every_figure_by_its_key(games_with_a_shared_win) -> None:
    """The view's Feel has a field per figure of FEEL_FIGURES, rates for the yes-or-no ones."""
    view = view_of(summarize(games_with_a_shared_win))
    figure_fields = [name for name in typing.get_type_hints(Feel) if name not in ("games", "trajectory")]
    assert figure_fields == [figure.key for figure in FEEL_FIGURES]
    for figure in FEEL_FIGURES:
        assert isinstance(view.feel.figure(figure.key), Rate if figure.kind == "rate" else Distribution), figure.key
    with pytest.raises(ValueError, match=r"^no feel figure 'dramas': the figures are lead_changes, drama, "):
        view.feel.figure("dramas")


def test_the_docs_table_gives_the_words_of_FEEL_FIGURES() -> None:
    """docs/simulation.md, "How the game feels": one row per figure with its label and definition."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("\n### How the game feels\n")
    section = text[start : text.index("\n#", start + 1)]
    rows = [[cell.strip() for cell in row.strip().strip("|").split("|")]
            for row in section.splitlines() if row.startswith("| `")]
    assert [row[:3] for row in rows] == [[f"`{f.key}`", f.label, f.definition] for f in FEEL_FIGURES]


def test_the_trajectory_carries_the_searchs_value_of_the_winner_where_a_search_played():
    """value_by_round (the last search decision's root values of each round) gives the mean value
    of the eventual winner per round, over the games that have one; none without a search."""
    from stargazer_rules.analysis.summary import _mean_trajectory

    plain_game = line([[1, 0, 0, 0], [3, 1, 0, 0]], [0])
    searched = {**line([[1, 0, 0, 0], [3, 1, 0, 0]], [0]), "value_by_round": [[0.6, 0.2, 0.1, 0.1], None]}
    rounds = _mean_trajectory([plain_game, searched])
    assert [(r["value_n"], r["winner_value_mean"]) for r in rounds] == [(1, 0.6), (0, None)]
    assert [r["n"] for r in rounds] == [2, 2]
