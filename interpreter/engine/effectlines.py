"""Where a runtime error inside a declared effect arose: the item of the effect's body that
failed, and the items that called the effect, read off the error's traceback, as Jinja2 names
the line of a template that failed and the includes above it.

Nothing is noted while a game runs. Each compiled effect list knows from its load which item
each line of its code comes from (``fn.lines``, from its def; ``fn.effect``: the declared effect
it is the body of, building/effects.py), and the ruleset's module which item each line of an
effect list written in place in a step's function comes from, as its writer noted them: each
run's items by line (building/flowgen.py ``FlowSource.written``) and the line of the module its
heading landed on, counted as the module was put together (flowgen.py ``unmarked``, listing.py
``module``), as Jinja2's code generator notes each template line's code line as it writes it; no
text is read back. A traceback (or, for the step budget's stop, the stack) names the line each
frame was at: the innermost item found is the one that failed, and while it belongs to a
declared effect, the next frame out names the item that called that effect.
"""
from __future__ import annotations

# The key of the globals of a traceback entry renamed after a rule (building/rulelines.py
# ``relocated``) that holds the globals of the module's frame it stands for.
MODULE = "__rulebook_module__"


class EffectLines:
    """The lines of one ruleset's generated effect code, each with the effect items it comes from."""

    def __init__(self, functions, ns: dict, in_place: tuple = (), listed=frozenset()):
        self.functions = functions   # every compiled effect list (fn.lines, fn.effect)
        # the module's globals, which the frames running its code have; and those of the compiled
        # tier's module (accel/rulesets.py), the same text compiled, whose frames are at its lines
        self.spaces = [ns]
        # each run written in place: (the line of the module its heading is on, from 1; the items of
        # each of its lines from there, the outermost first, none for a line of no item)
        self.in_place = in_place
        self.listed = listed         # id() of the effect lists whose code is the module's (listing.py graft)
        self._module: dict | None = None   # line of the module -> its items (made at the first error)

    def chain(self, e: BaseException, part=None) -> list:
        """[(location, declared effect or None)] of the items an error arose in, the outermost
        first: the item that failed, after the items calling the declared effects it is in (none
        where the error arose in no effect list). ``part``: the compiled rule it was noted in
        (errors.tag_origin); only what ran below it counts."""
        entries, tb = [], e.__traceback__
        while tb is not None:
            entries.append((tb.tb_frame, tb.tb_lineno))
            tb = tb.tb_next
        origin = getattr(getattr(part, "fn", part), "__code__", None)
        return self._items(entries, origin)

    def chain_here(self, frame) -> list:
        """``chain`` of the code running at ``frame`` and the frames that called it (an error not
        raised yet: the step budget's, engine/loop.py over_budget)."""
        entries = []
        while frame is not None:
            entries.append((frame, frame.f_lineno))
            frame = frame.f_back
        return self._items(entries[::-1], None)

    def _items(self, entries: list, origin) -> list:
        """``chain`` of the frames ``entries``, (frame, its line), the outermost first."""
        # (by identity: code objects compare by value, file name aside, so two alike would be one)
        codes = {id(fn.__code__): fn for fn in self.functions if hasattr(fn, "__code__")}
        parts, below = [], origin is None
        for frame, line in entries:
            code = frame.f_code
            below = below or code is origin
            fn = codes.get(id(code)) if below and line is not None else None
            if fn is not None:
                k = line - code.co_firstlineno
                loc = fn.lines[k] if 0 <= k < len(fn.lines) else None
                parts.append(() if loc is None else ((loc, getattr(fn, "effect", None)),))
            elif below and any(frame.f_globals.get(MODULE, frame.f_globals) is ns for ns in self.spaces):
                parts.append(self.module_lines().get(line, ()))
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
        list written in place from its heading's line."""
        if self._module is None:
            self._module = {fn.__code__.co_firstlineno + k: ((loc, getattr(fn, "effect", None)),)
                            for fn in self.functions if id(fn) in self.listed for k, loc in enumerate(fn.lines) if loc}
            for first, items in self.in_place:
                self._module.update((first + k, at) for k, at in enumerate(items) if at)
        return self._module
