"""Where a define's errors are reported (docs/reference.md "Defines"). Mixed into the Builder
(building/builder.py).

A define is compiled where it is used, and also checked where it is written: an error there is
reported at the define, once, and not again at each use. A define whose only problem is a bare
name meaning nothing on its own (a card's attribute, `it`, a hook's `card`), itself or in a
define it builds on, may mean something where it is used: its check is put off to its uses, and
the check where it is written leaves no trace (no diagnostic, no error counted, no message
marked as told: the first use that is wrong is told).
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import Diagnostic
from ..expr import ExprError
from ..expr.parser import as_expr


class Defines:
    """Builder methods (building/builder.py) checking defines and telling each error once."""
    names: Any                     # (the Builder's: expr/names.py Names)
    diags: list[Diagnostic]        # (the Builder's: the errors and warnings so far)
    errors: int                    # (building/bounded.py: the errors counted so far)
    expr: Callable[..., Any]       # (the Builder's: compile an expression at a path)
    error: Callable[..., None]     # (the Builder's: report an error at a path)

    def start_defines(self) -> None:
        """No define checked yet (the Builder's start)."""
        self._bad_defines: dict = {}   # message an erroneous define gives at each use -> its name
        self._told: set = set()        # messages of defines meaning nothing at a use, told there

    def check_defines(self, defines: dict) -> None:
        """Declare the ruleset's defines and check each where it is written."""
        self.names.defines = {k: as_expr(v) for k, v in defines.items()}
        for name, text in self.names.defines.items():
            if name in self.names.vars:   # (the variables are declared first: building/declarations.py declare_var)
                self.error(f"'{name}' is already a variable", ("define", name), "duplicate")
            before, told, errors = len(self.diags), set(self._told), self.errors
            self.expr(text, ("define", name))
            found = self.diags[before:]
            if found and all(_put_off(x.message) for x in found):
                del self.diags[before:]
                self._told, self.errors = told, errors
            elif found:   # reported at the define: not again at each use
                self._bad_defines[f"in define '{name}': {self.diags[-1].message}"] = name

    def told_already(self, e: ExprError) -> bool:
        """Whether the error ``e`` of a define met at a use was told already: at the define, or
        at an earlier use of the define meaning nothing there (told at the first use only)."""
        if e.message in self._bad_defines:
            return True
        if e.message.startswith("in define '") and e.code == "unknown-name":
            if e.message in self._told:
                return True
            self._told.add(e.message)
        return False


def _put_off(message: str) -> bool:
    """Whether an error met checking a define where it is written is a bare unknown name (there
    or in a define it uses, `in define 'x': unknown name 'rank'`): checked at the uses instead."""
    return message.split("': ")[-1].startswith("unknown name '")
