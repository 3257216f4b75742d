"""A time bound for one fuzz case: past it the case is a hang, reported with where it was."""
from __future__ import annotations

import signal
from contextlib import contextmanager


class Hang(BaseException):
    """Raised inside a case that ran past its time bound (a BaseException: no `except
    Exception` in the code under test can swallow it)."""


@contextmanager
def time_limit(seconds: float):
    """Raise Hang in the block after ``seconds`` (main thread, POSIX: a real-time timer)."""
    def expire(signum, frame):
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
