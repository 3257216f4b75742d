"""Input that once reached an internal error: each is now a located error, a clear message, or
simply works (docs/security.md)."""
from __future__ import annotations

import json

import pytest

import interpreter
from interpreter.errors import BudgetExceeded, GameError, ReplayError, RulesetError, UsageError
from interpreter.expr.messages import describe
from interpreter.expr.parser import as_expr, quote, unquote, parse
from interpreter.tools.cli import main
from helpers import points_race, tiny_ruleset, write_ruleset
from test_dexterity_mechanics import ROOMS

# (a first blank line: the lines of the located errors below count it)
GAME = "\n" + points_race(zones="  hand: {owner: player, visible: owner}\n")


def test_runtime_errors_are_said_in_the_language():
    said = [describe(TypeError("unsupported operand type(s) for +: 'int' and 'str'")),
            describe(TypeError("'<' not supported between instances of 'str' and 'NoneType'")),
            describe(TypeError("unhashable type: 'list'")),
            describe(TypeError("'NoneType' object is not subscriptable")),
            describe(ZeroDivisionError("integer division or modulo by zero"))]
    assert said[0] == "'+' cannot combine int and str"
    assert said[1].startswith("'<' cannot compare str with none") and "first() of an empty list" in said[1]
    assert said[2] == "a list cannot be an element of a set or a key of a map"
    assert said[3].startswith("a list was needed, got none")
    assert said[4] == "division by zero"
    assert not any("NoneType" in s or "operand" in s or "instances" in s for s in said)


def test_a_runtime_error_in_a_game_is_located_and_phrased_for_authors(tmp_path):
    path = write_ruleset(tmp_path, GAME.replace("        - gain: {counter: pts, amount: 1}",
                                        "        - set: {x: \"first(deck where n > 9).n + 1\"}"))
    rules = interpreter.load(path)
    with pytest.raises(GameError) as e:
        rules.new_game(2).apply_index(0)
    text = str(e.value)
    assert ":17:11: error[runtime]" in text and "a value is none" in text and "NoneType" not in text


def test_a_runtime_error_in_setup_is_located_at_setup(tmp_path, capsys):
    path = write_ruleset(tmp_path, GAME.replace("flow:\n", "setup:\n  - set: {x: \"first(deck where n > 9).n + 1\"}\nflow:\n"))
    with pytest.raises(GameError) as e:
        interpreter.load(path).new_game(2)
    assert e.value.loc.line == 12 and str(e.value).startswith(f"{path}:12:1: error[runtime]: in setup: a value is none")
    assert main(["play", str(path), "--players", "2"]) == 1
    assert "in setup" in capsys.readouterr().err


def test_a_hoisted_call_python_refuses_is_compiled_without_hoisting(tmp_path):
    """any(.. first(..) ..) in an effect condition: Python forbids the := the optimiser would
    lift into the comprehension; the effect list is compiled again without it."""
    path = write_ruleset(tmp_path, GAME.replace("        - gain: {counter: pts, amount: 1}", """\
        - if: "any(hand where first(deck where n == 1) == none, by: n > 0)"
          then: [{gain: {counter: pts, amount: 5}}]
        - gain: {counter: pts, amount: 1}"""))
    rules = interpreter.load(path)
    S = rules.new_game(2)
    S.apply_index(0)
    assert S.c["pts"][0] == 1   # the hand is empty: the condition is false, the gain of 1 runs


def test_string_escapes_and_yaml_lists_of_any_text(tmp_path):
    texts = ["it's", 'say "hi"', "back\\slash", "both ' and \"", "\\'"]
    for t in texts:
        assert unquote(quote(t)) == t
    assert unquote(parse(r"'it\'s'").children[0]) == "it's"
    path = write_ruleset(tmp_path, GAME.replace('options: "[1, 2]"', "options: " + json.dumps(texts)))
    S = interpreter.load(path).new_game(2)
    assert S.legal_actions() == texts
    assert as_expr(texts).startswith("['it\\'s', ")


@pytest.mark.parametrize("options", [json.dumps(["a", "b\nc"]), json.dumps("['a', 'b\nc']")])
def test_an_option_string_holding_a_line_break_is_refused_for_what_it_is(tmp_path, options):
    path = write_ruleset(tmp_path, GAME.replace('options: "[1, 2]"', "options: " + options))
    (d,) = _errors(path)
    assert d.message == "a string cannot hold a line break (a label or a text is one line)" and d.loc.line == 16


def test_a_nul_in_an_expression_is_text_like_any_other(tmp_path):
    # a YAML "\\0" puts a NUL in an expression's text, which its code object is named after:
    # compile() refused that name, and validate stopped on an internal error
    path = write_ruleset(tmp_path, GAME.replace('options: "[1, 2]"', 'options: "[\'a\\0b\', \'c\']"'))
    S = interpreter.load(path).new_game(2)
    assert S.legal_actions() == ["a\x00b", "c"]


def test_an_unknown_escape_is_a_located_error(tmp_path):
    path = write_ruleset(tmp_path, GAME.replace('options: "[1, 2]"', """options: "['a\\\\qb']\""""))
    with pytest.raises(RulesetError) as e:
        interpreter.load(path)
    assert "unknown escape '\\q'" in str(e.value) and "error[expr-syntax]" in str(e.value)


def test_a_string_parameter_with_bounds_is_refused_and_set_checks_list_elements(tmp_path):
    path = write_ruleset(tmp_path, GAME.replace("flow:", 'params:\n  name: {default: "x", min: 1}\nflow:'))
    with pytest.raises(RulesetError, match="bounds a number parameter"):
        interpreter.load(path)
    rules = interpreter.load("diamonds")
    with pytest.raises(UsageError, match="a list of str"):
        rules.new_game(4, options={"params": {"majority_order": [1, "x"]}})
    with pytest.raises(UsageError, match="nests too deeply"):
        rules.new_game(4, options={"params": {"majority_order": "[" * 5000 + "]" * 5000}})


def test_explain_shows_list_valued_attributes(tmp_path):
    from interpreter.tools.explain import explain
    path = write_ruleset(tmp_path, ROOMS)
    assert "exits: [kitchen, study], [], [cellar]" in explain(interpreter.load(path))   # no exits: the empty list


def test_scenario_expect_error_fails_that_scenario_only(tmp_path, capsys):
    path = write_ruleset(tmp_path, """\
    ruleset: diamonds
    scenarios:
      - {name: divides by zero, players: 4, expect: ["1 / 0 == 1"]}
      - {name: fine, players: 4, expect: ["1 == 1"]}
    """, "sc.yaml")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL divides by zero: expect '1 / 0 == 1' could not be evaluated: division by zero" in out
    assert "1 passed, 1 failed" in out


def test_rulebook_test_finds_scenario_files_and_skips_rulesets(capsys, scenarios_once):
    assert main(["test"]) == 0            # the bundled scenarios
    bundled = capsys.readouterr().out.strip().splitlines()[-1]
    assert main(["test", "rulesets"]) == 0   # a folder of rulesets and scenarios
    assert capsys.readouterr().out.strip().splitlines()[-1] == bundled
    assert bundled.endswith("passed, 0 failed") and int(bundled.split()[0]) > 100


def test_a_deeply_nested_log_line_is_a_replay_error(tmp_path):
    from interpreter.play.logs.replay import read_log
    log = tmp_path / "deep.jsonl"
    log.write_text('{"type": "header"}\n' + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ReplayError, match="line 2: .*nested more than 64 levels"):
        read_log(log)


def test_simulate_out_refuses_a_folder_that_is_not_a_previous_run(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    code = main(["simulate", "diamonds", "--players", "4", "--games", "2", "--out", str(out)])
    assert code != 0 and "not a previous run" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "precious"


def test_compare_out_keeps_every_variant_inside_it(tmp_path, capsys, no_plots):
    path = write_ruleset(tmp_path, GAME + 'variants:\n  "..": {description: "dots"}\n  "a/b": {}\n')
    out = tmp_path / "runs" / "cmp"
    code = main(["compare", str(path), "--variants", "base,..,a/b", "--players", "2", "--games", "2",
                 "--out", str(out), "--json"])
    assert code == 0, capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["_", "a_b", "base"]
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["cmp"]   # nothing written beside
    (out / "other.txt").write_text("x")
    code = main(["compare", str(path), "--variants", "base,..", "--players", "2", "--games", "2",
                 "--out", str(out)])
    assert code != 0 and "not a previous comparison" in capsys.readouterr().err


def _cli(args, **kw):
    import subprocess
    import sys
    code = f"from interpreter.tools.cli import main; raise SystemExit(main({args!r}))"
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_a_closed_pipe_ends_the_command_quietly():
    p = _cli(["actions", "diamonds_club"])   # 80 KB: more than a pipe holds
    p.stdout.read(1)
    p.stdout.close()   # as `| head -c 1` does
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 141 and err == ""


def test_ctrl_c_stops_a_parallel_simulate_with_one_line():
    import os
    import signal
    import time
    p = _cli(["simulate", "diamonds", "--players", "4", "--games", "100000", "--workers", "2"],
             start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.5)
    os.killpg(p.pid, signal.SIGINT)   # what a terminal's Ctrl-C does: the whole process group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.decode() == "rulebook: interrupted\n"


# ---------------------------------------------------------------------- bounded work at load
def _errors(path):
    with pytest.raises(RulesetError) as e:
        interpreter.load(path)
    return e.value.diagnostics


def test_define_expansion_has_a_whole_ruleset_budget(tmp_path, monkeypatch):
    import interpreter.expr.names as names
    monkeypatch.setattr(names, "MAX_RULESET_EXPANSIONS", 200)
    chain = "define:\n  d0: \"count(deck where n > 1)\"\n" + "".join(
        f"  d{i}: \"d{i - 1} + d{i - 1}\"\n" for i in range(1, 5))
    invariants = "invariants:\n" + "".join(f"  - \"d4 >= {i}\"\n" for i in range(100))
    diags = _errors(write_ruleset(tmp_path, GAME + chain + invariants))
    whole = [d for d in diags if "in the whole ruleset" in d.message]
    assert len(whole) == 1 and whole[0].code == "limit"   # reported once, where it was first met


def test_a_board_rule_too_costly_for_its_positions_is_refused_before_it_runs(tmp_path):
    board = GAME.replace("components:\n", "components:\n  spot: {attributes: {x: 1..600}}\n") + \
        'board: {positions: spot, adjacent: "count(map(1..50, to: it * a.x) where it > b.x) > 3"}\n'
    diags = _errors(write_ruleset(tmp_path, board))
    assert any(d.code == "limit" and "operations at load" in d.message for d in diags)


def test_validate_compiles_a_variant_that_changes_nothing_once(tmp_path, capsys):
    variants = "variants:\n" + "".join(f"  v{i}: {{}}\n" for i in range(3)) + "  real: {players: {min: 2, max: 2}}\n"
    path = write_ruleset(tmp_path, GAME + variants)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("ok (the same rules as the ruleset)") == 3 and "(variant real): ok" in out
    many = write_ruleset(tmp_path, GAME + "variants:\n" + "".join(f"  v{i}: {{}}\n" for i in range(17)), "many.yaml")
    assert "17 variants declared in one ruleset (limit 16)" in _errors(many)[0].message


def test_did_you_mean_is_bounded_for_many_names(tmp_path):
    zones = "".join(f"  zone_{i}: {{}}\n" for i in range(20_000))
    moves = "".join(f"        - move: {{from: zonx_{i}, to: deck}}\n" for i in range(80))
    text = GAME.replace("zones:\n", "zones:\n" + zones).replace(
        "        - gain: {counter: pts, amount: 1}", "        - gain: {counter: pts, amount: 1}\n" + moves)
    diags = [d for d in _errors(write_ruleset(tmp_path, text)) if "unknown zone" in d.message]
    assert len(diags) == 80 and sum(1 for d in diags if d.hint) == 49   # MAX_SUGGESTION_WORK / 20,000 names
    assert diags[0].hint.startswith("did you mean 'zone_")


def test_checking_stops_after_a_hundred_errors(tmp_path, capsys, monkeypatch):
    from interpreter.expr.compiler import Compiler
    compiled = []
    real = Compiler.compile
    monkeypatch.setattr(Compiler, "compile", lambda self, text, *a, **k: compiled.append(text) or real(self, text, *a, **k))
    categories = "".join(f"    c{i}: unknown_{i} + pts\n" for i in range(3000))
    path = write_ruleset(tmp_path, GAME.replace("scoring: {categories: {p: pts}}", "scoring:\n  categories:\n" + categories))
    assert main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    assert err.count("error[unknown-name]") == 100 and "unknown_99'" in err and "unknown_100'" not in err
    assert err.count("error[limit]: more than 100 errors: checking stopped here") == 1
    assert out.strip() == f"{path}: failed: 100 errors, and more not checked"
    assert sum(1 for text in compiled if text.startswith("unknown_")) == 101   # the work stopped too
    # the schema's errors as well
    compiled.clear()
    path = write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "vars:\n" + "".join(f"  v{i}: {{type: 5}}\n" for i in range(3000))))
    diags = _errors(path)
    assert len(diags) == 101 and diags[-1].message.startswith("more than 100 errors") and not compiled


def test_card_owned_counters_are_bounded(tmp_path):
    text = GAME.replace("  cards: {attributes: {n: 1..6}", "  cards: {attributes: {n: 1..60000}").replace(
        "counters:\n", "counters:\n" + "".join(f"  c{i}: {{owner: card}}\n" for i in range(40)))
    assert any("values in every game" in d.message for d in _errors(write_ruleset(tmp_path, text)))


# ---------------------------------------------------------------------- bounded work in a game
def test_a_costly_step_counts_more_against_the_budget(tmp_path):
    text = GAME.replace("components:\n  cards: {attributes: {n: 1..6}", "components:\n  cards: {attributes: {n: 1..200}")
    text = text.replace("vars: {x: any}", 'vars: {x: any, y: {type: int, start: "0"}}').replace(
        "        - gain: {counter: pts, amount: 1}",
        "        - set: {y: \"count(deck where count(deck where n > it.n) > 3)\"}\n"
        "        - gain: {counter: pts, amount: 1}")
    rules = interpreter.load(write_ruleset(tmp_path, text))
    costly = [s for s in rules.steps if s.charge]
    assert len(costly) == 1 and costly[0].charge == costly[0].work // 100 >= 400   # 200 x 200 comparisons
    S = rules.new_game(2)
    before = S.steps
    S.apply_index(0)
    assert S.steps - before >= costly[0].charge


def test_card_work_counts_against_the_budget_card_by_card(tmp_path):
    # each pass shuffles 2,000 cards: the budget stops the loop after a few passes, not after
    # thousands of shuffles (one unit a step would allow 20,000 passes of a shuffle each)
    rules = interpreter.load(write_ruleset(tmp_path, tiny_ruleset("""
  pile: {}
vars: {x: any, passes: {type: int, start: "0"}}
limits: {steps: 20000}
flow:
  - while: "passes >= 0"
    steps:
      - shuffle: deck
      - move: {from: deck, to: pile, cards: "deck where n > 0"}
      - move: {from: pile, to: deck}
      - set: {passes: "passes + 1"}
      - choose: {who: "first(players)", options: "[1, 2]", as: x}
scoring: {categories: {p: passes}}
""", game="g", attributes="n: 1..2000", label="c{n}", seen=None)))
    S = rules.new_game(2, seed=1)
    with pytest.raises(BudgetExceeded, match="one more per card"):
        for _ in range(20_000):
            S.apply_index(0)
    assert 0 < S.v["passes"] <= 20_000 // 6_000 + 1


def test_a_list_variable_is_costed_as_long_as_it_may_be(tmp_path):
    text = GAME.replace("vars: {x: any}", 'vars:\n  x: any\n  v: {type: "list[int]", start: "[1]"}\n'
                        '  w: {type: "list[list[int]]"}').replace(
        "        - gain: {counter: pts, amount: 1}", '        - set: {w: "map(v, to: v + v)"}')
    assert any(d.code == "limit" for d in _errors(write_ruleset(tmp_path, text)))


def test_combos_of_a_huge_total_is_bounded(tmp_path, monkeypatch):
    import interpreter.mechanics.market as market
    text = GAME.replace("  cards: {attributes: {n: 1..6}, label: \"c{n}\"}",
                        "  cards: {attributes: {n: 1..40, q: [1000000000000, 3]}, label: \"c{n}_{q}\"}").replace(
        "vars: {x: any}", 'vars: {x: any, c: "list[list[card]]"}').replace(
        "        - gain: {counter: pts, amount: 1}", '        - set: {c: "combos(deck, by: n * q, total: params.t)"}\n'
        "        - gain: {counter: pts, amount: 1}").replace("flow:", "params: {t: 9000000000000000000}\nflow:")
    rules = interpreter.load(write_ruleset(tmp_path, text))
    S = rules.new_game(2)
    S.apply_index(0)
    assert S.v["c"] == []   # more than all the values together: nothing, at once
    monkeypatch.setattr(market, "MAX_SEARCH_WORK", 5000)
    with pytest.raises(GameError, match="combos\\(\\) searched more than 5,000 operations"):
        rules.new_game(2, options={"params": {"t": 100000000000001}}).apply_index(0)


def test_a_named_pipe_or_a_nul_byte_is_refused_not_waited_for(tmp_path):
    import os
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(RulesetError, match="not a regular file"):
        interpreter.load(fifo)
    nul = write_ruleset(tmp_path, GAME.replace("game: g", "game: g\x00"), "nul.yaml")
    with pytest.raises(RulesetError):
        interpreter.load(nul)
    ext = write_ruleset(tmp_path, 'extends: "a\\0b"\n', "ext.yaml")
    with pytest.raises(RulesetError, match="extends"):
        interpreter.load(ext)


def test_options_that_hold_none_are_labelled_and_a_target_is_a_card(tmp_path):
    """Found by benchmarks/fuzz.py (seed 12): a list of options holding none (a define
    swapped for [spot] while spot was none) crashed the labels; none is labelled "none", and
    an attempt's target, which must be a card, leaves it out."""
    import interpreter
    path = tmp_path / "g.yaml"
    path.write_text("""
game: nones
players: {min: 2, max: 2}
components:
  cards: {attributes: {rank: 1..3}}
zones:
  pile: {owner: none, visible: all}
  deck: {owner: none, visible: all, start: [cards]}
vars:
  c: card
flow:
  - choose: {who: 0, options: "[first(pile)] + deck", as: c, prompt: pick}
  - attempt:
      who: 1
      target: {from: "[first(pile)]", as: c, prompt: take}
      outcomes: {ok: {chance: rest, steps: []}}
scoring:
  categories: {n: "count(deck)"}
""")
    rules = interpreter.load(path)
    S = rules.new_game(2, seed=1)
    assert S.legal_actions()[0] == "none"
    S.apply("none")
    assert S.is_terminal()     # the target had no card to offer: nothing attempted


def test_an_aliased_long_text_is_refused_before_it_is_expanded(tmp_path, capsys):
    # 150,000 aliases of a text of a million characters: within the node limit, 150 GB as text
    text = ("game: x\nplayers: {min: 1, max: 2}\nflow: []\nz: [&a \"" + "x" * 1_000_000 + "\""
            + ", *a" * 150_000 + "]\n")
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    assert main(["validate", str(path)]) == 1
    assert "bomb.yaml:4:4: error[limit]: too much text after alias expansion" in capsys.readouterr().err


def _doubling(levels: int) -> str:
    """Effects e0..e{levels-1}, each calling the one before twice: 2**levels calls in all."""
    lines = ["game: fx", "players: {min: 2, max: 2}", "vars: {x: {type: int, start: 0}}", "effects:",
             '  e0: {do: [{set: {x: "x + 1"}}]}']
    lines += [f"  e{k}: {{do: [e{k - 1}, e{k - 1}]}}" for k in range(1, levels)]
    lines += ["flow:", f"  - e{levels - 1}", "scoring: {categories: {p: x}}"]
    return "\n".join(lines) + "\n"


def test_effects_calling_effects_count_every_call_against_the_budget(tmp_path, capsys):
    # each call adds the callee's whole weight to its step's work: forty levels of doubling are
    # refused at load, located at the call; twelve play, and their step is charged for its 4,094 calls
    deep = write_ruleset(tmp_path, _doubling(40), "deep.yaml")
    assert main(["validate", str(deep)]) == 1
    err = capsys.readouterr().err
    assert "error[limit]: this step may take about" in err and "more than the game's whole step budget" in err
    assert "declared effects calling each other several times multiply" in err and "nested filters" not in err
    assert "deep.yaml:46:5" in err     # the flow's call of e39
    rules = interpreter.load(write_ruleset(tmp_path, _doubling(12), "twelve.yaml"))
    step = next(s for s in rules.steps if s.charge)
    assert step.work >= 4094 * 50       # a call costs its callee's calls too, not only the first
    S = rules.new_game(2, 0)
    assert S.is_terminal() and S.scores() == [2048, 2048] and S.steps > step.charge


def test_a_list_parameter_given_to_a_game_is_no_longer_than_its_cost_bounds_assume(tmp_path, capsys):
    path = write_ruleset(tmp_path, """
        game: plist
        players: {min: 2, max: 2}
        params: {l: [1, 2]}
        vars: {x: {type: int, start: 0}}
        flow:
          - for_each: {in: params.l, as: i, do: [{set: {x: "x + count(params.l where it > i)"}}]}
          - choose: {who: 0, options: "[x]", as: x, prompt: q}
        scoring: {categories: {p: x}}
        """)
    rules = interpreter.load(path)
    assert rules.new_game(2, 0, {"params": {"l": list(range(64))}}).legal_actions() == [str(63 * 64 // 2)]
    with pytest.raises(UsageError, match="parameter 'l' holds at most 64 elements in this ruleset"):
        rules.new_game(2, 0, {"params": {"l": [1] * 65}})
    ones = "[" + ",".join(["1"] * 60_000) + "]"
    assert main(["play", str(path), "--players", "2", "--set", f"l={ones}"]) == 2
    assert "holds at most 64 elements" in capsys.readouterr().err


def test_a_number_literal_too_large_for_a_float_is_a_located_error(tmp_path, capsys):
    path = write_ruleset(tmp_path, GAME.replace('"[1, 2]"', '"[1, 2]"') + "invariants: [\"" + "9" * 400 + ".0 > 1\"]\n")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error[type]: the number 99999999999999999999... is too large (at most about 1.8e308)" in err
    assert "internal error" not in err


@pytest.mark.parametrize("step", ["choose: {who: 99, options: '[1]', as: x, prompt: q}",
                                  "choose: {who: -1, options: '[1]', as: x, prompt: q}",
                                  "branch: {who: 5, options: {a: {steps: []}, b: {steps: []}}}",
                                  "with_player: {who: 99, do: [{gain: {counter: pts}}]}",
                                  "deal: {from: deck, to: hand, count: 1, players: '[5, -1]'}",
                                  "deal: {from: deck, to: hand, count: 1}\n        - pass: {from: hand, count: 1, to: '99'}"])
def test_a_seat_that_does_not_exist_asked_or_named_is_a_located_runtime_error(tmp_path, step):
    path = write_ruleset(tmp_path, GAME.replace("        - choose: {options: \"[1, 2]\", as: x}", f"        - {step}"))
    rules = interpreter.load(path)
    with pytest.raises(GameError, match=r"g.yaml:\d+:\d+.*there is no player -?\d+ \(players are 0 to 1\)"):
        S = rules.new_game(2, 0)
        for _ in range(4):   # (a pass delivers once every seat has picked)
            S.apply_index(0)


@pytest.mark.parametrize("value,said", [("&a [*a]", "an alias refers to a node that contains it"),
                                        ("[2001-01-01]", "a list of list, got '2001-01-01' in it"),
                                        ("[!!binary aGVsbG8=]", "tag '!!binary' not allowed"),
                                        ("[!!set {a}]", "tag '!!set' not allowed"),
                                        ("[[.nan]]", "NaN or an infinity")])
def test_a_parameter_given_a_value_a_game_cannot_hold_is_refused(tmp_path, capsys, value, said):
    """A --set value is read as a ruleset is (a date is text, no tag but plain data's)."""
    path = write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "params: {l: [[1, 2], [3]]}\nvars: {x: any}"))
    assert main(["play", str(path), "--players", "2", "--set", f"l={value}"]) == 2
    err = capsys.readouterr().err
    assert "parameter 'l'" in err and said in err and "internal error" not in err


def test_a_declared_parameter_of_nan_is_a_located_error(tmp_path, capsys):
    path = write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "params: {bonus: .nan}\nvars: {x: any}"))
    assert main(["validate", str(path)]) == 1
    assert "g.yaml:11:17: error[type]: parameter 'bonus': NaN or an infinity" in capsys.readouterr().err


def test_scenarios_with_odd_numbers_fail_one_by_one(tmp_path, capsys):
    write_ruleset(tmp_path, GAME)
    path = write_ruleset(tmp_path, """
        ruleset: g.yaml
        scenarios:
          - {name: inf players, players: .inf}
          - {name: inf seed, seed: .inf}
          - {name: negative owner, players: 2, patch: {counters: {pts: {-1: 5}}}}
          - {name: nan counter, players: 2, patch: {counters: {pts: {0: .nan}}}}
          - {name: fine, players: "2", seed: 3.0, expect: ["pts[0] == 0"]}
          - {name: cards not a list, players: 2, patch: {zones: {deck: 5}}}
          - {name: zones a list, players: 2, patch: {zones: [deck]}}
          - {name: owned zone a list, players: 2, patch: {zones: {hand: [c1]}}}
          - {name: legal not a list, players: 2, legal: 5}
        """, "s.yaml")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    for said in ("inf players: the game could not start: players: inf is not a whole number",
                 "inf seed: the game could not start: seed: inf is not a whole number",
                 "negative owner: patch: counter 'pts' has no owner -1 (owners are 0 to 1)",
                 "nan counter: patch: counter 'pts' holds whole numbers, not nan",
                 "cards not a list: patch: a zone's cards are a list of labels, not 5",
                 "zones a list: patch: zones is a mapping of zone names to cards",
                 "owned zone a list: patch: zone 'hand' has an owner: a mapping of owners to cards",
                 "legal not a list: legal: is a list of action labels, not 5", "1 passed, 8 failed"):
        assert said in out, out


def test_a_damaged_record_of_a_batch_is_played_again_on_resume(tmp_path, capsys, no_plots):
    out = tmp_path / "run"
    args = ["simulate", "diamonds", "--players", "4", "--games", "3", "--set", "rounds=1", "--workers", "1",
            "--out", str(out), "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    lines = (out / "games.jsonl").read_text().splitlines()
    kept = json.loads(lines[2])
    lines[0] = json.dumps({"index": 0, "seed": 0})
    lines[1] = json.dumps({**json.loads(lines[1]), "scores": "x"})
    (out / "games.jsonl").write_text("\n".join(lines) + "\n")
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["resumed"] == 1 and again["win_rate"] == first["win_rate"]
    assert json.loads((out / "games.jsonl").read_text().splitlines()[0]) == kept   # the sound one, kept


def test_an_empty_variant_or_folder_and_a_ruleset_of_no_kind_are_usage_errors(capsys):
    for args in (["play", "diamonds", "--players", "4", "--variant", ""], ["diff", "diamonds", ""],
                 ["simulate", "diamonds", "--players", "4", "--games", "2", "--out", ""]):
        assert main(args) == 2
        assert "error[usage]" in capsys.readouterr().err
    for path, variant in ((None, None), ("diamonds", 5), ("", None)):
        with pytest.raises(UsageError):
            interpreter.load(path, variant)


def test_determinize_for_a_seat_of_no_game_and_a_saved_state_as_bytes():
    import random
    rules = interpreter.load("diamonds")
    S = rules.new_game(4, 1)
    for seat in (-1, 4, True, "0"):
        with pytest.raises(GameError, match="no seat .* to determinize for in a game of 4 players"):
            S.determinize(seat, random.Random(0))
    assert rules.state_from_json(S.to_json().encode()) == S
    with pytest.raises(GameError, match="not a saved state: the bytes are not UTF-8 text"):
        rules.state_from_json(b"\xff")


def test_a_counter_amount_with_a_fraction_is_refused_and_a_number_out_of_bounds_is_never_stored(tmp_path):
    # a counter holds whole numbers (a saved state holds them so): 1.5 or a / b is refused at
    # load; a number that overflows to an infinity is a runtime error where it is stored, never
    # a value a log or a saved state could not hold; a large finite one is saved and loaded
    for amount in ("1.5", "pts / 3"):
        path = write_ruleset(tmp_path, GAME.replace("- gain: {counter: pts, amount: 1}", f"- gain: {{counter: pts, amount: \"{amount}\"}}"))
        with pytest.raises(RulesetError, match="a counter holds whole numbers, and this amount may have a fraction"):
            interpreter.load(path)
    big = "1" + "0" * 300 + ".0"
    path = write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "vars: {x: any, y: num}").replace(
        "- gain: {counter: pts, amount: 1}", f"- set: {{y: \"{big} * {big}\"}}"))
    rules = interpreter.load(path)
    S = rules.new_game(2, 0)
    with pytest.raises(GameError, match=r"a number beyond the language's bounds \(an overflow to inf\)"):
        S.apply_index(0)
    path = write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "vars: {x: any, y: num}").replace(
        "- gain: {counter: pts, amount: 1}", f"- set: {{y: \"{big} * 2.0\"}}"))
    rules = interpreter.load(path)
    S = rules.new_game(2, 0)
    S.apply_index(0)
    assert S.v["y"] == 2e300 and rules.state_from_json(S.to_json()) == S


@pytest.mark.parametrize("overlay,key,beside", [("params: {$remove: true, rounds: 1}", "$remove", "rounds"),
                                                ("params: {rounds: {$replace: 1, x: 2}}", "$replace", "x")])
def test_a_variants_dollar_key_stands_alone_in_its_mapping(tmp_path, overlay, key, beside):
    # beside other keys it would have been taken for a name: a parameter called "$remove"
    write_ruleset(tmp_path, GAME.replace("vars: {x: any}", "params: {rounds: 2}\nvars: {x: any}"))
    path = write_ruleset(tmp_path, f"extends: g.yaml\n{overlay}\n", "v.yaml")
    with pytest.raises(RulesetError, match=rf"'\{key}' stands alone in its mapping .*here beside {beside}") as e:
        interpreter.load(path)
    assert e.value.loc.path.endswith("v.yaml") and e.value.loc.line == 2


def test_a_step_heavy_by_its_own_filters_is_told_why_not_blamed_on_effects(tmp_path, capsys):
    # no declared effect here: the weight is its nested filters, each list at its longest (a
    # range whose end reads a parameter without min: or max: counts 10,000 elements, a list variable too)
    path = write_ruleset(tmp_path, """
        game: heavy
        players: {min: 1, max: 1}
        params: {n: 5}
        vars: {x: {type: int, start: 0}, dice: {type: "list[int]", start: "[1, 2]"}}
        flow:
          - set: {x: "count((0..params.n) as k where count((0..params.n) as v where count(dice where it <= v) > k) > 0)"}
        scoring: {categories: {p: x}}
        """, "heavy.yaml")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert "heavy.yaml:7:5: error[limit]: this step may take about" in err
    assert ("each list its filters walk is weighed at its longest, and nested filters multiply: a zone as many "
            "cards as the game has, a list variable 10,000 elements (a list inside one too), a range as its "
            "ends' declared bounds allow (10,000 where they read what declares none)") in err
    assert "declared effects" not in err


HEAVY_FILTER = "count(deck as a where count(deck where rank > a.rank) > 3)"   # 60 x 60 cards: about 14,700 operations
HEAVY = """
    game: heavy
    players: {min: 1, max: 1}
    limits: {steps: 20}
    components:
      c: {attributes: {rank: 1..60}, label: "c{rank}"}
    zones:
      deck: {start: [c]}
    vars: {x: {type: int, start: 0}}
    effects:
      bump:
        do:
          - set: {x: "x + 1"}
      tally:
        do:
          - set: {x: "%s"}
      twice: [tally, tally]
    flow:
      - %s
    scoring: {categories: {p: x}}
    """


@pytest.mark.parametrize("step", [f'if: "{HEAVY_FILTER} > 0"\n        then: [bump]', f'set: {{x: "{HEAVY_FILTER}"}}'])
def test_a_step_heavy_by_its_own_filters_is_told_so_though_it_calls_a_light_effect(tmp_path, capsys, step):
    # the light call of bump (about 55 operations) is not what weighs: the cause named is the filter's
    path = write_ruleset(tmp_path, HEAVY % ("x", step), "heavy.yaml")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert "heavy.yaml:19:5: error[limit]: this step may take about" in err
    assert "each list its filters walk is weighed at its longest" in err and "declared effects" not in err


@pytest.mark.parametrize("step,through", [("tally", ""), ("twice", " (through 'twice')")])
def test_a_step_heavy_by_a_filter_in_an_effect_it_calls_is_located_at_the_filter(tmp_path, capsys, step, through):
    # the error is at the expression that weighs (line 16, in tally), the step calling it named;
    # called twice, the filter still weighs most (each run of it alone more than the budget)
    path = write_ruleset(tmp_path, HEAVY % (HEAVY_FILTER, step), "heavy.yaml")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert (f"heavy.yaml:16:18: error[limit]: the step at line 19, calling effect '{step}', may take about ") in err
    assert (f"; this expression of effect 'tally'{through} alone about 14,") in err
    assert "each list its filters walk is weighed at its longest" in err and "declared effects" not in err


LABELS = """\
game: labels
players: {min: 2, max: 2}
components:
  card:
    attributes: {n: 1..1000, s: [WORD]}
    LABEL
zones:
  deck: {start: [card]}
flow:
  - pick: {who: 0, from: deck, to: deck, count: 1}
"""


@pytest.mark.parametrize("label", ['label: "{n}{s}{s}{kind}"', ""])
def test_a_card_label_is_measured_before_it_is_built(tmp_path, monkeypatch, label):
    # 1,000 cards whose label repeats a long attribute (or the default label, which writes
    # every value): refused at the component before any label is made, not a label made for
    # each card and the memory filled (labelbomb: 100,000 cards of 10 MB labels)
    from interpreter.building import components
    limit = components.MAX_LABEL
    made = []
    real = components._label
    monkeypatch.setattr(components, "_label", lambda *a: made.append(a) or real(*a))
    text = LABELS.replace("LABEL", label)
    times = 2 if label else 1
    # the widest label, the card numbered 1000's, with an 's' as long as may be: just the limit
    fixed = len("1000") + len("card") if label else len("card(1000,)")
    fits = write_ruleset(tmp_path, text.replace("WORD", "w" * ((limit - fixed) // times)))
    assert max(map(len, interpreter.load(fits).card_labels)) == limit
    made.clear()
    with pytest.raises(RulesetError) as e:
        interpreter.load(write_ruleset(tmp_path, text.replace("WORD", "w" * limit), "long.yaml"))
    assert made == []
    first = len("1") + len("card") if label else len("card(1,)")
    assert f"label of card 1 of 'card' would be {times * limit + first} characters (limit {limit})" in str(e.value)
    assert ("long.yaml:6:12: error[limit]" if label else "long.yaml:5:5: error[limit]") in str(e.value)


OPTIONS = """game: g
players: {min: 1, max: 1}
vars:
  s: {type: str, start: "'abcdefghij'"}
flow:
  - repeat: 13
    steps:
      - set: {s: "s + s"}
  - choose: {who: 0, options: "OPTIONS", as: x}
"""


@pytest.mark.parametrize("options", ["map(1..10000, to: [s, s, s, text(it)])", "[s]", "map(1..3, to: text(it) + s)"])
def test_an_option_label_past_max_label_is_a_located_error_before_any_label_is_made(tmp_path, options):
    # a choose over 10,000 lists of three 81,920-character texts made 2.46 billion characters
    # of labels (2.4 GB) at the first legal_actions: an option's label is measured against
    # MAX_LABEL (a card's) when the options are offered, in both execution paths
    from fuzzing.lockstep import reference
    rules = interpreter.load(write_ruleset(tmp_path, OPTIONS.replace("OPTIONS", options)))
    for way in (rules, reference(rules)):
        with pytest.raises(GameError, match=r"g.yaml:9:5: error\[runtime\]: in choose: an option's label of more "
                                            r"than 200 characters"):
            way.new_game(1, 0)


def test_the_labels_of_a_decisions_options_are_bounded_together(tmp_path, monkeypatch):
    from interpreter.engine import labels
    path = write_ruleset(tmp_path, OPTIONS.replace("13", "4").replace("OPTIONS", "map(1..100, to: [s, text(it)])"))
    rules = interpreter.load(path)
    assert len(rules.new_game(1, 0).legal_actions()) == 100   # (160 characters + its number: within MAX_LABEL)
    monkeypatch.setattr(labels, "MAX_OPTION_CHARS", 5_000)
    with pytest.raises(GameError, match=r"in choose: options whose labels hold more than 5000 characters together"):
        rules.new_game(1, 0)


@pytest.mark.parametrize("options, measured", [
    ("['ab', 'cd']", False),              # (texts of 2 characters: short at load)
    ("[s, 'cd']", True),                  # (a variable's text: up to 100,000 characters)
    ("[1, 2, 3]", False),                 # (numbers)
    ("map(1..3, to: [it, it])", True),    # (lists of numbers: a sum in one may pass 64 bits)
])
def test_options_whose_labels_load_knows_short_are_not_measured(tmp_path, options, measured):
    """labels.short_labels: where the options' bounds keep every label within MAX_LABEL (and all of
    them within MAX_OPTION_CHARS), the module offers them unmeasured; else labels.fit measures them."""
    from interpreter.building.listing import listing
    rules = interpreter.load(write_ruleset(tmp_path, OPTIONS.replace("13", "4").replace("OPTIONS", options)))
    assert ("rules.fit(" in listing(rules)) == measured   # (s of 160 characters: measured, and within bounds)
    assert rules.new_game(1, 0).legal_actions()


def test_a_list_of_sums_past_64_bits_is_measured_as_it_is(tmp_path):
    # a whole number within 64 bits writes 20 characters at most, but a sum inside an expression
    # is checked only when stored: lists of nine sums of 200 * 9e18 (22 digits) labelled 206
    # characters, and passed short_labels at load and fit at run time unmeasured
    from fuzzing.lockstep import reference
    path = write_ruleset(tmp_path, OPTIONS.replace("13", "1").replace(
        "OPTIONS", "map(1..10, to: [S + it, S, S, S, S, S, S, S, S])").replace(
        "flow:", "define:\n  S: \"sum(map(1..200, to: 9000000000000000000))\"\nflow:"))
    rules = interpreter.load(path)
    for way in (rules, reference(rules)):
        with pytest.raises(GameError, match=r"g.yaml:\d+:5: error\[runtime\]: in choose: an option's label of more "
                                            r"than 200 characters"):
            way.new_game(1, 0)
    path.write_text(path.read_text().replace("S, S, S, S, S, S, S, S]", "S, S, S, S, S, S, S]"))
    assert max(map(len, interpreter.load(path).new_game(1, 0).legal_actions())) == 183


def test_a_few_options_are_measured_as_many_are(tmp_path):
    """labels.fit measures up to _FEW options (numbers and texts) in one loop: a text past
    MAX_LABEL among them is refused as among many, and any other value goes the general way."""
    from interpreter.engine.labels import _FEW, MAX_LABEL, fit
    from interpreter.expr.runtime import ExprRuntimeError
    rules = interpreter.load(write_ruleset(tmp_path, OPTIONS.replace("13", "4").replace("OPTIONS", "[1]")))
    short, long = ["ab", 1, None, 2.5, True, "x" * MAX_LABEL], "x" * (MAX_LABEL + 1)
    assert len(short) <= _FEW < 3 * len(short)
    for options in (short, short * 3):   # (one loop; past _FEW: the passes in C)
        assert fit(rules, options, "any") is options
        with pytest.raises(ExprRuntimeError, match="an option's label of more than 200 characters"):
            fit(rules, [*options, long], "any")
    assert fit(rules, ["ab", ["c", "d"]], "any") == ["ab", ["c", "d"]]   # (a list: measured the general way)
    with pytest.raises(ExprRuntimeError, match="more than 200 characters"):
        fit(rules, ["ab", [long]], "any")


def test_declared_effects_calling_one_another_deeper_than_the_limit_is_one_located_error(tmp_path):
    """A chain of 300 declared effects, each calling the next, made validate fail with Python's
    recursion limit ("internal error"); past MAX_CALL_DEPTH it is one located error, and a chain
    of exactly MAX_CALL_DEPTH loads and plays."""
    from interpreter.expr.limits import MAX_CALL_DEPTH

    def chain(n):
        body = "".join(f"  e{i}:\n    - e{i + 1}: {{}}\n" for i in range(n))
        return ("game: deep\nplayers: {min: 1, max: 2}\nvars:\n  x: {type: int, start: 0}\neffects:\n" + body
                + f"  e{n}:\n    - set: {{x: 7}}\nflow:\n  - e0: {{}}\n")
    path = tmp_path / "deep.yaml"
    path.write_text(chain(300))
    with pytest.raises(interpreter.RulesetError) as e:
        interpreter.load(path)
    said = [(d.code, d.loc.line) for d in e.value.diagnostics]
    assert said == [("limit", 2 * MAX_CALL_DEPTH + 5)]   # (the call of e32, in e31)
    assert f"at most {MAX_CALL_DEPTH} may call one another" in e.value.diagnostics[0].message
    path.write_text(chain(MAX_CALL_DEPTH - 1))   # (e0 ... e31 compiling, the last called by e31: 32 deep)
    state = interpreter.load(path).new_game(1, 0)
    assert state.over and state.var("x") == 7
