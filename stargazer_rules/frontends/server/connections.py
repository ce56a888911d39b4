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
  counted while it arrives, before the parser has read it whole;
- past ``MAX_CONNECTIONS`` open connections a new one is answered ``503`` and closed at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["BoundedHttpProtocol"]

_REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large", 503: "Service Unavailable"}


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._timer: asyncio.TimerHandle | None = None
        self._reading_head = True
        self._head_begun = False
        self._head_bytes = 0
        self._header_count = 0
        self._refusal: tuple[int, str] | None = None

    # -- the connection ---------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.MAX_CONNECTIONS:
            self._answer(503, f"the server holds {self.MAX_CONNECTIONS} connections already: try again shortly")
            return
        self._arm(self.HEADER_TIMEOUT)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None or self.transport.is_closing():
            return
        reading_head = self._reading_head
        super().data_received(data)
        if self._reading_head and reading_head and self._refusal is None and not self.transport.is_closing():
            # Every byte of this read belongs to a head not yet complete: count it before the
            # parser has buffered a head of any size.
            self._head_bytes += len(data)
            if self._head_bytes > self.MAX_HEADER_BYTES:
                self._answer(*self._head_refusal(f"the request head passed {self.MAX_HEADER_BYTES:,} bytes"))

    def send_400_response(self, msg: str) -> None:
        """A head refused by its size or count ends the parse as a callback error, which
        uvicorn answers 400: it is answered 431 instead."""
        if self._refusal is not None:
            self._answer(*self._refusal)
            return
        super().send_400_response(msg)

    # -- the parser's callbacks -------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading_head = True
        self._head_begun = True
        self._head_bytes = 0
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
        self._reading_head = False
        self._head_begun = False
        self._arm(self.BODY_TIMEOUT)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        self._reading_head = True
        super().on_message_complete()

    # -- limits -----------------------------------------------------------------------------

    def _count_head(self, size: int) -> None:
        """Count ``size`` bytes of the head the parser has read (the read of ``data_received``
        may also hold a body's first bytes, so a head that ends in it is measured here)."""
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

    def _answer(self, status: int, message: str) -> None:
        """Answer ``status`` with ``message`` as plain text and close the connection."""
        self._disarm()
        body = (message + "\n").encode("utf-8")
        head = [
            f"HTTP/1.1 {status} {_REASONS[status]}",
            "content-type: text/plain; charset=utf-8",
            f"content-length: {len(body)}",
            "connection: close",
            "x-content-type-options: nosniff",
        ]
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.write(("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body)
        self.transport.close()


class _HeadRefused(Exception):
    """Raised in a parser callback to stop the parse of a head past its bounds."""

