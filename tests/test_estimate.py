"""Before a long run: an estimate of its duration from a short calibration, on stderr."""

from __future__ import annotations

import pytest

from stargazer_rules.frontends import cli
from stargazer_rules.simulation import estimate


def test_durations_read_as_a_person_would_say_them():
    """Seconds, then minutes and seconds, then hours and minutes."""
    assert [estimate.format_duration(s) for s in (0.4, 48.6, 200, 7500)] == ["0 s", "49 s", "3 min 20 s", "2 h 05 min"]
    assert estimate.estimate_text(64, 2.0, 1736) == (
        "estimate: about 54 s for the remaining 1,736 games (calibrated on 64 games at 32.0 games/s)"
    )


def test_a_long_run_is_calibrated_first_and_nothing_is_played_twice(tmp_path, capsys, monkeypatch):
    """With the long-run threshold lowered: the first games are timed, the estimate printed, the
    rest played; the run holds each planned game once, as a run without calibration does."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)
    monkeypatch.setattr(estimate, "LONG_RUN", 8)
    monkeypatch.setattr(estimate, "CALIBRATION", 4)
    out = tmp_path / "run"
    assert cli.main(["simulate", "--games", "16", "--bots", "random", "--workers", "1", "--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("draft7: estimate: about ") and "for the remaining 12 games (calibrated on 4 games at" in err[0]
    assert err[1].startswith("draft7: played 16 games in ")
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines()
    monkeypatch.setattr(estimate, "LONG_RUN", 1000)
    fresh = tmp_path / "fresh"
    assert cli.main(["simulate", "--games", "16", "--bots", "random", "--workers", "1", "--out", str(fresh), "--no-cache"]) == 0
    assert "estimate" not in capsys.readouterr().err
    assert sorted(lines) == sorted((fresh / "games.jsonl").read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("games", [4, 8])
def test_a_short_run_is_not_calibrated(tmp_path, capsys, monkeypatch, games):
    """Runs at or under the threshold play at once, without an estimate line."""
    from stargazer_rules import analysis

    monkeypatch.setattr(analysis, "write_report", lambda summary, out: None)
    monkeypatch.setattr(estimate, "LONG_RUN", 8)
    assert cli.main(["simulate", "--games", str(games), "--bots", "random", "--workers", "1", "--out", str(tmp_path / "r")]) == 0
    assert "estimate" not in capsys.readouterr().err
