"""Every module of the interpreter imports on its own, first, in a fresh interpreter: no import
cycle depends on which module a user (or a tool) happens to import first."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTIONAL = ("numpy", "gymnasium", "pettingzoo", "pyspiel")   # the rl extra: its modules may be absent


def test_each_module_imports_first_on_its_own(tmp_path):
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                     for p in (ROOT / "interpreter").rglob("*.py"))
    code = ("import importlib, sys\n"
            "bad = []\n"
            f"for m in {modules!r}:\n"
            "    for name in [n for n in sys.modules if n == 'interpreter' or n.startswith('interpreter.')]:\n"
            "        del sys.modules[name]\n"          # each module is the first one imported
            "    try:\n"
            "        importlib.import_module(m)\n"
            f"    except ModuleNotFoundError as e:\n"
            f"        if e.name not in {OPTIONAL!r}: bad.append((m, repr(e)))\n"   # (the rl extra is optional)
            "    except Exception as e:\n"
            "        bad.append((m, repr(e)))\n"
            "print(bad)\n")
    # each module is run afresh every time, but compiled once: the bytecode is kept in tmp_path
    # (where PYTHONDONTWRITEBYTECODE is set, each of the 160 rounds would compile every source again)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                          env=env)
    assert done.stdout.strip() == "[]", done.stdout
    assert "interpreter.engine.state" in modules and "interpreter.mechanics.dexterity" in modules
