"""``stargazer ladder`` and ``simulation.ladder``: each MCTS budget against the next on paired
deals, the skill depth, ladder.json (schemas/ladder.schema.json) in the output folder and the
cache, and ``find_ladder`` reading it back (docs/simulation.md, "stargazer ladder").

Tiny ladders only (budgets 1, 2, 4; two deals a step): the figures are checked against games
replayed here one by one, never against numbers written down.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import jsonschema
import pytest
from processes import HANG_GUARD
from ruleset_edits import copy_ruleset, replace

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import ladder_report, stats
from stargazer_rules.errors import SimulationError
from stargazer_rules.formats import jsonio
from stargazer_rules.frontends.cli import main
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.simulation import ladder
from stargazer_rules.simulation.runner import game_of

TINY = ("--budgets", "1,2,4", "--games", "12")


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def tiny_ladder(capsys, tmp_path: Path, name: str = "out", *more: str) -> tuple[str, str, dict]:
    """Run the tiny ladder into ``tmp_path/name`` with the cache in ``tmp_path/cache``."""
    out = tmp_path / name
    status, stdout, stderr = cli(capsys, "ladder", *TINY, "--out", str(out), "--cache", str(tmp_path / "cache"), *more)
    assert status == 0, stderr
    return stdout, stderr, json.loads((out / ladder.LADDER_FILE).read_text(encoding="utf-8"))


# -- the seatings and one game ------------------------------------------------------------


def test_four_players_play_two_against_two_in_all_six_seatings_of_a_deal():
    """C(4, 2) = 6 seatings: each seat is the stronger bot's in 3 of them, the fair share 1/2."""
    found = ladder.seatings(4)
    assert len(found) == len(set(found)) == 6
    assert all(sum(seating) == 2 for seating in found)
    assert [sum(seating[seat] for seating in found) for seat in range(4)] == [3, 3, 3, 3]
    assert ladder.StepResult("a", "b", 4, (), ()).fair_share == 0.5


def test_three_players_rotate_one_stronger_seat():
    assert ladder.seatings(3) == ((True, False, False), (False, True, False), (False, False, True))
    assert ladder.StepResult("a", "b", 3, (), ()).fair_share == 1 / 3


def test_a_ladder_game_shares_ties_and_measures_the_margin_between_the_two_bots_seats():
    """The win share is the stronger bot's seats among the winners (ties shared, R18), the
    margin its seats' mean total minus the others'; replayed here from the seeds the ladder gives."""
    from stargazer_rules.bots import make_bot
    from stargazer_rules.engine.scoring import provisional_totals, winners
    from stargazer_rules.simulation.runner import bot_seed

    game = game_of(load_ruleset("draft7"))
    for seating_index, seating in enumerate(ladder.seatings(4)):
        bots = [make_bot("mcts:2" if strong else "mcts:1", bot_seed(7, seating_index, seat))
                for seat, strong in enumerate(seating)]
        state = game.new_state(players=4, seed=7)
        while state.legal:
            state = game.step(state, bots[game.current_player(state)].choose(game, state))
        totals = provisional_totals(game, state)
        won = winners(totals, state.hands)
        share = sum(seating[seat] for seat in won) / len(won)
        strong = [total for total, is_strong in zip(totals, seating) if is_strong]
        weak = [total for total, is_strong in zip(totals, seating) if not is_strong]
        played = ladder.play_ladder_game(game, "mcts:1", "mcts:2", 4, 7, seating_index)
        assert played == (share, sum(strong) / 2 - sum(weak) / 2)


# -- the skill depth ----------------------------------------------------------------------


def _step(players: int, shares: list[float]) -> ladder.StepResult:
    return ladder.StepResult("weak", "strong", players, tuple(shares), tuple(0.0 for _ in shares))


def test_skill_depth_counts_the_steps_whose_interval_lies_above_the_fair_share():
    """Synthetic steps: 40 wins of 40 and 30 of 40 pay, 20 of 40 and 10 of 40 do not, and a
    step that pays after one that does not still counts: depth 2 of 4."""
    steps = [_step(4, [1.0] * 40), _step(4, [1.0, 0.0] * 20), _step(4, [1.0] * 30 + [0.0] * 10), _step(4, [0.25] * 40)]
    figures = ladder_report.ladder_figures(
        ruleset={"name": "draft7", "fingerprint": "0" * 64}, players=4, budgets=[1, 2, 4, 8, 16], seed=0,
        engine="native", deals=10, seatings=6, steps=steps,
    )
    assert [step["stronger_wins_more"] for step in figures["steps"]] == [True, False, True, False]
    assert figures["skill_depth"] == 2
    low, high = stats.wilson(30, 40)
    assert figures["steps"][2]["wins"] == {"count": 30.0, "n": 40, "rate": 0.75, "low": round(low, 6), "high": round(high, 6)}
    assert [step["budgets"] for step in figures["steps"]] == [[1, 2], [2, 4], [4, 8], [8, 16]]
    assert jsonio.schema_problems("ladder", figures) == []


def test_with_three_players_the_fair_share_is_a_third():
    """Half the wins over 100 games is well above a third; 40 of 100 is not clear of it."""
    paying, not_clear = _step(3, [0.5] * 100), _step(3, [0.4] * 100)
    assert stats.wilson(40, 100)[0] < 1 / 3 < stats.wilson(50, 100)[0]
    assert ladder_report.step_figures(paying)["stronger_wins_more"] is True
    assert ladder_report.step_figures(not_clear)["stronger_wins_more"] is False


def _figures(steps: list[ladder.StepResult]) -> dict:
    """ladder.json's figures of synthetic ``steps`` (budgets 1, 2, 4, ...)."""
    return ladder_report.ladder_figures(
        ruleset={"name": "draft7", "fingerprint": "0" * 64}, players=4, budgets=[2**k for k in range(len(steps) + 1)],
        seed=0, engine="native", deals=2, seatings=6, steps=steps,
    )


def test_skill_depth_zero_is_said_as_a_finding():
    figures = _figures([_step(4, [0.5] * 12), _step(4, [0.25] * 12)])
    assert figures["skill_depth"] == 0
    assert ladder_report.depth_text(figures) == (
        "Skill depth 0: in none of the 2 steps does the stronger bot win significantly more than its fair "
        "50.0%. Thinking does not pay in this game, at these budgets and as far as 12 games a step can tell."
    )


def test_a_ladder_of_one_step_is_said_in_the_singular():
    """Two budgets make one step: "the ladder's one step", never "of the 1 steps"."""
    flat, paying = _figures([_step(4, [0.5] * 12)]), _figures([_step(4, [1.0] * 40)])
    assert ladder_report.depth_text(flat) == (
        "Skill depth 0: in the ladder's one step the stronger bot does not win significantly more than its "
        "fair 50.0%. Thinking does not pay in this game, at these budgets and as far as 12 games a step can tell."
    )
    assert ladder_report.depth_text(paying) == (
        "Skill depth 1: in the ladder's one step the stronger bot wins significantly more than its fair 50.0% "
        "(its 95% interval lies above it)."
    )


def test_the_pages_settings_table_has_a_name_in_each_row_and_no_empty_header_row():
    """ladder.html's first table lists the settings, each row headed by its name: no header
    row of empty cells above them."""
    page = ladder_report.render_ladder(_figures([_step(4, [0.5] * 12)]))
    settings = page[page.index("<table") : page.index("</table>")]
    assert "<thead>" not in settings
    assert re.findall(r'<th scope="row" class="text">([^<]*)</th>', settings) == [
        "ruleset", "players", "MCTS budgets", "games a step", "engine", "intervals"]
    assert not re.search(r"<th[^>]*>\s*</th>", page)


# -- the command end to end ---------------------------------------------------------------


def test_a_tiny_ladder_prints_its_table_and_writes_a_valid_ladder_json_and_page(tmp_path, capsys):
    """Budgets 1, 2, 4 on two deals: every figure of ladder.json is the games replayed here,
    the file is valid against its schema, the page is one self-contained file, and stderr has
    one progress line per step."""
    stdout, stderr, found = tiny_ladder(capsys, tmp_path)
    schema = json.loads((schemas_dir() / "ladder.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema, registry=jsonio.schema_registry()).validate(found)
    assert jsonio.schema_problems("ladder", found) == []
    ruleset = load_ruleset("draft7")
    game = game_of(ruleset)
    assert found["ruleset"] == {"name": "draft7", "fingerprint": ruleset.fingerprint}
    assert (found["players"], found["budgets"], found["seed"], found["deals"], found["seatings"]) == (4, [1, 2, 4], 0, 2, 6)
    for step, (weaker, stronger) in zip(found["steps"], [(1, 2), (2, 4)], strict=True):
        games = [ladder.play_ladder_game(game, f"mcts:{weaker}", f"mcts:{stronger}", 4, deal, index)
                 for deal in (0, 1) for index in range(6)]
        wins = math.fsum(share for share, _ in games)
        low, high = stats.wilson(wins, 12)
        assert step["budgets"] == [weaker, stronger] and step["games"] == 12
        assert step["wins"] == {"count": round(wins, 6), "n": 12, "rate": round(wins / 12, 6),
                                "low": round(low, 6), "high": round(high, 6)}
        assert step["margin"] == {"mean": round(math.fsum(margin for _, margin in games) / 12, 6), "n": 12}
        assert step["stronger_wins_more"] is (low > 0.5)
    assert found["skill_depth"] == sum(step["stronger_wins_more"] for step in found["steps"])
    assert re.fullmatch(
        r"stargazer ladder: step 1 of 2, mcts:1 vs mcts:2: 12 games in \d+\.\d s on \d+ workers?\n"
        r"stargazer ladder: step 2 of 2, mcts:2 vs mcts:4: 12 games in \d+\.\d s on \d+ workers?\n",
        stderr,
    )
    lines = stdout.splitlines()
    assert lines[0] == f"draft7 ({ruleset.fingerprint[:12]}), 4 players, 2 deals x 6 seatings a step from seed 0, MCTS bots (native engine)"
    rows = [line.split() for line in lines if line[:1].isdigit()]
    assert [row[:5] for row in rows] == [[str(s["step"]), *map(str, [s["budgets"][0], "vs", s["budgets"][1]]), "12"]
                                         for s in found["steps"]]
    assert ladder_report.depth_text(found) in stdout
    page = (tmp_path / "out" / ladder_report.LADDER_PAGE).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert ladder_report.depth_text(found) in page
    assert not re.search(r"""(?:\b(?:src|href)\s*=\s*["']?|url\(\s*["']?)\s*(?:https?:)?//""", page, re.IGNORECASE)


def test_the_ladder_schema_is_one_of_the_file_schemas_the_contracts_check():
    """tests/test_contracts.py holds every file schema to 2020-12, descriptions and closed objects."""
    assert "ladder" in jsonio.FILE_SCHEMA_KINDS
    assert jsonio.schema("ladder")["properties"]["format"]["const"] == ladder.LADDER_FORMAT


def test_one_and_two_workers_write_the_same_ladder_json(tmp_path, capsys):
    """Bot seeds come from the deal, the seating and the seat, and results are kept in the
    order of the games, so the file is the same byte for byte whatever --workers is."""
    tiny_ladder(capsys, tmp_path, "one", "--workers", "1")
    tiny_ladder(capsys, tmp_path, "two", "--workers", "2")
    one = (tmp_path / "one" / ladder.LADDER_FILE).read_bytes()
    assert one == (tmp_path / "two" / ladder.LADDER_FILE).read_bytes()
    played = [ladder.play_ladder(load_ruleset("draft7"), ["mcts:1", "mcts:2"], players=3, games=9, workers=workers)
              for workers in (1, 2)]
    assert played[0] == played[1]  # game by game, in the order of the deals and seatings
    assert len(played[0][0].shares) == 9


def test_another_seed_plays_other_deals(tmp_path, capsys):
    _, _, first = tiny_ladder(capsys, tmp_path, "first")
    _, _, other = tiny_ladder(capsys, tmp_path, "other", "--seed", "5")
    assert other["seed"] == 5
    assert [step["margin"] for step in other["steps"]] != [step["margin"] for step in first["steps"]]


def test_the_default_output_folder_is_named_for_the_ruleset_and_players(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = cli(capsys, "ladder", *TINY, "--players", "3", "--cache", str(tmp_path / "cache"))
    assert status == 0, err
    assert sorted(path.name for path in (tmp_path / "ladder-draft7-3p").iterdir() if not path.name.startswith(".")) == [
        "ladder.html", "ladder.json"]


def test_a_ruleset_the_kernel_cannot_play_plays_on_python_with_the_warning_simulate_prints(tmp_path, capsys):
    """Draft 7 with 9,000 cubes a player is beyond the kernel (tests/test_engines.py): one
    warning line, the Python bots play, and ladder.json says so."""
    folder = copy_ruleset(tmp_path)
    replace(folder, "rules.yaml", "cubes_per_player: 12", "cubes_per_player: 9000")
    out = tmp_path / "out"
    status, _, err = cli(capsys, "ladder", "--rules", str(folder), "--players", "3", "--budgets", "1,2", "--games", "3",
                         "--workers", "1", "--out", str(out), "--cache", str(tmp_path / "cache"))
    assert status == 0, err
    assert [line for line in err.splitlines() if "warning" in line] == [
        "stargazer ladder: warning: draft7 runs on the Python engine: cubes_per_player = 9000 is beyond the kernel's limit of 8000"
    ]
    found = json.loads((out / ladder.LADDER_FILE).read_text(encoding="utf-8"))
    assert (found["engine"], found["deals"], found["seatings"], found["fair_share"]) == ("python", 1, 3, 0.333333)


# -- the cache and find_ladder ------------------------------------------------------------


def test_find_ladder_finds_the_ladder_the_command_kept_in_the_cache(tmp_path, capsys):
    stdout, _, found = tiny_ladder(capsys, tmp_path)
    fingerprint = load_ruleset("draft7").fingerprint
    kept = tmp_path / "cache" / ladder.LADDERS_FOLDER / f"{fingerprint}-4p.json"
    assert kept.read_bytes() == (tmp_path / "out" / ladder.LADDER_FILE).read_bytes()
    assert stdout.endswith(f"kept in the cache as {kept}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ladder.find_ladder(fingerprint, 4, tmp_path / "cache") == found
        assert ladder.find_ladder(fingerprint, 3, tmp_path / "cache") is None  # none played: no warning
        assert ladder.find_ladder("0" * 64, 4, tmp_path / "cache") is None


def test_find_ladder_reads_the_cache_folder_of_stargazer_cache(tmp_path, capsys, monkeypatch):
    _, _, found = tiny_ladder(capsys, tmp_path)
    monkeypatch.setenv("STARGAZER_CACHE", str(tmp_path / "cache"))
    assert ladder.find_ladder(load_ruleset("draft7").fingerprint, 4) == found


@pytest.mark.parametrize(
    ("garble", "why"),
    [
        (lambda text: text[: len(text) // 2], r"cannot read the stored ladder: it is not a JSON ladder: .*; ignored"),
        (lambda text: text.replace('"skill_depth": ', '"skill_depth": "') .replace("\n}", '"\n}'),
         r"not a ladder of this ruleset: \$\.skill_depth: '\d+' is not of type 'integer'; ignored"),
        (lambda text: text.replace("stargazer-ladder/1", "stargazer-ladder/9"),
         r"not a ladder of this ruleset: its format is 'stargazer-ladder/9', not 'stargazer-ladder/1'; ignored"),
        (lambda text: "[]", r"not a ladder of this ruleset: its format is 'list', not 'stargazer-ladder/1'; ignored"),
        (lambda text: re.sub(r'"skill_depth": \d+', '"skill_depth": 99999999999999999999999', text),
         r"not a ladder of this ruleset: its skill_depth is a 23-digit number, but \d of its steps say the "
         r"stronger bot wins more; ignored"),
        (lambda text: text.replace('"stronger_wins_more": false', '"stronger_wins_more": true', 1),
         r"not a ladder of this ruleset: step \d's stronger_wins_more disagrees with its interval and the fair share; ignored"),
        (lambda text: text.replace('"games": 12', '"games": 13', 1),
         r"not a ladder of this ruleset: step 1 counts other games than its 2 deals in 6 seatings; ignored"),
        (lambda text: '{"format": "stargazer-ladder/1", "skill_depth": NaN}',
         r"cannot read the stored ladder: it is not a ladder: NaN is not a JSON number; ignored"),
    ],
    ids=["cut", "wrong-type", "other-format", "not-an-object", "forged-depth", "forged-step", "forged-games",
         "nan"],
)
def test_find_ladder_refuses_a_garbled_file_with_a_warning(tmp_path, capsys, garble, why):
    """None and one warning naming the file and why; never an exception."""
    tiny_ladder(capsys, tmp_path)
    fingerprint = load_ruleset("draft7").fingerprint
    kept = ladder.ladder_path(fingerprint, 4, tmp_path / "cache")
    kept.write_text(garble(kept.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        assert ladder.find_ladder(fingerprint, 4, tmp_path / "cache") is None
    assert len(caught) == 1
    assert re.fullmatch(f"{re.escape(str(kept))}: {why}", str(caught[0].message))


def test_find_ladder_refuses_the_ladder_of_another_ruleset_under_its_name(tmp_path, capsys):
    """A valid ladder of draft7 copied to the place of another fingerprint is not that ruleset's."""
    tiny_ladder(capsys, tmp_path)
    draft7 = load_ruleset("draft7").fingerprint
    other = "0" * 64
    shutil.copy(ladder.ladder_path(draft7, 4, tmp_path / "cache"), ladder.ladder_path(other, 4, tmp_path / "cache"))
    with pytest.warns(UserWarning) as caught:
        assert ladder.find_ladder(other, 4, tmp_path / "cache") is None
    assert str(caught[0].message) == (
        f"{ladder.ladder_path(other, 4, tmp_path / 'cache')}: not a ladder of this ruleset: it is the ladder of "
        f"another ruleset (fingerprint {draft7[:12]}, not 000000000000); ignored"
    )


def test_a_fingerprint_that_is_not_one_is_refused_before_any_file_is_read(tmp_path):
    with pytest.raises(ValueError, match=r"^'\.\./x' is not a ruleset fingerprint: give Ruleset\.fingerprint, 64 hex digits$"):
        ladder.find_ladder("../x", 4, tmp_path)


def test_simulation_ladder_imports_without_numpy_or_scipy():
    """What reads a stored ladder (design targets) pays for no statistics."""
    code = (
        "import sys; sys.modules['numpy'] = sys.modules['scipy'] = sys.modules['matplotlib'] = None\n"
        "from stargazer_rules.simulation.ladder import find_ladder, play_ladder\n"
        "print('imported')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_GUARD)
    assert (done.returncode, done.stdout, done.stderr) == (0, "imported\n", "")


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--budgets", "50,25"], "--budgets 50,25: the budgets must increase: 25 follows 50; write them smallest first, e.g. 25,50,100"),
        (["--budgets", "25,25"], "--budgets 25,25: the budgets must increase: 25 follows 25; write them smallest first, e.g. 25,50,100"),
        (["--budgets", "0,5"], "--budgets 0,5: 0 is not a budget: an MCTS bot takes at least 1 iteration"),
        (["--budgets=-5,10"], "--budgets -5,10: -5 is not a budget: an MCTS bot takes at least 1 iteration"),
        (["--budgets", "1,2000000"], "--budgets 1,2000000: 2,000,000 iterations is more than a bot may take (1,000,000): give at most 1000000"),
        (["--budgets", "100"], "--budgets 100: a ladder needs at least two budgets, one step between them: write e.g. 25,50,100"),
        (["--budgets", "25,fifty"], "--budgets 25,fifty: 'fifty' is not a whole number: write MCTS iterations separated by commas, smallest first, e.g. 25,50,100"),
        (["--players", "5"], "draft7: 5 players are not supported by this ruleset (supported: 3, 4)"),
        (["--seed", str(2**64 - 1)], f"--seed {2**64 - 1} with 2 deals a step deals the last from seed {2**64}, "
                                     f"past the largest seed ({2**64 - 1}); give a seed of at most {2**64 - 2}"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(tmp_path, capsys, argv, message):
    """Nothing played, no output folder: one line saying what to write instead."""
    out = tmp_path / "out"
    try:
        status, stdout, stderr = cli(capsys, "ladder", "--games", "12", *argv, "--out", str(out))
    except SystemExit as exited:
        status, captured = exited.code, capsys.readouterr()
        stdout, stderr = captured.out, captured.err
    assert (status, stdout, stderr) == (2, "", f"stargazer ladder: {message}\n")
    assert not out.exists()


def test_seed_past_the_range_is_refused_as_simulate_refuses_it(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["ladder", "--seed", "-1"])
    assert exited.value.code == 2
    assert capsys.readouterr().err == "stargazer ladder: --seed -1 is not a seed: give an integer from 0 to 18446744073709551615 (2**64 - 1)\n"


_HOLD = """
import sys
from stargazer_rules.simulation import locks
with locks.holding(sys.argv[1], "ladder"):
    print("held", flush=True)
    sys.stdin.readline()
"""


def test_a_folder_another_command_writes_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        status, stdout, stderr = cli(capsys, "ladder", *TINY, "--out", str(out), "--cache", str(tmp_path / "cache"))
        assert (status, stdout) == (1, "")
        assert stderr.startswith(f"stargazer ladder: {out} is being written by process {holder.pid} on ")
        assert stderr.count("\n") == 1
        assert not (out / ladder.LADDER_FILE).exists()
    finally:
        holder.communicate("\n", timeout=HANG_GUARD)


def test_the_library_refuses_a_ladder_of_one_tier_before_playing():
    with pytest.raises(SimulationError, match=r"^a ladder needs at least two tiers, not 1$"):
        ladder.play_ladder(load_ruleset("draft7"), ["mcts:1"], players=4, games=6)
