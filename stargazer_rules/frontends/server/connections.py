"""The server's connections, bounded: how long a request may take to arrive, how large its
head may be, and how many connections one process holds.

uvicorn waits for ever on a request head sent half-way or a body that stalls, and its
httptools parser takes a head of any size, so that a few hundred idle sockets would hold the
server at its open-file limit. ``BoundedHttpProtocol`` is uvicorn's httptools protocol with
these limits (``docs/embedding.md``, "Connections"):

- a request head must arrive whole within ``HEADER_TIMEOUT`` seconds of the connection opening
  or of its first byte (an idle keep-alive connection is closed by uvicorn after 5 s), and a
  body within ``BODY_TIMEOUT`` seconds of its head; past either the answer is ``408`` (or, when
  no byte came, the connection is closed) and the connection ends;
- a head past ``MAX_HEADER_BYTES`` bytes or ``MAX_HEADERS`` header lines is answered ``431``,
  counted while it arrives, before the parser has read it whole; only the head's own bytes
  count (a read may also hold a body, or a whole earlier request, pipelined);
- a request whose host is not one host is answered ``400`` (RFC 9112, 3.2): two ``Host``
  headers, or one whose port is not 1 to 65535; a request line in absolute form
  (``GET http://example.com/ HTTP/1.1``) names its host itself, which takes the place of
  ``Host`` (RFC 9112, 3.2.2), so the app's check of the host sees the host the client named;
- past ``MAX_CONNECTIONS`` open connections a new one is answered ``503``; its writing side is
  closed and what it sends is read and dropped until it closes, or ``LINGER`` seconds, so the
  answer reaches a client that had already sent its request (closing a socket with bytes
  unread resets the connection, and the reset throws the answer away).

An answer of these limits to a request pipelined behind another waits until the earlier
answers are written, and then closes the connection; the earlier requests are answered whole.
"""

from __future__ import annotations

import asyncio
import re
import urllib.parse
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BoundedHttpProtocol"]

_REASONS = {
    400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large", 503: "Service Unavailable",
}
#: A request line's target in absolute form: its scheme and authority, then the path.
_ABSOLUTE_FORM = re.compile(rb"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)")
#: A host with an optional port: a name or IPv4 address, or an IPv6 address in brackets.
_HOST_PORT = re.compile(r"^(\[[^\]]*\]|[^:\[\]]*)(?::([0-9]*))?$")


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with read timeouts and bounds on heads and connections."""

    #: Seconds for a request head to arrive whole.
    HEADER_TIMEOUT = 10.0
    #: Seconds for a request body to arrive whole once its head has (1 MB, the largest body
    #: read, at 35 kB/s).
    BODY_TIMEOUT = 30.0
    #: The largest request head: the request line and every header line.
    MAX_HEADER_BYTES = 16 * 1024
    #: The most header lines in one request (a browser sends about 20).
    MAX_HEADERS = 100
    #: The most connections one server process holds open.
    MAX_CONNECTIONS = 512
    #: Seconds a connection answered 503 is read (and dropped) before it is closed.
    LINGER = 2.0
    #: The bytes fed to the parser at a time, so that a head is measured within this many bytes
    #: of where it begins in a read.
    FEED_BYTES = 1024

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None
        self._reading_head = True
        self._head_begun = False
        self._head_bytes = 0
        self._pending_bytes = 0
        self._header_count = 0
        self._refusal: tuple[int, str] | None = None
        self._waiting_answer: bytes | None = None
        self._reported = True

    # -- the connection ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.MAX_CONNECTIONS:
            self._refusal = (503, f"the server holds {self.MAX_CONNECTIONS} connections already: try again shortly")
            self.transport.write(self._answer_bytes(*self._refusal))
            if self.transport.can_write_eof():
                self.transport.write_eof()  # the answer, then the end: what the client sent is read and dropped
                self._timer = self.loop.call_later(self.LINGER, self.transport.close)
            else:
                self.transport.close()
            return
        self._arm(self.HEADER_TIMEOUT)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Feed the parser ``FEED_BYTES`` at a time; after each piece that ends inside a head,
        its bytes since the parser last reported a part of the head are counted as that head's
        (at most one piece more than the head holds), before the parser buffers a head of any
        size. The parts it reports are counted exactly (``_count_head``)."""
        for start in range(0, len(data), self.FEED_BYTES):
            if self._refusal is not None or self.transport.is_closing():
                return
            piece = data[start : start + self.FEED_BYTES]
            self._reported = False
            super().data_received(piece)
            if self._head_begun and self._refusal is None and not self.transport.is_closing():
                self._pending_bytes = len(piece) if self._reported else self._pending_bytes + len(piece)
                if self._head_bytes + self._pending_bytes > self.MAX_HEADER_BYTES + self.FEED_BYTES:
                    self._answer(*self._head_refusal(f"the request head passed {self.MAX_HEADER_BYTES:,} bytes"))

    def send_400_response(self, msg: str) -> None:
        """A head refused by its size, count or host ends the parse as a callback error, which
        uvicorn answers 400 at once: it gets its own answer (431, 400 naming the host) instead,
        and any answer here waits behind the pipelined requests before it (``_answer``)."""
        self._answer(*(self._refusal or (400, msg)))

    # -- the parser's callbacks -------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading_head = True
        self._head_begun = True
        self._head_bytes = 0
        self._pending_bytes = 0
        self._reported = True
        self._header_count = 0
        if self._timer is None:
            self._arm(self.HEADER_TIMEOUT)

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.MAX_HEADERS:
            self._refuse_head(f"the request has more than {self.MAX_HEADERS} header lines")
        self._count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reported = True
        problem = self._host_problem()
        if problem is not None:
            self._refusal = (400, problem)
            raise _HeadRefused
        self._reading_head = False
        self._head_begun = False
        self._arm(self.BODY_TIMEOUT)
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """An earlier answer is written: the answer of these limits that waits behind it
        follows once every earlier one has."""
        super().on_response_complete()
        if self._waiting_answer is not None and not self._earlier_answer_due():
            answer, self._waiting_answer = self._waiting_answer, None
            if not self.transport.is_closing():
                self.transport.write(answer)
                self.transport.close()

    def on_message_complete(self) -> None:
        self._disarm()
        self._reading_head = True
        super().on_message_complete()

    # -- limits -----------------------------------------------------------------------------

    def _host_problem(self) -> str | None:
        """Why the request names no one host (RFC 9112, 3.2), or None; a target in absolute
        form gives the host in place of ``Host`` (3.2.2), for the app's check of the host."""
        hosts = [value for name, value in self.headers if name == b"host"]
        absolute = _ABSOLUTE_FORM.match(self.url)
        if absolute is not None:
            authority = absolute.group(1).rpartition(b"@")[2]
            self.headers[:] = [(name, value) for name, value in self.headers if name != b"host"]
            self.headers.append((b"host", authority))
            hosts = [authority]
        if len(hosts) > 1:
            return f"the request has {len(hosts)} Host headers: send one"
        if not hosts:
            return None  # the app's check of the host refuses a request without one
        text = hosts[0].decode("latin-1")
        found = _HOST_PORT.match(text)
        if found is None or (found.group(2) is not None and not 1 <= int(found.group(2) or "0") <= 65535):
            shown = urllib.parse.quote(text[:60], safe=":/[]._-")
            return f"the host {shown!r} is not a host name with a port of 1 to 65535"
        return None

    def _count_head(self, size: int) -> None:
        """Count ``size`` bytes of a part of the head the parser has read: exact, whatever else
        the read holds (a body, an earlier request)."""
        self._reported = True
        self._pending_bytes = 0
        self._head_bytes += size
        if self._head_bytes > self.MAX_HEADER_BYTES:
            self._refuse_head(f"the request head passed {self.MAX_HEADER_BYTES:,} bytes")

    def _head_refusal(self, why: str) -> tuple[int, str]:
        """The 431 answer of a head past its bounds, kept so that no later byte is read."""
        self._refusal = (431, f"{why}: send at most {self.MAX_HEADERS} headers in {self.MAX_HEADER_BYTES:,} bytes")
        return self._refusal

    def _refuse_head(self, why: str) -> None:
        """In a parser callback: refuse the head being read; the raise stops the parse, and
        ``send_400_response`` answers 431."""
        self._head_refusal(why)
        raise _HeadRefused

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _timed_out(self) -> None:
        """A head or a body that did not arrive in time: 408 when the request had begun and no
        answer has, else the connection is closed quietly."""
        self._timer = None
        if self.transport.is_closing():
            return
        if self._reading_head and not self._head_begun:
            self.transport.close()
        elif self.cycle is not None and not self._reading_head and self.cycle.response_started:
            self.transport.close()
        else:
            what = "request head" if self._reading_head else "request body"
            seconds = self.HEADER_TIMEOUT if self._reading_head else self.BODY_TIMEOUT
            self._answer(408, f"the {what} did not arrive within {seconds:g} s")

    def _earlier_answer_due(self) -> bool:
        """Whether a request before the one being read is still to be answered (pipelined)."""
        return bool(self.pipeline) or (self._reading_head and self.cycle is not None and not self.cycle.response_complete)

    def _answer(self, status: int, message: str) -> None:
        """Answer ``status`` with ``message`` as plain text and close the connection; behind
        an earlier request still to be answered, once its answer is written."""
        self._disarm()
        if self._earlier_answer_due():
            self._waiting_answer = self._answer_bytes(status, message)
            self.flow.pause_reading()
            return
        if self.cycle is not None and not self.cycle.response_complete:  # the request being read
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.write(self._answer_bytes(status, message))
        self.transport.close()

    @staticmethod
    def _answer_bytes(status: int, message: str) -> bytes:
        body = (message + "\n").encode("utf-8")
        head = [
            f"HTTP/1.1 {status} {_REASONS[status]}",
            "content-type: text/plain; charset=utf-8",
            f"content-length: {len(body)}",
            "connection: close",
            "x-content-type-options: nosniff",
        ]
        return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body


class _HeadRefused(Exception):
    """Raised in a parser callback to stop the parse of a head past its bounds."""

