"""The HTTP layer: Starlette routes over ``TableService``, and the browser page's static files.

| route | body | answer |
| --- | --- | --- |
| ``GET /`` | | the page (``static/index.html``) |
| ``GET /api/ruleset`` | | the ruleset as data, names and skill sentences in ja/en |
| ``GET /api/messages`` | | the message catalogue and the page's words |
| ``GET /api/schemas/{name}`` | | a request schema (``new``...) or a library schema (``state``...) |
| ``POST /api/new`` | players + seed, or setup | the setup and the first position |
| ``POST /api/legal`` | state, lang | the legal actions, described |
| ``POST /api/apply`` | state, action | the next position and the events |
| ``POST /api/bot`` | state, bot, seed | the bot's action, the next position and the events |
| ``POST /api/score`` | state | the score sheet and the winner line |
| ``POST /api/record`` | setup, actions | the game record document |
| ``GET /openapi.json`` | | the OpenAPI 3.1 document of all of these (``openapi``) |

A refused request gets a 4xx JSON body ``{"error": kind, "message": reason, "at": path}``:
400 for a body that is not JSON, 413 for one over ``MAX_BODY_BYTES``, 415 for a body not sent
as ``application/json``, 404 and 405 for unknown routes and methods, 422 for everything the
schemas or the rules refuse; 503 ``time_limit`` when a request computes longer than the time
limit. A ``Host`` the app was not told to answer (``allowed_hosts``) is Starlette's 400
``Invalid host header``: a page of another site cannot reach a local server by renaming it
(DNS rebinding).

Every answer carries ``SECURITY_HEADERS`` (the page runs only its own script and style, and in
no frame). A fault of the server's own is a 500 JSON answer and one logged traceback, and the
connection stays open; a client that goes away mid-request is one log line.

The event loop only reads bodies and writes answers: the schema checks, the rules and the
bots run in worker threads (at most ``WORKERS`` at a time, the others queue), so that one
heavy request delays the others by a share of the processor and never blocks them.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stargazer_rules.formats import schema_checks
from stargazer_rules.formats.signing import SECRET_ENV, StateSigner
from stargazer_rules.frontends.server.openapi import openapi_document
from stargazer_rules.frontends.server.service import (
    DEFAULT_MAX_BOT_ITERATIONS,
    DEFAULT_TIME_LIMIT,
    ENDPOINTS,
    RequestError,
    TableService,
    request_schema,
)
from stargazer_rules.rulesets.model import Ruleset

#: The largest request body read; a state is a few kilobytes, a long game's record tens.
MAX_BODY_BYTES = 1024 * 1024
#: Worker threads running requests at once; the rest wait their turn.
WORKERS = 4
#: Seconds past the time limit before a request that has not finished is answered 503 anyway.
_GRACE = 2.0

STATIC_DIR = Path(__file__).with_name("static")

#: Sent with every answer: the page loads only its own script, style and images (its icon is a
#: ``data:`` URL), in no frame of another site, and no answer is read as another type than it says.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
#: The media type every request body must be sent as.
JSON_MEDIA_TYPE = "application/json"

_LOG = logging.getLogger("stargazer_rules.server")

_ERROR_KINDS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def create_app(
    ruleset: Ruleset,
    *,
    signer: StateSigner | None = None,
    max_bot_iterations: int = DEFAULT_MAX_BOT_ITERATIONS,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The ASGI app serving the JSON API and the page for one ruleset.

    ``signer`` signs the states (a random key by default), ``max_bot_iterations`` bounds a
    bot's search and ``time_limit`` the seconds a request may compute (``TableService``).
    ``allowed_hosts`` are the ``Host`` names it answers (Starlette's ``TrustedHostMiddleware``
    patterns; ``stargazer serve`` passes ``listening.allowed_hosts``); None answers any, for an
    app mounted behind a server that checks the host itself.
    """
    service = TableService(
        ruleset, signer=signer, max_bot_iterations=max_bot_iterations, time_limit=time_limit
    )
    limiter = anyio.CapacityLimiter(WORKERS)

    def post(handler: Callable[[Any], dict[str, Any]]) -> Callable[[Request], Awaitable[Response]]:
        def work(body: Any) -> Response:
            try:
                return _json(handler(body))
            except RequestError as error:
                return _json(error.to_json(), error.status)

        async def endpoint(request: Request) -> Response:
            try:
                body = await _read_json(request)
            except RequestError as error:
                return _json(error.to_json(), error.status)
            if time_limit is None:
                return await anyio.to_thread.run_sync(work, body, limiter=limiter)
            with anyio.move_on_after(time_limit + _GRACE):
                return await anyio.to_thread.run_sync(work, body, limiter=limiter, abandon_on_cancel=True)
            error = RequestError(
                503, "time_limit", f"the request did not finish within this server's time limit of {time_limit:g} s"
            )
            return _json(error.to_json(), error.status)

        return endpoint

    # Documents that never change are built once, so that the event loop only sends them.
    ruleset_info = service.ruleset_info()
    messages = service.messages()

    async def get_ruleset(request: Request) -> Response:
        return _json(ruleset_info)

    async def get_messages(request: Request) -> Response:
        return _json(messages)

    async def get_schema(request: Request) -> Response:
        name = request.path_params["name"]
        if name in ENDPOINTS:
            return _json(request_schema(name))
        if name == "state":
            return _json(service.state_schema)
        if name in schema_checks.SCHEMA_KINDS:
            return _json(schema_checks.schema(name))
        known = ", ".join((*ENDPOINTS, *schema_checks.SCHEMA_KINDS))
        return _json({"error": "not_found", "message": f"no schema {name!r}; the schemas are {known}"}, 404)

    document = openapi_document(state_schema=service.state_schema)

    async def get_openapi(request: Request) -> Response:
        return _json(document)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/api/ruleset", get_ruleset),
        Route("/api/messages", get_messages),
        Route("/api/schemas/{name}", get_schema),
        Route("/openapi.json", get_openapi),
        *(
            Route(f"/api/{name}", post(getattr(service, name)), methods=["POST"])
            for name in ENDPOINTS
        ),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    middleware = [
        Middleware(_SecurityHeaders),
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts) if allowed_hosts is not None else ["*"]),
        Middleware(_ContainedFaults),
    ]
    return Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: _http_error})


class _SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every answer that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _value in message.get("headers", [])}
                added = [header for header in self.headers if header[0] not in present]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _ContainedFaults:
    """A fault of the server's own becomes a 500 JSON answer and one logged traceback, and a
    client gone mid-request one log line, without re-raising: uvicorn closes the connection
    when an exception reaches it after an answer has started (Starlette's own 500 page is one),
    so a client's next request on a kept-alive connection would find it reset."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except ClientDisconnect:
            _LOG.warning("a client went away before sending its whole request: %s %s", scope["method"], scope["path"])
        except Exception:
            _LOG.exception("the server failed on %s %s", scope["method"], scope["path"])
            if not started:
                body = {"error": "internal_error", "message": "the server failed on this request; its log has the details"}
                await _json(body, 500)(scope, receive, send)


#: The environment variable carrying ``stargazer serve --workers``'s options to its worker
#: processes (JSON: ruleset, max_bot_iterations, time_limit, allowed_hosts); the secret goes in
#: ``SECRET_ENV``.
WORKER_CONFIG_ENV = "STARGAZER_SERVE_CONFIG"


def app_from_environment() -> Starlette:
    """The app of one of ``stargazer serve --workers N``'s processes (a uvicorn factory).

    Every process loads the same ruleset and signs with the same secret, which the command
    put in the environment, so a state one process signed is taken by all: the API is
    stateless, so any process may answer any request. The process ends with the command
    (``lifeline``), so a ``kill -9`` of the command leaves no server behind.
    """
    from stargazer_rules.rulesets.loader import load_ruleset
    from stargazer_rules.simulation.lifeline import exit_with_parent

    exit_with_parent()
    config = json.loads(os.environ[WORKER_CONFIG_ENV])
    return create_app(
        load_ruleset(config["ruleset"]),
        signer=StateSigner(os.environ[SECRET_ENV]),
        max_bot_iterations=config["max_bot_iterations"],
        time_limit=config["time_limit"],
        allowed_hosts=config["allowed_hosts"],
    )


async def _read_json(request: Request) -> Any:
    """The request body as JSON; 415 unless sent as ``application/json``, 413 past
    ``MAX_BODY_BYTES``, 400 when it is not JSON."""
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != JSON_MEDIA_TYPE:
        found = f"Content-Type: {media_type}" if media_type else "no Content-Type"
        raise RequestError(
            415, "unsupported_media_type", f"the request body must be JSON sent with Content-Type: {JSON_MEDIA_TYPE} (found {found})"
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large()
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise RequestError(400, "bad_json", f"the request body is not UTF-8: {error}") from None
    except json.JSONDecodeError as error:
        raise RequestError(400, "bad_json", f"the request body is not JSON: {error}") from None
    except RecursionError:
        raise RequestError(400, "bad_json", "the request body is nested too deeply") from None
    except ValueError as error:  # an integer longer than Python reads (4300 digits)
        raise RequestError(400, "bad_json", f"the request body has a number too long to read: {error}") from None


def _too_large() -> RequestError:
    return RequestError(413, "too_large", f"the request body is over {MAX_BODY_BYTES} bytes")


def _json(data: Any, status: int = 200) -> Response:
    return JSONResponse(data, status_code=status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    kind = _ERROR_KINDS.get(error.status_code, "http_error")
    body = {"error": kind, "message": f"{error.detail}: {request.method} {request.url.path}"}
    # A 405 keeps Starlette's Allow header, which lists the methods the route takes (RFC 9110).
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)
