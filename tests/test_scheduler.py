"""``--scheduler`` against whatever listens at the address (``simulation.scheduler``): local
listeners on 127.0.0.1 that answer HTTP, accept and say nothing, reset, or send bytes that are
no Dask message each end in one line within the timeout (made 1 s here); a ``tls://`` address
without certificates is one line; a real scheduler is connected to."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time

import pytest

from stargazer_rules.errors import SimulationError
from stargazer_rules.frontends.cli import main
from stargazer_rules.simulation import dask_cluster, scheduler

#: The timeout the tests give: every refusal must come within it, plus this margin.
TIMEOUT = 1.0
MARGIN = 5.0


@contextlib.contextmanager
def listener(behave):
    """A listener on a free loopback port whose accepted connections ``behave(conn)`` handles;
    yields its tcp:// address. The connections are closed at the end."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            accepted.append(conn)
            conn.settimeout(TIMEOUT + MARGIN)
            with contextlib.suppress(OSError):
                behave(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        # Closing alone does not wake an accept() blocked in another thread: shutting the
        # listening socket down does (it fails with EINVAL), so the thread ends now rather than
        # at the join's limit.
        with contextlib.suppress(OSError):
            server.shutdown(socket.SHUT_RDWR)
        server.close()
        for conn in accepted:
            conn.close()
        thread.join(MARGIN)


def answers_http(conn: socket.socket) -> None:
    """A web server: it reads a request (Dask's client sends none first) and answers it."""
    conn.recv(4096)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")


def says_nothing(conn: socket.socket) -> None:
    """Accepts and never sends a byte."""


def resets(conn: socket.socket) -> None:
    """Closes at once with a reset (SO_LINGER 0)."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def speaks_http_first(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\n\r\n")


def sends_a_huge_length(conn: socket.socket) -> None:
    """Eight bytes that announce a message of 2**62 bytes (a reader that believed them would
    wait or allocate for ever)."""
    conn.sendall(struct.pack("Q", 2**62))


def sends_half_a_message(conn: socket.socket) -> None:
    conn.sendall(struct.pack("Q", 200) + b"\x00" * 20)


def sends_no_handshake(conn: socket.socket) -> None:
    """A well-framed message that is not Dask's handshake."""
    conn.sendall(struct.pack("Q", 24) + struct.pack("Q", 1) + struct.pack("Q", 8) + b"garbage!")


@pytest.mark.parametrize(
    ("behave", "message"),
    [
        (answers_http, "said nothing in 1 s: a Dask scheduler sends its handshake as soon as a client connects"),
        (says_nothing, "said nothing in 1 s: a Dask scheduler sends its handshake as soon as a client connects"),
        (resets, "is not a Dask scheduler: it "),
        (speaks_http_first, "is not a Dask scheduler: it answers HTTP (a web server, or the scheduler's dashboard)"),
        (sends_a_huge_length, "is not a Dask scheduler: its first 8 bytes"),
        (sends_half_a_message, "began a message and sent no more of it in 1 s"),
        (sends_no_handshake, "is not a Dask scheduler: its first message is not Dask's handshake"),
    ],
)
def test_a_listener_that_is_no_scheduler_is_one_line_within_the_timeout(behave, message):
    """An HTTP server held the command past 90 s (the documented limit is 10 s); each listener
    here is refused with one line saying what it did, within the timeout."""
    with listener(behave) as address:
        start = time.monotonic()
        with pytest.raises(SimulationError) as refused:
            scheduler.connect(address, TIMEOUT)
        took = time.monotonic() - start
    assert message in str(refused.value) and "\n" not in str(refused.value)
    assert took < TIMEOUT + MARGIN


def test_a_reset_before_the_connect_returns_is_a_listener_that_is_no_scheduler(monkeypatch):
    """On a loaded machine the reset of ``resets`` can reach the client before its connect
    returns: still a listener that is no scheduler, not an unreachable one."""

    def reset(*args, **kwargs):
        raise ConnectionResetError(104, "Connection reset by peer")

    monkeypatch.setattr(socket, "create_connection", reset)
    with pytest.raises(SimulationError) as refused:
        scheduler.connect("tcp://127.0.0.1:9", TIMEOUT)
    assert str(refused.value) == "tcp://127.0.0.1:9 is not a Dask scheduler: it broke the connection (Connection reset by peer)"


def test_the_command_says_one_line_for_a_silent_listener(tmp_path, capsys, monkeypatch):
    """simulate --scheduler at a listener that says nothing: the connecting line, one error
    line, exit 1, and no games file."""
    monkeypatch.setattr(dask_cluster, "SCHEDULER_TIMEOUT", TIMEOUT)
    with listener(says_nothing) as address:
        code = main(["simulate", "--games", "4", "--scheduler", address, "--out", str(tmp_path / "run")])
    assert code == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and lines[1].startswith(f"stargazer simulate: the listener at {address} said nothing in 1 s")
    assert not (tmp_path / "run" / "games.jsonl").exists()


def test_a_tls_address_without_certificates_is_one_line(tmp_path, capsys):
    """tls:// without certificates in Dask's configuration was a TypeError; now one line naming them."""
    code = main(["simulate", "--games", "4", "--scheduler", "tls://127.0.0.1:8786", "--out", str(tmp_path / "run")])
    assert code == 1
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith("stargazer simulate: --scheduler tls://127.0.0.1:8786: a TLS scheduler needs this machine's certificates")


def test_a_real_scheduler_is_connected_to():
    """The probe reads a real scheduler's handshake and the client connects."""
    import distributed

    with distributed.LocalCluster(
        n_workers=0, processes=False, host="127.0.0.1", protocol="tcp", dashboard_address=None
    ) as cluster:
        client = scheduler.connect(cluster.scheduler_address, 10)
        try:
            assert client.scheduler.address == cluster.scheduler_address
        finally:
            client.close()
