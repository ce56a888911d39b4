"""Numbers formatted one way on the terminal (issue #36, "Small trips"): every count of 1,000 or
more that simulate, compare, tune, explain, calibrate, ladder, playtest report and cache list
print, on stdout or stderr (estimates and progress lines too), reads with a thousands separator;
and compare, tune, explain and calibrate say no statistician's word on the terminal, their
progress lines included. Cheap runs: random bots, a run of 1,200 games reused by compare from the
cache."""

from __future__ import annotations

import re

import pytest

from stargazer_rules import load_ruleset
from stargazer_rules.frontends.cli import main
from stargazer_rules.simulation.estimate import estimate_text

#: A run of four to nine digits that stands alone: not inside an id or a fingerprint (letters or
#: digits around it; a key of ten digits or more is an id, never a count here), a path, a
#: decimal's tail, a date (2026-12-01) or an option's value.
_RAW = re.compile(r"(?<![\w./,:=-])\d{4,9}(?![\w/-])")
#: What may be written without a separator: a seed (as typed), a year.
_EXEMPT = re.compile(r"(?:seeds?|--seed|from seed|seed) $")


def raw_numbers(text: str) -> list[str]:
    """Each line holding a count of 1,000 or more written without a separator."""
    found = []
    for line in text.splitlines():
        for match in _RAW.finditer(line):
            if not _EXEMPT.search(line[: match.start()]):
                found.append(line)
                break
    return found


def test_the_check_finds_a_raw_count_and_leaves_ids_paths_seeds_and_dates():
    assert raw_numbers("draft7: played 1200 games in 3.4 s") == ["draft7: played 1200 games in 3.4 s"]
    assert raw_numbers("played 1,200 games; 12000.5 VP") == ["played 1,200 games; 12000.5 VP"]
    assert raw_numbers("draft7 (4a62ba295c34) in /tmp/run-20261/out, deals from seed 1000003, 2026-12-01") == []
    assert raw_numbers("  915017033966  draft7 4p random x4 seed 10000 native  48 games") == []  # a cache key


@pytest.mark.slow
def test_no_command_prints_a_count_of_thousands_without_its_separator(tmp_path, capsys):
    from stargazer_rules.playtests import folder
    from stargazer_rules.playtests.sources import log_from_game_line
    from stargazer_rules.simulation.rung_runs import one_per_deal, rung_run

    draft7 = load_ruleset("draft7")
    cache = ["--cache", str(tmp_path / "cache")]
    quick = ["--workers", "1", *cache]
    (tmp_path / "tune.yaml").write_text("space:\n  rules.cubes_per_player: [12, 6]\nmax_edits: 1\n", encoding="utf-8")
    (tmp_path / "targets.yaml").write_text("targets:\n  - {measure: game_rounds, at_most: 3.0}\n", encoding="utf-8")
    logs = tmp_path / "logs"
    games = rung_run(draft7, "random", players=4, deals=12, seed=10_000, out=tmp_path / "played", workers=1,
                     cache=tmp_path / "cache").games
    for line in one_per_deal(games):
        folder.add_log(draft7, log_from_game_line(line, date="2026-12-01"), folder=logs)
    commands = [
        ["simulate", "--games", "1200", "--bots", "random", "--out", str(tmp_path / "sim"), *quick],
        ["compare", "draft7", "base", "--games", "1200", "--bots", "random", "--out", str(tmp_path / "compare"), *quick],
        ["explain", "--rules", "draft7", "--games", "24", "--bots", "random", "--cards", "engineer",
         "--out", str(tmp_path / "explain"), *quick],
        ["tune", "draft7", "--space", str(tmp_path / "tune.yaml"), "--targets", str(tmp_path / "targets.yaml"),
         "--bots", "random", "--trials", "2", "--games-per-trial", "16", "--recheck-games", "16",
         "--out", str(tmp_path / "tune"), *quick],
        ["calibrate", "--from", str(logs), "--rungs", "random,greedy", "--deals", "12", "--out", str(tmp_path / "cal"),
         *quick],
        ["ladder", "--budgets", "1,2", "--games", "8", "--out", str(tmp_path / "ladder"), *quick],
        ["playtest", "report", "--from", str(logs)],
        ["cache", "list", *cache],
    ]
    from test_figures_once import STATISTICIANS_WORDS

    for command in commands:
        assert main(command) == 0, command
        captured = capsys.readouterr()
        said = captured.out + "\n" + captured.err
        assert raw_numbers(said) == [], command
        if command[0] in ("compare", "tune", "explain", "calibrate"):  # their terminal lines, the brief and the rest
            assert STATISTICIANS_WORDS.findall(said) == [], (command, said)


def test_the_estimate_before_a_long_run_writes_its_counts_with_separators():
    line = estimate_text(played=64, seconds=0.05, remaining=7136)
    assert raw_numbers(line) == [] and "7,136 games" in line and "1,280.0 games/s" in line
