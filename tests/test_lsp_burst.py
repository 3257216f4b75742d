"""The language server's debounce, over its protocol: a burst of edits is checked once, at its
last version. The server is started with a pause of a second (initializationOptions), so
that a burst sent at once is inside it on any machine; nothing is timed but that pause."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

GOOF = (Path(__file__).resolve().parent.parent / "rulesets" / "goofspiel.yaml").read_text()
PAUSE = 1.0   # the server's debounce here, in seconds

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "interpreter", "lsp"]),
                    scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), initialization_options={"debounce": PAUSE}))
    yield
    await lsp_client.shutdown_session()


def _version(k: int) -> str:
    """The text of version ``k``: its own misspelt zone (so its diagnostics tell which version
    was checked) and ``k`` lines more (an edit of several lines: no quick answer, one check)."""
    return GOOF.replace('"suits where seat == p"', f'"suits{k} where seat == p"') + "#\n" * k


async def test_a_burst_of_edits_is_checked_once_at_its_last_version(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = path.resolve().as_uri()
    published: list[types.PublishDiagnosticsParams] = []
    features = client.protocol.fm.features
    record = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lambda params: (published.append(params), record(params))
    try:
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="yaml", version=1, text=GOOF)))
        while not published:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
        assert [(p.version, list(p.diagnostics)) for p in published] == [(1, [])]
        published.clear()
        for k in range(2, 7):   # sent at once: well inside the pause
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=k),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=_version(k))]))
        while not published:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
        await asyncio.sleep(2 * PAUSE)   # a second check would have been started by now
    finally:
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    assert [(p.uri, p.version) for p in published] == [(uri, 6)]
    assert [(d.code, d.range.start.line) for d in published[0].diagnostics] == [
        ("unknown-name", GOOF[:GOOF.index('"suits where seat == p"')].count("\n"))]
    assert "'suits6'" in published[0].diagnostics[0].message



@pytest.mark.parametrize("options, kept", [({"debounce": 0.4}, 0.4), ({"debounce": 0}, 0.0), (None, "default"),
                                           ([1], "default"), ({"debounce": "fast"}, "said"),
                                           ({"debounce": 60}, "said"), ({"debounce": True}, "said")])
async def test_the_debounce_option_is_a_number_of_seconds_or_said_and_the_default_kept(options, kept):
    from types import SimpleNamespace
    from interpreter.lsp import service
    said: list[types.LogMessageParams] = []
    ls = SimpleNamespace(debounce=service.DEBOUNCE, window_log_message=said.append)
    service.on_initialize(ls, types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                     initialization_options=options))
    assert ls.debounce == (service.DEBOUNCE if isinstance(kept, str) else kept)
    assert [(m.type, "initializationOptions.debounce" in m.message) for m in said] == (
        [(types.MessageType.Warning, True)] if kept == "said" else [])
