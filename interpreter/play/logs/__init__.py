"""One game as a JSON Lines log: playing it with agents and writing the log (``gamelog.py``),
reading it back and verifying every decision (``replay.py``), and a log as one seat may see
it (``redact.py``). docs/design.md gives the format ("Contract: the game log").
"""
