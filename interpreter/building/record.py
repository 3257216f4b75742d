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

The first build notes too the unions of shared zones a target offers (``target: {from: A + B}``,
mechanics/dexterity.py), in ``Names.unions``. Where all of a union's zones may be recorded, they
are, and the union is a view (``Names.views``; ``S.vw``, engine/layout.py ``reindex``): its
cards in card order, kept by every move into or out of it (mechanics/cards.py), offered as
they are instead of joined and sorted at every ask.
"""
from __future__ import annotations

_DECIDED: dict = {}   # a ruleset's content hash (its variant's included) -> (the zones it records, its views)
_KEPT = 4096          # rulesets decided before the store is emptied (a fuzz campaign loads thousands)


def built(loaded, coverage: bool = False, prepare=None):
    """The Ruleset of ``loaded`` with the zones it records and its views: a first build decides
    them where they were not decided before (``prepare(builder)``: called before each build)."""
    from .builder import Builder

    def build(decision, deciding):
        builder = Builder(loaded, coverage, decision[0], deciding, decision[1])
        if prepare is not None:
            prepare(builder)
        return builder.build()

    decision = _DECIDED.get(loaded.hash)
    if decision is not None:
        return build(decision, None)
    decided: list = []   # (this build's decision: the store may be emptied by another load meanwhile)

    def deciding(names) -> bool:   # (whether to build again: then not generated)
        decided.append(recordable(names, loaded))
        return bool(decided[0][0])

    rules = build(({}, ()), deciding)
    return build(decided[0], None) if decided and decided[0][0] else rules


def recordable(names, loaded) -> tuple:
    """(zone -> its code of the zones to record, the views: each a union's zones) for ``loaded``,
    kept: decided. A union is a view where each of its zones may be recorded; its zones are
    recorded then, asked or not."""
    fit = {z for z in (*names.asked, *(z for union in names.unions for z in union))
           if names.zones.get(z) == "none"} - names.unkept   # (a deal, a pick...)
    views = tuple(sorted(union for union in names.unions if fit.issuperset(union)))
    zones = {z for z in names.asked if z in fit} | {z for union in views for z in union}
    if len(_DECIDED) >= _KEPT:
        _DECIDED.clear()
    _DECIDED[loaded.hash] = out = ({z: i + 1 for i, z in enumerate(sorted(zones))}, views)
    return out
