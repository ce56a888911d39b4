"""``stargazer play`` and ``stargazer replay``: the terminal front end.

The first half drives the real program through a pseudo-terminal with pexpect, as a person
would: a whole game, undo, save, bad input, quitting. The second half tests
``stargazer_rules.frontends.terminal`` in-process with ``io.StringIO`` streams, which is fast and lets
the tests compare the session's states with the engine's.

Expected outcomes are computed, not copied: the same game is played in-process with the same
seed and choices (bots are seeded per decision, ``terminal.bot_seed``), and its final score
sheet must be the one the program printed.
"""

from __future__ import annotations

import datetime
import functools
import io
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest
from processes import HANG_GUARD

from stargazer_rules import Game, load_ruleset
from stargazer_rules.bots import BotSpecError, register_bot, unregister_bot
from stargazer_rules.formats import records
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.terminal import (
    PlaySession,
    ReplayError,
    SeatsError,
    bot_seed,
    default_record_name,
    load_record,
    parse_seats,
    replay_game,
    screen_lines,
    seat_names,
    sheet_lines,
    use_colour,
    write_record,
)
from stargazer_rules.frontends.terminal import play as play_module
from stargazer_rules.frontends.terminal.screen import visible_width
from stargazer_rules.text.reports import winner_line

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
PROMPT = r"Your choice \(1-(\d+), u, s, h, q\): "
END_SAVE = r"Save the game record\? \[y/N\] "
RULE = "=" * 80
TODAY = datetime.date(2025, 1, 31)


@functools.cache
def game(name: str = "draft7") -> Game:
    return Game(load_ruleset(name))


# -- helpers ------------------------------------------------------------------------------------


def spawn(tmp_path: Path, *args: str, colour: bool = False) -> pexpect.spawn:
    """``python -m stargazer_rules ARGS`` in a 40x100 xterm, in ``tmp_path``."""
    env = dict(os.environ, TERM="xterm", COLUMNS="100", LINES="40")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.pop("NO_COLOR", None)
    if not colour:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "stargazer_rules", *args],
        cwd=str(tmp_path),
        env=env,
        dimensions=(40, 100),
        encoding="utf-8",
        timeout=HANG_GUARD,  # a hang guard: a loaded machine is slow, not wrong
    )


def text(child: pexpect.spawn) -> str:
    """What the program printed before the last match, with the terminal's line ends undone."""
    return child.before.replace("\r\n", "\n")


def body(screen: str) -> str:
    """A screen from its heading on: the ring, crew, players and options, without the news."""
    screen = screen.split(RULE)[-1]
    lines = screen.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("Round "))
    return "\n".join(lines[start:])


def session(seats: str, seed: int, answers: str, players: int = 3, lang: str = "en", **options) -> tuple[PlaySession, str]:
    """Run a session in-process on ``answers``; the session and everything it printed."""
    out = io.StringIO()
    play = PlaySession(
        game(),
        parse_seats(seats, players),
        seed,
        io.StringIO(answers),
        out,
        lang=lang,
        today=TODAY,
        **options,
    )
    assert play.run() == 0
    return play, out.getvalue()


def first_option_game(seats: str, seed: int, players: int = 3) -> PlaySession:
    """The game in which every person always chooses option 1, played to its end."""
    play, _out = session(seats, seed, "1\n" * 500 + "n\n", players)
    assert game().is_over(play.states[-1])
    return play


# -- through a pseudo-terminal ------------------------------------------------------------------


@pytest.mark.slow
def test_a_whole_game_against_bots_ends_with_the_score_sheet_and_the_winner(tmp_path):
    """Choosing option 1 at every prompt plays the game to its end; the program prints the
    final sheet and the winner line of the same game played in-process, then offers to save."""
    child = spawn(tmp_path, "play", "--players", "3", "--seats", "you,random,random", "--seed", "3")
    decisions = 0
    printed = []
    while child.expect([PROMPT, END_SAVE]) == 0:
        printed.append(text(child))
        child.sendline("1")
        decisions += 1
    printed.append(text(child))
    child.sendline("n")
    child.expect(pexpect.EOF)
    printed.append(text(child))
    child.close()
    assert child.exitstatus == 0
    output = "".join(printed)
    expected = first_option_game("you,random,random", 3)
    sheet = expected.game.score(expected.states[-1])
    assert decisions == sum(1 for state in expected.states[:-1] if expected.game.current_player(state) == 0)
    assert "Final score" in output
    assert winner_line(sheet, "en") in output
    assert "\n".join(sheet_lines(expected.game, expected.states[-1], "en")) in output
    assert "Traceback" not in output


def test_undo_goes_back_to_the_previous_decision_with_the_same_screen(tmp_path):
    """After a choice and the bots' moves, u shows the earlier decision's board and menu again."""
    child = spawn(tmp_path, "play", "--players", "3", "--seats", "you,greedy", "--seed", "4")
    child.expect(PROMPT)
    before = body(text(child))
    child.sendline("2")
    child.expect(PROMPT)
    assert body(text(child)) != before
    child.sendline("u")
    child.expect(PROMPT)
    after = text(child)
    assert "Undone: back to Player 1 (you)'s decision in round 1." in after
    assert body(after) == before
    child.sendline("u")
    child.expect(PROMPT)
    assert "Nothing to undo: no earlier decision of a person." in text(child)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_bad_input_gets_a_hint_and_quit_asks_to_save_a_record_that_replays(tmp_path):
    """Words and numbers out of range get the one-line hint; q asks to save, and the record
    written replays to the state the game was left in."""
    child = spawn(tmp_path, "play", "--players", "4", "--seats", "you,random", "--seed", "8")
    child.expect(PROMPT)
    count = int(child.match.group(1))
    hint = f"Type a number from 1 to {count}, or u (undo), s (save), h (help), q (quit)."
    for bad in ("hello", "0", str(count + 1), ""):
        child.sendline(bad)
        child.expect(PROMPT)
        assert text(child).strip().splitlines()[-1] == hint
    child.sendline("h")
    child.expect(PROMPT)
    assert "u: undo, back to the previous decision of a person" in text(child)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Save the game before quitting\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"Save the game record to \[(stargazer-\d{4}-\d\d-\d\d-seed8\.json)\] \(q: do not save\): ")
    assert child.match.group(1) == default_record_name(8)
    child.sendline("left.json")
    child.expect("Game record written to left.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    g, record = load_record(tmp_path / "left.json")
    expected, _out = session("you,random", 8, "1\nq\n\n", players=4)
    assert records.final_state(g, record) == expected.states[-1]
    assert record.seed == 8
    assert record.metadata["seats"] == ["human", "random", "random", "random"]


@pytest.mark.slow
def test_the_record_saved_at_the_end_replays_to_the_final_state(tmp_path):
    """Enter keeps the default file name; the record replays to the game's final state, and
    stargazer replay --step shows its moves."""
    child = spawn(tmp_path, "play", "--players", "3", "--seats", "you,random", "--seed", "3")
    while child.expect([PROMPT, END_SAVE]) == 0:
        child.sendline("1")
    child.sendline("y")
    child.expect(r"Save the game record to \[(.+?)\] \(q: do not save\): ")
    name = child.match.group(1)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    g, record = load_record(tmp_path / name)
    assert records.final_state(g, record) == first_option_game("you,random", 3).states[-1]

    child = spawn(tmp_path, "replay", name, "--step")
    child.expect("Enter: next move, q: stop ")
    assert "The start, before the first move" in text(child)
    child.sendline("")
    child.expect("Enter: next move, q: stop ")
    assert f"Move 1 of {len(record.actions)}: Player " in text(child)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_colours_on_a_terminal_unless_no_color(tmp_path):
    """On a terminal the cubes and names are coloured; the same screen without the codes is
    the NO_COLOR screen."""
    screens = []
    for colour in (True, False):
        child = spawn(tmp_path, "play", "--players", "3", "--seats", "you,random", "--seed", "5", colour=colour)
        child.expect(PROMPT)
        screens.append(text(child))
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
    coloured, plain = screens
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


# -- in-process: seats --------------------------------------------------------------------------


def test_seats_are_people_or_bot_specs_and_the_last_fills_the_rest():
    """you/human seat a person (None); a parameter after a comma continues its bot's spec."""
    assert parse_seats("you,random", 4) == (None, "random", "random", "random")
    assert parse_seats("greedy/Human/you") == ("greedy", None, None)
    assert parse_seats("you,greedy:hand=0.5,start=1.0,random") == (None, "greedy:hand=0.5,start=1.0", "random")


def test_bad_seats_are_refused_with_the_reason():
    with pytest.raises(BotSpecError, match=r"unknown bot 'gredy' \(did you mean 'greedy'\?\)"):
        parse_seats("you,gredy")
    with pytest.raises(SeatsError, match="--seats lists 4 seats for 3 players"):
        parse_seats("you,random,random,random", 3)
    with pytest.raises(SeatsError, match="has an empty entry"):
        parse_seats("you,,random")


def test_a_setup_for_another_number_of_players_is_refused_counting_the_seats_in_words():
    """One seat for a 4-player setup: "1 seat", not "1 seats"."""
    game = Game(load_ruleset("draft7"))
    with pytest.raises(SeatsError, match=r"^1 seat for a setup of 4 players$"):
        PlaySession(game, [None], 0, io.StringIO(), io.StringIO(), setup=game.deal(4, seed=0))


def test_seat_names_say_who_plays():
    """One person is "you"; at a hot seat each person is "human"."""
    assert seat_names((None, "random", "greedy"), "en") == ("Player 1 (you)", "Player 2 (random)", "Player 3 (greedy)")
    assert seat_names((None, None, "random"), "ja") == ("プレイヤー1（人間）", "プレイヤー2（人間）", "プレイヤー3（random）")


def test_colour_only_on_a_terminal_without_no_color():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert use_colour(Tty(), {}) is True
    assert use_colour(Tty(), {"NO_COLOR": "1"}) is False
    assert use_colour(Tty(), {"NO_COLOR": ""}) is True
    assert use_colour(io.StringIO(), {}) is False


# -- in-process: the screen ---------------------------------------------------------------------


def test_the_screen_shows_values_cubes_accidents_specials_crew_and_scores():
    """A hand-played position: cubes by seat digit, F for a free cube, ✗ rows, the special
    square, the crew's worker and cubes, hands and provisional totals."""
    g = game()
    names = seat_names((None, "random", "random"), "en")
    play, _out = session("you,random,random", 3, "1\n1\n")
    state = play.states[-1]
    lines = screen_lines(g, state, "en", names)
    screen = "\n".join(lines)
    ring = [g.ruleset.planets[i] for i in state.planets]
    for position, card in enumerate(ring):
        row = next(line for line in lines if line.startswith(f"  {position + 1}  {card.name.en} "))
        values = row.split("VP", 1)[1].split()
        assert values == ["✗0" if vp == 0 else str(vp) for vp in card.track]
        cubes_row = lines[lines.index(row) + 1].split("cubes", 1)[1].split()
        marks = ["F" if owner == -1 else str(owner + 1) for owner in state.tracks[position]]
        assert cubes_row[: card.length] == marks + ["."] * (card.length - len(marks))
        special = "".join(str(owner + 1) for owner in state.specials[position])
        assert cubes_row[card.length] == special + "." * (card.special_capacity - len(state.specials[position]))
    sheet = g.score(state)
    for seat in range(3):
        row = next(line for line in lines if line.lstrip(" >").startswith(names[seat]))
        cells = row.split(names[seat], 1)[1].split()
        assert cells[:3] == [str(state.hands[seat]), str(state.vp[seat]), str(sheet.seats[seat].total)]
    assert "Crew area" in screen and "Captain Armstrong" in screen
    assert f"Stock: {state.stock} free cubes" in screen
    assert "✗ an accident (0 VP). Cubes: 1-3 the players, F a free cube, . empty." in screen


def test_colour_codes_take_no_room():
    """The coloured screen is the plain screen plus ANSI codes: columns stay aligned."""
    play, _out = session("you,random,random", 6, "1\n1\n1\n")
    state = play.states[-1]
    names = play.names
    plain = screen_lines(play.game, state, "ja", names, width=100)
    coloured = screen_lines(play.game, state, "ja", names, colour=True, width=100)
    assert any("\x1b[" in line for line in coloured)
    assert [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in coloured] == plain
    assert visible_width("\x1b[1;31mプレイヤー1\x1b[0m") == 11


def test_the_menu_numbers_every_legal_action_as_a_sentence():
    play, out = session("you,random,random", 3, "")
    state = play.states[-1]
    legal = play.game.legal_actions(state)
    assert f"Your choice (1-{len(legal)}, u, s, h, q): " in out
    assert "  1. Pick Captain Armstrong" in out
    assert "  u undo, s save, h help, q quit" in out


# -- in-process: the loop -----------------------------------------------------------------------


def test_a_game_is_a_function_of_its_seed_and_the_choices():
    """Bots are seeded per decision: the same seed and answers play the same game."""
    first = first_option_game("you,greedy", 11)
    second = first_option_game("you,greedy", 11)
    assert first.actions == second.actions
    assert first.states[-1] == second.states[-1]
    assert bot_seed(11, 5) == bot_seed(11, 5) != bot_seed(11, 6)


def test_undo_then_the_same_choice_replays_the_same_bot_moves():
    """u takes back the last decision of a person and the bot moves after it; choosing the same
    again brings them back exactly."""
    straight, _ = session("you,random", 2, "2\n1\n")
    undone, out = session("you,random", 2, "2\nu\n2\n1\n")
    assert "Undone: back to Player 1 (you)'s decision in round 1." in out
    assert undone.actions == straight.actions
    assert undone.states == straight.states
    at_start, out = session("you,random", 2, "u\n")
    assert "Nothing to undo: no earlier decision of a person." in out
    assert len(at_start.states) == len(session("you,random", 2, "")[0].states)


def test_undo_with_two_people_goes_back_to_the_other_persons_decision():
    """Hot seat: the previous decision of a person may be another person's."""
    play, out = session("you,you,random", 4, "1\n1\n1\n1\nu\n", players=3)
    last = play.states[-1]
    seat = play.game.current_player(last)
    assert play.seats[seat] is None
    assert "(human)'s decision in round" in out


def test_the_end_of_input_quits_cleanly():
    play, out = session("you,random", 1, "1\n")
    assert not play.game.is_over(play.states[-1])
    assert out.endswith(f"Your choice (1-{len(play.states[-1].legal)}, u, s, h, q): \n")


def test_saving_mid_game_writes_a_record_of_the_game_so_far(tmp_path):
    path = tmp_path / "mid.json"
    play, out = session("you,random", 7, f"1\n1\ns\n{path}\nq\nn\n")
    assert f"Game record written to {path}" in out
    g, record = load_record(path)
    assert records.final_state(g, record) == play.states[-1]
    assert record.metadata == {"generator": "stargazer play", "seats": ["human", "random", "random"], "date": "2025-01-31"}


def test_a_save_that_fails_says_why_and_the_game_goes_on(tmp_path):
    missing = tmp_path / "no-such-folder" / "game.json"
    play, out = session("you,random", 7, f"s\n{missing}\n1\n")
    assert f"Cannot write {missing}: No such file or directory" in out
    assert len(play.actions) > 0


def test_the_default_save_name_never_names_an_earlier_save(tmp_path, monkeypatch):
    """Two saves of the same seed on the same day with Enter: the second goes to ``-2``, the
    first is kept as it was."""
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "stargazer-2025-01-31-seed7.json"
    _play, out = session("you,random", 7, "s\n\n1\ns\n\nq\nn\n")
    second = tmp_path / "stargazer-2025-01-31-seed7-2.json"
    assert "Save the game record to [stargazer-2025-01-31-seed7-2.json] (q: do not save): " in out
    assert json.loads(first.read_text(encoding="utf-8"))["moves"] < json.loads(second.read_text(encoding="utf-8"))["moves"]


def test_q_at_the_save_prompt_saves_nothing_and_writes_no_file_named_q(tmp_path, monkeypatch):
    """``q`` quits everywhere else: at the save prompt it saves nothing, and the game goes on."""
    monkeypatch.chdir(tmp_path)
    play, out = session("you,random", 7, "s\nq\n1\n")
    assert "Not saved." in out and list(tmp_path.iterdir()) == []
    assert len(play.actions) > 0


def test_saving_over_a_file_asks_first_and_no_keeps_it(tmp_path):
    """A name that exists: asked whether to replace it; no asks for another name and leaves the
    file as it was, yes replaces it."""
    kept = tmp_path / "mine.json"
    kept.write_text("mine\n", encoding="utf-8")
    other = tmp_path / "other.json"
    _play, out = session("you,random", 7, f"s\n{kept}\nn\n{other}\nq\nn\n")
    assert f"{kept} exists already: replace it? [y/N] " in out
    assert kept.read_text(encoding="utf-8") == "mine\n" and records.record_from_json(json.loads(other.read_text(encoding="utf-8")))
    _play, out = session("you,random", 7, f"s\n{kept}\ny\nq\nn\n")
    assert json.loads(kept.read_text(encoding="utf-8"))["seed"] == 7


def test_a_table_of_bots_plays_to_the_end_without_asking():
    play, out = session("random", 9, "")
    assert play.game.is_over(play.states[-1])
    assert "Final score" in out and "Save the game record?" not in out


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class _SlowBot:
    """The first legal action, after a pause: a bot that makes the terminal wait."""

    spec = "slow"

    def __init__(self, seed: int) -> None:
        del seed

    def choose(self, game: Game, state) -> object:
        time.sleep(0.05)
        return game.legal_actions(state)[0]


@pytest.fixture
def slow_bot():
    register_bot("slow", _SlowBot)
    yield
    unregister_bot("slow")


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [True, False])
def test_a_slow_bot_shows_thinking_on_a_terminal_and_erases_it(slow_bot, monkeypatch, terminal):
    monkeypatch.setattr(play_module, "THINKING_AFTER", 0.01)
    out = _Tty() if terminal else io.StringIO()
    play = PlaySession(game(), parse_seats("you,slow", 3), 4, io.StringIO("1\n" * 500 + "n\n"), out, today=TODAY)
    assert play.run() == 0
    text = out.getvalue()
    bot_moves = sum(1 for ply, _ in enumerate(play.actions) if game().current_player(play.states[ply]) != 0)
    if terminal:
        shown = re.findall(r"Player ([23]) \(slow\) is thinking…\r\x1b\[K", text)
        assert bot_moves > 0 and len(shown) == bot_moves
    else:
        assert "thinking" not in text and "\x1b[K" not in text


def test_a_quick_bot_shows_no_thinking_line(monkeypatch):
    out = _Tty()
    play = PlaySession(game(), parse_seats("you,greedy", 3), 4, io.StringIO("1\n" * 500 + "n\n"), out, today=TODAY)
    assert play.run() == 0
    assert "thinking" not in out.getvalue()


def test_japanese_screens():
    _play, out = session("you,random", 3, "1\nh\nx\n", lang="ja")
    assert "惑星（時計回りの順）" in out and "クルー置き場" in out
    assert "選択（1-" in out
    assert "u：人間の前回の選択まで戻す" in out
    assert "番号、または u（戻す）" in out


# -- in-process: replay -------------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path) -> tuple[Path, PlaySession]:
    play = first_option_game("you,greedy", 12)
    path = tmp_path / "game.json"
    write_record(play.record(), path)
    return path, play


def test_replay_prints_the_log_the_last_screen_and_the_sheet(saved):
    path, play = saved
    out = io.StringIO()
    g, record = load_record(path)
    assert replay_game(g, record, out) == 0
    printed = out.getvalue()
    assert "a recorded game, 3 players, seed 12" in printed
    assert "Game log" in printed and "Game over after round" in printed
    assert "\n".join(sheet_lines(play.game, play.states[-1], "en")) in printed


def test_replay_step_by_step_waits_for_enter(saved):
    path, _play = saved
    g, record = load_record(path)
    out = io.StringIO()
    replay_game(g, record, out, io.StringIO("\n" * len(record.actions)), step=True)
    printed = out.getvalue()
    assert printed.count("Enter: next move, q: stop ") == len(record.actions)
    assert f"Move {len(record.actions)} of {len(record.actions)}" in printed
    assert "Final score" in printed
    out = io.StringIO()
    replay_game(g, record, out, io.StringIO("\nq\n"), step=True)
    assert "Move 1 of" in out.getvalue() and "Move 2 of" not in out.getvalue()


def test_a_record_saved_mid_game_replays_with_a_provisional_sheet_and_no_winner(tmp_path):
    session("you,random", 7, f"1\ns\n{tmp_path / 'mid.json'}\nq\nn\n")
    out = io.StringIO()
    replay_game(*load_record(tmp_path / "mid.json"), out)
    assert "Provisional score" in out.getvalue()
    assert "Winner" not in out.getvalue()


def test_records_that_cannot_be_replayed_give_one_line(saved, tmp_path):
    path, _play = saved
    with pytest.raises(ReplayError, match=r"^.+game\.json: this record was made with ruleset draft7 \(fingerprint \w{12}\), but the loaded ruleset is base"):
        load_record(path, "base")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["ruleset"]["name"] = "draft9"
    other = tmp_path / "draft9.json"
    other.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReplayError, match=r"made with ruleset 'draft9', which is not bundled \([^)]*\): give its folder with --rules DIR$"):
        load_record(other)
    with pytest.raises(ReplayError, match="cannot read .*missing.json: No such file or directory"):
        load_record(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ReplayError, match="is not a JSON game record"):
        load_record(broken)


def test_the_replay_command_reports_errors_on_one_line(saved, capsys):
    path, _play = saved
    assert main(["replay", str(path), "--rules", "base"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("stargazer replay: ")
    assert main(["replay", str(path)]) == 0
    assert "Final score" in capsys.readouterr().out


def test_the_play_command_refuses_bad_seats_and_player_counts(capsys):
    assert main(["play", "--seats", "you,gredy"]) == 2
    assert capsys.readouterr().err.startswith("stargazer play: unknown bot 'gredy' (did you mean 'greedy'?); bots: ")
    assert main(["play", "--seats", "you,random", "--players", "5"]) == 2
    assert "5 players are not supported" in capsys.readouterr().err


# -- play --load: a saved game goes on ------------------------------------------------------------


def test_a_saved_game_goes_on_to_the_game_it_would_have_been(tmp_path):
    """The record's setup, seats and seed, its moves played again: choosing 1 from there on
    ends in the game of a person who chose 1 throughout (the bots are seeded by ply)."""
    path = tmp_path / "mid.json"
    saved, _out = session("you,random", 7, f"1\n1\ns\n{path}\nq\nn\n")
    g, record = load_record(path)
    out = io.StringIO()
    play = PlaySession.from_record(g, record, io.StringIO("1\n" * 500 + "n\n"), out, today=TODAY)
    assert play.states[: len(saved.states)] == saved.states
    assert (play.seats, play.seed) == ((None, "random", "random"), 7)
    assert play.run() == 0
    assert play.states[-1] == first_option_game("you,random", 7).states[-1]
    moves, state = len(record.actions), saved.states[-1]
    assert f"  The saved game goes on after {moves} moves, in round {state.round}.\n" in out.getvalue()
    assert play.record().actions[:moves] == record.actions


def test_undo_after_loading_goes_back_into_the_saved_moves(tmp_path):
    path = tmp_path / "mid.json"
    saved, _out = session("you,random", 7, f"1\n1\ns\n{path}\nq\nn\n")
    play = PlaySession.from_record(*load_record(path), io.StringIO("u\nq\nn\n"), io.StringIO(), today=TODAY)
    assert play.run() == 0
    assert play.states == saved.states[: len(play.states)] and len(play.states) < len(saved.states)


def test_play_load_refuses_another_ruleset_and_the_options_the_record_decides(saved, capsys, tmp_path):
    path, _play = saved
    assert main(["play", "--load", str(path), "--rules", "base"]) == 1
    assert capsys.readouterr().err == (
        f"stargazer play: {path}: this record was made with ruleset draft7 (fingerprint "
        f"{game().ruleset.fingerprint[:12]}), but the loaded ruleset is base (fingerprint "
        f"{game('base').ruleset.fingerprint[:12]})\n"
    )
    assert main(["play", "--load", str(path), "--seats", "you", "--seed", "3"]) == 2
    assert capsys.readouterr().err == (
        "stargazer play: --load goes on with the record's seats and seed: leave out --seats and --seed\n"
    )
    assert main(["play", "--load", str(tmp_path / "missing.json")]) == 1
    assert capsys.readouterr().err == f"stargazer play: cannot read {tmp_path / 'missing.json'}: No such file or directory\n"


def _edited_record(tmp_path: Path, change) -> Path:
    """A record saved after two moves of seed 7 (seats you, random, random), edited by ``change``."""
    path = tmp_path / "mid.json"
    session("you,random", 7, f"1\n1\ns\n{path}\nq\nn\n")
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    return edited


def _with_illegal_move(data: dict) -> None:
    data["actions"][-1] = data["actions"][0]


def _claiming_the_end(data: dict) -> None:
    data["finished"] = True


@pytest.mark.parametrize("change", [_with_illegal_move, _claiming_the_end], ids=["an illegal move", "finished: true"])
def test_play_load_refuses_a_record_as_replay_does_in_the_same_words(tmp_path, capsys, change):
    """One checker: a record replay refuses is refused by play --load before its first screen."""
    path = _edited_record(tmp_path, change)
    assert main(["replay", str(path)]) == 1
    refused = capsys.readouterr().err.removeprefix("stargazer replay: ")
    assert main(["play", "--load", str(path)]) == 1
    assert capsys.readouterr().err == f"stargazer play: {refused}"
    assert refused.startswith(f"{path}: ") and refused.count("\n") == 1


@pytest.mark.parametrize(
    ("bot", "reason"),
    [("nobot", "unknown bot 'nobot'"), ("mcts:99999999999", "iterations='99999999999' is not an integer from 1 to 1,000,000")],
)
def test_play_load_checks_the_bots_of_the_records_seats_before_the_first_move(tmp_path, capsys, bot, reason):
    path = _edited_record(tmp_path, lambda data: data["metadata"].update(seats=["you", bot, "random"]))
    assert main(["play", "--load", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"stargazer play: {path}: seat 2 of the record is the bot {bot!r}, which cannot play: ")
    assert reason in err and err.count("\n") == 1


def test_play_load_of_a_finished_game_points_to_replay(saved, capsys):
    path, play = saved
    assert main(["play", "--load", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"stargazer play: {path}: its game is over (after {len(play.actions)} moves): there is no move "
        f"left to play; see it with stargazer replay {path}\n"
    )


@pytest.mark.parametrize("command", ["play --load", "replay"])
def test_a_record_that_is_a_device_or_a_fifo_is_one_line_at_once(tmp_path, capsys, command):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO (named pipe)"), (Path("/dev/zero"), "a character device")):
        assert main([*command.split(), str(path)]) == 1
        assert capsys.readouterr().err == f"stargazer {command.split()[0]}: {path} is {kind}, not a game record\n"


@pytest.mark.slow
def test_play_load_at_the_terminal_shows_the_saved_position(tmp_path):
    """Saved with s mid-game through the terminal, the game goes on from ``play --load``."""
    child = spawn(tmp_path, "play", "--players", "3", "--seats", "you,greedy", "--seed", "4")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    screen = body(text(child))
    child.sendline("s")
    child.expect(r"Save the game record to \[.+?\] \(q: do not save\): ")
    child.sendline("mid.json")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Save the game before quitting\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    g, record = load_record(tmp_path / "mid.json")

    child = spawn(tmp_path, "play", "--load", "mid.json")
    child.expect(PROMPT)
    shown = text(child)
    assert shown.startswith("Stargazer draft 7 (draft7, fingerprint ")
    assert ": 3 players, seed 4\nSeats: Player 1 (you), Player 2 (greedy), Player 3 (greedy)\n" in shown
    assert f"The saved game goes on after {len(record.actions)} moves, in round 1." in shown
    assert body(shown) == screen
    child.sendline("q")
    child.expect(r"Save the game before quitting\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
