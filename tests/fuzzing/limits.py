"""A time bound for one fuzz case: past it the case is a hang, reported with where it was.

The bound is processor time (the process's, user and system), not wall-clock time, so that a
case is judged by its own work and not by what else the machine runs."""
from __future__ import annotations

import collections
import random
import signal
from contextlib import contextmanager
from pathlib import Path


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


def bounded_campaign(make, run, label: str, cases: int, folder: Path, seconds: float) -> collections.Counter:
    """A seeded campaign of the suite: case i made by ``make(random.Random(f"{label}:{i}"))`` and
    run by ``run(case, folder / str(i))`` under a bound of ``seconds``; the count of each verdict.
    A case past its bound fails the campaign, named so that it can be made again."""
    outcomes: collections.Counter = collections.Counter()
    for i in range(cases):
        case = make(random.Random(f"{label}:{i}"))
        try:
            with time_limit(seconds):
                outcomes[run(case, folder / str(i))] += 1
        except Hang:
            raise AssertionError(f"case {label}:{i} ({case.main}, {case.mutations}) ran past {seconds} s") from None
    return outcomes
