"""``stargazer serve``: the JSON API and the browser table."""

from __future__ import annotations

import argparse
import json
import os
import sys

from stargazer_rules.bots import MAX_ITERATIONS
from stargazer_rules.errors import install_line
from stargazer_rules.formats.signing import SECRET_ENV, StateSigner, chosen_secret
from stargazer_rules.frontends.cli.common import (
    EXIT_INVALID,
    EXIT_USAGE,
    add_ruleset_argument,
    report_engine,
    ruleset_or_stop,
    say_error,
)

#: ``serve`` listens on loopback unless told otherwise.
DEFAULT_SERVE_HOST = "127.0.0.1"


DEFAULT_SERVE_PORT = 8000


#: ``serve --workers``: more processes than this is a mistake on any machine this serves.
MAX_SERVE_WORKERS = 64


#: ``serve``'s bounds on one request's work (stargazer_rules.frontends.server.service, without importing
#: Starlette before it is needed).
DEFAULT_MAX_BOT_ITERATIONS = 1000


DEFAULT_TIME_LIMIT = 10.0


def add_serve(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "serve",
        help="serve the JSON API and a page to play in the browser",
        description=(
            "Serve the rules as a stateless JSON API (docs/embedding.md) and a page to play "
            "them against bots, on http://HOST:PORT/. Listens on loopback unless told "
            f"otherwise. Needs {install_line('serve')}."
        ),
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_SERVE_HOST,
        help=f"the address to listen on (default {DEFAULT_SERVE_HOST}, this machine only)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_SERVE_PORT,
        help=f"the port to listen on (default {DEFAULT_SERVE_PORT})",
    )
    parser.add_argument(
        "--secret",
        default=None,
        help=(
            f"the key that signs the states the server answers (default ${SECRET_ENV}, else a "
            "random key for this process); give every process of one site the same"
        ),
    )
    parser.add_argument(
        "--max-bot-iterations",
        type=int,
        default=DEFAULT_MAX_BOT_ITERATIONS,
        metavar="N",
        help=f"the most search iterations a bot may spend on one request (default {DEFAULT_MAX_BOT_ITERATIONS:,})",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"the most a request may compute before it is answered 503 (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=(
            "server processes sharing the port (default 1); the API is stateless and they share "
            "one secret, so any of them answers any request: one per core"
        ),
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help=(
            "also answer requests for this host name (repeatable; *.example.com for its subdomains): "
            "the machine's name or address for --host 0.0.0.0. Requests naming another host are "
            "refused, so that a page of another site cannot reach the server (DNS rebinding)"
        ),
    )
    add_ruleset_argument(parser, positional=False)
    parser.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve the API and the page until interrupted; a one-line error without the extra."""
    if not 0 <= args.port <= 65535:
        say_error("serve", f"--port {args.port} is not a port: give one of 1 to 65535 (0: any free port)")
        return EXIT_USAGE
    if not 1 <= args.max_bot_iterations <= MAX_ITERATIONS:
        say_error(
            "serve",
            f"--max-bot-iterations {args.max_bot_iterations} is outside 1 to {MAX_ITERATIONS:,} "
            f"(default {DEFAULT_MAX_BOT_ITERATIONS:,}: at most about a second of mcts a request)",
        )
        return EXIT_USAGE
    if not 0 < args.time_limit <= 3600:
        say_error("serve", f"--time-limit {args.time_limit:g} is outside 0 to 3600 seconds (default {DEFAULT_TIME_LIMIT:g})")
        return EXIT_USAGE
    if args.secret == "":
        say_error("serve", "--secret is empty: give a secret, or leave the option out for a random one")
        return EXIT_USAGE
    if not 1 <= args.workers <= MAX_SERVE_WORKERS:
        say_error(
            "serve",
            f"--workers {args.workers} is outside 1 to {MAX_SERVE_WORKERS} "
            f"(one process per core: this machine has {os.cpu_count() or 1})",
        )
        return EXIT_USAGE
    ruleset = ruleset_or_stop(args.ruleset, "serve")
    report_engine(ruleset, "serve")
    # Starlette and uvicorn (the serve extra) are checked by main before this runs (common.COMMAND_EXTRAS).
    from stargazer_rules.frontends.server import create_app, listening

    for pattern in args.allowed_host:
        problem = listening.allowed_host_problem(pattern)
        if problem is not None:
            say_error("serve", f"--allowed-host {problem}")
            return EXIT_USAGE
    hosts = listening.allowed_hosts(args.host, args.allowed_host)
    # One secret for every process: given, from the environment, or drawn here.
    secret = chosen_secret(args.secret)
    if args.workers == 1:
        app: object = create_app(
            ruleset, signer=StateSigner(secret), max_bot_iterations=args.max_bot_iterations,
            time_limit=args.time_limit, allowed_hosts=hosts,
        )
    else:
        # The worker processes load the ruleset again from what this one found valid, and sign
        # with this one's secret (drawn here when none was given), through their environment.
        from stargazer_rules.frontends.server.app import WORKER_CONFIG_ENV

        os.environ[SECRET_ENV] = secret
        os.environ[WORKER_CONFIG_ENV] = json.dumps(
            {"ruleset": args.ruleset, "max_bot_iterations": args.max_bot_iterations,
             "time_limit": args.time_limit, "allowed_hosts": hosts}
        )
        app = "stargazer_rules.frontends.server.app:app_from_environment"
    try:
        sock = listening.listening_socket(args.host, args.port)
    except OSError as error:
        say_error("serve", f"cannot listen on {args.host} port {args.port}: {error.strerror or error}")
        return EXIT_INVALID
    # Printed once the socket accepts connections: the address printed answers at once.
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    print(f"stargazer serve: {ruleset.name} on {listening.url(args.host, sock)}{processes}", file=sys.stderr, flush=True)
    with sock:
        listening.run(app, sock, workers=args.workers)
    return 0
