"""``validate`` says in its last line what it found: ``ok``, ``ok, N warnings`` or ``failed``;
``--strict`` fails on warnings; a deck short in every random game and a variant's unknown
parameter are errors."""
import json
import shutil
from pathlib import Path

import pytest
from helpers import tiny_ruleset

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"

# a deck of 8 cards dealt 4 each: 2 players are served, 3 never are
SHORT_DECK = tiny_ruleset("""
  hand: {owner: player, visible: owner}
flow:
  - deal: {from: deck, to: hand, count: 4}
  - choose: {who: 0, options: "[1, 2]", as: x, prompt: pick}
vars:
  x: {type: int}
scoring:
  categories: {cards: count(hand), x: "x if me == 0 else 0"}
""", game="short", players=(2, 3), attributes="rank: 1..8", label="{rank}")

UNUSED_PARAM = tiny_ruleset("""
  hand: {owner: player, visible: owner}
params: {spare: 1}
flow:
  - deal: {from: deck, to: hand, count: 1}
scoring:
  categories: {cards: count(hand)}
""", game="spare", attributes="rank: 1..4", label="{rank}")


def last_line(out: str) -> str:
    return out.strip().splitlines()[-1]


def test_warnings_are_counted_in_the_last_line_and_strict_fails_them(cli, tmp_path):
    path = tmp_path / "spare.yaml"
    path.write_text(UNUSED_PARAM)
    code, out, err = cli("validate", str(path))
    assert code == 0 and "warning[unused]" in err
    assert last_line(out) == f"{path}: ok, 1 warning"
    code, out, _ = cli("validate", str(path), "--strict")
    assert code == 1 and last_line(out) == f"{path}: failed: 1 warning (--strict)"


def test_several_files_end_with_one_verdict_for_all(cli, tmp_path):
    path = tmp_path / "spare.yaml"
    path.write_text(UNUSED_PARAM)
    code, out, _ = cli("validate", "diamonds", str(path))
    assert code == 0 and last_line(out) == "4 checked: ok, 1 warning"
    code, out, _ = cli("validate", "diamonds", str(path), "--strict")
    assert code == 1 and last_line(out) == "4 checked: failed (1 of 4)"


def test_playout_warnings_count_beside_ok(cli):
    code, out, err = cli("validate", "diams", "--playouts", "5", "--players", "4")
    lines = [line for line in err.splitlines() if "warning[" in line]
    # (past a few, rules that never fired are one line: "and N more rules never fired")
    shown = sum(int(line.split("and ")[1].split(" more")[0]) if " more rules " in line else 1 for line in lines)
    assert code == 0 and shown > 0
    assert "2 checked: ok, " in last_line(out)
    counted = sum(int(line.split("ok, ")[1].split(" warning")[0]) for line in out.splitlines()[:-1]
                  if "ok, " in line)
    assert counted == shown and last_line(out) == f"2 checked: ok, {shown} warnings"


def test_a_deck_short_in_every_game_is_an_error(cli, tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(SHORT_DECK)
    code, out, err = cli("validate", str(path), "--playouts", "4")
    assert code == 1, out + err
    assert "error[ran_out]: 3 players: deal from deck ran out in 4 of 4 games" in err
    assert "warning[ran_out]" not in err   # 2 players are served
    assert last_line(out).startswith(f"{path}: failed: 1 error; 8 random games")
    code, out, _ = cli("validate", str(path), "--playouts", "4", "--players", "2")
    assert code == 0, out
    code, out, _ = cli("validate", str(path), "--playouts", "2", "--json")
    report = json.loads(out)
    [anomaly] = report["files"][0]["playouts"]["anomalies"]
    assert report["ok"] is False and anomaly["severity"] == "error"


@pytest.fixture
def tricks(tmp_path):
    shutil.copy(EXAMPLES / "little_tricks.yaml", tmp_path)
    return tmp_path


def test_an_unknown_parameter_in_a_variant_file_is_a_located_error(cli, tricks):
    variant = tricks / "typo.yaml"
    variant.write_text("extends: little_tricks.yaml\nparams: {exact_bonnus: 8}\n")
    code, out, err = cli("validate", str(variant))
    assert code == 1 and last_line(out) == f"{variant}: failed: 1 error"
    assert f"{variant}:2:10: error[variant]: unknown parameter 'exact_bonnus'" in err
    assert "did you mean 'exact_bonus'?" in err


def test_an_unknown_parameter_in_an_inline_variant_is_a_located_error(cli, tmp_path):
    text = (ROOT / "rulesets" / "diamonds.yaml").read_text()
    path = tmp_path / "d.yaml"
    path.write_text(text + "\n  typo:\n    params: {roundz: 1}\n")
    code, out, err = cli("validate", str(path))
    line = len(text.splitlines()) + 3
    assert code == 1 and f"{path}:{line}:14: error[variant]: unknown parameter 'roundz'" in err
    assert "did you mean 'rounds'?" in err and last_line(out) == "4 checked: failed (1 of 4)"


def test_extends_outside_the_folder_hints_the_bundled_name(cli, tmp_path):
    (tmp_path / "mine").mkdir()
    variant = tmp_path / "mine" / "v.yaml"
    variant.write_text("extends: ../diamonds.yaml\nparams: {rounds: 1}\n")
    code, _, err = cli("validate", str(variant))
    assert code == 1 and "outside the allowed ruleset folders" in err
    assert "write extends: diamonds (a bundled ruleset" in err
    variant.write_text("extends: diamonds\nparams: {rounds: 1}\n")
    assert cli("validate", str(variant))[0] == 0


def test_a_move_short_in_every_game_stays_a_warning(cli, tmp_path):
    # how often players draw is theirs to choose: only a deal that cannot be served fails
    path = tmp_path / "draws.yaml"
    path.write_text(SHORT_DECK.replace("  - deal: {from: deck, to: hand, count: 4}",
                                       "  - move: {from: deck, to: \"hand[0]\", count: 9}"))
    code, out, err = cli("validate", str(path), "--playouts", "3")
    assert code == 0 and "warning[ran_out]: 2, 3 players: move from deck ran out in 3 of 3 games" in err   # (alike at both counts: one line)
    assert "ok, " in last_line(out)


def test_the_variants_of_a_ruleset_larger_than_the_kept_texts_parse_and_compile_none_again(cli, tmp_path, monkeypatch):
    # validate builds a ruleset and each variant: a ruleset whose texts pass the stores' bound
    # (900 expressions of 110 characters past 50,000) emptied them as each build went on, so
    # every variant parsed and compiled every text again (16 variants: 24 s, the base 4 s).
    # Within one ruleset's validate, what the builds made is held: each text once
    from interpreter.expr import parser
    from interpreter.loading import kept
    steps = "".join(f'  - set: {{x: "max(x + params.k, x * 2 - {i}, min(x, {i}) + 1)"}}\n' for i in range(40))
    variants = "".join(f"  v{k}: {{params: {{k: {{default: {k}}}}}}}\n" for k in range(3))
    path = tmp_path / "many.yaml"
    path.write_text("game: many\nplayers: {min: 1, max: 1}\nparams:\n  k: {type: int, default: 1, min: 0, max: 9}\n"
                    "vars:\n  x: {type: int, start: 0}\nflow:\n" + steps + "variants:\n" + variants)
    monkeypatch.setattr(parser._trees, "limit", 500)   # (a few texts: the whole ruleset's pass it)
    monkeypatch.setattr(kept._code, "limit", 5_000)
    parsed, compiled = [], []
    real_parsed, real_compile = parser._parsed, compile
    monkeypatch.setattr(parser, "_parsed", lambda text: parsed.append(text) or real_parsed(text))
    monkeypatch.setattr(kept, "compile", lambda source, *a: compiled.append(source) or real_compile(source, *a),
                        raising=False)
    code, out, _ = cli("validate", path)
    assert code == 0 and out.splitlines()[-1] == "4 checked: ok"
    assert len(parsed) == len(set(parsed)) >= 40
    repeated = len(compiled) - len(set(compiled))
    assert len(set(compiled)) > 80 and repeated == 0
