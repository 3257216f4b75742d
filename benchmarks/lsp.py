#!/usr/bin/env python3
"""How long the language server takes to answer a keystroke on a 1,000-line ruleset: the
diagnostics of the changed text as LSP ranges, after the debounce; first the quick answer
(the edited expression compiled against the last check, interpreter/lsp/quick.py), then the
whole check that replaces it.

    python benchmarks/lsp.py [--edits 20] [--protocol] [--declaring] [--references]

The ruleset is the bundled diamonds_club.yaml grown to 1,000 lines with invariants (each an
expression). Each edit types one more digit into a number in an expression, so
every text is new (nothing is answered from a cache of whole texts) while the rest of the
file is unchanged, as when someone types. Printed: the median and the slowest of the edits,
wall-clock and CPU time of this process (on a shared machine the CPU time is the steadier). ``--protocol`` also drives ``python -m interpreter
lsp`` over stdio and times each change to its published diagnostics, less the debounce.
``--declaring`` also times the whole check after edits that each declare one more zone: what
the ruleset declares changes, so no compile of an earlier check is reused (the worst case).
``--references`` times, over stdio, a find-references request on the bundled goofspiel.yaml
beside the worst variant files it reads (lsp/reading.py): each a list of as many elements as
fit in half of ``MAX_LOOKED_BYTES`` (two are read and parsed, the rest not), and 20 files of
1 MB (none read); with a hover sent right after it and an edit sent while it runs: when each
is answered (the edit's diagnostics less the debounce).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.loading.resources import resource_dir  # noqa: E402

LINES = 1000


def ruleset(lines: int = LINES) -> str:
    """diamonds_club.yaml with invariants added up to ``lines`` lines (each an expression)."""
    text = (resource_dir("rulesets") / "diamonds_club.yaml").read_text()
    head, rest = text.split("\ninvariants:", 1)
    first, rest = rest.split("\n", 1)
    missing = lines - text.count("\n") - 1
    pads = "".join(f'  - "all(players, by: count(park) + {i} >= 0)"\n' for i in range(missing))
    return f"{head}\ninvariants:{first}\n{pads}{rest}"


def edits(text: str, n: int) -> list[str]:
    """``n`` texts, each one keystroke further into a number in an expression."""
    anchor = "count(park) + 0 >= 0"
    assert anchor in text
    return [text.replace(anchor, f"count(park) + 1{'0' * k} >= 0", 1) for k in range(1, n + 1)]


def declaring(text: str, n: int) -> list[str]:
    """``n`` texts, each declaring one more zone than the one before."""
    assert "\nzones:\n" in text
    return [text.replace("\nzones:\n", "\nzones:\n" + "".join(f"  extra{i}: {{}}\n" for i in range(k)), 1)
            for k in range(1, n + 1)]


def whole(path: Path, texts: list[str]) -> list[float]:
    """CPU seconds of the whole check of each text, after one of the file as it is."""
    from interpreter.lsp.checking import check, settle
    check(str(path), {str(path): path.read_text()})
    settle()
    times = []
    for text in texts:
        c = time.process_time()
        check(str(path), {str(path): text})
        times.append(time.process_time() - c)
    return times


def in_process(path: Path, texts: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    """(wall, CPU) seconds of each edit: its quick answer, and the whole check that follows."""
    from lsprotocol import types
    from pygls.workspace.position_codec import PositionCodec
    from interpreter.lsp.checking import check, settle
    from interpreter.lsp.diagnostics import by_file, to_lsp
    from interpreter.lsp.quick import quick
    codec = PositionCodec(types.PositionEncodingKind.Utf16)
    first = check(str(path), {str(path): path.read_text()})   # on opening: everything read and compiled
    settle()   # (as the server does after its first check)
    times: dict[str, tuple[list[float], list[float]]] = {"quick": ([], []), "whole": ([], [])}
    for text in texts:
        for what, answer in (("quick", lambda text=text: quick(first, first.text, text)),
                             ("whole", lambda text=text: check(str(path), {str(path): text}).diagnostics)):
            w, c = time.perf_counter(), time.process_time()
            found = answer()
            assert found is not None, "the edit was not answered quickly"
            lines = text.splitlines(True)
            for located in by_file(found, str(path)).values():
                [to_lsp(d, codec, lines) for d in located]
            times[what][0].append(time.perf_counter() - w)
            times[what][1].append(time.process_time() - c)
    return times


async def over_protocol(path: Path, texts: list[str]) -> list[float]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from interpreter.lsp.service import DEBOUNCE
    client = LanguageClient("benchmark", "1")
    arrived: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params):
        arrived.put_nowait(time.perf_counter())

    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = path.resolve().as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text())))
    await arrived.get()
    times = []
    for version, text in enumerate(texts, 2):
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        times.append(await arrived.get() - sent - DEBOUNCE)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


async def references(folder: Path) -> dict:
    """Seconds from sending to the answer: a references request on goofspiel.yaml among the
    worst variant files, a hover sent after it, and the diagnostics of an edit sent 0.5 s into it."""
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from interpreter.lsp.reading import MAX_LOOKED_BYTES
    from interpreter.lsp.service import DEBOUNCE
    text = (resource_dir("rulesets") / "goofspiel.yaml").read_text()
    (folder / "goof.yaml").write_text(text)
    for k in range(6):   # the densest YAML: two bytes an element, each within half the bound
        head = f"extends: goof.yaml\nvars: {{extra{k}: {{type: int, start: 0}}}}\njunk: ["
        (folder / f"v{k}.yaml").write_text(head + "1," * ((MAX_LOOKED_BYTES // 2 - 5_000 - len(head)) // 2) + "]\n")
    for k in range(20):
        (folder / f"w{k:02}.yaml").write_text("extends: goof.yaml\n# " + "x" * 1_000_000 + "\n")
    client = LanguageClient("benchmark", "1")
    arrived: asyncio.Queue = asyncio.Queue()
    said: list[str] = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params):
        arrived.put_nowait((time.perf_counter(), params.version))

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def _logged(params):
        said.append(params.message)

    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(ROOT))
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = (folder / "goof.yaml").resolve().as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=text)))
    await arrived.get()
    before = text[:text.index("taken: {")]
    at = dict(text_document=types.TextDocumentIdentifier(uri=uri),
              position=types.Position(line=before.count("\n"), character=len(before) - before.rfind("\n") - 1))
    sent = time.perf_counter()
    found = asyncio.ensure_future(client.text_document_references_async(
        types.ReferenceParams(**at, context=types.ReferenceContext(include_declaration=True))))
    hover = asyncio.ensure_future(client.text_document_hover_async(types.HoverParams(**at)))
    hovered = (await hover, time.perf_counter())[1]
    await asyncio.sleep(0.5)
    changed = time.perf_counter()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "\nbogus: 1\n")]))
    while (got := await arrived.get())[1] != 2:
        pass
    places = await found
    answered = time.perf_counter()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return {"references": answered - sent, "files": len({p.uri for p in places}), "hover": hovered - sent,
            "edit": got[0] - changed - DEBOUNCE, "read": 26 - sum(int(m.split()[0]) for m in said if "not looked into" in m)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edits", type=int, default=20, help="keystrokes timed (default 20)")
    ap.add_argument("--protocol", action="store_true", help="also time the server over stdio")
    ap.add_argument("--declaring", action="store_true", help="also time the whole check after edits declaring a zone")
    ap.add_argument("--references", action="store_true", help="only time a references request among the worst variant files")
    args = ap.parse_args()
    if args.references:
        with tempfile.TemporaryDirectory() as tmp:
            got = asyncio.run(references(Path(tmp)))
        print(f"references answered in {got['references']:.1f} s ({got['read']} of the 26 variant files read, "
              f"the others named in the server's log); a hover sent after it in {got['hover']:.2f} s; an edit's "
              f"diagnostics {got['edit']:.1f} s after it was sent, less the debounce")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.yaml"
        path.write_text(ruleset())
        texts = edits(path.read_text(), args.edits)
        print(f"{path.read_text().count(chr(10))} lines, {args.edits} edits")
        ms = lambda xs: f"median {statistics.median(xs) * 1000:.1f} ms, slowest {max(xs) * 1000:.1f} ms"  # noqa: E731
        for what, (wall, cpu) in in_process(path, texts).items():
            name = {"quick": "the answer to the keystroke (quick.py)", "whole": "the whole check after it"}[what]
            print(f"{name}: wall {ms(wall)}; CPU {ms(cpu)}")
        if args.declaring:
            print(f"the whole check after an edit declaring a zone: CPU {ms(whole(path, declaring(path.read_text(), args.edits)))}")
        if args.protocol:
            print(f"over stdio, a change to its first diagnostics, less the debounce: "
                  f"{ms(asyncio.run(over_protocol(path, texts)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
