"""What one request of the language server reads and parses of the files around a document, by
count of files and bytes (interpreter/lsp/reading.py, service.py; docs/security.md): a
references request parses each file once for its checks, and only files it read; an entry's
id is looked up in the chain in the worker thread; the variant files are found in one scan."""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

from interpreter.loading import variants
from interpreter.loading.kept import Kept
from interpreter.lsp import navigation, reading, service

from test_lsp import GOOF

COMMENT = "# " + "x" * 98 + "\n"   # (100 bytes a line)


class _Steps(ThreadPoolExecutor):
    """The worker, marking in ``log`` where each step (a call ``_stepped`` hands it) starts."""

    def __init__(self, log: list):
        super().__init__(1)
        self.log = log

    def submit(self, fn, /, *args, **kw):
        def step(*a, **k):
            self.log.append("step")
            return fn(*a, **k)
        return super().submit(step, *args, **kw)


def _counted(monkeypatch, log: list) -> None:
    """Each parse of a file's text noted in ``log``: (by the loader or by a look of navigation,
    the file's name, its bytes, on the event loop's thread or not), and the loader keeping
    nothing between two loads (a chain larger than its store)."""
    main = threading.current_thread()
    load_bytes, load_yaml = variants.load_bytes, navigation.load_yaml

    def loaded(raw, path):
        log.append(("load", Path(path).name, len(raw), threading.current_thread() is main))
        return load_bytes(raw, path)

    def looked(text, path="<string>"):
        log.append(("look", Path(path).name, len(text), threading.current_thread() is main))
        return load_yaml(text, path)
    monkeypatch.setattr(variants, "load_bytes", loaded)
    monkeypatch.setattr(navigation, "load_yaml", looked)
    monkeypatch.setattr(variants, "_files", Kept(0))


def _references(tmp_path: Path, monkeypatch, log: list):
    base = tmp_path.resolve() / "goof.yaml"
    base.write_text(GOOF)
    checked = service.check(str(base), {str(base): GOOF})
    ls = SimpleNamespace(worker=_Steps(log), checked={}, texts=lambda: {str(base): GOOF},
                         window_log_message=lambda message: None, navigating=asyncio.Lock())
    _counted(monkeypatch, log)
    try:
        return asyncio.run(service._references(ls, ("zones", "taken"), checked))
    finally:
        ls.worker.shutdown()


def _parses(log: list) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for e in log:
        if e != "step":
            out[e[:2]] = out.get(e[:2], 0) + 1
    return out


def test_a_references_request_parses_only_the_files_it_read_each_once_a_file_a_step(tmp_path, monkeypatch):
    """Found by a review: the check of each variant file read followed its own extends: chain
    through files the bound on bytes had passed, and loaded that chain again for each variant it
    declares (one request parsed 36.5 MB; one step of a 1.2 KB file 41 MB). A variant file is
    checked only where its chain lies in the files the request read (its loads read no other
    file, whatever its first lines say), and a file is parsed once for the checks of a request
    (and once looked into), one file a step."""
    monkeypatch.setattr(reading, "MAX_LOOKED_BYTES", 20_000)
    previous = "goof.yaml"
    for k in (1, 2, 3):   # w1 <- w2 <- w3, 8 KB each: w3 passes the 20,000 bytes
        (tmp_path / f"w{k}.yaml").write_text(f"extends: {previous}\n" + COMMENT * 80)
        previous = f"w{k}.yaml"
    inline = "variants:\n" + "".join(f"  x{i}: {{vars: {{extra{i}: {{type: int, start: {i}}}}}}}\n" for i in range(8))
    (tmp_path / "on_w2.yaml").write_text(f"extends: w2.yaml\n{inline}")   # (its chain read: checked)
    (tmp_path / "on_w3.yaml").write_text(f"extends: w3.yaml\n{inline}")   # (its chain not all read: not)
    (tmp_path / "lying.yaml").write_text('doc: "a text\nextends: w1.yaml"\nextends: w3.yaml\n')   # (its head lies)
    checked: list[str] = []
    check = service.check
    monkeypatch.setattr(service, "check", lambda path, texts: (checked.append(Path(path).name), check(path, texts))[1])
    log: list = []
    found = _references(tmp_path, monkeypatch, log)
    assert {Path(loc.path).name for loc, _ in found} == {"goof.yaml"}
    parses = _parses(log)
    assert "w3.yaml" not in {name for _, name in parses}   # (passed: never read, never parsed)
    assert checked == ["goof.yaml", "w1.yaml", "lying.yaml", "w2.yaml", "on_w2.yaml"]   # (the document's own check first)
    assert max(parses.values()) == 1   # (each file once by the loads, once looked into)
    assert {name for kind, name in parses if kind == "load"} == {"goof.yaml", "w1.yaml", "lying.yaml", "w2.yaml", "on_w2.yaml"}
    steps = "/".join(e[1] if e != "step" else "|" for e in log).split("|")
    assert max(len([f for f in s.split("/") if f]) for s in steps) == 1   # (one file's parse a step)
    chain = sum((tmp_path / n).stat().st_size for n in ("goof.yaml",))
    assert sum(e[2] for e in log if e != "step") <= 2 * (chain + reading.MAX_LOOKED_BYTES)


def test_hover_on_an_id_parses_the_chain_in_the_worker_a_file_a_step(tmp_path, monkeypatch):
    """Found by a review: hover, completion and definition on an entry's id parsed the whole
    extends: chain on the event loop (a hover of 8.9 s, an outline waiting 8.8 s behind it).
    The files of the chain are read and parsed in the worker thread, one a step."""
    from lsprotocol import types
    base_text = GOOF.replace("  - repeat: params.num_cards\n", "  - id: rounds\n    repeat: params.num_cards\n")
    (tmp_path / "goof.yaml").write_text(base_text + COMMENT * 50)
    path = tmp_path.resolve() / "v.yaml"
    text = "extends: goof.yaml\nflow:\n  $patch:\n    - id: rounds\n      with: {repeat: 2}\n"
    path.write_text(text)
    from pygls.workspace import Workspace
    ls = service.RulebookServer()
    ls.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Incremental)
    log: list = []
    ls.worker = _Steps(log)
    ls.workspace.put_text_document(types.TextDocumentItem(uri=path.as_uri(), language_id="yaml", version=1, text=text))
    ls.checked[str(path)] = service.check(str(path), {str(path): text})
    _counted(monkeypatch, log)
    at = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                           position=types.Position(line=3, character=12))

    async def hover_and_definition():
        hover = service.on_hover(ls, at)
        return await hover if asyncio.iscoroutine(hover) else hover, await service.on_definition(
            ls, types.DefinitionParams(text_document=at.text_document, position=at.position))
    try:
        hover, definition = asyncio.run(hover_and_definition())
    finally:
        ls.worker.shutdown()
    assert "declared at goof.yaml:" in hover.contents.value
    assert definition.uri == (tmp_path.resolve() / "goof.yaml").as_uri()
    assert [e[1] for e in log if e != "step" and e[3]] == ["v.yaml", "v.yaml"]   # (the document's own text: where the cursor is)
    steps = "/".join(e[1] if e != "step" else "|" for e in log if e == "step" or not e[3]).split("|")
    assert max(len([f for f in s.split("/") if f]) for s in steps) == 1
    assert ("look", "goof.yaml") in _parses(log)


def test_the_variant_files_of_a_chain_are_found_with_one_scan_of_each_head(tmp_path, monkeypatch):
    """Found by a review: each pass over the folder matched every file's head again, one pass
    a link of a chain written in reverse name order (199 files: 6.2 s of the worker). Each
    file's extends: is read and followed once."""
    (tmp_path / "goof.yaml").write_text(GOOF)
    names = [f"v{k:02}.yaml" for k in range(40)]
    previous = "goof.yaml"
    for name in reversed(names):   # (v39 extends goof, v38 extends v39, ...)
        (tmp_path / name).write_text(f"extends: {previous}\n")
        previous = name
    heads, followed = [], []
    resolved = navigation.resolved
    monkeypatch.setattr(navigation, "resolved", lambda p: (followed.append(p), resolved(p))[1])
    found = navigation.extending([str(tmp_path / "goof.yaml")], lambda p: (heads.append(p), Path(p).read_text())[1])
    assert [Path(f).name for f in found] == list(reversed(names))
    assert len(heads) == len(names) and len(followed) <= 2 * len(names) + 1


def test_the_locations_of_an_answer_read_each_file_once(tmp_path, monkeypatch):
    """Found while bounding references: each location of an answer read its file's lines again
    (a name written 10,000 times in a file of 400 KB: 4 GB read on the event loop)."""
    from lsprotocol import types
    from pygls.workspace import Workspace
    from interpreter.errors import Location
    path = tmp_path.resolve() / "goof.yaml"
    path.write_text(GOOF)
    ls = service.RulebookServer()
    ls.protocol._workspace = Workspace(None, types.TextDocumentSyncKind.Incremental)
    read: list[str] = []
    file_text = service.file_text
    monkeypatch.setattr(service, "file_text", lambda p: (read.append(p), file_text(p))[1])
    places = [(Location(str(path), line, 1), 4) for line in range(1, 41)]
    found = ls.to_locations(places)
    ls.worker.shutdown()
    assert [f.range.start.line for f in found] == list(range(40)) and read == [str(path)]


def test_a_documents_check_parses_its_chain_once_whatever_the_variants_it_declares(tmp_path, monkeypatch):
    """Found by a review: each variant a document declares loaded its chain again, parsed
    again where the chain is larger than the loader's store (a 1.2 KB file declaring 16
    variants on a chain of 2.4 MB: 41 MB parsed at each check). The check holds what its loads
    parsed, as validate's does."""
    (tmp_path / "goof.yaml").write_text(GOOF)
    (tmp_path / "w1.yaml").write_text("extends: goof.yaml\n" + COMMENT * 80)
    inline = "variants:\n" + "".join(f"  x{i}: {{vars: {{extra{i}: {{type: int, start: {i}}}}}}}\n" for i in range(8))
    path = tmp_path.resolve() / "v.yaml"
    path.write_text(f"extends: w1.yaml\n{inline}")
    log: list = []
    _counted(monkeypatch, log)
    checked = service.check(str(path), {})
    assert checked.data is not None and not [d for d in checked.diagnostics if d.severity == "error"]
    assert _parses(log) == {("load", "v.yaml"): 1, ("load", "w1.yaml"): 1, ("load", "goof.yaml"): 1}
