"""``stargazer rules`` and ``stargazer play-random``: what a designer reads, in both languages.

The commands are called in-process (``cli.main``) with pytest's ``capsys``. A game printed by
``play-random`` is replayed here with the same seed, so the printed score sheet is checked
against ``Game.score`` of the real final state.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from ruleset_edits import copy_ruleset, replace

from stargazer_rules import Game, load_ruleset
from stargazer_rules.engine.scoring import ScoreSheet, SeatScore
from stargazer_rules.formats import records
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.resources import bundled_ruleset_names
from stargazer_rules.text.messages import render_event
from stargazer_rules.text.reports import display_width, format_table, ruleset_report, winner_line, wrap_text

BUNDLED = bundled_ruleset_names()


@functools.cache
def game(name: str) -> Game:
    return Game(load_ruleset(name))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def final_state(name: str, players: int, seed: int):
    """The game ``play-random`` plays: dealt from ``seed``, moves uniform from Random(seed)."""
    g = game(name)
    state = g.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over(state):
        state = g.step(state, rng.choice(g.legal_actions(state)))
    return state


def row(out: str, heading: str) -> list[str]:
    """The cells of the score-sheet row that starts with ``heading``."""
    for line in out.splitlines():
        if line.strip().startswith(heading + "  "):
            return line.strip()[len(heading) :].split()
    raise AssertionError(f"no row {heading!r} in the output")


# -- stargazer rules ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_lists_every_planet_and_crew_by_name(capsys, name, lang):
    status, out, err = run(capsys, "rules", name, "--lang", lang)
    assert (status, err) == (0, "")
    ruleset = load_ruleset(name)
    for card in (*ruleset.planets, *ruleset.crew):
        assert card.name.in_lang(lang) in out, card.id
    assert ruleset.fingerprint[:12] in out.splitlines()[0]
    assert ruleset.title.in_lang(lang) in out.splitlines()[0]


def test_rules_marks_placeholders_with_a_footnote(capsys):
    """R20: every reconstructed card is marked, and the mark is explained."""
    _, out, _ = run(capsys, "rules", "draft7")
    assert "  lava-1*  " in out
    assert "  navigator*  " in out
    assert "  armstrong*  " in out  # R19 sets his survey count; the draft prints none
    assert "* placeholder (R20): a reconstructed value, for the designer to overwrite." in out
    _, out, _ = run(capsys, "rules", "draft7", "--lang", "ja")
    assert "  dark*  " in out
    assert "* 仮の値（R20）" in out


def test_rules_shows_counts_tracks_and_skills(capsys):
    _, out, _ = run(capsys, "rules")
    lines = out.splitlines()
    assert "  Cubes per player                     12" in lines
    assert "  Motivation bonus per player cube     2 VP" in lines
    assert "  Game end (at a round's end, any of)  a player has no cubes left or enough Planets are full" in lines  # R10
    assert "  Round limit                          30" in lines  # the sheet's table, drawn for the terminal
    assert "  Cards                                14 planets, 12 crew" in lines
    assert "        4        7           5          6                    4" in lines
    assert any(
        line.startswith(
            "  lava-1*        Lava 1          red           1  1:1 2:3 3:✗0 4:5 5:7 6:✗0"
        )
        for line in lines
    )
    assert any("diamond*" in line and "white         2" in line for line in lines)
    assert "Place 1 of your cubes on the special square of a Planet surveyed" in out
    assert "✗ an accident: a square worth 0 VP." in lines


def test_rules_in_japanese_aligns_wide_characters(capsys):
    _, out, _ = run(capsys, "rules", "--lang", "ja")
    planet_rows = [line for line in out.splitlines() if "惑星１  " in line or "惑星２  " in line]
    assert planet_rows
    columns = {display_width(line[: line.index("*") + 1]) for line in planet_rows}
    tracks = {display_width(line[: line.index("1:")]) for line in planet_rows}
    assert len(columns) > 1 and len(tracks) == 1  # ids differ in length, tracks line up


def test_rules_of_a_missing_ruleset_is_one_line_and_exit_1(capsys):
    status, out, err = run(capsys, "rules", "draft_7")
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith("stargazer rules: draft_7: ")
    assert "no such folder" in err
    assert "(did you mean 'draft7'?)" in err


def test_rules_of_an_invalid_ruleset_names_the_first_problem(tmp_path, capsys):
    folder = copy_ruleset(tmp_path, to="draft8")
    replace(
        folder,
        "crew.yaml",
        "        vp: 2\n        when: after_survey",
        "        vp: two\n        when: after_survey",
    )
    replace(folder, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 0")
    status, out, err = run(capsys, "rules", str(folder))
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith(f"stargazer rules: {folder}: 2 problems in the ruleset, the first: ")
    assert err.endswith(f"'stargazer validate {folder}' lists them all\n")


# -- stargazer play-random ----------------------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize("players", [3, 4])
def test_play_random_ends_with_the_score_sheet_of_the_final_state(capsys, name, players):
    seed = 40 + players
    status, out, err = run(
        capsys, "play-random", "--players", str(players), "--seed", str(seed), "--rules", name
    )
    assert (status, err) == (0, "")
    sheet = game(name).score(final_state(name, players, seed))
    assert sheet.final
    assert row(out, "Total") == [str(seat.total) for seat in sheet.seats]
    assert row(out, "Cubes in hand") == [str(seat.hand) for seat in sheet.seats]
    assert row(out, "VP during play") == [str(seat.play_vp) for seat in sheet.seats]
    assert row(out, "Majority") == [str(seat.majority_vp) for seat in sheet.seats]
    assert out.splitlines()[-1] == winner_line(sheet, "en")
    assert out.splitlines()[-1].startswith(("Winner: Player ", "Shared win: Player "))


def test_play_random_prints_setup_log_and_score_in_order(capsys):
    status, out, _ = run(capsys, "play-random", "--players", "4", "--seed", "7")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Stargazer draft 7 (draft7, fingerprint ")
    assert lines[0].endswith("): one random game, 4 players, seed 7")
    setup = game("draft7").deal(4, seed=7)
    ruleset = game("draft7").ruleset
    ring = [
        line.split()[0:2]
        for line in lines[lines.index("  Planets, in ring order (clockwise)") + 3 :][:7]
    ]
    assert [position for position, _ in ring] == [str(n) for n in range(1, 8)]
    ring_names = [
        line for line in lines if line.startswith("    ") and line.split()[0] in "1234567"
    ][:7]
    for planet_id, line in zip(setup.planets, ring_names, strict=True):
        assert ruleset.planet(planet_id).name.en in line
    assert f"  Start player: Player {setup.start_player + 1}" in lines
    headings = [lines.index(text) for text in ("Setup", "Game log", "  Round 1", "Final score")]
    assert headings == sorted(headings)
    assert f"    Turn 1: Player {setup.start_player + 1}" in lines
    assert any(line.startswith("    End of round 1") for line in lines)
    assert any(line.startswith("      The game ends after round ") for line in lines)


def test_every_event_is_one_line_in_the_log(capsys):
    """The log is every event of the game, in order, one line each, under the headings."""
    seed = 3
    g = game("draft7")
    state = g.new_state(players=3, seed=seed)
    rng = random.Random(seed)
    events = []
    while not g.is_over(state):
        state, new = g.apply(state, rng.choice(g.legal_actions(state)))
        events += new
    _, out, _ = run(capsys, "play-random", "--players", "3", "--seed", str(seed))
    lines = out.splitlines()
    log = lines[lines.index("Game log") + 1 : lines.index("Final score")]
    event_lines = [line[6:] for line in log if line.startswith("      ")]
    assert event_lines == [render_event(event, g.ruleset, "en") for event in events]
    headings = [line for line in log if line and not line.startswith("      ")]
    assert headings[:2] == [
        "  Round 1",
        f"    Turn 1: Player {g.deal(3, seed=seed).start_player + 1}",
    ]
    assert len([h for h in headings if h.startswith("  Round ")]) == state.round


def test_play_random_in_japanese(capsys):
    status, out, err = run(capsys, "play-random", "--players", "3", "--seed", "5", "--lang", "ja")
    assert (status, err) == (0, "")
    assert "準備" in out.splitlines()
    assert "  ラウンド1" in out.splitlines()
    assert "最終得点" in out.splitlines()
    sheet = game("draft7").score(final_state("draft7", 3, 5))
    assert row(out, "合計") == [str(seat.total) for seat in sheet.seats]
    assert out.splitlines()[-1] == winner_line(sheet, "ja")
    assert out.splitlines()[-1].startswith("勝者：")


def test_the_same_seed_prints_the_same_game(capsys):
    outputs = [run(capsys, "play-random", "--players", "4", "--seed", "12")[1] for _ in range(2)]
    assert outputs[0] == outputs[1]
    assert run(capsys, "play-random", "--players", "4", "--seed", "13")[1] != outputs[0]


def test_record_replays_to_the_final_state(tmp_path, capsys):
    path = tmp_path / "game.json"
    status, out, _ = run(
        capsys, "play-random", "--players", "3", "--seed", "9", "--record", str(path)
    )
    assert status == 0
    assert out.splitlines()[-1] == f"Game record written to {path}"
    g = game("draft7")
    record = records.record_from_json(json.loads(path.read_text(encoding="utf-8")), g)
    assert record.seed == 9
    assert record.setup == g.deal(3, seed=9)
    assert records.final_state(g, record) == final_state("draft7", 3, 9)


def test_record_to_an_unwritable_place_is_one_line_and_exit_1(tmp_path, capsys):
    path = tmp_path / "missing" / "game.json"
    status, _, err = run(capsys, "play-random", "--players", "3", "--record", str(path))
    assert status == 1
    assert err.count("\n") == 1
    assert err.startswith("stargazer play-random: cannot write the record: ")


def test_an_unsupported_player_count_is_a_usage_error(capsys):
    status, out, err = run(capsys, "play-random", "--players", "5")
    assert (status, out) == (2, "")
    assert (
        err
        == "stargazer play-random: 5 players are not supported by this ruleset (supported: 3, 4)\n"
    )


def test_an_unknown_ruleset_is_one_line_and_exit_1(capsys):
    status, out, err = run(capsys, "play-random", "--players", "3", "--rules", "draft9")
    assert (status, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith("stargazer play-random: draft9: ")
    assert "no such folder" in err


def test_an_invalid_ruleset_is_one_line_and_exit_1(tmp_path, capsys):
    folder = copy_ruleset(tmp_path)
    replace(
        folder,
        "crew.yaml",
        "      - effect: gain_vp\n        vp: 2\n      - effect: place_on_crew",
        "      - effect: gain_vpp\n        vp: 2\n      - effect: place_on_crew",
    )
    status, _, err = run(capsys, "play-random", "--players", "3", "--rules", str(folder))
    assert status == 1
    assert err.count("\n") == 1
    assert "unknown effect 'gain_vpp' (did you mean 'gain_vp'?)" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play-random"],
        ["play-random", "--players", "three"],
        ["play-random", "--players", "3", "--lang", "fr"],
        ["rules", "--lang", "de"],
    ],
)
def test_bad_arguments_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "usage: stargazer" in capsys.readouterr().err


def test_top_level_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "rules print a ruleset as readable tables, skills as sentences" in text
    assert "play-random play one game with random moves and print its log and score sheet" in text
    assert "report rebuild a simulation's summary and report from its games.jsonl" in text


@pytest.mark.slow
def test_the_command_line_does_not_load_the_statistics_and_plot_libraries_until_needed():
    """``validate`` and ``play`` start in a fraction of a second: nothing of scipy, numpy or
    matplotlib loads with the command line (``stargazer_rules.analysis`` imports lazily), and
    a summary loads only ``scipy.special`` (its quantiles), never ``scipy.stats`` (half a second
    to import) nor matplotlib (the plots are written as SVG from the data)."""
    heavy = "('scipy', 'scipy.special', 'scipy.stats', 'numpy', 'matplotlib')"
    code = (
        "import sys; from stargazer_rules.frontends.cli import build_parser; build_parser(); "
        "from stargazer_rules import analysis; assert analysis.Targets; "
        f"print(sorted(m for m in {heavy} if m in sys.modules)); "
        "import simulated_games; games = simulated_games.run(blocks=1); "
        "from stargazer_rules.analysis.report import render_report; render_report(analysis.summarize(games)); "
        f"print(sorted(m for m in {heavy} if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert result.stdout.splitlines() == ["[]", "['numpy', 'scipy', 'scipy.special']"]


# -- the report helpers -------------------------------------------------------------------------


def _sheet(totals: list[int], hands: list[int], winners: tuple[int, ...]) -> ScoreSheet:
    seats = tuple(
        SeatScore(seat, total, 0, 0, (), (), 0, total, hand)
        for seat, (total, hand) in enumerate(zip(totals, hands))
    )
    return ScoreSheet((), seats, winners, True)


def test_the_winner_line_explains_a_tie_break():
    """R18: a tie on VP is broken by cubes in hand, and the line says so."""
    assert (
        winner_line(_sheet([30, 28, 25], [0, 2, 1], (0,)), "en") == "Winner: Player 1 with 30 VP."
    )
    assert winner_line(_sheet([30, 30, 25], [1, 3, 1], (1,)), "en") == (
        "Winner: Player 2 with 30 VP. Player 1, Player 2 tie on VP; the most cubes in hand breaks "
        "the tie (Player 1: 1, Player 2: 3)."
    )
    assert winner_line(_sheet([30, 30, 30], [2, 2, 1], (0, 1)), "en") == (
        "Shared win: Player 1, Player 2, with 30 VP and 2 cubes in hand each."
    )
    assert winner_line(_sheet([30, 30, 25], [1, 3, 1], (1,)), "ja") == (
        "勝者：プレイヤー2（30VP）。プレイヤー1、プレイヤー2が同点のため、手元のキューブの多さで決定"
        "（プレイヤー1：1個、プレイヤー2：3個）。"
    )


def test_tables_align_by_display_width():
    lines = format_table([["溶岩", "1"], ["ab", "2"]], headers=["名前", "n"], indent="")
    assert lines == ["名前  n", "----  -", "溶岩  1", "ab    2"]


def test_wrapping_keeps_words_and_japanese_punctuation():
    assert wrap_text("one two three four", 9) == ["one two", "three", "four"]
    assert wrap_text("あいうえお。かき", 10) == ["あいうえ", "お。かき"]
    assert wrap_text("", 10) == [""]


def test_the_one_wrapper_measures_in_points_and_cuts_a_word_for_a_card():
    """The terminal and the printed cards wrap with ``text.lines.wrap_text``: a word wider than
    the line stays whole in a terminal and is cut between characters on a card."""
    from stargazer_rules.printing import fonts
    from stargazer_rules.text.lines import wrap_text as one_wrapper

    assert one_wrapper("ab abcdefgh", 3) == ["ab", "abcdefgh"]
    assert one_wrapper("ab abcdefgh", 3, cut_long_words=True) == ["ab", "abc", "def", "gh"]
    assert one_wrapper("あい うえ", 30, measure=lambda text: 10 * len(text)) == ["あい", "うえ"]
    lines = fonts.wrap("Supercalifragilistic word", 10, 40)
    assert "".join(lines).replace(" ", "") == "Supercalifragilisticword"
    assert all(fonts.width(line, 10) <= 40 for line in lines) and len(lines) > 2


def test_the_command_line_runs_blas_on_one_thread_unless_told_otherwise(monkeypatch):
    """The analysis's matrix products are small: BLAS threads would only spin on the other
    cores (twice the CPU of a report). The command sets one thread before numpy loads, and
    keeps a number the user set."""
    from stargazer_rules.frontends import cli

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("MKL_NUM_THREADS", "3")
    assert main(["validate", "draft7"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["MKL_NUM_THREADS"] == "3"
    assert cli.ONE_THREAD_BLAS == ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@pytest.mark.parametrize("name", ["draft7", "base", "ideas", "corpus"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_on_a_terminal_fits_its_width_and_says_everything(name, lang):
    """On a terminal 100 columns wide every line fits (on ideas, 446 did not): the widest
    columns that can break are wrapped, the paragraphs too; every character is still said."""
    ruleset = load_ruleset(name)
    fitted = ruleset_report(ruleset, lang, fit=100)
    assert max(display_width(line) for line in fitted.splitlines()) <= 100
    assert _characters_said(fitted) == _characters_said(ruleset_report(ruleset, lang))


def _characters_said(text: str) -> Counter[str]:
    """Every character but spaces and the rules under headers (their length follows the columns)."""
    return Counter(c for c in text if not c.isspace() and c != "-")


def test_rules_piped_keeps_each_cell_on_its_own_lines(capsys):
    """Piped or saved (no terminal), nothing is wrapped to a width: a sentence stays on one line."""
    assert main(["rules", "ideas"]) == 0
    assert "When this Planet becomes full: Each player with a cube on this Planet gains 1 VP." in capsys.readouterr().out
