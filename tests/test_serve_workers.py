"""``stargazer serve --workers N``: processes sharing the port, one secret, none left behind."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from processes import HANG_GUARD, descendants, left_running
from starlette.testclient import TestClient

from stargazer_rules.formats.signing import SECRET_ENV
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.server.app import WORKER_CONFIG_ENV, app_from_environment


def test_worker_apps_share_the_ruleset_options_and_secret(monkeypatch):
    """Two processes' apps built from the command's environment: a state one signed is
    applied by the other (any process may answer any request), with the options given."""
    monkeypatch.setenv(SECRET_ENV, "shared")
    monkeypatch.setenv(
        WORKER_CONFIG_ENV, json.dumps({"ruleset": "base", "max_bot_iterations": 7, "time_limit": 3.0, "allowed_hosts": ["testserver"]})
    )
    monkeypatch.setattr("stargazer_rules.simulation.lifeline.exit_with_parent", lambda: None)
    first, second = TestClient(app_from_environment()), TestClient(app_from_environment())
    assert first.get("/api/ruleset").json()["name"] == "base"
    position = first.post("/api/new", json={"players": 3, "seed": 4}).json()
    body = {"state": position["state"], "signature": position["signature"]}
    answer = second.post("/api/apply", json={**body, "action": position["legal"][0]["action"]})
    assert answer.status_code == 200
    refused = second.post("/api/bot", json={**body, "bot": "mcts:8", "seed": 1})
    assert refused.json()["error"] == "bot_budget" and "at most 7 (--max-bot-iterations)" in refused.json()["message"]
    assert second.get("/api/ruleset", headers={"host": "elsewhere.example"}).status_code == 400


def test_serve_passes_its_options_to_the_worker_processes(monkeypatch, capsys):
    """With --workers, uvicorn gets the factory's import string and the processes' environment
    carries the options, the host names to answer and one secret (drawn when none is given)."""
    from stargazer_rules.frontends.server import listening

    calls = []
    monkeypatch.setattr(listening, "run", lambda app, sock, workers: calls.append((app, sock.getsockname()[1], workers)))
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.delenv(WORKER_CONFIG_ENV, raising=False)
    assert main(["serve", "--workers", "2", "--rules", "base", "--max-bot-iterations", "50", "--port", "0"]) == 0
    (app, port, workers), = calls
    assert (app, workers) == ("stargazer_rules.frontends.server.app:app_from_environment", 2)
    assert json.loads(os.environ[WORKER_CONFIG_ENV]) == {
        "ruleset": "base", "max_bot_iterations": 50, "time_limit": 10.0, "allowed_hosts": ["127.0.0.1", "localhost", "[::1]"],
    }
    assert len(os.environ[SECRET_ENV]) == 64
    assert capsys.readouterr().err == f"stargazer serve: base on http://127.0.0.1:{port}/, 2 processes\n"


@pytest.mark.parametrize("workers", ["0", "65"])
def test_serve_refuses_a_bad_worker_count_in_one_line(capsys, workers):
    assert main(["serve", "--workers", workers]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stargazer serve: --workers {workers} is outside 1 to 64") and len(err.splitlines()) == 1


def _post(port: int, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=HANG_GUARD) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_two_processes_play_a_game_and_end_with_a_kill_9_of_the_command(tmp_path):
    """A real serve --workers 2 (no secret given): once it prints its address the port
    answers (connections wait in the socket's backlog while the processes start), a game is
    played over new connections, each request answered by whichever process accepts it; after
    kill -9 of the command its processes end of themselves."""
    env = {key: value for key, value in os.environ.items() if key != SECRET_ENV}
    err_path = tmp_path / "stderr.txt"
    with err_path.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "stargazer_rules", "serve", "--port", "0", "--workers", "2"],
            stdout=subprocess.DEVNULL, stderr=err, env=env,
        )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not (match := re.search(r"on http://127\.0\.0\.1:(\d+)/, 2 processes\n", err_path.read_text())):
            assert process.poll() is None, err_path.read_text()
            assert time.monotonic() < deadline, "serve --workers 2 hung before printing its address"
            time.sleep(0.05)
        port = int(match.group(1))
        position = _post(port, "/api/new", {"players": 4, "seed": 3})
        for _ in range(40):
            body = {"state": position["state"], "signature": position["signature"]}
            position = _post(port, "/api/apply", {**body, "action": position["legal"][0]["action"]})
        assert position["state"]["round"] >= 2
        while len(descendants(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the second process may still be starting
        workers = descendants(process.pid)
        assert len(workers) >= 2
    finally:
        workers = workers or descendants(process.pid)  # on a failure too, so that none is left
        os.kill(process.pid, signal.SIGKILL)
        process.wait(HANG_GUARD)
    assert left_running(workers, seconds=HANG_GUARD) == []
