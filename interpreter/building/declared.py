"""Declared effects (``effects:`` at the top of a ruleset): each compiled once as ``E_NAME(S, me,
P_param...)``, its arguments its parameters, and called by name from effect lists. Mixed into
the EffectCompiler (building/effects.py)."""
from __future__ import annotations

from typing import Any

from ..errors import did_you_mean
from .bounded import HEAVIEST
from .watch import reads_seat
from ..expr.nesting import holds_lists, local_bounds
from ..expr.limits import MAX_CALL_DEPTH
from ..expr.walks import CHECK_WORK
from ..expr.runtime import MAX_STORED, list_bound, stored_source
from ..expr.types import ANY, fits, holds_growing, parse_type, unproven, walked
from ..engine.values import as_typed
from ..mechanics.variables import charge_check

CALL_WORK = 50   # operations a declared effect's call costs itself (about 5 us, as 50 of expressions)


def parameter(name: str, k: int) -> str:
    """The Python name of a declared effect's parameter ``name`` (the ``k``-th): ``P_name``, a
    name no generated code uses otherwise (``_p<k>`` for one that is no identifier: an
    expression cannot read it anyway, and user text never reaches code but as a repr)."""
    return f"P_{name}" if isinstance(name, str) and name.isidentifier() else f"_p{k}"


def bound_local(src: str, typ: str, chars: int, elements: int, total: int | None, compiler: Any) -> str:
    """The source of a value of type ``typ`` bound to a local (a declared effect's argument, a
    for_each's element), where the longest string it is or holds is ``chars``, the longest list
    (it or one inside) ``elements``, and what it holds at every depth together ``total`` (None: not
    known, as for a value of type any): its reads weigh a string at MAX_STORED characters at most
    (expr/texts.py) and a list, and what it holds in all, at what a list variable may hold
    (expr/nesting.py local_bounds), so a value that may be or hold a longer one, or more in all, is
    checked where it is bound, as a variable's value is (``_stored``: a runtime error located at
    the item), a list's check counted in the work of what binds it (``compiler.spent``: each
    element it may copy and walk, ``walks.CHECK_WORK``); any other is bound as it is, no check."""
    bound = list_bound(compiler.names.max_list)
    lists = elements > bound or holds_lists(typ) and (total is None or total > bound)
    if lists:   # (a list's check walks it; a string's reads its length)
        compiler.spent += bound * CHECK_WORK
    return stored_source(src, holds_growing(typ)) if lists or chars > MAX_STORED else src


class DeclaredEffects:
    """EffectCompiler methods (building/effects.py) declaring, compiling and calling declared effects."""
    ctx: Any                   # (the EffectCompiler's: the ruleset compiler)
    named: dict                # name -> (params: dict name->type, body, path)
    weight: dict               # declared effect -> worst-case operations of one call
    pass_weight: dict          # declared effect -> the steps its for_each passes may count a call (effects.py charge_pass)
    heaviest: dict             # declared effect -> its costliest expression, its calls' included (bounded.py)
    sites: dict                # declared effect -> the paths of the items calling it
    _compiling: list           # the declared effects being compiled (a call of one of them is a cycle)
    _done: set                 # those compiled
    _too_deep: bool            # a chain of calls past MAX_CALL_DEPTH reported
    compile: Any               # (the EffectCompiler's: an effect list -> its function)
    expr: Any                  # (the EffectCompiler's: an expression -> (source, type))
    access: Any                # (the EffectCompiler's: where what a function touches is noted)

    def declare(self, name, spec, path):
        """Record a declared effect: a list, or {params: {name: type}, do: [...]}."""
        params, body, body_path = {}, spec, path
        if isinstance(spec, dict):
            for pname, ptype in (spec.get("params") or {}).items():
                try:
                    params[pname] = parse_type(str(ptype))
                except ValueError as e:
                    self.ctx.error(str(e), (*path, "params", pname), "type")
                    params[pname] = ANY
            body, body_path = spec.get("do", []), (*path, "do")
        self.named[name] = (params, body, body_path)

    def compile_named(self, name):
        """Compile a declared effect into the namespace as E_<name> (once; cycles are errors),
        and weigh one call, the calls it makes included (``weight``): each call adds it to its
        step's work (``call``), so effects calling effects twice, forty deep, cost what they do."""
        if name in self._done:
            return
        params, body, path = self.named[name]
        self._compiling.append(name)
        compiler = self.ctx.compiler
        spent, outer, sizes, heaviest = compiler.spent, compiler.bound, compiler.local_sizes, self.ctx.heaviest
        passes = self.ctx.pass_steps
        self.ctx.heaviest = HEAVIEST
        # its arguments are its parameters, read by name (not a dict: building one costs more than the call)
        compiler.bound = {p: parameter(p, k) for k, p in enumerate(params)}
        compiler.local_sizes = local_bounds(compiler, params)   # (a list given may be any list variable)
        try:
            fn = self.compile(body, path, params, True, name=f"E_{name}", params=list(compiler.bound.values()))
        finally:
            compiler.bound, compiler.local_sizes = outer, sizes
        self.weight[name], self.heaviest[name] = compiler.spent - spent, self.ctx.heaviest
        self.pass_weight[name] = self.ctx.pass_steps - passes
        compiler.spent, self.ctx.heaviest, self.ctx.pass_steps = spent, heaviest, passes
        self._compiling.pop()
        if fn is not None:   # (its items' locations name the effect they belong to: engine/effectlines.py)
            fn.effect = name
        self.ctx.names.namespace[f"E_{name}"] = fn or (lambda S, me, *args: None)
        self._done.add(name)

    def argument(self, src: str, proven: str, lengths: tuple, want: str, where: str) -> str:
        """``src``, a value proven of type ``proven`` (of a list of ``lengths``: nesting.lengths)
        bound to a local of type ``want`` (a declared effect's parameter, a for_each's element):
        where the load cannot prove it of that type (a value of type any, or made of one:
        expr/types.py ``unproven``), checked where it is bound, as a variable's value is where it
        is stored (engine/values.py ``as_typed``: a runtime error ``where``: what does not fit), the
        check counted in the work of what binds it (mechanics/variables.py ``charge_check``)."""
        if not unproven(proven, want):
            return src
        charge_check(self.ctx, want, lengths)
        self.ctx.names.namespace["_argument"] = as_typed
        return f"_argument(S, {want!r}, {where!r}, {src})"

    def call(self, em, name, spec, path, locals, has_me):
        if name in self._compiling:
            self.ctx.error(f"effect '{name}' calls itself (effects may not recurse)", path, "cycle")
            return
        if len(self._compiling) >= MAX_CALL_DEPTH and name not in self._done:
            if self._too_deep:   # (said once: the effects left out are compiled as chains of their own)
                return
            self._too_deep = True
            self.ctx.error(f"effect '{name}' is called {MAX_CALL_DEPTH + 1} declared effects deep "
                           f"({' -> '.join(self._compiling[:3])} -> ...): at most {MAX_CALL_DEPTH} may call one "
                           f"another in a chain", path, "limit", hint="call the deeper effects from a shallower one")
            return
        params = self.named[name][0]
        args = spec or {}
        if not isinstance(args, dict):
            self.ctx.error(f"effect '{name}' takes a mapping of arguments", path, "effect")
            return
        parts = []
        missing = [k for k in params if k not in args]
        for k, v in args.items():
            if k not in params:
                close = did_you_mean(str(k), params) or (missing[0] if len(missing) == 1 else None)
                takes = f"its arguments: {', '.join(params)}" if params else "it takes no arguments"
                self.ctx.error(f"effect '{name}' has no argument '{k}'", (*path, k), "unknown-name",
                               f"did you mean '{close}'?" if close else takes, key=True, span=len(str(k)))
                continue
            given = self.ctx.expr(v, (*path, k), locals, has_me)
            own, deep, total, _ = given.elements
            src, typ = bound_local(given.source, walked(given.type, given.proven), given.chars, max(own, deep), total, self.ctx.compiler), given.type
            if not fits(typ, params[k]):
                self.ctx.error(f"argument '{k}' of effect '{name}' is declared {params[k]}, got {typ}", (*path, k),
                               "type")
            parts.append((k, self.argument(src, given.proven, given.elements[:2], params[k],
                                           f"argument '{k}' of effect '{name}' is declared {params[k]}")))
        unknown = [k for k in args if k not in params]
        for k in missing:
            if len(missing) == 1 and len(unknown) == 1:
                continue   # a misspelt argument: reported once, with its did-you-mean
            self.ctx.error(f"effect '{name}' needs argument '{k}'", path, "missing-key")
        self.compile_named(name)
        fn = self.ctx.names.namespace.get(f"E_{name}")
        if hasattr(fn, "body"):   # (where it is called from: flowgen.FlowSource.effects writes one called once in place)
            fn.sites = self.sites.setdefault(name, set())
            fn.sites.add(tuple(path))
        self.access.call(name)
        if reads_seat(getattr(fn, "access", None)):   # (called as me: it reads the seat it runs as)
            self.access.me()
        self.ctx.compiler.used.add(name)
        self.ctx.compiler.spent += CALL_WORK + self.weight.get(name, 0)   # each call: part of its caller's work
        self.ctx.compiler.called += CALL_WORK + self.weight.get(name, 0)
        self.ctx.pass_steps += self.pass_weight.get(name, 0)   # (and its for_each passes, weighed at load)
        self.ctx.reached(self.heaviest.get(name, HEAVIEST), name)
        # its parameters in their declared order; as keywords where the arguments are written in
        # another (each evaluated in the order written, so the first to fail is the one it was)
        given = dict(parts)
        if [k for k, _ in parts] == [k for k in params if k in given]:
            args = [given.get(k, "None") for k in params]   # (a missing one was reported: never runs)
        else:
            args = [f"{parameter(k, list(params).index(k))}={src}" for k, src in parts]
        em.calls.append((len(em.lines), em.depth, name, tuple((parameter(k, list(params).index(k)), src)
                                                               for k, src in parts if k in params)))
        em.line(f"E_{name}(S, me{''.join(', ' + a for a in args)})")
