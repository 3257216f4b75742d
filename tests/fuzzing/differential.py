"""The differential check of the expression compiler: an expression compiled as the game
compiles it (every faster form) and by the reference compile (``Compiler(names, plain=True)``:
the plain forms only) must give the same value on every state, or both raise one of the
language's runtime errors (``RUNTIME_ERRORS``).

The states come from random play of world.yaml (several seeds and player counts, a state
kept every few decisions), each with an acting seat and random locals.

One case gives a ``Verdict``:

- ``agree``: on every state the same value, or both raised;
- ``spared``: as agree, except that on some state the reference raised and the optimised
  code gave a value. Allowed: a filter of a filter is walked once, so `first(...)` of it stops
  at the first element that passes both, where the reference builds the inner list first
  (docs/language.md §6b; §7: an element past the deciding one is not evaluated);
- ``compile-error``: both compiles refused it with the same ExprError code;
- ``unbuilt``: (a branch's conditions) ``compile_offers`` gave None, as it may (Python refuses
  some of its bindings): the step asks each condition on its own;
- ``mismatch``: different values, the optimised code raised where the reference did not, or
  only one compile refused it;
- ``crash``: a compile raised something else than ExprError, or running raised something
  outside RUNTIME_ERRORS.
"""
from __future__ import annotations

import random
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import interpreter
from interpreter.expr import Compiler, ExprError
from interpreter.expr.runtime import RUNTIME_ERRORS, ExprRuntimeError
from interpreter.expr.statements import as_statements

from .expressions import LOCALS

WORLD = Path(__file__).resolve().parent / "world.yaml"


# what the faster forms look like in generated source (the reference compile writes none)
FAST_FORMS = {
    "a plain loop (scanner)": r"_scan_|_count_", "first by attribute": r"_first_eq\(",
    "bisection of a sorted zone": r"_in_sorted\(|_first_sorted\(", "runs of a sorted zone": r"_distinct_sorted\(",
    "a call computed once": r"_h\d+ :=", "a table bound once": r"_t\d+ :=",
    "a value computed once": r"for _e\d+z in \(",
    "a key looked up": r"_lookup\(", "membership without the list": r"_has_sum\(",
    "membership in joined lists": r"\b(\w+) in [\w.\[\]']+ or \1 in ",
    "membership in a set (or the bytes) of a list": r":= \{\*|:= bytes\(\[",
    "membership in a set kept without bindings": r"_sets\.setdefault\(",
    "sums by an attribute's weights": r"_sum_bits_of\(|_sums_by\(",
}


@dataclass
class Verdict:
    kind: str
    text: str
    detail: str = ""
    raw_errors: list = field(default_factory=list)   # Python errors (not ExprRuntimeError) seen, by kind
    kinds_differ: bool = False                       # both raised, errors of different kinds
    forms: set = field(default_factory=set)          # the faster forms of the optimised code (FAST_FORMS)


def forms_of(source: str) -> set:
    """The faster forms (FAST_FORMS) a generated source uses, and loops as statements."""
    found = {name for name, pattern in FAST_FORMS.items() if re.search(pattern, source)}
    return found | ({"loops as statements"} if as_statements(source, "_ok") is not None else set())


class Crash(Exception):
    pass


def same(a, b) -> bool:
    """Equal values of the same types (true is not 1, 3 is not 3.0; NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, float):
        return a == b or (a != a and b != b)
    return a == b


class World:
    """world.yaml loaded, the states to evaluate on, and the two compilers."""

    RENEW = 500   # compilers remember the sources they wrote: start afresh every so many cases

    def __init__(self, seeds=(1, 2), players=(3, 4), every: int = 4):
        self.rules = interpreter.load(WORLD)
        self.inputs = list(self._inputs(seeds, players, every))
        self._compiled = 0
        self._renew()

    def _renew(self):
        self.fast = Compiler(self.rules.names)
        self.plain = Compiler(self.rules.names, plain=True)

    def _inputs(self, seeds, players, every):
        """(description, S, me, L) along random games."""
        cards = len(self.rules.card_labels)
        for n in players:
            for seed in seeds:
                rnd = random.Random(f"{n}:{seed}")
                S = self.rules.new_game(n, seed=seed)
                step = 0
                while True:
                    if step % every == 0 or S.is_terminal():
                        me = S.current_player() if S.current_player() >= 0 else rnd.randrange(n)
                        L = {"c0": rnd.randrange(cards), "k": rnd.randint(-2, 5), "who": rnd.randrange(n)}
                        yield f"players={n} seed={seed} decision={step} me={me} L={L}", S.clone(), me, L
                    if S.is_terminal():
                        break
                    S.apply_index(rnd.randrange(len(S.legal_actions())))
                    step += 1

    def _compile(self, compiler, text):
        try:
            return compiler.compile(text, LOCALS, True)
        except ExprError as e:
            return e
        except Exception:   # noqa: BLE001 - anything else is what the fuzzer looks for
            raise Crash(f"{'reference' if compiler.plain else 'optimised'} compile raised:\n"
                        f"{traceback.format_exc()}") from None

    def check(self, text: str) -> Verdict:
        self._compiled += 1
        if self._compiled % self.RENEW == 0:
            self._renew()
        try:
            fast, plain = self._compile(self.fast, text), self._compile(self.plain, text)
            if isinstance(fast, ExprError) or isinstance(plain, ExprError):
                codes = [x.code if isinstance(x, ExprError) else "compiled" for x in (fast, plain)]
                if codes[0] == codes[1]:
                    return Verdict("compile-error", text, f"{codes[0]}: {fast.message}")
                return Verdict("mismatch", text, f"optimised: {codes[0]}, reference: {codes[1]}")
            verdict = self._differ(text, fast, plain)
            verdict.forms = forms_of(fast.source)
            return verdict
        except Crash as e:
            return Verdict("crash", text, str(e))

    def _differ(self, text, fast, plain) -> Verdict:
        verdict = Verdict("agree", text)
        for where, S, me, L in self.inputs:
            a, b = _run(fast.fn, S, me, L, "optimised"), _run(plain.fn, S, me, L, "reference")
            for kind, outcome in (("optimised", a), ("reference", b)):
                if outcome[0] == "error" and outcome[1] != "ExprRuntimeError":
                    verdict.raw_errors.append(f"{kind}: {outcome[1]}: {outcome[2]}")
            if a[0] == b[0] == "error":
                verdict.kinds_differ |= a[1] != b[1]
            elif a[0] == "value" and b[0] == "error":
                verdict.kind = "spared"
            elif not (a[0] == b[0] == "value" and same(a[1], b[1])):
                return Verdict("mismatch", text, f"on {where}:\n  optimised {a!r:.300}\n  reference {b!r:.300}\n"
                               f"  optimised source: {fast.source}\n  reference source: {plain.source}",
                               verdict.raw_errors)
        return verdict


    def check_offers(self, texts: list) -> Verdict:
        """A branch's conditions compiled together into one function (``compile_offers``: the
        tables they read bound once, loops as statements) against each condition by the
        reference compile: the indexes of those that hold."""
        label = " | ".join(texts)
        try:
            plain = [self._compile(self.plain, text) for text in texts]
            try:
                offers = self.fast.compile_offers(texts)
            except Exception:   # noqa: BLE001
                raise Crash(f"compile_offers raised:\n{traceback.format_exc()}") from None
        except Crash as e:
            return Verdict("crash", label, str(e))
        if any(isinstance(x, ExprError) or x.type != "bool" for x in plain):
            return Verdict("compile-error", label, "not all conditions compile" if offers is None else "")
        if offers is None:   # allowed: the step then asks each condition on its own
            return Verdict("unbuilt", label)
        verdict = Verdict("agree", label)
        for where, S, me, _ in self.inputs:
            try:
                outcomes = [_run(x.fn, S, me, {}, "reference") for x in plain]
                got = _run(offers, S, me, {}, "optimised")
            except Crash as e:
                return Verdict("crash", label, str(e))
            failed = any(o[0] == "error" for o in outcomes)
            want = ("value", tuple(i for i, o in enumerate(outcomes) if o[1] is True))
            if failed and got[0] == "value":
                verdict.kind = "spared"
            elif not failed and not (got[0] == "value" and same(got[1], want[1])):
                return Verdict("mismatch", label, f"on {where}:\n  offers {got!r:.300}\n  reference {want!r:.300}")
        return verdict


def _run(fn, S, me, L, kind):
    try:
        return ("value", fn(S, me, L))
    except ExprRuntimeError as e:
        return ("error", "ExprRuntimeError", str(e))
    except RUNTIME_ERRORS as e:
        return ("error", type(e).__name__, str(e)[:200])
    except Exception:   # noqa: BLE001
        raise Crash(f"{kind} code raised:\n{traceback.format_exc()}") from None
