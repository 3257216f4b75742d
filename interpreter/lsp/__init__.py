"""Stage 9, the editor: ``rulebook lsp``, a language server for rulesets over stdio (pygls).

checking.py loads and checks a document as ``validate`` does (never playing a game), with the
editor's unsaved texts in place of the files; positions.py turns engine locations into LSP
ranges and finds where a cursor is in the YAML; scans.py and as_names.py read the expression
before the cursor; diagnostics.py, completion.py, hover.py and navigation.py answer one kind of
request each; reading.py reads, within a bound, the files around a document that navigation
looks into; service.py wires them to the protocol.
"""
from __future__ import annotations

import argparse

from ..errors import UsageError


def add_lsp(p: argparse.ArgumentParser) -> None:
    p.description = "Serve the Language Server Protocol over stdin/stdout for an editor (docs/editor.md)."


def cmd_lsp(args) -> int:
    try:
        from .service import main   # (pygls: the lsp extra, imported only here)
    except ImportError as e:
        raise UsageError(f"rulebook lsp needs the lsp extra ({e.name} is missing)",
                         hint="pip install 'rulebook[lsp]'") from None
    return main()
