"""A document checked as ``rulebook validate`` checks a file without playouts: loaded (with the
editor's unsaved texts in place of the files), compiled, each inline variant too; never played.

What the builder learnt on the way is kept for completion: the names declared, the keys each
mapping accepts and the locals of each expression, by data path; and for find references, the
places that name a declaration.
"""
from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field

from ..adapters.actions import warnings_of
from ..building.builder import Builder
from ..building.effects import EffectCompiler
from ..errors import Diagnostic, RulebookError
from ..expr.names import Names
from ..expr.reuse import Reusing
from ..loading.kept import Kept, holding
from ..loading.source import SourceMap
from ..loading.variants import Distinct, data_key, load_data, unsaved
from .diagnostics import unique


class Checking(Builder):
    """The builder as the editor needs it: every diagnostic, none of the generated flow code
    (compiling it is half a build; it reports nothing), and each expression's compile reused
    from an earlier check, or the ruleset's build before the variant's (expr/reuse.py)."""

    def __init__(self, loaded):
        super().__init__(loaded)
        self.compiler = Reusing(self.names)

    def generate(self, r) -> None:
        pass

    def card_tables(self, components: dict, error) -> tuple:
        """Kept by the section's data, with the errors it gave (located again in this build)."""
        def made():
            said: list = []
            return super(Checking, self).card_tables(components, lambda *args, **kw: said.append((args, kw))), said
        key = repr(components)
        tables, said = _cards.get(key, made, len(key))
        for args, kw in said:
            error(*args, **kw)
        return tables


class _Naming(EffectCompiler):
    """The effect compiler, noting where an effect names a zone, counter or variable, and an
    item of a list of effects a declared effect."""

    def name(self, value, path, what="name"):
        self.ctx.named_at.add(tuple(path))
        return super().name(value, path, what)

    def item(self, em, item, path, locals, has_me):
        if isinstance(item, str):
            self.ctx.named_at.add(tuple(path))
        return super().item(em, item, path, locals, has_me)


class Recording(Checking):
    """The builder, noting the keys accepted at each mapping, the locals of each expression and
    the places that name a declaration without an expression (a zone's name, a card's key, a
    variable an ``as:`` declares...)."""

    def __init__(self, loaded, allowed: dict, locals_at: dict, types: dict, named_at: set):
        super().__init__(loaded)
        self.allowed, self.locals_at, self.types, self.named_at = allowed, locals_at, types, named_at
        self.fx = _Naming(self)

    def known(self, kind: str, name, pool, path) -> bool:
        self.named_at.add(tuple(path))
        return super().known(kind, name, pool, path)

    def declare_var(self, name, typ, path):
        self.named_at.add(tuple(path))
        return super().declare_var(name, typ, path)

    def check_keys(self, spec, allowed, path, required=()):
        self.allowed[tuple(path)] = tuple(allowed)
        return super().check_keys(spec, allowed, path, required)

    def expr(self, value, path, locals=None, has_me=True, expect=None, tree=None, by_name=False):
        # (the locals, whether 'me' is a player, the type expected, whether it is a whole text)
        self.locals_at[tuple(path)] = (dict(locals or {}), has_me, expect, tree is None)
        fn = super().expr(value, path, locals, has_me, expect, tree, by_name)
        if tree is None and fn.tree is not None:   # (a whole expression that compiled)
            self.types[tuple(path)] = fn.type
        return fn


def _noting(method: str):
    """The builder's ``method(value, path, ...)``, noting ``path`` as a place that names a declaration."""
    def noted(self, value, path, *args, **kw):
        self.named_at.add(tuple(path))
        return getattr(super(Recording, self), method)(value, path, *args, **kw)
    noted.__name__ = method
    return noted


# the BuildContext's ways (mechanics/contract.py) to read a zone or an expression over a card
for _method in ("zone_ref", "zone_at_fn", "owned_zone", "shared_zone", "card_filter", "card_selector",
                "card_key", "element_fn"):
    setattr(Recording, _method, _noting(_method))


@dataclass
class Checked:
    """What checking one document found."""
    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    data: dict | None = None            # the merged data (None: it did not load)
    smap: SourceMap | None = None
    names: Names | None = None          # what the builder declared (also after errors)
    allowed: dict = field(default_factory=dict)     # data path -> keys accepted there
    locals_at: dict = field(default_factory=dict)   # data path -> (locals, has_me, expect, whole)
    types: dict = field(default_factory=dict)       # data path -> the type of the expression there
    named_at: set = field(default_factory=set)      # data paths of names written without an expression
    effects: tuple = ()                 # declared effect names
    text: str | None = None             # the document's text checked
    builder: Builder | None = None      # the builder of the ruleset itself (quick.py compiles with it)


# the card tables of a components: section by its data (nothing changes them once made)
_cards = Kept(2_000_000)


# a ruleset names its game (or, a variant file, its base) at the top; other YAML files an
# editor opens (a CI workflow, a scenario file) are left alone
RULESET = re.compile(r"^(game|extends)\s*:", re.M)


def check(path: str, texts: dict[str, str]) -> Checked:
    """Check the ruleset at ``path``; ``texts``: the open documents by path (unsaved edits).
    A YAML file that is not a ruleset gets nothing."""
    out = Checked(path, text=texts.get(path))
    if out.text is not None and not RULESET.search(out.text):
        return out
    # (holding: each variant's load gets back the files its chain parsed, as validate's do)
    with unsaved({p: t.encode("utf-8") for p, t in texts.items()}), holding():
        try:
            loaded = load_data(path)
        except RulebookError as e:
            out.diagnostics = list(e.diagnostics)
            return out
        out.data, out.smap = loaded.data, loaded.smap
        builder = Recording(loaded, out.allowed, out.locals_at, out.types, out.named_at)
        out.diagnostics = _diagnostics(builder)
        out.names, out.effects, out.builder = builder.names, tuple(builder.fx.named), builder
        distinct = Distinct(loaded.data)
        for variant in (loaded.data.get("variants") or {}):
            try:
                vloaded = load_data(path, variant)
                if distinct.met(variant, vloaded.data)[0]:   # a variant that changes nothing is not compiled again
                    continue
                found = _variant(vloaded)
            except RulebookError as e:
                found = list(e.diagnostics)
            out.diagnostics += found
    out.diagnostics = unique(out.diagnostics)
    return out


YOUNG = 50_000   # allocations between the collector's young passes, in a process that checks (settle)


def settle() -> None:
    """For a process that checks again and again (the server), once its first check is done:
    what that check loaded (the modules, the grammar, the files and code kept) lives as long as
    the process, and is left out of the collector's full passes, which would otherwise walk it
    every few checks (tens of milliseconds each on a large ruleset). A check makes hundreds of
    thousands of objects that live until the next one: a young pass every 700 walks them some
    sixty times a check (a tenth of it on a large ruleset), one every ``YOUNG`` a few times."""
    gc.freeze()
    gc.set_threshold(max(YOUNG, gc.get_threshold()[0]), *gc.get_threshold()[1:])


def _diagnostics(builder: Builder) -> list[Diagnostic]:
    """The errors, or the warnings, of one build; one more warning where the RL adapters would
    refuse the ruleset, as validate gives it."""
    try:
        rules = builder.build()
    except RulebookError as e:
        return list(e.diagnostics)
    except Exception as e:   # a fault of the engine on an untrusted text: said, and the server goes on
        return [Diagnostic(f"internal error while checking this ruleset: {type(e).__name__}: {e}", None, "internal")]
    return warnings_of(rules)


# the last diagnostics of a variant by its file, name and merged data, with the source map they
# were located by: an edit that leaves a variant's data as it was (most edits of a base leave a
# variant file's data, or a value the variant overrides) does not build it again
_variants: dict[tuple, tuple] = {}
VARIANTS_KEPT = 64


def _variant(vloaded) -> list[Diagnostic]:
    """The diagnostics of one variant, reused if its data and the places of its parts are unchanged."""
    kept_key = (vloaded.path, vloaded.variant, data_key(vloaded.data))
    kept = _variants.get(kept_key)
    if kept is not None and _places(kept[0]) == _places(vloaded.smap):
        return list(kept[1])
    found = _diagnostics(Checking(vloaded))
    if len(_variants) >= VARIANTS_KEPT:
        _variants.clear()
    _variants[kept_key] = (vloaded.smap, tuple(found))
    return found


def _places(smap: SourceMap) -> tuple:
    """What a location of the map is computed from, besides the data: each entry's file and
    offsets, and where the lines of its files start. (Not the entries' texts: the map keeps the
    base's entries a variant replaces, and an edit of those leaves the variant as it was.)"""
    entries = smap.entries()
    files = {id(e.file): e.file for e in entries.values()}
    return (tuple((p, e.file.path, e.start, e.end, e.key, e.style) for p, e in entries.items()),
            tuple((f.path, tuple(f.starts)) for f in files.values()))
