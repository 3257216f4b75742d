"""The table as text, for a person playing at a terminal (``--agents human``).

It draws the same data as the web page (play/display/table.py), compactly: one line per zone that
holds something (repeated cards counted: ``light ×11``), a seat's counters on one line, a grid
market as a grid with each space's price, a track as its space out of the last, the trick in
progress; then what is asked (play/display/ask.py) and the numbered options with their notes
(a cost); ``read_answer`` reads the person's answer. With colour (rich, on a
terminal that shows it) cards take their colour; piped or redirected, plain text.
"""
from __future__ import annotations

from ...errors import digits
from .narrate import alike


def plain(label: str, color) -> str:
    return label


def _cards(item, paint=plain) -> str:
    if item.get("hidden"):
        n = item["count"]
        return f"{n} hidden card{'s' if n != 1 else ''}"
    if "groups" in item:
        return " ".join(paint(g["label"], g["color"]) + (f" ×{g['count']}" if g["count"] > 1 else "")
                        for g in item["groups"])
    cards = item.get("cards") or []
    counts = alike([c["label"] for c in cards], 12)
    if counts:   # a supply: counts per label
        colors = {c["label"]: c["color"] for c in cards}
        return " ".join(paint(k, colors[k]) + (f" ×{n}" if n > 1 else "") for k, n in counts.items())
    return " ".join(paint(c["label"], c["color"]) for c in cards)


def _shown(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(["none" if v is None else str(v) for v in value]) or "-"
    return str(value)


def _columns(entries: list[str], width: int = 100) -> list[str]:
    """Many short options side by side, column by column; long ones one per line."""
    col = max(len(e) for e in entries) + 3
    across = max(1, width // col)
    if len(entries) <= 8 or across == 1:
        return ["  " + e for e in entries]
    down = -(-len(entries) // across)
    return ["  " + "".join(entries[r + c * down].ljust(col) for c in range(across) if r + c * down < len(entries)).rstrip()
            for r in range(down)]


def _empty(item) -> bool:
    return item["kind"] == "zone" and item["count"] == 0


def _title(item) -> str:
    return item.get("title") or item["name"]


def _value(item) -> str:
    if item.get("hidden"):
        return f"{_title(item)} ?"
    if isinstance(item.get("track"), int) and isinstance(item["value"], int):
        return f"{_title(item)} {item['value']}/{item['track']}"
    return f"{_title(item)} {item.get('text', item['value'])}"


def _grid(item) -> list[str]:
    """A grid market: a header of columns, a row per grid row, each space "label price"."""
    cells = [[_cell(c, item.get("pay")) for c in row] for row in item["cells"]]
    width = max([len(c) for row in cells for c in row] + [4])
    head = "      " + " ".join(f"c{j + 1}".ljust(width) for j in range(item["cols"]))
    rows = [f"   r{i + 1} " + " ".join(c.ljust(width) for c in row) for i, row in enumerate(cells)]
    what = f" (price in {item.get('pay_title') or item['pay']}; + what lies on a space)" if item.get("pay") else ""
    return [f"  {_title(item)}{what}:", head.rstrip(), *[r.rstrip() for r in rows]]


def _cell(c, pay) -> str:
    if c is None:
        return ""
    text = c["label"]
    if c.get("price") is not None:
        text += f" {c['price']}"
    for o in c.get("on") or ():
        text += f" +{o['value']}"
    return text


def _item(item, who, paint) -> list[str]:
    kind = item["kind"]
    if kind == "zone":
        return [] if _empty(item) else [f"  {_title(item)}: {_cards(item, paint)}"]
    if kind == "grid":
        return _grid(item)
    if kind == "on_cards":
        return [f"  {_title(item)}: " + "; ".join(f"{k}: {_cards(v, paint)}" for k, v in item["on"].items())]
    if kind == "card_counter":
        return [f"  {_title(item)}: " + item.get("text", ", ".join(f"{k} {v}" for k, v in item["values"].items()))]
    if kind == "trick":
        plays = ", ".join(f"{who(p['seat'])} {paint(p['card'], None)}" for p in item["plays"]) or "no card yet"
        return [f"  trick: {plays} (led by {who(item['leader'])})"]
    if kind == "board":   # the zones holding its positions are listed as zones: no graph in text
        return []
    if kind == "value":
        if item["value"] in ([], {}, None):
            return []
        return [f"  {_title(item)}: {item['text'] if 'text' in item else _shown(item['value'])}"]
    return []


def _panel(title, items, who, paint) -> list[str]:
    counters = [_value(it) for it in items if it["kind"] == "counter"]
    lines = []
    for it in items:
        if it["kind"] != "counter":
            lines += _item(it, who, paint)
    if not counters and not lines:
        return []   # nothing on it worth a line
    return [f"{title}" + (": " + " · ".join(counters) if counters else ""), *lines]


def render(table: dict, options: bool = True, paint=plain) -> str:
    """The table (play/display/table.py's data) for its seat, then (``options``) the numbered options,
    as text; ``paint(label, colour)`` writes a card (rich markup on a colour terminal)."""
    me = table["seat"]

    def who(seat):
        return "the table" if seat is None else "you" if seat == me else f"seat {seat}"
    prompt = table.get("prompt")
    head = f"─── {table['title']}"
    if table.get("phase"):
        head += f" · {table['phase']}"
    variables = " · ".join(f"{h['title']}: {h['text']}" for h in table.get("header") or ())
    lines = [head + (f" · {variables}" if variables else "")]
    shared = table["shared"] + table["running"]
    if shared:
        lines += _panel("Table", shared, who, paint)
    for t in table["teams"]:
        lines += _panel(f"team {t['team']} ({', '.join(who(s) for s in t['seats'])})", t["items"], who, paint)
    order = sorted(table["seats"], key=lambda s: s["seat"] != me)   # your own seat first
    for s in order:
        title = "You" + f" (seat {s['seat']})" if s["seat"] == me else f"seat {s['seat']}"
        if prompt and prompt["seat"] == s["seat"] and s["seat"] != me:
            title += f", to {prompt.get('asks') or prompt['prompt']}"
        lines += _panel(title, s["items"], who, paint)
    if table.get("result"):
        r = table["result"]
        lines.append("Game over: scores " + ", ".join(f"{who(i)} {v}" for i, v in enumerate(r["scores"]))
                     + "; won by " + ", ".join(who(i) for i in r["winners"]))
    if prompt and prompt.get("options") and options:
        lines.append(f"You ({who(me) if me != prompt['seat'] else 'seat ' + str(me)}) to "
                     f"{prompt.get('asks') or prompt['prompt']}:")
        lines += _columns([_option(o) for o in prompt["options"]])
    return "\n".join(lines)


def _option(o: dict) -> str:
    return f"{o['index'] + 1:>3}. {o['label']}" + (f" ({o['note']})" if o.get("note") else "")


def read_answer(legal: list[str], seat, inp, out, options: list[dict] | None = None, foresee=None) -> int:
    """The option a person answers: a number, a label, Enter when there is one option only;
    ``?`` lists the options with their notes (``options``: the table's, else the labels) and,
    given ``foresee()`` (a sentence per option: play/display/foresee.py), what each would do."""
    from ...errors import UsageError, did_you_mean
    while True:
        if len(legal) == 1:
            ask = f"seat {seat}, Enter takes {legal[0]} (? for help): "
        else:
            ask = f"seat {seat}, choose 1-{len(legal)} or a label (? lists the options): "
        print(ask, end="", file=out)
        out.flush()
        line = inp.readline()
        if not line:
            raise UsageError("the human agent reached the end of its input (stdin closed)")
        if not (hasattr(inp, "isatty") and inp.isatty()):
            print(file=out)   # answers read from a file or pipe are not echoed: end the prompt's line
        answer = line.strip()
        if answer == "" and len(legal) == 1:
            return 0
        if digits(answer) and 1 <= int(answer) <= len(legal):
            return int(answer) - 1
        if answer in legal:
            return legal.index(answer)
        if answer in ("?", "help"):
            shown = options or [{"index": i, "label": lab} for i, lab in enumerate(legal)]
            does = foresee() if foresee is not None else [""] * len(shown)
            print("\n".join(_option(o) + (f": {d}" if d else "") for o, d in zip(shown, does)), file=out)
            print("Answer with an option's number or its label" + (", or Enter for the only one" if len(legal) == 1
                                                                  else "") + ".", file=out)
            continue
        if answer == "":
            print(f"{len(legal)} options: type a number from 1 to {len(legal)}, a label, or ? to list them", file=out)
            continue
        close = did_you_mean(answer, legal)
        print(f"'{answer}' is not an option" + (f" (did you mean '{close}'?)" if close else "") + "; ? lists them",
              file=out)


def show(table: dict, out) -> None:
    """Print the table to ``out``: with colours through rich on a terminal, else plain text."""
    if getattr(out, "isatty", lambda: False)():
        try:
            from rich.console import Console
            from rich.markup import escape
        except ImportError:
            pass
        else:
            def paint(label, color):
                return f"[bold {color}]{escape(label)}[/]" if color else escape(label)
            Console(file=out, highlight=False).print(render(table, paint=paint))
            return
    print(render(table), file=out)


def heard(line: dict, me, owners, known: dict | None = None) -> list[str]:
    """What happened, told to seat ``me`` at the terminal: one sentence a line, then the
    counters several seats changed at once (a round's end) as a small table (``known``: what
    the story told so far, narrate.told)."""
    from .narrate import told
    said, table = told(line, me, owners, known)
    out = list(said)
    if table:
        rows = [["", *table["seats"]], *table["rows"]]
        widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
        out += ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
                for r in rows]
    return out
