"""The optional compiled tier (interpreter/accel): the modules loaded are the ones built, the
compiled random stream is the pure one, and a tier that cannot be built or used says why and
leaves the pure-Python engine running."""
from __future__ import annotations

import array
import importlib.machinery
import importlib.util
import random
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter import accel  # noqa: E402
from interpreter.accel import MODULES, Finder, built, digest, loaded, source_of, sources_of, stale, tier  # noqa: E402
from interpreter.accel.build import compiler  # noqa: E402
from helpers import module_from_file  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HAS_CYTHON = importlib.util.find_spec("Cython") is not None
can_compile = pytest.mark.skipif(not HAS_CYTHON or compiler() is None, reason="needs Cython and a C compiler")


@pytest.fixture(autouse=True)
def _ruleset_modules_not_asked_for(monkeypatch):
    """Each test asks for a ruleset's compiled module itself, if it wants one (the suite may run
    with RULEBOOK_COMPILED=1: a ruleset loaded already compiled has no Python flow to profile)."""
    monkeypatch.delenv("RULEBOOK_COMPILED", raising=False)


def test_the_modules_loaded_are_the_ones_built():
    """Where a module has a built extension made from its source as it is, that extension is
    what runs (and the source where none is, or it is stale): what `rulebook --version`
    reports is what this Python runs."""
    flags = loaded()
    old = stale()
    for module in MODULES:
        assert flags[module] == (built(module) is not None and module not in old), module
        path = Path(importlib.import_module(f"interpreter.{module}").__file__)
        assert (path.suffix == ".py") != flags[module], path
    expected = "compiled" if all(flags.values()) else "pure" if not any(flags.values()) else "partly"
    assert tier().startswith(expected)
    out = subprocess.run([sys.executable, "-m", "interpreter", "--version"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.endswith(f"({tier()})\n")


def _pure_rng():
    """engine/rng.py run as Python, whatever the tier: loaded from its source under another name."""
    return module_from_file("rulebook_pure_rng", source_of("engine.rng"))


@pytest.fixture(scope="module")
def compiled_rng(tmp_path_factory):
    """The compiled random stream (interpreter/accel/rng.pyx): the built one when the tier is
    built, else a copy compiled now."""
    if loaded()["engine.rng"]:
        from interpreter.engine import rng
        return rng
    if not HAS_CYTHON or compiler() is None:
        pytest.skip("needs Cython and a C compiler")
    from interpreter.accel.build import compile_file
    folder = tmp_path_factory.mktemp("rng")
    copy = folder / "rulebook_rng_copy.pyx"
    copy.write_text((accel.PACKAGE / sources_of("engine.rng")[-1]).read_text())
    return module_from_file("rulebook_rng_copy", compile_file(copy, "rulebook_rng_copy", folder))


class _Holder:
    """What the generator's functions draw from: a state's ``rng`` integer."""

    def __init__(self, rng: int):
        self.rng = rng


def test_the_compiled_random_stream_is_the_pure_one(compiled_rng):
    """The C stream draws what engine/rng.py draws, value for value, and leaves the same state:
    long runs of each kind of draw, mixed, from many states."""
    pure = _pure_rng()
    assert compiled_rng.__file__ != pure.__file__ and not compiled_rng.__file__.endswith(".py")
    assert (compiled_rng.MASK, compiled_rng.GOLDEN) == (pure.MASK, pure.GOLDEN)
    r = random.Random(5)
    for seed in (0, 1, 7, -3, 2**64 - 1, 2**64, 2**70, -2**80, 123456789, *(r.getrandbits(80) for _ in range(5))):
        assert compiled_rng.seed_state(seed) == pure.seed_state(seed)
        assert [compiled_rng.derive(seed, i) for i in (0, 5, -1, 2**65)] == [pure.derive(seed, i) for i in (0, 5, -1, 2**65)]
        assert compiled_rng.mix(seed) == pure.mix(seed) and compiled_rng.next64(seed) == pure.next64(seed)
        a, b = _Holder(pure.seed_state(seed)), _Holder(pure.seed_state(seed))
        # (n past 2**63, negative or a bool: the values the C path leaves to Python's arithmetic)
        for n in (1, 2, 3, 6, 52, 1000, 2**40, 2**63 - 1, 2**63, 2**64, 2**70, 0, -5, True):
            assert [compiled_rng.below(a, n) for _ in range(50)] == [pure.below(b, n) for _ in range(50)], n
        assert [compiled_rng.uniform(a) for _ in range(200)] == [pure.uniform(b) for _ in range(200)]
        assert a.rng == b.rng
        state = a.rng
        for _ in range(20):
            x, state_c = compiled_rng.next64(state)
            assert (x, state_c) == pure.next64(state)
            state = state_c
        for n in (0, 1, 2, 5, 52, 569, 1200):   # (over the Python module's BLOCK draws: mixed in blocks)
            xs, ys = list(range(n)), list(range(n))
            compiled_rng.shuffle(a, xs)
            pure.shuffle(b, ys)
            assert xs == ys and a.rng == b.rng
            xs, ys = array.array("i", range(n)), array.array("i", range(n))   # (not a list: by item access)
            compiled_rng.shuffle(a, xs)
            pure.shuffle(b, ys)
            assert xs == ys and a.rng == b.rng
    a, b = _Holder(seed := 99), _Holder(seed)   # a long stream of the three draws, mixed
    for _ in range(20_000):
        kind, n = r.randrange(3), r.randrange(1, 60)
        if kind == 0:
            assert compiled_rng.below(a, n) == pure.below(b, n)
        elif kind == 1:
            assert compiled_rng.uniform(a) == pure.uniform(b)
        else:
            xs = [r.random() for _ in range(n)]
            ys = list(xs)
            compiled_rng.shuffle(a, xs)
            pure.shuffle(b, ys)
            assert xs == ys
        assert a.rng == b.rng


def test_the_compiled_random_stream_fails_as_the_pure_one(compiled_rng):
    """A state or a range that is not an integer: the same kind of error from both."""
    pure = _pure_rng()
    for call in (lambda m: m.below(_Holder(1.5), 3), lambda m: m.uniform(_Holder(None)),
                 lambda m: m.below(_Holder(1), 2.5), lambda m: m.shuffle(_Holder("x"), [1, 2]),
                 lambda m: m.shuffle(_Holder(1), (1, 2))):
        errors = []
        for m in (compiled_rng, pure):
            with pytest.raises(Exception) as caught:
                call(m)
            errors.append(caught.type)
        assert errors[0] is errors[1], errors


def test_a_build_without_a_compiler_says_why_and_changes_nothing():
    before = {m: built(m) for m in MODULES}
    done = subprocess.run([sys.executable, "-m", "interpreter.accel", "build"], cwd=ROOT, capture_output=True,
                          text=True, env={**_env(), "CC": "/nonexistent/cc"})
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "no C compiler found" in done.stderr and not done.stdout
    assert {m: built(m) for m in MODULES} == before


def test_an_unknown_module_is_a_usage_error():
    done = subprocess.run([sys.executable, "-m", "interpreter.accel", "build", "--modules", "engine.nothing"],
                          cwd=ROOT, capture_output=True, text=True, env=_env())
    assert done.returncode == 2 and "invalid choice" in done.stderr and "Traceback" not in done.stderr


def _env() -> dict:
    import os
    return {k: v for k, v in os.environ.items() if k != "CC"}


def compiles_noted(monkeypatch, tmp_path) -> list:
    """A cache folder of the test's own, and each compile of a ruleset's module noted in the list
    returned: (the text compiled, the .pxd beside it)."""
    from interpreter.accel import rulesets
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    noted: list = []
    compile_file = rulesets.compile_file

    def spy(source, *args, **kw):
        noted.append((source.read_text(), source.with_suffix(".pxd").read_text()))
        return compile_file(source, *args, **kw)

    monkeypatch.setattr(rulesets, "compile_file", spy)
    return noted


def _final_states(rules, games: int = 20) -> list:
    rnd = random.Random(3)
    out = []
    for seed in range(games):
        S = rules.new_game(rules.player_counts[0], seed=seed)
        while not S.is_terminal():
            S.apply_index(rnd.randrange(len(S.dec[1])))
        out.append((S.scores(), S.z, S.c, S.v, S.rng))
    return out


PLAY = ("-m", "interpreter", "play", "tic_tac_toe", "--players", "2", "--seed", "3", "--json")


def test_rulebook_compiled_asks_for_the_ruleset_module(tmp_path):
    """RULEBOOK_COMPILED=1 reaches the compiled module from the command line (here it cannot
    be used: a file stands where the cache folder would be; the reason shown once, the game
    the same); unset, nothing is tried."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    env = {**_env(), "XDG_CACHE_HOME": str(blocker)}
    env.pop("RULEBOOK_NO_CACHE", None)
    pure = subprocess.run([sys.executable, *PLAY], cwd=ROOT, capture_output=True, text=True, env=env)
    asked = subprocess.run([sys.executable, *PLAY], cwd=ROOT, capture_output=True, text=True,
                           env={**env, "RULEBOOK_COMPILED": "1"})
    assert pure.returncode == asked.returncode == 0 and pure.stdout == asked.stdout and not pure.stderr
    assert asked.stderr.count("rulebook: the ruleset's compiled module is not used (the cache folder") == 1, asked.stderr


def test_a_ruleset_module_not_compiled_says_why_once(tmp_path, monkeypatch, capsys):
    """An unusable cache folder (here a file stands where it would be) is a reason shown once;
    the ruleset runs as built."""
    from interpreter.accel.rulesets import use_compiled
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    rules = interpreter.load("tic_tac_toe")
    python = (rules.advance, rules.runs, rules.resolves)
    assert use_compiled(rules) is False and use_compiled(rules) is False
    err = capsys.readouterr().err
    assert err.count("rulebook: the ruleset's compiled module is not used") == 1, err
    assert "the Python one runs" in err
    assert (rules.advance, rules.runs, rules.resolves) == python
    assert _final_states(rules, 3) == _final_states(interpreter.load("tic_tac_toe"), 3)


@pytest.mark.slow   # (a first compile: some 10 s of CPU)
@can_compile
def test_a_compiled_ruleset_module_plays_the_same_games_and_is_cached(tmp_path, monkeypatch, capsys):
    from interpreter.accel import rulesets
    compiled_texts = compiles_noted(monkeypatch, tmp_path)
    building = sys.modules["interpreter.building"]
    writes = []   # the ruleset built again in the C dialect: only to compile it
    written_for_c = building.written_for_c
    monkeypatch.setattr(building, "written_for_c", lambda *a, **kw: writes.append(1) or written_for_c(*a, **kw))
    rules = interpreter.load("kuhn_poker", compiled=True)
    assert "rulebook: compiling kuhn_poker's module to C, once" in capsys.readouterr().err   # (said: it takes a while)
    assert len(writes) == 1
    # what was compiled: the module written in the C dialect (its slot reads, slots.h's macro)
    (text, declared), = compiled_texts
    assert "_rb_get(S, '" in text and '"RB_GET"' in declared and "_rb_get" not in rules.module_source
    assert not isinstance(rules.advance, types.FunctionType)   # (the generated loop, compiled)
    # and a decision taken: each state's apply_index, compiled (with its reads and writes)
    assert not isinstance(rules.apply_index, types.FunctionType) and "_rb_set(S, 'dec', None)" in text
    assert type(rules.new_game(2, seed=1)).apply_index is rules.apply_index
    module = rules.advance.__globals__
    compiled = [fn for fn in rules.runs if not isinstance(fn, types.FunctionType)]
    assert compiled and all(module[fn.__name__] is fn for fn in compiled)
    # (a step's run that random play never reached is left out: it stays Python)
    assert all(module.get(fn.__name__, fn) is fn for fn in rules.runs if isinstance(fn, types.FunctionType))
    cached = list((tmp_path / "rulebook" / "compiled").iterdir())
    assert len(cached) == 1
    assert _final_states(rules) == _final_states(interpreter.load("kuhn_poker"))
    again = interpreter.load("kuhn_poker", compiled=True)   # from the cache: nothing compiled, the same file
    assert not capsys.readouterr().err
    assert list((tmp_path / "rulebook" / "compiled").iterdir()) == cached
    # two Rulesets of one text in a process: each its own namespace, neither runs the other's
    assert rules.advance.__globals__ is not again.advance.__globals__
    assert rules.advance.__globals__["RUNS"] is rules.runs and again.advance.__globals__["RUNS"] is again.runs
    assert _final_states(rules) == _final_states(again)
    third = interpreter.load("kuhn_poker", compiled=True)   # (the switch: from the cache)
    assert not isinstance(third.advance, types.FunctionType)
    assert list((tmp_path / "rulebook" / "compiled").iterdir()) == cached
    assert len(writes) == 1   # (a cached module is found by its key: the ruleset not built again)
    # an engine whose code writes the dialect otherwise: another key, the module written again
    # (its compile stopped here: what it would be given is the text just written)
    monkeypatch.setattr(rulesets, "engine_fingerprint", lambda: "0" * 64)
    monkeypatch.setattr(rulesets, "compile_file", lambda *a, **kw: (_ for _ in ()).throw(rulesets.BuildError("stopped")))
    monkeypatch.setattr(rulesets, "_said", set())   # (a reason is shown once a process)
    assert isinstance(interpreter.load("kuhn_poker", compiled=True).advance, types.FunctionType)
    assert len(writes) == 2 and "(stopped); the Python one runs" in capsys.readouterr().err
    play = ("-m", "interpreter", "play", "kuhn_poker", "--players", "2", "--seed", "5", "--json")
    env = {**_env(), "XDG_CACHE_HOME": str(tmp_path)}
    pure = subprocess.run([sys.executable, *play], cwd=ROOT, capture_output=True, text=True, env=env)
    asked = subprocess.run([sys.executable, *play], cwd=ROOT, capture_output=True, text=True,
                           env={**env, "RULEBOOK_COMPILED": "1"})
    assert pure.returncode == asked.returncode == 0 and pure.stdout == asked.stdout and not asked.stderr


@pytest.mark.skipif(not HAS_CYTHON, reason="needs Cython")
def test_the_compiled_module_s_key_is_what_its_text_is_written_from(tmp_path, monkeypatch, capsys):
    """The cache's key is the module that runs and the engine's code that writes it in the C
    dialect (its fingerprint), not the text written: a ruleset loaded again has the same key,
    another module or another engine another; the text is written only when no module of the
    key is cached (here none is: the compile is stopped once given the text)."""
    from interpreter.accel import rulesets
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    rules = interpreter.load("tic_tac_toe")
    key = rulesets.cache_key(rules)
    assert rulesets.cache_key(interpreter.load("tic_tac_toe")) == key
    assert rulesets.cache_key(interpreter.load("kuhn_poker")) != key
    plain = rulesets.cache_key(rules, dialect=False)   # (the module as it runs, compiled as it is)
    assert plain != key
    fingerprint = rulesets.engine_fingerprint()
    assert len(fingerprint) == 64 and rulesets.engine_fingerprint() == fingerprint
    monkeypatch.setattr(rulesets, "engine_fingerprint", lambda: "0" * 64)
    # (the engine's sources in either dialect: the helpers compiled with the module are its too)
    assert rulesets.cache_key(rules) != key and rulesets.cache_key(rules, dialect=False) != plain
    given, writes = [], []

    def stop(source, *args, **kw):
        given.append(source.read_text())
        raise rulesets.BuildError("stopped")

    monkeypatch.setattr(rulesets, "compile_file", stop)
    monkeypatch.setattr(rulesets, "_said", set())   # (a reason is shown once a process)
    assert not rulesets.use_compiled(rules, lambda: writes.append(1) or rules.module_source.replace("S.", "S ."))
    assert len(writes) == 1 and "S ." in given[0] and "(stopped); the Python one runs" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["diamonds", "diams", "mister_diamond", "diamonds_club", "hearts"])
def test_the_module_written_for_c_is_the_one_that_runs_its_slot_reads_spelt_for_c(game):
    """The compiled tier compiles the ruleset's module built again in the C dialect: the same
    text but each read of a state's slot (``S.z_hand``, ``S.sh``, ``S.players``), which reads at
    the slot's offset there (accel/slots.h); the module that runs is not changed by it."""
    import re
    from interpreter.building import written_for_c
    from interpreter.loading.resources import find_ruleset
    from interpreter.loading.variants import load_data
    rules = interpreter.load(game)
    text = written_for_c(load_data(find_ruleset(game), None))
    reads = re.findall(r"_rb_get\(S, '(\w+)'\)", text)
    assert len(reads) > 40 and {"sh", "players", "over", "dec", "steps"} <= set(reads) and text.count("_rb_at(") > 10
    # the flow's own reads too (the steps' generators, a built-in's): none left in Python's
    # spelling, which Cython compiles to the generic attribute lookup
    left = re.findall(r"\bS\.(stack|over|ev|kn|rules|n|tm|sh|dec|o|at|vw)\b(?!\s*=[^=])", text)
    assert left == []
    # nor a slot assigned whole (names.state_write), which Cython compiles to the generic
    # attribute assignment
    assert re.findall(r"^\s*S\.(\w+) =", text, re.M) == []
    assert "_rb_set(S, 'steps', _rb_get(S, 'steps') + " in text and "_rb_set(S, 'dec', (" in text
    # (a write may be followed on its line by a second statement: names.var_write's forgetting of a private value)
    python = re.sub(r"^(\s*(?:.*: )?)_rb_set\(S, '(\w+)', (.*?)\)(?=; |$)", r"\1S.\2 = \3", text, flags=re.M)
    python = _as_python(re.sub(r"_rb_get\(S, '(\w+)'\)", r"S.\1", python))
    python = re.sub(r"S\.(\w+) = S\.\1 \+ ", r"S.\1 += ", python)   # (a count: names.state_add)
    # a card moved (cdialect.py sorted_take, sorted_put, list_take), given the Python it stands for
    python = re.sub(r"^(\s*)_i\d+ = (?:_v\d+ = )?None; ", r"\1", python, flags=re.M)   # (sorted_take_inline's locals)
    python = re.sub(r"_rb_(?:take_sorted|insort)\((\S+?), (\w+), (\w+)\)", r"\3(\1, \2)", python)
    python = re.sub(r"_rb_remove\((.+), (\w+)\)", r"\1.remove(\2)", python).splitlines()   # (a list spelt with spaces too)
    # (a card out of a sorted list: in Python its bisection written in, cdialect.sorted_take_inline, one line too)
    lines = _taken_in_place(rules.module_source).splitlines()
    assert len(python) == len(lines)   # (but a function's heading comment, cut at its width)
    assert [a for a, b in zip(python, lines) if a != b and not a.startswith("# ")] == []
    assert interpreter.load(game).module_source == rules.module_source   # (the dialect ends with its build)


def _taken_in_place(text: str) -> str:
    """``text`` with each card taken out of a sorted list by its bisection written in
    (cdialect.sorted_take_inline) written as the call it stands for, ``_remove_sorted(seq, card)``."""
    tail = r" else (.+?)\.remove\(\3\)   # \(not there: list\.remove's error\)"
    text = re.sub(r"(\w+)\.pop\((\w+)\) if (\w+)\.__class__ is int and \(\2 := _bisect_left\(\(\1 := (.+?)\), \3\)\) "
                  r"< len\(\1\) and \1\[\2\] == \3" + tail.replace("(.+?)", "\\4"), r"_remove_sorted(\4, \3)", text)
    return re.sub(r"(\w+)\.pop\((\w+)\) if (\w+)\.__class__ is int and \(\2 := _bisect_left\(\1, \3\)\) "
                  r"< len\(\1\) and \1\[\2\] == \3" + tail.replace("(.+?)", "\\1"), r"_remove_sorted(\1, \3)", text)


def _as_python(text: str) -> str:
    """``text`` with each ``_rb_at(seq, index)`` written ``seq[index]`` (but in a comment: a
    function's heading, cut at its width)."""
    out = []
    for line in text.split("\n"):
        while not line.lstrip().startswith("#") and (at := line.rfind("_rb_at(")) >= 0:   # (an inner one first)
            depth, comma, end = 0, None, at + len("_rb_at(")
            while depth or line[end] != ")":
                depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(line[end], 0)
                comma = end if line[end] == "," and not depth and comma is None else comma
                end += 1
            line = f"{line[:at]}{line[at + 7:comma]}[{line[comma + 2:end]}]{line[end + 1:]}"
        out.append(line)
    return "\n".join(out)


@pytest.mark.skipif(not HAS_CYTHON, reason="needs Cython")
def test_a_module_written_for_c_with_other_functions_is_not_compiled(tmp_path, monkeypatch, capsys):
    """The hot functions are chosen by their lines in the module that runs: a text written for
    the compiler whose functions are elsewhere is refused before anything is compiled."""
    from interpreter.accel.rulesets import use_compiled
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    rules = interpreter.load("tic_tac_toe")
    python = (rules.advance, rules.runs, rules.resolves)
    assert not use_compiled(rules, lambda: "\n" + rules.module_source)
    assert "does not have the functions of the one that runs" in capsys.readouterr().err

    def fails():
        raise KeyError("x")

    assert not use_compiled(rules, fails)
    assert "could not be written for the compiler: KeyError: 'x'); the Python one runs" in capsys.readouterr().err
    assert (rules.advance, rules.runs, rules.resolves) == python and not (tmp_path / "rulebook" / "compiled").exists()


SLOT_READS = """
def hand(S):
    return _rb_get(S, 'z_hand')

def hands(objects):
    return [_rb_get(S, 'z_hand') for S in objects]

def item(seq, index):
    return _rb_at(seq, index)

def put(S, value):
    _rb_set(S, 'z_hand', value)

def put_all(objects, value):
    for S in objects:
        _rb_set(S, 'z_hand', value)
"""


@pytest.mark.slow   # (a small compile)
@can_compile
def test_a_slot_read_in_c_reads_what_python_reads(tmp_path):
    """accel/slots.h: a read (and a write) at the slot's offset, cached at each place for the
    type it saw while the type is unchanged; anything else read (written) as Python reads
    (assigns) it, with Python's errors."""
    from interpreter.accel.build import compile_file
    from interpreter.accel.rulesets import DECLARED, HEADER
    (tmp_path / "slot_reads.py").write_text(SLOT_READS)
    (tmp_path / "slot_reads.pxd").write_text(DECLARED)
    m = module_from_file("slot_reads", compile_file(tmp_path / "slot_reads.py", "slot_reads", tmp_path,
                                                    include=(str(HEADER.parent),)))
    A = type("A", (), {"__slots__": ("z_hand", "y")})
    B = type("B", (A,), {"__slots__": ("a", "b", "c")})   # (the same slot, read through a subclass)
    C = type("C", (), {"__slots__": ("a", "b", "z_hand")})   # (another offset)
    objects = [A(), B(), C(), A(), C()]
    for i, o in enumerate(objects):
        o.z_hand = [i]
    assert m.hands(objects) == [[0], [1], [2], [3], [4]] and m.hand(objects[2]) == [2]
    del objects[3].z_hand
    with pytest.raises(AttributeError) as python:
        _ = objects[3].z_hand
    with pytest.raises(AttributeError) as c:
        m.hand(objects[3])
    assert str(c.value) == str(python.value)
    assert m.hand(objects[0]) == [0]
    A.z_hand = property(lambda self: "a property")   # (the type changed: the slot is no longer what is read)
    assert m.hand(objects[0]) == "a property" and m.hand(objects[1]) == "a property"

    class Plain:
        z_hand = "a class attribute"

    class Computed:
        def __getattr__(self, name):
            return f"computed {name}"

    assert [m.hand(Plain()), m.hand(Computed())] == ["a class attribute", "computed z_hand"]
    with pytest.raises(AttributeError, match="'int' object has no attribute 'z_hand'"):
        m.hand(3)
    # a write: at the slot's offset, for each type seen at the place; else as Python assigns
    A = type("A", (), {"__slots__": ("z_hand", "y")})
    B = type("B", (A,), {"__slots__": ("a", "b", "c")})
    C = type("C", (), {"__slots__": ("a", "b", "z_hand")})
    objects = [A(), B(), C(), A()]
    m.put_all(objects, "x")
    assert [o.z_hand for o in objects] == ["x"] * 4
    old = objects[0].z_hand = [1]
    m.put(objects[0], None)
    assert objects[0].z_hand is None and sys.getrefcount(old) == 2   # (the old value released)
    A.z_hand = property(lambda self: "read", lambda self, v: setattr(self, "y", v))   # (the type changed)
    m.put(objects[0], "through the setter")
    assert objects[0].y == "through the setter"

    class Guarded:
        __slots__ = ("z_hand",)

        def __setattr__(self, name, value):
            raise TypeError(f"{name} is guarded")

    plain = Plain()
    m.put(plain, "own")
    assert plain.__dict__ == {"z_hand": "own"}
    for target in (Guarded(), 3, "s"):
        try:
            target.z_hand = 1   # type: ignore[attr-defined]
        except Exception as e:   # (the same error, of the same kind)
            with pytest.raises(type(e)) as caught:
                m.put(target, 1)
            assert str(caught.value) == str(e)
        else:
            raise AssertionError(target)
    # an item: read at once from a list or tuple by a small whole number; else as Python reads it
    seq, big = [10, 11, 12], 2**40
    for items in (seq, tuple(seq), {0: "a", big: "b", True: "c"}, range(3), "abc", array.array("i", seq)):
        for index in (0, 1, 2, -1, True, 3, big, -big, 1.0, "x"):
            try:
                expected = items[index]
            except Exception as e:   # (the same error, of the same kind)
                with pytest.raises(type(e)) as caught:
                    m.item(items, index)
                assert str(caught.value) == str(e), (items, index)
            else:
                assert m.item(items, index) == expected, (items, index)


def _kept(hot: str) -> list[str]:
    return [line[4:line.index("(")] for line in hot.splitlines() if line.startswith("def ")]


def test_only_the_hot_functions_are_compiled_at_their_own_lines():
    """The module compiled keeps whole functions, at the lines `rulebook compile` numbers: those
    random play ran that the compiled loop, a decision's apply_index, runs and resolves reach,
    within the budget of lines."""
    import ast
    from interpreter.accel.rulesets import hot_source
    rules = interpreter.load("kuhn_poker")
    text = rules.module_source
    lines = text.splitlines()
    defs = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}
    entries = {fn.__name__ for fn in (rules.advance, rules.apply_index, *rules.runs, *rules.resolves)}
    for budget in (10**6, 60, 0):
        hot = hot_source(rules, text, budget).split("\n")
        assert len(hot) == len(lines) and all(h in ("", line) for h, line in zip(hot, lines))
        kept = _kept("\n".join(hot))
        assert sum(1 for h in hot if h) == sum(defs[n].end_lineno - defs[n].lineno + 1 for n in kept) <= budget
        called = {x.id for n in kept for x in ast.walk(defs[n]) if isinstance(x, ast.Name)}
        assert all(n in entries or n in called for n in kept), kept
        if budget == 10**6:   # (all that ran: the same whatever the profile's times; a smaller budget's depend on them)
            assert {"advance", "apply_index"} <= set(kept)
    whole = _kept(hot_source(rules, text, 10**6))
    assert len(_kept(hot_source(rules, text, 60))) < len(whole) < len(defs)   # (a step never run: left out)


def test_the_profile_plays_a_player_count_the_requirements_accept(tmp_path):
    """A deal of 4 cards each from 10: the middle count (3) is refused with the default values, so
    the profile plays 2 players (it gave up: 'its random play ... failed: ... refuses this game')."""
    from interpreter.accel.rulesets import hot_source
    from helpers import load_text
    from test_requires import DEAL
    rules = load_text(tmp_path, DEAL.replace("default: 2,", "default: 4,"))   # (3 x 4 cards: more than the 10)
    assert "apply_index" in _kept(hot_source(rules, rules.module_source, 10**6))


@pytest.mark.slow   # (a small first compile)
@can_compile
def test_a_module_of_some_functions_compiled_plays_the_same_games(tmp_path, monkeypatch):
    from interpreter.accel import rulesets
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.setattr(rulesets, "LINES", 60)
    rules = interpreter.load("kuhn_poker")
    assert rulesets.use_compiled(rules)
    flow = (rules.advance, *rules.runs, *rules.resolves)
    assert any(isinstance(fn, types.FunctionType) for fn in flow) and not all(isinstance(fn, types.FunctionType) for fn in flow)
    assert _final_states(rules) == _final_states(interpreter.load("kuhn_poker"))


def test_the_tier_names_only_modules_of_the_engine():
    assert all(source_of(m).is_file() for m in MODULES) and accel.PACKAGE.name == "interpreter"


def _fake_build(folder: Path, module: str, sha256: str, sources: list[str] | None = None) -> Finder:
    """A finder over a manifest that lists ``module`` (a full name, or one of the engine's) as
    built (an empty file) from ``sources`` (its own by default) of hash ``sha256``."""
    name = module if module.startswith("interpreter.") or "__" in module else f"interpreter.{module}"
    ext = folder / (name + importlib.machinery.EXTENSION_SUFFIXES[0])
    ext.write_bytes(b"")
    manifest = folder / "manifest.txt"
    accel.write_manifest({name: {"file": ext.name, "sha256": sha256, "sources": sources or sources_of(module)}},
                         "cython", manifest)
    return Finder(accel.read_manifest(manifest), folder)


def test_the_finder_offers_a_built_module_only_while_its_source_is_the_one_built(tmp_path):
    """A built module whose source changed since the build is not loaded: the finder gives way
    and Python's own finders load the .py as it is now."""
    current = _fake_build(tmp_path, "engine.loop", digest(sources_of("engine.loop")))
    spec = current.find_spec("interpreter.engine.loop")
    assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert spec.origin == str(tmp_path / built_name("engine.loop"))
    assert current.find_spec("interpreter.engine.state") is None   # (not in the manifest)
    edited = _fake_build(tmp_path, "engine.loop", "0" * 64)
    assert edited.find_spec("interpreter.engine.loop") is None
    (tmp_path / built_name("engine.loop")).unlink()
    assert current.find_spec("interpreter.engine.loop") is None   # (deleted: the pure one)


def built_name(module: str) -> str:
    return f"interpreter.{module}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def test_the_finder_checks_a_support_library_too(tmp_path):
    """mypyc's support library (the code of all the modules built, which each module's own
    extension imports) is offered only while every source it was made from is unchanged."""
    every = [sources_of(m)[0] for m in MODULES]
    lib = "abcdef0123__mypyc"
    current = _fake_build(tmp_path, lib, digest(every), every)
    assert isinstance(current.find_spec(lib).loader, importlib.machinery.ExtensionFileLoader)
    assert _fake_build(tmp_path, lib, "0" * 64, every).find_spec(lib) is None
    # a listed source that is not the package's: never read, never offered
    outside = ["engine/loop.py", "../setup.py"]
    assert digest(outside) is None and _fake_build(tmp_path, lib, "0" * 64, outside).find_spec(lib) is None


def test_a_module_of_two_sources_is_stale_when_either_changes(tmp_path, monkeypatch):
    """The random stream is built from accel/rng.pyx and checked against engine/rng.py too: an
    edit of either leaves the build unused."""
    copy = _copy(tmp_path) / "interpreter"
    monkeypatch.setattr(accel, "PACKAGE", copy)
    files = sources_of("engine.rng")
    assert files == ["engine/rng.py", "accel/rng.pyx"]
    finder = _fake_build(tmp_path, "engine.rng", digest(files))
    assert finder.find_spec("interpreter.engine.rng") is not None
    for name in files:
        before = (copy / name).read_text()
        (copy / name).write_text(before + "\n")
        assert finder.find_spec("interpreter.engine.rng") is None, name
        (copy / name).write_text(before)
        assert finder.find_spec("interpreter.engine.rng") is not None


def test_no_build_no_finder_and_a_damaged_manifest_is_none(tmp_path):
    for damaged in ("{not a manifest", "interpreter.engine.loop x.so 1234 engine/loop.py",
                    "interpreter.engine.loop x.so"):
        (tmp_path / "manifest.txt").write_text(damaged)
        assert accel.read_manifest(tmp_path / "manifest.txt") == {}, damaged
    out = subprocess.run([sys.executable, "-c", "import interpreter, sys; from interpreter.accel import Finder;"
                          "print(any(isinstance(f, Finder) for f in sys.meta_path))"], cwd=_copy(tmp_path),
                         capture_output=True, text=True, check=True).stdout
    assert out == "False\n"   # (a checkout with no build: nothing installed, the import as it was)


def _copy(tmp_path: Path) -> Path:
    """A copy of the package (its sources only) in tmp_path/copy: to build and edit freely."""
    shutil.copytree(ROOT / "interpreter", tmp_path / "copy" / "interpreter",
                    ignore=shutil.ignore_patterns("__pycache__", "built", "*.so", "*.pyd"))
    return tmp_path / "copy"


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, env=_env())


def test_clean_removes_the_build_and_in_place_files_of_the_old_layout(tmp_path):
    copy = _copy(tmp_path)
    old = copy / "interpreter" / "engine" / f"loop{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    old.write_bytes(b"")   # (an extension beside its source: Python would load it first)
    (copy / "interpreter" / "accel" / "built").mkdir()
    _fake_build(copy / "interpreter" / "accel" / "built", "engine.rng", "0" * 64)
    done = _run(copy, "-m", "interpreter.accel", "clean")
    assert done.returncode == 0 and "removed 3 built files: pure tier" in done.stdout, done.stderr
    assert not old.exists() and not (copy / "interpreter" / "accel" / "built").exists()


@pytest.mark.slow   # (a build of one module: some 10 s of CPU)
@can_compile
def test_a_built_module_runs_until_its_source_is_edited(tmp_path):
    copy = _copy(tmp_path)
    done = _run(copy, "-m", "interpreter.accel", "build", "--modules", "engine.rng")
    assert done.returncode == 0, done.stderr
    assert not list((copy / "interpreter").rglob(f"rng{importlib.machinery.EXTENSION_SUFFIXES[0]}"))  # (not in place)
    where = "import interpreter.engine.rng as m; print(m.__file__, getattr(m, 'EDITED', None))"
    ext = copy / "interpreter" / "accel" / "built" / built_name("engine.rng")
    assert _run(copy, "-c", where).stdout == f"{ext} None\n"
    assert _run(copy, "-m", "interpreter", "--version").stdout.endswith(f"(partly compiled tier (1 of {len(MODULES)} modules))\n")
    source = copy / "interpreter" / "engine" / "rng.py"
    source.write_text(source.read_text() + "\nEDITED = 1\n")
    assert _run(copy, "-c", where).stdout == f"{source} 1\n"   # the edit runs at once, no build
    version = _run(copy, "-m", "interpreter", "--version").stdout
    assert "(pure tier, stale: engine/rng.py or accel/rng.pyx changed since the build" in version, version
