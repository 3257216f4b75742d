"""A game's log lines told in words, one line per decision, for a person at the table.

``tell(line)`` turns a log line (a decision, a forced move, the setup's events) into a short
sentence: who chose what, then what it caused (cards moved, counters changed, a trick won).
It reads only the line, so a line redacted for a seat (play/logs/redact.py) tells that seat no
more than it may know: hidden cards are counts, hidden amounts are left out, another seat's
secret choice is "?". Generic: the words come from the events' fields, not from any game.
"""
from __future__ import annotations

from ...errors import digits
from ..logs.redact import HIDDEN
from .told import Told
from .words import is_plural


def alike(labels: list, more_than: int = 8) -> dict | None:
    """label -> how many, when there are more than ``more_than`` cards and most are alike (a
    supply, told as "light ×11 dark ×5"); else None (the cards are told one by one)."""
    counts: dict = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return counts if len(labels) > more_than and len(counts) * 2 <= len(labels) else None


def owners(rules, members) -> tuple:
    """What a teller needs to name things as the ruleset does: (the owner kind of every zone
    and counter, the seats of each team, the ruleset's words: play/display/words.py)."""
    from .words import words_of
    return {**rules.zone_owner, **rules.counter_owner}, [list(m) for m in members], words_of(rules)


# events another line already tells: a receive (the pass said it), a roll (the outcome says it),
# a branch (the decision's own label says it)
_SAID_ELSEWHERE = frozenset({"receive", "roll", "branch"})


class _Teller:
    """Words for one listening seat: its own seat reads "you", its zones "your ...", a team's
    (when ``owners`` says which are a team's, in a game of teams) "your team's ..."."""

    def __init__(self, me: int | None, owners: tuple | None = None, known: dict | None = None):
        self.me = me
        self.kinds, self.members, self.words = (*(owners or ({}, None)), None)[:3]
        self.known = Told(known, self.words)   # what the story told each counter and variable is, if kept

    def title(self, name) -> str:
        return self.words.title(name) if self.words is not None else str(name)

    def who(self, seat) -> str:
        if seat is None:
            return "the table"
        return "you" if seat == self.me else f"seat {seat}"

    def does(self, seat, verb: str, verbs: str | None = None) -> str:
        """"seat 2 plays", "you play"."""
        if seat is not None and seat == self.me:
            return f"you {verb}"
        return f"{self.who(seat)} {verbs or verb + 's'}"

    def zone(self, raw, owner=None) -> str:
        name = self.title(raw)
        if owner is None:
            return name
        if owner == HIDDEN:   # a card this seat does not see (play/logs/redact.py)
            return f"{name} of a hidden card"
        if isinstance(owner, str):   # a zone or counter of each card, its card by label
            return f"{name} of {owner}"
        members = self.members
        if (self.kinds.get(raw) == "team" and members and isinstance(owner, int) and 0 <= owner < len(members)
                and any(len(m) > 1 for m in members)):
            return f"your team's {name}" if self.me in members[owner] else f"{name} of team {owner}"
        return f"your {name}" if owner == self.me else f"{name} of seat {owner}"

    def whose(self, raw, owner) -> str:
        """Who owns a counter, as a sentence's subject: "you", "seat 2", "your team", "team 1"."""
        members = self.members
        if self.kinds.get(raw) == "team" and members and isinstance(owner, int) and 0 <= owner < len(members) \
                and any(len(m) > 1 for m in members):
            return "your team" if self.me in members[owner] else f"team {owner}"
        return str(owner) if isinstance(owner, str) else self.who(owner)

    def scores(self, counter, owner, delta: int) -> str:
        """A counter's change as the rules say it: "seat 2 scores 5 for the treasures" when a
        scoring category counts the counter, a card's counter by its card ("light: built on
        +1"), else "your safe gains 1"."""
        if isinstance(owner, str):
            return f"{owner}: {self.title(counter)} {delta:+d}"
        points = self.words.points.get(counter) if self.words is not None and owner is not None else None
        if points is None:   # "your safe gains 1", "your coins gain 1"
            verb = "gain" if delta > 0 else "lose"
            return f"{self.zone(counter, owner)} {verb if is_plural(self.title(counter)) else verb + 's'} {abs(delta)}"
        subject = self.whose(counter, owner)
        verb = ("score" if delta > 0 else "lose") if subject == "you" else ("scores" if delta > 0 else "loses")
        n = abs(delta) * points[1]
        return f"{subject} {verb} {n} point{'s' if n != 1 else ''} for the {points[0]}"

    def paid(self, who, amounts: dict) -> str:
        """"seat 1 pays 2 wood and 1 gold" (``amounts``: counter -> amount, in order)."""
        paid = [self.words.amount(n, c) if self.words is not None else f"{n} {c}" for c, n in amounts.items()]
        return self.does(who, "pay") + " " + (", ".join(paid[:-1]) + " and " + paid[-1] if len(paid) > 1 else paid[0])

    def amount(self, ev: str, field: str, n) -> str:
        """An amount in an event in the counter it is counted in ("2 coins"), else bare."""
        unit = self.words.units.get((ev, field)) if self.words is not None else None
        return self.words.amount(n, unit) if unit is not None else str(n)

    def own(self, name, owner, who) -> str:
        """A zone named from the acting seat's side: "their hand" when it is the actor's own."""
        if owner is not None and owner == who and who != self.me and self.kinds.get(name) != "team":
            return f"their {self.title(name)}"
        return self.zone(name, owner)

    def cards(self, ev) -> str:
        if "cards" in ev:
            cards = [str(c) for c in ev["cards"]]
            counts = alike(cards)
            if counts:   # many alike: "light ×11 dark ×5"
                return " ".join(f"{c} ×{n}" if n > 1 else c for c, n in counts.items())
            return " ".join(cards) if cards else "nothing"
        if "count" in ev:
            n = ev["count"]
            return f"{n} hidden card{'s' if n != 1 else ''}"
        return ""

    def event(self, ev: dict) -> str | None:
        """One event in words, or None for one not worth a word."""
        kind = ev.get("ev")
        who = ev.get("who")
        if kind in _SAID_ELSEWHERE:
            return None
        if kind in ("move", "deal", "gather"):
            if not ev.get("cards") and not ev.get("count"):
                return None   # nothing moved
            froms = ev.get("from")
            froms = froms if isinstance(froms, list) else [froms]
            hidden = self.words.hidden if self.words is not None else set()
            # a box no seat sees is not named: cards come out of it or go back into it
            seen = [f for f in froms if f not in hidden]
            to = None if ev.get("to") in hidden else self.zone(ev.get("to"), ev.get("to_owner"))
            if not seen and to is None:
                return None   # from one box to another: nothing a seat sees
            src = ", ".join(map(self.title, seen)) if len(froms) > 1 else (
                self.zone(froms[0], ev.get("from_owner")) if seen else None)
            if kind == "gather":   # the cards back together: how many, not which
                n = len(ev["cards"]) if "cards" in ev else ev.get("count", 0)
                return f"{n} card{'s' if n != 1 else ''} gathered from {src}" + (f" into {to}" if to else "")
            if src is None:
                return f"{self.cards(ev)} {'dealt to' if kind == 'deal' else 'placed in'} {to}"
            if to is None:
                return f"{self.cards(ev)} put away from {src}"
            verb = {"deal": "dealt"}.get(kind, "moved")
            return f"{self.cards(ev)} {verb} from {src} to {to}"
        if kind in ("gain", "lose"):   # (a shared counter's: no seat's)
            owner = ev.get("owner", None if self.kinds.get(ev.get("counter")) == "none" else who)
            if ev.get("hidden"):
                return f"{self.zone(ev.get('counter'), owner)} changes"
            if not ev.get("amount"):
                return None   # nothing changed
            return self.scores(ev.get("counter"), owner, ev["amount"] * (1 if kind == "gain" else -1))
        if kind == "transfer":
            if not ev.get("hidden") and not ev.get("amount"):
                return None   # nothing moved
            amount = "some" if ev.get("hidden") else str(ev.get("amount"))
            # (a side the seat does not see is left out of a redacted event: play/logs/redact.py)
            src = f" from {self.zone(ev.get('from'), ev.get('from_owner'))}" if "from" in ev else ""
            to = f" to {self.zone(ev.get('to'), ev.get('to_owner'))}" if "to" in ev else ""
            return f"{amount} moves{src}{to}"
        if kind == "set_counter":
            if not ev.get("hidden") and self.known.unchanged(("c", ev.get("counter"), ev.get("owner")), ev.get("value")):
                return None   # set to what it was: nothing happened
            if isinstance(ev.get("owner"), str) and not ev.get("hidden"):   # a card's: "light: built on 1"
                return f"{ev['owner']}: {self.title(ev.get('counter'))} {ev.get('value')}"
            value = "changes" if ev.get("hidden") else (
                f"is now {self.words.value(ev.get('counter'), ev.get('value'), self.who) if self.words else ev.get('value')}")
            return f"{self.zone(ev.get('counter'), ev.get('owner'))} {value}"
        if kind in ("set", "random"):
            var = ev.get("var")
            if self.words is not None and var in self.words.quiet_vars:
                return None   # bookkeeping: not the table's
            if "value" in ev and self.known.unchanged(("v", var), ev["value"]) and kind == "set":
                return None   # set to what it was: nothing happened (a draw is told: it happened)
            value = self.words.value(var, ev.get("value", "?"), self.who) if self.words is not None \
                else _said(ev.get("value", "?"))
            return f"{self.title(var)} {'drawn:' if kind == 'random' else 'is now'} {value}"
        if kind == "show":   # "seat 0 sees c4 in hand of seat 1"
            return f"{self.does(ev.get('shown_to'), 'see')} {self.cards(ev)} in {self.zone(ev.get('from'), ev.get('from_owner'))}"
        if kind == "reveal":   # a simultaneous choice: a value per seat ("bid revealed: you 11, seat 1 12")
            if "value" not in ev:   # into a private variable: the choices stay secret
                return f"{self.title(ev.get('var'))}: all have chosen, in secret"
            shown = ev.get("value")
            if isinstance(shown, list):
                return f"{self.title(ev.get('var'))} revealed: " + (
                    ", ".join(f"{self.who(p)} {_said(v)}" for p, v in enumerate(shown) if v is not None) or "none")
            return f"{self.title(ev.get('var'))} revealed: {_said(shown)}"
        if kind == "reset":
            return f"{', '.join(self.title(c) for c in ev.get('counters') or [])} back to the start"
        if kind == "advance":
            if not ev.get("hidden") and ev.get("from") == ev.get("to"):
                return None   # at its last space already: nothing moved
            return f"{self.zone(ev.get('counter'), ev.get('owner', who))}" + (
                " moves" if ev.get("hidden") else f" moves from {ev.get('from')} to {ev.get('to')}")
        if kind == "play":
            return f"{self.does(who, 'play')} {self.cards(ev)}"
        if kind == "trick":
            return f"{self.does(ev.get('winner'), 'win')} the trick ({self.cards(ev)})"
        if kind == "pass":
            return f"{self.does(who, 'pass', 'passes')} {self.cards(ev)} to {self.who(ev.get('for'))}"
        if kind == "pick":   # "seat 0 puts 2* from their hand into their safe"
            src = self.own(ev.get("from"), ev.get("from_owner"), who)
            if ev.get("to") is None:
                return f"{self.does(who, 'take')} {self.cards(ev)} from {src}"
            owner = ev.get("to_owner", who if self.kinds.get(ev.get("to")) == "player" else None)
            dst = self.own(ev.get("to"), owner, who)
            return f"{self.does(who, 'put')} {self.cards(ev)} from {src} into {dst}"
        if kind == "grid":
            if ev.get("pass"):
                return self.does(who, "pass", "passes")
            cost = f" for {self.amount('grid', 'cost', ev['cost'])}" if "cost" in ev else ""   # (each hidden apart)
            return f"{self.does(who, 'take')} {ev['space'] if 'space' in ev else 'a hidden space'}{cost}"
        if kind == "pay":
            return self.does(who, "pay") if ev.get("hidden") else self.paid(who, {ev.get("counter"): ev.get("amount")})
        if kind == "target":   # (a card kept in a private variable: not named to another seat)
            return f"{self.does(who, 'try', 'tries')} {ev['card'] if 'card' in ev else 'a hidden card'}"
        if kind == "attempt":
            return f"outcome: {_outcome(ev)}"
        if kind == "end_game":
            return "the game ends"
        if kind == "forced":
            return f"{self.who(ev.get('seat'))} {self.title(ev.get('prompt'))}: {ev.get('action')} (the only option)"
        return kind

    def told(self, line: dict) -> tuple[list[str], dict | None]:
        """A log line as sentences, one per thing that happened, each ending with a full stop,
        and the counters several seats' changed at once (a round's end) as a summary table:
        {"seats": [who, ...], "rows": [[title, change per seat...], ...]} (None without one).
        Its own seat's choice is not repeated."""
        kind = line.get("type")
        events = line.get("events") or ()
        if kind == "decision":   # its answer may have gone into a variable, with no event
            self.known.forget({"ev": "forced", "prompt": line.get("prompt")})
        table = self._table(events)
        tabled = {c for c in table["counters"]} if table else set()
        # what the deciding seat chose counts as said of it ("pass": not also "passed gains 1")
        chosen = {line.get("seat"): {_root(str(part)) for part in str(line.get("action")).split(":")}} \
            if kind == "decision" else {}
        said = self._sentences(chosen, [ev for ev in _settled(events)
                                if not (ev.get("ev") in ("gain", "lose") and ev.get("counter") in tabled)])
        if kind == "decision" and not (self.me is not None and line.get("seat") == self.me):
            seat, action = line.get("seat"), str(line.get("action"))
            # "seat 2 plays 7H" says the choice already (a grid's "c2r6:R4+2h" by its space, R4+2h)
            # (and "seat 1 passes" a "pass")
            said_words = said[0].replace(",", "").replace(":", "").split() if said else []
            verb = _root(said[0][len(self.who(seat)) + 1:].split(" ")[0]) if said else ""
            if (said and said[0].startswith(self.who(seat) + " ") and action != "?" and " 1 hidden card " in said[0]
                    and verb == _root(str(line.get("prompt")))):   # a card this seat may know, passed to it
                said[0] = said[0].replace(" 1 hidden card ", f" {action} ", 1)
                said_words.append(action)
            if not (said and said[0].startswith(self.who(seat) + " ")
                    and (action == "?" or any(part and (part in said_words or _root(part) == verb)
                                              for part in action.split(":")))):
                chose = self.chose(line)
                if said and said[0].startswith(action + ": "):   # the card chosen and what it got, as one
                    said[0] = f"{chose} ({said[0][len(action) + 2:]})"
                else:
                    said.insert(0, chose)
        elif kind == "error" and "agent" in line and "action" not in line:   # an agent failed (gamelog.agent_choice)
            said = [f"the game ends: {line.get('message')}"]
        elif kind == "error" and "action" not in line:   # the game's end: its scoring failed (gamelog.ending)
            said = [f"the game ends, and its scoring fails: {line.get('message')}"]
        elif kind == "error":
            said = [f"{self.who(line.get('seat'))} {self.title(line.get('prompt'))}: {line.get('action')}: {line.get('message')}"]
        elif kind not in ("decision", "events"):
            return [], None
        if table:
            table.pop("counters")
        return [s if s.endswith(".") else s + "." for s in said], table

    def _sentences(self, chosen: dict, events) -> list[str]:
        """The events' sentences, one per thing that happened (``_merged``: a payment, a deal, a
        run of gains...), cards moved and back again not told, nor a counter of a seat's that only
        echoes what the seat chose or did (``chosen``: seat -> the roots of its choice's words):
        "seat 1 passes", not also "passed of seat 1 gains 1"."""
        said: list[str] = []
        done: dict = {seat: set(roots) for seat, roots in chosen.items()}   # seat -> the roots of the verbs said of it
        quiet = self.words.quiet_vars if self.words is not None else ()
        events = [ev for ev in events if not (ev.get("ev") in ("set", "random") and ev.get("var") in quiet)]
        for ev in _merged(_round_trips(events)):
            kind, who = ev.get("ev"), ev.get("who")
            self.known.forget(ev)
            text: str | None
            if kind == "pay" and "paid" in ev:
                text = self.paid(who, ev["paid"])
            elif kind == "target" and "outcome" in ev:   # "you try b2: miss"
                text = f"{self.event(ev)}: {_outcome(ev)}"
            elif (kind == "gain" and ev.get("owner", who) == who and who in done
                  and _root(self.title(ev.get("counter")).split(" ")[0]) in done[who]):
                continue   # the counter says what its owner's own action said
            else:
                text = self.event(ev)
            if text:
                said.append(text)
                if who is not None and text.startswith(self.who(who) + " "):
                    done.setdefault(who, set()).add(_root(text[len(self.who(who)) + 1:].split(" ")[0]))
        return said

    def chose(self, line: dict) -> str:
        """"seat 3 chooses cards to pass: 2" (the title of what the decision sets); a choice
        this seat may not see "seat 1 chooses bid in secret"."""
        action = line.get("action")
        if action == "?":
            return f"{self.does(line.get('seat'), 'choose')} {self.title(line.get('prompt'))} in secret"
        if self.words is not None and line.get("prompt") in self.words.seat_prompts and isinstance(action, str) \
                and digits(action[1:]):   # a seat chosen ("p2"): by its name ("seat 2", "you")
            action = self.who(int(action[1:]))
        return f"{self.does(line.get('seat'), 'choose')} {self.title(line.get('prompt'))}: {action}"

    def tell(self, line: dict) -> str | None:
        """A log line in words: its sentences, then its summary table as sentences of its own
        ("round score: you +3, seat 2 +5.")."""
        said, table = self.told(line)
        said += summary_said(table)
        return " ".join(said) if said else None

    def _table(self, events) -> dict | None:
        """The counters changed for three owners or more in one line, each owner's net change."""
        changed: dict = {}
        for ev in events:
            if ev.get("ev") in ("gain", "lose") and not ev.get("hidden") and ev.get("amount"):
                owner = ev.get("owner", ev.get("who"))
                net = changed.setdefault(ev.get("counter"), {})
                net[owner] = net.get(owner, 0) + ev["amount"] * (1 if ev["ev"] == "gain" else -1)
        changed = {c: net for c, net in changed.items() if len(net) >= 3}
        if not changed:
            return None
        owners = sorted({o for net in changed.values() for o in net}, key=lambda o: (not isinstance(o, int), str(o)))
        heads = [self.whose(next(iter(changed)), o) for o in owners]
        rows = [[self.title(c)] + [(f"{net[o]:+d}" if net.get(o) else "") for o in owners] for c, net in changed.items()]
        return {"seats": heads, "rows": rows, "counters": list(changed)}


def summary_said(table: dict | None) -> list[str]:
    """A summary table (``_Teller.told``) as sentences, a counter each: "round score: you +3, seat 2 +5."."""
    if not table:
        return []
    return [f"{row[0]}: " + ", ".join(f"{who} {cell}" for who, cell in zip(table["seats"], row[1:]) if cell) + "."
            for row in table["rows"]]


def _settled(events) -> list:
    """The events worth telling: a variable set several times in one line told once, at its
    last value, and a flag raised and lowered again (set, then set to false) not at all."""
    last: dict = {}
    flags: dict = {}
    for i, ev in enumerate(events):
        if ev.get("ev") == "set":
            last[ev.get("var")] = i
            if isinstance(ev.get("value"), bool):
                flags.setdefault(ev.get("var"), []).append(ev["value"])
    lowered = {var for var, values in flags.items() if len(values) > 1 and values[-1] is False}
    return [ev for i, ev in enumerate(events)
            if ev.get("ev") != "set" or (last.get(ev.get("var")) == i and ev.get("var") not in lowered)]


def _round_trips(events) -> list:
    """The events without cards moved somewhere and back again in the same line (market
    strips laid out and put back): nothing changed that a seat sees."""
    def key(ev, back=False):
        ends = [(ev.get("from"), ev.get("from_owner")), (ev.get("to"), ev.get("to_owner"))]
        return (*(ends[::-1] if back else ends), sorted(map(str, ev.get("cards") or ())))
    gone: set = set()
    for i, ev in enumerate(events):
        if ev.get("ev") == "move" and ev.get("cards") and i not in gone:
            back = next((j for j in range(i + 1, len(events)) if j not in gone and events[j].get("ev") == "move"
                         and key(events[j]) == key(ev, back=True)), None)
            if back is not None:
                gone |= {i, back}
    return [ev for i, ev in enumerate(events) if i not in gone]


def _merged(events) -> list:
    """Events one after another that are one thing: a seat's payments (``paid``: counter ->
    amount, in order), a counter's gains for one owner in a run of gains (summed), a target tried and the
    attempt's outcome, a deal's cards to each hand (the deal's events one after another), the
    cards moved between the same zones one move after another."""
    out: list = []
    for ev in events:
        last = out[-1] if out else {}
        kind = ev.get("ev")
        if kind == "pay" and not ev.get("hidden"):
            if last.get("ev") == "pay" and "paid" in last and last.get("who") == ev.get("who"):
                last["paid"][ev.get("counter")] = last["paid"].get(ev.get("counter"), 0) + ev.get("amount", 0)
            else:
                out.append({**ev, "paid": {ev.get("counter"): ev.get("amount", 0)}})
            continue
        if kind == "roll":
            continue   # (the chances: the outcome says what came of them)
        if (kind == "move" and last.get("ev") == "move" and "cards" in ev and "cards" in last
                and all(last.get(k) == ev.get(k) for k in ("from", "to", "from_owner", "to_owner"))):
            out[-1] = {**last, "cards": [*last["cards"], *ev["cards"]]}   # one move in parts (a market laid)
            continue
        if kind == "deal":   # a deal round by round: each hand's cards in one sentence
            run = len(out)
            while run and out[run - 1].get("ev") == "deal":
                run -= 1
            key = [ev.get(k) for k in ("from", "to", "to_owner")]
            same = next((d for d in out[run:] if [d.get(k) for k in ("from", "to", "to_owner")] == key
                         and ("cards" in d) == ("cards" in ev)), None)
            if same is not None:
                if "cards" in ev:
                    same["cards"] = [*same["cards"], *ev["cards"]]
                else:
                    same["count"] = same.get("count", 0) + ev.get("count", 0)
                continue
            out.append(dict(ev))
            continue
        if kind == "attempt" and last.get("ev") == "target" and "outcome" not in last:
            last["outcome"] = ev.get("outcome")   # the piece tried and what came of it: one thing
            if ev.get("hidden"):
                last["hidden"] = True
            continue
        if kind == "gain" and not ev.get("hidden"):   # a run of gains: each counter of each owner once
            run = len(out)
            while run and out[run - 1].get("ev") == "gain":
                run -= 1
            same = next((i for i in range(run, len(out)) if not out[i].get("hidden")
                         and all(out[i].get(k) == ev.get(k) for k in ("counter", "owner", "who"))), None)
            if same is not None:
                out[same] = {**out[same], "amount": out[same].get("amount", 0) + ev.get("amount", 0)}
                continue
        out.append(dict(ev) if kind == "target" else ev)   # (a copy: its outcome is added to it)
    return out


def _outcome(ev: dict) -> str:
    """An attempt's outcome in words: its name, "nothing", or "hidden" (kept in a private variable)."""
    return "hidden" if ev.get("hidden") else ev.get("outcome") or "nothing"


def _root(word: str) -> str:
    """A verb or participle without its ending ("passes", "passed", "pass" -> "pass")."""
    if word.endswith("ss") or len(word) < 4:
        return word
    if word.endswith("es") and word[:-2].endswith(("ss", "sh", "ch", "x", "z")):
        return word[:-2]
    if word.endswith("ed"):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def _said(value) -> str:
    """A value as a person reads it: a list's items bare ("[k3, none]"), not Python's repr."""
    if isinstance(value, list):
        return "[" + ", ".join(_said(v) for v in value) + "]"
    return "none" if value is None else str(value)


def event(ev: dict, me: int | None = None, owners: tuple | None = None) -> str | None:
    """One event in words, told to seat ``me``, or None for one not worth a word (``owners``:
    ``owners(rules, members)``, to name a team's things as the team's)."""
    return _Teller(me, owners).event(ev)


def choice(line: dict, me: int | None = None, owners: tuple | None = None) -> str | None:
    """A decision in words even when it caused nothing worth a word (``tell`` does not repeat
    one's own choice): "you cards to pass: 2"; None for another kind of line."""
    if line.get("type") != "decision":
        return None
    return _Teller(me, owners).chose(line) + "."


def told(line: dict, me: int | None = None, owners: tuple | None = None,
         known: dict | None = None) -> tuple[list[str], dict | None]:
    """A log line as sentences and a summary table (``_Teller.told``), told to seat ``me``.
    ``known``: a dict kept by a caller telling a game's lines in order, where the story notes
    what it told each counter and variable is, so that a set to the same value is not told."""
    return _Teller(me, owners, known).told(line)


def tell(line: dict, me: int | None = None, owners: tuple | None = None, known: dict | None = None) -> str | None:
    """A log line in words, told to seat ``me`` (its own seat reads "you", and its own choice
    is not repeated): "seat 2 plays 7H; seat 0 wins the trick (7H 2H 9H 4H); safe +1";
    ``known`` as for ``told``."""
    return _Teller(me, owners, known).tell(line)


def decided_text(d: dict) -> str:
    """What decided the ranking, in a sentence ("" when the best score alone did)."""
    seats = lambda ps: ", ".join(f"seat {p}" for p in ps)   # noqa: E731
    unranked = f" (not ranked: {seats(d['unranked'])})" if d.get("unranked") else ""
    if d.get("by") == "tiebreak":
        values = ", ".join(f"seat {p} {v}" for p, v in sorted(d["values"].items(), key=lambda kv: int(kv[0])))
        return f"{seats(d['tied'])} tied on {d['score']}; the tie-break {d['tiebreak']} decided it ({values}){unranked}"
    if d.get("by") == "shared":
        return f"{seats(d['tied'])} tied on {d['score']} after every tie-break: a shared victory{unranked}"
    if d.get("by") == "nobody":
        return f"nobody may be ranked: no winner{unranked}"
    return unranked.strip()
