"""Batches of games (``rulebook simulate`` and ``compare``, docs/simulation.md): one game's
record (``batch.py``), where the games run (``workers.py``), a run kept in ``--out``
(``runs.py``), its statistics (``summary.py`` on the formulas of ``stats.py``), its plots
(``plots.py``), which rules fired (``rules_fired.py``) and what should not be trusted yet
(``anomalies.py``).
"""
