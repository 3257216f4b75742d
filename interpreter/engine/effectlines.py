"""Where a runtime error inside a declared effect arose: the item of the effect's body that
failed, and the items that called the effect, read off the error's traceback, as Jinja2 names
the line of a template that failed and the includes above it.

Nothing is noted while a game runs. Each compiled effect list knows from its load which item
each line of its code comes from (``fn.lines``, from its def; ``fn.effect``: the declared effect
it is the body of, building/effects.py), and the ruleset's module which item each line of an
effect list written in place in a step's function comes from (``written``: its lines and, beside
each, the items, the outermost first, building/flowgen.py ``FlowSource.effects``). A traceback
names the line each frame was at: the innermost item found is the one that failed, and while it
belongs to a declared effect, the next frame out names the item that called that effect.
"""
from __future__ import annotations

# The key of the globals of a traceback entry renamed after a rule (building/rulelines.py
# ``relocated``) that holds the globals of the module's frame it stands for.
MODULE = "__rulebook_module__"


class EffectLines:
    """The lines of one ruleset's generated effect code, each with the effect items it comes from."""

    def __init__(self, functions, ns: dict, text: str, written: list, listed=frozenset()):
        self.functions = functions   # every compiled effect list (fn.lines, fn.effect)
        # the module's globals, which the frames running its code have; and those of the compiled
        # tier's module (accel/rulesets.py), the same text compiled, whose frames are at its lines
        self.spaces = [ns]
        self.text, self.written = text, written
        self.listed = listed         # id() of the effect lists whose code is the module's (listing.py graft)
        self._module: dict | None = None   # line of the module -> its items (made at the first error)

    def chain(self, e: BaseException, part=None) -> list:
        """[(location, declared effect or None)] of the items an error arose in, the outermost
        first: the item that failed, after the items calling the declared effects it is in (none
        where the error arose in no effect list). ``part``: the compiled rule it was noted in
        (errors.tag_origin); only what ran below it counts."""
        codes = {getattr(fn, "__code__", None): fn for fn in self.functions}
        origin = getattr(getattr(part, "fn", part), "__code__", None)
        parts, tb, below = [], e.__traceback__, origin is None
        while tb is not None:
            frame, code = tb.tb_frame, tb.tb_frame.f_code
            below = below or code is origin
            fn = codes.get(code) if below and tb.tb_lineno is not None else None
            if fn is not None:
                k = tb.tb_lineno - code.co_firstlineno
                loc = fn.lines[k] if 0 <= k < len(fn.lines) else None
                parts.append(() if loc is None else ((loc, getattr(fn, "effect", None)),))
            elif below and any(frame.f_globals.get(MODULE, frame.f_globals) is ns for ns in self.spaces):
                parts.append(self.module_lines().get(tb.tb_lineno, ()))
            tb = tb.tb_next
        found: list = []
        for items in reversed(parts):   # the innermost item, then out while it is in a declared effect
            if items and (not found or found[0][1] is not None):
                found[:0] = items
            elif items:
                break
        return found

    def module_lines(self) -> dict:
        """Each line of the module (from 1) in an effect list -> its items: a list's own function
        from its def (for a frame of the compiled tier, which runs the module's text compiled), a
        list written in place where its heading comment is."""
        if self._module is None:
            self._module = {fn.__code__.co_firstlineno + k: ((loc, getattr(fn, "effect", None)),)
                            for fn in self.functions if id(fn) in self.listed for k, loc in enumerate(fn.lines) if loc}
            lines = [x.strip() for x in self.text.split("\n")]
            headings: dict = {}
            for k, x in enumerate(lines):
                if x.startswith("# ") and x.endswith(", written in place"):
                    headings.setdefault(x, []).append(k)
            for run, items in self.written:
                flat = [(x.strip(), at) for line, at in zip(run, items) for x in line.split("\n")]
                for k in headings.get(flat[0][0], ()) if flat else ():
                    if all(k + j < len(lines) and lines[k + j] == x for j, (x, _) in enumerate(flat)):
                        self._module.update((k + 1 + j, at) for j, (_, at) in enumerate(flat) if at)
        return self._module
