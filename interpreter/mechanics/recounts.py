"""What a determinized world counts again of a step's seats and counts (engine/knowledge.py):
which of a step's expressions read what not every seat sees, and the seats a step goes through
made again on the world's values. Shared by the flow's turns and repeats and by ``pass``."""
from __future__ import annotations

from ..engine.sight import hidden_reads


def reads_hidden(step, S, *fns) -> tuple:
    """For each of a step's expressions (None: not written), what it reads that not every seat
    sees (engine/sight.py ``hidden_reads``: false for nothing; ``unseen_by`` tells a seat it
    hides from): a private variable, a hidden counter, the cards of a hidden zone; what a
    determinization counts again on the world's values (engine/knowledge.py). A zone read only
    for how many cards it holds is not counted: every seat sees that, and what it held when the
    step read it the world does not hold. Found once for a ruleset (a search deals worlds again
    and again)."""
    kept = step.hidden_kept
    if kept is None or kept[0] is not S.rules:
        kept = step.hidden_kept = (S.rules, tuple(fn is not None and hidden_reads(S.rules, fn) for fn in fns))
    return kept[1]


def seats_again(seq, pos: int, recount, rest, n: int) -> list:
    """The seats a step goes through in turn (a lap's order, a pass's givers) made again in a
    determinization, where what made them read a private variable or a hidden counter. The
    seats before ``pos`` have played, the one whose turn runs with them: every seat saw them
    play, so they keep their places. After them come the seats ``recount()`` gives on the
    world's values that have not played (a seat that played this lap does not play again; one
    the world leaves out after it played stays where it played). ``rest``: the seats still to
    play where which seats they are read no hidden value (then only their order is made again;
    None: the set too). Where the world cannot count (a private value it holds as none) or counts
    what is no seat (a value of type any holding a list, a number past the table), the seats in
    table order: those of ``rest``, else every seat that has not played; never the true order."""
    played = list(seq[:pos])
    gone = set(played)   # (a lap may hold MAX_COST seats: each asked once, not looked for along the list)
    try:   # (the count, and the seats it gives looked up: a value of type any may hold lists)
        order = list(recount())
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n for p in order):   # (no seat)
            raise ValueError(order)
        if rest is not None:   # (stable: seats the world's order lacks last)
            rank = {p: i for i, p in enumerate(order)}
            return [*played, *sorted(rest, key=lambda p: rank.get(p, len(rank)))]
        return [*played, *(p for p in order if p not in gone)]
    except Exception:   # noqa: BLE001 - any failure of the count: the table's order, which hides nothing
        return [*played, *(sorted(rest) if rest is not None else (p for p in range(n) if p not in gone))]
