"""The viewer's HTTP server: the standard library's, a small JSON API and the static files.

    GET  /                      the page (static/index.html), then static/app.js and style.css
    GET  /api/game              {mode, ruleset, title, players, humans, length, over, error}
                                (mode: "log", "play", or "timeline": a redacted log, web/timeline.py)
    GET  /api/view?at=K&seat=S  the table at position K as seat S sees it (S: a number,
                                "spectator" or "all"; "all" only for a log), with its events;
                                in a timeline, the story its seat saw and position K's line
    POST /api/act               {"seat": S, "index": I}: a human seat decides (a live game)

Bound to 127.0.0.1 by default: the page can play seats of a game, so it is not offered to the
network unless ``--host`` says so. Only the files of static/ are served, by exact name. A
request must name this server in its ``Host`` header (a page of another site that rebinds a
name to 127.0.0.1 is refused), and a POST must be ``application/json`` (which a form of another
site cannot send without the browser asking first, and this server never agrees).
"""
from __future__ import annotations

import json
import signal
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from ..errors import RulebookError
from ..loading.jsondata import JSONInputError, loads as json_loads

STATIC = Path(__file__).parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8"}
MAX_BODY = 10_000
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def make_server(game, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server for ``game`` (not yet serving: call ``serve_forever``); port 0 picks a free one."""
    files = {p.name: p for p in STATIC.iterdir() if p.suffix in TYPES}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):   # quiet: the terminal shows the URL, not every request
            pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, obj) -> None:
            self._send(status, json.dumps(obj).encode(), "application/json")

        def _answer(self, fn) -> None:
            try:
                with game.lock:
                    answer = fn()
            except (RulebookError, ValueError, TypeError, KeyError) as e:
                return self._json(400, {"error": getattr(e, "message", None) or str(e)})
            except Exception as e:  # noqa: BLE001 - the page gets a message, never a dropped connection
                return self._json(500, {"error": f"internal error: {type(e).__name__}: {e} (please report this)"})
            self._json(200, answer)

        def _foreign(self) -> bool:
            """A request whose Host is not this server's address (DNS rebinding): refused. (Bound
            to another address than loopback, by --host, the server is meant to be reached by
            the names that address has: any Host is taken.)"""
            if host not in LOOPBACK:
                return False
            port = self.server.server_address[1]
            hosts = {f"{h}:{port}" for h in (host, "127.0.0.1", "localhost", "[::1]")}
            if (self.headers.get("Host") or "") in hosts:
                return False
            self._json(403, {"error": "this server answers only requests addressed to it"})
            return True

        def do_GET(self):   # noqa: N802 - the http.server name
            if self._foreign():
                return
            url = urlparse(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            if url.path == "/":
                return self._send(200, files["index.html"].read_bytes(), TYPES[".html"])
            if url.path.startswith("/static/") and url.path[8:] in files:
                f = files[url.path[8:]]
                return self._send(200, f.read_bytes(), TYPES[f.suffix])
            if url.path == "/api/game":
                return self._answer(game.describe)
            if url.path == "/api/view":
                def view():
                    seat = game.seat_of(query.get("seat"))
                    if seat == "all" and game.mode != "log":
                        raise ValueError("'all' shows hidden cards: only for reading a log")
                    at = query.get("at") or "-1"          # -1: the latest position
                    if not (at.isascii() and at.lstrip("-").isdigit()) or len(at) > 18:
                        raise ValueError(f"at= is a position (a whole number), not {at[:20]!r}")
                    at = int(at)
                    return game.view(at if at >= 0 else len(game.positions) + at, seat)
                return self._answer(view)
            self._json(404, {"error": f"no page {url.path}"})

        def do_POST(self):   # noqa: N802
            if self._foreign():
                return
            url = urlparse(self.path)
            if url.path != "/api/act" or game.mode != "play":
                return self._json(404, {"error": f"no action at {url.path}"})
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                return self._json(415, {"error": "a move is sent as application/json"})
            length = self.headers.get("Content-Length") or "0"
            size = int(length) if length.isascii() and length.isdigit() else 0   # ('²'.isdigit() is true)
            if not 0 < size <= MAX_BODY:
                return self._json(400, {"error": "a request body of a few bytes is expected"})
            try:
                body = json_loads(self.rfile.read(size).decode("utf-8"))   # (nesting bounded: no recursion error)
            except (ValueError, JSONInputError):
                return self._json(400, {"error": "the body is not JSON"})
            if not isinstance(body, dict):
                return self._json(400, {"error": "the body is {\"seat\": S, \"index\": I}"})

            def act():
                game.act(body.get("seat"), body.get("index"))
                return game.describe()
            self._answer(act)

    return ThreadingHTTPServer((host, port), Handler)


@contextmanager
def serving(game, host: str = "127.0.0.1", port: int = 0):
    """Serve ``game`` from a background thread while the block runs; yields the page's URL
    (for tests, notebooks and scripts that drive the page)."""
    server = make_server(game, host, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        h, p = server.server_address[:2]
        yield f"http://{h}:{p}/"
    finally:
        server.shutdown()
        server.server_close()


def run(game, host: str, port: int, out) -> int:
    """Serve until interrupted, printing the URL first."""
    server = make_server(game, host, port)
    h, p = server.server_address[:2]
    print(f"rulebook: serving {game.rules.name} at http://{h}:{p}/ (Ctrl-C to stop)", file=out, flush=True)
    previous = signal.signal(signal.SIGTERM, _interrupt)   # a terminate signal stops as Ctrl-C does
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
        stop = getattr(game, "stop", None)
        if stop is not None:   # a live game's log says it stopped (LiveGame.stop)
            stop()
    return 0


def _interrupt(signum, frame):
    raise KeyboardInterrupt
