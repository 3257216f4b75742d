"""The viewer's HTTP server: the standard library's, a small JSON API and the static files.

    GET  /                      the page (static/index.html), then static/app.js and style.css
    GET  /api/game              {mode, ruleset, title, players, humans, yours, length, over, error}
                                (mode: "log", "play", or "timeline": a redacted log, web/timeline.py;
                                yours: the seats the call's token plays)
    GET  /api/view?at=K&seat=S  the table at position K as seat S sees it (S: a number,
                                "spectator" or "all"; "all" only for a log; in a live game only
                                a seat the token plays), with its events; in a timeline, the
                                story its seat saw and position K's line
    POST /api/act               {"seat": S, "index": I, "at": K}: a human seat decides (a live
                                game), answering position K (another position: 409)

Every ``/api/`` call carries the game's token (``secrets.token_urlsafe``, printed in the URL):
the header ``X-Rulebook-Token`` or the query parameter ``token`` (403 without it). A live game
with more than one human seat gives each its own token, and its URL, for the person who plays
it: a seat's token reads that seat's view and the spectator's and plays that seat; the game's
token is then the spectator's, and plays no seat. Bound to
127.0.0.1 by default: the page can play seats of a game, so it is not offered to the network
unless ``--host`` says so, and then a warning says who can reach it. Only the files of static/
are served, by exact name. A request must name this server in its ``Host`` header (a page of
another site that rebinds a name to this machine is refused): a loopback name, the bound
address, a name given by ``--allow-host`` or, bound to every address, this machine's name or
an address. A POST must be ``application/json`` (which a form of another site cannot send
without the browser asking first, and this server never agrees).

The server stays up under slow or many clients: web/connections.py.
"""
from __future__ import annotations

import hmac
import io
import ipaddress
import json
import secrets
import signal
import socket
import sys
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from ..errors import RulebookError, UsageError, digits
from ..loading.jsondata import JSONInputError, loads as json_loads
from .connections import HEADERS, MAX_BODY, PER_CLIENT, TIMEOUT, WORKERS, Arrival, Server
from .games import NotYours, Stale

STATIC = Path(__file__).parent / "static"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
LOOPBACK = ("127.0.0.1", "localhost", "::1")
def _wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _names(host: str, allow=()) -> set:
    """The names a Host header may give (lowercase, without port or brackets)."""
    names = {*LOOPBACK, *(a.lower() for a in allow)}
    if _wildcard(host):
        names.add(socket.gethostname().lower())
    else:
        names.add(host.lower())
    return names


def _split_host(value: str):
    """(name, port or None) of a Host header; None: not a Host."""
    if value.startswith("["):
        name, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        name, sep, port = value.partition(":")
        if sep and not port:
            return None
        port = port or None
    if port is not None and not (port.isascii() and port.isdigit() and len(port) <= 5):
        return None
    return name.lower().rstrip("."), None if port is None else int(port)


def host_allowed(value: str, names: set, port: int, wildcard: bool) -> bool:
    """Whether a request's Host header names this server: one of ``names`` (or, bound to every
    address, any IP address: a page cannot rebind an address), with this port (none: port 80)."""
    split = _split_host(value or "")
    if split is None:
        return False
    name, given = split
    if (given if given is not None else 80) != port:
        return False
    if name in names:
        return True
    if wildcard:
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            return False
    return False


def url_of(host: str, port: int, token: str) -> str:
    """The page's address with its token (a wildcard bind: this machine's loopback address)."""
    if _wildcard(host):
        host = "::1" if host == "::" else "127.0.0.1"
    name = f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}/?token={token}"


def make_server(game, host: str = "127.0.0.1", port: int = 0, *, token: str | None = None,
                allow=(), workers: int = WORKERS, per_client: int = PER_CLIENT,
                timeout: float = TIMEOUT) -> Server:
    """A server for ``game`` (not yet serving: call ``serve_forever``); port 0 picks a free one.
    ``token``: the secret every /api/ call must carry (None: a new one, ``server.token``; with
    more than one human seat, each seat's own is in ``server.seat_tokens``, and this one is
    a spectator's);
    ``allow``: more names a request's Host may give; ``workers``, ``per_client`` and ``timeout``:
    the connections handled at once, of them from one client, and the seconds a request may
    take to arrive (the module's docstring)."""
    files = {p.name: p for p in STATIC.iterdir() if p.suffix in TYPES}
    secret = token or secrets.token_urlsafe(24)
    humans = list(game.humans) if game.mode == "play" else []
    seat_tokens = {seat: secrets.token_urlsafe(24) for seat in humans} if len(humans) > 1 else {}
    tokens = [(humans if not seat_tokens else [], secret.encode()),
              *(([seat], t.encode()) for seat, t in seat_tokens.items())]
    names, wildcard = _names(host, allow), _wildcard(host)
    wait = timeout

    class Handler(BaseHTTPRequestHandler):
        server: Server   # (the one below: its address is (host, port))
        timeout = None   # (StreamRequestHandler: no socket timeout: the reads' is the deadline, setup)

        def log_message(self, *args):   # quiet: the terminal shows the URL, not every request
            pass

        def setup(self):   # the request read against one deadline, however slowly it arrives
            super().setup()
            self.rfile.close()   # (the socket's own reader, unused)
            self.rfile = io.BufferedReader(Arrival(self.connection, time.monotonic() + wait, self.server))

        def parse_request(self):   # its line and headers read: answered unless its place was taken
            return super().parse_request() and self.server.headed(self.connection, self._body())

        def _body(self) -> int:
            """The bytes of body this request's answer reads: a POST's ``Content-Length``, if a
            whole number of 1 to ``MAX_BODY`` (else none: it is refused unread)."""
            if self.command != "POST":
                return 0
            length = self.headers.get("Content-Length") or "0"
            if not (length.isascii() and length.isdigit()) or len(length) > len(str(MAX_BODY)):   # ('²'.isdigit()
                return 0   # is true; int() of 5,000 digits raises)
            return int(length) if 0 < int(length) <= MAX_BODY else 0

        def send_response(self, *args):   # the answer (an error about its line too): as long again to be taken
            self.server.arrived(self.connection)
            self.connection.settimeout(wait)
            super().send_response(*args)

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for k, v in HEADERS.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, obj) -> None:
            self._send(status, json.dumps(obj).encode(), "application/json")

        def _answer(self, fn) -> None:
            try:
                with game.lock:
                    answer = fn()
            except NotYours as e:
                return self._json(403, {"error": e.message})
            except Stale as e:
                with game.lock:   # the position the game is at, for the page to show
                    return self._json(409, {**game.describe(), "at": len(game.positions) - 1, "error": e.message})
            except (RulebookError, ValueError, TypeError, KeyError) as e:   # (a rule's runtime error: its summary,
                said = getattr(e, "summary", None) or getattr(e, "message", None)   # which names no hidden value)
                return self._json(400, {"error": said or str(e)})
            except Exception as e:  # noqa: BLE001 - the page gets a message, never a dropped connection
                return self._json(500, {"error": f"internal error: {type(e).__name__}: {e} (please report this)"})
            self._json(200, answer)

        def _seats(self, url, query: dict) -> list | None:
            """The seats the request's token plays ([] for the page's files and a spectator's
            token); None, answered 403: a request whose Host is not this server's (DNS
            rebinding), or an /api/ call without a token of the game."""
            if not host_allowed(self.headers.get("Host") or "", names, self.server.server_address[1], wildcard):
                self._json(403, {"error": "this server answers only requests addressed to it "
                                          "(rulebook serve --allow-host NAME adds a name)"})
                return None
            if not url.path.startswith("/api/"):   # (the parsed path: a request may name a whole URL)
                return []
            given = (self.headers.get("X-Rulebook-Token") or query.get("token") or "").encode("utf-8", "replace")
            mine = None
            for seats, token in tokens:   # (each compared, in constant time)
                if hmac.compare_digest(given, token):
                    mine = seats
            if mine is not None:
                return mine
            self._json(403, {"error": "this game's API needs its token: open the address the server "
                                      "printed (…/?token=…)"})
            return None

        def do_GET(self):   # noqa: N802 - the http.server name
            url = urlparse(self.path)
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            mine = self._seats(url, query)
            if mine is None:
                return
            if url.path == "/":
                return self._send(200, files["index.html"].read_bytes(), TYPES[".html"])
            if url.path.startswith("/static/") and url.path[8:] in files:
                f = files[url.path[8:]]
                return self._send(200, f.read_bytes(), TYPES[f.suffix])
            if url.path == "/api/game":
                return self._answer(lambda: {**game.describe(), "yours": mine})
            if url.path == "/api/view":
                def view():
                    seat = game.seat_of(query.get("seat"), mine)
                    at = query.get("at") or "-1"          # -1: the latest position
                    if not digits(at, signed=True) or len(at) > 18:
                        raise ValueError(f"at= is a position (a whole number), not {at[:20]!r}")
                    k = int(at)
                    return game.view(k if k >= 0 else len(game.positions) + k, seat)
                return self._answer(view)
            self._json(404, {"error": f"no page {url.path}"})

        def do_POST(self):   # noqa: N802
            url = urlparse(self.path)
            mine = self._seats(url, {k: v[-1] for k, v in parse_qs(url.query).items()})
            if mine is None:
                return
            if url.path != "/api/act" or game.mode != "play":
                return self._json(404, {"error": f"no action at {url.path}"})
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                return self._json(415, {"error": "a move is sent as application/json"})
            size = self._body()
            if not size:
                return self._json(400, {"error": "a request body of a few bytes is expected"})
            data = self.rfile.read(size)
            if len(data) < size and not self.server.arrived(self.connection):
                return   # (its place taken while its body dripped in: nobody to answer)
            try:
                body = json_loads(data.decode("utf-8"))   # (nesting bounded: no recursion error)
            except (ValueError, JSONInputError):
                return self._json(400, {"error": "the body is not JSON"})
            if not isinstance(body, dict):   # (a move without its position: refused by LiveGame.act, as from Python)
                return self._json(400, {"error": "the body is {\"seat\": S, \"index\": I, \"at\": K}: "
                                                 "K the position the move answers"})

            def act():
                game.act(body.get("seat"), body.get("index"), body.get("at"), mine)
                return game.describe()
            self._answer(act)

    server = Server((host, port), Handler, workers, per_client)
    server.token, server.seat_tokens = secret, seat_tokens
    return server


@contextmanager
def serving(game, host: str = "127.0.0.1", port: int = 0, **options):
    """Serve ``game`` from a background thread while the block runs; yields the page's URL with
    its token (for tests, notebooks and scripts that drive the page; with more than one human
    seat, the spectator's: each seat's token is make_server's ``seat_tokens``)."""
    server = make_server(game, host, port, **options)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield url_of(host, server.server_address[1], server.token)
    finally:
        server.shutdown()
        server.server_close()


def run(game, host: str, port: int, out, allow=()) -> int:
    """Serve until interrupted, printing the URL first (and, off loopback, who can reach it)."""
    try:
        server = make_server(game, host, port, allow=allow)
    except OSError as e:   # (an address this machine does not have, a port in use or reserved)
        stop = getattr(game, "stop", None)
        if stop is not None:
            stop()
        raise UsageError(f"--host {host} --port {port}: cannot listen there: {e.strerror or e}") from None
    p = server.server_address[1]
    seats = server.seat_tokens
    if seats:
        print(f"rulebook: serving {game.rules.name} (Ctrl-C to stop); each human seat has its own address, "
              "to give only to the person who plays it:", file=out)
        for seat, token in seats.items():
            print(f"rulebook:   seat {seat}: {url_of(host, p, token)}", file=out)
        print(f"rulebook:   a spectator: {url_of(host, p, server.token)}", file=out, flush=True)
    else:
        print(f"rulebook: serving {game.rules.name} at {url_of(host, p, server.token)} (Ctrl-C to stop)",
              file=out, flush=True)
    if not _loopback(host):
        can = {"play": f"plays seat(s) {', '.join(map(str, game.humans))} and sees what they see",
               "log": "reads the whole game, every seat's hidden cards included",
               "timeline": f"reads what seat {getattr(game, 'seat', '?')} saw"}.get(game.mode, "reads it")
        wide = _wildcard(host)
        there = url_of(socket.gethostname() if wide else host, p, server.token)
        if seats:
            can = "plays the seat its address names and sees what that seat sees (the spectator's: what every seat sees)"
            there = url_of(socket.gethostname() if wide else host, p, "…") + " with each address's token"
        print(f"rulebook: warning: listening on {'every address of this machine' if wide else host}, port {p}, "
              f"not only on this machine: anyone who can reach it with the address and its token {can} "
              f"(from another machine: {there}); the token travels in plain HTTP, readable by anyone who can "
              f"watch the network. A request must name the server as {', '.join(sorted(_names(host, allow)))}"
              f"{' or an IP address' if wide else ''} (--allow-host NAME adds a name).", file=sys.stderr, flush=True)
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
