"""What a story told in order has said each counter and variable is: a set to that same value
says nothing happened, so the story does not tell it (play/display/narrate.py)."""
from __future__ import annotations

_UNTOLD = object()   # a value the story has not told

# the events that change no counter, or only the counters they name
_NAMES_ITS_COUNTERS = frozenset(("move", "deal", "gather", "play", "trick", "pass", "receive", "pick", "target",
                                 "attempt", "roll", "branch", "show", "end_game", "gain", "lose", "transfer",
                                 "reset", "advance", "pay"))


class Told:
    """``known``: the dict a caller keeps for one seat's story of one game, told line by line
    (None: lines told one at a time, each set told). Keys: ``("c", counter, owner)`` and
    ``("v", variable)``; ``("c", counter, "*")`` every owner's, after a reset."""

    def __init__(self, known: dict | None, words):
        self.known, self.words = known, words

    def unchanged(self, key, value) -> bool:
        """Whether a set leaves ``key`` at the value the story last told it has; the value is
        noted either way."""
        if self.known is None:
            return False
        was = self.known.get(key, self.known.get((*key[:2], "*"), _UNTOLD))
        self.known[key] = value
        return was == value

    def forget(self, ev: dict) -> None:
        """Forget the counters and variables ``ev`` may change otherwise than by setting them
        (a gain, a decision stored in a variable): their next set is told whatever its value."""
        known = self.known
        if not known:
            return
        kind = ev.get("ev")
        if kind in ("set_counter", "set", "random"):
            return
        if kind in ("reveal", "forced"):   # a variable set by a decision
            names = {ev.get("var")} | (self.words.prompt_vars.get(ev.get("prompt"), set()) if self.words else set())
        elif kind in _NAMES_ITS_COUNTERS:
            names = {ev.get(k) for k in ("counter", "from", "to") if isinstance(ev.get(k), str)}
            for k in ("counters", "paid"):
                if isinstance(ev.get(k), (list, dict)):
                    names |= {c for c in ev[k] if isinstance(c, str)}
        else:   # it may change counters it does not name (a grid's price paid): forget them all
            names = {k[1] for k in known if k[0] == "c"}
        for key in [k for k in known if k[1] in names]:
            del known[key]
        if kind == "reset" and self.words is not None:   # each back to its start, where the ruleset says it
            for name in ev.get("counters") or ():
                if name in self.words.starts:
                    known["c", name, "*"] = self.words.starts[name]
