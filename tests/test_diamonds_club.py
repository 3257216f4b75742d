"""Diamonds Club: every scenario of rulesets/scenarios/diamonds_club.yaml as a pytest case, and
random whole games for 2, 3 and 4 players and the cost_by_coins variant."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from seedgames import SeedGame

GAME = SeedGame("diamonds_club")
RULESET, ROOT = GAME.ruleset, GAME.ruleset.parent.parent

test_scenario = GAME.scenario_test()
test_every_ruling_has_a_scenario = GAME.ruling_test("DC", 1, 13)


def play_random(rules, players, seed):
    rnd = random.Random(seed)
    S = rules.new_game(players, seed=seed)
    decisions = 0
    while not S.is_terminal():
        S.apply_index(rnd.randrange(len(S.legal_actions())))
        decisions += 1
        assert decisions < 5000
    return S


@pytest.mark.parametrize("players,variant", [(2, None), (3, None), (4, None), (3, "cost_by_coins")])
def test_random_games_finish_with_consistent_state(players, variant):
    rules = interpreter.load(RULESET, variant=variant)
    for seed in range(2):
        S = play_random(rules, players, seed)
        assert S.v["end_triggered"]
        # someone filled the 14 light-green spaces; nobody built on a dark space without that
        full = [p for p in S.players if not any(S.c["filled"][c] == 0 for c in S.z["park"][p]
                                                 if rules.cards.rows[c]["area"] == "light")]
        assert full
        for p in S.players:
            dark = sum(S.c["filled"][c] for c in S.z["park"][p] if rules.cards.rows[c]["area"] == "dark")
            assert dark == 0 or p in full
            placed = len(S.z["buildings"][p]) + len(S.z["forests"][p]) + len(S.z["animals"][p])
            assert placed == sum(S.c["filled"][c] for c in S.z["park"][p])
            assert min(S.c[g][p] for g in ("blue", "yellow", "green", "red", "diamond")) >= 0
        breakdown = S.breakdown()
        assert [sum(b.values()) for b in breakdown] == S.scores()
        assert set(breakdown[0]) == {"buildings", "forests", "animals", "bonus_cards", "tracks"}
        for w in S.winners():
            assert S.scores()[w] == max(S.scores()[p] for p in S.winners())
        # each bonus card is held at most once, by someone or still in the supply
        held = [c for p in S.players for c in S.z["bonus_won"][p]] + S.z["bonus_supply"]
        assert sorted(held) == sorted(rules.cards.by_component["bonus"])


def test_play_json_includes_the_breakdown(capsys):
    from interpreter.tools.cli import main
    import json
    code = main(["play", str(RULESET), "--players", "2", "--seed", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert len(out["breakdown"]) == 2 and "forests" in out["breakdown"][0]
    assert out["scores"] == [sum(b.values()) for b in out["breakdown"]]


# ---------------------------------------------------------------- component data vs RULINGS.md
RULINGS = Path(__file__).resolve().parent / "oracles" / "diamonds_club_rulings.md"   # (its Diamonds Club section)
GEMS = ("blue", "yellow", "green", "red")


def _rulings_text():
    text = RULINGS.read_text()
    return text[text.index("## Diamonds Club"):]


def _decode(token):
    """A RULINGS market code -> the attributes the ruleset gives that space."""
    import re
    want = {"equip": "-", "hats": 0, "animal": "-", "dev": "-"}
    m = re.fullmatch(r"(M[bygr]|[RS][2-5])(?:\+(\d)h)?", token)
    if m:
        want["equip"], want["hats"] = m.group(1), int(m.group(2) or 0)
    elif re.fullmatch(r"H\d", token):
        want["hats"] = int(token[1])
    elif token in ("DF", "DT", "D$", "D?"):
        want["dev"] = {"DF": "forest", "DT": "tech", "D$": "money", "D?": "any"}[token]
    elif token in ("AP", "AW", "AV"):
        want["animal"] = {"AP": "pond", "AW": "wildlife_park", "AV": "aviary"}[token]
    else:
        raise AssertionError(f"unknown market code {token!r} in RULINGS.md")
    return want


def test_market_strip_faces_match_the_rulings_table():
    import re
    text = _rulings_text()
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*(dark|light)\s*\|([^|]+)\|([^|]+)\|\s*$", text, re.M)
    assert len(rows) == 12, "the RULINGS table lists 12 strips"
    rules = interpreter.load(RULESET)
    spaces = [rules.cards.rows[c] for c in rules.cards.by_component["space"]]
    assert len(spaces) == 12 * 2 * 6
    by_key = {(s["strip"], s["face"], s["pos"]): s for s in spaces}
    assert len(by_key) == 144, "each strip, face and position appears once"
    checked = 0
    for number, frame, face_a, face_b in rows:
        for face, cell in (("A", face_a), ("B", face_b)):
            tokens = cell.split()
            assert len(tokens) == 6, f"strip {number}{face}"
            for pos, token in enumerate(tokens, 1):
                s = by_key[(int(number), face, pos)]
                got = {k: s[k] for k in ("equip", "hats", "animal", "dev")}
                assert (s["frame"], got) == (frame, _decode(token)), f"strip {number}{face} space {pos}: {token}"
                checked += 1
    assert checked == 144
    # the strips of each frame are the components the layout draws from
    assert sorted(rules.cards.rows[c]["number"] for c in rules.cards.by_component["dark_strip"]) == [1, 2, 3, 4, 5, 6]
    assert sorted(rules.cards.rows[c]["number"] for c in rules.cards.by_component["light_strip"]) == list(range(7, 13))


def test_price_tables_match_the_rulings():
    import re
    text = _rulings_text()
    sentence = re.search(r"Price tables \(reconstructed\):(.*?)\n\n", text, re.S).group(1)
    entries = [e.strip() for e in " ".join(sentence.split()).rstrip(".").split(";")]
    assert len(entries) == 8
    names = {"Fountain": "fountain", "Orangery": "orangery", "Pavilion": "pavilion", "Rose Garden": "rose_garden",
             "Forest": "forest", "2-Forest": "forest2", "3-Forest": "forest3", "Any landscape tile": "any_tile"}
    gives = {"forest2": ("forest", 2), "forest3": ("forest", 3), "any_tile": ("any", 1)}
    rules = interpreter.load(RULESET)
    tables = {rules.cards.rows[c]["table"]: rules.cards.rows[c] for c in rules.cards.by_component["price_table"]}
    assert len(tables) == 8
    for entry in entries:
        m = re.fullmatch(r"(.+?) ((?:\d+ (?:blue|yellow|green|red|any)(?: \+ )?)+)", entry)
        assert m, entry
        table = tables[names[m.group(1)]]
        want = {g: 0 for g in GEMS + ("any",)}
        for n, g in re.findall(r"(\d+) (blue|yellow|green|red|any)", m.group(2)):
            want[g] += int(n)
        assert {g: table[f"cost_{g}"] for g in want} == want, entry
        assert (table["gives"], table["tiles"]) == gives.get(table["table"], (table["table"], 1)), entry


def test_required_spaces_match_the_rulings():
    import re
    text = _rulings_text()
    row = re.search(r"\| DC-8 \|(.*)\|", text).group(1)
    rules = interpreter.load(RULESET)
    spaces = [rules.cards.rows[c] for c in rules.cards.by_component["park_space"]]
    found = re.findall(r"(red|white|bronze|blue) — ([a-z ,]+?)(?:;|\. )", row)
    assert [b for b, _ in found] == ["red", "white", "bronze", "blue"]
    for board, buildings in found:
        want = sorted(b.strip().replace(" ", "_") for b in buildings.split(","))
        mine = [s for s in spaces if s["board"] == board]
        assert sorted(s["required"] for s in mine if s["required"] != "-") == want, board
        assert sum(s["area"] == "light" for s in mine) == 14 and sum(s["area"] == "dark" for s in mine) == 5
        # required spaces are light-green ones
        assert all(s["area"] == "light" for s in mine if s["required"] != "-")


def test_each_round_lays_random_strips_with_random_faces():
    """Phase 1 / DC-2: the strips of each frame are shuffled and each shows a random face,
    anew every round (fixed seeds: the draws are deterministic)."""
    rules = interpreter.load(RULESET)
    seen_faces, seen_strips, layouts = set(), set(), set()
    for seed in range(12):
        S = rules.new_game(2, seed=seed)
        rounds = []
        while not S.is_terminal() and len(rounds) < 2:
            market = [rules.cards.rows[c] for c in S.z["market"]]
            layout = tuple((s["strip"], s["face"]) for s in market[::6])
            if S.prompt() == "buy" and (not rounds or rounds[-1] != layout):
                rounds.append(layout)
                assert [s["frame"] for s in market[::6]] == ["dark", "dark", "light", "light"]
                for col in range(4):   # a column is one face of one strip, spaces 1-6 in order
                    assert [(s["strip"], s["face"], s["pos"]) for s in market[col * 6:col * 6 + 6]] == \
                        [(layout[col][0], layout[col][1], pos) for pos in range(1, 7)]
            S.apply("pass" if "pass" in S.legal_actions() else S.legal_actions()[0])
        assert len(rounds) == 2
        layouts.update(rounds)
        for layout in rounds:
            seen_strips.update(st for st, _ in layout)
            seen_faces.update(layout)
    assert seen_strips == set(range(1, 13))
    assert len(seen_faces) >= 20          # both faces of (nearly) every strip turn up
    assert len(layouts) >= 20             # rounds and games differ


@pytest.mark.parametrize("variant", [None, "cost_by_coins"])
def test_random_playouts_keep_the_invariants(variant):
    """The ruleset's `invariants:` (tiles fill spaces, dark spaces only after light ones, pieces
    and tiles conserved, one piece per player and table) hold in random games of 2-4 players."""
    from interpreter.play.checks.playouts import playouts
    rules = interpreter.load(RULESET, variant=variant)
    report = playouts(rules, games=2, seed=100)
    assert report.games == 6
    assert report.ok, [p.message for p in report.problems]
