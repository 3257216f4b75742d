"""``requires:``: the requirements a game must meet to start, compiled and checked at load.

Each entry is ``{if: CONDITION, message: TEXT}``. The condition is checked before a game's
setup (engine/requires.py), so it may read what is fixed before then (the parameters,
``num_players``, ``players``, ``teams``, the game's options through ``skill()``) and nothing of
the state: one that reads a zone, a counter or a variable is an error located at that name.
The message is plain text, as written; braces in it are refused (nothing fills them in).
A player count whose default values already fail a requirement is a warning at the requirement.
"""
from __future__ import annotations

from ..engine.requires import Requirement, default_failures
from ..errors import Diagnostic
from ..expr.parser import as_expr, offset_of
from ..expr.types import BOOL

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
        if "{" in message or "}" in message:
            ctx.error("a requirement's message is plain text: nothing fills in {...}", (*path, "message"), "requires",
                      "write the values in words: the refusal's hint gives the values the condition read")
        failed = failed or len(ctx.diags) > before
        text = as_expr(entry["if"])
        reads = sorted(fn.access.fixed, key=lambda name: (_at(text, name), name))
        out.append(Requirement(fn, text, message, ctx.smap.loc((*path, "if")), tuple(reads)))
    r.requires = tuple(out)
    if not failed and not any(d.severity == "error" for d in ctx.diags):   # (a requirement, parameter or team
        # that did not compile would give warnings of no meaning)
        counts: dict = {}   # requirement -> the player counts whose defaults fail it, and why (the first's)
        for req, n, why in default_failures(r):
            counts.setdefault(req, ([], why))[0].append(n)
        for req, (ns, why) in counts.items():
            ctx.diags.append(_warning(req, ns, why))
    return r.requires


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
