"""Stage 6, play: running games with a compiled Ruleset.

Agents (agents.py), one game with a JSON Lines log (gamelog.py), its replay (replay.py) and
redaction for one seat (redact.py),
scripted scenario tests (scenarios.py), random playouts hunting dead ends (playouts.py), and
batches: one game's record (batch.py), where games run (workers.py), a run with --out
(runs.py), its statistics (summary.py, stats.py) and plots (plots.py); the agents that search
(greedy.py, rollouts.py, search.py, on view.py and evaluation.py); the fixed action space (actions.py) and
observation tensors (tensors.py) the RL adapters use. Imports the stages below it, never
adapters or tools.
"""
