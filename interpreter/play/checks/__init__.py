"""Checking a ruleset by playing it: scripted scenario tests in YAML (``scenarios.py``,
``rulebook test``) and random playouts hunting dead ends, budget overruns and broken
invariants (``playouts.py``, ``rulebook validate --playouts``).
"""
