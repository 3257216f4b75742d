"""The language server: pygls wiring of the checks and answers to the protocol.

A document is checked when it opens and, debounced, after the author stops typing: an edit
of the expressions of one line is answered at once (quick.py), then the whole document is
checked in a worker thread (the loader keeps the files it read and the compiler the code it
generated, so that check compiles again only what changed). The last check answers
completion and hover; navigation waits for the check of the text as it is. No request ever
plays a game.
"""
from __future__ import annotations

import asyncio
import logging
from bisect import bisect_right
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from . import as_names, completion, diagnostics, hover, navigation
from ..loading.variants import parsed_once
from .checking import Checked, check, settle
from .quick import quick
from .reading import MAX_LOOKED_BYTES, Reading, file_text
from .positions import client_range, context_at, location_range, path_of, uri_of, word_at

DEBOUNCE = 0.15   # seconds without a keystroke before a changed document is checked again
MAX_DEBOUNCE = 10.0   # (initializationOptions {"debounce": SECONDS} sets it, up to this)


class Refused(JsonRpcInvalidParams):
    """A request refused for a reason the author is told (a rename to a name already taken):
    pygls answers it with this error, and the traceback it logs of a fault is left out (main)."""


class _Refusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], Refused))


class RulebookServer(LanguageServer):
    def __init__(self):
        super().__init__("rulebook", "0.1.0", text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.checked: dict[str, Checked] = {}      # by document path: the last check
        self.named: dict[str, Checked] = {}        # by document path: the last check that declared names
        self.found: dict[str, dict] = {}           # checked path -> {located file: diagnostics}
        self.pending: dict[str, asyncio.Task] = {}   # by document path: its refresh under way
        self.worker = ThreadPoolExecutor(1)   # the whole checks, one at a time
        self.navigating = asyncio.Lock()      # references and renames, one at a time (each holds its files' texts)
        self.blanked: dict[str, tuple[str, Checked]] = {}   # by path: a text without its line typed, its check
        self.debounce = DEBOUNCE
        self.settled_in = False   # whether the first check's objects are out of the collector's way

    # ------------------------------------------------------------------ documents
    def texts(self) -> dict[str, str]:
        return {path_of(uri): doc.source for uri, doc in self.workspace.text_documents.items()}

    def uri_for(self, path: str) -> str:
        """The URI of a file: the editor's own for an open document (its spelling may differ)."""
        return next((uri for uri in self.workspace.text_documents if path_of(uri) == path), uri_of(path))

    def lines(self, path: str) -> list[str]:
        """The lines of a file: the editor's text when it is open, else the file's."""
        doc = self.workspace.text_documents.get(self.uri_for(path))
        return list(doc.lines) if doc is not None else file_text(path).splitlines(True)

    def run_check(self, path: str) -> Checked:
        """Check one document and publish the diagnostics of every file it touched."""
        task = self.pending.pop(path, None)
        if task is not None:
            task.cancel()
        result = check(path, self.texts())
        self.accept(path, result)
        return result

    def accept(self, path: str, result: Checked) -> None:
        if not self.settled_in:
            settle()
            self.settled_in = True
        self.checked[path] = result
        if result.names is not None:
            self.named[path] = result
        self.show(path, result.diagnostics)

    def show(self, path: str, found: list) -> None:
        """Publish the diagnostics of checking ``path`` in every file they are in (and clear
        those of the files that had some and have none now)."""
        before = set(self.found.get(path, {}))
        self.found[path] = diagnostics.by_file(found, path)
        for file in before | set(self.found[path]):
            self.publish(file)

    async def refresh(self, path: str) -> None:
        """After a pause in typing: the quick answer to an edit inside an expression at once
        (quick.py), then the whole check, in a worker thread so that the server keeps
        answering; a check overtaken by a newer edit is dropped."""
        await asyncio.sleep(self.debounce)
        last = self.checked.get(path)
        text = self.texts().get(path)
        if last is not None and last.text is not None and text is not None:
            answer = quick(last, last.text, text)
            if answer is not None:
                self.show(path, answer)
        texts = self.texts()
        result = await asyncio.get_running_loop().run_in_executor(self.worker, check, path, texts)
        if self.texts() == texts:
            self.accept(path, result)
        if self.pending.get(path) is asyncio.current_task():
            del self.pending[path]

    def publish(self, file: str) -> None:
        found = diagnostics.unique(d for per_file in self.found.values() for d in per_file.get(file, []))
        lines = self.lines(file)
        codec = self.workspace.position_codec
        uri = self.uri_for(file)
        doc = self.workspace.text_documents.get(uri)   # (the version of the text checked: a check overtaken is dropped)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[diagnostics.to_lsp(d, codec, lines) for d in found],
            version=doc.version if doc is not None else None))

    def schedule(self, path: str) -> None:
        """Check ``path`` (and the open documents built on it) once typing pauses."""
        dependents = [p for p, c in self.checked.items() if p != path and path in navigation.chain_files(c)]
        for p in [path, *dependents]:
            if p in self.pending:
                self.pending[p].cancel()
            self.pending[p] = asyncio.ensure_future(self.refresh(p))

    def at(self, uri: str, position: types.Position):
        """(path, the document's text, its line at the position, the column in characters)."""
        doc = self.workspace.get_text_document(uri)
        lines = list(doc.lines)
        if position.line >= len(lines):   # the empty line after the last line break
            return path_of(uri), doc.source, "", position.line, 0
        pos = self.workspace.position_codec.position_from_client_units(lines, position)
        line = lines[pos.line].rstrip("\r\n")
        return path_of(uri), doc.source, line, pos.line, min(pos.character, len(line))

    def current(self, path: str) -> Checked | None:
        """The last check of a document (completion and hover need its names, not the last
        keystroke's)."""
        if path not in self.checked:
            self.run_check(path)
        return self.checked.get(path)

    async def settled(self, path: str) -> Checked | None:
        """The check of the document as it is now (navigation needs its exact positions)."""
        while (task := self.pending.get(path)) is not None:
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:   # overtaken by a newer edit: wait for that one
                if self.pending.get(path) is task:
                    del self.pending[path]
        return self.current(path)

    def for_completion(self, path: str, text: str, line: int) -> Checked | None:
        """The check to complete from: the current one if the text loads; else that of the
        text without the line being typed (a half-written key breaks the YAML), else the last
        check that declared names."""
        checked = self.current(path)
        if checked is not None and checked.data is not None:
            return checked
        lines = text.split("\n")
        if line < len(lines):
            lines[line] = ""
        blanked = "\n".join(lines)
        kept = self.blanked.get(path)
        if kept is None or kept[0] != blanked:   # (each keystroke of the line blanks the same text)
            kept = self.blanked[path] = (blanked, check(path, {**self.texts(), path: blanked}))
        return kept[1] if kept[1].names is not None else self.named.get(path)

    def to_locations(self, places) -> list[types.Location]:
        """The client's locations of (location, width) pairs, the lines of each file taken once
        for them all (not once a location: a name written 10,000 times in a file)."""
        lines: dict[str, list[str]] = {}
        return [types.Location(uri=self.uri_for(loc.path), range=location_range(
            self.workspace.position_codec, lines[loc.path] if loc.path in lines else
            lines.setdefault(loc.path, self.lines(loc.path)), loc, width)) for loc, width in places]


server = RulebookServer()


@server.feature(types.INITIALIZE)
def on_initialize(ls: RulebookServer, params: types.InitializeParams):
    """``initializationOptions: {"debounce": SECONDS}``: the pause in typing waited for."""
    options = params.initialization_options
    wanted = options.get("debounce", DEBOUNCE) if isinstance(options, dict) else DEBOUNCE
    if isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and 0 <= wanted <= MAX_DEBOUNCE:
        ls.debounce = float(wanted)
    else:
        ls.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=(
            f"initializationOptions.debounce: {wanted!r} is not a number of seconds from 0 to {MAX_DEBOUNCE:g}; "
            f"{DEBOUNCE:g} is used")))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulebookServer, params: types.DidOpenTextDocumentParams):
    ls.run_check(path_of(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def did_change(ls: RulebookServer, params: types.DidChangeTextDocumentParams):
    ls.schedule(path_of(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: RulebookServer, params: types.DidSaveTextDocumentParams):
    ls.schedule(path_of(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulebookServer, params: types.DidCloseTextDocumentParams):
    path = path_of(params.text_document.uri)
    task = ls.pending.pop(path, None)
    if task is not None:
        task.cancel()
    ls.checked.pop(path, None)
    ls.named.pop(path, None)
    ls.blanked.pop(path, None)
    for file in ls.found.pop(path, {}):
        ls.publish(file)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", " ", "("]))
async def on_completion(ls: RulebookServer, params: types.CompletionParams):
    path, text, _, line, col = ls.at(params.text_document.uri, params.position)
    ctx = context_at(text, line, col)
    list_key = navigation.patch_list_at(text, path, line, ctx.key) \
        if ctx.key in navigation.PATCH_NAMES and ctx.path[-2:-1] == ("$patch",) else None
    if list_key is not None:   # a change of a variant naming an entry: the ids of that list
        declared = await _declared(ls, list_key, ls.current(path) or Checked(path))
        items = completion.entry_ids(declared, navigation.list_name(list_key))
    else:
        items = completion.complete(ctx, ls.for_completion(path, text, line))
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: RulebookServer, params: types.HoverParams):
    path, text, line_text, line, col = ls.at(params.text_document.uri, params.position)
    found = word_at(line_text, col)
    if found is None:
        return None
    word, start = found
    ctx = context_at(text, line, col)
    checked = ls.current(path) or Checked(path)
    entry = navigation.id_at(text, path, line, col)
    doc: str | None
    if entry is not None:   # the id of a list entry: the entry it names
        declared = await _declared(ls, entry[0], checked)
        doc = hover.id_doc(entry[1], navigation.list_name(entry[0]), declared.get(entry[1]))
    elif line_text[start + len(word):].lstrip().startswith(":") and not line_text[:start].endswith("params."):
        doc = hover.key_doc(word, ctx.path if ctx.at_key else (*ctx.path, ctx.key))
    else:
        doc = None if ctx.at_key else as_names.name_doc(ctx.before[:max(0, len(ctx.before) - (col - start))], word)
        doc = doc or hover.name_doc(word, ctx, ls.named.get(path, checked), line_text[:start].endswith("params."))
        offset = sum(len(x) + 1 for x in text.split("\n")[:line]) + col
        typed = hover.expression_type(checked, text, offset)   # (also where the word is no name)
        doc = f"{doc}\n\n{typed}" if doc and typed else doc or typed
    if not doc:
        return None
    rng = client_range(ls.workspace.position_codec, list(ls.workspace.get_text_document(params.text_document.uri).lines),
                       line, start, len(word))
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc), range=rng)


async def _target(ls: RulebookServer, uri: str, position: types.Position):
    path, text, line_text, line, col = ls.at(uri, position)
    checked = await ls.settled(path)
    if checked is None or checked.data is None:
        checked = ls.named.get(path)
    if checked is None:
        return None, None
    return navigation.target(line_text, col, context_at(text, line, col), checked), checked


async def _entry_id(ls: RulebookServer, uri: str, position: types.Position):
    """(the list's key, the id) of the id of a list entry under the cursor, and the check of
    the document (for its chain of files)."""
    path, text, _, line, col = ls.at(uri, position)
    found = navigation.id_at(text, path, line, col)
    if found is None:
        return None, None
    checked = await ls.settled(path)
    if checked is None or checked.smap is None:   # (a change naming no entry does not load)
        checked = ls.named.get(path, checked)
    return found, checked or Checked(path)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def on_definition(ls: RulebookServer, params: types.DefinitionParams):
    entry, checked = await _entry_id(ls, params.text_document.uri, params.position)
    if entry is not None:
        places = ls.to_locations(await _in_chain(
            ls, checked, lambda one: navigation.id_references(entry[0], entry[1], one, declared_only=True)))
        return places[0] if len(places) == 1 else places or None
    found, checked = await _target(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    loc = navigation.definition(found[0], found[1], checked)
    return ls.to_locations([(loc, len(found[1]))])[0] if loc is not None else None


async def _in_chain(ls: RulebookServer, checked, look) -> list:
    """``look({path: text})`` of each file of the checked document's chain (itself first), in
    order: each file read and parsed in the worker thread, one a step (as references), never on
    the event loop."""
    reading = Reading(ls.texts())
    paths = await _stepped(ls, reading.chain_files, checked)
    return [found for p in paths for found in await _stepped(ls, lambda p: look({p: reading.text(p)}), p)]


async def _declared(ls: RulebookServer, list_key: tuple, checked) -> dict:
    """The ids the entries of that list declare in the files of the checked document's chain
    (``navigation.id_declarations``: the first file declaring one tells it)."""
    out: dict = {}
    for name, found in await _in_chain(ls, checked, lambda one: list(navigation.id_declarations(list_key, one).items())):
        out.setdefault(name, found)
    return out


MAX_CHECKED_FILES = 16   # files of a chain and variant files beside it checked for one references or rename


async def _stepped(ls: RulebookServer, fn, *args):
    """``fn(*args)`` in the worker thread: a request's work done a file at a time there, so that
    a check of an edit waits for one file of it, never the whole."""
    return await asyncio.get_running_loop().run_in_executor(ls.worker, fn, *args)


async def _beside(ls: RulebookServer, checked, reading: Reading, wanted=None) -> dict[str, str]:
    """The texts of the chain and of the variant files beside it, read in the worker thread
    within ``MAX_LOOKED_BYTES`` in all (``wanted(text)``: of the files not open, those it
    accepts, ``MAX_CHECKED_FILES`` at most); the files passed are told in the server's log."""
    files, beside = await _stepped(ls, reading.chain, checked)
    taken = 0
    for p in beside:
        if wanted is not None and taken >= MAX_CHECKED_FILES and p not in reading.texts:
            continue
        text = await _stepped(ls, reading.beside, p)
        if text is not None and (wanted is None or p in reading.texts or wanted(text)):
            files[p] = text
            taken += p not in reading.texts
    if reading.passed:
        ls.window_log_message(types.LogMessageParams(type=types.MessageType.Warning, message=(
            f"{len(reading.passed)} variant file(s) of {checked.path} not looked into: one request reads "
            f"{MAX_LOOKED_BYTES:,} bytes of them at most ({', '.join(reading.passed[:3])}"
            f"{', ...' if len(reading.passed) > 3 else ''})")))
    return files


async def _references(ls: RulebookServer, found, checked):
    """Where the name is written in the files of the chain and the variant files beside it,
    looked into at the places where names are read: as the check of each file found (a variant
    file beside a base may write an expression where the base has none). A file not open is
    checked in the worker thread (the server keeps answering), at most ``MAX_CHECKED_FILES`` of
    them, and only those whose own chain lies in the files read; the others are looked into at
    the places the checked ones read names. Every file is read and parsed there, one a step
    (``_stepped``), the variant files within ``MAX_LOOKED_BYTES``, each file parsed once for the
    checks (``Reading.load``) and once looked into; one request at a time (a request waiting
    holds no text)."""
    async with ls.navigating:
        return await _looked(ls, found, checked)


async def _looked(ls: RulebookServer, found, checked):
    reading, known = Reading(ls.texts()), dict(ls.checked)
    files = await _beside(ls, checked, reading)
    others = [p for p in files if p != checked.path]
    places = navigation.name_places(checked).union(*(navigation.name_places(known[p]) for p in others if p in known))
    taken = 0
    for p in others:
        if p in known or taken >= MAX_CHECKED_FILES:
            continue
        chain = await _stepped(ls, reading.bases_within, p, files)
        if chain is None:   # (its chain passes the files read: looked into at the places of the others)
            continue
        for i in range(len(chain) - 1, -1, -1):   # (a file parsed a step, its base before it, once a request)
            await _stepped(ls, reading.load, chain[i], {f: files[f] for f in chain[i:]})
        places |= await _stepped(ls, _checked_places, reading, p, {**reading.texts, **{f: files[f] for f in (p, *chain)}})
        taken += 1
    out: set = set()
    for p, text in files.items():
        out.update(await _stepped(ls, navigation.references, found[0], found[1], {p: text}, places))
    return sorted(out)


def _checked_places(reading: Reading, path: str, texts: dict[str, str]) -> frozenset:
    """The places where the check of ``path`` reads names, its chain (and that of each variant
    it declares) parsed once for the request."""
    with parsed_once(reading.parsed):
        return navigation.name_places(check(path, texts))


async def _id_references(ls: RulebookServer, entry, checked, new: str | None = None):
    """Where the entry's id is written in the files of the chain and the variant files beside
    it, and (``new``) why it cannot be renamed so, or None: as references of a name are found,
    in the worker thread (the server keeps answering), the variant files not open in the editor
    read and parsed there, of those whose text names the id at all ``MAX_CHECKED_FILES`` at
    most; one request at a time, as ``_references``."""
    async with ls.navigating:
        return await _id_looked(ls, entry, checked, new)


async def _id_looked(ls: RulebookServer, entry, checked, new: str | None):
    reading = Reading(ls.texts())
    files = await _beside(ls, checked, reading, lambda text: str(entry[1]) in text or new is not None and new in text)

    def look(p: str):
        one = {p: files[p]}
        return (navigation.id_rename_problem(entry[0], new, one) if new is not None else None,
                navigation.id_references(entry[0], entry[1], one))
    problem, out = None, set[tuple]()
    for p in files:
        said, places = await _stepped(ls, look, p)
        problem, out = problem or said, out | set(places)
    return problem, sorted(out)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def on_references(ls: RulebookServer, params: types.ReferenceParams):
    entry, checked = await _entry_id(ls, params.text_document.uri, params.position)
    if entry is not None:
        _, ids = await _id_references(ls, entry, checked)
        return ls.to_locations(ids)
    found, checked = await _target(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    return ls.to_locations(await _references(ls, found, checked))


@server.feature(types.TEXT_DOCUMENT_RENAME)
async def on_rename(ls: RulebookServer, params: types.RenameParams):
    entry, checked = await _entry_id(ls, params.text_document.uri, params.position)
    if entry is not None:   # the id of a list entry, and the changes that name it
        problem, places = await _id_references(ls, entry, checked, params.new_name)
    else:
        found, checked = await _target(ls, params.text_document.uri, params.position)
        if found is None:
            raise Refused("no zone, counter, variable, parameter, define, effect or id here to rename")
        problem = navigation.rename_problem(found[0], params.new_name, checked)
        places = [] if problem else await _references(ls, found, checked)
    if problem:
        raise Refused(problem)
    changes: dict[str, list[types.TextEdit]] = {}
    for where in ls.to_locations(places):
        changes.setdefault(where.uri, []).append(types.TextEdit(range=where.range, new_text=params.new_name))
    return types.WorkspaceEdit(changes=changes)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def on_symbols(ls: RulebookServer, params: types.DocumentSymbolParams):
    doc = ls.workspace.get_text_document(params.text_document.uri)
    lines = list(doc.lines)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))
    codec = ls.workspace.position_codec

    def to_range(start: int, end: int) -> types.Range:
        def pos(i):
            line = max(0, min(bisect_right(starts, i) - 1, len(lines) - 1))
            return codec.position_to_client_units(lines, types.Position(line=line, character=i - starts[line]))
        return types.Range(start=pos(start), end=pos(end))

    return navigation.symbols(doc.source, path_of(params.text_document.uri), to_range)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def on_code_action(ls: RulebookServer, params: types.CodeActionParams):
    return diagnostics.quick_fixes(params.text_document.uri, params.context.diagnostics) or None


def main() -> int:
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_Refusals())
    server.start_io()
    return 0

