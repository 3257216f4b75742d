"""The language server on untrusted documents: it reads no file `validate` may not read, and
answers a long or deep text in time linear in it (interpreter/lsp/, docs/security.md)."""
from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from interpreter.loading.source import MAX_DEPTH
from interpreter.lsp import as_names, navigation, scans
from interpreter.lsp.positions import context_at

pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
import test_lsp  # noqa: E402
from test_lsp import GOOF, _open  # noqa: E402

client = test_lsp.client   # (the server: one for the module, as test_lsp's)

ASYNC = pytest.mark.asyncio(loop_scope="module")   # (one server for the module: each test opens its own files)


def _private(tmp_path: Path) -> tuple[Path, str]:
    """A folder ``proj`` and, beside it, a YAML file ``private/notes.yaml`` with ids in a list;
    and a document of ``proj`` extending it, which the loader refuses."""
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "notes.yaml").write_text(
        "accounts:\n  - id: alice_secret\n    token: s3cr3t-alice\n  - id: bob\n    token: s3cr3t-bob\n")
    (tmp_path / "proj").mkdir()
    return tmp_path / "proj" / "evil.yaml", "extends: ../private/notes.yaml\naccounts:\n  $patch:\n    - id: bob\n" \
                                            "      with: {token: x}\n"


@ASYNC
async def test_a_file_outside_the_allowed_folders_is_never_read_shown_or_renamed(client, tmp_path):
    path, text = _private(tmp_path)
    path.write_text(text)
    uri = _open(client, path, text)
    at = dict(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=3, character=12))   # bob
    hover = await client.text_document_hover_async(types.HoverParams(**at))
    assert hover is None or "s3cr3t" not in hover.contents.value and "notes.yaml" not in hover.contents.value
    completion = await client.text_document_completion_async(types.CompletionParams(**at))
    assert "alice_secret" not in [i.label for i in completion.items]
    assert await client.text_document_definition_async(types.DefinitionParams(**at)) is None
    edit = await client.text_document_rename_async(types.RenameParams(**at, new_name="mallory"))
    assert edit is None or set(edit.changes) <= {uri}


def test_bases_are_followed_only_where_loading_follows_them(tmp_path):
    path, text = _private(tmp_path)
    path.write_text(text)
    read = lambda p: Path(p).read_text()   # noqa: E731
    assert navigation.bases(str(path), read) == []
    (tmp_path / "proj" / "base.yaml").write_text(GOOF)
    path.write_text("extends: base.yaml\n")
    assert navigation.bases(str(path), read) == [str(tmp_path / "proj" / "base.yaml")]
    path.write_text("extends: goofspiel\n")   # a bundled ruleset, by its name
    assert [Path(p).name for p in navigation.bases(str(path), read)] == ["goofspiel.yaml"]


def test_a_variant_file_is_looked_for_only_in_the_folder_not_through_a_link_out_of_it(tmp_path):
    path, _ = _private(tmp_path)
    path.write_text(GOOF)
    (tmp_path / "private" / "notes.yaml").write_text("extends: ../proj/evil.yaml\n")   # (read, it would be found)
    (tmp_path / "proj" / "link.yaml").symlink_to(tmp_path / "private" / "notes.yaml")
    (tmp_path / "proj" / "tie.yaml").write_text("extends: evil.yaml\n")
    (tmp_path / "proj" / "nul.yaml").write_text("extends: evil\0.yaml\n")   # (a name no file has)
    seen: list[str] = []

    def read(p: str) -> str:
        seen.append(p)
        return Path(p).read_text()
    assert navigation.extending([str(path)], read) == [str(tmp_path / "proj" / "tie.yaml")]
    assert seen == [str(tmp_path / "proj" / n) for n in ("nul.yaml", "tie.yaml")]


def test_the_context_of_a_cursor_takes_memory_linear_in_the_text():
    """Found by a red team: a first line opening 12,000 list items held the server 10 s and
    600 MB for one hover (each item kept the path of all those above it)."""
    text = "- " * 4000 + "x\nkey: value\n"
    tracemalloc.start()
    try:
        ctx = context_at(text, 1, 3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (ctx.path, ctx.at_key, ctx.before) == ((), True, "key")
    assert peak < 40 * len(text)
    deep = context_at(text, 0, len(text))   # (deeper than a ruleset may nest: the loader's limit)
    assert len(deep.path) == MAX_DEPTH and deep.path[-1] == 0


# the searches completion made at the end of the text before the cursor (quadratic in a long line),
# kept here as the oracle of the backward scans that replace them (lsp/scans.py)
_TAIL = re.compile(r"(?:(?P<owner>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.)?(?P<word>\w*)$")
_INDEXED = re.compile(r"(?P<owner>params\.\w+|[A-Za-z_]\w*)\[\s*(?P<quote>'?)\w*$")
_COMPARED = re.compile(r"(?P<attr>[A-Za-z_]\w*)\s*(?:==|!=|in\s*\[[^\]]*)\s*'?(?P<word>\w*)$")


def test_what_the_text_before_the_cursor_ends_with_is_read_backwards_as_the_searches_read_it():
    rnd = random.Random(7)
    pieces = ["a", "b", "1", "_", "é", ".", " ", "'", "[", "]", "==", "!=", "in", " in ", "params.", "=", "(", ","]
    for _ in range(20_000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randrange(9)))
        tail, indexed, compared = _TAIL.search(text), _INDEXED.search(text), _COMPARED.search(text)
        assert scans.owner_at(text) == (tail.group("owner") if tail else None), text
        assert scans.indexed_at(text) == ((indexed.group("owner"), bool(indexed.group("quote"))) if indexed else None), text
        assert scans.compared_at(text) == ((compared.group("attr"), compared.start()) if compared else None), text
    long = "a" * 100_000 + " "   # (the searches took 15 s on a word of 12,000 letters)
    assert (scans.owner_at(long), scans.indexed_at(long), scans.compared_at(long)) == (None, None, None)
    assert scans.owner_at(long + "p.hand.") == "p.hand" and scans.compared_at(long + "rank == 'q") == ("rank", len(long))


def test_the_names_given_with_as_on_a_long_line_are_read_in_linear_time_and_space():
    """Found by a red team: each `as x where` cut the text from its argument's start (a line of
    them took 28 s). Each name in scope is shown with the text of its list, cut short, and only
    the last WINDOW characters of the expression are read."""
    found = as_names.names_at("".join(f"hand as x{k} where " for k in range(40)))
    assert found["x0"] == "hand" and found["x39"].startswith("hand as x0 where hand") and found["x39"].endswith("…")
    assert sum(map(len, found.values())) <= as_names.MAX_LISTED * len(found)
    found = as_names.names_at("".join(f"hand as x{k} where " for k in range(30_000)))
    assert list(found)[-1] == "x29999" and len(found) < scans.WINDOW
    assert as_names.names_at("count(hand as c where c.rank > 2, by: hand as d where ") == {"c": "hand", "d": "hand"}


def _position(text: str, needle: str) -> types.Position:
    before = text[:text.index(needle)]
    return types.Position(line=before.count("\n"), character=len(before) - (before.rfind("\n") + 1))


@ASYNC
async def test_references_check_the_variant_files_beside_a_base_off_the_event_loop(client, tmp_path):
    """Found by a red team: references on a base checked each of 40 variant files beside it
    on the event loop, and a hover waited 17 s. A hover sent after it is answered first, and the
    variant files past those checked (MAX_CHECKED_FILES) are looked into all the same."""
    base = tmp_path / "goof.yaml"
    base.write_text(GOOF)
    for k in range(40):   # (each a different ruleset: no check reused)
        (tmp_path / f"v{k:02}.yaml").write_text(
            f"extends: goof.yaml\nvars: {{extra{k}: {{type: int, start: {k}}}}}\nend_when: [\"count(taken) > {k}\"]\n")
    uri = _open(client, base, GOOF)
    at = dict(text_document=types.TextDocumentIdentifier(uri=uri), position=_position(GOOF, "taken: {"))
    references = asyncio.ensure_future(client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=True))))
    hover = asyncio.ensure_future(client.text_document_hover_async(types.HoverParams(**at)))
    done, _ = await asyncio.wait([references, hover], return_when=asyncio.FIRST_COMPLETED)
    assert hover in done and references not in done
    found = await references
    assert len({r.uri for r in found}) == 41 and navigation.MAX_SIBLINGS > 40


def _json(position: types.Position) -> dict:
    return {"line": position.line, "character": position.character}


def test_a_refused_rename_is_an_error_answer_and_no_traceback(tmp_path):
    """A rename to a name taken is answered with the error pygls sends for it, and the server
    writes no traceback of it to its standard error."""
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = path.resolve().as_uri()
    messages = [
        {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": GOOF}}},
        {"id": 2, "method": "textDocument/rename", "params": {"textDocument": {"uri": uri}, "newName": "hand",
                                                              "position": _json(_position(GOOF, "lot: {"))}},
        {"id": 3, "method": "shutdown"}, {"method": "exit"}]
    sent = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                    for body in (json.dumps({"jsonrpc": "2.0", **m}).encode() for m in messages))
    done = subprocess.run([sys.executable, "-m", "interpreter", "lsp"], input=sent, capture_output=True, timeout=120)
    answers = [json.loads(part[part.index(b"{"):]) for part in done.stdout.split(b"Content-Length")[1:]]
    rename = next(a for a in answers if a.get("id") == 2)
    assert "already a zone" in rename["error"]["message"]
    assert b"Traceback" not in done.stderr and b"already a zone" not in done.stderr


@ASYNC
async def test_references_of_an_id_look_into_the_variant_files_off_the_event_loop(client, tmp_path):
    """Found by a review: references on an entry's id read and parsed each variant file beside
    the base on the event loop (199 of 62 KB: a hover waited 32.7 s). They are found in the
    worker thread, a hover sent after them answered first, in at most MAX_CHECKED_FILES variant
    files not open of those naming the id."""
    from interpreter.lsp import service
    base = GOOF.replace("  - repeat: params.num_cards\n", "  - id: rounds\n    repeat: params.num_cards\n")
    (tmp_path / "goof.yaml").write_text(base)
    big = "".join(f"  k{i}: [{i}, {i}, {i}, {i}]\n" for i in range(500))   # (20 KB: 16 of them within MAX_LOOKED_BYTES)
    for k in range(service.MAX_CHECKED_FILES + 4):
        (tmp_path / f"v{k:02}.yaml").write_text(
            f"extends: goof.yaml\nflow:\n  $patch:\n    - {{id: rounds, with: {{repeat: {k + 2}}}}}\nmeta:\n{big}")
    for k in range(30):   # (naming no id: not parsed)
        (tmp_path / f"w{k:02}.yaml").write_text(f"extends: goof.yaml\nmeta:\n{big}")
    uri = _open(client, tmp_path / "goof.yaml", base)
    at = dict(text_document=types.TextDocumentIdentifier(uri=uri), position=_position(base, "rounds\n"))
    references = asyncio.ensure_future(client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=True))))
    hover = asyncio.ensure_future(client.text_document_hover_async(
        types.HoverParams(text_document=at["text_document"], position=_position(base, "flow:"))))
    done, _ = await asyncio.wait([references, hover], return_when=asyncio.FIRST_COMPLETED)
    assert hover in done and references not in done
    found = await references
    assert len({r.uri for r in found}) == 1 + service.MAX_CHECKED_FILES


@ASYNC
async def test_references_read_the_variant_files_beside_a_base_within_a_bound_of_bytes(client, tmp_path):
    """Found by a review: references on a base read every variant file beside it whole (200 of
    1.9 MB: 2.9 GB held for 6 requests) and parsed each (100 of 150,000 nodes held the worker
    over 250 s). One request reads MAX_LOOKED_BYTES of them in all; the files past them are
    not read, and the server's log names them."""
    from interpreter.lsp.reading import MAX_LOOKED_BYTES
    base = tmp_path / "goof.yaml"
    base.write_text(GOOF)
    size = MAX_LOOKED_BYTES // 4 - 1000
    for k in range(8):
        head = f"extends: goof.yaml\nend_when: [\"count(taken) > {k}\"]\n# "
        (tmp_path / f"v{k}.yaml").write_text(head + "x" * (size - len(head) - 1) + "\n")
    uri = _open(client, base, GOOF)
    at = dict(text_document=types.TextDocumentIdentifier(uri=uri), position=_position(GOOF, "taken: {"))
    client.log_messages.clear()
    found = await client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=True)))
    assert sorted({Path(r.uri).name for r in found}) == ["goof.yaml", "v0.yaml", "v1.yaml", "v2.yaml", "v3.yaml"]
    said = [m.message for m in client.log_messages if "not looked into" in m.message]
    assert len(said) == 1 and said[0].startswith("4 variant file(s)") and "v4.yaml" in said[0]


def test_references_read_each_file_in_the_worker_a_file_a_step_so_an_edit_waits_for_one(tmp_path, monkeypatch):
    """Found by a review: references read the variant files on the event loop, then checked
    and parsed them all in one call in the worker: an edit's check waited for the whole of it
    (over 200 s). Each file is read there, one a step, so that the check of an edit waits for
    the file being looked into, never the rest."""
    import builtins
    import threading
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace
    from interpreter.lsp import service
    base = tmp_path.resolve() / "goof.yaml"
    base.write_text(GOOF)
    for k in range(4):
        (tmp_path / f"v{k}.yaml").write_text(f"extends: goof.yaml\nvars: {{extra{k}: {{type: int, start: {k}}}}}\n")
    ls = SimpleNamespace(worker=ThreadPoolExecutor(1), checked={}, texts=lambda: {str(base): GOOF},
                         window_log_message=print, navigating=asyncio.Lock())
    checked = service.check(str(base), {str(base): GOOF})
    order: list = []
    main, opened, check = threading.current_thread(), builtins.open, service.check

    def reading(file, *args, **kw):   # (a file read on the event loop's thread: noted)
        if str(file).startswith(str(tmp_path.resolve())) and threading.current_thread() is main:
            order.append(("read on the event loop", Path(file).name))
        return opened(file, *args, **kw)

    def checking(path, texts):   # an edit's check asked while the first file is being checked
        if not order:
            ls.worker.submit(order.append, "an edit's check")
        order.append(Path(path).name)
        return check(path, texts)
    monkeypatch.setattr(builtins, "open", reading)
    monkeypatch.setattr(service, "check", checking)
    try:
        found = asyncio.run(service._references(ls, ("zones", "taken"), checked))
    finally:
        ls.worker.shutdown()
    assert order == ["v0.yaml", "an edit's check", "v1.yaml", "v2.yaml", "v3.yaml"]
    assert {loc.path for loc, _ in found} == {str(base)}


def test_references_waiting_for_another_read_nothing_until_it_is_answered(tmp_path, monkeypatch):
    """Found by a review: 6 references requests pending held 2.9 GB, each its own copy of 200
    variant files. One request runs at a time: a request waiting has read nothing."""
    from concurrent.futures import ThreadPoolExecutor
    from types import SimpleNamespace
    from interpreter.lsp import reading, service
    base = tmp_path.resolve() / "goof.yaml"
    base.write_text(GOOF)
    for k in range(3):
        (tmp_path / f"v{k}.yaml").write_text(f"extends: goof.yaml\nend_when: [\"count(taken) > {k}\"]\n")
    ls = SimpleNamespace(worker=ThreadPoolExecutor(1), checked={}, texts=lambda: {str(base): GOOF},
                         window_log_message=print, navigating=asyncio.Lock())
    checked = service.check(str(base), {str(base): GOOF})
    order: list = []
    beside = reading.Reading.beside
    monkeypatch.setattr(reading.Reading, "beside", lambda self, path: (order.append((id(self), Path(path).name)),
                                                                       beside(self, path))[1])

    async def both():
        return await asyncio.gather(*(service._references(ls, ("zones", "taken"), checked) for _ in range(2)))
    try:
        first, second = asyncio.run(both())
    finally:
        ls.worker.shutdown()
    assert [name for _, name in order] == ["v0.yaml", "v1.yaml", "v2.yaml"] * 2
    assert len({who for who, _ in order[:3]}) == 1 and first == second and len({loc.path for loc, _ in first}) == 4
