"""Steps that run as a seat held in a variable (a branch's ``as:``: docs/reference.md "branch").
Mixed into the Builder (building/builder.py).

What steps read of ``me`` and which variables they write are the facts the compilers noted while
building them (expr/access.py), never their text: an expression naming ``me`` (or a zone or
counter of the acting seat's, or a define that does) notes it where it is compiled; an effect
step notes it when its list may read the seat (watch.py ``reads_seat``); the steps of a nested
``turns``, or of a branch holding its own seat, read theirs, not the enclosing ones' (``apart``).
A variable is written by a step declaring it (``declare_var``: a step's ``as:``) or by an effect
that may write it (watch.py ``may_write``).
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Callable

from .watch import may_write


class Seats:
    """Builder methods building the steps that run as a seat held in a variable."""
    compiler: Any                  # (the Builder's)
    fx: Any
    names: Any
    triggers: Any
    smap: Any
    var_writers: list
    error: Callable[..., None]

    def steps_as(self, build: Callable[[], Any], var: str | None, path) -> tuple[Any, bool]:
        """``build()`` (the steps that run as the seat in ``var``, declared; None: as where they
        stand) and whether they read ``me``. With ``var``, a step's ``as:`` or an effect inside
        them writing it is an error located at ``path`` (``me`` would change under them)."""
        access = self.compiler.access
        writers, functions = len(self.var_writers), len(self.fx.functions)
        with access.apart() if var is not None else nullcontext(), access.recording() as notes:
            built = build()
        if var is not None:
            at = next((p for name, p in self.var_writers[writers:] if name == var), None)
            where = f"a step's as: at line {self.smap.loc(at).line}" if at is not None and self.smap.loc(at) else ""
            named = {n: self.names.namespace.get(f"E_{n}") for n in self.fx.named}
            fns = self.fx.functions[functions:]
            fn = next((f for f in fns if may_write(f.access, var, named, self.triggers.enter, self.triggers.live,
                                                   kind="v")), None)
            if fn is not None and not where:
                loc = getattr(fn, "loc", None)
                where = f"an effect at line {loc.line}" if loc is not None else "an effect"
            if where:
                self.error(f"'{var}' holds the seat that chose, me in the steps: {where} writes it there, "
                           "which would change who me is under them", path, "name", "choose another name")
        return built, notes.me
