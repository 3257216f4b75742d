"""Finding the ruleset a log's header names: the bundled ruleset of that name if its content
hash matches, else the file at the header's path (relative to the log's folder; an older log's
absolute path as it is), or a file of that name beside the log or in the current folder, each
only if its bytes hash to ``file_hash``: a log can make a replay read no file other than its own
ruleset, nothing of a file is shown unless it is that ruleset, and whether a file it names
exists is never said."""
from __future__ import annotations

from pathlib import Path

from ...building import load
from ...errors import ReplayError, RulebookError
from ...loading.resources import bundled_rulesets
from .gamelog import file_hash, is_overlay

def load_for_log(head: dict, where: str, ruleset=None):
    """The ruleset a log header names: ``ruleset`` if given (the user's own choice, loaded as
    any path is), else found as the module docstring says; the variant the header names.
    Whether a file the header names exists is never said: a file missing, changed, or not
    loading (a variant file's errors are never shown) all give the same message."""
    variant = head.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise ReplayError(f"{where}: line 1: the header's 'variant' is not a name or a file: {variant!r}")
    file = variant if variant is not None and is_overlay(variant) else None   # a variant given as a file
    overlay = file is not None
    if file is not None and not file.endswith((".yaml", ".yml")):
        raise ReplayError(f"{where}: line 1: the header's variant {variant!r} is neither a variant's name nor a "
                          ".yaml file")
    variants = _variant_files(file, where) if file is not None else [variant]
    if ruleset:
        if not overlay:
            try:
                return load(ruleset, variant=variant)
            except RulebookError as e:
                raise ReplayError([*ReplayError(f"{where}: line 1: the ruleset {ruleset} does not load").diagnostics,
                                   *e.diagnostics]) from None
        rules = _overlaid(ruleset, variants, head)
        if rules is None:   # the variant file is the log's choice, not the user's: its lines never shown
            raise ReplayError(f"{where}: line 1: the ruleset {ruleset} with the log's variant file {variant} does not "
                              "load, or is not the game of this log (the file's errors are not shown: run rulebook "
                              "validate on it)")
        return rules
    name, changed = head.get("ruleset"), None
    if isinstance(name, str) and name in bundled_rulesets():
        rules, loaded = _matching(name, variants, head)
        if rules is not None:
            return rules
        if not overlay and head.get("bundled") is True:   # (public: tells nothing of anyone's files)
            changed = loaded
    for path in _candidates(head, where):
        if file_hash(path) != head.get("file_hash"):
            continue          # compared, never read out: nothing of the file is shown, nor that it exists
        if overlay:
            rules = _overlaid(path, variants, head)
            if rules is not None:
                return rules
            continue
        try:
            return load(path, variant=variant)
        except RulebookError as e:   # (the log's own ruleset, by its content: its errors may be shown)
            raise ReplayError([*ReplayError(f"{where}: line 1: the log's ruleset {path} does not load").diagnostics,
                               *e.diagnostics]) from None
    if changed is not None:   # the bundled ruleset of that name, changed since (rules_of says so)
        return changed
    raise ReplayError(f"{where}: line 1: cannot find the ruleset of this log (name {name!r}, hash "
                      f"{str(head.get('hash'))[:12]}): the file it names is not there, or has changed since the "
                      "log was written; pass --ruleset PATH")


def _overlaid(path, variants: list, head: dict):
    """The ruleset at ``path`` with the first of the variant files that loads on it and gives the
    log's game (its content hash), or None; a variant file's errors are never shown."""
    return _matching(path, variants, head)[0]


def _matching(path, variants: list, head: dict) -> tuple:
    """(the ruleset at ``path`` with the first of ``variants`` that loads on it and gives the log's
    game, its content hash, or None; the last that loads, whatever its hash, or None)."""
    loaded = None
    for v in variants:
        try:
            loaded = load(path, variant=v)
        except RulebookError:
            continue
        if loaded.hash == head.get("hash"):
            return loaded, loaded
    return None, loaded


def _is_ruleset_file(p: Path) -> bool:
    """A .yaml/.yml regular file (never a device, a pipe or a folder)."""
    try:
        return p.suffix in (".yaml", ".yml") and p.is_file()
    except (OSError, ValueError):
        return False


def _resolved(raw: str, where: str) -> list[Path]:
    """A path a header names: relative to the log's folder; an older log's absolute path, or a
    variant file's path relative to the current folder, as it is."""
    named = Path(raw)
    return [named] if named.is_absolute() else [Path(where).resolve().parent / named, named]


def _variant_files(variant: str, where: str) -> list[str]:
    """The .yaml/.yml regular files a header's variant file may be."""
    if "\0" in variant:
        return []
    out: list = []
    for p in _resolved(variant, where):
        if _is_ruleset_file(p) and str(p) not in out:
            out.append(str(p))
    return out


def _candidates(head: dict, where: str) -> list[Path]:
    """Ruleset files a header may mean: its path (relative to the log's folder), and a file of
    that name beside the log or in the current folder (only .yaml/.yml regular files: never a
    device, a pipe or a folder)."""
    raw = head.get("path")
    if not isinstance(raw, str) or not raw or "\0" in raw:
        return []
    named = Path(raw)
    out = []
    for p in (_resolved(raw, where)[0], Path(where).resolve().parent / named.name, Path.cwd() / named.name):
        if _is_ruleset_file(p) and p not in out:
            out.append(p)
    return out
