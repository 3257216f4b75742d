"""Overlays that change one entry of a list (loading/patches.py): entries named by id:, a
variant patching, inserting before/after, replacing, appending or removing by id, nested, and
every error still located in the file that wrote it."""
from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError

BASE = """\
game: patched
players: {min: 2, max: 2}
counters:
  points: {owner: player}
vars:
  x: {type: int, start: 0}
flow:
  - id: setup_phase
    phase: opening
    steps:
      - {id: first, set: {x: 1}}
      - {id: second, set: {x: "x + 10"}}
  - id: ask
    choose: {who: 0, options: "[1, 2]", as: x, prompt: pick}
  - id: last
    gain: {counter: "points[0]", amount: x}
scoring:
  categories: {points: points}
"""


def write(tmp_path, variant: str):
    (tmp_path / "base.yaml").write_text(BASE)
    (tmp_path / "v.yaml").write_text("extends: base.yaml\n" + variant)
    return tmp_path / "v.yaml"


def steps(rules):
    return [s.kind for s in rules.steps]


def test_ids_are_names_for_overlays_only(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE)
    rules = interpreter.load(tmp_path / "base.yaml")
    S = rules.new_game(2, seed=1)
    assert S.v["x"] == 11 and S.legal_actions() == ["1", "2"]
    assert "id" not in str(rules.data["flow"])


def test_insert_after_change_and_remove_by_id(tmp_path):
    path = write(tmp_path, """\
flow:
  $patch:
    - {after: ask, insert: [{set: {x: "x * 100"}}]}
    - {id: last, with: {gain: {amount: "x + 1"}}}
    - {id: setup_phase, with: {steps: {$patch: [{remove: second}]}}}
""")
    S = interpreter.load(path).new_game(2, seed=1)
    assert S.v["x"] == 1                      # the second set is gone
    S.apply("2")
    assert S.v["x"] == 200 and S.c["points"] == [201, 0]


def test_replace_before_and_append(tmp_path):
    path = write(tmp_path, """\
flow:
  $patch:
    - {id: ask, replace: {choose: {who: 1, options: "[7, 8]", as: x, prompt: other}}}
    - {before: last, insert: [{set: {x: "x - 1"}}]}
    - {append: [{gain: {counter: "points[1]", amount: 5}}]}
""")
    S = interpreter.load(path).new_game(2, seed=1)
    assert (S.current_player(), S.prompt(), S.legal_actions()) == (1, "other", ["7", "8"])
    S.apply("8")
    assert S.c["points"] == [7, 5]


def test_a_base_change_reaches_the_variant(tmp_path):
    path = write(tmp_path, "flow:\n  $patch:\n    - {id: last, with: {gain: {amount: 3}}}\n")
    (tmp_path / "base.yaml").write_text(BASE.replace('{id: first, set: {x: 1}}', '{id: first, set: {x: 5}}'))
    S = interpreter.load(path).new_game(2, seed=1)
    assert S.v["x"] == 15


def test_an_error_in_an_inserted_step_is_located_in_the_variant(tmp_path):
    path = write(tmp_path, """\
flow:
  $patch:
    - {after: setup_phase, insert: [{set: {x: "x + nope"}}]}
""")
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert d.loc.path.endswith("v.yaml") and d.loc.line == 4 and "nope" in d.message


def test_an_error_in_an_untouched_base_step_is_located_in_the_base_after_an_insert(tmp_path):
    (tmp_path / "base.yaml").write_text(BASE.replace('amount: x}', 'amount: "x + nope"}'))
    (tmp_path / "v.yaml").write_text("extends: base.yaml\nflow:\n  $patch:\n"
                                     "    - {before: setup_phase, insert: [{set: {x: 3}}, {set: {x: 4}}]}\n")
    with pytest.raises(RulesetError) as info:
        interpreter.load(tmp_path / "v.yaml")
    d = info.value.diagnostics[0]
    assert d.loc.path.endswith("base.yaml") and d.loc.line == BASE.splitlines().index(
        '    gain: {counter: "points[0]", amount: x}') + 1


@pytest.mark.parametrize("patch,message,line", [
    ("    - {id: lats, with: {gain: {amount: 1}}}\n", "no entry with id 'lats' in this list (ids: setup_phase, ask, last)", 4),
    ("    - {after: ask}\n", "a change says what to do", 4),
    ("    - {id: ask, with: [1]}\n", "with: takes a mapping", 4),
])
def test_a_patch_that_cannot_apply_is_a_located_error(tmp_path, patch, message, line):
    path = write(tmp_path, "flow:\n  $patch:\n" + patch)
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert message in d.message and d.loc.path.endswith("v.yaml") and d.loc.line == line
    if "lats" in patch:
        assert d.hint == "did you mean 'last'?"


def test_an_inline_variant_patches_too(tmp_path):
    (tmp_path / "g.yaml").write_text(BASE + "variants:\n  double:\n    flow:\n      $patch:\n"
                                     "        - {id: last, with: {gain: {amount: \"x * 2\"}}}\n")
    S = interpreter.load(tmp_path / "g.yaml", variant="double").new_game(2, seed=1)
    S.apply("2")
    assert S.c["points"] == [4, 0]


def test_diff_names_a_patched_entry_by_its_id(tmp_path):
    from interpreter.tools.diff import diff
    path = write(tmp_path, """\
flow:
  $patch:
    - {after: ask, insert: [{set: {x: "x * 100"}}]}
    - {id: last, with: {gain: {amount: "x + 1"}}}
""")
    changes, _ = diff(tmp_path / "base.yaml", str(path))
    shown = sorted(c.format() for c in changes)
    assert len(changes) == 2
    assert any("flow[last].gain.amount: x -> x + 1" in s for s in shown)
    assert any(s.startswith("+ flow[2]") for s in shown)


def test_changes_after_a_with_find_its_entry_and_apply_in_order(tmp_path):
    path = write(tmp_path, """\
flow:
  $patch:
    - {id: last, with: {gain: {amount: 3}}}
    - {id: last, with: {gain: {counter: "points[1]"}}}
    - {after: last, insert: [{gain: {counter: "points[0]", amount: 4}}]}
    - {id: setup_phase, with: {steps: {$patch: [{remove: second}]}}}
    - {id: setup_phase, with: {steps: {$patch: [{after: first, insert: [{set: {x: "x + 7"}}]}]}}}
""")
    S = interpreter.load(path).new_game(2, seed=1)
    assert S.v["x"] == 8                      # second removed, then x + 7 inserted after first
    S.apply("2")
    assert S.c["points"] == [4, 3]            # both with: merged, the insert after the changed entry
    (tmp_path / "v.yaml").write_text("extends: base.yaml\nflow:\n  $patch:\n"
                                     "    - {id: ask, with: {choose: {prompt: one}}}\n    - {remove: ask}\n"
                                     "    - {id: setup_phase, with: {steps: {$patch: [{remove: second}]}}}\n"
                                     "    - {id: setup_phase, with: {steps: {$patch: [{after: first, insert:\n"
                                     "        [{set: {x: \"x + nope\"}}]}]}}}\n")
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]             # the second change of a list located in the variant
    assert "nope" in d.message and d.loc.path.endswith("v.yaml") and d.loc.line == 8


def test_an_entry_changed_by_a_thousand_with_changes_loads(tmp_path):
    # each with: wraps the entry's origin once: where its value is written was found by a
    # recursion 1,000 deep (an internal RecursionError, no location), now by a loop
    path = write(tmp_path, "flow:\n  $patch:\n    - &w {id: last, with: {gain: {amount: 3}}}\n" + "    - *w\n" * 999)
    S = interpreter.load(path).new_game(2, seed=1)
    S.apply("2")
    assert S.c["points"] == [3, 0]


def long_list(tmp_path, entries: int, change: str, times: int):
    """A base whose parameter is a list of ``entries`` entries with ids, and a variant making
    ``change`` (an anchored mapping) ``times`` times, aliased."""
    (tmp_path / "base.yaml").write_text(BASE + "params:\n  big:\n    value: ["
                                        + ", ".join(f"{{id: {i}, n: 0}}" for i in range(entries)) + "]\n")
    (tmp_path / "v.yaml").write_text("extends: base.yaml\nparams:\n  big:\n    value:\n      $patch: [\n"
                                     f"        {change},\n" + "        *op, " * (times - 1) + "]\n")
    return tmp_path / "v.yaml"


def test_aliased_changes_of_a_long_list_find_their_entries_by_an_index(tmp_path, monkeypatch):
    # each change looked its entry up through the whole list: 3,000 changes over 3,000 entries
    # made 9 million comparisons; now each is found at once, and the work counted is linear
    from interpreter.loading import patches
    monkeypatch.setattr(patches, "MAX_PATCH_WORK", 40_000)
    path = long_list(tmp_path, 3_000, "&op {after: 2999, insert: []}", 3_000)
    from interpreter.loading.variants import load_data
    assert len(load_data(path).data["params"]["big"]["value"]) == 3_000


def test_changes_moving_a_long_list_again_and_again_stop_at_a_located_limit(tmp_path, monkeypatch):
    # each insert before the first entry moves every entry: the next change finds its entry in a
    # list indexed again, counted; past MAX_PATCH_WORK a located error, never minutes of work
    from interpreter.loading import patches
    monkeypatch.setattr(patches, "MAX_PATCH_WORK", 50_000)
    path = long_list(tmp_path, 2_000, "&op {before: 0, insert: [{id: q, n: 1}]}", 100)
    with pytest.raises(RulesetError) as info:
        interpreter.load(path)
    d = info.value.diagnostics[0]
    assert d.code == "limit" and "more than 50,000 entries touched" in d.message
    assert d.loc.path.endswith("v.yaml") and d.loc.line == 6


@pytest.mark.parametrize("limit,over,room", [("MAX_CHAIN_VALUES", "values (after alias expansion)", 1_500),
                                             ("MAX_CHAIN_BYTES", "bytes", 3_500)])
def test_an_extends_chain_holds_no_more_than_one_file_may(tmp_path, monkeypatch, limit, over, room):
    # each file of a chain was bounded alone: 9 files each at the limits read 9 times as much
    from interpreter.loading import variants
    (tmp_path / "f2.yaml").write_text(BASE + "params:\n  big:\n    value: [" + ", ".join(["0"] * 1_000) + "]\n")
    for k in (1, 0):
        (tmp_path / f"f{k}.yaml").write_text(f"extends: f{k + 1}.yaml\nparams:\n  big: ["
                                             + ", ".join([str(k)] * 1_000) + "]\n")
    size = {"MAX_CHAIN_VALUES": len(variants.load_data(tmp_path / "f2.yaml").smap.entries()),
            "MAX_CHAIN_BYTES": (tmp_path / "f2.yaml").stat().st_size}[limit]
    monkeypatch.setattr(variants, limit, size + room)     # f2 and f1 within it, with f0 past it
    variants._files.clear()
    assert variants.load_data(tmp_path / "f1.yaml").data["params"]["big"]["default"][0] == 1
    with pytest.raises(RulesetError) as info:
        variants.load_data(tmp_path / "f0.yaml")
    d = info.value.diagnostics[0]
    assert d.code == "limit" and "the first 3 files of this extends: chain hold" in d.message and over in d.message
    assert d.loc.path.endswith("f1.yaml") and d.loc.line == 1      # at the extends: naming the file past it
