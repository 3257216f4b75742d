"""From a path to checked data: YAML with positions -> schema -> extends / variants merged.

A variant is an overlay deep-merged into its base: mappings merge key by key, any other
value (lists included) replaces. Two explicit forms say more:
``{$replace: VALUE}`` replaces a mapping instead of merging, ``{$remove: true}``
deletes the key, and ``{$patch: [...]}`` changes entries of a list named by their ``id:``
(loading/patches.py). A variant is named inline (``variants: {NAME: overlay}``) or is a file
with ``extends: BASE.yaml`` beside its base.
"""
from __future__ import annotations

import copy
import hashlib
import json
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from ..errors import Diagnostic, RulebookError, RulesetError, UsageError, did_you_mean, figure
from .schema import check_schema, load_schema
from .resources import RULESET_FILES, bundled_named, exists, is_file, resolved, resource_dir, within
from . import patches
from .kept import Kept
from .source import MAX_BYTES, MAX_NODES, SourceMap, load_bytes, read_file

MAX_EXTENDS = 8   # depth of extends chains
# an extends: chain's files together hold no more than one file may: its bytes, and its values
# after alias expansion (each a path of the source map) no more than one file's nodes
MAX_CHAIN_BYTES, MAX_CHAIN_VALUES = MAX_BYTES, MAX_NODES


MAX_VARIANTS = 16   # variants declared inside one ruleset file (validate compiles each)


class Loaded:
    """Merged ruleset data, where each part came from, and the variant applied; ``bare``: the
    declared parameters an overlay gave a bare value, by name: the declaration it replaced the
    value of, and where the overlay writes it (building/declarations.py checks the value against
    the values it replaced, as ``--set`` is)."""

    def __init__(self, data: dict, smap: SourceMap, path: str, variant: str | None, text_hash: str,
                 bare: dict | None = None):
        self.data, self.smap, self.path, self.variant, self.hash = data, smap, path, variant, text_hash
        self.bare: dict = bare or {}


def data_key(data) -> str:
    """Merged ruleset data as one comparable text: two variants with equal data are one ruleset."""
    return json.dumps(data, sort_keys=True, default=str)


class Distinct:
    """The merged data of a ruleset and of its variants met so far (``data_key``): a variant
    whose data was met before is the same rules, which validate and the editor compile once."""

    def __init__(self, data):
        self.seen: dict[str, str | None] = {data_key(data): None}

    def met(self, variant: str, data) -> tuple[bool, str | None]:
        """(whether this data was met before, the variant it was met as: None, the ruleset);
        data not met before is noted as ``variant``'s."""
        key = data_key(data)
        if key in self.seen:
            return True, self.seen[key]
        self.seen[key] = variant
        return False, None


def load_data(path, variant: str | None = None, allowed_roots=None, keep_ids: bool = False) -> Loaded:
    """Load a ruleset file, resolve ``extends:`` and apply a variant (name or file path).
    ``keep_ids``: leave the ``id:`` of list entries in (``rulebook diff`` names entries by them)."""
    if variant is not None and not str(variant).strip():   # ("": a mistake, never "no variant")
        raise UsageError("a variant is the name of one under variants: or a file's path, not ''")
    path = Path(path)
    data, smap, digest, bare = _load_chain(path, allowed_roots, 0)
    declared = data.get("variants") if isinstance(data, dict) else None
    if isinstance(declared, dict) and len(declared) > MAX_VARIANTS:
        raise RulesetError(f"{len(declared)} variants declared in one ruleset (limit {MAX_VARIANTS})",
                           smap.key_loc(("variants",)), "limit",
                           hint="validate compiles each one: put the others in variant files (extends: this ruleset)")
    applied = None
    if variant:
        data, smap, digest, applied, bare = _apply_variant(data, smap, digest, path, variant, allowed_roots, bare)
    # (a copy either way: the data read may be kept for the next load, see _read)
    return Loaded(patches.strip_ids(data, strip=not keep_ids), smap, str(path), applied, digest, bare)


# Texts read in place of the files at their (resolved) paths: an editor's unsaved buffers (interpreter/lsp/)
_unsaved: ContextVar[dict | None] = ContextVar("unsaved", default=None)


@contextmanager
def unsaved(texts: dict):
    """Within the block, load these texts (resolved path -> bytes) in place of the files."""
    token = _unsaved.set({str(Path(p).resolve()): raw for p, raw in texts.items()})
    try:
        yield
    finally:
        _unsaved.reset(token)


_files = Kept(2_000_000)   # (path, digest of its bytes) -> (data, source map, checked): about 22 bytes a byte

# the files parsed by a caller's loads over several blocks, whatever _files keeps (parsed_once)
_once: ContextVar[dict | None] = ContextVar("once", default=None)


@contextmanager
def parsed_once(parsed: dict):
    """Within the block, the texts ``unsaved`` gives are all that is loaded (a file not among
    them is not read: an error as an unreadable file is), and each is parsed once by its path
    and content and kept in ``parsed`` (or the error it gave), which later blocks given it read
    again: loads of the same files in many blocks (the language server's references request, a
    file checked a step) parse only the texts the caller read, each once, however large their
    chain is beside what ``_files`` keeps."""
    token = _once.set(parsed)
    try:
        yield
    finally:
        _once.reset(token)


def _read(path: Path):
    """(data, source map, digest, [whether its data passed the schema]) of a ruleset file, kept
    by the file's path and content, so a file loaded again (each variant of a ruleset, a batch
    loading its game in every worker) is read and checked once: the data is shared, never
    changed (every load returns a copy of what it merged, see load_data)."""
    texts, once = _unsaved.get(), _once.get()
    raw = texts.get(str(path.resolve())) if texts else None
    if raw is None and once is not None:
        raise RulesetError(f"cannot read file: {str(path)!r}: not among the files read for this request", code="io")
    raw = read_file(str(path)) if raw is None else raw
    digest = hashlib.sha256(raw).hexdigest()
    key = (str(path), digest)
    found = once.get(key) if once is not None else None
    if found is None:
        try:
            found = _files.get(key, lambda: (*_parsed(raw, path), [False]), len(raw))
        except RulebookError as e:
            if once is None:
                raise
            found = e   # (a file that fails fails the same way each time)
        if once is not None:
            once[key] = found
    if isinstance(found, RulebookError):
        raise copy.copy(found)   # (a copy: whoever catches it may add to it)
    data, smap, passed = found
    return data, smap, digest, passed, len(raw)


def _parsed(raw: bytes, path: Path):
    data, smap = load_bytes(raw, str(path))
    if data is None:
        raise RulesetError(Diagnostic("the ruleset file is empty", None, "empty"))
    if not isinstance(data, dict):
        raise RulesetError(Diagnostic("a ruleset is a mapping (game:, players:, flow: ...)",
                                      smap.loc(()), "schema"))
    return data, smap


def _load_chain(path: Path, allowed_roots, depth, chain: tuple = (), spent: tuple = (0, 0), named_at=None):
    """``spent``: the bytes and values of the files read so far down the chain; ``named_at``:
    where the file that names this one writes its ``extends:``."""
    if depth > MAX_EXTENDS:
        raise RulesetError(f"extends: chain is longer than {MAX_EXTENDS} files", code="limit")
    data, smap, digest, passed, size = _read(path)
    spent = (spent[0] + size, spent[1] + len(smap.entries()))
    if spent[0] > MAX_CHAIN_BYTES or spent[1] > MAX_CHAIN_VALUES:
        over = (f"{figure(spent[0])} bytes, more than the {MAX_CHAIN_BYTES:,}" if spent[0] > MAX_CHAIN_BYTES else
                f"{figure(spent[1])} values (after alias expansion), more than the {MAX_CHAIN_VALUES:,}")
        raise RulesetError(f"the first {depth + 1} files of this extends: chain hold {over} one ruleset file may "
                           "hold", named_at, "limit", hint="a chain of files is loaded as one: keep what it holds within "
                                                   "one file's limits")
    if "extends" not in data:
        if not passed[0]:
            _schema(data, smap)
            passed[0] = True
        return data, smap, digest, {}
    base_path = resolve_extends(path, data["extends"], smap, allowed_roots)
    chain = (*chain, path.resolve())
    if base_path in chain:
        loop = " -> ".join(p.name for p in (*chain[chain.index(base_path):], base_path))
        raise RulesetError(f"extends: '{data['extends']}' makes a cycle ({loop})", smap.loc(("extends",)),
                           "extends", span=len(str(data["extends"])))
    base, base_map, base_digest, bare = _load_chain(base_path, allowed_roots, depth + 1, chain, spent,
                                                    smap.loc(("extends",)))
    overlay = {k: v for k, v in data.items() if k != "extends"}
    merged, mmap, bare = _overlaid(base, base_map, overlay, smap, bare)
    _schema(merged, mmap)
    return merged, mmap, hashlib.sha256((base_digest + digest).encode()).hexdigest(), bare


def resolve_extends(path: Path, target, smap=None, allowed_roots=None) -> Path:
    """The file that ``extends: TARGET`` written in ``path`` names, checked as a load checks it:
    a bundled ruleset's name, or a file in the allowed folders (``path``'s own and below it);
    else a RulesetError (located in ``smap`` when given). The language server follows a file's
    ``extends:`` through it where the file does not load (lsp/navigation.py ``bases``)."""
    if not isinstance(target, str) or not target or "\0" in target:
        raise RulesetError("extends: takes a file name (or a bundled ruleset's name)", _at_extends(smap), "schema")
    bundled = bundled_named(target)
    if bundled is not None and not exists(path.parent / target):
        return bundled        # extends: a bundled ruleset's name, from any folder
    base = resolved(path.parent / target)
    roots = [Path(r).resolve() for r in (allowed_roots or [path.parent])]
    if base is not None and not within(base, roots):
        stem = Path(target).stem
        named = f"extends: {stem} (a bundled ruleset, by its name, from any folder)" \
            if is_file(resource_dir("rulesets") / f"{stem}.yaml") else "extends: NAME (a bundled ruleset's name: see rulebook list)"
        raise RulesetError(f"extends: '{target}' is outside the allowed ruleset folders",
                           _at_extends(smap), "extends", span=len(target),
                           hint=f"a variant file extends a ruleset in its own folder or below it "
                                f"(extends: base.yaml), or write {named}")
    if base is None or not is_file(base):   # (a name too long, a folder not readable: not found too)
        near = did_you_mean(target, sorted(p.name for p in path.parent.glob("*.y*ml") if p != path))
        raise RulesetError(f"extends: file '{target}' not found", _at_extends(smap), "extends",
                           span=len(target), hint=f"did you mean '{near}'?" if near else
                           "the path is relative to the folder of this file")
    return base


def _at_extends(smap):
    return smap.loc(("extends",)) if smap is not None else None


def _apply_variant(data, smap, digest, path, variant, allowed_roots, bare):
    named = data.get("variants") or {}
    if variant in named:
        overlay = named[variant] or {}
        if not isinstance(overlay, dict):
            raise RulesetError(f"variant '{variant}' must be a mapping", smap.loc(("variants", variant)), "schema")
        overlay = {k: v for k, v in overlay.items() if k != "description"}
        merged, mmap, bare = _overlaid(data, smap, overlay, smap.subtree(("variants", variant)), bare)
        _schema(merged, mmap)
        return merged, mmap, hashlib.sha256(f"{digest}:{variant}".encode()).hexdigest(), variant, bare
    vpath = Path(variant)
    if vpath.suffix in RULESET_FILES or exists(vpath):
        if not is_file(vpath):
            raise RulesetError(f"variant file '{variant}' not found", code="variant")
        vdata, vmap, vdigest, _, _ = _read(vpath)
        if "extends" in vdata:   # a variant file names its base itself
            merged, mmap, vdigest, bare = _load_chain(vpath, allowed_roots, 0)
            return merged, mmap, vdigest, str(vpath), bare
        merged, mmap, bare = _overlaid(data, smap, vdata, vmap, bare)
        _schema(merged, mmap)
        return merged, mmap, hashlib.sha256((digest + vdigest).encode()).hexdigest(), str(vpath), bare
    hint = did_you_mean(variant, named)
    known = ", ".join(named) or "none"
    where = smap.key_loc(("variants",)) if "variants" in data else None   # where the names are declared
    raise RulesetError(Diagnostic(f"unknown variant '{variant}' (this ruleset has: {known})", where, "variant",
                                  hint=f"did you mean '{hint}'?" if hint else None, span=len("variants")))


def _schema(data, smap):
    diags = check_schema(data, smap, load_schema())
    if diags:
        raise RulesetError(diags)


def merge(base, overlay, _out=(), _top=(), _plans=None, _where=("base", ())):
    """Deep-merge ``overlay`` into a copy of ``base`` (see the module docstring). The private
    arguments follow a ``$patch`` of a list (loading/patches.py): where this part is in the
    merged data and in the overlay, the plans for the source map, where ``base`` is written."""
    if not isinstance(base, dict) or not isinstance(overlay, dict):
        return _plain(overlay, _top)
    _alone(overlay, _top)
    if isinstance(_plans, patches.Plans):   # (a with: merged again and again into one entry)
        _plans.charge(len(base) + len(overlay), _top)
    out = dict(base)
    for key, value in overlay.items():
        where = (_where[0], (*_where[1], key))
        if patches.is_patch(value):
            if not isinstance(out.get(key), list):
                raise patches.PatchError(f"$patch changes a list: the base has no list at '{key}'", (*_top, key))
            out[key] = patches.apply(out[key], value, (*_out, key), (*_top, key), where, _plans, merge)
        elif isinstance(value, dict) and set(value) == {"$remove"}:
            out.pop(key, None)
        elif isinstance(value, dict) and set(value) == {"$replace"}:
            out[key] = _plain(value["$replace"], (*_top, key, "$replace"))
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value, (*_out, key), (*_top, key), _plans, where)
        else:
            out[key] = _plain(value, (*_top, key))
    return out


_SPECIAL = ("$remove", "$replace", "$patch")


def _alone(value: dict, path: tuple) -> None:
    """``$remove``, ``$replace`` and ``$patch`` stand alone in their mapping: beside other keys
    they would be taken for names (a parameter called "$remove")."""
    special = [k for k in value if k in _SPECIAL]
    if special and len(value) > 1:
        raise patches.PatchError(f"'{special[0]}' stands alone in its mapping ({{{special[0]}: ...}}), "
                                 f"here beside {', '.join(str(k) for k in value if k != special[0])}", path)


def _overlaid(base, base_map: SourceMap, overlay, top_map: SourceMap, bare: dict):
    """``overlay`` merged into ``base``, the source map of the result (each entry of a patched
    list located where it is written: the base's file or the overlay's), and ``bare`` (the
    base's, see Loaded) with the bare values the overlay gives."""
    _known_params(base, overlay, top_map)
    plans = patches.Plans(len(base_map.entries()) + len(top_map.entries()))
    try:
        merged = merge(base, overlay, (), (), plans)
    except patches.PatchError as e:
        raise RulesetError(e.message, top_map.loc(e.path), e.code, hint=e.hint) from None
    mmap = SourceMap.overlay(base_map, top_map)
    if plans:
        mmap = SourceMap(mmap.path, patches.remap(base_map.entries(), top_map.entries(), mmap.entries(), plans))
    return merged, mmap, _bare_values_set_defaults(base, overlay, merged, mmap, top_map, bare)


_VALUE_KEYS = ("by_players", "value", "default")


def _bare_values_set_defaults(base, overlay, merged, mmap: SourceMap, top_map: SourceMap, bare: dict) -> dict:
    """A bare value over a declared parameter (``rounds: 2`` over ``{type: int, min: 1, ...}``)
    is its value for every player count: the declaration keeps its type, bounds and doc, so
    ``--set`` and the value itself are still checked (located at the overlay's value). Over a
    map parameter, a mapping with none of a declaration's keys is such a value too (``_bare``).
    The parameters given bare values: these, and those of ``bare`` whose value the overlay
    leaves (a mapping merged in that gives none of by_players, value, default: a ``doc:``, a
    ``max:``); one it gives a value otherwise, replaces or removes is one no longer."""
    declared, given = base.get("params"), overlay.get("params")
    if not isinstance(given, dict) or not isinstance(declared, dict) or not isinstance(merged.get("params"), dict):
        return bare
    bare = dict(bare)
    for name, value in given.items():
        spec = declared.get(name)
        if not isinstance(spec, dict) or not _bare(value, spec):
            if not (isinstance(value, dict) and isinstance(spec, dict) and not set(value) & {*_VALUE_KEYS, *_SPECIAL}):
                bare.pop(name, None)
            continue
        merged["params"][name] = {**{k: v for k, v in spec.items() if k not in _VALUE_KEYS}, "default": _plain(value)}
        bare[name] = (spec, top_map.loc(("params", name)))
        entries = mmap.entries()
        for path in [p for p in entries if p[:2] == ("params", name) and len(p) > 2]:
            if path[2] in _VALUE_KEYS:
                del entries[path]
        for path in [p for p in top_map.entries() if p[:2] == ("params", name) and len(p) > 2 and p in entries]:
            entries[("params", name, "default") + path[2:]] = entries.pop(path)   # (a map's or list's parts)
        if ("params", name) in entries:
            entries[("params", name, "default")] = entries[("params", name)]
    return bare


def _bare(value, spec: dict) -> bool:
    """Whether an overlay's ``value`` for a parameter the base declares (``spec``) is its value
    rather than part of a declaration to merge into ``spec``: anything but a mapping, and over
    a map parameter (one with a map among its values) a mapping with none of a declaration's
    keys (nor ``$replace``, ``$remove``, ``$patch``)."""
    if not isinstance(value, dict):
        return True
    table = spec.get("by_players")
    values = [spec.get("default"), spec.get("value"), *(table.values() if isinstance(table, dict) else ())]
    return any(isinstance(v, dict) for v in values) and not set(value) & {*_declaration_keys(), *_SPECIAL}


@lru_cache(maxsize=1)
def _declaration_keys() -> frozenset:
    """The keys of a parameter's declaration, as the schema writes them (by_players, default, ...)."""
    forms = load_schema()["properties"]["params"]["additionalProperties"]["anyOf"]
    return frozenset(k for form in forms for k in form.get("properties", ()))


def _known_params(base, overlay, top_map: SourceMap) -> None:
    """A variant sets the parameters its base declares: a name the base does not have is a typo
    (a new parameter would be used by no rule of the base)."""
    declared, given = base.get("params"), overlay.get("params")
    if not isinstance(given, dict) or not isinstance(declared, dict):
        return
    for name in given:
        if name in declared or name in _SPECIAL:
            continue
        near = did_you_mean(str(name), [str(k) for k in declared])
        raise RulesetError(Diagnostic(
            f"unknown parameter '{name}': the base declares {', '.join(map(str, declared)) or 'none'}",
            top_map.key_loc(("params", name)), "variant", span=len(str(name)),
            hint=f"did you mean '{near}'?" if near else "a variant sets the parameters of its base; "
                                                       "declare a new one in the base's params:"))


def _plain(value, path: tuple = ()):
    if isinstance(value, dict):
        _alone(value, path)
        if set(value) == {"$replace"}:
            return _plain(value["$replace"], (*path, "$replace"))
        return {k: _plain(v, (*path, k)) for k, v in value.items() if not (isinstance(v, dict) and set(v) == {"$remove"})}
    if isinstance(value, list):
        return [_plain(v, (*path, i)) for i, v in enumerate(value)]
    return value
