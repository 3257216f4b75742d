"""Rule coverage: counters compiled into a ruleset, one per place a rule can fire.

A ruleset built with ``coverage=True`` (``rulebook simulate --coverage``, ``validate
--playouts``) counts, in a plain list of integers, every time

- an effect list runs: a flow's effects, a declared effect, a trigger's ``do:``, setup;
- a branch of the effect language runs: the ``then`` / ``else`` of an ``if``, a ``switch``
  case, the body of a ``for_each``;
- a step starts (any step kind), and a ``branch`` option is taken;
- a draw finds its zone short: a ``move`` with ``count:`` or a ``deal`` that asked for more
  cards than the zone held ("ran out");

and, counted by the batch runner at the end of each game, a scoring category that gave
anyone anything. The counters live in the compiled code's namespace (``_cov``), so a
ruleset built without coverage has none and pays nothing; with coverage, the games are the
same games (a counter changes nothing a rule reads).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Probe:
    kind: str     # effects, then, else, case, for_each, step, option, ran_out, category
    what: str     # what fired, in words ("if count(buildings) >= 3: then")
    loc: object   # the YAML location (errors.Location) or None


class Probes:
    """The counters of one instrumented ruleset: ``items[i]`` says what ``counts[i]`` counts."""

    def __init__(self, namespace: dict, smap):
        self.items: list[Probe] = []
        self.counts: list[int] = []
        self.smap = smap
        namespace["_cov"] = self.counts

    def add(self, kind: str, what: str, path) -> int:
        self.items.append(Probe(kind, what, self.smap.loc(tuple(path)) if path is not None else None))
        self.counts.append(0)
        return len(self.items) - 1

    def line(self, kind: str, what: str, path) -> str:
        """The Python statement that counts one more firing of a new probe."""
        return f"_cov[{self.add(kind, what, path)}] += 1"


def describe_list(path, items) -> str:
    """What an effect list is, in words, from where it stands in the ruleset."""
    path = tuple(path)
    if len(path) >= 2 and path[0] == "triggers":
        return f"trigger {path[1]}"
    if len(path) >= 2 and path[0] == "effects":
        return f"effect {path[1]}"
    if path[:1] == ("setup",):
        return "setup"
    kinds = [next(iter(i)) if isinstance(i, dict) and i else str(i) for i in (items if isinstance(items, list) else [items])]
    return "effects: " + ", ".join(kinds)[:60]


def instrument_steps(probes: Probes, steps, plain=()) -> None:
    """Count each start of every step (but the plain lists ``plain``: sequences, inline
    effects, which count themselves), and each option taken of a step that offers named
    alternatives (``option_names``)."""
    counts = probes.counts
    for step in steps:
        if isinstance(step, plain):
            continue
        label = step.kind + (f" ({step.prompt})" if getattr(step, "prompt", None) else "")
        i = probes.add("step", f"step {label}", getattr(step, "path", None))
        step.enter = _counting(step.enter, counts, i)
        names = getattr(step, "option_names", None)
        if names:
            first = len(probes.items)
            for name in names:
                probes.add("option", f"option '{name}' of {label}", (*step.path, "options", name))
            for k, body in enumerate(step.children()):   # an option taken: its steps start (its only way in)
                body.enter = _counting(body.enter, counts, first + k)


def _counting(enter, counts, i):
    def counted(S):
        counts[i] += 1
        return enter(S)
    return counted
