"""A decision's ids and labels, by the step that asks (``ActionSpace.deciders``, adapters/actions.py).

Each step of a ruleset has one function ``(state, options) -> (ids, labels)``, made when the
action space is built: a step offering plain cards reads both from card tables with one
``operator.itemgetter`` (a C loop); another step's labels are its own (``Step.labels``), their
ids read from the space's index. The env calls the step's function at each decision, found by
the frame's step index in a list: a method that first asked whether the step offers cards cost
0.3 k instructions more a decision (valgrind, 4 to 10 options).
"""
from __future__ import annotations

from operator import itemgetter


def deciders(steps, index: dict, by_card, card_ids: dict, card_labels: dict) -> tuple:
    """The function of each step of ``steps`` (by index): its decision's ids and labels, in
    option order, tuples (a label outside the space raises KeyError, as it is impossible)."""
    return tuple(_cards(card_ids, card_labels) if i in by_card else _labelled(step.labels, index)
                 for i, step in enumerate(steps))


def _cards(ids: dict, labels: dict):
    if ids and None not in ids and len(ids) == max(ids) + 1:
        # (every card 0..n-1 in the space, no "none" option: the tables as lists by card, whose items
        # itemgetter reads cheaper than a dict's: 4.0 k against 4.6 k for ids and labels of 10 options;
        # a card is an id 0..n-1, never negative, which a list would read from its end)
        ids, labels = [ids[c] for c in range(len(ids))], [labels[c] for c in range(len(ids))]  # type: ignore[assignment]

    def decide(state, options) -> tuple[tuple, tuple]:
        if len(options) > 1:
            get = itemgetter(*options)
            return get(ids), get(labels)
        if not options:   # (no option: nothing to name)
            return (), ()
        key = options[0]   # (one option: itemgetter of one key gives the value, not a tuple)
        return (ids[key],), (labels[key],)
    return decide


def _labelled(labels_of, index: dict):
    def decide(state, options) -> tuple[tuple, tuple]:
        keys = labels_of(state, options)
        if len(keys) > 1:
            return itemgetter(*keys)(index), tuple(keys)
        if not keys:
            return (), ()
        key = keys[0]
        return (index[key],), (key,)
    return decide
