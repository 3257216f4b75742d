"""Fixtures the test files share. Plain helpers (a ruleset from YAML text, a bundled ruleset
loaded once, a game played out) are in helpers.py, so that module constants and parametrize
lists can use them too. A test that takes over 10 s on two cores is marked ``slow``
(``pytest -m "not slow"`` leaves those out; the default run keeps them)."""
from __future__ import annotations

import pytest

from helpers import run_cli


@pytest.fixture
def cli(capsys):
    """The command line run in-process: ``cli("validate", path)`` gives (exit code, stdout,
    stderr), each output read once."""
    return lambda *argv: run_cli(capsys, *argv)
