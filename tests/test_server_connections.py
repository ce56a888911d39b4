"""The server's connections bounded (``frontends.server.connections``): a real uvicorn on a
loopback port in a thread, with the limits made small so that every test is bounded by a
count of bytes or a fraction of a second, and every socket read by a timeout."""

from __future__ import annotations

import json
import re
import socket
import threading
import time

import pytest
import uvicorn

from stargazer_rules import load_ruleset
from stargazer_rules.frontends.server import create_app, listening
from stargazer_rules.frontends.server.connections import BoundedHttpProtocol

#: The most a test waits on one socket before it fails: far past every limit below.
HANG_GUARD = 20.0


class SmallLimits(BoundedHttpProtocol):
    HEADER_TIMEOUT = 0.5
    BODY_TIMEOUT = 0.5
    MAX_HEADER_BYTES = 2048
    MAX_HEADERS = 20
    MAX_CONNECTIONS = 8


@pytest.fixture(scope="module")
def server():
    """The API served with ``SmallLimits``: (host, port)."""
    sock = listening.listening_socket("127.0.0.1", 0)
    app = create_app(load_ruleset("draft7"), allowed_hosts=listening.allowed_hosts("127.0.0.1"))
    config = listening.config(app, lifespan="off")
    config.http = SmallLimits
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield sock.getsockname()[:2]
    instance.should_exit = True
    thread.join(HANG_GUARD)
    sock.close()


def _connect(server) -> socket.socket:
    conn = socket.create_connection(server, timeout=HANG_GUARD)
    conn.settimeout(HANG_GUARD)
    return conn


def _read_all(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while chunk := conn.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer else 0


def test_a_whole_request_is_answered(server):
    """The limits leave an ordinary request alone: a new game is a 200."""
    body = json.dumps({"players": 3, "seed": 1}).encode()
    with _connect(server) as conn:
        conn.sendall(
            b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        assert _status(_read_all(conn)) == 200


def test_a_half_sent_head_is_answered_408_and_closed(server):
    """A head that stops half-way stayed open for ever; now 408 after HEADER_TIMEOUT."""
    with _connect(server) as conn:
        conn.sendall(b"GET /api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        answer = _read_all(conn)
    assert _status(answer) == 408 and b"the request head did not arrive within 0.5 s" in answer


def test_a_connection_that_sends_nothing_is_closed(server):
    """A connection that never sends a byte is closed quietly after HEADER_TIMEOUT."""
    with _connect(server) as conn:
        assert _read_all(conn) == b""


def test_a_stalled_body_is_answered_408_and_closed(server):
    """A body that stops short of its Content-Length stayed open for ever; now 408 after BODY_TIMEOUT."""
    with _connect(server) as conn:
        conn.sendall(
            b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{\"players\""
        )
        answer = _read_all(conn)
    assert _status(answer) == 408 and b"the request body did not arrive within 0.5 s" in answer


@pytest.mark.parametrize("in_one_write", [True, False])
def test_a_head_past_its_size_is_431(server, in_one_write):
    """A header of 1 MB was answered 200; now 431 once the head passes MAX_HEADER_BYTES,
    whether it comes in one write or a byte stream the parser has not finished."""
    head = b"GET /api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 8192
    with _connect(server) as conn:
        if in_one_write:
            conn.sendall(head + b"\r\n\r\n")
        else:
            for start in range(0, len(head), 1024):
                try:
                    conn.sendall(head[start : start + 1024])
                except OSError:  # the server has answered and closed: the rest is not read
                    break
                time.sleep(0.01)
        answer = _read_all(conn)
    assert _status(answer) == 431 and b"send at most 20 headers in 2,048 bytes" in answer


def test_a_head_past_its_header_count_is_431(server):
    """10,000 headers were answered 200; now 431 past MAX_HEADERS."""
    head = b"GET /api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: 1\r\n" % k for k in range(30)) + b"\r\n"
    assert len(head) < SmallLimits.MAX_HEADER_BYTES
    with _connect(server) as conn:
        conn.sendall(head)
        answer = _read_all(conn)
    assert _status(answer) == 431 and b"more than 20 header lines" in answer


def test_connections_past_the_bound_are_answered_503(server):
    """Past MAX_CONNECTIONS open connections a new one is answered 503 and closed at once;
    once the others close, connections are taken again."""
    held = [_connect(server) for _ in range(SmallLimits.MAX_CONNECTIONS)]
    try:
        time.sleep(0.1)  # the server accepts the held ones first (bounded: they close at 0.5 s)
        with _connect(server) as extra:
            answer = _read_all(extra)
        assert _status(answer) == 503 and b"the server holds 8 connections already" in answer
    finally:
        for conn in held:
            conn.close()
    time.sleep(0.2)
    test_a_whole_request_is_answered(server)


# -- the host a request names -----------------------------------------------------------------


def _answer_to(server, request: bytes) -> bytes:
    with _connect(server) as conn:
        conn.sendall(request)
        return _read_all(conn)


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (b"Host: 127.0.0.1:99999\r\n", b"the host '127.0.0.1:99999' is not a host name with a port of 1 to 65535"),
        (b"Host: 127.0.0.1:http\r\n", b"the host '127.0.0.1:http' is not a host name with a port of 1 to 65535"),
        (b"Host: 127.0.0.1\r\nHost: evil.example\r\n", b"the request has 2 Host headers: send one"),
    ],
)
def test_a_request_that_names_no_one_host_is_400(server, head, said):
    """A Host of port 99999, and two Host headers, were answered 200 (RFC 9112, 3.2: 400)."""
    answer = _answer_to(server, b"GET /api/ruleset HTTP/1.1\r\n" + head + b"Connection: close\r\n\r\n")
    assert _status(answer) == 400 and said in answer


def test_a_request_line_in_absolute_form_names_its_host(server):
    """GET http://evil.example/ with Host: 127.0.0.1 was answered 200: the host of the request
    line takes the place of Host (RFC 9112, 3.2.2), and is checked as the app checks Host."""
    evil = _answer_to(server, b"GET http://evil.example/api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert _status(evil) == 400 and b"Invalid host header" in evil
    ours = _answer_to(server, b"GET http://127.0.0.1/api/ruleset HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    assert _status(ours) == 200


# -- only a head's own bytes count ------------------------------------------------------------


def _padded_new_game(size: int, close: bool = True) -> bytes:
    """A valid POST /api/new of ``size`` body bytes (the JSON padded with spaces)."""
    body = json.dumps({"players": 3, "seed": 1}).encode().ljust(size)
    return (b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + (b"Connection: close\r\n" if close else b"") + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def _statuses(answer: bytes) -> list[int]:
    """The status of each answer in ``answer`` (one follows the body of the one before)."""
    return [int(status) for status in re.findall(rb"HTTP/1\.1 ([0-9]{3}) ", answer)]


def test_a_body_in_the_same_read_as_its_head_is_not_counted_as_head(server, caplog):
    """A valid request over MAX_HEADER_BYTES that arrived in one read was 431: its body was
    counted as head bytes."""
    request = _padded_new_game(4 * SmallLimits.MAX_HEADER_BYTES)
    assert _statuses(_answer_to(server, request)) == [200]


def test_pipelined_requests_in_one_read_are_each_answered(server, caplog):
    """Two requests in one read, over MAX_HEADER_BYTES together: the second was 431, the first
    then wrote to a closed connection (a traceback) and was logged as a client gone away."""
    request = _padded_new_game(3 * SmallLimits.MAX_HEADER_BYTES, close=False) + _padded_new_game(10)
    with caplog.at_level("WARNING"):
        assert _statuses(_answer_to(server, request)) == [200, 200]
    assert [record.getMessage() for record in caplog.records] == []


def test_a_head_too_large_behind_a_pipelined_request_is_431_after_its_answer(server, caplog):
    """The earlier request is answered whole, then the refusal, then the connection closes."""
    big = b"GET /api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (2 * SmallLimits.MAX_HEADER_BYTES) + b"\r\n\r\n"
    with caplog.at_level("WARNING"):
        answer = _answer_to(server, _padded_new_game(10, close=False) + big)
    assert _statuses(answer) == [200, 431]
    assert [record.getMessage() for record in caplog.records if "went away" in record.getMessage() or record.exc_info] == []


def test_every_client_past_the_bound_reads_its_503(server):
    """Past MAX_CONNECTIONS, clients that had already sent a request got a reset (the socket
    closed with their request unread) instead of the 503: each now reads the 503."""
    held = [_connect(server) for _ in range(SmallLimits.MAX_CONNECTIONS)]
    try:
        time.sleep(0.1)  # the server accepts the held ones first (bounded: they close at 0.5 s)
        extra = [_connect(server) for _ in range(12)]
        for conn in extra:
            conn.sendall(b"GET /api/ruleset HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answers = []
        for conn in extra:
            with conn:
                answers.append(_read_all(conn))
    finally:
        for conn in held:
            conn.close()
    assert [_status(answer) for answer in answers] == [503] * 12
    time.sleep(0.2)
    test_a_whole_request_is_answered(server)


def test_a_request_the_parser_refuses_behind_a_pipelined_one_is_400_after_its_answer(server):
    """Bytes that are no request, behind a whole one: its answer first, then the 400."""
    answer = _answer_to(server, _padded_new_game(10, close=False) + b"NOT A REQUEST\r\n\r\n")
    assert _statuses(answer) == [200, 400]
