"""Which shared zones keep a record of each card's zone (``S.at``: engine/layout.py ``reindex``).

A first build notes, as it compiles (never from the generated text): the shared zones a card
is looked for in (``x in Z``, ``x in A + B``: expr/operators.py), in ``Names.asked``; and the zones a writer that
keeps no record moves cards into or out of (any but a ``move``, mechanics/cards.py: a deal, a
gather, a pick, a pass, a trick, as each notes its ``flows``), in ``Names.unkept``. A zone is
recorded when each move into or out of it keeps the record: every card starts in one zone at most (building/declarations.py) and
every move takes its cards out of their source, so no card is in two recorded zones at once.
The ruleset is then built again with those zones recorded (``Names.recorded``: a code each);
a ruleset with none is built once, its state has no record and its code reads none. What was
decided is kept by the ruleset's content hash, so a process loading it again builds it once
(``built``, as ``interpreter.load`` builds; a Builder made otherwise, the editor's checks, records
none).
"""
from __future__ import annotations

_DECIDED: dict = {}   # a ruleset's content hash (its variant's included) -> the zones it records
_KEPT = 4096          # rulesets decided before the store is emptied (a fuzz campaign loads thousands)


def built(loaded, coverage: bool = False, prepare=None):
    """The Ruleset of ``loaded`` with the zones it records: a first build decides them where they
    were not decided before (``prepare(builder)``: called before each build)."""
    from .builder import Builder

    def build(record, deciding):
        builder = Builder(loaded, coverage, record, deciding)
        if prepare is not None:
            prepare(builder)
        return builder.build()

    record = _DECIDED.get(loaded.hash)
    if record is not None:
        return build(record, None)
    decided: dict = {}   # (this build's decision: the store may be emptied by another load meanwhile)
    rules = build(None, lambda names: decided.update(recordable(names, loaded)) or decided)   # (not generated where zones are to be recorded)
    return build(decided, None) if decided else rules


def recordable(names, loaded) -> dict:
    """Zone -> its code of the zones to record (kept for ``loaded``: decided)."""
    zones = {z for z in names.asked if names.zones.get(z) == "none"} - names.unkept   # (a deal, a pick...)
    if len(_DECIDED) >= _KEPT:
        _DECIDED.clear()
    _DECIDED[loaded.hash] = out = {z: i + 1 for i, z in enumerate(sorted(zones))}
    return out
