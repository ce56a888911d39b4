"""Load on ``stargazer serve`` over loopback: many clients playing whole games, and one client's
latency while another sends the heaviest request the server allows.

    python benchmarks/server_load.py [--clients 32] [--seconds 60] [--heavy-seconds 30]

It starts ``stargazer serve`` on a free loopback port (its own process, default options but a
fixed ``--secret``), then:

1. **games**: ``--clients`` clients, each on its own connection, play whole games through
   ``new``, ``legal`` and ``apply`` (the first legal action, sending the state back with its
   signature) for ``--seconds``: requests/s, p50/p99/max latency, errors (any answer but 200),
   the server's memory (VmRSS) before and after.
2. **heavy**: one client sends ``bot`` with the largest search the server allows
   (``mcts:<max-bot-iterations>``) over and over, and one client posts the largest refused
   body it can build under the body limit (a state whose ``legal`` holds 30,000 strings),
   while a third plays games as in 1 for ``--heavy-seconds``: the third client's p50/p99.

Figures depend on the machine and on what else runs on it; compare only runs on one machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import json
import urllib.error
import urllib.request


@dataclass
class Tally:
    """Latencies (seconds) of the answered requests, and the answers that were not 200."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0

    def add(self, seconds: float, ok: bool) -> None:
        self.latencies.append(seconds)
        self.errors += not ok

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else float("nan")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (``serve --workers`` runs its processes as children)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue.extend(children.get(current, ()))
    return found


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time the server's processes have used."""
    total = 0.0
    for member in process_tree(pid):
        fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def signed(position: dict) -> dict:
    """The state to send back, with its signature when the server gave one."""
    return {key: position[key] for key in ("state", "signature") if key in position}


def rss_mb(pid: int) -> float:
    """The resident memory of the server's processes together."""
    total = 0.0
    for member in process_tree(pid):
        for line in Path(f"/proc/{member}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


class Connection:
    """One keep-alive HTTP/1.1 connection posting JSON: a load generator should spend its CPU
    on the bodies, not on an HTTP library (a general-purpose async client costs about as much
    CPU per request as the server's answer, on a machine the two share)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.writer is not None
        self.writer.close()

    async def post(self, path: str, body: dict) -> tuple[int, bytes]:
        """The status and the body of the answer to ``POST path`` with ``body`` as JSON."""
        assert self.reader is not None and self.writer is not None
        data = json.dumps(body).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n".encode() + data
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
        return status, await self.reader.readexactly(length)


async def timed(client: Connection, tally: Tally, path: str, body: dict) -> dict | None:
    start = time.perf_counter()
    status, answer = await client.post(path, body)
    tally.add(time.perf_counter() - start, status == 200)
    return json.loads(answer) if status == 200 else None


async def player(base: tuple[str, int], until: float, tally: Tally, seed: int) -> None:
    """Whole games through new, legal and apply until ``until``."""
    async with Connection(*base) as client:
        game = 0
        while time.monotonic() < until:
            position = await timed(client, tally, "/api/new", {"players": 4, "seed": seed * 1000 + game})
            game += 1
            while position is not None and not position["over"] and time.monotonic() < until:
                body = signed(position)
                await timed(client, tally, "/api/legal", body)
                position = await timed(client, tally, "/api/apply", {**body, "action": position["legal"][0]["action"]})
            if position is not None and position["over"]:
                tally.games += 1


async def heavy_bot(base: tuple[str, int], until: float, tally: Tally, iterations: int) -> None:
    async with Connection(*base) as client:
        position = json.loads((await client.post("/api/new", {"players": 4, "seed": 1}))[1])
        body = {**signed(position), "bot": f"mcts:{iterations}"}
        seed = 0
        while time.monotonic() < until:
            seed += 1
            await timed(client, tally, "/api/bot", {**body, "seed": seed})


async def heavy_body(base: tuple[str, int], until: float, tally: Tally) -> None:
    async with Connection(*base) as client:
        position = json.loads((await client.post("/api/new", {"players": 4, "seed": 1}))[1])
        body = {"state": {**position["state"], "legal": ["xxxx"] * 30000}}
        while time.monotonic() < until:
            await timed(client, tally, "/api/legal", body)


def report(name: str, tally: Tally, seconds: float) -> None:
    count = len(tally.latencies)
    print(
        f"{name}: {count} requests in {seconds:.0f} s = {count / seconds:.0f} req/s, "
        f"p50 {tally.percentile(0.5):.1f} ms, p99 {tally.percentile(0.99):.1f} ms, "
        f"max {max(tally.latencies, default=0) * 1000:.0f} ms, "
        f"mean {statistics.fmean(tally.latencies) * 1000 if count else 0:.1f} ms, "
        f"errors {tally.errors}, games finished {tally.games}"
    )


async def main_async(args: argparse.Namespace, base: tuple[str, int], pid: int) -> None:
    before = rss_mb(pid)
    tally = Tally()
    start, cpu = time.monotonic(), cpu_seconds(pid)
    until = start + args.seconds
    await asyncio.gather(*(player(base, until, tally, seed) for seed in range(args.clients)))
    report(f"games, {args.clients} clients", tally, time.monotonic() - start)
    used = cpu_seconds(pid) - cpu
    print(f"server CPU: {used:.1f} s, {used / max(1, len(tally.latencies)) * 1000:.2f} ms a request")
    print(f"server memory: {before:.0f} MB before, {rss_mb(pid):.0f} MB after")
    if args.heavy_seconds <= 0:
        return

    probe, bot, body = Tally(), Tally(), Tally()
    start = time.monotonic()
    until = start + args.heavy_seconds
    await asyncio.gather(
        player(base, until, probe, 99),
        heavy_bot(base, until, bot, args.max_bot_iterations),
        heavy_body(base, until, body),
    )
    seconds = time.monotonic() - start
    report("heavy: the bot client (mcts at the allowed maximum)", bot, seconds)
    report("heavy: the 30,000-item body client (refused, 422)", body, seconds)
    report("heavy: the client playing games meanwhile", probe, seconds)
    print(f"server memory at the end: {rss_mb(pid):.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--heavy-seconds", type=float, default=30)
    parser.add_argument("--max-bot-iterations", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1, help="serve --workers: server processes (default 1)")
    parser.add_argument(
        "--plain", action="store_true", help="start serve without the options older versions lack (to compare)"
    )
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-m", "stargazer_rules", "serve", "--port", str(port)]
    if not args.plain:
        command += ["--secret", "benchmark", "--max-bot-iterations", str(args.max_bot_iterations)]
    if args.workers != 1:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    base = ("127.0.0.1", port)
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ruleset", timeout=1):
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        print(f"stargazer serve on http://127.0.0.1:{port} (pid {server.pid}), {os.cpu_count()} cores")
        asyncio.run(main_async(args, base, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
