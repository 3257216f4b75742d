#!/usr/bin/env python3
"""What a unit of MAX_PATCH_WORK costs (loading/patches.py): the CPU time of applying an
overlay's aliased `$patch` changes to a long list, with the limit lifted, against the work
the changes are counted.

    python benchmarks/patch_work.py                      # 200 inserts before the first of 60,000 entries
    python benchmarks/patch_work.py --entries 100000 --changes 19000 --kind after_last

``--kind front``: each change inserts an entry before the first one (the others numbers, without ids), so every entry moves and
the next change finds its entry in the list indexed again (the costliest change per unit);
``after_last``: each inserts nothing after the last entry (found at once, one unit each).
Only the overlay is timed (the files are read and kept first).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.loading import patches, variants   # noqa: E402

CHANGES = {"front": "{before: first, insert: [{id: q}]}", "after_last": "{after: last, insert: []}"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entries", type=int, default=60_000)
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--kind", choices=sorted(CHANGES), default="front")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        listed = ", ".join(["0"] * (a.entries - 2))   # (numbers: entries without ids, one node each)
        (folder / "base.yaml").write_text("game: g\nplayers: {min: 2, max: 2}\nparams:\n  big:\n"
                                          f"    value: [{{id: first}}, {listed}, {{id: last}}]\nflow: []\n")
        ops = f"[&op {CHANGES[a.kind]}" + ", *op" * (a.changes - 1) + "]"
        (folder / "v.yaml").write_text(f"extends: base.yaml\nparams:\n  big:\n    value:\n      $patch: {ops}\n")
        patches.MAX_PATCH_WORK = 10 ** 12
        work = []
        real = patches.Plans.charge
        patches.Plans.charge = lambda self, n, at: (real(self, n, at), work.append(self.work))[0]
        overlaid, spent = variants._overlaid, []

        def timed(*args):
            t = time.process_time()
            out = overlaid(*args)
            spent.append(time.process_time() - t)
            return out
        variants._overlaid = timed
        variants.load_data(folder / "v.yaml")
    units = max(work)
    print(f"{a.changes:,} changes ({a.kind}) of {a.entries:,} entries: {units:,} units of work, "
          f"{spent[0]:.2f} s of CPU, {spent[0] / units * 1e6:.3f} us a unit "
          f"(MAX_PATCH_WORK = {variants.patches.MAX_PATCH_WORK:,} lifted; 2,000,000 takes "
          f"{2_000_000 * spent[0] / units:.2f} s at this rate)")


if __name__ == "__main__":
    main()
