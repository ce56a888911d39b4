"""Nothing is written through a link, nothing waits on a FIFO: every command that writes, walked.

For each command that writes files, and each name it writes, a symlink to a decoy file outside
the folder, a FIFO and a folder are planted at that name in turn; the command must stop with
one line naming the path (no traceback), exit non-zero, and leave the decoy as it was
(``rulesets.outputfiles``; ``tests/test_one_writer.py`` holds every writer to it). Commands
run in this process (``cli.main``) on the fewest games their options allow. A FIFO that a
command opened for writing would block it: a watchdog opens every planted FIFO for reading
after a minute, which lets such a command go on, and the test fails on it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stargazer_rules.frontends import cli
from stargazer_rules.frontends.terminal.play import write_record

QUICK = ["--bots", "random", "--workers", "1"]
DECOY = b"the user's own file\n"
KINDS = ("link", "fifo", "folder")

#: Seconds before the watchdog opens a planted FIFO for reading (only a hang is that long).
HANG_GUARD = 60.0


@contextlib.contextmanager
def fifo_watchdog(fifos: list[Path]) -> Iterator[list[Path]]:
    """Open each FIFO of ``fifos`` for reading after ``HANG_GUARD`` seconds, releasing a writer
    that blocked on it; the FIFOs it had to open are yielded (empty: no command blocked)."""
    opened: list[Path] = []
    done = threading.Event()

    def release() -> None:
        if done.wait(HANG_GUARD):
            return
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
                opened.append(fifo)

    watcher = threading.Thread(target=release, daemon=True)
    watcher.start()
    try:
        yield opened
    finally:
        done.set()
        watcher.join()


def plant(path: Path, kind: str, decoy: Path) -> None:
    """Put a ``kind`` at ``path`` in place of whatever is there."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "link":
        path.symlink_to(decoy)
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
        (path / "inside.txt").write_bytes(DECOY)


def check_refused(capsys, run: Callable[[], int], planted: Path, decoy: Path, kind: str) -> None:
    """``run`` stops non-zero with one line naming ``planted``; the decoy is unchanged."""
    fifos = [planted] if kind == "fifo" else []
    with fifo_watchdog(fifos) as released:
        status = run()
    err = capsys.readouterr().err
    assert not released, f"a command opened the FIFO {planted} for writing and waited on it"
    assert status != 0, err
    assert "Traceback" not in err
    naming = [line for line in err.splitlines() if planted.name in line and line.startswith("stargazer ")]
    assert len(naming) == 1, err
    assert decoy.read_bytes() == DECOY
    if kind == "folder":
        assert (planted / "inside.txt").read_bytes() == DECOY


@pytest.fixture
def decoy(tmp_path) -> Path:
    path = tmp_path / "elsewhere" / "decoy.txt"
    path.parent.mkdir()
    path.write_bytes(DECOY)
    return path


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """A simulate run of 2 random games, copied by each test that needs a finished run folder."""
    out = tmp_path_factory.mktemp("finished") / "run"
    assert cli.main(["simulate", "--games", "2", *QUICK, "--out", str(out), "--no-cache"]) == 0
    return out


def _copy_of(run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    return copy


SIMULATE_NAMES = ["run.json", "games.jsonl", "summary.json", "report.html", ".lock", ".lock-holder.json"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", SIMULATE_NAMES)
def test_simulate_writes_through_no_planted_name(finished_run, tmp_path, decoy, capsys, kind, name):
    out = _copy_of(finished_run, tmp_path)
    plant(out / name, kind, decoy)
    check_refused(capsys, lambda: cli.main(["simulate", "--games", "2", *QUICK, "--out", str(out)]),
                  out / name, decoy, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["summary.json", "report.html"])
def test_report_writes_through_no_planted_name(finished_run, tmp_path, decoy, capsys, kind, name):
    run = _copy_of(finished_run, tmp_path)
    plant(run / name, kind, decoy)
    check_refused(capsys, lambda: cli.main(["report", str(run)]), run / name, decoy, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["comparison.json", "comparison.html", "base/summary.json", "draft7/games.jsonl",
                                  "draft7/run.json"])
def test_compare_writes_through_no_planted_name(tmp_path, decoy, capsys, kind, name):
    out = tmp_path / "cmp"
    plant(out / name, kind, decoy)
    check_refused(capsys, lambda: cli.main(["compare", "base", "draft7", "--games", "2", *QUICK, "--out", str(out)]),
                  out / name, decoy, kind)


def test_compare_refuses_a_run_folder_that_is_a_link(tmp_path, decoy, capsys):
    """A run's folder inside --out linked to a folder elsewhere: nothing is written there."""
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "base").symlink_to(decoy.parent, target_is_directory=True)
    status = cli.main(["compare", "base", "draft7", "--games", "2", *QUICK, "--out", str(out)])
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err
    assert sorted(os.listdir(decoy.parent)) == ["decoy.txt"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["ladder.json", "ladder.html"])
def test_ladder_writes_through_no_planted_name(tmp_path, decoy, capsys, kind, name):
    out = tmp_path / "ladder"
    plant(out / name, kind, decoy)
    command = ["ladder", "--budgets", "1,2", "--games", "2", "--workers", "1", "--out", str(out)]
    check_refused(capsys, lambda: cli.main(command), out / name, decoy, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["explain.json", "explain.html"])
def test_explain_writes_through_no_planted_name(tmp_path, decoy, capsys, kind, name):
    out = tmp_path / "explain"
    plant(out / name, kind, decoy)
    command = ["explain", "--games", "4", *QUICK, "--cards", "armstrong", "--out", str(out)]
    check_refused(capsys, lambda: cli.main(command), out / name, decoy, kind)


@pytest.fixture(scope="module")
def calibration_logs(tmp_path_factory) -> Path:
    """Two playtest logs of random games, for calibrate."""
    from stargazer_rules import load_ruleset
    from stargazer_rules.playtests import folder
    from stargazer_rules.playtests.sources import log_from_game_line
    from stargazer_rules.simulation.rung_runs import one_per_deal, rung_run

    root = tmp_path_factory.mktemp("logs")
    draft7 = load_ruleset("draft7")
    outcome = rung_run(draft7, "random", players=4, deals=2, seed=10_000, out=root / "games", workers=1,
                       cache=root / "cache")
    for log in [log_from_game_line(line, date="2026-11-28") for line in one_per_deal(outcome.games)]:
        folder.add_log(draft7, log, folder=root / "logs")
    return root / "logs"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["calibration.json", "calibration.html"])
def test_calibrate_writes_through_no_planted_name(calibration_logs, tmp_path, decoy, capsys, kind, name):
    out = tmp_path / "calibration"
    plant(out / name, kind, decoy)
    command = ["calibrate", "--from", str(calibration_logs), "--rungs", "random", "--deals", "2", "--workers", "1",
               "--out", str(out)]
    check_refused(capsys, lambda: cli.main(command), out / name, decoy, kind)


@pytest.fixture(scope="module")
def draft(tmp_path_factory) -> Path:
    """A draft of draft 7 (with its tune.yaml), to tune."""
    path = tmp_path_factory.mktemp("draft") / "draft8"
    assert cli.main(["new-draft", str(path)]) == 0
    return path


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["tune.json", "tune.html", "study.db", "study.db-journal"])
def test_tune_writes_through_no_planted_name(draft, tmp_path, decoy, capsys, kind, name):
    out = tmp_path / "tune"
    plant(out / name, kind, decoy)
    command = ["tune", str(draft), "--trials", "1", "--games-per-trial", "4", "--recheck-games", "4", *QUICK,
               "--out", str(out)]
    check_refused(capsys, lambda: cli.main(command), out / name, decoy, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_play_random_record_writes_through_no_planted_name(tmp_path, decoy, capsys, kind):
    record = tmp_path / "game.json"
    plant(record, kind, decoy)
    check_refused(capsys, lambda: cli.main(["play-random", "--players", "3", "--record", str(record)]), record, decoy, kind)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("replace", [True, False])
def test_a_saved_game_is_written_through_no_planted_name(tmp_path, decoy, kind, replace):
    """play's save (and --record at the end of a game) goes through write_record."""
    from stargazer_rules import Game, load_ruleset
    from stargazer_rules.formats import records

    game = Game(load_ruleset("draft7"))
    setup = game.deal(3, seed=1)
    record = records.record_game(game, setup, [], seed=1)
    path = tmp_path / "saved.json"
    plant(path, kind, decoy)
    with fifo_watchdog([path] if kind == "fifo" else []) as released:
        with pytest.raises(OSError, match=f"saved.json is a {dict(link='symbolic link', fifo='FIFO')[kind] if kind != 'folder' else 'folder'}"):
            write_record(record, path, replace=replace)
    assert not released and decoy.read_bytes() == DECOY


@pytest.mark.parametrize("kind", KINDS)
def test_playtest_add_writes_through_no_planted_name(tmp_path, decoy, capsys, kind):
    logs = tmp_path / "logs"
    plant(logs / "friday.yaml", kind, decoy)
    flags = ["--seats", "Aki,Ben,Chie", "--rounds", "6", "--date", "2026-11-28", "--score", "Aki=15,5,2,22,0",
             "--score", "Ben=14,6,2,22,2", "--score", "Chie=9,4,1,14", "--name", "friday", "--to", str(logs)]
    check_refused(capsys, lambda: cli.main(["playtest", "add", "--rules", "draft7", *flags]), logs / "friday.yaml",
                  decoy, kind)


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_new_draft_is_made_at_no_planted_name(tmp_path, decoy, capsys, kind):
    """A link, even to an empty folder, or a FIFO at the draft's name: refused, nothing there."""
    empty = tmp_path / "empty"
    empty.mkdir()
    dest = tmp_path / "draft8"
    plant(dest, kind, decoy)
    if kind == "link":
        dest.unlink()
        dest.symlink_to(empty, target_is_directory=True)
    check_refused(capsys, lambda: cli.main(["new-draft", str(dest)]), dest, decoy, kind)
    assert os.listdir(empty) == []


@pytest.mark.parametrize("kind", KINDS)
def test_print_writes_through_no_planted_pdf(tmp_path, decoy, capsys, kind):
    pdf = tmp_path / "cards.pdf"
    plant(pdf, kind, decoy)
    check_refused(capsys, lambda: cli.main(["print", "--out", str(pdf)]), pdf, decoy, kind)


@pytest.mark.slow
def test_print_writes_through_no_planted_image_or_table_file(tmp_path, decoy, capsys):
    """A link at one card's image, then at the Tabletop Simulator file: refused, decoy kept."""
    images = tmp_path / "images"
    plant(images / "back-crew.png", "link", decoy)
    command = ["print", "--out", str(tmp_path / "cards.pdf"), "--images", str(images)]
    check_refused(capsys, lambda: cli.main(command), images / "back-crew.png", decoy, "link")
    (images / "back-crew.png").unlink()
    tts = tmp_path / "table.json"
    plant(tts, "fifo", decoy)
    check_refused(capsys, lambda: cli.main([*command, "--tts", str(tts)]), tts, decoy, "fifo")


def test_schemas_write_writes_through_no_planted_name(tmp_path, decoy, capsys, monkeypatch):
    """``python -m stargazer_rules.rulesets.schemas --write`` with a link at a schema's name."""
    from stargazer_rules.rulesets import schemas

    folder = tmp_path / "schemas"
    folder.mkdir()
    monkeypatch.setattr(schemas, "schemas_dir", lambda: folder)
    plant(folder / schemas.CREW_SCHEMA_FILE, "link", decoy)
    with pytest.raises(OSError, match="crew.schema.json is a symbolic link"):
        schemas.main(["--write"])
    assert decoy.read_bytes() == DECOY
