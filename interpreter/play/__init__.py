"""Stage 6, play: running games with a compiled Ruleset, one room per job.

``agents/`` (whoever decides for a seat: the registry, the search agents, what they see and
how they value a position), ``logs/`` (one game as a JSON Lines log, its replay and its
redaction for one seat), ``display/`` (the table a person sees, on the web page or at the
terminal, and the game told in words), ``simulation/`` (batches of games: workers, runs,
statistics, plots, rule coverage, anomalies) and ``checks/`` (scenario tests and random
playouts). Imports the stages below it, never adapters or tools.
"""
