"""The viewer server's connections: who may hold one of its worker threads, and for how long.

A request (its line, headers and body) must arrive within ``TIMEOUT`` seconds of its
connection, however slowly it drips (then the connection is closed: ``Arrival``), and its
answer be taken within as long again; its line and headers must end within ``MAX_HEAD``
bytes (else it is closed unanswered), and the body the server reads of it is at most
``MAX_BODY`` bytes. At most ``WORKERS`` connections are handled at once, at most
``PER_CLIENT`` of them from one client (an IPv4 address, or an IPv6 /64 network); a
connection past either takes the place of one whose request has not all arrived (its own
client's oldest, else the oldest of the client holding the most places, if that is more than
its own client holds), or, with none such, is answered 503 at once and closed: never queued,
so the accepting thread never waits on a client. A request has arrived when the end of its
headers and then the whole body the server reads of it (``Server.headed``: the handler says
how long, once it has parsed the headers) are in the server's hands, read or still in the
socket's buffer (``Server.receive`` reads under the guard that ``Server._place`` looks under,
and a look at a buffer takes at most ``MAX_HEAD`` bytes): one sent whole never loses its
place, nor one whose headers ended while they are parsed, and a body dripping in keeps a
newer request out no more than headers dripping in do. A connection whose place was taken is shut down and its place given at
once; its thread ends without waiting on the client (its reads end there), and at most
``workers`` such threads are ending at once: past them, the accepting thread waits for one to
end (on no client: on the machine). One request a connection (HTTP/1.0). A client that drops
its connection is not reported.
"""
from __future__ import annotations

import io
import ipaddress
import json
import select
import socket
import sys
import threading
import time
from http.server import ThreadingHTTPServer

WORKERS = 32          # connections handled at once
PER_CLIENT = 8        # of them from one client (a browser opens at most 6 to a server)
TIMEOUT = 10.0        # seconds a request may take to arrive, headers and body (and its answer to be taken)
MAX_HEAD = 65536      # bytes a request's line and headers may take
MAX_BODY = 10_000     # bytes of a request's body the server reads (a move)
HEADERS = {"Cache-Control": "no-store",
           "Referrer-Policy": "no-referrer",            # the token in the page's URL goes nowhere
           "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "frame-ancestors 'none'"}   # no other site frames the page


class Server(ThreadingHTTPServer):
    """A thread per connection, at most ``workers`` at once and ``per_client`` from one client.
    A connection past them takes the place of one whose request (its headers or its body) has
    not all arrived (the oldest of its own client's, or of the client holding the most, more
    than its own): a request dripping in never keeps a newer one waiting; with none such, it is
    answered 503 at once. A client gone is no error."""
    request_queue_size = 128
    token: str      # the secret every /api/ call carries (make_server sets it)
    seat_tokens: dict[int, str]   # with more than one human seat, each one's own (the token: a spectator's)

    def __init__(self, address, handler, workers: int = WORKERS, per_client: int = PER_CLIENT):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.workers, self.per_client = workers, per_client
        self.guard = threading.Lock()
        self.ended = threading.Condition(self.guard)   # notified when a thread whose place was taken ends
        self.held: dict[str, int] = {}   # a client's connections being handled (none: no entry)
        self.arriving: dict = {}         # connection -> its Head, while its request arrives (oldest first)
        self.leaving: set = set()        # connections whose place was taken, their threads ending
        self.peeked = bytearray(MAX_HEAD)   # (a connection's buffer looked at, under the guard)
        super().__init__(address, handler)

    def process_request(self, request, client_address):
        who = client_of(client_address[0])
        with self.guard:
            victim = self._place(who)
            if victim is not False:
                self.held[who] = self.held.get(who, 0) + 1
                self.arriving[request] = Head(who)
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
        while True:
            mine, total = self.held.get(who, 0), sum(self.held.values())
            if mine < self.per_client and total < self.workers:
                return None
            self._arrived()
            victim = self._victim(who, mine)
            if victim is None:
                return False
            if len(self.leaving) < self.workers:
                break
            self.ended.wait()   # (threads ending, at most as many as the workers: each ends on no client)
        gone = self.arriving.pop(victim).who
        self.held[gone] -= 1
        if not self.held[gone]:
            del self.held[gone]
        self.leaving.add(victim)
        return victim

    def _victim(self, who: str, mine: int):
        """The arriving connection whose place a connection of ``who`` takes, or None (one
        whose headers ended and are being parsed is not taken: its thread waits on no client)."""
        open_ = [(c, h) for c, h in self.arriving.items() if not h.parsing()]
        if mine >= self.per_client:
            return next((c for c, h in open_ if h.who == who), None)
        most = max((h.who for _, h in open_), key=lambda w: self.held[w], default=None)
        if most is not None and most != who and self.held[most] <= mine:   # (a client holding no more
            most = who   # places than this one's keeps them: else its own oldest)
        return next((c for c, h in open_ if h.who == most), None)

    def _arrived(self) -> None:
        """Counts out of ``arriving`` each connection whose request's rest waits in its socket's
        buffer (sent whole, not yet read), and notes the headers' end of each whose headers end
        there: its place is no longer taken from it. Each look takes at most ``MAX_HEAD`` bytes
        (a body's rest is at most ``MAX_BODY``)."""
        for request, head in list(self.arriving.items()):
            room = min(head.room(), len(self.peeked))
            if room <= 0:
                continue
            try:
                n = request.recv_into(self.peeked, room, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            except OSError:   # (BlockingIOError: nothing waiting)
                continue
            if n and head.seen(memoryview(self.peeked)[:n]):
                del self.arriving[request]

    def receive(self, request, buffer) -> int | None:
        """What a connection's thread reads (into ``buffer``; 0: its end, or its place taken; None:
        nothing after all), noting when its request's headers end and when its body has all
        arrived: read under the guard, so that a request is never both unread and read as far as
        ``_place`` can tell."""
        with self.guard:
            if request in self.leaving:
                return 0
            try:
                n = request.recv_into(buffer, 0, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return None
            head = self.arriving.get(request)
            if head is not None and n:
                if head.took(memoryview(buffer)[:n]):
                    del self.arriving[request]
                elif head.ends is None and head.size >= MAX_HEAD:
                    raise ConnectionAbortedError(f"a request's line and headers take more than {MAX_HEAD} bytes")
            return n

    def headed(self, request, body: int) -> bool:
        """Whether a request whose line and headers were read and parsed keeps its place (one
        whose place was taken does not: what it read ended early); ``body``: the bytes of body
        the server reads of it (at most ``MAX_BODY``), until all of which have arrived its place
        may be taken as a request's whose headers are arriving."""
        with self.guard:
            head = self.arriving.get(request)
            if head is not None and head.expect(min(body, MAX_BODY)):
                del self.arriving[request]
            return request not in self.leaving

    def arrived(self, request) -> bool:
        """Whether a request being answered (an error about its line or headers too), or whose
        body was read short, keeps its place (one whose place was taken does not: what it read
        ended early): then it is no longer taken from it, nor its buffer looked at (its socket
        given a timeout to write with)."""
        with self.guard:
            self.arriving.pop(request, None)
            return request not in self.leaving

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
                self.ended.notify()
                return
            self.held[who] -= 1
            if not self.held[who]:
                del self.held[who]

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return   # the client reset or closed its connection, or was too slow: nothing to report
        super().handle_error(request, client_address)


class Head:
    """What a connection has sent of its request: how many bytes were read, the last two of its
    line and headers (where their end may start), where the headers end (None: not seen yet) and
    how many bytes the request takes in all, its body included (None: not known until its
    headers are parsed). Changed under the server's guard."""
    __slots__ = ("who", "size", "tail", "ends", "whole")

    def __init__(self, who: str):
        self.who, self.size, self.tail = who, 0, b""
        self.ends: int | None = None
        self.whole: int | None = None

    def parsing(self) -> bool:
        """Whether its headers have ended and are being parsed (its thread waits on no client)."""
        return self.ends is not None and self.whole is None

    def room(self) -> int:
        """The bytes a look at its socket's buffer takes: up to the headers' bound, or the body's
        rest (none while its headers are parsed)."""
        if self.ends is None:
            return MAX_HEAD - self.size
        return 0 if self.whole is None else self.whole - self.size

    def end(self, data) -> int | None:
        """Where the headers end in ``data`` (what follows what was read: an offset from the
        request's start), within ``MAX_HEAD``, or None: an empty line ("\\r\\n" or "\\n", as
        http.client reads it) after the request line."""
        seen = self.tail + bytes(data)
        ends = [i + len(mark) for mark in (b"\n\r\n", b"\n\n") if (i := seen.find(mark)) >= 0]
        at = self.size - len(self.tail) + min(ends) if ends else MAX_HEAD + 1
        return at if at <= MAX_HEAD else None

    def seen(self, data) -> bool:
        """Looks at ``data``, waiting in the socket's buffer: whether the request has all arrived
        with it (its headers' end noted if it is there)."""
        if self.ends is None:
            self.ends = self.end(data)
            return False
        return self.whole is not None and self.size + len(data) >= self.whole

    def took(self, data) -> bool:
        """Takes ``data``, read: whether the request has all arrived with it."""
        if self.ends is None:
            self.ends = self.end(data)
            if self.ends is None:
                self.tail = (self.tail + bytes(data[-2:]))[-2:]
        self.size += len(data)
        return self.whole is not None and self.size >= self.whole

    def expect(self, body: int) -> bool:
        """Its headers parsed, the request takes ``body`` bytes more: whether all have arrived."""
        if self.ends is None:   # (http.client also ends headers at the connection's end)
            self.ends = self.size
        self.whole = self.ends + body
        return self.size >= self.whole


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
    client dripping a byte at a time cannot hold its worker longer than that. Read through
    ``Server.receive``; the socket itself stays blocking, with no timeout, so that a look at its
    buffer (``Server._arrived``) never waits."""

    def __init__(self, sock, deadline: float, server: Server):
        self.sock, self.deadline, self.server = sock, deadline, server
        self.ready = select.poll()
        self.ready.register(sock, select.POLLIN)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0 or not self.ready.poll(left * 1000):
                raise TimeoutError("the request took too long to arrive")
            n = self.server.receive(self.sock, buffer)
            if n is not None:
                return n
