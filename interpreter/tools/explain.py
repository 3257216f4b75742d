"""``rulebook explain``: the rules of a compiled ruleset, summarised in Markdown for people.

Everything comes from the ruleset's merged data (``rules.data``) and its card table, so the
text always says what the engine runs. Sections: title and description, players,
components, zones, counters, variables, parameters (a table per player count where they
vary), definitions, setup, the flow as a nested list (one line per step), named effects,
the end of the game, scoring and tie-breaks, variants. The output is deterministic.

Known step and effect kinds have a one-line summary each; a kind without one (added later)
is shown generically as ``kind: key=value, ...`` so nothing is ever silently left out.
"""
from __future__ import annotations

import re

OWNER = {"none": "shared", "player": "each player", "team": "each team"}
SEEN_BY = {"all": "everyone", "owner": "its owner", "none": "nobody"}
COMPOUND = ("if", "switch", "for_each", "with_player")


def explain(rules) -> str:
    d = rules.data
    out: list[str] = []
    title = rules.title + (f" (variant: {rules.variant})" if rules.variant else "")
    out += [f"# {title}", ""]
    if rules.description:
        out += [_prose(rules.description), ""]
    out += [f"- Ruleset: `{rules.name}`" + (f", variant `{rules.variant}`" if rules.variant else ""),
            f"- Players: {_players(rules)}"]
    if d.get("teams"):
        out.append(f"- Teams: {_teams(d['teams'])}")
    out.append("")
    for section in (_components, _zones, _counters, _vars, _params, _defines, _setup, _flow, _effects,
                    _end, _scoring, _variants):
        lines = section(rules, d)
        if lines:
            out += lines + [""]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------------- small helpers
def _prose(text) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()


def _players(rules) -> str:
    return rules.players_text()


def _teams(decl) -> str:
    table = decl.get("by_players", decl) if isinstance(decl, dict) else {"any": decl}
    return "; ".join(f"{n} players: " + ", ".join("+".join(str(p) for p in team) for team in teams)
                     for n, teams in table.items())


def _v(value) -> str:
    """A value or expression as inline text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(_v(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_v(x)}" for k, x in value.items()) + "}"
    return _prose(value) if isinstance(value, str) else str(value)


def _table(head: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


# ---------------------------------------------------------------------- declarations
def _components(rules, d):
    comps = d.get("components") or {}
    if not comps:
        return []
    out = ["## Components", ""]
    cards = rules.cards
    for name, spec in comps.items():
        ids = cards.by_component.get(name, [])
        attrs = {}
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


def _zones(rules, d):
    zones = d.get("zones") or {}
    if not zones:
        return []
    rows = []
    for name, decl in zones.items():
        decl = decl if isinstance(decl, dict) else {}
        notes = []
        if decl.get("start"):
            notes.append("starts with " + ", ".join(str(s) for s in decl["start"]))
        if decl.get("sorted"):
            notes.append("kept sorted")
        rows.append([name, OWNER.get(decl.get("owner", "none"), decl.get("owner")),
                     SEEN_BY.get(decl.get("visible", "all"), decl.get("visible")), "; ".join(notes)])
    return ["## Zones", ""] + _table(["zone", "owner", "seen by", "notes"], rows)


def _counters(rules, d):
    counters = d.get("counters") or {}
    if not counters:
        return []
    decls = {name: decl if isinstance(decl, dict) else {"start": decl} for name, decl in counters.items()}
    rows = [[name + (f" (one per key: {_v(decl['keys'])})" if "keys" in decl else ""),
             OWNER.get(decl.get("owner", "none"), decl.get("owner")),
             _v(decl.get("start", 0)), SEEN_BY.get(decl.get("visible", "all"), "")]
            for name, decl in decls.items()]   # (a bare value is the start: `tricks: 0`)
    return ["## Counters", ""] + _table(["counter", "owner", "start", "seen by"], rows)


def _vars(rules, d):
    vars_ = d.get("vars") or {}
    if not vars_:
        return []
    out = ["## Variables", ""]
    for name, decl in vars_.items():
        if isinstance(decl, dict):
            typ = decl.get("type", "")
            start = f", starts at `{_v(decl['start'])}`" if "start" in decl else ""
            out.append(f"- `{name}` ({typ}){start}" if typ else f"- `{name}`{start}")
        else:
            out.append(f"- `{name}` ({decl})")
    return out


def _params(rules, d):
    params = d.get("params") or {}
    if not params:
        return []
    fixed, varying = [], {}
    for name, spec in params.items():
        if isinstance(spec, dict) and "by_players" in spec:
            varying[name] = spec
        elif isinstance(spec, dict):
            value = spec["default"] if "default" in spec else spec.get("value")
            allowed = []
            if spec.get("type"):
                allowed.append(str(spec["type"]))
            if "min" in spec or "max" in spec:
                allowed.append(f"{_v(spec.get('min', ''))}..{_v(spec.get('max', ''))}")
            if "choices" in spec:
                allowed.append(" / ".join(_v(c) for c in spec["choices"]))
            fixed.append([name, _v(value), ", ".join(allowed), str(spec.get("doc", ""))])
        else:
            fixed.append([name, _v(spec), "", ""])
    out = ["## Parameters", "", "Change one for a game with `--set NAME=VALUE`.", ""]
    if fixed:
        out += _table(["parameter", "value", "allowed", "meaning"], fixed)
    if varying:
        counts = sorted({int(k) for s in varying.values() for k in (s["by_players"] or {})
                         if str(k).isdigit() and rules.min_players <= int(k) <= rules.max_players})
        has_default = any("default" in s for s in varying.values())
        head = ["parameter"] + [f"{n} players" for n in counts] + (["otherwise"] if has_default else [])
        rows = []
        for name, spec in varying.items():
            table = {str(k): v for k, v in (spec["by_players"] or {}).items()}
            row = [name] + [_v(table[str(n)]) if str(n) in table else "—" for n in counts]
            if has_default:
                row.append(_v(spec["default"]) if "default" in spec else "—")
            rows.append(row)
        if fixed:
            out.append("")
        out += ["By player count:", ""] + _table(head, rows)
    return out


def _defines(rules, d):
    defines = d.get("define") or {}
    if not defines:
        return []
    return ["## Definitions", ""] + [f"- `{k}` = `{_v(v)}`" for k, v in defines.items()]


def _setup(rules, d):
    setup = d.get("setup") or []
    if not setup:
        return []
    return ["## Setup", ""] + _step_list(setup, 0)


# ---------------------------------------------------------------------- the flow
def _flow(rules, d):
    flow = d.get("flow") or []
    if not flow:
        return []
    return ["## Flow", ""] + _step_list(flow, 0)


def _step_list(items, depth) -> list[str]:
    out = []
    for item in items or []:
        out += _step(item, depth)
    return out


def _bullet(depth, text) -> str:
    return "  " * depth + "- " + text


def _kind(item):
    """The kind key of a step or effect item: its first key that is not a modifier."""
    if isinstance(item, str):
        return item, None
    if not isinstance(item, dict) or not item:
        return None, item
    for key in item:
        if key not in ("steps", "as", "then", "else", "cases", "do", "description"):
            return key, item[key]
    key = next(iter(item))
    return key, item[key]


def _step(item, depth) -> list[str]:
    kind, main = _kind(item)
    if kind is None:
        return [_bullet(depth, _v(item))]
    rest = item if isinstance(item, dict) else {}
    if kind == "phase":
        return [_bullet(depth, f"Phase **{main}**:")] + _step_list(rest.get("steps"), depth + 1)
    if kind == "repeat":
        counter = f" (counting {rest['as']} = 1, 2, ...)" if rest.get("as") else ""
        return [_bullet(depth, f"Repeat {_v(main)} times{counter}:")] + _step_list(rest.get("steps"), depth + 1)
    if kind in ("while", "until"):
        return [_bullet(depth, f"{kind.capitalize()} {_v(main)}:")] + _step_list(rest.get("steps"), depth + 1)
    if kind == "turns":
        spec = main if isinstance(main, dict) else {}
        body = spec.get("steps", rest.get("steps"))
        return [_bullet(depth, _turns(spec) + ":")] + _step_list(body, depth + 1)
    if kind == "for_each" and isinstance(main, dict):
        return ([_bullet(depth, f"For each {main.get('as', 'it')} in {_v(main.get('in'))}:")]
                + _step_list(main.get("do"), depth + 1))
    if kind == "with_player" and isinstance(main, dict):
        return ([_bullet(depth, f"As {_v(main.get('who'))}:")] + _step_list(main.get("do"), depth + 1))
    if kind == "if":
        out = [_bullet(depth, f"If {_v(main)}:")] + _step_list(rest.get("then"), depth + 1)
        if rest.get("else"):
            out += [_bullet(depth, "Otherwise:")] + _step_list(rest.get("else"), depth + 1)
        return out
    if kind == "switch":
        out = [_bullet(depth, f"Depending on {_v(main)}:")]
        for case, body in (rest.get("cases") or {}).items():
            out.append(_bullet(depth + 1, f"{_v(case)}: {_effects_inline(body)}"))
        return out
    summary = STEP_SUMMARY.get(kind)
    text = summary(main, rest) if summary else _effect(item)
    out = [_bullet(depth, text)]
    if isinstance(rest.get("steps"), list) and kind not in STEP_SUMMARY:
        out += _step_list(rest["steps"], depth + 1)
    return out


def _turns(spec) -> str:
    parts = ["Each player takes a turn"]
    if "players" in spec:
        parts.append(f"(players {_v(spec['players'])})")
    if "from" in spec:
        parts.append(f"starting with {_v(spec['from'])}")
    parts.append(spec.get("order", "clockwise"))
    if "sort_by" in spec:
        parts.append(f"ordered by {_v(spec['sort_by'])}, highest first")
    if "rounds" in spec:
        parts.append(f"for {_v(spec['rounds'])} rounds")
    if "until" in spec:
        parts.append(f"until {_v(spec['until'])}")
    if "skip" in spec:
        parts.append(f"skipping players where {_v(spec['skip'])}")
    parts.append(f"(as {spec.get('as', 'turn_player')})")
    return " ".join(parts)


def _choose(m, rest):
    m = m if isinstance(m, dict) else {}
    if m.get("simultaneous") is True:
        text = (f"choose at once, in secret: each of {_v(m.get('who', 'players'))} picks a value for "
                f"{m.get('as', 'choice')} from {_v(m.get('options'))}; revealed together")
    else:
        text = f"choose: {_v(m.get('who', 'me'))} picks {m.get('as', 'choice')} from {_v(m.get('options'))}"
    if m.get("if_none"):
        text += f" (with no option: {m['if_none']})"
    if m.get("then"):
        text += f"; then{' for each' if m.get('simultaneous') is True else ''}: {_effects_inline(m['then'])}"
    return text


def _pass(m, rest):
    m = m if isinstance(m, dict) else {}
    into = f" (into their {m['into']})" if m.get("into") and m.get("into") != m.get("from") else ""
    who = f"each of {_v(m['players'])}" if "players" in m else "each player"
    return (f"pass: {who} picks {_v(m.get('count', 1))} card(s) from their {m.get('from')} for "
            f"{_v(m.get('to'))}{into}; all are delivered together, unseen until then")


def _tricks(m, rest):
    m = m if isinstance(m, dict) else {}
    parts = []
    plays = m.get("plays", 1)
    parts.append(f"led by {_v(m.get('leader'))}" + ("" if plays == 1 else f", {_v(plays)} plays each per trick"))
    if "count" in m:
        parts.append(f"{_v(m['count'])} tricks")
    else:
        parts.append(f"until the {m.get('hand')} zones are empty")
    if "follow" in m:
        parts.append(f"follow {_v(m['follow'])}")
    if "trump" in m:
        parts.append(f"trump {_v(m['trump'])}")
    parts.append(f"highest {_v(m.get('rank'))} wins")
    parts.append(f"played to {m.get('table')}, collect into {m.get('collect')}")
    text = "tricks: " + ", ".join(parts)
    for hook, name in (("on_play", "on play"), ("on_void", "on void"), ("on_win", "on win")):
        if m.get(hook):
            text += f"; {name}: {_effects_inline(m[hook])}"
    return text


# ---------------------------------------------------------------------- effects in one line
def _effects_inline(items) -> str:
    if not isinstance(items, list):
        items = [items]
    parts = [_effect(i) for i in items]
    if len(parts) > 1:   # bracket compound effects so it is clear where they end
        parts = [f"({p})" if _kind(i)[0] in COMPOUND else p for p, i in zip(parts, items)]
    return ", ".join(parts) or "nothing"


def _effect(item) -> str:
    kind, m = _kind(item)
    rest = item if isinstance(item, dict) else {}
    s = m if isinstance(m, dict) else {}
    if kind is None:
        return _v(item)
    if kind == "gain":
        head = (f"gain {_v(s.get('counter'))}" if s.get("amount", 1) == 1
                else f"add {_v(s['amount'])} to {_v(s.get('counter'))}")
        return head + (f" (taken from {_v(s['from'])})" if "from" in s else "")
    if kind == "lose":
        head = (f"lose {_v(s.get('counter'))}" if s.get("amount", 1) == 1
                else f"remove {_v(s['amount'])} from {_v(s.get('counter'))}")
        return head + (f" (returned to {_v(s['to'])})" if "to" in s else "")
    if kind == "transfer":
        amount = f"{_v(s['amount'])} " if "amount" in s else ""
        return f"transfer {amount}from {_v(s.get('from'))} to {_v(s.get('to'))}"
    if kind == "set":
        return "set " + ", ".join(f"{k} = {_v(v)}" for k, v in s.items()) if s else f"set {_v(m)}"
    if kind == "random":
        return f"{s.get('var')} = a random one of {_v(s.get('from'))}"
    if kind == "move":
        what = (_v(s["cards"]) if "cards" in s else f"{_v(s['count'])} card(s)" if "count" in s else "all cards")
        return f"move {what} from {_v(s.get('from'))} to {_v(s.get('to'))}"
    if kind == "shuffle":
        return f"shuffle {_v(m)}"
    if kind == "deal":
        return f"deal {_v(s.get('count'))} card(s) from {_v(s.get('from'))} to each {_v(s.get('to'))}"
    if kind == "gather":
        froms = s.get("from")
        froms = ", ".join(str(f) for f in froms) if isinstance(froms, list) else _v(froms)
        return f"gather all cards of {froms} into {_v(s.get('to'))}"
    if kind == "reset":
        return "reset " + (", ".join(str(x) for x in m) if isinstance(m, list) else _v(m))
    if kind == "end_game":
        return "end the game"
    if kind == "if":
        text = f"if {_v(m)}: {_effects_inline(rest.get('then') or [])}"
        if rest.get("else"):
            text += f"; otherwise: {_effects_inline(rest['else'])}"
        return text
    if kind == "switch":
        cases = "; ".join(f"{_v(c)} → {_effects_inline(b)}" for c, b in (rest.get("cases") or {}).items())
        return f"depending on {_v(m)}: {cases}"
    if kind == "for_each":
        return f"for each {s.get('as', 'it')} in {_v(s.get('in'))}: {_effects_inline(s.get('do') or [])}"
    if kind == "with_player":
        return f"as {_v(s.get('who'))}: {_effects_inline(s.get('do') or [])}"
    summary = STEP_SUMMARY.get(kind)
    if summary:
        return summary(m, rest)
    # a named effect or a kind without a summary: name(arguments)
    if m is None or (isinstance(m, dict) and not m):
        return str(kind)
    if isinstance(m, dict):
        return f"{kind}(" + ", ".join(f"{k}: {_v(v)}" for k, v in m.items()) + ")"
    return f"{kind}({_v(m)})"


STEP_SUMMARY = {"choose": _choose, "pass": _pass, "tricks": _tricks}


# ---------------------------------------------------------------------- the rest
def _effects(rules, d):
    effects = d.get("effects") or {}
    if not effects:
        return []
    out = ["## Effects", ""]
    for name, spec in effects.items():
        if isinstance(spec, dict) and "do" in spec:
            params = spec.get("params") or {}
            sig = f"({', '.join(f'{k}: {v}' for k, v in params.items())})" if params else ""
            out.append(f"- **{name}**{sig}:")
            out += _step_list(spec["do"], 1)
        else:
            out.append(f"- **{name}**:")
            out += _step_list(spec if isinstance(spec, list) else [spec], 1)
    return out


def _end(rules, d):
    out = ["## End of the game", "", "- The game ends when the flow is over."]
    for cond in d.get("end_when") or []:
        out.append(f"- It also ends as soon as `{_v(cond)}`.")
    steps = (d.get("limits") or {}).get("steps")
    if steps:
        out.append(f"- Step budget: {steps} engine steps.")
    return out


def _scoring(rules, d):
    scoring = d.get("scoring") or {}
    if not scoring:
        return []
    out = ["## Scoring", ""]
    cats = scoring.get("categories") or {}
    if cats:
        out += _table(["category", "points"], [[k, f"`{_v(v)}`"] for k, v in cats.items()]) + [""]
    best = "lowest" if scoring.get("lowest_wins") else "highest"
    out.append(f"- The {best} total wins.")
    if scoring.get("eligible"):
        out.append(f"- Only players where `{_v(scoring['eligible'])}` may win.")
    tiebreak = scoring.get("tiebreak") or []
    if tiebreak:
        out.append("- Ties are broken by " + ", then ".join(f"`{_v(t)}`" for t in tiebreak)
                   + f" ({best} first); players still tied share the victory.")
    else:
        out.append("- Tied players share the victory.")
    return out


def _variants(rules, d):
    variants = d.get("variants") or {}
    if not variants:
        return []
    out = ["## Variants", ""]
    for name, spec in variants.items():
        desc = _prose((spec or {}).get("description", "")) if isinstance(spec, dict) else ""
        applied = " (applied here)" if rules.variant == name else ""
        out.append(f"- **{name}**{applied}" + (f": {desc}" if desc else ""))
    return out
