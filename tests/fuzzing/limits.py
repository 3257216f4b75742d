"""A time bound for one fuzz case: past it the case is a hang, reported with where it was.

The bound is processor time (the process's, user and system), not wall-clock time, so that a
case is judged by its own work and not by what else the machine runs."""
from __future__ import annotations

import signal
from contextlib import contextmanager


class Hang(BaseException):
    """Raised inside a case that ran past its time bound (a BaseException: no `except
    Exception` in the code under test can swallow it)."""


@contextmanager
def time_limit(seconds: float):
    """Raise Hang in the block after ``seconds`` of processor time (main thread, POSIX)."""
    def expire(signum, frame):
        raise Hang(f"still running after {seconds} s of processor time")
    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
