"""Copy on write checked (engine/state.py): a clone shares the lists of its zones and counters
with the state it came from until one of the two writes one, and every writer must take its own
copy first (``State.own``, or the generated ``writable`` form, expr/names.py).

``check_clone`` freezes the lists a state shares with a fresh clone (one list that raises on any
change, in both), then plays the clone and a determinization on: a writer that forgot its copy
raises ``SharedWrite`` at once, naming the line. A reader left holding the shared list after its
state's own copy was made would play differently: the clone is compared with an independent copy
(saved and loaded) playing the same actions. The original, frozen too, plays on afterwards: the
caller compares its end with the same game played without clones."""
from __future__ import annotations

import json
import random

from interpreter.engine.state import from_dict
from interpreter.expr.names import RECORD, VIEWS
from interpreter.errors import RulebookError


class SharedWrite(AssertionError):
    pass


def _refuse(*_args, **_kw):
    raise SharedWrite("a list shared with a clone was written in place (take State.own(name) first)")


class Frozen(list):
    """A list that refuses every change: what a state shares with its clone."""
    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


def freeze(S, C) -> int:
    """Replace every list ``S`` and its clone ``C`` share by one frozen list (in both)."""
    for name in sorted(S.sh, key=lambda name: name in (RECORD, VIEWS)):   # (the record last: a zone written remakes it)
        if name == RECORD:   # the record of each card's zone (engine/layout.py reindex)
            S.at = C.at = Frozen(S.at)
            continue
        if name == VIEWS:   # the views of unions of recorded zones (likewise)
            S.vw = C.vw = Frozen(Frozen(view) for view in S.vw)
            continue
        zone = name in S.z
        value = (S.z if zone else S.c)[name]
        if zone and S.rules.zone_owner[name] != "none":
            value = Frozen(Frozen(part) for part in value)
        else:
            value = Frozen(value)
        (S.z if zone else S.c)[name] = value
        (C.z if zone else C.c)[name] = value
    return len(S.sh)


def _play(states, rnd, ahead: int):
    """Play the states on together, the same option each time; the first's error, if any."""
    for _ in range(ahead):
        if states[0].over:
            return None
        i = rnd.randrange(len(states[0].dec[1]))
        for T in states:
            try:
                T.apply_index(i)
            except RulebookError as e:
                return str(e)
    return None


def check_clone(S, seed: int, ahead: int) -> int:
    """Clone ``S`` (a state with a decision pending), freeze what they share and play the clone
    and a determinization ``ahead`` decisions on; ``S`` is left frozen and as it was. Returns the
    number of lists shared."""
    before = S.to_json()
    C = S.clone()
    twin = from_dict(S.rules, json.loads(before))
    shared = freeze(S, C)
    error = _play([C], random.Random(seed), ahead)
    twin_error = _play([twin], random.Random(seed), ahead)
    assert error == twin_error, f"the clone stopped otherwise than a copy: {error!r} / {twin_error!r}"
    assert C.to_json() == twin.to_json(), "the clone played differently from an independent copy"
    try:
        D = S.determinize(S.current_player(), random.Random(seed))   # a clone dealt again
    except RulebookError:   # (a broken ruleset's question, asked again, may fail)
        D = None
    if D is not None:
        _play([D], random.Random(seed + 1), ahead)
    assert S.to_json() == before, "playing the clone changed the original"
    return shared
