"""Finished runs are reused, shorter ones extended, and the command says which it did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stargazer_rules.frontends import cli
from stargazer_rules.simulation import cache

QUICK = ["--games", "8", "--bots", "random", "--workers", "1"]


@pytest.fixture(autouse=True)
def no_report_files(monkeypatch):
    """These tests are about the games; the report pages (plots: seconds each) are left out."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)
    monkeypatch.setattr(analysis, "write_comparison", lambda comparison, out: None)


def _simulate(capsys, *args) -> str:
    assert cli.main(["simulate", *QUICK, *args]) == 0
    return capsys.readouterr().err


def _lines(folder) -> list[str]:
    return sorted((folder / "games.jsonl").read_text(encoding="utf-8").splitlines())


def test_a_finished_run_in_the_output_folder_is_reused(tmp_path, capsys):
    """The same options into the same folder play nothing and say what was reused."""
    out = tmp_path / "run"
    first = _simulate(capsys, "--out", str(out))
    assert "draft7: played 8 games" in first
    before = (out / "games.jsonl").read_bytes()
    second = _simulate(capsys, "--out", str(out))
    assert f"draft7: reused the 8 finished games of the same run in the output folder ({out})" in second
    assert "played" not in second
    assert (out / "games.jsonl").read_bytes() == before
    identity = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert (identity["players"], identity["seed"], identity["engine"]) == (4, 0, "native")
    assert identity["version"] == cache.library_version() and identity["lineup"] == ["random"] * 4


@pytest.mark.slow
def test_no_cache_plays_again_and_another_identity_is_not_reused(tmp_path, capsys):
    """--no-cache plays every game again (the same games); another seed or engine is another
    run, played the first time and reused from the cache the next."""
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out))
    before = _lines(out)
    again = _simulate(capsys, "--out", str(out), "--no-cache")
    assert "played 8 games in" in again and _lines(out) == before
    other_seed = _simulate(capsys, "--out", str(out), "--seed", "5")
    assert "played 8 games in" in other_seed and "reused" not in other_seed
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["seed"] == 5  # the games' own run
    back = _simulate(capsys, "--out", str(out))
    assert "reused the 8 finished games of the same run in the cache" in back and _lines(out) == before
    other_engine = _simulate(capsys, "--out", str(out), "--seed", "5", "--engine", "python")
    assert "played 8 games in" in other_engine and "python engine" in other_engine


def test_a_shorter_run_is_extended_to_the_same_games_as_a_fresh_one(tmp_path, capsys):
    """8 games then --games 16: only the 8 missing are played, and the file holds the games a
    fresh 16-game run plays."""
    out, fresh = tmp_path / "run", tmp_path / "fresh"
    _simulate(capsys, "--out", str(out), "--no-cache")
    extended = _simulate(capsys, "--out", str(out), "--games", "16")
    assert f"extending the run in the output folder ({out}): 8 of 16 games kept" in extended
    assert "played 8 games (8 were already there)" in extended
    _simulate(capsys, "--out", str(fresh), "--games", "16", "--no-cache")
    assert _lines(out) == _lines(fresh)
    shorter = _simulate(capsys, "--out", str(out), "--games", "4")
    assert "reused the 4 finished games" in shorter and len(_lines(out)) == 16  # nothing cut


def test_the_cache_folder_serves_another_output_folder(tmp_path, capsys):
    """A run kept in --cache is reused for another --out, with the same games."""
    store = tmp_path / "cache"
    _simulate(capsys, "--out", str(tmp_path / "one"), "--cache", str(store))
    second = _simulate(capsys, "--out", str(tmp_path / "two"), "--cache", str(store))
    assert "reused the 8 finished games of the same run in the cache" in second
    assert _lines(tmp_path / "one") == _lines(tmp_path / "two")


def test_compare_reuses_both_runs_the_second_time(tmp_path, capsys):
    """The edit-to-answer loop: a second compare into the same folder replays nothing."""
    out = tmp_path / "cmp"
    assert cli.main(["compare", "draft7", "base", *QUICK, "--out", str(out), "--no-cache"]) == 0
    first = capsys.readouterr()
    assert first.err.count("played 8 games") == 2
    assert cli.main(["compare", "draft7", "base", *QUICK, "--out", str(out)]) == 0
    second = capsys.readouterr()
    assert second.err.count("reused the 8 finished games") == 2 and "played" not in second.err
    assert second.out.splitlines()[0] == first.out.splitlines()[0]


def test_a_run_of_other_code_is_not_reused(tmp_path, capsys, monkeypatch):
    """The identity holds a digest of the code that plays: a checkout whose rules changed under
    the same version (an editable install) plays its games again instead of reusing old ones."""
    out = tmp_path / "run"
    _simulate(capsys, "--out", str(out))
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["code"] == cache.code_digest()
    assert "reused" in _simulate(capsys, "--out", str(out))
    monkeypatch.setattr(cache, "code_digest", lambda: "0" * 16)
    again = _simulate(capsys, "--out", str(out))
    assert "played 8 games in" in again and "reused" not in again


def test_the_code_digest_follows_the_playing_code_only(tmp_path):
    """Editing the engine, the kernel or the schemas changes the digest; editing the text of
    the reports (which only reads the games) does not."""
    import shutil

    import stargazer_rules

    package = tmp_path / "stargazer_rules"
    shutil.copytree(Path(stargazer_rules.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    original = cache.digest_of_code(package)
    assert original == cache.code_digest()
    with (package / "text" / "reports.py").open("a", encoding="utf-8") as file:
        file.write("\n# a comment\n")
    assert cache.digest_of_code(package) == original
    for changed in ("engine/game.py", "bots/mcts.py", next(package.glob("_kernel*")).name):
        with (package / changed).open("ab") as file:
            file.write(b"\n")
        assert cache.digest_of_code(package) != original, changed
        original = cache.digest_of_code(package)
