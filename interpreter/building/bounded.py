"""What compiling one ruleset may cost, counted after YAML aliases are expanded: its work
(MAX_BUILD_WORK) and its errors (loading/source.py MAX_ERRORS). Past either, the build stops
with the errors so far: going on would do the very work the limits bound."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from ..errors import Diagnostic, RulesetError, figure
from ..expr import walks
from ..expr.limits import STEP_WORK_UNIT
from ..loading.source import MAX_ERRORS, stopped_at

# a step or an effect counts PART_WORK (about 0.5 ms and 40 KB to compile), a character of an
# expression one (about 8 us and 300 bytes), and an expression at least EXPR_WORK: its fixed cost
# (about 0.2 ms and 19 KB, what 27 characters take in time and 63 in memory: python
# benchmarks/build_work.py), so a short text aliasing a list of them many times, or a list of
# thousands of distinct short expressions, cannot take seconds and gigabytes (the largest seed
# game: 159 steps and effects, 6,600 characters, about 22,500)
MAX_BUILD_WORK = 200_000
PART_WORK = 100
EXPR_WORK = 64
HEAVY_SHARE = 100   # a step one run of which may count more than 1/HEAVY_SHARE of the step budget is warned of


# the costliest expression compiled in what is being weighed (a step, a declared effect): its
# worst-case operations, its path, and the declared effects it is reached through, outermost first
HEAVIEST: tuple = (0, (), ())


class Bounded:
    """The counts of a Builder (building/builder.py): the work and the errors so far, and the
    costliest expression of the step being weighed (``heaviest``: why a step weighs that much)."""
    work = 0
    errors = 0
    pass_steps = 0   # what the for_each passes compiled so far may count (building/effects.py charge_pass)
    heaviest = HEAVIEST
    untyped: frozenset = frozenset()   # the paths of the expressions weighed mostly for walks of values of type any
    diags: list[Diagnostic]     # (the Builder's: the errors and warnings so far)
    error: Callable[..., None]  # (the Builder's: report an error at a path)
    smap: Any                   # (the Builder's: where each path is in the source)

    def grow_text(self, path, text: str) -> None:
        """Count the work of an expression about to be compiled: its characters, EXPR_WORK at least."""
        self.grow(path, max(len(text), EXPR_WORK))

    def grow(self, path, work: int = PART_WORK) -> None:
        """Count the work of a step, an effect or an expression about to be compiled."""
        self.work += work
        if self.work > MAX_BUILD_WORK:
            self.error(f"this ruleset is too large to compile: more than {MAX_BUILD_WORK // PART_WORK:,} steps and "
                       f"effects, or fewer with expressions (each step or effect counts {PART_WORK}, each expression "
                       f"its characters, {EXPR_WORK} at least, up to {MAX_BUILD_WORK:,}; counted after YAML aliases "
                       "are expanded)", path,
                       "limit", hint="write what repeats once (a declared effect, a define, a repeat), not in copies")
            raise RulesetError(sorted(self.diags, key=order))

    def weigh_steps(self, steps, budget: int, what: str = "this step", runs: str = "time it runs",
                    each: str = "a run") -> None:
        """Refuse a step one run of which may cost more than the game's whole step budget
        (``budget``, limits.steps); warn of one whose run alone may count more than 1/HEAVY_SHARE
        of it: a game running it a hundred times would stop (the designer learns it now, not
        when a long game runs out). A run's weight: its charge and what its for_each passes may
        count (``pass_steps``: building/effects.py ``charge_pass``). ``what`` names the parts weighed,
        ``runs`` and ``each`` when they count (``weigh_triggers``: a trigger's do: or if:, each has
        what a step has: charge, work, pass_steps, path, heaviest, called, and ``base``, what it
        counts beside its charge)."""
        for step in steps:
            weight = step.charge + getattr(step, "pass_steps", 0)
            if weight > budget:
                self.too_costly(step, budget, what, each)
            elif weight * HEAVY_SHARE > budget:
                count = getattr(step, "base", 1) + weight
                untyped = self.untyped_in(step)
                self.error(f"{what} may count {figure(count)} steps of the game's budget of {budget:,} each "
                           f"{runs} ({counted(step)}), more than 1/{HEAVY_SHARE} of it: "
                           f"a game running it {budget // count + 1:,} times stops; {cause(step, untyped)}",
                           step.path, "cost", hint=UNTYPED_HINT if untyped else "bound what its lists read (a zone "
                           "holds the game's cards, a list variable is weighed at 10,000 elements in a filter and at "
                           "one pass in a for_each; min: and max: of the parameters a range's ends read), compute "
                           "less in one step, or raise limits.steps", key=True,
                           severity="warning")

    def weigh_triggers(self, triggers, budget: int, players: int) -> None:
        """Weigh each trigger's ``do:`` as ``weigh_steps`` weighs a step (refused past the budget,
        warned of past 1/HEAVY_SHARE of it), and a costly ``if:`` an ``on_enter`` trigger asks
        at each entry (``parts``: not one decided for each card at load): one firing counts one and the do:'s charge (mechanics/triggers.py
        ``_charged``), a per_player ``when:`` trigger's for each seat of the largest game at once."""
        for path, part, per in triggers.parts:
            times = players if per else 1
            is_do = path[-1] == "do"
            if part is None or not is_do and part.work < STEP_WORK_UNIT:
                continue
            weighed = SimpleNamespace(path=path, charge=times * (part.work // STEP_WORK_UNIT), work=times * part.work,
                                      pass_steps=times * getattr(part, "pass_steps", 0),
                                      base=times if is_do else 0, called=times * getattr(part, "called", 0),
                                      heaviest=getattr(part, "heaviest", (part.work, path, ())))
            runs, each = (("time it fires for every seat", "a firing for every seat") if per else
                          ("time it fires", "a firing") if is_do else ("time it is asked", "each time it is asked"))
            self.weigh_steps((weighed,), budget, f"this trigger's {path[-1]}:", runs, each)

    def weigh(self, cost: int, path, untyped: int = 0) -> None:
        """Note an expression's worst-case operations, compiled at ``path`` (``untyped``: those its
        comparisons of values of type any walk, expr/walks.py ``compared``)."""
        if untyped * 2 >= cost > 0:
            self.untyped |= {tuple(path)}
        if cost > self.heaviest[0]:
            self.heaviest = (cost, tuple(path), ())

    def reached(self, heaviest: tuple, name: str) -> None:
        """Note a call of declared effect ``name``, whose costliest expression is ``heaviest``."""
        if heaviest[0] > self.heaviest[0]:
            self.heaviest = (heaviest[0], heaviest[1], (name, *heaviest[2]))

    def too_costly(self, step, budget: int, what: str = "this step", each: str = "a run") -> None:
        """Refuse a step whose one run may cost more than the game's whole budget."""
        untyped = self.untyped_in(step)
        message, path = heavy(step, budget, self.smap, what, each, untyped)
        self.error(message, path, "limit", key=path is step.path, hint=UNTYPED_HINT if untyped else None)

    def untyped_in(self, step) -> bool:
        """Whether the costliest expression of ``step`` makes half its work and is weighed mostly for
        comparing values of type any, any of which may be a list as long as a list variable: the
        error or warning then says to declare their type."""
        cost, where = step.heaviest[:2]
        return where in self.untyped and cost * 2 >= step.work

    def count_error(self, loc) -> None:
        """Count one more error, about to be reported at ``loc``."""
        self.errors += 1
        if self.errors > MAX_ERRORS:
            raise RulesetError([*sorted(self.diags, key=order), stopped_at(loc)])


def order(d: Diagnostic):
    return (d.loc.path if d.loc else "", d.loc.line if d.loc else 0, d.loc.col if d.loc else 0)


def heavy(step, budget: int, smap, what: str = "this step", each: str = "a run",
          untyped: bool = False) -> tuple[str, tuple]:
    """The error refusing a step whose one run may cost more than the game's whole budget (its
    ``work`` more than ``budget`` steps), and where it is: named by what weighs most
    (docs/security.md, limits.steps). An expression that alone may take half the budget: its nested
    filters, each list weighed at its longest, located at it when it is in a declared effect the
    step calls (the step named as the context); else the calls, when they make half the step's
    work: declared effects calling each other several times; else the step's own expressions."""
    cost, where, through = step.heaviest
    passes = getattr(step, "pass_steps", 0)
    said = (f"take about {figure(step.work)} operations {each}, more than the game's whole step budget of {budget:,} steps "
            f"({STEP_WORK_UNIT} operations each)") if not passes else (
        f"count {figure(getattr(step, 'base', 1) + step.charge + passes)} steps {each} ({counted(step)}), more than the "
        f"game's whole step budget of {budget:,} steps")
    if cost * 2 < budget * STEP_WORK_UNIT or not through:
        return f"{what} may {said}: {cause(step, untyped)}", step.path
    at, here = smap.key_loc(step.path), smap.loc(where)
    named = f"line {at.line}" if at and here and at.path == here.path else str(at)
    calls = " (through " + ", ".join(f"'{n}'" for n in through[:-1]) + ")" if len(through) > 1 else ""
    return (f"{what.replace('this ', 'the ', 1)} at {named}, calling effect '{through[0]}', may {said}; this expression of effect "
            f"'{through[-1]}'{calls} alone about {figure(cost)}: {UNTYPED if untyped else FILTERS}"), where


FILTERS = ("each list its filters walk is weighed at its longest, and nested filters multiply: a zone as many "
           "cards as the game has, a list variable 10,000 elements (a list inside one too), a range as its "
           "ends' declared bounds allow (10,000 where they read what declares none)")


UNTYPED = ("a value of type any (or made of one) compared ('==', '<', max()...) or looked in ('in') is weighed as a "
           "walk of all it may hold (of two compared, the fewer): a variable or a declared effect's parameter of type any as a list "
           "variable, 10,000 elements in all; a ruleset's parameter as its values and choices hold at every depth (with "
           "no choices, lists as long as the cards, the players or 64, a level of lists inside, and 1,000,000 characters "
           "of strings)")
UNTYPED_HINT = f"declare the type of the values it compares ({walks.TYPES}) to weigh them as such"


PASSES = ("a for_each counts each pass one and its body's charge, as many passes as its in: list may have "
          "elements (a zone as many cards as the game has, a range as its ends' declared bounds allow), but one "
          "pass over a list of 10,000 or more whose length load cannot know (a list variable, a range an end of "
          "which reads what declares no bound), and for_each loops nested multiply")


def counted(step) -> str:
    """What a step's weight is made of: its expressions' worst-case operations, and what its for_each passes count."""
    passes, work = getattr(step, "pass_steps", 0), f"about {figure(step.work)} operations at worst"
    return f"its for_each passes {figure(passes)} of them, its expressions {work}" if passes else work


def cause(step, untyped: bool = False) -> str:
    """What makes a step's worst case large: its for_each passes, when they make half its weight; the
    declared effects it calls, when they make half its work; else its expressions' comparisons of
    values of type any, where its costliest is weighed for them (``untyped``); else its expressions'
    nested filters."""
    passes = getattr(step, "pass_steps", 0)
    if passes and passes >= step.charge:
        return PASSES
    if step.called * 2 >= step.work and not untyped:
        return "declared effects calling each other several times multiply"
    return UNTYPED if untyped else FILTERS
