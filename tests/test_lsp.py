"""The language server (`rulebook lsp`, interpreter/lsp/), driven over its protocol: a client
starts `python -m interpreter lsp` and talks to it as an editor would."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
GOOF = (RULESETS / "goofspiel.yaml").read_text()


# one server for the module (it starts in about a second); each test opens its own files
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "interpreter", "lsp"]),
                    scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _open(client, path: Path, text: str | None = None) -> str:
    uri = path.resolve().as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text() if text is None else text)))
    return uri


async def _diagnostics(client, uri: str):
    """The diagnostics published for ``uri`` (waiting for them: a failure, not a hang, after 60 s)."""
    while uri not in client.diagnostics:
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    return client.diagnostics[uri]


def _find(text: str, needle: str, skip: int = 0) -> types.Position:
    """The position of the start of ``needle`` in ``text`` (0-based line and column)."""
    index = text.index(needle)
    before = text[:index]
    return types.Position(line=before.count("\n"), character=index - (before.rfind("\n") + 1) + skip)


async def test_a_misspelt_zone_is_reported_at_its_range_with_a_did_you_mean_and_a_quick_fix(client, tmp_path):
    text = GOOF.replace('cards: "suits where seat == p"', 'cards: "siuts where seat == p"')
    path = tmp_path / "goof.yaml"
    path.write_text(text)
    uri = _open(client, path)
    found = await _diagnostics(client, uri)
    assert len(found) == 1
    d = found[0]
    start = _find(text, "siuts where")
    assert (d.range.start, d.range.end) == (start, types.Position(line=start.line, character=start.character + 5))
    assert d.code == "unknown-name" and d.severity == types.DiagnosticSeverity.Error
    assert "unknown" in d.message and "did you mean 'suits'?" in d.message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=d.range,
        context=types.CodeActionContext(diagnostics=[d])))
    assert [a.title for a in actions] == ["Change to 'suits'"]
    assert actions[0].edit.changes[uri][0].new_text == "suits"
    assert actions[0].edit.changes[uri][0].range == d.range


async def test_an_edit_is_checked_again_and_a_fix_clears_the_diagnostics(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)
    assert list(await _diagnostics(client, uri)) == []
    line = _find(GOOF, "points: {owner: player").line
    client.diagnostics.clear()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=2),
                              end=types.Position(line=line, character=8)), text="pionts")]))
    found = await _diagnostics(client, uri)
    assert found and any("unknown" in d.message and "'points'" in d.message for d in found)
    client.diagnostics.clear()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=GOOF)]))
    assert list(await _diagnostics(client, uri)) == []


async def test_a_variant_files_error_is_reported_in_the_variant_file(client, tmp_path):
    (tmp_path / "goof.yaml").write_text(GOOF)
    variant = tmp_path / "short.yaml"
    text = "extends: goof.yaml\nparams:\n  num_cards: {type: int, default: 5, min: 1, max: 13}\n" \
           "end_when: [\"count(prizs) == 0\"]\n"
    variant.write_text(text)
    uri = _open(client, variant)
    found = await _diagnostics(client, uri)
    assert len(found) == 1 and "did you mean 'prizes'?" in found[0].message
    assert found[0].range.start == _find(text, "prizs")


async def test_a_yaml_syntax_error_is_located(client, tmp_path):
    path = tmp_path / "broken.yaml"
    text = GOOF.replace("  box: {}", "  box: {", 1)
    path.write_text(text)
    found = await _diagnostics(client, _open(client, path))
    assert len(found) == 1 and found[0].code == "yaml-syntax"
    assert found[0].range.start.line >= _find(text, "  box: {").line


@pytest.mark.parametrize("name", ["goofspiel", "hearts", "kuhn_poker"])
async def test_the_bundled_rulesets_have_no_errors(client, name):
    found = await _diagnostics(client, _open(client, RULESETS / f"{name}.yaml"))
    assert [d.message for d in found if d.severity == types.DiagnosticSeverity.Error] == []


async def _complete(client, uri, position):
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position))
    return {item.label: item for item in result.items}


async def test_completion_inside_an_expression_lists_the_zones_parameters_and_functions(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)
    await _diagnostics(client, uri)
    items = await _complete(client, uri, _find(GOOF, 'count(players where', skip=6))
    for zone in ("prizes", "suits", "box", "lot", "taken", "hand", "spent"):
        assert items[zone].detail.startswith("zone")
    assert "params.num_cards" in items and items["points"].detail.startswith("counter")
    assert {"bid", "top", "me", "num_players", "highest", "count"} <= set(items)
    assert items["highest"].detail == "highest(L, by: N)"
    assert "value" in items and "attribute" in items["value"].detail     # a card attribute
    inside = await _complete(client, uri, _find(GOOF, 'p"}}]', skip=0))   # in for_each (as: p), after 'seat == '
    assert {str(v) for v in range(10)} <= set(inside)                      # the values of the attribute seat
    local = await _complete(client, uri, _find(GOOF, 'suits where seat == p"', skip=0))
    assert local["p"].detail == "local" and "p" not in items
    after = await _complete(client, uri, _find(GOOF, "params.num_cards\n", skip=7))
    assert set(after) == {"num_cards"} and "cards in each suit" in after["num_cards"].documentation.value


async def test_an_element_named_with_as_is_offered_and_explained_within_its_reach(client, tmp_path):
    """Completion offers an element's name given with `as` where it reaches (its filter, a
    by: or to: over it; the inner of two of the same name), not after its filter; hover says
    what it names, at the name and where it is given."""
    expr = "sum(won as w where rank > 3, by: w.rank + count(table as w where w.rank > 1)) + count(won)"
    text = (ROOT / "docs" / "examples" / "little_tricks.yaml").read_text().replace(
        "categories: {points: score}", f'categories:\n    points: score\n    heavy: "{expr}"', 1)
    assert expr in text
    path = tmp_path / "tricks.yaml"
    path.write_text(text)
    uri = _open(client, path)
    assert [d for d in await _diagnostics(client, uri) if d.severity == types.DiagnosticSeverity.Error] == []
    in_by = await _complete(client, uri, _find(text, "w.rank + count", skip=0))
    assert in_by["w"].detail == "element of won (as w)"
    inner = await _complete(client, uri, _find(text, "w.rank > 1", skip=0))
    assert inner["w"].detail == "element of table (as w)"
    after = await _complete(client, uri, _find(text, "won)\"", skip=0))
    assert "w" not in after and "won" in after

    async def hover(pos):
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
        return result.contents.value if result else None

    assert "each element of `won`" in await hover(_find(text, "w.rank + count", skip=0))
    assert "each element of `won`" in await hover(_find(text, "won as w where", skip=7))
    assert "each element of `table`" in await hover(_find(text, "w.rank > 1", skip=0))


async def test_completion_of_keys_follows_the_step_kind(client, tmp_path):
    text = GOOF.replace("          prompt: bid\n", "          pro\n")
    path = tmp_path / "goof.yaml"
    path.write_text(text)
    uri = _open(client, path)
    await _diagnostics(client, uri)
    items = await _complete(client, uri, _find(text, "          pro\n", skip=13))
    assert {"who", "options", "as", "prompt", "then", "simultaneous"} <= set(items)
    top = await _complete(client, uri, types.Position(line=text.count("\n"), character=0))
    assert {"zones", "counters", "flow", "params"} <= set(top)
    flow_item = await _complete(client, uri, _find(text, "      - move: {from: prizes", skip=8))
    assert {"pick", "choose", "move", "deal", "tricks"} <= set(flow_item)


async def test_hover_shows_a_builtins_reference_a_keys_and_a_parameters_value(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)

    async def hover(pos):
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
        return result.contents.value if result else None

    assert "number of elements" in await hover(_find(GOOF, "count(players where", skip=2))
    assert "the expression's type: `bool`" in await hover(_find(GOOF, "count(players where", skip=8))
    assert "the expression's type: `list[card]`" in await hover(_find(GOOF, 'suits where seat == p"', skip=8))
    assert "`owner`" in await hover(_find(GOOF, "owner: player, visible", skip=1))
    shown = await hover(_find(GOOF, "params.num_cards\n", skip=9))
    assert "cards in each suit" in shown and '"default": 13' in shown


async def _at(client, method, uri, position, **extra):
    params = {"text_document_definition_async": types.DefinitionParams,
              "text_document_references_async": types.ReferenceParams}[method]
    return await getattr(client, method)(params(text_document=types.TextDocumentIdentifier(uri=uri),
                                                position=position, **extra))


async def test_definition_jumps_across_extends_and_references_span_the_chain(client, tmp_path):
    base = tmp_path / "goof.yaml"
    base.write_text(GOOF)
    variant = tmp_path / "bonus.yaml"
    text = "extends: goof.yaml\nend_when: [\"count(taken) > 4\"]\n"
    variant.write_text(text)
    uri = _open(client, variant)
    assert list(await _diagnostics(client, uri)) == []
    result = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_find(text, "taken) >", skip=2)))
    assert result.uri == base.resolve().as_uri()
    assert result.range.start == _find(GOOF, "taken: {")
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_find(text, "taken) >"),
        context=types.ReferenceContext(include_declaration=True)))
    assert {(r.uri, r.range.start.line) for r in refs} == {
        (base.resolve().as_uri(), _find(GOOF, "taken: {").line),
        (base.resolve().as_uri(), _find(GOOF, "to: taken").line),
        (uri, 1)}
    base_uri = _open(client, base)   # from the base, the variant file beside it that extends it
    await _diagnostics(client, base_uri)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=base_uri), position=_find(GOOF, "taken: {"), new_name="won"))
    assert {(u, e.range.start.line) for u, edits in edit.changes.items() for e in edits} == {
        (base_uri, _find(GOOF, "taken: {").line), (base_uri, _find(GOOF, "to: taken").line), (uri, 1)}


async def test_rename_a_zone_everywhere_and_refuse_a_taken_name(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)
    await _diagnostics(client, uri)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_find(GOOF, "lot: {"), new_name="pot"))
    lines = GOOF.split("\n")
    for e in edit.changes[uri]:
        assert e.range.start.line == e.range.end.line and e.new_text == "pot"
        line = lines[e.range.start.line]
        lines[e.range.start.line] = line[:e.range.start.character] + "pot" + line[e.range.end.character:]
    renamed = "\n".join(lines)
    assert len(edit.changes[uri]) == GOOF.count("lot") - GOOF.count("lots") and "lot" not in renamed.replace(
        "lots", "").replace("slot", "")
    client.diagnostics.clear()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=renamed)]))
    assert list(await _diagnostics(client, uri)) == []
    with pytest.raises(Exception, match="already a zone"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=_find(renamed, "pot: {"), new_name="hand"))


async def test_document_symbols_outline_the_declarations_and_the_flow(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    by_name = {s.name: s for s in symbols}
    assert {"zones", "counters", "vars", "params", "flow"} <= set(by_name)
    assert [c.name for c in by_name["zones"].children] == ["prizes", "suits", "box", "lot", "taken", "hand", "spent"]
    repeat = by_name["flow"].children[0]
    assert repeat.name == "repeat" and repeat.detail == "params.num_cards"
    assert [c.name for c in repeat.children][:4] == ["move", "choose", "set", "if"]
    assert repeat.range.start == _find(GOOF, "repeat: params", skip=0)


async def test_typing_into_an_expression_is_answered_with_its_diagnostic(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    uri = _open(client, path)
    assert list(await _diagnostics(client, uri)) == []
    at = _find(GOOF, 'suits where seat == p"', skip=1)
    client.diagnostics.clear()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=at, end=types.Position(line=at.line, character=at.character + 2)), text="iu")]))
    found = await _diagnostics(client, uri)
    assert [(d.code, d.range.start.character, d.range.end.character) for d in found] == [
        ("unknown-name", at.character - 1, at.character + 4)]
    assert "did you mean 'suits'?" in found[0].message


async def test_opening_a_variant_file_reports_its_bases_errors_in_the_base(client, tmp_path):
    base_text = GOOF.replace('"suits where seat == p"', '"siuts where seat == p"')
    base = tmp_path / "goof.yaml"
    base.write_text(base_text)
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: goof.yaml\nauto_forced: false\n")
    uri = _open(client, variant)
    found = await _diagnostics(client, base.resolve().as_uri())
    assert [d.range.start for d in found] == [_find(base_text, "siuts")]
    assert list(client.diagnostics.get(uri, [])) == []


async def test_a_yaml_file_that_is_not_a_ruleset_is_left_alone(client, tmp_path):
    path = tmp_path / "ci.yaml"
    path.write_text("on: [push]\njobs:\n  test: {runs-on: ubuntu-latest}\n")
    assert list(await _diagnostics(client, _open(client, path))) == []


async def test_ranges_count_utf16_units_after_a_character_outside_the_bmp(client, tmp_path):
    (tmp_path / "goof.yaml").write_text(GOOF)
    variant = tmp_path / "emoji.yaml"
    text = "extends: goof.yaml\nend_when: [\"'\U0001F600' == 'x' or count(prizs) == 0\"]\n"
    variant.write_text(text, encoding="utf-8")
    found = await _diagnostics(client, _open(client, variant))
    start = text.split("\n")[1].index("prizs") + 1   # the emoji is two UTF-16 code units
    assert [(d.range.start.line, d.range.start.character, d.range.end.character) for d in found] == [
        (1, start, start + 5)]


async def test_completion_of_a_map_parameters_and_a_counter_familys_keys(client, tmp_path):
    path = tmp_path / "euchre.yaml"
    path.write_text((RULESETS / "euchre.yaml").read_text())
    uri = _open(client, path)
    assert [d for d in await _diagnostics(client, uri) if d.severity == types.DiagnosticSeverity.Error] == []
    text = path.read_text()
    items = await _complete(client, uri, _find(text, "params.rank_of[", skip=len("params.rank_of[")))
    assert set(items) == {"'9'", "'T'", "'J'", "'Q'", "'K'", "'A'"}
    family = GOOF.replace("  points: {owner: player, title: points}\n", "  points: {owner: player, title: points}\n  gems: {owner: player, keys: [red, blue]}\n")
    family = family.replace("amount: \"first(lot).value\"", "amount: \"first(lot).value + gems['red']\"")
    path = tmp_path / "gems.yaml"
    path.write_text(family)
    uri = _open(client, path)
    assert list(await _diagnostics(client, uri)) == []
    items = await _complete(client, uri, _find(family, "red']", skip=0))
    assert set(items) == {"red", "blue"}
    items = await _complete(client, uri, _find(family, "gems['red']", skip=0))
    assert items["gems"].detail == "counter family: red, blue"


async def test_diagnostics_go_to_the_uri_the_editor_spelt(client, tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF.replace("to: taken}", "to: tkaen}"))
    uri = (tmp_path / "dir").as_uri() + "/../goof.yaml"   # the same file, spelt otherwise
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text())))
    found = await _diagnostics(client, uri)
    assert [d.code for d in found] == ["unknown-name"]


def _with_ids() -> str:
    """Goofspiel with ids: its rounds (rounds), and in them the reveal and the take (reveal, lot);
    inside those, another list's entry named reveal too."""
    base_text = GOOF.replace("  - repeat: params.num_cards\n", "  - id: rounds\n    repeat: params.num_cards\n")
    base_text = base_text.replace("      - move: {from: prizes, to: lot, count: 1}",
                                  "      - {id: reveal, move: {from: prizes, to: lot, count: 1}}")
    base_text = base_text.replace("          - with_player:", "          - id: reveal       # another list's entry\n"
                                                              "            with_player:")
    return base_text.replace("      - move: {from: lot, to: taken}", "      - {id: lot, move: {from: lot, to: taken}}")


async def test_definition_and_references_of_the_id_of_a_list_entry_across_extends(client, tmp_path):
    base_text = _with_ids()
    base_text += "variants:\n  same:\n    flow: {$patch: [{id: rounds, with: {steps: {$patch: " \
                 "[{id: reveal, with: {move: {count: 1}}}]}}}]}\n"
    base = tmp_path / "goof.yaml"
    base.write_text(base_text)
    variant = tmp_path / "tie.yaml"
    text = "extends: goof.yaml\nflow:\n  $patch:\n    - id: rounds\n      with:\n        steps:\n          $patch:\n" \
           "            - {after: reveal, insert: [{set: {top: \"0\"}}]}\n"
    variant.write_text(text)
    uri, base_uri = _open(client, variant), base.resolve().as_uri()
    assert list(await _diagnostics(client, uri)) == []
    declared = _find(base_text, "reveal, move")
    for at, there in [(_find(text, "reveal, insert", skip=3), declared), (_find(text, "rounds"), _find(base_text, "rounds"))]:
        result = await _at(client, "text_document_definition_async", uri, at)
        assert (result.uri, result.range.start) == (base_uri, there)
    expected = {(u, (p.line, p.character)) for u, p in [
        (base_uri, declared), (base_uri, _find(base_text, "reveal, with")), (uri, _find(text, "reveal, insert"))]}
    refs = await _at(client, "text_document_references_async", uri, _find(text, "reveal, insert"),
                     context=types.ReferenceContext(include_declaration=True))
    assert {(r.uri, (r.range.start.line, r.range.start.character)) for r in refs} == expected   # not the other list's 'reveal'
    assert all(r.range.end.character - r.range.start.character == len("reveal") for r in refs)
    _open(client, base)
    refs = await _at(client, "text_document_references_async", base_uri, declared,
                     context=types.ReferenceContext(include_declaration=True))
    assert {(r.uri, (r.range.start.line, r.range.start.character)) for r in refs} == expected
    result = await _at(client, "text_document_definition_async", base_uri, _find(base_text, "reveal       #"))
    assert (result.uri, result.range.start) == (base_uri, _find(base_text, "reveal       #"))
    broken = tmp_path / "typo.yaml"   # a change naming no entry: the file does not load, its base is still found
    broken.write_text(text.replace("after: reveal", "after: reveel"))
    broken_uri = _open(client, broken)
    assert "did you mean 'reveal'?" in (await _diagnostics(client, broken_uri))[0].message
    result = await _at(client, "text_document_definition_async", broken_uri, _find(text, "rounds"))
    assert (result.uri, result.range.start) == (base_uri, _find(base_text, "rounds"))
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=_find(text, "reveal, insert"), new_name="show"))
    assert {(u, (e.range.start.line, e.range.start.character), e.new_text) for u, edits in edit.changes.items()
            for e in edits} == {(u, p, "show") for u, p in expected}
    with pytest.raises(Exception, match="already the id of an entry of this list"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=_find(text, "reveal, insert"), new_name="lot"))
    zone = await _at(client, "text_document_references_async", base_uri, _find(base_text, "lot: {"),
                     context=types.ReferenceContext(include_declaration=True))   # the zone lot, not the id lot
    assert (_find(base_text, "lot, move").line, _find(base_text, "lot, move").character) not in {
        (r.range.start.line, r.range.start.character) for r in zone}
    assert (_find(base_text, "lot, to: taken").line, _find(base_text, "lot, to: taken").character) in {
        (r.range.start.line, r.range.start.character) for r in zone}


async def test_hover_and_completion_of_the_id_of_a_list_entry(client, tmp_path):
    base_text = _with_ids()
    (tmp_path / "goof.yaml").write_text(base_text)
    text = ("extends: goof.yaml\nflow:\n  $patch:\n    - id: rounds\n      with:\n        steps:\n          $patch:\n"
            "            - after: reveal\n              insert: [{set: {top: \"0\"}}]\n")
    variant = tmp_path / "tie.yaml"
    variant.write_text(text)
    uri = _open(client, variant)
    assert list(await _diagnostics(client, uri)) == []

    async def hover(pos):
        result = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
        return result.contents.value if result else None

    shown = await hover(_find(text, "reveal", skip=2))
    line = base_text[:base_text.index("{id: reveal, move")].count("\n") + 1
    assert shown.startswith(f"**entry `reveal`** of the list `flow.#rounds.steps`, declared at goof.yaml:{line}")
    assert '"move"' in shown and '"prizes"' in shown and "with_player" not in shown   # this list's reveal
    assert "of the list `flow`" in await hover(_find(text, "rounds", skip=1))
    assert set(await _complete(client, uri, _find(text, "reveal"))) == {"reveal", "lot"}
    assert set(await _complete(client, uri, _find(text, "rounds"))) == {"rounds"}
    typo = tmp_path / "typo.yaml"   # (a change naming no entry: the file does not load)
    typo.write_text(text.replace("after: reveal", "after: reveel"))
    typo_uri = _open(client, typo)
    await _diagnostics(client, typo_uri)
    result = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=typo_uri), position=_find(text, "reveal", skip=2)))
    assert "no entry of this list has this id" in result.contents.value
    assert set(await _complete(client, typo_uri, _find(text, "reveal"))) == {"reveal", "lot"}


async def test_references_of_a_zone_are_its_uses_not_a_card_value_of_the_same_word(client, tmp_path):
    text = GOOF.replace('    label: "{value}"\n  bid_card:', '    label: "{value}"\n  token:\n    cards: [{place: taken}]\n'
                        '    label: "taken {place}"\n  bid_card:', 1)
    text += "triggers:\n  seen: {on_enter: taken, do: [{set: {top: 0}}]}\n"
    path = tmp_path / "goof.yaml"
    path.write_text(text)
    uri = _open(client, path)
    assert [d.message for d in await _diagnostics(client, uri) if d.severity == 1] == []
    refs = await _at(client, "text_document_references_async", uri, _find(text, "taken: {"),
                     context=types.ReferenceContext(include_declaration=True))
    assert sorted((r.range.start.line, r.range.start.character) for r in refs) == sorted(
        (p.line, p.character) for p in [_find(text, "taken: {"), _find(text, "to: taken", skip=4), _find(text, "taken, do")])
