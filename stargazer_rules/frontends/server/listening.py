"""Where ``stargazer serve`` listens, which ``Host`` names it answers, and uvicorn run on a
socket bound before the address is printed.

``uvicorn.run`` binds its socket only once it has started, a moment (with ``--workers``,
seconds) after the command would have printed its address. Binding and listening first means
that the address printed accepts connections at once (they wait in the socket's backlog until
the server reads them), and that ``--port 0`` prints the port the system chose.

The ``Host`` names: a page of another site can point its own domain at 127.0.0.1 (DNS
rebinding) and so reach a server on loopback; the browser then sends that domain as ``Host``,
and only the names the server was told to answer are answered.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from typing import Any

__all__ = ["LOOPBACK_HOSTS", "allowed_host_problem", "allowed_hosts", "config", "listening_socket", "run", "url"]

#: The names of this machine on loopback, as a browser sends them in ``Host``.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: Listen addresses meaning every interface: no one name of the machine is known from them.
_EVERY_ADDRESS = ("0.0.0.0", "::", "")


def _as_host_header(host: str) -> str:
    """``host`` as it appears in a ``Host`` header: an IPv6 address in brackets, lower case."""
    return f"[{host}]" if ":" in host else host.lower()


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, extra: Sequence[str] = ()) -> list[str]:
    """The ``Host`` names a server listening on ``host`` answers: ``host`` itself, this
    machine's loopback names when it listens on loopback or on every address, and ``extra``
    (``--allowed-host``)."""
    names: list[str] = []
    if host in _EVERY_ADDRESS or _is_loopback(host):
        names += LOOPBACK_HOSTS
    if host not in _EVERY_ADDRESS:
        names.append(_as_host_header(host))
    names += [name.lower() for name in extra]
    return list(dict.fromkeys(names))


def allowed_host_problem(pattern: str) -> str | None:
    """Why ``--allowed-host pattern`` can never match a ``Host`` (or None): Starlette compares
    the name without its port, and takes ``*`` only alone or as ``*.domain``."""
    bare = pattern.strip("[]") if pattern.startswith("[") else pattern
    if not pattern or "/" in pattern or (":" in bare and not pattern.startswith("[")):
        return f"{pattern!r} is not a host name: write the name without scheme or port (example.com, 192.168.1.5)"
    if "*" in pattern[1:] or (pattern.startswith("*") and pattern != "*" and not pattern.startswith("*.")):
        return f"{pattern!r}: a wildcard is '*.example.com' (its subdomains) or '*' alone (any host)"
    return None


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening (raises ``OSError``, e.g. the port is
    taken); the processes of ``--workers`` inherit it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)  # uvicorn's default backlog
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url(host: str, sock: socket.socket) -> str:
    """The address of the page, with the port the socket holds."""
    return f"http://{_as_host_header(host) if ':' in host else host}:{sock.getsockname()[1]}/"


def config(app: Any, **options: Any) -> Any:
    """uvicorn's configuration of ``app``: warnings only, and connections bounded by
    ``connections.BoundedHttpProtocol`` (read timeouts, head size and count, open connections)."""
    import uvicorn

    from stargazer_rules.frontends.server.connections import BoundedHttpProtocol

    return uvicorn.Config(app, http=BoundedHttpProtocol, log_level="warning", **options)


def run(app: Any, sock: socket.socket, *, workers: int = 1) -> None:
    """Serve ``app`` on ``sock`` until interrupted: in this process, or with ``workers`` > 1
    in that many processes, ``app`` then being the import string of an app factory."""
    import uvicorn

    if workers == 1:
        uvicorn.Server(config(app)).run(sockets=[sock])
        return
    from uvicorn.supervisors import Multiprocess

    Multiprocess(config(app, factory=True, workers=workers), sockets=[sock]).run()
