"""The viewer server's connections: who may hold one of its worker threads, and for how long.

A request (its line, headers and body) must arrive within ``TIMEOUT`` seconds of its
connection, however slowly it drips (then the connection is closed: ``Arrival``), and its
answer be taken within as long again; at most ``WORKERS`` connections are handled at once, at
most ``PER_CLIENT`` of them from one client (an IPv4 address, or an IPv6 /64 network); a
connection past either takes the place of one whose request line and headers have not all
arrived (its own client's oldest, else the oldest of the client holding the most places, if
that is more than its own client holds), or, with none such, is answered 503 at once and closed: never queued, so the accepting
thread never waits on a client. One request a connection (HTTP/1.0). A client that drops
its connection is not reported.
"""
from __future__ import annotations

import io
import ipaddress
import json
import socket
import sys
import threading
import time
from http.server import ThreadingHTTPServer

WORKERS = 32          # connections handled at once
PER_CLIENT = 8        # of them from one client (a browser opens at most 6 to a server)
TIMEOUT = 10.0        # seconds a request may take to arrive, headers and body (and its answer to be taken)
HEADERS = {"Cache-Control": "no-store",
           "Referrer-Policy": "no-referrer",            # the token in the page's URL goes nowhere
           "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "frame-ancestors 'none'"}   # no other site frames the page


class Server(ThreadingHTTPServer):
    """A thread per connection, at most ``workers`` at once and ``per_client`` from one client.
    A connection past them takes the place of one whose request has not all arrived (the
    oldest of its own client's, or of the client holding the most, more than its own): a
    request dripping in never keeps a newer one waiting; with none such, it is answered 503 at
    once. A client gone is no error."""
    request_queue_size = 128
    token: str      # the secret every /api/ call carries (make_server sets it)
    seat_tokens: dict[int, str]   # with more than one human seat, each one's own (the token: a spectator's)

    def __init__(self, address, handler, workers: int = WORKERS, per_client: int = PER_CLIENT):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.workers, self.per_client = workers, per_client
        self.guard = threading.Lock()
        self.held: dict[str, int] = {}   # a client's connections being handled (none: no entry)
        self.arriving: dict = {}         # connection -> its client, while its request line and headers arrive (oldest first)
        self.leaving: set = set()        # connections whose place was taken, their threads ending
        super().__init__(address, handler)

    def process_request(self, request, client_address):
        who = client_of(client_address[0])
        with self.guard:
            victim = self._place(who)
            if victim is not False:
                self.held[who] = self.held.get(who, 0) + 1
                self.arriving[request] = who
        if victim is False:   # answered here, without waiting on the client: the accepting thread never blocks
            refuse(request)
            self.shutdown_request(request)
            return
        if victim is not None:   # (its read wakes at once; its thread ends)
            try:
                victim.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._leave(request, who)
            raise

    def _place(self, who: str):
        """A place for a connection of ``who`` (under the guard): None, a free one; a connection
        whose place it takes (counted out of ``held`` now); False, none."""
        mine, total = self.held.get(who, 0), sum(self.held.values())
        if mine < self.per_client and total < self.workers:
            return None
        if len(self.leaving) >= self.workers:   # (threads ending: at most as many again as the workers)
            return False
        if mine >= self.per_client:
            victim = next((c for c, w in self.arriving.items() if w == who), None)
        else:   # (a client holding no more places than this one's keeps them)
            most = max(self.arriving.values(), key=lambda w: self.held[w], default=None)
            if most is not None and most != who and self.held[most] <= mine:
                most = who   # (else its own oldest)
            victim = next((c for c, w in self.arriving.items() if w == most), None)
        if victim is None:
            return False
        gone = self.arriving.pop(victim)
        self.held[gone] -= 1
        if not self.held[gone]:
            del self.held[gone]
        self.leaving.add(victim)
        return victim

    def arrived(self, request) -> None:
        """The request's line and headers are in: its place is no longer taken from it."""
        with self.guard:
            self.arriving.pop(request, None)

    def process_request_thread(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:   # (the worker free before the client sees its connection closed)
            self._leave(request, client_of(client_address[0]))
            self.shutdown_request(request)

    def _leave(self, request, who: str) -> None:
        with self.guard:
            self.arriving.pop(request, None)
            if request in self.leaving:   # (its place taken: counted out then)
                self.leaving.discard(request)
                return
            self.held[who] -= 1
            if not self.held[who]:
                del self.held[who]

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return   # the client reset or closed its connection, or was too slow: nothing to report
        super().handle_error(request, client_address)


def client_of(address: str) -> str:
    """Who a connection is from, for ``per_client``: its IPv4 address, or its IPv6 /64 network
    (one host may hold a whole /64)."""
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


BUSY = json.dumps({"error": "this server is busy (too many connections, or too many from this client): "
                            "try again in a moment"}).encode()


def refuse(request) -> None:
    """A 503 written to a connection past the workers without waiting on it (a few bytes into an
    empty send buffer); what the client already sent is read first, so that closing does not
    reset the connection before the client reads the answer."""
    head = "".join(f"{k}: {v}\r\n" for k, v in HEADERS.items())
    try:
        request.setblocking(False)
        try:
            request.recv(65536)
        except BlockingIOError:
            pass
        request.send(b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(BUSY)}\r\nRetry-After: 1\r\n{head}Connection: close\r\n\r\n".encode()
                     + BUSY)
    except OSError:
        pass


class Arrival(io.RawIOBase):
    """A connection's reads, each allowed only what is left until the request's deadline: a
    client dripping a byte at a time cannot hold its worker longer than that."""

    def __init__(self, sock, deadline: float):
        self.sock, self.deadline = sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long to arrive")
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)
