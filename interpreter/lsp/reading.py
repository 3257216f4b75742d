"""What one request of the language server reads of the files around a document: the files of
its ``extends:`` chain whole (what ``validate`` of it reads), and for references and rename the
variant files beside them, found by their first ``navigation.HEAD`` characters and read, in
all, within ``MAX_LOOKED_BYTES``: a file that would pass them is not read (``passed`` names
it). The loads of the request's checks parse each file once (``parsed``), and a variant file
is checked only where its own chain lies in the files read (``bases_within``). An open
document is taken as the editor had it when the request came (``texts``): a ``Reading``
touches no state of the server, so that it reads in the worker thread.
"""
from __future__ import annotations

import os

from ..errors import RulebookError
from ..loading.source import read_file
from ..loading.variants import load_data, parsed_once, unsaved
from . import navigation
from .checking import Checked

MAX_LOOKED_BYTES = 500_000   # bytes of the variant files beside a chain one request reads, in all


class Reading:
    """The texts one request reads: ``texts`` the open documents (path -> text)."""

    def __init__(self, texts: dict[str, str]):
        self.texts = texts
        self.left = MAX_LOOKED_BYTES   # (an open document's characters counted as bytes)
        self.passed: list[str] = []    # variant files beside not read: past what is left
        self.parsed: dict = {}         # the files its loads parsed (loading/variants.py parsed_once)

    def text(self, path: str) -> str:
        """A file's whole text, open or on disk."""
        return self.texts[path] if path in self.texts else file_text(path)

    def head(self, path: str) -> str:
        """The first characters of a file (``navigation.HEAD``): enough for its ``extends:`` line."""
        if path in self.texts:
            return self.texts[path][:navigation.HEAD]
        try:
            return read_file(path, navigation.HEAD, head=True).decode("utf-8", "replace")
        except RulebookError:
            return ""

    def chain_files(self, checked: Checked) -> list[str]:
        """The files of the checked document's chain (itself first), where it does not load
        followed by their ``extends:`` lines (their heads read)."""
        return navigation.chain_files(checked) + (
            navigation.bases(checked.path, self.head) if checked.smap is None else [])

    def chain(self, checked: Checked) -> tuple[dict[str, str], list[str]]:
        """The texts of the checked document's chain, and the variant files beside them that
        extend them (read by ``beside``)."""
        paths = self.chain_files(checked)
        return {p: self.text(p) for p in paths}, navigation.extending(paths, self.head)

    def bases_within(self, path: str, files: dict[str, str]) -> list[str] | None:
        """The files ``path`` extends (its base first), found by their heads, if ``files`` (those
        this request read) holds every one; else None: its check would parse files the request
        did not read."""
        found = navigation.bases(path, self.head)
        return found if all(f in files for f in found) else None

    def load(self, path: str, files: dict[str, str]) -> None:
        """Load ``path`` as a check of it loads it, from the texts ``files`` (those this request
        read), its chain parsed once for the whole request (``parsed``): called for each file
        of a chain from its base on, each step parses one file."""
        with unsaved({p: t.encode("utf-8") for p, t in files.items()}), parsed_once(self.parsed):
            try:
                load_data(path)
            except RulebookError:
                pass

    def beside(self, path: str) -> str | None:
        """The text of a variant file beside the chain, counted against what is left to read;
        None past it (the file not read, or unreadable)."""
        if path in self.texts:
            size = len(self.texts[path])
        else:
            try:
                size = os.stat(path).st_size
            except OSError:
                return None
        if size > self.left:
            self.passed.append(path)
            return None
        if path in self.texts:
            text = self.texts[path]
        else:
            try:
                raw = read_file(path, self.left + 1, head=True)
            except RulebookError:
                return None
            if len(raw) > self.left:   # (grown since)
                self.passed.append(path)
                return None
            size, text = len(raw), raw.decode("utf-8", "replace")
        self.left -= size
        return text


def file_text(path: str) -> str:
    """The text of a file on disk ("" where it cannot be read: its load says why)."""
    try:
        return read_file(path).decode("utf-8", "replace")
    except RulebookError:
        return ""
