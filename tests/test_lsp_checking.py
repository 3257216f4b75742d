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


# ---------------------------------------------------------------- reused compiles (expr/reuse.py)
from interpreter.building.builder import Builder  # noqa: E402
from interpreter.errors import RulebookError  # noqa: E402
from interpreter.expr import reuse  # noqa: E402
from interpreter.expr.compiler import Compiler  # noqa: E402
from interpreter.expr.limits import MAX_SUGGESTION_WORK  # noqa: E402
from interpreter.expr.names import NEIGHBOURS, Names  # noqa: E402
from interpreter.expr.compiler import base_namespace  # noqa: E402
from interpreter.expr.names import Scope  # noqa: E402
from interpreter.expr.parser import ExprError, parse  # noqa: E402
from interpreter.expr.types import CARD, INT, list_of  # noqa: E402
from interpreter.loading.variants import load_data  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


class _Noting(Builder):
    """A whole build (its flow code generated too), noting each expression's compile."""
    reusing = False

    def __init__(self, loaded):
        super().__init__(loaded)
        self.noted: list = []
        if self.reusing:
            self.compiler = reuse.Reusing(self.names)

    def expr(self, value, path, locals=None, has_me=True, expect=None, tree=None, by_name=False):
        fn = super().expr(value, path, locals, has_me, expect, tree, by_name)
        self.noted.append((tuple(path), fn.source, fn.type, fn.distinct, fn.access))
        return fn


class _Reusing(_Noting):
    reusing = True


def _built(cls, loaded) -> tuple:
    b = cls(loaded)
    try:
        r = b.build()
        made: tuple | list = (r.flow_source, r.module_source, [str(w) for w in r.warnings])
    except RulebookError as e:
        made, r = [(str(d.loc), d.message, d.hint) for d in e.diagnostics], None
    steps = [(type(s).__name__, getattr(s, "quiet", None), getattr(getattr(s, "fn", None), "access", None))
             for s in r.steps] if not isinstance(made, list) else []
    effects = [(k, getattr(v, "access", None)) for k, v in b.names.namespace.items() if k.startswith("E_")]
    c = b.compiler
    left = (steps, effects, c.used, c.spent, c.made, c.lambda_vars, c.total_expansions, c.suggestion_work, c.cost,
            b.names.string_literals, b.names.str_concat, sorted(b.names.namespace))
    return b.noted, made, left


@pytest.mark.parametrize("game", ["diamonds_club", "diams", "mister_diamond", "hearts"])
def test_a_reused_compile_is_the_compile_it_stands_for(game, monkeypatch):
    """Every variant of a bundled game built three times: compiling each expression afresh,
    then reusing (the first time, after the other variants' builds; the second, each compile
    kept): the same sources, types and accesses expression by expression, the same generated
    flow code and warnings, the compiler left the same."""
    monkeypatch.setattr(reuse, "_kept", reuse.Kept(1_000_000))
    recorded = []
    record = reuse.Reusing._recorded
    monkeypatch.setattr(reuse.Reusing, "_recorded", lambda self, *a: recorded.append(a) or record(self, *a))
    path = RULESETS / f"{game}.yaml"
    for variant in [None, *(load_data(path).data.get("variants") or {})]:
        loaded = load_data(path, variant)
        fresh = _built(_Noting, loaded)
        assert fresh[0] and _built(_Reusing, loaded) == fresh
        recorded.clear()
        assert _built(_Reusing, loaded) == fresh and not recorded   # (all reused)


def test_a_compile_cut_short_by_a_budget_of_the_ruleset_is_not_reused(monkeypatch):
    """The did-you-mean a compile gave is not given again once the ruleset's budget of them is spent."""
    monkeypatch.setattr(reuse, "_kept", reuse.Kept(1_000_000))
    names = Names(zones={"hand": "player"}, namespace={})

    def hint(compiler) -> str | None:
        with pytest.raises(ExprError) as e:
            compiler.compile("count(hnad)")
        return e.value.hint

    assert hint(reuse.Reusing(names)) == "did you mean 'hand'?"
    spent, fresh = reuse.Reusing(names), Compiler(names)
    spent.suggestion_work = fresh.suggestion_work = MAX_SUGGESTION_WORK
    assert hint(spent) == hint(fresh) is None


def test_card_tables_are_kept_with_their_errors_located_again(tmp_path):
    path = tmp_path / "goof.yaml"
    bad = GOOF.replace("components:", "components:\n  extra: {attributes: {n: '9..1'}}", 1)
    assert bad != GOOF

    def found(text):
        return [(d.loc.line, d.message) for d in checking.check(str(path), {str(path): text}).diagnostics]

    first = found(bad)
    assert [m for _, m in first] == ["bad range '9..1'"]
    assert found("# a comment\n" + bad) == [(first[0][0] + 1, "bad range '9..1'")]


REUSED = ["count(hand where rank > 2) + best", "sum(players, by: count(hand[it] where rank == 3))",
          "best * 2", "params.values[0] + count(pile)", "count(hnad)"]


def _compiles(compiler, texts) -> list:
    """Each text compiled, then its tree's node compiled next (as a target is: effects.py), with
    what the compiler counted, noted (in a record open around it) and made."""
    out = []
    for text in texts:
        with compiler.access.recording() as notes:
            try:
                c = compiler.compile(text)
                made = (c.source, c.type, c.distinct, c.access, c.fn.code,
                        c.fn.__globals__ is compiler.names.namespace)
            except ExprError as e:
                made = (e.message, e.hint, e.offset)
        try:
            node = compiler.node(parse(text), Scope({}, True, []))
        except ExprError as e:
            node = (e.message,)
        out.append((made, node, compiler.cost, compiler.spent, sorted(compiler.used), notes.frozen(),
                    compiler.fresh(), compiler.total_expansions, compiler.suggestion_work))
    return out


def test_a_reused_compile_leaves_the_compiler_as_a_compile_afresh_does(monkeypatch):
    """The same texts after different ones (other element variables made before them): reused
    where they can be, each as compiled afresh in the same place."""
    monkeypatch.setattr(reuse, "_kept", reuse.Kept(1_000_000))
    names = Names(zones={"hand": "player", "pile": "none"}, attrs={"rank": INT},
                  params={"values": list_of(INT)}, param_sizes={"values": 5},
                  defines={"best": "max(map(hand where rank > 1, to: rank))"})
    for first in ([], ["count(pile where rank > 4)"], ["count(pile where rank > 4) + best"]):
        fresh, reused = Compiler(Names(**vars(names))), reuse.Reusing(Names(**vars(names)))
        for c in (fresh, reused):
            c.names.namespace = base_namespace()
        assert _compiles(reused, first + REUSED) == _compiles(fresh, first + REUSED)


def test_a_variant_that_changes_nothing_is_not_built(tmp_path, monkeypatch):
    """As validate (loading/variants.py Distinct): its data is the ruleset's, so are its diagnostics."""
    path = tmp_path / "goof.yaml"
    text = GOOF.split("\nvariants:")[0] + "\nvariants:\n  same:\n    params: {num_cards: {default: 13}}\n" \
                                          "  short:\n    params: {num_cards: {default: 5}}\n"
    built = []
    build = checking.Checking.build
    monkeypatch.setattr(checking.Checking, "build", lambda self: built.append(self.loaded.variant) or build(self))
    monkeypatch.setattr(checking, "_variants", {})
    assert checking.check(str(path), {str(path): text}).diagnostics == []
    assert built == [None, "short"]


def test_a_compile_is_reused_only_with_the_namespace_tables_it_reads(monkeypatch):
    """What a mechanic's function reads of the namespace (a board's neighbours, a card table it
    derives a table from) and the helpers a compile's code calls, put there by an earlier
    compile: as compiled afresh, whatever was compiled before."""
    import interpreter.mechanics  # noqa: F401 (neighbors() and sums() are theirs)
    monkeypatch.setattr(reuse, "_kept", reuse.Kept(1_000_000))

    def compiler(cls, ranks, board):
        names = Names(zones={"hand": "player", "pile": "none"}, attrs={"rank": INT}, namespace=base_namespace())
        names.namespace.update({"A_rank": ranks, **({NEIGHBOURS: ((1,), (0,))} if board else {})})
        return cls(names)

    def run(cls, texts, ranks=(1, 2), board=True):
        c = compiler(cls, ranks, board)
        out = []
        for text in texts:
            try:
                out.append(c.compile(text, {"x": CARD}).source)
            except ExprError as e:
                out.append(e.message)
        return out, {k: v for k, v in c.names.namespace.items() if not callable(v) or k.startswith("_count")}

    first = ["count(pile where rank == 2)", "count(neighbors(x))", "sums(pile, by: rank)"]
    later = ["count(hand where rank == 2) + 1", "count(neighbors(x))", "sums(pile, by: rank)"]
    run(reuse.Reusing, first + later)
    for ranks, board in [((1, 2), True), ((1, 2), False), ((3, 4), True)]:
        assert run(reuse.Reusing, later, ranks, board) == run(Compiler, later, ranks, board)
