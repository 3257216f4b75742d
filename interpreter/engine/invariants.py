"""The ruleset's ``invariants:`` asked of a state (docs/reference.md, Invariants): by
``rulebook validate --playouts`` after each decision of its random games (play/checks/playouts.py),
and of each determinized world before a search plays it (engine/knowledge.py). The game's own
play never asks them."""
from __future__ import annotations

from ..expr.limits import MAX_COST

MAX_INVARIANTS_WORK = MAX_COST   # worst-case operations of all the invariants together (building/invariant_cost.py)
# operations one invariant's asking costs besides its condition's: the call of its function and
# its result tested, some 240 ns where 47,000 are asked (70 ns of 10,000), 15 operations of a
# costly condition's 16 ns (python benchmarks/invariant_calls.py --many 47000), so that many
# cheap ones weigh what they take
INVARIANT_CALL = 20


def weight(fn) -> int:
    """What asking one invariant (its compiled condition ``fn``), or counting again one value a
    running step read (a step's ``hidden_values``), weighs, in worst-case operations: the
    expression's cost bound (``MAX_COST`` where none is known) and ``INVARIANT_CALL``. The bound
    of the invariants all together (``MAX_INVARIANTS_WORK``, building/invariant_cost.py) and the
    worlds a determinization may deal and check (``WORLD_WORK``, engine/knowledge.py) count it."""
    return getattr(fn, "work", MAX_COST) + INVARIANT_CALL


def first_broken(S, entries=None):
    """The first invariant of ``S``'s ruleset (of ``entries``, some of its entries, when given)
    that does not hold in ``S``, as (its entry: the condition, its text, its location; the
    exception its evaluation raised, or None when it is false), or None when every one holds."""
    for entry in S.rules.invariants if entries is None else entries:
        try:
            ok = entry[0](S, None, None)
        except Exception as e:   # noqa: BLE001 - a runtime error inside the invariant itself
            return entry, e
        if not ok:
            return entry, None
    return None
