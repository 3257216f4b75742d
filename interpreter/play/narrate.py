"""A game's log lines told in words, one line per decision, for a person at the table.

``tell(line)`` turns a log line (a decision, a forced move, the setup's events) into a short
sentence: who chose what, then what it caused (cards moved, counters changed, a trick won).
It reads only the line, so a line redacted for a seat (play/redact.py) tells that seat no
more than it may know: hidden cards are counts, hidden amounts are left out, another seat's
secret choice is "?". Generic: the words come from the events' fields, not from any game.
"""
from __future__ import annotations


_ME = [None]   # the seat being told (its own seat reads "you"), set by tell()


def _who(seat) -> str:
    if seat is None:
        return "the table"
    return "you" if seat == _ME[0] else f"seat {seat}"


def _does(seat, verb: str, verbs: str | None = None) -> str:
    """"seat 2 plays", "you play"."""
    if seat is not None and seat == _ME[0]:
        return f"you {verb}"
    return f"{_who(seat)} {verbs or verb + 's'}"


def _zone(name, owner=None) -> str:
    if owner is None:
        return str(name)
    return f"your {name}" if owner == _ME[0] else f"{name} of seat {owner}"


def _cards(ev) -> str:
    if "cards" in ev:
        cards = ev["cards"]
        return " ".join(map(str, cards)) if cards else "nothing"
    if "count" in ev:
        n = ev["count"]
        return f"{n} hidden card{'s' if n != 1 else ''}"
    return ""


def event(ev: dict) -> str | None:
    """One event in words, or None for one not worth a word."""
    kind = ev.get("ev")
    who = ev.get("who")
    if kind in ("move", "deal", "gather"):
        if not ev.get("cards") and not ev.get("count"):
            return None   # nothing moved
        froms = ev.get("from")
        src = ", ".join(froms) if isinstance(froms, list) else _zone(froms, ev.get("from_owner"))
        verb = {"deal": "dealt", "gather": "gathered"}.get(kind, "moved")
        return f"{_cards(ev)} {verb} from {src} to {_zone(ev.get('to'), ev.get('to_owner'))}"
    if kind in ("gain", "lose"):
        owner = ev.get("owner", who)
        if ev.get("hidden"):
            return f"{_zone(ev.get('counter'), owner)} changes"
        sign = "+" if kind == "gain" else "-"
        return f"{_zone(ev.get('counter'), owner)} {sign}{ev.get('amount')}"
    if kind == "transfer":
        amount = "" if ev.get("hidden") else f" {ev.get('amount')}"
        return (f"{_zone(ev.get('from'), ev.get('from_owner'))} -> {_zone(ev.get('to'), ev.get('to_owner'))}:"
                f"{amount or ' some'}")
    if kind == "set_counter":
        value = "changes" if ev.get("hidden") else f"= {ev.get('value')}"
        return f"{_zone(ev.get('counter'), ev.get('owner'))} {value}"
    if kind in ("set", "random"):
        return f"{ev.get('var')} = {ev.get('value', '?')}" + (" (drawn)" if kind == "random" else "")
    if kind == "reveal":
        return f"{ev.get('var')} revealed: {ev.get('value')}"
    if kind == "reset":
        return f"reset: {', '.join(map(str, ev.get('counters') or []))}"
    if kind == "advance":
        return f"{_zone(ev.get('counter'), ev.get('owner', who))}" + (
            " moves" if ev.get("hidden") else f" {ev.get('from')} -> {ev.get('to')}")
    if kind == "play":
        return f"{_does(who, 'play')} {_cards(ev)}"
    if kind == "trick":
        return f"{_does(ev.get('winner'), 'win')} the trick ({_cards(ev)})"
    if kind == "pass":
        return f"{_does(who, 'pass', 'passes')} {_cards(ev)} to {_who(ev.get('for'))}"
    if kind == "receive":
        return None   # the pass said it
    if kind == "pick":
        return f"{_does(who, 'take')} {_cards(ev)} from {_zone(ev.get('from'), ev.get('from_owner'))}"
    if kind == "grid":
        if ev.get("pass"):
            return _does(who, "pass", "passes")
        cost = "" if ev.get("hidden") else f" for {ev.get('cost')}"
        return f"{_does(who, 'take')} {ev.get('space')}{cost}"
    if kind == "pay":
        return _does(who, "pay") + ("" if ev.get("hidden") else f" {ev.get('amount')} {ev.get('counter')}")
    if kind == "target":
        return f"{_does(who, 'try', 'tries')} {ev.get('card')}"
    if kind == "attempt":
        return f"outcome: {ev.get('outcome') or 'nothing'}"
    if kind == "roll":
        return None   # the outcome says it
    if kind == "branch":
        return None   # the decision's own label says it
    if kind == "end_game":
        return "the game ends"
    if kind == "forced":
        return f"{_who(ev.get('seat'))} {ev.get('prompt')}: {ev.get('action')} (the only option)"
    return kind


def tell(line: dict, me: int | None = None) -> str | None:
    """A log line in words, told to seat ``me`` (its own seat reads "you", and its own choice
    is not repeated): "seat 2 play: 7H. seat 0 wins the trick (7H 2H 9H 4H); safe +1"."""
    _ME[0] = me
    kind = line.get("type")
    said = [s for s in (event(ev) for ev in line.get("events") or ()) if s]
    if kind == "decision":
        if me is not None and line.get("seat") == me:
            return "; ".join(said) if said else None
        seat, action = line.get("seat"), str(line.get("action"))
        if said and said[0].startswith(_who(seat) + " ") and (action in said[0] or action == "?"):
            return "; ".join(said)   # "seat 2 plays 7H" says the choice already
        head = f"{_who(seat)} {line.get('prompt')}: {action}"
        return head + (". " + "; ".join(said) if said else "")
    if kind == "events":
        return "; ".join(said) if said else None
    if kind == "error":
        return f"{_who(line.get('seat'))} {line.get('prompt')}: {line.get('action')}: {line.get('message')}"
    return None
