"""Steps that run as a seat held in a variable (a turns' ``as:``, a branch's, an attempt's
``actor:``: docs/reference.md "branch"), and what a step reads for the seat it asks. Mixed into
the Builder (building/builder.py).

What steps read of ``me`` and which variables they write are the facts the compilers noted while
building them (expr/access.py), never their text: an expression naming ``me`` (or a zone or
counter of the acting seat's, or a define that does) notes it where it is compiled; an effect
step notes it when its list may read the seat (watch.py ``reads_seat``); the steps of a nested
``turns``, or of a branch holding its own seat, read theirs, not the enclosing ones' (``apart``),
and so do the effects a ``with_player`` or a ``for_each`` as ``me`` runs (expr/access.py ``keeps_me``).
What a step reads for another seat than ``me``, the seat it asks (``asking``: its options,
conditions, zones, costs, chances), reads that seat's ``me``, not the enclosing steps'. A variable
is written by a step declaring it (``declare_var``: a step's ``as:``) or by an effect that may
write it (watch.py ``may_write``).
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import Any, Callable

from lark import Tree

from ..expr.parser import ExprError, as_expr, bare_name, parse
from .watch import may_write


def written_seats(tree: Any, least: int, most: int) -> tuple[bool, int | None]:
    """Of a ``for_each`` as ``me``'s list of whole numbers: (whether it is written out of whole
    numbers below the least player count, seats in every game: bound as they are, no check; the
    first written number no game has a seat for: below 0, or past the most players, if any)."""
    items = tree.children if isinstance(tree, Tree) and tree.data == "list_" else None
    if items is None or not all(isinstance(x, Tree) and (x.data == "int_" or x.data == "neg" and isinstance(
            x.children[0], Tree) and x.children[0].data == "int_") for x in items):
        return False, None
    numbers = [int(str(x.children[0])) if x.data == "int_" else -int(str(x.children[0].children[0])) for x in items]
    return all(0 <= k < least for k in numbers), next((k for k in numbers if not 0 <= k < most), None)


def _only_me(tree) -> bool:
    """Whether an expression's tree is me, none, or X if C else Y of such."""
    if bare_name(tree) == "me" or isinstance(tree, Tree) and tree.data == "none":
        return True
    return isinstance(tree, Tree) and tree.data == "cond" and _only_me(tree.children[0]) and _only_me(tree.children[2])


class Seats:
    """Builder methods building the steps that run as a seat held in a variable."""
    compiler: Any                  # (the Builder's)
    fx: Any
    names: Any
    triggers: Any
    smap: Any
    var_writers: list
    error: Callable[..., None]
    declare_var: Callable[..., str]

    def declare_as(self, name, typ, path, scope) -> str:
        """The variable of a step's ``as:`` (``declare_var``), which must not be one holding the
        seat ``me`` stands for in an enclosing step (an enclosing turns' or branch's, an attempt's
        actor): writing it would change who ``me`` is for the rest of their steps."""
        if name in scope.seats:   # (told here, not again as written inside the enclosing step: not declared)
            self.error(f"'{name}' {scope.holding(name, ' here')}: writing it would change who me is",
                       path, "name", "choose another name")
            return name
        return self.declare_var(name, typ, path)

    @staticmethod
    def only_me(who) -> bool:
        """Whether a step's ``who:`` (as written) asks no seat but ``me``: ``me``, or ``none``, or
        a choice of such (``me if victim != none else none``). (An expression that does not parse
        is reported where it is compiled.)"""
        try:
            return _only_me(parse(as_expr(who)))
        except ExprError:
            return True

    def asking(self, who):
        """Where what a step reads for the seat it asks is compiled: where that seat may be another
        than ``me`` (``who``, as written, is not ``only_me``; None: each of several seats), a ``me``
        read there is that seat's, not noted as the enclosing steps' (``steps_as``)."""
        return nullcontext() if who is not None and self.only_me(who) else self.compiler.access.asked()

    def steps_as(self, build: Callable[[], Any], var: str | None, path, seat: str = "the seat that chose") -> tuple[Any, bool]:
        """``build()`` (the steps that run as the seat in ``var``, declared; None: as where they
        stand) and whether they read ``me``. With ``var``, a step's ``as:`` or an effect inside
        them writing it is an error located at ``path`` (``me`` would change under them), which
        names what ``var`` holds: ``seat``."""
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
                self.error(f"'{var}' holds {seat}, me in the steps: {where} writes it there, "
                           "which would change who me is under them", path, "name", "choose another name")
        return built, notes.me
