"""The engine's diagnostics as LSP diagnostics, each in the file that wrote it (a variant
file's own errors in the variant file, an error in its base in the base)."""
from __future__ import annotations

import re
from typing import Sequence

from lsprotocol import types

from ..errors import Diagnostic
from .positions import location_range

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


def unique(diagnostics) -> list[Diagnostic]:
    """The diagnostics without repeats (a variant repeats its base's warnings), in order."""
    seen: set = set()
    out = []
    for d in diagnostics:
        key = (d.message, d.loc, d.code, d.severity, d.hint, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def by_file(diagnostics: list[Diagnostic], path: str) -> dict[str, list[Diagnostic]]:
    """The diagnostics grouped by the file they are located in; one without a location goes
    to the checked file ``path`` (an unreadable base, an empty file)."""
    out: dict[str, list[Diagnostic]] = {path: []}
    for d in diagnostics:
        out.setdefault(d.loc.path if d.loc is not None else path, []).append(d)
    return out


def to_lsp(d: Diagnostic, codec, lines: list[str]) -> types.Diagnostic:
    """One diagnostic at its exact range; its hint on the line after the message (and, for a
    did-you-mean, the name suggested as data: the quick fix reads it)."""
    close = DID_YOU_MEAN.search(d.hint or "")
    return types.Diagnostic(
        range=location_range(codec, lines, d.loc, d.span),
        message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=SEVERITY.get(d.severity, types.DiagnosticSeverity.Error),
        code=d.code, source="rulebook",
        data={"replace": close.group(1)} if close else None)


def quick_fixes(uri: str, diagnostics: Sequence[types.Diagnostic]) -> list[types.CodeAction]:
    """A quick fix for each diagnostic with a did-you-mean: the name replaced by the one meant."""
    out = []
    for d in diagnostics:
        name = (d.data or {}).get("replace") if isinstance(d.data, dict) else None
        if not name or d.range.start.line != d.range.end.line or d.range.start == d.range.end:
            continue
        edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(range=d.range, new_text=name)]})
        out.append(types.CodeAction(title=f"Change to '{name}'", kind=types.CodeActionKind.QuickFix,
                                    diagnostics=[d], edit=edit, is_preferred=True))
    return out
