"""Connecting to a Dask scheduler (``--scheduler``) within a stated time, whatever listens there.

``distributed.Client(address, timeout=...)`` bounds the TCP connection, not the handshake
that follows it, so a listener that accepts and says nothing, or answers HTTP, held the command
past 90 s; and a ``tls://`` address without certificates was a ``TypeError``. Before the
client is made, ``connect`` opens one connection of its own and reads the scheduler's
handshake, which a Dask scheduler sends first on every connection (``distributed.comm.core``):
every step bounded by what is left of ``timeout`` seconds, the message bounded in size. Only an
address that answered as a Dask scheduler gets a ``Client``; anything else is one
``SimulationError`` line saying what the listener did.
"""

from __future__ import annotations

import re
import socket
import ssl
import struct
import time
from typing import Any

from stargazer_rules.errors import SimulationError, install_line
from stargazer_rules.rulesets.boundedfiles import excerpt

__all__ = ["SCHEDULER_TIMEOUT", "connect"]

#: Seconds to wait for a Dask scheduler to answer before giving up.
SCHEDULER_TIMEOUT = 10
#: The most bytes of a scheduler's handshake read: it is a small dict (about 200 bytes).
MOST_HANDSHAKE_BYTES = 64 * 1024
#: The length prefix of a message on Dask's TCP comm: 8 bytes, native order (``distributed.comm.tcp``).
_LENGTH = struct.Struct("Q")
#: A port as written in an address: one to five ASCII digits.
_PORT = re.compile("[0-9]{1,5}")


def port_number(text: str) -> int | None:
    """``text`` as a TCP port, 1 to 65535, or None: ASCII digits only (``str.isdigit`` takes
    '²' and '１２３', which ``int`` refuses or reads; a port of thousands of digits is no port)."""
    if not _PORT.fullmatch(text):
        return None
    return port if 1 <= (port := int(text)) <= 65535 else None


def connect(address: str, timeout: float = SCHEDULER_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at ``address`` (``tcp://HOST:PORT`` or
    ``tls://HOST:PORT``), or ``SimulationError`` within about ``timeout`` seconds."""
    try:
        import distributed
    except ImportError:
        raise SimulationError(f"--scheduler needs Dask's distributed package: {install_line('dask')}") from None
    scheme, _, location = address.partition("://")
    host, _, port = location.rpartition(":")
    security = _security(address) if scheme == "tls" else None
    deadline = time.monotonic() + timeout
    if scheme in ("tcp", "tls"):  # Dask's other comms (inproc, ucx) are the caller's own setup
        number = port_number(port)
        if number is None:
            raise SimulationError(f"--scheduler {excerpt(address)} is not a scheduler address: write tcp://HOST:PORT")
        _probe(address, host.strip("[]"), number, security, deadline, timeout)
    left = max(deadline - time.monotonic(), 1.0)
    try:
        return distributed.Client(address, timeout=f"{left:.3f}s", security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise SimulationError(f"cannot reach the Dask scheduler at {address} (tried for {timeout:g} s): {error}") from None


def _security(address: str) -> Any:
    """Dask's ``Security`` from its configuration, when it holds the client's certificates."""
    from distributed.security import Security

    security = Security()
    if not (security.tls_ca_file and security.tls_client_cert):
        raise SimulationError(
            f"--scheduler {address}: a TLS scheduler needs this machine's certificates in Dask's "
            "configuration (distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
            ".key, e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE=...), or give its tcp:// address"
        )
    return security


def _probe(address: str, host: str, port: int, security: Any, deadline: float, timeout: float) -> None:
    """Connect to ``host``:``port`` and read one whole Dask handshake before ``deadline``;
    ``SimulationError`` saying what the listener did otherwise."""
    unreachable = f"cannot reach the Dask scheduler at {address} (tried for {timeout:g} s)"
    conn = _connected(address, host, port, deadline, unreachable)
    try:
        if security is not None:
            context = security.get_connection_args("client")["ssl_context"]
            conn.settimeout(_left(deadline, unreachable, "the TLS handshake"))
            try:
                conn = context.wrap_socket(conn, server_hostname=host)
            except (ssl.SSLError, OSError) as error:
                raise SimulationError(f"{unreachable}: the TLS handshake failed ({error})") from None
        header = _read(conn, _LENGTH.size, deadline, address, timeout)
        (length,) = _LENGTH.unpack(header)
        if header.startswith(b"HTTP/"):
            raise SimulationError(_not_dask(address, "it answers HTTP (a web server, or the scheduler's dashboard)"))
        if not 16 <= length <= MOST_HANDSHAKE_BYTES:
            raise SimulationError(_not_dask(address, f"its first {len(header)} bytes, {header!r}, begin no Dask message"))
        message = _read(conn, length, deadline, address, timeout)
        _check_handshake(address, message)
    finally:
        conn.close()


def _connected(address: str, host: str, port: int, deadline: float, unreachable: str) -> socket.socket:
    """A connection to ``host``:``port``, tried again while it is refused (a scheduler may be
    starting) until ``deadline``. A listener that resets the connection as it accepts it is
    reached, and is no scheduler: on a loaded machine the reset can come before the connect
    returns, as it does after it in ``_read``."""
    pause = 0.05
    while True:
        try:
            return socket.create_connection((host, port), timeout=_left(deadline, unreachable, "a connection"))
        except ConnectionRefusedError as error:
            if time.monotonic() + pause >= deadline:
                raise SimulationError(f"{unreachable}: {error.strerror or error}") from None
            time.sleep(pause)
            pause = min(pause * 2, 1.0)
        except ConnectionResetError as error:
            raise SimulationError(_not_dask(address, f"it broke the connection ({error.strerror or error})")) from None
        except OSError as error:  # no such host, no route, a timeout
            raise SimulationError(f"{unreachable}: {error.strerror or error}") from None


def _left(deadline: float, unreachable: str, what: str) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise SimulationError(f"{unreachable}: no time left for {what}")
    return left


def _read(conn: socket.socket, size: int, deadline: float, address: str, timeout: float) -> bytes:
    """Exactly ``size`` bytes from ``conn`` before ``deadline``, or one line saying why not."""
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SimulationError(_silent(address, timeout, data))
        conn.settimeout(left)
        try:
            chunk = conn.recv(size - len(data))
        except TimeoutError:
            raise SimulationError(_silent(address, timeout, data)) from None
        except OSError as error:  # reset, or a TLS failure
            raise SimulationError(_not_dask(address, f"it broke the connection ({error.strerror or error})")) from None
        if not chunk:
            raise SimulationError(_not_dask(address, "it closed the connection without Dask's handshake"))
        data += chunk
    return bytes(data)


def _silent(address: str, timeout: float, data: bytearray) -> str:
    said = "said nothing" if not data else "began a message and sent no more of it"
    return (
        f"the listener at {address} {said} in {timeout:g} s: a Dask scheduler sends its handshake "
        "as soon as a client connects (is this the scheduler's address, tcp://HOST:8786, and not "
        "its dashboard's?)"
    )


def _not_dask(address: str, why: str) -> str:
    return f"{address} is not a Dask scheduler: {why}"


def _check_handshake(address: str, message: bytes) -> None:
    """``message`` is Dask's handshake (a dict naming the peer's Python and compression)."""
    from distributed.protocol.core import loads
    from distributed.protocol.utils import unpack_frames

    try:
        handshake = loads(unpack_frames(message), deserialize=False)
    except Exception:  # any bytes at all: whatever fails to decode is not a handshake
        handshake = None
    if not isinstance(handshake, dict) or "python" not in handshake:
        raise SimulationError(_not_dask(address, "its first message is not Dask's handshake"))
