"""Steps, effects and triggers as sentences, for ``rulebook explain`` (explain.py).

One function per step or effect kind (``_KINDS``, a dispatch table) turns the kind's data into
a sentence, one Markdown bullet, with the steps or effects it holds as bullets below; its
expressions read as phrases (phrases.py). "You" is the acting player (``me``); in what a step
asked of another seat reads for it, that seat ("their hand"), and its ``then:`` runs "as that
player" (docs/reference.md "Flow and steps"). A kind without
a sentence (added later), or a step of an unexpected shape, reads as its name and its data in
backticks, so nothing is ever silently left out.
"""
from __future__ import annotations

from ..expr.parser import ExprError, parse
from ..play.display.words import base_name, is_plural
from .nouns import Noun, code, words
from .phrases import Phraser

MODIFIERS = ("steps", "as", "then", "else", "cases", "default", "do", "description", "doc")
IF_NONE = {"skip": "this is skipped", "pass": "{var} becomes none", "end_game": "the game ends"}


def _v(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_v(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_v(x)}" for k, x in value.items()) + "}"
    return str(value)


def _cards(n: str) -> str:
    if n.endswith((" cards", " card")) or " cards " in n:
        return n   # a count whose title says it already ("the cards to pass")
    return "a card" if n == "1" else f"{n} cards"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


def _bullet(depth, text) -> str:
    return "  " * depth + "- " + text


class Sentences:
    """The sentences of one ruleset: ``items(list, depth)`` gives the bullets of a list of
    steps or effects; ``ph`` its Phraser."""

    comments: dict[tuple[str, str], str]   # (section, name) -> its comment in the YAML (explain.py sets it)

    def __init__(self, rules, strict: bool = False):
        self.rules, self.strict = rules, strict
        self.ph = Phraser(rules)
        self.effect_names = set((rules.data.get("effects") or {}))

    def p(self, value, locals=(), scope=None) -> str:
        return self.ph.phrase(value, locals, scope)

    def items(self, items, depth, locals=()) -> list[str]:
        out = []
        for item in items if isinstance(items, list) else [items]:
            out += self.item(item, depth, locals)
        return out

    def item(self, item, depth, locals) -> list[str]:
        kind, main = _kind(item)
        if kind is None:
            return [_bullet(depth, code(_v(item)))]
        rest = item if isinstance(item, dict) else {}
        fn = _KINDS.get(kind)
        if fn is not None:
            try:
                out = fn(self, main, rest, depth, tuple(locals))
                doc = rest.get("doc", main.get("doc") if isinstance(main, dict) else None)
                return quoted(out, doc, depth)
            except (AttributeError, TypeError, KeyError, ValueError):
                if self.strict:
                    raise
                # an unexpected shape of a valid step: shown as data below
        if kind in self.effect_names:
            return [_bullet(depth, self.call(kind, main, locals) + ".")]
        return [_bullet(depth, f"{kind}: {code(_v(main))}")] + (
            self.items(rest["steps"], depth + 1, locals) if isinstance(rest.get("steps"), list) else [])

    def call(self, name, args, locals) -> str:
        if isinstance(args, dict) and args:
            return f"Do **{name}** with " + ", ".join(f"*{k}* = {self.p(v, locals)}" for k, v in args.items())
        return f"Do **{name}**"

    def block(self, head, body, depth, locals) -> list[str]:
        return [_bullet(depth, _cap(head) + ":")] + self.items(body or [], depth + 1, locals)

    def who(self, who, locals, verb: str, plural: str) -> str:
        guard = _guarded(who)   # "A if C else none": if C, A does it
        if guard is not None:
            return f"If {self.p(guard[1], locals)}, " + _uncap(self.who(guard[0], locals, verb, plural))
        subject = self.p(who if who is not None else "me", locals)
        subject = f"({subject})" if " if " in subject else f"player {subject}" if subject.isdigit() else subject
        return f"{'You' if subject == 'you' else _cap(subject)} {verb if subject == 'you' else plural}"


def asked(m) -> tuple:
    """For a step that asks the seat ``m['who']``: how to word what it reads for that seat (you:
    the seat asked, "their hand" where it is another than the acting player), and the heading of
    its ``then:`` ("as that player" there)."""
    who = m.get("who")
    if who in (None, "me") or (_guarded(who) or ("",))[0].strip() == "me":
        return (lambda text: text), "then"
    return _theirs, "then, as that player"


def _theirs(text: str) -> str:
    """A phrase's "you" and "your" (words of their own, punctuation aside) as "they" (the subject
    of a verb: "they are", "they cannot afford"), "them" (an object: "other than them", "them plus
    1") and "their"."""
    out = []
    words = text.split(" ")
    for i, word in enumerate(words):
        core = word.strip("()[],.:;*")
        if core == "you":
            subject = i + 1 < len(words) and word.lstrip("([") == core and words[i + 1] in SUBJECT_VERBS
            out.append(word.replace(core, "they" if subject else "them"))
        else:
            out.append(word.replace(core, "their") if core == "your" else word)
    return " ".join(out)


SUBJECT_VERBS = frozenset({"are", "can", "cannot", "have", "hold", "may", "must", "do"})   # "you" before them: "they"


def quoted(lines: list[str], doc, depth: int) -> list[str]:
    """A step's bullets with its ``doc:`` (the rulebook's own sentence) quoted first below it."""
    if not isinstance(doc, str) or not doc.strip():
        return lines
    return lines[:1] + [_bullet(depth + 1, f"*“{' '.join(doc.split())}”*")] + lines[1:]


def _guarded(who):
    """(A, C) for a "who" written ``A if C else none``, else None."""
    if not isinstance(who, str) or " if " not in who:
        return None
    try:
        tree = parse(who)
    except ExprError:
        return None
    if tree.data == "cond" and getattr(tree.children[2], "data", None) == "none":
        return _source(who, tree.children[0]), _source(who, tree.children[1])
    return None


def _source(text, node) -> str:
    meta = node.meta
    return text[meta.start_pos:meta.end_pos]


def _uncap(text: str) -> str:
    return "you" + text[3:] if text.startswith("You ") else text


def _kind(item):
    """The kind key of a step or effect item: its first key that is not a modifier."""
    if isinstance(item, str):
        return item, None
    if not isinstance(item, dict) or not item:
        return None, item
    for key in item:
        if key not in MODIFIERS:
            return key, item[key]
    key = next(iter(item))
    return key, item[key]


def _phase(ex, m, rest, depth, loc):
    return [_bullet(depth, f"Phase **{m}**:")] + ex.items(rest.get("steps") or [], depth + 1, loc)


def _repeat(ex, m, rest, depth, loc):
    counting = f" (*{rest['as']}* counts 1, 2, ...)" if rest.get("as") else ""
    loc = loc + ((rest["as"],) if rest.get("as") else ())
    return ex.block(f"repeat {ex.p(m, loc)} times{counting}", rest.get("steps"), depth, loc)


def _while(ex, m, rest, depth, loc):
    return ex.block(f"as long as {ex.p(m, loc)}, repeat", rest.get("steps"), depth, loc)


def _until(ex, m, rest, depth, loc):
    return ex.block(f"repeat until {ex.p(m, loc)}", rest.get("steps"), depth, loc)


def _turns(ex, m, rest, depth, loc):
    m = m if isinstance(m, dict) else {}
    players = ex.ph.noun(m["players"], loc) if "players" in m else None
    head = f"each of {players.the()} takes a turn" if players else "each player takes a turn"
    if "from" in m:
        start = ex.p(m["from"], loc)
        head += f", starting with {'player ' + start if start.isdigit() else start}"
    head += ", " + ("counterclockwise" if m.get("order") == "counterclockwise" else "clockwise")
    if "sort_by" in m:
        head += f", in order of {ex.p(m['sort_by'], loc, 'player').replace('your ', 'their ')}, highest first"
    if "rounds" in m:
        head += f", going round {ex.p(m['rounds'], loc)} times"
    if "until" in m:
        head += f", going round until {ex.p(m['until'], loc)}"
    if "skip" in m:
        head += f"; a player {ex.ph.cond(m['skip'], loc, 'player')} misses their turn"
    if m.get("as") not in (None, "turn_player"):
        head += f" (*{m['as']}* is the player whose turn it is)"
    return ex.block(head + ". On your turn", m.get("steps", rest.get("steps")), depth, loc)


def _choose(ex, m, rest, depth, loc):
    var = ex.p(m.get("as", "choice"), loc)
    options = ex.p(m.get("options"), loc)
    if m.get("simultaneous") is True:
        who = ex.ph.noun(m.get("who", "players"), loc)
        head = (f"{_cap(who.the()) if who else 'The players'} each choose, at once and in secret, "
                f"{var} from {_theirs(options)}; the choices are revealed together")
        then = "then, for each chooser (as that player)"
    else:
        theirs, then = asked(m)
        head = ex.who(m.get("who"), loc, "choose", "chooses") + f" {var} from {theirs(options)}"
    if m.get("if_none"):
        head += f" (with nothing to choose, {IF_NONE.get(m['if_none'], m['if_none']).format(var=var)})"
    if not m.get("then"):
        return [_bullet(depth, head + ".")]
    return [_bullet(depth, head + ".")] + ex.block(then, m["then"], depth + 1, loc)


def _branch(ex, m, rest, depth, loc):
    out = [_bullet(depth, ex.who(m.get("who"), loc, "choose", "chooses") + " one of:")]
    theirs, then = asked(m)   # (the conditions read for the seat asked; the chosen steps run as it, with as:)
    steps_as = f"{then[4:]} (*{m['as']}*)" if m.get("as") and then[4:] else ""
    for name, opt in (m.get("options") or {}).items():
        opt = opt if isinstance(opt, dict) else {}
        cond = f", if {theirs(ex.p(opt['if'], loc))}" if "if" in opt else ""
        if opt.get("steps"):
            out += quoted(ex.block(f"**{name}**{cond}{steps_as}", opt["steps"], depth + 1, loc), opt.get("doc"), depth + 1)
        else:
            out += quoted([_bullet(depth + 1, f"**{name}**{cond}: nothing.")], opt.get("doc"), depth + 1)
    if m.get("if_none"):
        out.append(_bullet(depth + 1, f"With nothing to choose, {IF_NONE.get(m['if_none'], m['if_none'])}."
                           .replace("{var} becomes none", "nothing happens")))
    return out


def _pick(ex, m, rest, depth, loc):
    loc = loc + ("picked",)
    src = ex.ph.noun(m.get("from"), loc)
    if "where" in m:
        src = Noun("card", "card", f"{src.tail if src else ' of ' + ex.p(m.get('from'))} "
                                   f"{ex.ph.cond(m['where'], loc, 'card')}")
    if "count" in m:
        many = f"{ex.p(m['count'], loc)} of"
    elif "max" in m:
        many = f"between {ex.p(m.get('min', 0), loc)} and {ex.p(m['max'], loc)} of"
    else:
        many = f"at least {ex.p(m.get('min', 0), loc)} of"
    theirs, then = asked(m)
    head = ex.who(m.get("who"), loc, "pick", "picks") + theirs(
        f" {many} {src.the() if src else ex.p(m.get('from'))}, one at a time, into {ex.ph.zone(m.get('to'), loc)}")
    if m.get("if_none"):
        head += f" (with nothing to pick, {IF_NONE.get(m['if_none'], m['if_none']).format(var='nothing')})"
    out = [_bullet(depth, head + ".")]
    each = "after each card picked (*card*)" + then[4:]
    return out + (ex.block(each, m["then"], depth + 1, loc) if m.get("then") else [])


def _pass(ex, m, rest, depth, loc):
    who = ex.ph.noun(m["players"], loc) if "players" in m else None
    into = f" (into their {words(m['into'])})" if m.get("into") and m.get("into") != m.get("from") else ""
    return [_bullet(depth, f"{_cap(who.each()) if who else 'Each player'} passes "
                           f"{_cards(ex.p(m.get('count', 1), loc))} from their {words(m.get('from'))} to {ex.p(m.get('to', 'left(me)'), loc)}{into}; "
                           "all are delivered together, and nobody sees what they receive before choosing.")]


def _tricks(ex, m, rest, depth, loc):
    count = f" ({ex.p(m['count'], loc)} of them)" if "count" in m else f" until the {words(m.get('hand'))}s are empty"
    out = [_bullet(depth, f"Play tricks{count}:")]
    lines = [f"{ex.who(m.get('leader', 0), loc, 'lead', 'leads')} the first trick; "
             "the winner of each trick leads the next."]
    plays = m.get("plays", 1)
    per = "a card" if plays == 1 else f"{ex.p(plays, loc)} cards"
    lines.append(f"Each player in turn plays {per} from their {words(m.get('hand'))} to the {words(m.get('table'))}.")
    if "follow" in m:
        lines.append(f"You must follow {words(m['follow'])} (play a card of the led card's {words(m['follow'])}) "
                     "when you can.")
    if "playable" in m:
        lines.append(f"You may only play a card {ex.ph.cond(m['playable'], loc, 'card')}, "
                     "unless no card that follows is one.")
    rank = ex.p(m.get("rank"), loc, "card").replace("its ", "")
    if m.get("trump") is not None:
        lines.append(f"Cards whose {words(m.get('follow', 'suit'))} is {ex.p(m['trump'], loc)} are trumps; "
                     f"the highest {rank} among the trumps played wins, else the highest {rank} of the led "
                     f"{words(m.get('follow', 'suit'))}.")
    else:
        lines.append(f"The highest {rank}" + (f" of the led {words(m['follow'])}" if "follow" in m else "")
                     + " wins the trick.")
    lines.append(f"The winner collects the cards into their {words(m.get('collect'))}.")
    out += [_bullet(depth + 1, line) for line in lines]
    for hook, when in (("on_play", "when a card is played"), ("on_void", "when a player cannot follow"),
                       ("on_win", "when a trick is won, the winner")):
        if m.get(hook):
            out += ex.block(when, m[hook], depth + 1, loc)
    return out


def _grid(ex, m, rest, depth, loc):
    theirs, then = asked(m)
    head = (ex.who(m.get("who"), loc, "take", "takes") + f" a space of {theirs(ex.ph.zone(m.get('zone'), loc))}"
            + (" (passing is allowed)" if m.get("pass", True) else "") + ":")
    lines = [f"The spaces are laid out in {ex.p(m.get('rows', 1), loc)} rows, column by column."]
    if "where" in m:
        lines.append(f"Only a space {ex.ph.cond(m['where'], loc, 'card')} may be taken.")
    lines.append(f"A space costs {ex.p(m.get('cost', 0), loc, 'card')}, paid from {ex.p(m.get('pay'), loc)}; "
                 "spaces you cannot afford are not offered.")
    if m.get("mark"):
        lines.append(f"The cost paid is kept on the space's {words(m['mark'])}.")
    lines.append(f"{_cap(ex.p(m.get('as', 'space'), loc))} is the space taken (none after passing).")
    out = [_bullet(depth, head)] + [_bullet(depth + 1, _cap(theirs(line))) for line in lines]
    return out + (ex.block(then, m["then"], depth + 1, loc) if m.get("then") else [])


def _pay(ex, m, rest, depth, loc):
    theirs = asked(m)[0]
    costs = [f"{theirs(ex.p(v, loc))} {words(k)}" for k, v in (m.get("costs") or {}).items()]
    head = ex.who(m.get("who"), loc, "pay", "pays") + " " + (", ".join(costs) or "nothing specific")
    if m.get("any"):
        froms = ", ".join(words(f) for f in (m.get("from") or list(m.get("costs") or {})))
        head += f", and {theirs(ex.p(m['any'], loc))} more of any of {froms}"
    if m.get("joker"):
        head += f"; {words(m['joker'])} may stand in for any unit"
    head += f"; paid units go to {_v(m['to'])}" if m.get("to") else ""
    return [_bullet(depth, head + ", one unit at a time.")]


def _attempt(ex, m, rest, depth, loc):
    (head, (theirs, then)) = ex.who(m.get("who"), loc, "make", "makes") + " an attempt", asked(m)
    steps_as = f"{then[4:]} (*{m['actor']}*)" if m.get("actor") and then[4:] else ""   # (as a branch's as:)
    target = m.get("target")
    if isinstance(target, dict):
        head += f", first naming {ex.p(target.get('as'), loc)} from {theirs(ex.p(target.get('from'), loc))}"
    out = quoted([_bullet(depth, head + ". What happens (rolled, or told by the table):")],
                 target.get("doc") if isinstance(target, dict) else None, depth)
    for name, o in (m.get("outcomes") or {}).items():
        o = o if isinstance(o, dict) else {}
        chance = o.get("chance")
        chance = "the chance left" if chance == "rest" else theirs(ex.p(chance, loc))
        cond = f", possible only if {theirs(ex.p(o['if'], loc))}" if "if" in o else ""
        out += quoted(ex.block(f"**{name}** (chance: {chance}{cond}){steps_as}", o.get("steps") or [], depth + 1, loc),
                      o.get("doc"), depth + 1)
    return out


def _if(ex, m, rest, depth, loc):
    out = ex.block(f"if {ex.p(m, loc)}", rest.get("then") or [], depth, loc)
    return out + (ex.block("otherwise", rest["else"], depth, loc) if rest.get("else") else [])


def _switch(ex, m, rest, depth, loc):
    what = ex.p(m, loc)
    out = [_bullet(depth, f"Depending on {what}:")]
    for case, body in (rest.get("cases") or {}).items():
        out += ex.block(f"if it is {ex.p(case) if not isinstance(case, str) else case}", body, depth + 1, loc)
    return out + (ex.block("otherwise", rest["default"], depth + 1, loc) if rest.get("default") else [])


def _for_each(ex, m, rest, depth, loc):
    var = m.get("as", "it")
    noun = ex.ph.noun(m.get("in"), loc)
    if var == "me":
        head = f"for {noun.each()}, as that player" if noun else f"for each of {ex.p(m.get('in'), loc)}, as that player"
    else:
        head = f"for {noun.each(f'*{var}*')}" if noun else f"for each *{var}* of {ex.p(m.get('in'), loc)}"
    return ex.block(head, m.get("do"), depth, loc + ((var,) if var != "me" else ()))


def _with_player(ex, m, rest, depth, loc):
    who = ex.p(m.get("who"), loc)
    return ex.block(f"as {who}" + ("" if ", if " in who else " (if there is one)"), m.get("do"), depth, loc)


def _counter(ex, target, loc):
    return ex.p(target, loc)


def _gain(ex, m, rest, depth, loc):
    text = f"Add {ex.p(m.get('amount', 1), loc)} to {_counter(ex, m.get('counter'), loc)}"
    text += f", taken from {ex.p(m['from'], loc)} (no more than it has)" if "from" in m else ""
    return [_bullet(depth, text + ".")]


def _lose(ex, m, rest, depth, loc):
    text = f"Take {ex.p(m.get('amount', 1), loc)} from {_counter(ex, m.get('counter'), loc)} (not below zero)"
    text += f", returned to {ex.p(m['to'], loc)}" if "to" in m else ""
    return [_bullet(depth, text + ".")]


def _transfer(ex, m, rest, depth, loc):
    return [_bullet(depth, f"Move {ex.p(m.get('amount', 1), loc)} from {ex.p(m.get('from'), loc)} to "
                           f"{ex.p(m.get('to'), loc)} (no more than there is).")]


def _set(ex, m, rest, depth, loc):
    if not isinstance(m, dict):
        raise TypeError
    flags = ex.ph.flags   # a flag set reads "yes" or "no", not 1, 0, true, false
    parts = [f"{ex.p(k, loc)} to {('yes' if v else 'no') if base_name(k) in flags and v in (0, 1) else ex.p(v, loc)}"
             for k, v in m.items()]
    return [_bullet(depth, "Set " + "; set ".join(parts) + ".")]


def _random(ex, m, rest, depth, loc):
    return [_bullet(depth, f"Set {ex.p(m.get('var'), loc)} to a random one of {ex.p(m.get('from'), loc)}.")]


def _move(ex, m, rest, depth, loc):
    src, dst = ex.ph.zone(m.get("from"), loc), ex.ph.zone(m.get("to"), loc)
    dst = f"the bottom of {dst}" if m.get("bottom") else dst
    if "cards" in m:
        cards = ex.p(m["cards"], loc)
        where = f" to {dst}" if f" in {src}" in cards else f" from {src} to {dst}"
        first = f" (the first of them only, as many as {ex.p(m['count'], loc)})" if "count" in m else ""
        return [_bullet(depth, f"Move {cards}{where}{first}.")]
    if "count" in m:
        return [_bullet(depth, f"Move the top {_cards(ex.p(m['count'], loc)).replace('a card', 'card')} of {src} to {dst}.")]
    return [_bullet(depth, f"Move all the cards of {src} to {dst}.")]


def _shuffle(ex, m, rest, depth, loc):
    return [_bullet(depth, f"Shuffle {ex.ph.zone(m, loc)}.")]


def _deal(ex, m, rest, depth, loc):
    who = ex.ph.noun(m["players"], loc) if "players" in m else None
    to = f"{who.each()}'s" if who else "each player's"
    start = f", starting with {ex.p(m['start'], loc)}" if "start" in m else ""
    return [_bullet(depth, f"Deal {_cards(ex.p(m.get('count'), loc))} from {ex.ph.zone(m.get('from'), loc)} to "
                           f"{to} {words(m.get('to'))}, one at a time{start}.")]


def _gather(ex, m, rest, depth, loc):
    froms = m.get("from")
    froms = froms if isinstance(froms, list) else [froms]
    owner = ex.ph.zones
    # "every hand", "all the tricks taken" (never "every tricks taken")
    zones = [(f"all the {words(z)}" if is_plural(words(z)) else f"every {words(z)}")
             if owner.get(z, "none") != "none" else f"the {words(z)}" for z in froms]
    listed = ", ".join(zones[:-1]) + f" and {zones[-1]}" if len(zones) > 1 else zones[0]
    return [_bullet(depth, f"Gather the cards of {listed} into {ex.ph.zone(m.get('to'), loc)}.")]


def _reset(ex, m, rest, depth, loc):
    names = m if isinstance(m, list) else [m]
    owner = ex.ph.counters
    decls = ex.rules.data.get("counters") or {}
    parts = []
    for n in names:
        kind = owner.get(n, "none")
        decl = decls.get(n)
        start = decl.get("start", 0) if isinstance(decl, dict) else decl if decl is not None else 0
        whose = f"every {kind}'s" if kind != "none" else "the"
        back = ("yes" if start else "no") if n in ex.ph.flags and start in (0, 1) else ex.p(start)
        parts.append(f"{whose} {words(n)} back to {back}")
    return [_bullet(depth, "Set " + "; set ".join(parts) + ".")]


def _end_game(ex, m, rest, depth, loc):
    return [_bullet(depth, "The game ends at once.")]


def _advance(ex, m, rest, depth, loc):
    text = f"Advance {ex.p(m.get('counter'), loc)} by {ex.p(m.get('by', 1), loc)}"
    text += f", not past {ex.p(m['max'], loc)}" if "max" in m else ""
    text += f" (the piece goes on top of any already there: {ex.p(m['stack'], loc)})" if m.get("stack") else ""
    return [_bullet(depth, text + ".")]


def _show(ex, m, rest, depth, loc):
    to = ex.p(m.get("to"), loc)
    to = f"player {to}" if to.isdigit() else to
    return [_bullet(depth, f"Show {ex.p(m.get('cards'), loc)} to {to} alone (the others do not see them).")]


_KINDS = {"phase": _phase, "repeat": _repeat, "while": _while, "until": _until, "turns": _turns,
          "choose": _choose, "branch": _branch, "pick": _pick, "pass": _pass, "tricks": _tricks, "grid": _grid,
          "pay": _pay, "attempt": _attempt, "if": _if, "switch": _switch, "for_each": _for_each,
          "with_player": _with_player, "gain": _gain, "lose": _lose, "transfer": _transfer, "set": _set,
          "random": _random, "move": _move, "shuffle": _shuffle, "deal": _deal, "gather": _gather,
          "reset": _reset, "end_game": _end_game, "advance": _advance, "show": _show}
