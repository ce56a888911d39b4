"""What ``stargazer playtest`` takes from its user, refused in one line: a log's name that is a
path, a seat scored twice, more logs than are read at once; and names shown, never obeyed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stargazer_rules import load_ruleset
from stargazer_rules.errors import PlaytestError
from stargazer_rules.frontends.cli import main
from stargazer_rules.playtests import folder
from stargazer_rules.playtests.figures import playtest_report, report_lines
from stargazer_rules.playtests.log import log_from_yaml_text

GOOD = """\
date: 2026-11-28
ruleset: draft8
seats: [Aki, Ben, Chie]
rounds: 6
scores:
  Aki: {majority: 15, bonus: 5, play: 2, total: 22}
  Ben: {majority: 14, bonus: 6, play: 2, total: 22}
  Chie: {majority: 9, bonus: 4, play: 1, total: 14}
"""
FLAGS = ["--seats", "Aki,Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", "Aki=15,5,2,22",
         "--score", "Ben=14,6,2,22", "--score", "Chie=9,4,1,14"]


@pytest.fixture
def draft(tmp_path, capsys) -> Path:
    main(["new-draft", str(tmp_path / "draft8"), "--from", "draft7"])
    capsys.readouterr()
    return tmp_path / "draft8"


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err.rstrip("\n")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../../x", "holds a path separator"),
        ("sub/x", "holds a path separator"),
        ("..\\x", "holds a path separator"),
        ("..", "starts with '.'"),
        (".hidden", "starts with '.'"),
        ("", "is empty"),
        ("a\x00b", "U+0000, a control character at character 2"),
        ("two\nlines", "U+000A, a control character at character 4"),
        ("x\u202egpj", "U+202E (right-to-left override)"),
        ("x" * 101, "is 101 characters long: at most 100"),
    ],
)
def test_a_log_name_is_a_file_name_in_its_folder(draft, tmp_path, capsys, name, why):
    """--name ../../x and --name /abs/path wrote outside --to; each is refused, nothing written."""
    to = tmp_path / "logs"
    before = sorted(tmp_path.rglob("*"))
    assert main(["playtest", "add", "--rules", str(draft), *FLAGS, "--name", name, "--to", str(to)]) == 1
    said = one_line_error(capsys)
    assert said.startswith("stargazer playtest add: the log name ") and why in said
    assert "\x00" not in said and "\u202e" not in said and "\n" not in said
    assert sorted(tmp_path.rglob("*")) == before


def test_an_absolute_name_writes_nothing_anywhere(draft, tmp_path, capsys):
    target = tmp_path / "elsewhere" / "x"
    assert main(["playtest", "add", "--rules", str(draft), *FLAGS, "--name", str(target), "--to", str(tmp_path / "logs")]) == 1
    assert "holds a path separator" in one_line_error(capsys)
    assert not (tmp_path / "elsewhere").exists() and not (tmp_path / "logs").exists()


def test_the_library_refuses_the_same_names(draft):
    ruleset = load_ruleset(draft)
    log = log_from_yaml_text(GOOD, "log.yaml", ruleset)
    with pytest.raises(ValueError, match="holds a path separator"):
        folder.add_log(ruleset, log, name="../x")
    assert folder.add_log(ruleset, log, name="friday..night").name == "friday..night.yaml"


def test_a_seat_scored_twice_is_refused_naming_it(draft, capsys):
    """The first --score of a seat was silently dropped."""
    flags = [*FLAGS, "--score", "Aki=16,5,2,23"]
    assert main(["playtest", "add", "--rules", str(draft), *flags]) == 1
    assert one_line_error(capsys) == "stargazer playtest add: --score 'Aki' is given twice: one --score a seat"
    assert not (draft / "playtests").exists()


def test_a_score_figure_is_ascii_digits(draft, capsys):
    flags = [*FLAGS[:-1], "Chie=9,4,1,1\u00b2"]
    assert main(["playtest", "add", "--rules", str(draft), *flags]) == 1
    assert "--score 'Chie=9,4,1,1\u00b2': write NAME=MAJORITY" in one_line_error(capsys)


@pytest.mark.parametrize("command", [["playtest", "list"], ["playtest", "report"], ["calibrate"]])
def test_more_logs_than_are_read_is_one_line(tmp_path, capsys, command):
    """10,001 logs ended in a DraftError traceback."""
    logs = tmp_path / "logs"
    logs.mkdir()
    for number in range(folder.MAX_LOGS + 1):
        (logs / f"{number}.yaml").touch()
    assert main([*command, "--from", str(logs)]) == 1
    assert one_line_error(capsys) == (
        f"stargazer {' '.join(command)}: {logs}: 10,001 playtest logs: at most 10,000 are read at once"
    )


# -- calibrate's rungs: all checked, and the time said, before any plays ----------------------


@pytest.fixture
def logs(tmp_path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.yaml").write_text(GOOD.replace("ruleset: draft8", "ruleset: draft7"), encoding="utf-8")
    return folder


@pytest.fixture
def played(monkeypatch) -> list[str]:
    """The rungs calibrate starts to play; the first stops the command (no game is played)."""
    from stargazer_rules.errors import SimulationError
    from stargazer_rules.simulation import rung_runs

    started: list[str] = []

    def stop(ruleset, rung, **options):
        started.append(rung)
        raise SimulationError(f"stopped before playing {rung}")

    monkeypatch.setattr(rung_runs, "rung_run", stop)
    return started


@pytest.mark.parametrize(
    ("rungs", "message"),
    [
        ("", "no rung to compare: give bots, weakest first, e.g. --rungs random,greedy,mcts:100"),
        (" , ", "no rung to compare: give bots, weakest first, e.g. --rungs random,greedy,mcts:100"),
        ("random,bogus:1", "unknown bot 'bogus'"),
        (",".join(["random"] * 200), "200 rungs: a calibration compares at most 16"),
        ("random,greedy,random", "the rung 'random' is given twice: give each rung once"),
        ("mcts:25,mcts:iterations=25", "the rung 'mcts:iterations=25' is given twice (as 'mcts:25'): give each rung once"),
        ("random,mcts:1000001", "bot 'mcts': iterations='1000001' is not"),
    ],
)
def test_rungs_that_cannot_be_played_are_refused_before_any_plays(logs, tmp_path, capsys, played, rungs, message):
    """--rungs random,bogus:1 was refused only after random had played; --rungs '' played the
    default ladder; 200 copies of one rung played 200 times."""
    out = tmp_path / "out"
    assert main(["calibrate", "--from", str(logs), "--rungs", rungs, "--deals", "2", "--out", str(out)]) == 2
    said = one_line_error(capsys)
    assert said.startswith("stargazer calibrate: ") and message in said
    assert played == [] and not out.exists()


def test_a_key_given_twice_in_a_bot_spec_is_refused(tmp_path, capsys):
    """mcts:iterations=10,iterations=20 played 20 iterations, the first silently dropped."""
    assert main(["simulate", "--bots", "mcts:iterations=10,iterations=20", "--games", "4", "--out", str(tmp_path / "run")]) == 2
    assert one_line_error(capsys) == (
        "stargazer simulate: bot 'mcts': iterations is given twice in 'mcts:iterations=10,iterations=20'; give each parameter once"
    )


def test_a_cached_ladder_of_absurd_budgets_is_estimated_before_it_plays(logs, tmp_path, capsys, played, monkeypatch):
    """A cached ladder of mcts:1000000 was played with no estimate: the time of every rung is
    said before the first plays, timed on one game a rung at a small budget and scaled."""
    from stargazer_rules.simulation import ladder

    monkeypatch.setattr(ladder, "find_ladder", lambda *args, **kwargs: {"budgets": [25, 1_000_000]})
    assert main(["calibrate", "--from", str(logs), "--deals", "200", "--workers", "1", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.splitlines()
    estimate = next(line for line in err if "at most about" in line)
    assert estimate.startswith("stargazer calibrate: 4 levels of bots (random, greedy, mcts:25, mcts:1000000), 600 games each: at most about ")
    assert " h " in estimate  # a million iterations a decision, 600 games: hours, said first
    assert err.index(estimate) < len(err) - 1 and err[-1] == "stargazer calibrate: stopped before playing random"
    assert played == ["random"]


def test_a_cached_ladder_past_the_bot_budget_bound_is_refused(logs, tmp_path, capsys, played, monkeypatch):
    from stargazer_rules.simulation import ladder

    monkeypatch.setattr(ladder, "find_ladder", lambda *args, **kwargs: {"budgets": [25, 10**9]})
    assert main(["calibrate", "--from", str(logs), "--out", str(tmp_path / "out")]) == 2
    assert "bot 'mcts': iterations='1000000000' is not an integer from 1 to 1,000,000" in one_line_error(capsys)
    assert played == []


# -- names shown, never obeyed ---------------------------------------------------------------

HOSTILE = ("\x1b[2J", "\u202e", "\x07", "\x9b", "\x7f", "\u2066")


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` a terminal would obey rather than show (but line ends)."""
    return [char for char in text if char not in "\n" and (ord(char) < 32 or 0x7F <= ord(char) <= 0x9F
            or 0x202A <= ord(char) <= 0x202E or 0x2066 <= ord(char) <= 0x2069)]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_seat_names_of_logs_are_shown_escaped(tmp_path, capsys, hostile):
    """A seat name holding an escape sequence, a direction override or another control
    character was printed raw by playtest add, list and the problems of a log."""
    name = f"Aki{hostile}"
    to = tmp_path / f"new{hostile}"
    flags = ["--seats", f"{name},Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", f"{name}=15,5,3,23",
             "--score", "Ben=14,6,2,22", "--score", "Chie=9,4,1,14"]
    if hostile in ("\x9b", "\x7f"):  # the YAML reader refuses these in a log: said, escaped
        assert main(["playtest", "add", *flags, "--to", str(to)]) == 1
        err = capsys.readouterr().err
        assert "is not allowed in YAML" in err and raw_controls(err) == []
        return
    assert main(["playtest", "add", *flags, "--to", str(to)]) == 0
    out = capsys.readouterr().out
    assert raw_controls(out) == [] and "won by Aki\\u" in out
    assert main(["playtest", "list", "--from", str(to)]) == 0
    assert raw_controls(capsys.readouterr().out) == []
    bad = [*flags[:-1], "Chie=9,4,1,41"]
    assert main(["playtest", "add", *bad, "--to", str(to)]) == 1
    assert raw_controls(capsys.readouterr().err) == []
    (to / "odd.yaml").write_text(GOOD.replace("ruleset: draft8", "ruleset: draft7").replace("Ben:", '"Ben\\u202ex":'),
                                 encoding="utf-8")
    assert main(["playtest", "list", "--from", str(to)]) == 1
    captured = capsys.readouterr()
    assert "is not one of the seats" in captured.err and raw_controls(captured.out + captured.err) == []


@pytest.mark.parametrize("hostile", HOSTILE)
def test_cards_given_to_explain_are_echoed_escaped(capsys, hostile):
    assert main(["explain", "--cards", f"engineer,x{hostile}"]) == 2
    said = one_line_error(capsys)
    assert said.startswith("stargazer explain: --cards engineer,x\\u") and raw_controls(said) == []


# -- report on odd logs: figures or located problems, never a traceback ------------------------



DRAFT7 = load_ruleset("draft7")
_FIGURE = st.integers(min_value=-20_000, max_value=20_000)
_ODD_TEXT = st.one_of(st.text(max_size=3), st.sampled_from(["\x1b[2J", "\u202e", "0", "~", "null", "[]", "{}", "- x"]))


@st.composite
def odd_log(draw) -> str:
    """A log's text near the valid ones: seats, rounds, picks and score lines of any size."""
    seats = draw(st.lists(st.one_of(st.sampled_from(["Aki", "Ben", "Chie", "Dan"]), _ODD_TEXT), min_size=0, max_size=5))
    crews = [card.id for card in DRAFT7.crew]
    picks = draw(st.lists(st.lists(st.one_of(st.sampled_from(crews), _ODD_TEXT), max_size=5), max_size=3))
    lines = [f"date: {draw(st.sampled_from(['2026-11-28', '2026-02-30', '0000-00-00']))}", "ruleset: draft7",
             f"seats: {json_text(seats)}", f"rounds: {draw(st.integers(min_value=-1, max_value=300))}"]
    if picks:
        lines.append(f"picks: {json_text(picks)}")
    lines.append("scores:")
    for name in seats:
        majority, bonus, play = draw(_FIGURE), draw(st.integers(min_value=-1, max_value=99)), draw(_FIGURE)
        total = majority + bonus + play + draw(st.sampled_from([0, 0, 1]))
        hand = draw(st.one_of(st.none(), st.integers(min_value=-1, max_value=20)))
        parts = f"majority: {majority}, bonus: {bonus}, play: {play}, total: {total}" + (f", hand: {hand}" if hand is not None else "")
        lines.append(f"  {json_text(name)}: {{{parts}}}")
    return "\n".join(lines) + "\n"


def json_text(value) -> str:
    return json.dumps(value)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(odd_log(), min_size=1, max_size=4))
def test_odd_logs_are_read_or_refused_and_their_report_never_fails(texts):
    """Every log is a log or a PlaytestError with located problems; the report of those read
    (as playtest report prints it, and as JSON) is made whatever they hold."""
    logs = []
    for text in texts:
        try:
            logs.append(log_from_yaml_text(text, "log.yaml", DRAFT7))
        except PlaytestError as error:
            assert error.problems and all(str(problem).startswith("log.yaml:") for problem in error.problems)
    if logs:
        report = playtest_report(logs)
        assert report_lines(report)[0].startswith(f"{len(logs)} playtest game")
        json.dumps(report)
