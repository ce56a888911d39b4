"""The server's edges: a fault of its own keeps the connection, a client gone mid-body is one
log line, only its own host names are answered, every answer carries the security headers,
bodies are JSON by their Content-Type, and serve's printed address accepts at once."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import re
import socket
import subprocess
import sys
import threading

import pytest
import uvicorn
from processes import HANG_GUARD
from starlette.testclient import TestClient

from stargazer_rules import load_ruleset
from stargazer_rules.formats.signing import StateSigner
from stargazer_rules.frontends.cli import main
from stargazer_rules.frontends.server import TableService, create_app, listening
from stargazer_rules.frontends.server.app import SECURITY_HEADERS

SIGNER = StateSigner("hardening")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("draft7")


@pytest.fixture(scope="module")
def client(ruleset):
    with TestClient(create_app(ruleset, signer=SIGNER), raise_server_exceptions=False) as test_client:
        yield test_client


# -- a fault of the server's own ------------------------------------------------------------


def _serve_in_thread(app):
    """``app`` served by uvicorn in a thread on a listening socket (a free port): connections
    wait in its backlog until the server reads them, so nothing waits for it to start."""
    sock = listening.listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    return server, thread, sock


def test_a_fault_is_a_json_500_and_the_connection_stays_open(ruleset, monkeypatch, caplog):
    """An exception no route expected (planted here in score) is a 500 JSON answer with one
    logged traceback, and the client's next request on the same kept-alive connection is
    answered: before, uvicorn closed the connection after Starlette's 500 page."""

    def fault(self, body):
        raise RuntimeError("a fault planted by the test")

    monkeypatch.setattr(TableService, "score", fault)
    server, thread, sock = _serve_in_thread(create_app(ruleset, signer=SIGNER, allowed_hosts=["127.0.0.1"]))
    connection = http.client.HTTPConnection("127.0.0.1", sock.getsockname()[1], timeout=HANG_GUARD)
    try:
        with caplog.at_level(logging.WARNING):
            connection.request("POST", "/api/score", body=b"{}", headers={"Content-Type": "application/json"})
            first = connection.getresponse()
            body = json.loads(first.read())
        kept = connection.sock
        connection.request("GET", "/api/schemas/score")
        second = connection.getresponse()
        second.read()
        assert (first.status, body) == (500, {"error": "internal_error", "message": "the server failed on this request; its log has the details"})
        assert first.getheader("connection") != "close"
        assert second.status == 200 and connection.sock is kept
        faults = [record for record in caplog.records if record.levelno >= logging.ERROR]
        assert [record.getMessage() for record in faults] == ["the server failed on POST /api/score"]
        assert faults[0].exc_info[1].args == ("a fault planted by the test",)
    finally:
        connection.close()
        server.should_exit = True
        thread.join(HANG_GUARD)
        sock.close()


# -- a client that goes away ----------------------------------------------------------------


def _scope(path: str, headers: dict[str, str]) -> dict:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(name.encode(), value.encode()) for name, value in headers.items()],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }


def test_a_client_gone_mid_body_is_one_log_line_not_a_traceback(ruleset, caplog):
    """Part of a body, then the client disconnects, 100 times: 100 one-line warnings without
    a traceback, nothing raised out of the app, nothing sent (before: a ClientDisconnect
    traceback each, 3 KB of log a client)."""
    app = create_app(ruleset, signer=SIGNER)
    headers = {"host": "testserver", "content-type": "application/json", "content-length": "500"}

    async def one_client() -> list:
        messages = [{"type": "http.request", "body": b'{"players": 3, "se', "more_body": True}]
        sent = []

        async def receive():
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        await app(_scope("/api/new", headers), receive, send)
        return sent

    async def clients() -> list:
        return [await one_client() for _ in range(100)]

    with caplog.at_level(logging.INFO):
        sent = asyncio.run(clients())
    assert sent == [[]] * 100
    lines = [record for record in caplog.records if record.name.startswith("stargazer_rules")]
    assert len(lines) == 100
    assert {record.getMessage() for record in lines} == {"a client went away before sending its whole request: POST /api/new"}
    assert all(record.exc_info is None and record.levelno == logging.WARNING for record in lines)
    assert [record for record in caplog.records if record.exc_info] == []


# -- host names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "extra", "expected"),
    [
        ("127.0.0.1", [], ["127.0.0.1", "localhost", "[::1]"]),
        ("localhost", [], ["127.0.0.1", "localhost", "[::1]"]),
        ("::1", [], ["127.0.0.1", "localhost", "[::1]"]),
        ("0.0.0.0", ["Box.lan", "*.example.com"], ["127.0.0.1", "localhost", "[::1]", "box.lan", "*.example.com"]),
        ("192.168.1.5", [], ["192.168.1.5"]),
        ("192.168.1.5", ["box.lan"], ["192.168.1.5", "box.lan"]),
    ],
)
def test_the_host_names_answered_follow_the_listen_address(host, extra, expected):
    """listening.allowed_hosts: the address itself, loopback's names on loopback or every
    address, and each --allowed-host."""
    assert listening.allowed_hosts(host, extra) == expected


def _serve_app(monkeypatch, argv):
    """The app ``stargazer serve ARGV`` would run (nothing served)."""
    apps = []
    monkeypatch.setattr(listening, "run", lambda app, sock, workers: apps.append(app))
    assert main(["serve", "--port", "0", *argv]) == 0
    return apps[0]


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("127.0.0.1:8000", 200), ("localhost", 200), ("LOCALHOST:1", 200), ("[::1]:8000", 200), ("box.lan", 200),
        ("attacker.example", 400), ("127.0.0.1.attacker.example", 400), ("localhost.", 400), ("", 400),
    ],
)
def test_serve_answers_only_its_own_host_names(monkeypatch, capsys, host, status):
    """DNS rebinding: a request naming another host (a page of another site pointing its name
    at 127.0.0.1) is refused 400 by Starlette's TrustedHostMiddleware; before, any Host was
    answered."""
    app = _serve_app(monkeypatch, ["--allowed-host", "box.lan"])
    response = TestClient(app).get("/api/ruleset", headers={"host": host})
    assert response.status_code == status
    if status == 400:
        assert response.text == "Invalid host header"
    capsys.readouterr()


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("box.lan:8000", "'box.lan:8000' is not a host name: write the name without scheme or port (example.com, 192.168.1.5)"),
        ("http://box.lan", "'http://box.lan' is not a host name: write the name without scheme or port (example.com, 192.168.1.5)"),
        ("box.*", "'box.*': a wildcard is '*.example.com' (its subdomains) or '*' alone (any host)"),
        ("*box.lan", "'*box.lan': a wildcard is '*.example.com' (its subdomains) or '*' alone (any host)"),
        ("", "'' is not a host name: write the name without scheme or port (example.com, 192.168.1.5)"),
    ],
)
def test_an_allowed_host_that_can_never_match_is_one_line_and_exit_2(capsys, pattern, message):
    """--allowed-host takes what Starlette compares: a name without port, '*.domain' or '*'
    (before the check, a bad wildcard was an AssertionError in Starlette)."""
    assert main(["serve", "--allowed-host", pattern]) == 2
    assert capsys.readouterr().err == f"stargazer serve: --allowed-host {message}\n"


# -- headers and media types ----------------------------------------------------------------


def _requests(client):
    yield "GET /", client.get("/")
    yield "GET /static/app.js", client.get("/static/app.js")
    yield "GET /api/ruleset", client.get("/api/ruleset")
    yield "POST /api/new", client.post("/api/new", json={"players": 3, "seed": 1})
    yield "POST 422", client.post("/api/new", json={"players": 99})
    yield "POST 415", client.post("/api/new", content=b"{}")
    yield "POST 413", client.post("/api/new", content=b" " * (2 << 20), headers={"content-type": "application/json"})
    yield "GET 404", client.get("/nowhere")
    yield "GET 405", client.get("/api/new")
    yield "bad host 400", client.get("/", headers={"host": "attacker.example"})


def test_every_answer_carries_the_security_headers(ruleset):
    """The page, its script, the API's answers and every refusal (422, 415, 413, 404, 405, the
    host's 400) carry the Content-Security-Policy, X-Frame-Options DENY and nosniff."""
    app = create_app(ruleset, signer=SIGNER, allowed_hosts=["testserver"])
    with TestClient(app, raise_server_exceptions=False) as client:
        for name, response in _requests(client):
            for header, value in SECURITY_HEADERS.items():
                assert response.headers.get(header) == value, (name, header)
    assert "frame-ancestors 'none'" in SECURITY_HEADERS["content-security-policy"]
    assert "script-src" not in SECURITY_HEADERS["content-security-policy"]  # default-src 'self': no inline script


def test_the_page_needs_nothing_the_policy_forbids():
    """The page has no inline script or style and no handler attributes: the policy's
    default-src 'self' lets it run as it is."""
    from stargazer_rules.frontends.server.app import STATIC_DIR

    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []
    assert "<style" not in page and " style=" not in page
    assert re.findall(r"\son[a-z]+=", page) == []


@pytest.mark.parametrize(
    ("headers", "found"),
    [
        ({}, "no Content-Type"),
        ({"content-type": "text/plain"}, "Content-Type: text/plain"),
        ({"content-type": "application/x-www-form-urlencoded"}, "Content-Type: application/x-www-form-urlencoded"),
        ({"content-type": "multipart/form-data; boundary=x"}, "Content-Type: multipart/form-data"),
        ({"content-type": "application/jsonp"}, "Content-Type: application/jsonp"),
    ],
)
def test_a_body_not_sent_as_json_is_a_415(client, headers, found):
    """A body is read as JSON only when it says it is (a form posted by another site's page
    cannot say so without the browser asking first); before, any Content-Type was read."""
    response = client.post("/api/new", content=json.dumps({"players": 3, "seed": 1}).encode(), headers=headers)
    assert response.status_code == 415
    assert response.json() == {
        "error": "unsupported_media_type",
        "message": f"the request body must be JSON sent with Content-Type: application/json (found {found})",
    }


@pytest.mark.parametrize("media_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_json_with_or_without_a_charset_is_taken(client, media_type):
    response = client.post("/api/new", content=b'{"players": 3, "seed": 1}', headers={"content-type": media_type})
    assert response.status_code == 200


# -- the address printed --------------------------------------------------------------------


def test_the_address_serve_prints_accepts_at_once(tmp_path):
    """stargazer serve --port 0 prints its address with the port the system chose, once the
    socket listens: one connection attempt right after the line is answered (before, the line
    came before the socket, and said port 0)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "stargazer_rules", "serve", "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = process.stderr.readline()
        match = re.fullmatch(r"stargazer serve: draft7 on http://127\.0\.0\.1:(\d+)/\n", line)
        assert match, line + process.stderr.read() if process.poll() is not None else line
        port = int(match.group(1))
        assert port != 0
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD):
            pass
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
        connection.request("GET", "/api/schemas/new")
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        process.kill()
        process.wait(HANG_GUARD)
        process.stderr.close()


def test_a_port_in_use_is_one_line_and_exit_1(capsys):
    """serve on a port another socket holds says so in one line, before anything is printed."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    assert capsys.readouterr().err == f"stargazer serve: cannot listen on 127.0.0.1 port {port}: Address already in use\n"
