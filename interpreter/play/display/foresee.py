"""What each option of a pending decision would do, as far as the deciding seat can tell: for
the terminal's ``?``.

Each option is played one ply (up to the next decision) on a few determinizations of the state
for the seat (engine/knowledge.py: the hidden cards dealt again at random), each told as the
seat would hear it (the line redacted for it, play/logs/redact.py, told by narrate.py). What is
said alike on every one of them does not hang on anything the seat cannot see, nor on chance:
that is what the engine can tell. The rest is left out, and so is all that follows a roll,
a random draw or a shuffle.
"""
from __future__ import annotations

from ..logs.gamelog import logged_decision
from ..logs.redact import Redactor
from .narrate import summary_said, told

CHANCE = ("roll", "attempt", "random", "shuffle")   # the events whose outcome chance decides


def foreseen(worlds: list, seat: int, owners) -> list[str]:
    """A sentence per option of the pending decision (asked of ``seat``) of the determinizations
    ``worlds`` (``SeatView.sample``): what it would do that is the same in every one of them,
    "" where nothing is."""
    redactor = Redactor(worlds[0].rules, seat, worlds[0].members)
    out = []
    for i in range(len(worlds[0].dec[1])):
        said: list[list[str]] = []
        for D in worlds:
            line, error = logged_decision(D.rules, D.clone(), i, 0)
            if error is not None:
                said.append([])
                continue
            events = line["events"]   # what chance decides is not foreseen, however alike the worlds drew it
            line["events"] = events[:next((k for k, ev in enumerate(events) if ev.get("ev") in CHANCE), len(events))]
            sentences, table = told(redactor.line(line), seat, owners)
            said.append(sentences + summary_said(table))
        common = [s for s in said[0] if all(s in other for other in said[1:])]
        out.append(" ".join(common))
    return out
