"""`cheatdsl serve [RULEBOOK ...]`: the browser practice table, served on this machine."""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser

from .arguments import UsageError, count, rulebook_arguments, usage

HELP = """Serve the browser practice table (seed 003) for rulebooks, with lessons, on this machine.

With no rulebook every shipped profile is offered, those the lessons are written for (the
practice table) first; otherwise the rulebooks named (files, folders, or shipped profile names). Each is checked first: one
with errors is refused, its diagnostics printed here and shown on the page. The page, its
scripts and styles come from the installed package; nothing is fetched from the network.

The server prints its URL and runs until interrupted (Ctrl-C). It listens on 127.0.0.1 unless
--host says otherwise. Games idle for two hours are dropped.

Exit status: 130 when stopped with Ctrl-C, 1 when no rulebook can be played, 2 for a usage
error (a port that cannot be listened on)."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="serve the browser practice table for rulebooks, with lessons",
                       description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("rulebooks", metavar="RULEBOOK", nargs="*",
                   help="rulebook files, shipped profile names or folders of rulebooks "
                        "(default: every shipped profile)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=count("a port", 0, 65_535), default=8000, metavar="N",
                   help="the port to listen on (default 8000; 0 picks a free one)")
    p.add_argument("--new-games-per-minute", type=count("a number of games", 1, 1_000_000), default=60, metavar="N",
                   help="new games one client may start a minute (default 60; more are answered 429)")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..serve import build_catalog, create_app
    from ..serve.limits import Limits
    try:
        named = rulebook_arguments(args.rulebooks)
    except UsageError as exc:
        return usage("serve", str(exc))
    if "-" in named:
        return usage("serve", "the practice table cannot read a rulebook from standard input (the page "
                              "compiles it again for each variation); name a file")
    catalog = build_catalog(named, getattr(args, "include", None) or [])
    for entry in catalog.entries:
        if entry.rulebook is None:
            print(f"cheatdsl serve: {entry.path} has errors and is refused:\n{entry.diagnostics}", file=sys.stderr)
    if not catalog.usable():
        print("cheatdsl serve: no rulebook can be played", file=sys.stderr)
        return 1
    try:  # a clear message for a port in use, before uvicorn would log one of its own
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as exc:
        print(f"cheatdsl serve: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"cheatdsl serve: warning: listening on {args.host} lets other machines that can reach this "
              "one start and play games here, and read the rulebooks offered with their checker messages; "
              "the practice table is meant for this machine only (the default --host 127.0.0.1)",
              file=sys.stderr)
    config = uvicorn.Config(create_app(catalog, Limits(new_games_per_minute=args.new_games_per_minute), bound=args.host), host=args.host, port=args.port, log_level="warning",
                            access_log=False)
    server = _server(config, args.open)
    server.run()  # type: ignore[attr-defined]
    return 0 if server.started else 2  # type: ignore[attr-defined]


def _server(config: object, open_page: bool) -> object:
    """uvicorn's server, printing the page's URL once it listens (with the port it chose for --port 0)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.started or not self.servers:
                return
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
            print(f"The practice table is at {url}  (Ctrl-C stops it)", flush=True)
            if open_page:
                threading.Timer(0.5, webbrowser.open, (url,)).start()

    return Server(config)  # type: ignore[arg-type]
