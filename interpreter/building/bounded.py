"""What compiling one ruleset may cost, counted after YAML aliases are expanded: its work
(MAX_BUILD_WORK) and its errors (loading/source.py MAX_ERRORS). Past either, the build stops
with the errors so far: going on would do the very work the limits bound."""
from __future__ import annotations

from typing import Callable

from ..errors import Diagnostic, RulesetError
from ..expr.limits import STEP_WORK_UNIT
from ..loading.source import MAX_ERRORS, stopped_at

# a step or an effect counts PART_WORK (about 0.5 ms and 40 KB to compile), a character of an
# expression one (about 10 us), so a short text aliasing a list of them many times cannot take
# seconds and gigabytes (the largest seed game: 159 steps and effects, 6,600 characters, about 22,500)
MAX_BUILD_WORK = 200_000
PART_WORK = 100
HEAVY_SHARE = 100   # a step one run of which may count more than 1/HEAVY_SHARE of the step budget is warned of


class Bounded:
    """The counts of a Builder (building/builder.py): the work and the errors so far."""
    work = 0
    errors = 0
    diags: list[Diagnostic]     # (the Builder's: the errors and warnings so far)
    error: Callable[..., None]  # (the Builder's: report an error at a path)

    def grow(self, path, work: int = PART_WORK) -> None:
        """Count the work of a step, an effect or an expression about to be compiled."""
        self.work += work
        if self.work > MAX_BUILD_WORK:
            self.error(f"this ruleset is too large to compile: more than {MAX_BUILD_WORK // PART_WORK:,} steps and "
                       f"effects, or fewer with long expressions (each counts {PART_WORK}, and each character of an "
                       f"expression 1, up to {MAX_BUILD_WORK:,}; counted after YAML aliases are expanded)", path,
                       "limit", hint="write what repeats once (a declared effect, a define, a repeat), not in copies")
            raise RulesetError(sorted(self.diags, key=order))

    def weigh(self, steps, budget: int) -> None:
        """Refuse a step one run of which may cost more than the game's whole step budget
        (``budget``, limits.steps); warn of one whose run alone may count more than 1/HEAVY_SHARE
        of it: a game running it a hundred times would stop (the designer learns it now, not
        when a long game runs out)."""
        for step in steps:
            why = heavy(getattr(step, "calls", False))
            if step.charge > budget:
                self.error(f"this step may take about {step.work:,} operations a run, more than the game's whole "
                           f"step budget of {budget:,} steps ({STEP_WORK_UNIT} operations each): {why}", step.path,
                           "limit", key=True)
            elif step.charge * HEAVY_SHARE > budget:
                self.error(f"this step may count {1 + step.charge:,} steps of the game's budget of {budget:,} each "
                           f"time it runs (about {step.work:,} operations at worst), more than 1/{HEAVY_SHARE} of it: "
                           f"a game running it {budget // (1 + step.charge) + 1:,} times stops; {why}", step.path,
                           "cost", hint="bound what its lists read (min: and max: of the parameters a range's ends "
                           "read), compute less in one step, or raise limits.steps", key=True, severity="warning")

    def count_error(self, loc) -> None:
        """Count one more error, about to be reported at ``loc``."""
        self.errors += 1
        if self.errors > MAX_ERRORS:
            raise RulesetError([*sorted(self.diags, key=order), stopped_at(loc)])


def order(d: Diagnostic):
    return (d.loc.path if d.loc else "", d.loc.line if d.loc else 0, d.loc.col if d.loc else 0)


def heavy(calls: bool) -> str:
    """Why a step's worst case is large, for the error refusing a step that may cost the game's
    whole budget a run: the declared effects it calls, or its expressions' nested filters,
    weighed by the longest their lists can be (docs/language.md, Limits)."""
    if calls:
        return "declared effects calling each other several times multiply"
    return ("nested filters multiply, each list weighed at its longest: a zone as many cards as the game has, "
            "a list variable 10,000 elements, a range as its ends' declared bounds allow (10,000 where they "
            "read what declares none)")
