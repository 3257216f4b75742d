"""Where the games of a batch are played: in this process, a pool of local processes, or a
Ray cluster. Each worker loads the ruleset once from its path (compiled rulesets are never
pickled) and checks its content hash; records come back in completion order.
"""
from __future__ import annotations

import gc
import math
import os
import signal
from contextlib import contextmanager
from typing import Iterable, Iterator

from ...engine import rng
from ...errors import RulebookError, UsageError
from .batch import Batch, load_batch_rules, outer_repeat, play_one


_WORKER: dict = {}


def settle() -> None:
    """Take everything alive now (the compiled ruleset: thousands of functions, tables, dicts)
    out of the garbage collector's full passes, which would walk it again and again during
    the games (2% of a game of the largest bundled ruleset). For a pool worker, for its life; the command line
    uses ``settled()``, which gives them back when the batch is over."""
    gc.collect()
    gc.freeze()


@contextmanager
def settled():
    settle()
    try:
        yield
    finally:
        gc.unfreeze()


def _init_worker(batch: Batch) -> None:
    try:   # Ctrl-C is the parent's to handle: it stops the pool (workers would print tracebacks)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:   # not the main thread of the process (a thread-based pool)
        pass
    if _WORKER.get("batch") == batch and "rules" in _WORKER:
        settle()
        return     # forked from a parent that had the ruleset compiled already (run_local)
    try:
        rules = load_batch_rules(batch)
    except Exception as e:   # noqa: BLE001 - an initializer that raises makes a Pool respawn it for ever
        message = e.message if isinstance(e, RulebookError) else f"{type(e).__name__}: {e}"
        _WORKER.clear()
        _WORKER.update(batch=batch, error=f"the worker could not load the ruleset: {message}")
        return
    _WORKER.clear()
    _WORKER.update(batch=batch, rules=rules, round_step=outer_repeat(rules))
    settle()


def _worker_play(index: int) -> dict:
    if "error" in _WORKER:   # every game of the batch fails with the reason, none hangs
        return {"index": index, "seed": rng.derive(_WORKER["batch"].seed, index), "error": _WORKER["error"],
                "decisions": 0}
    return play_one(_WORKER["rules"], _WORKER["batch"], index, _WORKER["round_step"])


def _worker_chunk(batch: Batch, indexes: list[int]) -> list[dict]:
    if _WORKER.get("batch") != batch:
        _init_worker(batch)
    return [_worker_play(i) for i in indexes]


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def workers_used(workers: int, games: int) -> int:
    """How many worker processes run_local starts for ``games`` games (no more than games)."""
    return max(1, min(workers, games))


def run_local(batch: Batch, indexes: list[int], workers: int, rules=None) -> Iterator[dict]:
    """Records of the given games, in completion order: in-process for one worker, else a Pool."""
    if not indexes:
        return
    workers = workers_used(workers, len(indexes))
    if workers == 1:
        if rules is None:
            rules = load_batch_rules(batch)
        step = outer_repeat(rules)
        for i in indexes:
            yield play_one(rules, batch, i, step)
        return
    import multiprocessing
    chunk = max(1, min(32, len(indexes) // (workers * 32)))   # small chunks: little idle time at the end
    context = multiprocessing.get_context()
    if rules is not None and context.get_start_method() == "fork":
        # forked workers inherit the compiled ruleset instead of each loading it again (a
        # second or so for a large ruleset: a fifth of a few hundred games' time on 2 cores)
        _WORKER.update(batch=batch, rules=rules, round_step=outer_repeat(rules))
    with context.Pool(workers, initializer=_init_worker, initargs=(batch,)) as pool:
        yield from pool.imap_unordered(_worker_play, indexes, chunksize=chunk)


def run_ray(batch: Batch, indexes: list[int], address: str | None = None) -> Iterator[dict]:
    """Records of the given games from Ray tasks (chunks of games; each worker process loads
    the ruleset once). Joins the cluster at ``address`` (or starts a local Ray) unless Ray is
    already initialised."""
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install '.[ray]' in Rulebook's folder") from None
    if not indexes:
        return
    if not ray.is_initialized():
        extra = {} if str(address or "").startswith("ray://") else {"include_dashboard": False}
        try:
            ray.init(address=address, log_to_driver=False, **extra)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise RulebookError(f"cannot {'join Ray at ' + address if address else 'start Ray'}: {e}") from None
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    size = max(1, min(64, math.ceil(len(indexes) / (cpus * 8))))
    task = ray.remote(_worker_chunk)
    pending = [task.remote(batch, indexes[k:k + size]) for k in range(0, len(indexes), size)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield from ray.get(ref)


def played(batch: Batch, indexes: list[int], workers: int = 1, backend: str = "local", address: str | None = None,
           rules=None) -> Iterable[dict]:
    """The records of the given games of a batch, in completion order, from the backend named."""
    if backend == "local":
        return run_local(batch, indexes, workers, rules)
    if backend == "ray":
        return run_ray(batch, indexes, address)
    raise UsageError(f"unknown backend {backend!r} (local or ray)")
