"""``stargazer serve``: the rules as a small stateless JSON API over HTTP, and a page to play.

``create_app(ruleset)`` is the ASGI app (Starlette; ``stargazer serve`` runs it with uvicorn).
The client keeps the state JSON and sends it back with each request, as the library keeps no
game either. ``TableService`` is the same API as plain Python functions, JSON in and out.
See docs/embedding.md. Needs the ``serve`` extra: ``pip install 'stargazer-rules[serve]'``.
"""

from stargazer_rules.frontends.server.app import MAX_BODY_BYTES, create_app
from stargazer_rules.frontends.server.service import (
    ENDPOINTS,
    RequestError,
    TableService,
    request_schema,
)

__all__ = ["ENDPOINTS", "MAX_BODY_BYTES", "RequestError", "TableService", "create_app", "request_schema"]
