"""``requires:``: the requirements a game must meet to start, compiled and checked at load.

Each entry is ``{if: CONDITION, message: TEXT}``. The condition is checked before a game's
setup (engine/requires.py), so it may read what is fixed before then (the parameters,
``num_players``, ``players``, ``teams``, the game's options through ``skill()``) and nothing of
the state: one that reads a zone, a counter or a variable is an error located at that name.
The message is text with ``{expr}`` placeholders, each an expression of the same reach compiled
and checked here (a bad one is an error located in the message), written as text() writes its
value when the requirement fails (``{{`` and ``}}`` are braces; a ``}`` in a string of a
placeholder is the string's). A player count whose default values already fail a requirement is a warning at the requirement.
"""
from __future__ import annotations

from ..engine.requires import Placeholder, Requirement, default_failures
from ..errors import Diagnostic
from ..expr.parser import as_expr, offset_of
from ..expr.textual import WRITES, has_text
from ..expr.types import ANY, BOOL, CARD

KINDS = {"z": "the zone", "c": "the counter", "v": "the variable"}
STATE_HINT = ("a requirement reads only params, num_players, players, teams and the game's options: a condition "
              "on the state belongs in the rules (or in invariants:)")


def requirements(ctx, spec, r) -> tuple:
    """The compiled requirements of ``spec`` (the ``requires:`` list; its shape is the schema's
    to check), with their errors and their warnings said to ``ctx``."""
    out: list = []
    failed = False
    for i, entry in enumerate(spec or ()):
        if not isinstance(entry, dict) or "if" not in entry or not isinstance(entry.get("message"), str):
            failed = True   # (the schema says what is wrong)
            continue
        path = ("requires", i)
        before = len(ctx.diags)
        fn = ctx.expr(entry["if"], (*path, "if"), has_me=False, expect=BOOL)
        if len(ctx.diags) == before:
            stateless(ctx, fn, (*path, "if"))
        message = entry["message"]
        pieces = _pieces(ctx, message, (*path, "message"))
        failed = failed or len(ctx.diags) > before
        text = as_expr(entry["if"])
        reads = sorted(fn.access.fixed, key=lambda name: (_at(text, name), name))
        out.append(Requirement(fn, text, message, ctx.smap.loc((*path, "if")), tuple(reads), pieces))
    r.requires = tuple(out)
    if not failed and not any(d.severity == "error" for d in ctx.diags):   # (a requirement, parameter or team
        # that did not compile would give warnings of no meaning)
        counts: dict = {}   # requirement -> the player counts whose defaults fail it, and why (the first's)
        for req, n, why in default_failures(r):
            counts.setdefault(req, ([], why))[0].append(n)
        for req, (ns, why) in counts.items():
            ctx.diags.append(_warning(req, ns, why))
    return r.requires


def _pieces(ctx, message: str, path) -> tuple:
    """The message as its pieces: text, and a ``Placeholder`` for each ``{expr}`` in it, compiled
    (``{{`` and ``}}`` are braces); its errors said to ``ctx``, located in the message."""
    pieces: list = []
    text, i = "", 0
    while i < len(message):
        ch = message[i]
        if ch in "{}" and message[i + 1:i + 2] == ch:   # {{ or }}: a brace
            text, i = text + ch, i + 2
            continue
        if ch == "}":
            ctx.error("a '}' with no '{' before it", path, "requires", "write }} for a brace in the text",
                      offset=i)
            return ()
        if ch != "{":
            text, i = text + ch, i + 1
            continue
        end, quote = _closing(message, i + 1)
        if end < 0 and quote >= 0:   # a string never closed: the expression's error, at its quote
            _placeholder(ctx, message, i + 1, len(message), path)
            return ()
        if end < 0:
            ctx.error("a '{' with no '}' after it", path, "requires",
                      "write {expr} to say a value, or {{ for a brace", offset=i)
            return ()
        if not message[i + 1:end].strip():
            ctx.error("an empty {}: nothing to fill in", path, "requires",
                      "write an expression in it ({num_players}), or {{}} for braces", offset=i, span=end - i + 1)
            return ()
        if text:
            pieces.append(text)
        text = ""
        placeholder = _placeholder(ctx, message, i + 1, end, path)
        if placeholder is None:
            return ()
        pieces.append(placeholder)
        i = end + 1
    return (*pieces, text) if text else tuple(pieces)


def _closing(message: str, start: int) -> tuple[int, int]:
    """Where the placeholder begun at ``start`` ends: its first ``}`` outside a string literal
    (``{'}'}`` says a brace; the language has no braces but in its strings), -1 where none does;
    and where a string it leaves open begins (-1: none)."""
    quote, opened, i = None, -1, start
    while i < len(message):
        ch = message[i]
        if quote is not None:
            if ch == "\\":
                i += 1   # (an escaped character: a quote that does not end the string)
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote, opened = ch, i
        elif ch == "}":
            return i, -1
        i += 1
    return -1, opened if quote is not None else -1


def _placeholder(ctx, message: str, start: int, end: int, path) -> Placeholder | None:
    """The placeholder ``message[start:end]`` compiled (None after an error), its errors located
    in the message: the expression is compiled behind as many spaces as come before it."""
    before = len(ctx.diags)
    fn = ctx.expr(" " * start + message[start:end], path, has_me=False)
    if len(ctx.diags) == before:
        stateless(ctx, fn, path)
    if len(ctx.diags) == before and not has_text(fn.type):
        ctx.error(f"a placeholder is written as text() writes it: {WRITES}, got {fn.type}", path, "type",
                  "a placeholder says one value: {count(L)}, {first(L)}..." if fn.type != ANY else None,
                  offset=start, span=end - start)
    return Placeholder(fn, fn.type == CARD, message[start:end].strip()) if len(ctx.diags) == before else None


def stateless(ctx, fn, path, thing: str = "a requirement", hint: str = STATE_HINT, code: str = "requires") -> None:
    """An error at the first thing of the state ``fn`` (``thing``: a requirement, a zone's max)
    reads, if it reads any: it is evaluated before the game's setup."""
    access = fn.access
    state = sorted(access.reads)
    if not state and not access.opaque and not access.calls:
        return
    what = f"{KINDS[state[0][0]]} '{state[0][1]}'" if state else "the game's state"
    offset = _name_offset(fn.tree, state[0][1].split(".")[0]) if state else None
    ctx.error(f"{thing} is checked before the game's setup: it cannot read {what}", path, code,
              hint, offset=offset, span=len(state[0][1].split(".")[0]) if offset is not None else 1)


def _name_offset(tree, name: str) -> int | None:
    """Where the name ``name`` is first written in an expression's tree (None: not by that name,
    as when a define reads it)."""
    if tree is None:
        return None
    found = [offset_of(t) for t in tree.iter_subtrees() if t.data == "name" and str(t.children[0]) == name]
    return min(found) if found else None


def _at(text: str, name: str) -> int:
    """Where ``name`` (``num_players``, ``params.NAME``) first shows in ``text`` (its end: not written)."""
    k = text.find(name)
    return k if k >= 0 else len(text)


def _warning(req: Requirement, counts: list, why: str):
    said = ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}" if len(counts) > 1 else str(counts[0])
    return Diagnostic(f"a game of {said} players with the default values is refused: {why}", req.loc, "requires",
                      "warning", f"it requires {req.text}; give such a game other values (--set), or change the defaults")
