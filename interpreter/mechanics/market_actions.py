"""The labels of every set ``combos()`` (mechanics/market.py) can return: the fixed action space
of a choice among them (``register_builtin(vocabulary=...)``, adapters/actions.py)."""
from __future__ import annotations


def v_combos(V, args, kwargs):
    """The labels of every set combos() can return: the multisets of the cards the list can hold
    whose ``by`` attribute adds up to a total ``total`` can take (adapters/actions.py)."""
    by, total = kwargs.get("by"), kwargs.get("total")
    if not args or by is None or total is None or getattr(by, "data", None) != "name":
        return None
    cards, totals = V.elems(args[0]), V.dom(total)
    attr = str(by.children[0])
    table = V.rules.attr_tables.get(attr)
    if cards is None or totals is None or table is None:
        return None
    groups: dict = {}
    labels = V.rules.card_labels
    for c in cards:
        v = table[c]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0:
            g = groups.setdefault(labels[c], [v, labels[c], 0])
            g[2] += 1
    ordered = sorted((tuple(g) for g in groups.values()), key=lambda g: (-g[0], g[1]))   # as _combos walks them
    whole = {int(t) for t in totals if isinstance(t, (int, float)) and not isinstance(t, bool) and t > 0
             and float(t).is_integer()}
    if not all(isinstance(g[0], int) for g in ordered) or len(whole) != len(totals - {None}):
        return None
    return ["+".join(m) for m in multisets(ordered, whole)]


def multisets(groups: list, totals: set, limit: int = 100_000) -> list[list]:
    """Every multiset of ``groups`` ((value, label, copies), in the order combos() takes them)
    whose values add up to one of ``totals``, as lists of labels in combos()' order."""
    out: list = []
    target = max(totals) if totals else 0

    def walk(i, total, taken):
        if i == len(groups):
            if total in totals and taken:
                out.append(taken)
            return
        if len(out) > limit:
            return
        v, label, copies = groups[i]
        for k in range(min(copies, (target - total) // v), -1, -1):   # more of the larger values first
            walk(i + 1, total + k * v, taken + [label] * k)

    walk(0, 0, [])
    return out
