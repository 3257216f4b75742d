"""The quick answer to an edit inside an expression (interpreter/lsp/quick.py) gives what the
whole check of the edited text gives, and declines the edits it cannot answer."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")
from interpreter.lsp.checking import check  # noqa: E402
from interpreter.lsp.quick import changed_line, quick  # noqa: E402

GOOF = (Path(__file__).resolve().parent.parent / "rulesets" / "goofspiel.yaml").read_text()
EXPR = 'cards: "suits where seat == p"'


def _same(a, b):
    key = lambda d: (d.loc, d.code, d.message, d.hint, d.span)  # noqa: E731
    return sorted(map(key, a)) == sorted(map(key, b))


@pytest.mark.parametrize("edit", [
    'cards: "siuts where seat == p"',                 # an unknown zone, with its did-you-mean
    'cards: "suits where seat == \'p\'"',             # comparing a number with text
    'cards: "suits where seat == p + 1"',             # still fine
    'cards: "suits where (seat == p"',                # a syntax error
])
def test_the_quick_answer_equals_the_whole_check(tmp_path, edit):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    last = check(str(path), {str(path): GOOF})
    assert last.diagnostics == []
    edited = GOOF.replace(EXPR, edit)
    answer = quick(last, GOOF, edited)
    whole = check(str(path), {str(path): edited}).diagnostics
    assert answer is not None and _same(answer, whole)
    assert (answer != []) == (edit != 'cards: "suits where seat == p + 1"')


def test_it_keeps_the_other_lines_diagnostics_and_replaces_the_edited_lines(tmp_path):
    path = tmp_path / "goof.yaml"
    two = GOOF.replace(EXPR, 'cards: "siuts where seat == p"').replace(
        'if: "count(players where bid[it].value == top) == 1"', 'if: "count(players where bid[it].value == tpo) == 1"')
    path.write_text(two)
    last = check(str(path), {str(path): two})
    assert len(last.diagnostics) == 2
    fixed = two.replace("siuts", "suits")
    answer = quick(last, two, fixed)
    assert answer is not None and _same(answer, check(str(path), {str(path): fixed}).diagnostics)
    assert [d.message for d in answer] == ["unknown name 'tpo'"]


@pytest.mark.parametrize("old, new", [
    ("  lot: {title", "  pot: {title"),                              # a declaration
    ("  box: {}", "  box: {\n"),                                      # more lines
    ('dark: "x"', 'dark: "y"'),                                       # (not in the text: nothing changed)
])
def test_it_declines_what_only_the_whole_check_can_answer(tmp_path, old, new):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    last = check(str(path), {str(path): GOOF})
    assert quick(last, GOOF, GOOF.replace(old, new)) is None


def test_changed_line():
    assert changed_line("a\nb\nc", "a\nB\nc") == 1
    assert changed_line("a\nb\nc", "A\nB\nc") is None
    assert changed_line("a\nb", "a\nb\nc") is None


def test_it_declines_an_edit_of_a_value_written_over_several_lines(tmp_path):
    text = GOOF.replace('- if: "count(players where bid[it].value == top) == 1"',
                        '- if: >-\n          count(players where bid[it].value == top) == 1')
    path = tmp_path / "goof.yaml"
    path.write_text(text)
    last = check(str(path), {str(path): text})
    assert last.diagnostics == []
    assert quick(last, text, text.replace("- if: >-", "- if: >")) is None
