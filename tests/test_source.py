import time

import pytest

from interpreter.loading import source
from interpreter.errors import Location, RulesetError
from interpreter.loading.source import MAX_BYTES, MAX_DEPTH, SourceMap, load_file, load_yaml
from helpers import points_race


# Every test runs with libyaml's event parser (when installed) and with PyYAML's own.
@pytest.fixture(autouse=True, params=["libyaml", "python"])
def parser(request, monkeypatch):
    if request.param == "libyaml":
        if source.CParser is None:
            pytest.skip("PyYAML without libyaml")
    else:
        monkeypatch.setattr(source, "_LOADER", source._PyLoader)

DOC = """\
game: demo
players: {min: 3, max: 6}
flow:
  - repeat: params.rounds
    steps:
      - shuffle: main
      - deal: {from: main, count: 10}
"""


def L(line, col, path="r.yaml"):
    return Location(path, line, col)


def load(text):
    return load_yaml(text, "r.yaml")


# --- data --------------------------------------------------------------------------------

def test_plain_data():
    data, _ = load(DOC)
    assert data == {"game": "demo", "players": {"min": 3, "max": 6},
                    "flow": [{"repeat": "params.rounds",
                              "steps": [{"shuffle": "main"}, {"deal": {"from": "main", "count": 10}}]}]}


def test_yaml_12_scalars():
    data, _ = load("[yes, no, on, off, y, n, true, False, TRUE, ~, null, '', 2024-01-01, 0x10, 0o7, 007, "
                   "1_000, -3, +4, 1.5, 1e3, .5, .inf, -.inf, '3', !!str 4, !!float 2]")
    assert data[:6] == ["yes", "no", "on", "off", "y", "n"]
    assert data[6:12] == [True, False, True, None, None, ""]
    assert data[12:15] == ["2024-01-01", "0x10", "0o7"]
    assert data[15:20] == [7, 1000, -3, 4, 1.5]
    assert data[20:24] == [1000.0, 0.5, float("inf"), float("-inf")]
    assert data[24:] == ["3", "4", 2.0]
    assert [type(x) for x in data[15:18]] == [int, int, int]


def test_nan_is_a_float():
    data, _ = load("x: .nan")
    assert data["x"] != data["x"]


def test_empty_value_and_empty_document():
    assert load("a:\n")[0] == {"a": None}
    data, smap = load("# only a comment\n")
    assert data is None and smap.loc(()) == L(1, 1)


def test_keys_are_strings():
    data, _ = load("by_players: {3: 6, 4: 4, true: 1, null: 2}")
    assert data == {"by_players": {"3": 6, "4": 4, "true": 1, "null": 2}}


def test_merge_keys():
    data, smap = load("base: &b {a: 1, b: 2}\nother: &o {c: 5}\nx:\n  <<: [*b, *o]\n  b: 3\n")
    assert data["x"] == {"a": 1, "b": 3, "c": 5}
    assert smap.loc(("x", "a")) == L(1, 14)   # merged values stay located in the anchor
    assert smap.loc(("x", "b")) == L(5, 6)    # the explicit key wins


def test_aliases_copy_data():
    data, _ = load("a: &x [1, 2]\nb: *x\n")
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_bytes_input_and_bom():
    assert load("\ufeffa: 1".encode())[0] == {"a": 1}


# --- errors --------------------------------------------------------------------------------

def err(text) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load(text)
    assert len(info.value.diagnostics) == 1
    return info.value


def test_duplicate_key_located_at_second():
    e = err("a: 1\nb:\n  c: 1\n  c: 2\n")
    assert (e.loc, e.diagnostics[0].code) == (L(4, 3), "duplicate-key")
    assert "duplicate key 'c'" in e.message and "line 3" in e.diagnostics[0].hint


def test_duplicate_key_across_quoting_styles():
    assert err("'3': a\n3: b\n").loc == L(2, 1)


@pytest.mark.parametrize("text,col", [
    ("x: !!python/object/apply:os.system ['echo hi']\n", 4),
    ("x: !!python/name:os.system ''\n", 4),
    ("x: !custom 1\n", 4),
    ("x: !!timestamp 2020-01-01\n", 4),
    ("x: !!set {a, b}\n", 4),
])
def test_forbidden_tags(text, col):
    e = err(text)
    assert e.diagnostics[0].code == "tag" and "not allowed" in e.message and e.loc == L(1, col)


def test_python_tag_never_executes(tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(RulesetError):
        load(f"!!python/object/apply:os.system ['touch {marker}']")
    assert not marker.exists()


def test_invalid_explicit_scalar():
    e = err("a: !!int abc\n")
    assert e.diagnostics[0].code == "type" and e.loc == L(1, 10)


def test_syntax_error_location():
    e = err("a: 1\nb: [1, 2\nc: 3\n")
    assert e.diagnostics[0].code == "yaml-syntax"
    assert e.loc.line == 3 and e.loc.col == 2
    e = err("a:\n  b: 1\n c: 2\n")
    assert e.diagnostics[0].code == "yaml-syntax" and e.loc == L(3, 2)


def test_syntax_error_formats_source_line():
    text = str(err("a: 1\nb: : x\n"))
    assert text.splitlines()[1:3] == ["    b: : x", "       ^"]


def test_multiple_documents_rejected():
    assert err("a: 1\n---\nb: 2\n").diagnostics[0].code == "yaml-syntax"


def test_non_printable_character():
    e = err("a: 1\nb: \x00\n")
    assert e.diagnostics[0].code == "encoding" and e.loc == L(2, 4)


def test_binary_input():
    with pytest.raises(RulesetError) as info:
        load_yaml(b"a: 1\nb: \xff\xfe\x00", "bin.yaml")
    assert info.value.loc == Location("bin.yaml", 2, 4) and "UTF-8" in info.value.message


def test_alias_bomb_rejected_fast():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    start = time.perf_counter()
    e = err("\n".join(lines) + "\n")
    assert time.perf_counter() - start < 0.5
    assert e.diagnostics[0].code == "limit" and "alias" in e.message and e.loc.line == 6


def test_recursive_alias_rejected():
    assert err("a: &a [1, *a]\n").diagnostics[0].code == "limit"


def test_depth_limit():
    ok = "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1)
    assert load(ok)[0] is not None
    deep = "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH
    e = err(deep)
    assert e.diagnostics[0].code == "limit" and e.loc.line == 1
    e = err("[" * 100_000 + "]" * 100_000)      # never a RecursionError
    assert e.diagnostics[0].code == "limit"


def test_depth_limit_through_aliases():
    half = MAX_DEPTH // 2 + 1
    text = "a: &a " + "[" * half + "1" + "]" * half + "\nb: " + "[" * half + "*a" + "]" * half + "\n"
    assert err(text).diagnostics[0].code == "limit"


def test_size_limit():
    e = err("a: '" + "x" * MAX_BYTES + "'")
    assert e.diagnostics[0].code == "limit"


def test_load_file(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text("a:\n  b: [1, 2]\n")
    data, smap = load_file(p)
    assert data == {"a": {"b": [1, 2]}}
    assert smap.path == str(p) and smap.loc(("a", "b", 1)) == Location(str(p), 2, 10)


def test_load_file_errors(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_file(tmp_path / "missing.yaml")
    assert info.value.loc is None and "cannot read file" in info.value.message
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(RulesetError) as info:
        load_file(big)
    assert info.value.diagnostics[0].code == "limit"


# --- positions -------------------------------------------------------------------------------

def test_positions_of_nested_keys_and_items():
    _, smap = load(DOC)
    assert smap.path == "r.yaml"
    assert smap.loc(()) == L(1, 1)
    assert smap.loc(("players", "max")) == L(2, 24)
    assert smap.key_loc(("players", "max")) == L(2, 19)
    assert smap.loc(("flow",)) == L(4, 3)
    assert smap.loc(("flow", 0)) == L(4, 5)
    assert smap.loc(("flow", 0, "repeat")) == L(4, 13)
    assert smap.key_loc(("flow", 0, "steps")) == L(5, 5)
    assert smap.loc(("flow", 0, "steps", 1, "deal", "count")) == L(7, 35)
    assert smap.key_loc(("flow", 0)) == smap.loc(("flow", 0))   # list items have no key


def test_lookup_falls_back_to_longest_prefix():
    _, smap = load(DOC)
    assert smap.loc(["flow", 0, "steps", 7, "x"]) == smap.loc(("flow", 0, "steps"))
    assert smap.key_loc(("players", "nope")) == smap.loc(("players",))
    assert ("flow", 0) in smap and ("flow", 9) not in smap


def test_locations_skip_anchors_and_tags():
    _, smap = load("a: &x !!str value\n")
    assert smap.loc(("a",)) == L(1, 13)


def test_span():
    _, smap = load("a: hello\nb: 'x y'\nc: {d: 1}\n")
    assert smap.span(("a",)) == 5 and smap.span(("b",)) == 5 and smap.span(("c",)) == 1


def test_expr_loc_plain():
    _, smap = load("total: vault * 2 + cuont\n")
    assert smap.expr_loc(("total",), 0) == L(1, 8)
    assert smap.expr_loc(("total",), 12) == L(1, 20)


@pytest.mark.parametrize("quote", ["'", '"'])
def test_expr_loc_quoted(quote):
    _, smap = load(f"total: {quote}vault * 2 + cuont{quote}\n")
    assert smap.expr_loc(("total",), 12) == L(1, 21)


def test_expr_loc_quoted_follows_escapes():
    _, smap = load('t: "a\\tb + c"\n')        # source: "a\tb + c"
    assert smap.expr_loc(("t",), 6) == L(1, 12)  # the 'c'
    _, smap = load("t: 'it''s + c'\n")
    assert smap.expr_loc(("t",), 7) == L(1, 13)


def test_expr_loc_literal_block():
    _, smap = load("scoring:\n  total: |\n    vault * 2\n      + cuont\n")
    value = "vault * 2\n  + cuont\n"
    assert smap.expr_loc(("scoring", "total"), value.index("+")) == L(4, 7)
    assert smap.expr_loc(("scoring", "total"), value.index("cuont")) == L(4, 9)
    assert smap.expr_loc(("scoring", "total"), 0) == L(3, 5)


def test_expr_loc_folded_block():
    _, smap = load("total: >-\n  vault * 2\n  + cuont\n\n  - x\n")
    data, _ = load("total: >-\n  vault * 2\n  + cuont\n\n  - x\n")
    value = data["total"]
    assert value == "vault * 2 + cuont\n- x"
    assert smap.expr_loc(("total",), value.index("cuont")) == L(3, 5)
    assert smap.expr_loc(("total",), value.index("x")) == L(5, 5)


def test_expr_loc_multiline_plain_and_quoted():
    data, smap = load("t: a + b\n   + c\nq: \"x +\n  y\"\n")
    assert data == {"t": "a + b + c", "q": "x + y"}
    assert smap.expr_loc(("t",), 8) == L(2, 6)
    assert smap.expr_loc(("q",), 4) == L(4, 3)


def test_expr_loc_past_end_and_on_collections():
    _, smap = load("a: xy\nb: [1]\n")
    assert smap.expr_loc(("a",), 2) == L(1, 6)
    assert smap.expr_loc(("b",), 3) == L(2, 4)


def test_empty_source_map():
    smap = SourceMap.empty("<code>")
    assert smap.path == "<code>"
    assert smap.loc(("a",)) is None and smap.key_loc(("a",)) is None and smap.expr_loc(("a",), 1) is None


def test_overlay_keeps_each_file():
    _, base = load_yaml("game: demo\nflow:\n  - shuffle: main\nscoring: {total: x}\n", "base.yaml")
    _, top = load_yaml("flow:\n  - deal: 3\n", "variant.yaml")
    smap = SourceMap.overlay(base, top)
    assert smap.path == "variant.yaml"
    assert smap.loc(("flow", 0, "deal")) == Location("variant.yaml", 2, 11)
    assert smap.loc(("scoring", "total")) == Location("base.yaml", 4, 18)
    assert smap.key_loc(("game",)) == Location("base.yaml", 1, 1)
    assert smap.expr_loc(("scoring", "total"), 0) == Location("base.yaml", 4, 18)


# a short text aliasing a list of steps many times: within the YAML limits (the nodes are
# counted after expansion, and are fewer than MAX_NODES), but each copy is a step to compile
ALIASED = points_race("        - repeat: 1\n          steps: &s\n%s\n%s\n")


def _aliased(step: str, copies: int) -> str:
    steps = "\n".join(f"            - {step}" for _ in range(40))
    return ALIASED % (steps, "\n".join("        - {repeat: 1, steps: *s}" for _ in range(copies)))


def test_steps_aliased_many_times_stop_the_build_early(tmp_path, monkeypatch, parser):
    import interpreter
    from interpreter.building import bounded, effects
    path = tmp_path / "g.yaml"
    path.write_text(_aliased("reset: pts", 900))   # 36,000 steps from 31 KB
    assert path.stat().st_size < 32_000
    compiled = []
    real = effects.EffectCompiler.compile
    monkeypatch.setattr(effects.EffectCompiler, "compile",
                        lambda self, items, *a, **k: compiled.append(len(items)) or real(self, items, *a, **k))
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    (d,) = info.value.diagnostics
    assert d.code == "limit" and "after YAML aliases are expanded" in d.message and 18 <= d.loc.line < 58   # (in the aliased list)
    # the build stopped at the limit: about MAX_BUILD_WORK / PART_WORK steps compiled, not 36,000
    assert len(compiled) <= bounded.MAX_BUILD_WORK // bounded.PART_WORK
    # long expressions count by their characters: fewer copies of them reach the limit
    path.write_text(_aliased('set: {x: "' + " + ".join(f"count(deck where n > {j})" for j in range(30)) + '"}', 200))
    compiled.clear()
    with pytest.raises(RulesetError, match="too large to compile"):
        interpreter.load(path)
    assert len(compiled) <= bounded.MAX_BUILD_WORK // 700


def test_short_expressions_count_a_floor_each(tmp_path, monkeypatch, parser):
    # a list of thousands of distinct numbers counted a character or two each: 38,000 of them
    # (330 KB) took 12.8 s and 814 MB to validate; each expression's fixed cost now counts
    import interpreter
    from interpreter.building import bounded
    monkeypatch.setattr(bounded, "MAX_BUILD_WORK", 20_000)
    path = tmp_path / "g.yaml"
    listed = ", ".join(f'"{i}"' for i in range(1_000))
    path.write_text(points_race().replace("{categories: {p: pts}}", "{categories: {p: pts}, tiebreak: [%s]}" % listed))
    grown = []
    real = bounded.Bounded.grow
    monkeypatch.setattr(bounded.Bounded, "grow", lambda self, at, work=100: grown.append(work) or real(self, at, work))
    with pytest.raises(RulesetError, match="too large to compile") as info:
        interpreter.load(path)
    assert info.value.diagnostics[0].code == "limit" and "at least" in info.value.diagnostics[0].message
    assert len(grown) <= 20_000 // bounded.EXPR_WORK + 5      # stopped after some 300 of the 1,000


def test_a_bad_expression_aliased_many_times_is_parsed_once(tmp_path, monkeypatch, parser):
    import interpreter
    from interpreter.expr import parser as expr_parser
    path = tmp_path / "g.yaml"
    bad = " + ".join(["n"] * 60)   # nested too deeply
    path.write_text(_aliased(f'set: {{x: "1 + {bad}"}}', 10))
    parsed = []
    real = expr_parser._parsed
    monkeypatch.setattr(expr_parser, "_parsed", lambda text: parsed.append(text) or real(text))
    expr_parser._trees.clear()
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    *diags, stop = info.value.diagnostics   # (checking stops after 100 errors)
    assert len(diags) == 100 and all("nested too deeply" in d.message for d in diags) and "100 errors" in stop.message
    assert parsed.count(f"1 + {bad}") == 1   # (101 times before)
