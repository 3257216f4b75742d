"""Fixtures the test files share. Plain helpers (a ruleset from YAML text, a bundled ruleset
loaded once, a game played out) are in helpers.py, so that module constants and parametrize
lists can use them too. A test that takes over 10 s on two cores is marked ``slow``
(``pytest -m "not slow"`` leaves those out; the default run keeps them)."""
from __future__ import annotations

import gc
import sys

import pytest

from helpers import run_cli, scenario_outcomes


@pytest.fixture
def cli(capsys):
    """The command line run in-process: ``cli("validate", path)`` gives (exit code, stdout,
    stderr), each output read once."""
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture(autouse=True)
def _earlier_objects_frozen():
    """What earlier tests left alive (rulesets loaded, parses kept: some 900,000 objects by the
    end of a run) is out of the garbage collector's passes during a test: a batch, a playout
    check or a tuning study collects fully before it plays (play/simulation/workers.py
    settle()), and each such pass over all of it took up to 0.6 s, 25 s a run. (Both calls
    take no time; gc.get_freeze_count() would count the frozen objects one by one.)"""
    gc.freeze()
    yield
    gc.unfreeze()


def pytest_collection_modifyitems(items):
    # the tests on a local Ray run last, one after another: Ray starts once for them all (some
    # 8 s each time), and no other test forks worker processes beside its threads
    items.sort(key=lambda item: "ray_local" in getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def ray_local():
    """A local Ray of two CPUs, started once for the tests that use it and shut down after them
    (skipped without the ray extra)."""
    ray = pytest.importorskip("ray", reason="the ray extra (pip install '.[ray]') is not installed")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture
def no_plots(monkeypatch):
    """matplotlib unimportable for one test, as where the plots extra is not installed: ``--out``
    writes a batch's records, summary and report without drawing a plot (drawing them costs more
    than the few games of a test about something else; the plots have tests of their own)."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)


@pytest.fixture
def scenarios_once(monkeypatch):
    """``rulebook test`` runs each scenario file once per test run (helpers.scenario_outcomes):
    for the tests of what the command finds and reports, not of the scenarios themselves."""
    from interpreter.play.checks import scenarios
    monkeypatch.setattr(scenarios, "run_file", scenario_outcomes)


@pytest.fixture
def example():
    """The example mechanic of docs/mechanics/adding.md (tests/example_mechanic.py: a ``vote``
    step kind and a ``halve`` effect kind), registered for one test only."""
    import importlib
    from pathlib import Path

    from interpreter.mechanics.base import EFFECT_EMITTERS, EFFECT_KEYS, EFFECT_KINDS, STEP_KINDS
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        yield importlib.import_module("example_mechanic")
    finally:
        sys.modules.pop("example_mechanic", None)
        STEP_KINDS.pop("vote", None)
        for table in (EFFECT_KINDS, EFFECT_EMITTERS, EFFECT_KEYS):
            table.pop("halve", None)
        sys.path.remove(str(Path(__file__).parent))
