"""``rulebook explain``: the rules of a compiled ruleset, in plain English (Markdown).

Everything comes from the ruleset's merged data (``rules.data``), its card table and names,
and the YAML source's comments, so the text always says what the engine runs. Sections:
title and description, players, components, zones, counters, variables, parameters (their
comments or ``doc:`` as the meaning; a table per player count where they vary), requirements,
definitions, setup, the flow, named effects, triggers, the end of the game, scoring and
tie-breaks, variants. The output is deterministic.

Steps, effects and triggers read as sentences (sentences.py), their expressions as phrases
(phrases.py); what has no words reads as its data in backticks, so nothing is left out.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from ..engine.params import read_entry
from ..errors import LINE_BREAK, RulebookError
from ..loading.variants import load_data
from ..play.display.words import words_of
from .nouns import TITLES, words
from .sentences import Sentences

OWNER = {"none": "shared", "player": "each player", "team": "each team", "card": "each card"}
SEEN_BY = {"all": "everyone", "owner": "its owner", "none": "nobody"}


def explain(rules, strict: bool = False) -> str:
    """The rules in Markdown. ``strict``: a step or effect of an unexpected shape raises instead
    of being shown as its data (the tests ask it of the bundled rulesets)."""
    token = TITLES.set(words_of(rules).titles)   # zones, counters and variables read as their titles
    try:
        return _explained(rules, strict)
    finally:
        TITLES.reset(token)


def _explained(rules, strict: bool) -> str:
    d = rules.data
    ex = Sentences(rules, strict)
    ex.comments = _comments(rules)
    out: list[str] = []
    title = rules.title + (f" (variant: {rules.variant})" if rules.variant else "")
    out += [f"# {title}", ""]
    if rules.description:
        out += [_prose(rules.description), ""]
    out += [f"- Ruleset: `{rules.name}`" + (f", variant `{rules.variant}`" if rules.variant else ""),
            f"- Players: {rules.players_text()}"]
    if d.get("teams"):
        out.append(f"- Teams: {_teams(d['teams'])}")
    out.append("")
    for key, heading, body in SECTIONS:
        value = d if key is None else d.get(key)
        if value:   # (a section the ruleset leaves out or leaves empty is not shown)
            out += [f"## {heading}", "", *body(ex, rules, value), ""]
    return _wrapped("\n".join(out).rstrip()) + "\n"


# ---------------------------------------------------------------------- small helpers
def _prose(text) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def _teams(decl) -> str:
    table = decl.get("by_players", decl) if isinstance(decl, dict) else {"any": decl}
    return "; ".join(f"{n} players: " + ", ".join("+".join(str(p) for p in team) for team in teams)
                     for n, teams in table.items())


def _v(value) -> str:
    """A value as inline text (none as the language writes it, not Python's None)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_v(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_v(x)}" for k, x in value.items()) + "}"
    return _prose(value) if isinstance(value, str) else str(value)


def _table(head: list[str], rows: list[list]) -> list[str]:
    """A Markdown table; a row too long to read on one line keeps its longest cells below the
    table as numbered notes ("see note 1")."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    notes: list[str] = []
    for row in rows:
        cells = [str(c).replace("|", "\\|") for c in row]
        while len(" | ".join(cells)) > ROW_WIDTH:
            i = max(range(len(cells)), key=lambda k: len(cells[k]))
            notes.append(f"{len(notes) + 1}. {head[i]} of {cells[0]}: {str(row[i])}")
            cells[i] = f"see note {len(notes)}"
        out.append("| " + " | ".join(cells) + " |")
    return out + ([""] + notes if notes else [])


ROW_WIDTH = 160    # a table row longer than this moves its longest cells to notes
WIDTH = 100        # prose and list items are wrapped to this width (Markdown joins the lines)
LONGEST = 200      # a line longer than this is wrapped


def _wrapped(text: str) -> str:
    """Every line of prose or of a list item longer than LONGEST wrapped at WIDTH, a list item's
    lines indented under its text; tables, headings and code stay as they are."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        if fenced or len(line) <= LONGEST or line.startswith(("|", "#")):
            out.append(line)
            continue
        found = re.match(r"^\s*(?:[-*]|\d+\.)\s+", line)
        marker = found.group(0) if found else ""
        out += textwrap.wrap(line[len(marker):], WIDTH, initial_indent=marker, subsequent_indent=" " * len(marker),
                             break_long_words=False, break_on_hyphens=False)
    return "\n".join(out)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].isalpha() else text


def _bullet(depth, text) -> str:
    return "  " * depth + "- " + text


def _comments(rules) -> dict:
    """The comment of each top-level declaration (``("params", NAME)`` -> text): the comment
    on the key's line, else the comment lines just above it. Empty when the source is gone."""
    try:
        smap = load_data(rules.path, rules.variant).smap
    except (RulebookError, OSError, TypeError, ValueError):
        return {}
    out, files = {}, {}
    for section in ("params", "define", "zones", "counters", "vars"):
        for name in (rules.data.get(section) or {}):
            loc = smap.key_loc((section, name))
            if loc is None:
                continue
            if loc.path not in files:
                try:
                    files[loc.path] = LINE_BREAK.split(Path(loc.path).read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    files[loc.path] = []
            text = _comment_at(files[loc.path], loc.line, loc.col)
            if text:
                out[(section, name)] = text
    return out


def _comment_at(lines, line: int, col: int) -> str:
    if not 1 <= line <= len(lines):
        return ""
    trailing = _trailing(lines[line - 1][col - 1:])
    if trailing:
        return trailing
    above: list[str] = []
    k = line - 2
    while k >= 0 and lines[k].strip().startswith("#") and lines[k].lstrip().startswith("#"):
        if len(lines[k]) - len(lines[k].lstrip()) != col - 1:
            break
        above.insert(0, lines[k].strip().lstrip("#").strip())
        k -= 1
    return _prose(" ".join(above))


def _trailing(text: str) -> str:
    """The comment at the end of a line of YAML (a ``#`` after a space, outside quotes)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"" and (i == 0 or not text[i - 1].isalnum()):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return _prose(text[i + 1:])
    return ""


# ---------------------------------------------------------------------- declarations
def _components(ex, rules, comps):
    out = []
    cards = rules.cards
    for name, spec in comps.items():
        ids = cards.by_component.get(name, [])
        attrs: dict[str, list] = {}
        for i in ids:
            for k, v in cards.rows[i].items():
                attrs.setdefault(k, []).append(v)
        parts = [f"{k}: {_values(vs)}" for k, vs in attrs.items()]
        line = f"- **{name}**: {len(ids)} card{'s' if len(ids) != 1 else ''}"
        if parts:
            line += "; " + "; ".join(parts)
        if isinstance(spec, dict) and spec.get("label"):
            line += f"; labelled `{spec['label']}`"
        out.append(line)
    return out


def _values(vs) -> str:
    distinct = list({_v(v): v for v in vs}.values())   # by their text: lists are values too
    ints = [v for v in distinct if isinstance(v, int) and not isinstance(v, bool)]
    if len(ints) == len(distinct) and len(ints) > 2 and max(ints) - min(ints) + 1 == len(ints):
        return f"{min(ints)} to {max(ints)}"
    return ", ".join(_v(v) for v in distinct)


def _note(ex, section, name, decl) -> str:
    doc = decl.get("doc") if isinstance(decl, dict) else None
    return _prose(doc) if isinstance(doc, str) and doc.strip() else ex.comments.get((section, name), "")


def _named(name, decl) -> str:
    """A declaration's name in a table: its title, with the name the rules use after it."""
    title = decl.get("title") if isinstance(decl, dict) else None
    return f"{title} (`{name}`)" if isinstance(title, str) and title.strip() and title != str(name).replace("_", " ") else str(name)


def _zones(ex, rules, zones):
    rows = []
    for name, decl in zones.items():
        decl = decl if isinstance(decl, dict) else {}
        notes = []
        if decl.get("start"):
            notes.append("starts with " + ", ".join(str(s) for s in decl["start"]))
        if decl.get("sorted"):
            notes.append("kept sorted")
        if decl.get("max") is not None:   # (a number, or an expression of the parameters: in words)
            cap = decl["max"]
            notes.append(f"holds at most {cap if type(cap) is int else ex.ph.phrase(str(cap))} "
                         f"card{'' if cap == 1 else 's'}{'' if decl.get('owner', 'none') == 'none' else ' each'}")
        if _note(ex, "zones", name, decl):
            notes.append(_note(ex, "zones", name, decl))
        rows.append([_named(name, decl), OWNER.get(decl.get("owner", "none"), decl.get("owner")),
                     SEEN_BY.get(decl.get("visible", "all"), decl.get("visible")), "; ".join(notes)])
    return _table(["zone", "owner", "seen by", "notes"], rows)


def _counters(ex, rules, counters):
    decls = {name: decl if isinstance(decl, dict) else {"start": decl} for name, decl in counters.items()}
    # (a family's keys among its notes: a long list of keys in the name's cell would be moved to
    # a note, and the row lose its name)
    rows = [[_named(name, decl), OWNER.get(decl.get("owner", "none"), decl.get("owner")),
             _start(ex, name, decl.get("start", 0)), SEEN_BY.get(decl.get("visible", "all"), ""),
             "; ".join(x for x in (f"one per key: {_v(decl['keys'])}" if "keys" in decl else "",
                                   _note(ex, "counters", name, decl)) if x)]
            for name, decl in decls.items()]   # (a bare value is the start: `tricks: 3`)
    return _table(["counter", "owner", "start", "seen by", "notes"], rows)


def _start(ex, name, start) -> str:
    """A counter's start; a flag's (only ever 0 or 1) as yes or no, saying it is one."""
    if name in ex.ph.flags and start in (0, 1) and not isinstance(start, bool):
        return f"{'yes' if start else 'no'} (a flag: yes or no)"
    return _v(start)


def _vars(ex, rules, vars_):
    out = []
    for name, decl in vars_.items():
        note = _note(ex, "vars", name, decl)
        note = f": {note}" if note else ""
        if isinstance(decl, dict):
            typ = decl.get("type", "")
            start = f", starts at `{_v(decl['start'])}`" if "start" in decl else ""
            title = f"{decl['title']}: " if isinstance(decl.get("title"), str) and decl["title"].strip() else ""
            out.append((f"- {title}`{name}` ({typ}){start}" if typ else f"- {title}`{name}`{start}") + note)
        else:
            out.append(f"- `{name}` ({decl}){note}")
    return out


def _params(ex, rules, params):
    fixed, varying = [], {}
    for name, spec in params.items():
        meaning = _note(ex, "params", name, spec)
        if isinstance(spec, dict) and "by_players" in spec:
            varying[name] = (spec, meaning)
        elif isinstance(spec, dict):
            value = spec["default"] if "default" in spec else spec.get("value")
            fixed.append([name, _v(value), _allowed(spec), meaning])
        else:
            fixed.append([name, _v(spec), "", meaning])
    out = ["Change one for a game with `--set NAME=VALUE`.", ""]
    if fixed:
        out += _table(["parameter", "value", "allowed", "meaning"], fixed)
    if varying:
        playable = set(rules.player_counts)   # (a count teams: leaves out is no game's: engine/params.py)
        counts = sorted({int(k) for s, _ in varying.values() for k in (s["by_players"] or {})
                         if read_entry(k) and int(k) in playable})
        has_default = any("default" in s for s, _ in varying.values())
        bounded = any(_allowed(s) for s, _ in varying.values())   # (a column only when one is declared)
        head = ["parameter"] + [f"{n} players" for n in counts] + (["otherwise"] if has_default else []) + \
            (["allowed"] if bounded else []) + ["meaning"]
        rows = []
        for name, (spec, meaning) in varying.items():
            table = {str(k): v for k, v in (spec["by_players"] or {}).items()}
            row = [name] + [_v(table[str(n)]) if str(n) in table else "—" for n in counts]
            if has_default:
                row.append(_v(spec["default"]) if "default" in spec else "—")
            rows.append(row + ([_allowed(spec)] if bounded else []) + [meaning])
        if fixed:
            out.append("")
        out += ["By player count:", ""] + _table(head, rows)
    return out


def _allowed(spec: dict) -> str:
    """What a declared parameter may be given (its type, min..max, choices, max_length): empty if undeclared."""
    allowed = []
    if spec.get("type"):
        allowed.append(str(spec["type"]))
    if "min" in spec or "max" in spec:
        allowed.append(f"{_v(spec.get('min', ''))}..{_v(spec.get('max', ''))}")
    if "choices" in spec:
        allowed.append(" / ".join(_v(c) for c in spec["choices"]))
    if "max_length" in spec:
        allowed.append(f"at most {_v(spec['max_length'])} characters")
    return ", ".join(allowed)


def _defines(ex, rules, defines):
    out = []
    for k, v in defines.items():
        note = ex.comments.get(("define", k))
        out.append(f"- *{words(k)}*: {ex.ph.phrase(v)}" + (f" ({note})" if note else ""))
    return out


def _steps(ex, rules, steps):
    return ex.items(steps, 0)


def _effects(ex, rules, effects):
    out = ["Named effects, done where the rules say *Do* their name.", ""]
    for name, spec in effects.items():
        if isinstance(spec, dict) and "do" in spec:
            params = spec.get("params") or {}
            sig = f" ({', '.join(f'*{k}*: a {v}' for k, v in params.items())})" if params else ""
            out.append(f"- **{name}**{sig}:")
            out += ex.items(spec["do"], 1, tuple(params))
        else:
            out.append(f"- **{name}**:")
            out += ex.items(spec if isinstance(spec, list) else [spec], 1)
    return out


def _triggers(ex, rules, triggers):
    out = []
    for name, t in triggers.items():
        t = t if isinstance(t, dict) else {}
        if "on_enter" in t:
            zones = t["on_enter"] if isinstance(t["on_enter"], list) else [t["on_enter"]]
            owner = {"none": "the", "player": "a player's", "team": "a team's", "card": "a card's"}
            head = "whenever a card enters " + " or ".join(f"{owner.get(ex.ph.zones.get(z), 'the')} {words(z)}"
                                                           for z in zones)
            if "if" in t:
                head += f", if {ex.ph.phrase(t['if'])}"
            head += " (you = the zone's owner)" if any(ex.ph.zones.get(z) != "none" for z in zones) else ""
        else:
            head = f"as soon as {ex.ph.phrase(t.get('when'))}"
            head += ", checked for each player (as that player)" if t.get("per_player") else ""
        out.append(f"- **{name}**: {head}:")
        out += ex.items(t.get("do") or [], 1)
    return out


def _end(ex, rules, d):
    out = ["- The game ends when the flow is over."]
    for cond in d.get("end_when") or []:
        out.append(f"- It also ends as soon as {ex.ph.phrase(cond)}.")
    steps = (d.get("limits") or {}).get("steps")
    if steps:
        out.append(f"- Step budget: {steps} engine steps.")
    return out


def _scoring(ex, rules, scoring):
    out = []
    cats = scoring.get("categories") or {}
    if cats:
        out += ["Each player scores (you = that player):", ""]
        out += _table(["category", "points"], [[k, ex.ph.phrase(v)] for k, v in cats.items()]) + [""]
    best = "lowest" if scoring.get("lowest_wins") else "highest"
    out.append(f"- The {best} total wins.")
    if scoring.get("eligible"):
        out.append(f"- Only a player for whom {ex.ph.phrase(scoring['eligible'])} may win.")
    tiebreak = scoring.get("tiebreak") or []
    if tiebreak:
        out.append("- Ties are broken by " + ", then ".join(ex.ph.phrase(t) for t in tiebreak)
                   + f" ({best} first); players still tied share the victory.")
    else:
        out.append("- Tied players share the victory.")
    return out


def _requires(ex, rules, requires):
    """Each requirement in words, with what a game that fails it is told (its placeholders as
    written, in code: what fills them in is said when a game fails it)."""
    compiled = getattr(rules, "requires", ())
    said = [_said(req.pieces) for req in compiled] if len(compiled) == len(requires) else [None] * len(requires)
    return [f"- The game requires that {ex.ph.phrase(r['if'])}; a game that does not is refused: "
            f"{_prose(told if told is not None else r['message'])}." for r, told in zip(requires, said)]


def _said(pieces) -> str:
    return "".join(p if isinstance(p, str) else f"`{{{p.text}}}`" for p in pieces)


def _variants(ex, rules, variants):
    out = []
    for name, spec in variants.items():
        desc = _prose((spec or {}).get("description", "")) if isinstance(spec, dict) else ""
        applied = " (applied here)" if rules.variant == name else ""
        out.append(f"- **{name}**{applied}" + (f": {desc}" if desc else ""))
    return out


# The sections, in order: the ruleset's key (None: the whole ruleset), the heading, and what writes
# the body from the key's value. A section whose key is absent or empty is left out.
SECTIONS = (("components", "Components", _components), ("zones", "Zones", _zones),
            ("counters", "Counters", _counters), ("vars", "Variables", _vars), ("params", "Parameters", _params),
            ("requires", "Requirements", _requires),
            ("define", "Definitions", _defines), ("setup", "Setup", _steps), ("flow", "Flow", _steps),
            ("effects", "Effects", _effects), ("triggers", "Triggers", _triggers), (None, "End of the game", _end),
            ("scoring", "Scoring", _scoring), ("variants", "Variants", _variants))
