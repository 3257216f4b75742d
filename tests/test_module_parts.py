"""benchmarks/module_parts.py: each part it takes out of a module is there to take out, and the
module without it plays the same games (its figures compare the same work)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter
from interpreter.accel import loaded

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
try:
    import module_parts
finally:
    sys.path.remove(str(ROOT / "benchmarks"))


def played(replaced: tuple) -> str:
    """What the benchmark's child prints (its decisions) for two games, run without valgrind."""
    code = module_parts.child("mister_diamond", 2, 1, replaced)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()[-1]


@pytest.mark.skipif(loaded()["engine.state"], reason="the compiled tier's module is written in its C dialect")
def test_each_part_is_in_the_module_and_its_variant_plays_the_same_games():
    source = interpreter.load(interpreter.ruleset_path("mister_diamond")).module_source
    for name, replaced in module_parts.PARTS.items():
        for pattern, _ in replaced:
            assert re.search(pattern, source), (name, pattern)   # (a part found nowhere costs nothing)
    base = played(())
    assert int(base) > 100
    for name, replaced in module_parts.PARTS.items():
        assert played(replaced) == base, name


def test_a_variant_that_changes_the_games_is_seen():
    """The check the benchmark makes is not vacuous: a text replaced that changes what the game
    does (each attempt's draw taken as 0.999: every attempt its last outcome, clean while a real
    diamond is left) plays other games."""
    replaced = ((r"u = F\d+\(S\)", "u = 0.999"),)
    assert played(replaced) != played(())


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(loaded()["engine.state"], reason="the compiled tier's module is written in its C dialect")
def test_a_module_edited_by_hand_is_the_one_played_and_a_stale_copy_refused(tmp_path):
    """``--module GENERATED EDITED``: the edited text is what the child runs (an edit that changes
    the draws plays other games; the collector off changes none), and a copy made from another
    text than the module the child generates is refused rather than measured."""
    generated, edited, stale = tmp_path / "generated.py", tmp_path / "edited.py", tmp_path / "stale.py"
    # (written as the docs say, by a process of its own: this one's loaded rulesets may be built otherwise)
    subprocess.run([sys.executable, "-m", "interpreter", "compile", str(interpreter.ruleset_path("mister_diamond")),
                    "-o", str(generated), "--force"], check=True, capture_output=True, cwd=ROOT, timeout=120)
    source = generated.read_text()
    edited.write_text(re.sub(r"u = F\d+\(S\)", "u = 0.999", source))
    stale.write_text(source + "\n# another build\n")
    base = played(())
    same = _run(module_parts.child("mister_diamond", 2, 1, (), (str(generated), str(generated)), no_gc=True))
    assert same.returncode == 0, same.stderr[-2000:]
    assert same.stdout.split()[-1] == base
    other = _run(module_parts.child("mister_diamond", 2, 1, (), (str(generated), str(edited))))
    assert other.returncode == 0, other.stderr[-2000:]
    assert other.stdout.split()[-1] != base
    refused = _run(module_parts.child("mister_diamond", 2, 1, (), (str(stale), str(edited))))
    assert refused.returncode != 0 and "not the one the edited copy was made from" in refused.stderr
