"""The language server's check of a document (interpreter/lsp/checking.py): unsaved texts in
place of the files, what is not a ruleset left alone, a fault of the engine said, not raised."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")
from interpreter.lsp import checking  # noqa: E402

GOOF = (Path(__file__).resolve().parent.parent / "rulesets" / "goofspiel.yaml").read_text()


def test_an_unsaved_text_is_checked_in_place_of_the_file(tmp_path):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)
    edited = GOOF.replace("to: taken}", "to: tkaen}")
    found = checking.check(str(path), {str(path): edited}).diagnostics
    assert [d.message for d in found] == ["unknown zone 'tkaen'"] and found[0].hint == "did you mean 'taken'?"
    assert checking.check(str(path), {}).diagnostics == []      # the file itself is fine


def test_a_yaml_file_that_is_not_a_ruleset_is_not_checked(tmp_path):
    path = tmp_path / "ci.yaml"
    result = checking.check(str(path), {str(path): "on: [push]\n"})
    assert result.diagnostics == [] and result.data is None


def test_a_fault_of_the_engine_is_a_diagnostic(tmp_path, monkeypatch):
    path = tmp_path / "goof.yaml"
    path.write_text(GOOF)

    def broken(self):
        raise ZeroDivisionError("a fault")

    monkeypatch.setattr(checking.Builder, "build", broken)
    found = checking.check(str(path), {str(path): GOOF}).diagnostics
    assert [(d.code, d.loc) for d in found] == [("internal", None)]
    assert "ZeroDivisionError: a fault" in found[0].message


def test_rulebook_lsp_without_the_extra_says_what_to_install(monkeypatch, capsys):
    import sys
    from interpreter.tools.cli import main
    monkeypatch.delitem(sys.modules, "interpreter.lsp.service", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)   # (an import of it fails)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "rulebook lsp needs the lsp extra" in err and "pip install 'rulebook[lsp]'" in err and "Traceback" not in err


def test_a_variant_whose_data_and_places_are_unchanged_is_not_built_again(tmp_path, monkeypatch):
    path = tmp_path / "goof.yaml"
    text = GOOF.split("\nvariants:")[0] + '\nvariants:\n  short:\n    params: {num_cards: 5}\n    define: {stray: "1"}\n'
    built = []
    build = checking.Checking.build

    def counted(self):
        built.append(self.loaded.variant)
        return build(self)

    monkeypatch.setattr(checking.Checking, "build", counted)
    monkeypatch.setattr(checking, "_variants", {})

    def variant_builds(edited: str) -> tuple[int, list]:
        built.clear()
        found = checking.check(str(path), {str(path): edited}).diagnostics
        return built.count("short"), [(str(d.loc), d.message) for d in found]

    assert variant_builds(text)[0] == 1
    stray = f"{path}:{text[:text.index('stray')].count(chr(10)) + 1}"
    # the base's own declaration of num_cards, which the variant replaces: the variant's data is unchanged
    assert "default: 13" in text
    builds, found = variant_builds(text.replace("default: 13", "default: 12"))
    assert builds == 0 and any(loc.startswith(stray) and "'stray'" in m for loc, m in found)
    checking._variants.clear()
    assert variant_builds(text.replace("default: 13", "default: 12"))[1] == found   # as a build says
    # the same data a line lower: built again, its warning where it now is
    builds, found = variant_builds("# a comment\n" + text)
    assert builds == 1 and any(loc.startswith(f"{path}:{int(stray.rsplit(':', 1)[1]) + 1}:") for loc, _ in found)
    assert variant_builds(text.replace("num_cards: 5", "num_cards: 6"))[0] == 1   # its data changed
