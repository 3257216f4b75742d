"""The generated module binds no local its code never reads (building/flowgen.py, building/effects.py,
expr/compiler.py): each bundled ruleset's module compiled, every function's bytecode read (here, in
a test: the writer decides from what its code asks for, never from the text), and each store of a
local followed along every path, exceptions included, to a load of it. A store that no path reads
before the name is stored again or the function ends is dead: it costs opcodes on every run. Those
the code writers here still make, each for a reason, are listed (``KEPT``); any other fails.

Besides, no function may read ``me`` or ``L`` where a path leaves it unbound (a binding the writer
left out while the code still reads it), nor as a global (read and never bound at all)."""
from __future__ import annotations

import dis
import sys
from types import CodeType

import pytest

from helpers import bundled, load_text, tiny_ruleset
from test_flowgen import lockstep
from interpreter import ruleset_path

pytestmark = pytest.mark.skipif(sys.version_info < (3, 11), reason="reads the exception tables of 3.11's bytecode")

RULESETS = sorted(p.stem for p in ruleset_path("diamonds").parent.glob("*.yaml"))

# (local, text its line holds, why the store is kept): the dead stores the writers still make
KEPT = [
    ("changed", "changed = ", "the game loop keeps what a run reports, read by end conditions a ruleset may not have "
                              "(building/gameloop.py)"),
    ("_r", "for _r in range(", "a deal's rounds counted by a for loop, which binds its variable (mechanics/cards.py)"),
    ("void", "void = ", "a trick's test of a seat's void, which no hook of the ruleset reads (mechanics/tricks.py)"),
    ("win_card", "win_card = ", "a trick's winning card, which no hook of the ruleset reads (mechanics/tricks.py)"),
    ("f", " := ", "a frame pushed and named where the path after it returns (flowgen.py enters/next_step)"),
    ("f", "[-1] = f = [", "a frame put in its parent's place and named, where the step's run written after it "
                          "in place reads its values from locals (flowgen.py next_step, Sequence.entry_source)"),
    ("acc", "acc := acc + ", "an attempt's last chance added up as the others are (mechanics/dexterity.py)"),
    ("_", "for card, _ in ", "a pair unpacked (mechanics/grid.py)"),
    ("_g4", "_g4 = [] if S.ev", "a deal's (seat, card) list for its events, made where a zone's triggers have "
                                "them told card by card (mechanics/cards.py)"),
    ("_t0", "((_t0 := S.c_coins_on)", "one prelude for a grid's price and filter, bound for both "
                                      "(mechanics/grid_prices.py)"),
    ("me", "me = None", "a step's own seat, bound for the code it writes (mechanics: choose, pay)"),
    ("me", "me = S.v_", "a step's own seat, bound for the code it writes (mechanics: choose, pay)"),
    ("me", "me = _me", "the acting seat given back after a for_each or with_player, for the items after it "
                       "(building/effects.py)"),
    ("me", ": me = ", "the acting seat bound in an event's branch, for its payload, which a mechanic writes and "
                      "may name it (building/effects.py event)"),
]

USES = {"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_CLASSDEREF",
        "LOAD_FROM_DICT_OR_DEREF", "DELETE_FAST", "DELETE_DEREF", "LOAD_FAST_LOAD_FAST"}
STORES = {"STORE_FAST", "STORE_DEREF", "STORE_FAST_STORE_FAST"}
ENDS = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE", "JUMP_FORWARD", "JUMP_BACKWARD",
        "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"}
JUMPS = set(dis.hasjrel) | set(dis.hasjabs)


def _names(ins) -> tuple:
    return ins.argval if isinstance(ins.argval, tuple) else (ins.argval,)


def _steps(ins) -> list:
    """What the instruction does to locals, in order: ("use" | "store", name)."""
    if ins.opname == "STORE_FAST_LOAD_FAST":
        return [("store", ins.argval[0]), ("use", ins.argval[1])]
    kind = "use" if ins.opname in USES else "store" if ins.opname in STORES else None
    return [(kind, n) for n in _names(ins)] if kind else []


def liveness(code: CodeType):
    """(the instructions, what is live after each, what is live before the first)."""
    ins = list(dis.get_instructions(code))
    at = {i.offset: k for k, i in enumerate(ins)}
    handler: list = [None] * len(ins)
    for e in dis.Bytecode(code).exception_entries:
        for k, i in enumerate(ins):
            if e.start <= i.offset < e.end and handler[k] is None:
                handler[k] = at[e.target]
    succ = [([k + 1] if i.opname not in ENDS and k + 1 < len(ins) else [])
            + ([at[i.argval]] if i.opcode in JUMPS and i.argval in at else []) for k, i in enumerate(ins)]
    live_in: list = [frozenset()] * len(ins)
    live_out: list = [frozenset()] * len(ins)
    changed = True
    while changed:
        changed = False
        for k in range(len(ins) - 1, -1, -1):
            out = set().union(*(live_in[s] for s in succ[k]))
            live = set(out)
            for kind, name in reversed(_steps(ins[k])):
                (live.add if kind == "use" else live.discard)(name)
            if handler[k] is not None:   # (an exception may leave from here, before or after it)
                live |= live_in[handler[k]]
                out |= live_in[handler[k]]
            if live != live_in[k] or out != live_out[k]:
                live_in[k], live_out[k], changed = frozenset(live), frozenset(out), True
    return ins, live_out, (live_in[0] if ins else frozenset())


def dead_stores(code: CodeType) -> list:
    """(name, line) of each store no path reads; and (name, "unbound") of each local a path may
    read unbound."""
    ins, live_out, entry = liveness(code)
    found = []
    cleared = {i.argval for i in ins if i.opname == "LOAD_FAST_AND_CLEAR"}   # (3.12's comprehensions)
    nested = set()
    for c in code.co_consts:
        if isinstance(c, CodeType):
            nested |= set(c.co_freevars)
    for k, i in enumerate(ins):
        live = set(live_out[k])
        for kind, name in reversed(_steps(i)):
            if kind == "use":
                live.add(name)
            elif name not in live and name not in nested and name not in cleared:
                found.append((name, i.positions.lineno))
            else:
                live.discard(name)
    params = set(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                                  + bool(code.co_flags & 4) + bool(code.co_flags & 8)])
    # (``me`` and ``L``, the names the writers bind for code written in place, or leave out: another
    # local may be read after a test that a path bound it, which no reading of the bytecode follows)
    found += [(name, "unbound") for name in sorted(entry - params - set(code.co_freevars)) if name in ("me", "L")]
    found += [(name, "global") for i in ins if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")
              for name in _names(i) if name in ("me", "L")]
    return found


def functions(code: CodeType):
    for c in code.co_consts:
        if isinstance(c, CodeType):
            yield c
            yield from functions(c)


def unexplained(text: str, filename: str) -> list:
    """Each dead store or unbound read in the module ``text`` that KEPT does not explain."""
    lines = text.splitlines()
    out = []
    for fn in functions(compile(text, filename, "exec")):
        for name, line in dead_stores(fn):
            if isinstance(line, int):
                held = lines[line - 1]
                # the writer's own bindings of a body written in place are never kept dead
                placed = line > 1 and lines[line - 2].rstrip().endswith("written in place")
                if not placed and any(name == n and part in held for n, part, _ in KEPT):
                    continue
                out.append(f"{fn.co_name}: {name} stored and never read, line {line}: {held.strip()}")
            else:
                out.append(f"{fn.co_name}: {name} may be read {line}")
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_no_local_bound_that_nothing_reads(name):
    rules = bundled(name)
    assert unexplained(rules.module_source, f"<module {name}>") == []


def test_the_check_sees_a_dead_binding_and_an_unbound_read():
    text = ("def R0(S, frame):\n"
            "    # F0: g.yaml:1:1, written in place\n"
            "    me = S.v_turn_player\n"
            "    S.v_x = False\n"
            "def R1(S, frame):\n"
            "    if frame:\n"
            "        me = 1\n"
            "    return me\n"
            "def R2(S, frame):\n"
            "    return me\n")
    assert unexplained(text, "<t>") == [
        "R0: me stored and never read, line 3: me = S.v_turn_player",
        "R1: me may be read unbound",
        "R2: me may be read global"]


def test_the_touch_chance_binds_no_table_it_no_longer_reads():
    """Mister Diamond's touch chance counts the neighbours in hidden zones from the record of each
    card's zone: the zones' tables, once bound before the count's loop, are not bound at all."""
    text = bundled("mister_diamond").module_source
    roll = text[text.index("def R17("):text.index("def R17_any(")]
    chance = roll[:roll.index("p = float(")]   # (the touch chance, computed first: the outcomes follow)
    assert "_qa = " in chance and "_t0 = " not in chance and "L = None" not in chance
    assert "_who = _who" not in text


# two seats, a card each: each turn a variable set (no ``me`` read), a card of seat 1's shown to seat 0
# (show's own line names the acting seat), a card moved to the acting seat's hand, then a question
TURNS = tiny_ruleset("""
  hand: {owner: player, visible: owner}
vars:
  x: int
flow:
  - deal: {from: deck, to: hand, count: 1}
  - turns:
      steps:
        - set: {x: 1}
        - show: {cards: "hand[1]", to: 0}
        - move: {from: deck, to: hand, count: 1}
        - choose: {options: "[1, 2]", as: x}
""", players=(2, 2), card="card", attributes="n: 1..9", label="c{n}")


def test_an_effect_binds_me_only_where_its_code_reads_it(tmp_path):
    """Effects written in place in a turn: ``me`` is bound in an event's branch alone for the set
    (its code does not read it), up front for the show (a kind whose own line names it:
    not registered seat_noted: mechanics/base.py effect_kind) and the move (into the acting seat's hand); the events name
    the seat whose turn it is, as the plain reference's do."""
    rules = load_text(tmp_path, TURNS)
    text = rules.module_source
    flow = text[text.index("the flow"):]
    placed = flow.split("written in place\n")[1:]   # (each body, from its first line on)
    set_x = next(b for b in placed if "S.v_x = 1" in b.split("\n")[0])
    assert "if S.ev is not None: me = S.v_turn_player; S.ev.append(" in set_x.split("\n")[1]
    shown = next(b for b in placed if "_show(" in b.split("\n")[1])
    moved = next(b for b in placed if "S.z_hand[me]" in "\n".join(b.split("\n")[:5]))
    assert shown.lstrip().startswith("me = S.v_") and moved.lstrip().startswith("me = S.v_")
    assert unexplained(text, "<turns>") == []
    for seed in range(3):   # (events compared after every decision with the plain reference's)
        assert lockstep(rules, 2, seed) > 0
    S = rules.new_game(2, 0, record=True)
    S.apply_index(0)
    assert [e["who"] for e in S.ev if e["ev"] == "show"] == [0, 1] and S.current_player() == 1   # (seat 1 is shown to, then shows)


SEAT_SET = tiny_ruleset("""
  hand: {owner: player, visible: owner}
counters:
  pot: {owner: none}
vars:
  x: int
flow:
  - turns:
      rounds: 2
      steps:
        - choose: {options: "[1, 2]", as: x}
        - set: {turn_player: 1, pot: "pot + 1"}
        - if: "x > 1"
          then:
            - random: {var: turn_player, from: players}
            - gain: {counter: pot}
""", players=(2, 2), card="card", attributes="n: 1..9", label="c{n}")


def test_a_list_that_sets_the_acting_seat_s_variable_logs_the_seat_it_started_as(tmp_path):
    """An effect list run as ``turn_player`` that sets ``turn_player`` (a set, a random draw),
    then logs an event naming its seat: the event names the seat the list started as, as the
    plain reference's does (``me`` is bound before the list, not in the event's branch)."""
    rules = load_text(tmp_path, SEAT_SET)
    for seed in range(8):   # (events compared after every decision with the plain reference's)
        assert lockstep(rules, 2, seed) > 0
    S = rules.new_game(2, 0, record=True)
    S.apply_index(0)   # (seat 0 chose: its set logs the pot gained as seat 0, then seat 1 plays)
    assert [e["who"] for e in S.ev if e["ev"] == "set_counter"] == [0]
