"""What a seat sees, rule by rule, each on a ruleset written for it: observations, logs redacted
for a seat, who can tell which option was chosen, team-owned zones and counters, and the labels
of a long shared zone. (test_redaction.py checks redaction as a whole on the seed games: twins
and every label shown; these say each rule and the seat it applies to.)"""
from __future__ import annotations

import io
import random
import json
import textwrap

import pytest

import interpreter
from interpreter.play.logs import gamelog
from interpreter.play.logs.redact import HIDDEN
from interpreter.errors import GameError
from interpreter.web.games import LiveGame, NotYours
from helpers import load_text, tiny_ruleset

BASE = tiny_ruleset("""
  hand: {owner: player, visible: owner}
  table: {visible: all}
counters:
  gold: {owner: player, start: 3, visible: owner}
  joker: {owner: player, start: 1, visible: owner}
  fame: {owner: player, start: 0}
vars:
  _secret: {type: int, start: 0}
  shown: {type: int, start: 0}
  c: card
""", game="vis", players=(2, 4), attributes="suit: [A, B], rank: 1..6")


def load(tmp_path, body, base=BASE):
    return load_text(tmp_path, textwrap.dedent(base) + textwrap.dedent(body), "vis.yaml")


class Script:
    """An agent that plays the given labels in turn (the first option once they run out)."""
    name = "script"

    def __init__(self, labels):
        self.labels = list(labels)

    def act(self, observation, legal):
        return legal.index(self.labels.pop(0)) if self.labels else 0


def log_lines(rules, players, script=(), seat=None, seed=1) -> list[dict]:
    """The log of one game played by ``script`` (every seat's choices, in order), redacted for
    ``seat`` (None: omniscient)."""
    out = io.StringIO()
    agent = Script(script)
    gamelog.play_game(rules, players, seed, [agent] * players, log=out, log_for=seat)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def events(lines, kind) -> list[dict]:
    return [e for line in lines for e in line.get("events") or () if e.get("ev") == kind]


def decisions(lines, prompt) -> list[dict]:
    return [line for line in lines if line.get("type") == "decision" and line["prompt"] == prompt]


# ---------------------------------------------------------------------- variables
def test_private_variables_are_in_no_observation_and_public_ones_in_every_one(tmp_path):
    r = load(tmp_path, """
    flow:
      - set: {_secret: 7, shown: 5}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    S = r.new_game(3)
    for seat in (0, 1, 2, None):
        assert S.observation(seat)["vars"] == {"shown": 5, "c": None}
    assert S.v["_secret"] == 7


def test_a_random_value_into_a_private_variable_is_not_in_a_redacted_log(tmp_path):
    r = load(tmp_path, """
    flow:
      - random: {var: _secret, from: "[7, 8, 9]"}
      - random: {var: shown, from: "[7, 8, 9]"}
      - choose: {who: 0, options: "[1]", as: x2}
    """, base=BASE + "  x2: int\n")
    omniscient = events(log_lines(r, 2), "random")
    assert [e["var"] for e in omniscient] == ["_secret", "shown"] and all("value" in e for e in omniscient)
    for seat in (0, 1):
        private, public = events(log_lines(r, 2, seat=seat), "random")
        assert private["var"] == "_secret" and "value" not in private
        assert public["value"] == omniscient[1]["value"]      # a public variable's value is shown


def test_a_set_of_a_private_variable_is_not_in_a_redacted_log(tmp_path):
    r = load(tmp_path, """
    flow:
      - set: {_secret: 41}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    assert 41 in [e.get("value") for e in events(log_lines(r, 2), "set")]
    for seat in (0, 1):
        assert 41 not in [e.get("value") for e in events(log_lines(r, 2, seat=seat), "set")]


# ---------------------------------------------------------------------- counters
PAY = """
flow:
  - turns:
      steps:
        - pay: {any: 1, from: [gold, joker], prompt: pay}
"""


def test_a_pay_of_a_hidden_counter_says_neither_which_counter_nor_how_much(tmp_path):
    r = load(tmp_path, PAY)
    script = ["joker", "gold"]                        # seat 0 pays its joker, seat 1 its gold
    full = events(log_lines(r, 2, script), "pay")
    assert [(e["who"], e["counter"], e["amount"]) for e in full] == [(0, "joker", 1), (1, "gold", 1)]
    for seat in (0, 1):
        lines = log_lines(r, 2, script, seat=seat)
        for e in events(lines, "pay"):
            if e["who"] == seat:          # one's own payment, in full
                assert e["counter"] == full[seat]["counter"] and e["amount"] == 1
            else:
                assert "counter" not in e and "amount" not in e and e["hidden"] is True
        for line in decisions(lines, "pay"):   # the option named the counter: hidden as well
            assert line["action"] == (script[line["seat"]] if line["seat"] == seat else HIDDEN)


def test_a_pay_of_a_public_counter_is_shown_to_all(tmp_path):
    r = load(tmp_path, PAY.replace("[gold, joker]", "[fame, joker]"),
             base=BASE.replace("fame: {owner: player, start: 0}", "fame: {owner: player, start: 2}"))
    for seat in (0, 1):
        lines = log_lines(r, 2, ["fame", "fame"], seat=seat)
        assert [(e["who"], e["counter"]) for e in events(lines, "pay")] == [(0, "fame"), (1, "fame")]
        assert [line["action"] for line in decisions(lines, "pay")] == ["fame", "fame"]


def test_a_gain_of_a_hidden_counter_is_told_to_its_owner_only(tmp_path):
    """The other seats' observations cannot tell the counter changed: their logs do not say so."""
    r = load(tmp_path, """
    flow:
      - gain: {counter: "gold[1]", amount: 4}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    for seat in (0, 1, 2):
        gains = events(log_lines(r, 3, seat=seat), "gain")
        assert [ev["amount"] for ev in gains] == ([4] if seat == 1 else [])


# ---------------------------------------------------------------------- teams
def team_rules(tmp_path, flow):
    base = BASE.replace("zones:\n", "zones:\n  vault: {owner: team, visible: owner}\n").replace(
        "counters:\n", "counters:\n  purse: {owner: team, start: 0, visible: owner}\n")
    base = base.replace("players: {min: 2, max: 4}", "players: {min: 4, max: 4}\n"
                        "teams: {by_players: {'4': [[0, 1], [2, 3]]}}")
    return load(tmp_path, flow, base=base)


# cards and points to each team: 2 cards and 5 to team 0, 3 cards and 6 to team 1
TEAM_FLOW = """
flow:
  - move: {from: deck, to: "vault[0]", count: 2}
  - move: {from: deck, to: "vault[team(2)]", count: 3}
  - gain: {counter: "purse[0]", amount: 5}
  - gain: {counter: "purse[team(2)]", amount: 6}
  - choose: {who: 0, options: "[1]", as: shown}
"""


def test_a_team_zone_visible_to_its_owner_is_shown_to_every_member_of_the_team(tmp_path):
    r = team_rules(tmp_path, TEAM_FLOW)
    S = r.new_game(4)
    labels = [[r.card_labels[c] for c in z] for z in S.z["vault"]]
    for seat, team in ((0, 0), (1, 0), (2, 1), (3, 1)):
        obs = S.observation(seat)
        assert obs["zones"]["vault"] == [labels[t] if t == team else len(labels[t]) for t in (0, 1)]
        assert obs["counters"]["purse"] == [[5, 6][t] if t == team else None for t in (0, 1)]
    assert S.observation(None)["zones"]["vault"] == [2, 3]
    assert S.observation(None)["counters"]["purse"] == [None, None]


def test_each_team_sees_its_own_counters_and_cards_in_a_redacted_log(tmp_path):
    r = team_rules(tmp_path, TEAM_FLOW)
    full = log_lines(r, 4)
    for seat, team in ((0, 0), (1, 0), (2, 1), (3, 1)):
        lines = log_lines(r, 4, seat=seat)
        gains = events(lines, "gain")
        assert [(g["owner"], g["amount"]) for g in gains] == [(team, [5, 6][team])]   # the other team's: left out
        moves = [e for e in events(lines, "move")]
        full_moves = events(full, "move")
        for k, owner in enumerate((0, 1)):
            if owner == team:
                assert moves[k]["cards"] == full_moves[k]["cards"]
            else:
                assert "cards" not in moves[k] and moves[k]["count"] == [2, 3][owner]


def test_a_team_counter_gained_by_a_member_is_its_teams(tmp_path):
    """A counter event without an owner is the acting seat's team's (seat 1: team 0): the other
    team's seats are not told of it."""
    r = team_rules(tmp_path, """
    flow:
      - with_player: {who: 1, do: [{gain: {counter: purse, amount: 2}}]}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    assert r.new_game(4).c["purse"] == [2, 0]
    for seat, team in ((0, 0), (1, 0), (2, 1), (3, 1)):
        gains = events(log_lines(r, 4, seat=seat), "gain")
        assert [ev.get("amount") for ev in gains] == ([2] if team == 0 else [])


# ---------------------------------------------------------------------- which option was chosen
CHOICE = """
flow:
  - deal: {from: deck, to: hand, count: 3}
  - turns:
      rounds: 1
      steps:
        - choose: {options: hand, as: c, prompt: which}
        - move: {from: hand, to: table, cards: CARDS}
        - set: {c: none}
"""


def test_a_chosen_card_moved_alone_to_a_public_zone_shows_the_choice(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"[c]"'))
    full = decisions(log_lines(r, 2), "which")
    for seat in (0, 1):
        shown = decisions(log_lines(r, 2, seat=seat), "which")
        assert [d["action"] for d in shown] == [d["action"] for d in full]


def test_a_chosen_card_moved_together_with_others_does_not_tell_which_was_chosen(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"hand where it == c or it == first(hand where it != c)"'))
    full = log_lines(r, 2)
    assert [len(e["cards"]) for e in events(full, "move") if e.get("to") == "table"] == [2, 2]
    for seat in (0, 1):
        lines = log_lines(r, 2, seat=seat)
        for d, f in zip(decisions(lines, "which"), decisions(full, "which")):
            assert d["action"] == (f["action"] if d["seat"] == seat else HIDDEN)


def test_a_choice_into_a_public_variable_that_keeps_it_is_shown(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"[]"').replace("        - set: {c: none}\n", ""))
    full = decisions(log_lines(r, 2), "which")
    for seat in (0, 1):
        assert [d["action"] for d in decisions(log_lines(r, 2, seat=seat), "which")] == [d["action"] for d in full]


def test_a_choice_into_a_private_variable_is_seen_by_the_chooser_only(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"[_c]"').replace("as: c", "as: _c").replace("{c: none}", "{_c: none}"),
             base=BASE + "  _c: card\n")
    full = decisions(log_lines(r, 2), "which")
    for seat in (0, 1):
        shown = decisions(log_lines(r, 2, seat=seat), "which")
        assert [d["action"] for d in shown] == [f["action"] if f["seat"] == seat else HIDDEN for f in full]


@pytest.mark.parametrize("count", [2, 3])
def test_cards_passed_into_a_sorted_hand_come_in_card_order_to_whoever_did_not_see_them_chosen(tmp_path, count):
    """Seat 0 passes its highest cards, highest first, into seat 1's hand, kept sorted: seat 1
    sees them arrive in card order, as its hand shows them, not in the order seat 0 chose."""
    r = load(tmp_path, f"""
    flow:
      - deal: {{from: deck, to: hand, count: 4}}
      - set: {{passed: "map(0..{count - 1}, to: hand[0][3 - it])"}}
      - move: {{from: "hand[0]", to: "hand[1]", cards: passed}}
      - choose: {{who: 0, options: "[1]", as: shown}}
    """, base=BASE.replace("hand: {owner: player, visible: owner}", "hand: {owner: player, visible: owner, sorted: true}")
             + "  passed: list[card]\n")
    chosen = [e["cards"] for e in events(log_lines(r, 2), "move") if e.get("to") == "hand"][0]
    assert len(chosen) == count and chosen == sorted(chosen, reverse=True)     # the order seat 0 chose
    for seat, seen in ((0, chosen), (1, sorted(chosen))):
        assert [e["cards"] for e in events(log_lines(r, 2, seat=seat), "move") if e.get("to") == "hand"] == [seen]


# ---------------------------------------------------------------------- long shared zones
def test_a_long_public_zone_shows_its_cards_after_a_change_that_keeps_its_size(tmp_path):
    """Labels of a shared zone of 32 cards or more are kept between observations while its
    cards stay the same; reordered, or one card swapped for another, it shows the new cards."""
    path = tmp_path / "row.yaml"
    path.write_text("game: row\nplayers: {min: 2, max: 2}\ncomponents:\n  c: {attributes: {n: 1..50}, label: 'c{n}'}\n"
                    "zones:\n  row: {start: [c]}\n  stock: {visible: none}\n"
                    "setup:\n  - move: {from: row, to: stock, count: 10}\n"
                    "flow:\n  - choose: {who: 0, options: '[1]', as: x}\n  - shuffle: row\n"
                    "  - choose: {who: 0, options: '[1]', as: x}\n"
                    "  - move: {from: row, to: stock, count: 1, bottom: true}\n  - move: {from: stock, to: row, count: 1}\n"
                    "  - choose: {who: 0, options: '[1]', as: x}\n"
                    "vars:\n  x: int\n")
    rules = interpreter.load(path)
    S = rules.new_game(2, 3)
    labels = lambda: [rules.card_labels[c] for c in S.z["row"]]   # noqa: E731
    assert len(S.z["row"]) == 40 and S.observation(1)["zones"]["row"] == labels()
    before = labels()
    S.apply("1")                                      # shuffled: the same 40 cards, another order
    assert labels() != before and sorted(labels()) == sorted(before)
    assert S.observation(1)["zones"]["row"] == labels()
    kept = set(labels())
    S.apply("1")                                      # one card out, another in: still 40
    assert len(S.z["row"]) == 40 and set(labels()) != kept
    assert S.observation(0)["zones"]["row"] == labels()
    other = rules.new_game(2, 4)                      # another game of the ruleset, the same size
    assert other.observation(1)["zones"]["row"] == [rules.card_labels[c] for c in other.z["row"]]


def test_a_team_counter_paid_by_a_member_is_seen_by_the_team_only(tmp_path):
    """A pay event names the paying seat, not the counter's owner: its team is the seat's."""
    r = team_rules(tmp_path, """
    setup:
      - gain: {counter: "purse[0]", amount: 3}
      - gain: {counter: "purse[team(2)]", amount: 3}
    flow:
      - pay: {who: 1, costs: {purse: 1}, prompt: pay}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    (full,) = events(log_lines(r, 4), "pay")
    assert full["who"] == 1 and "owner" not in full
    for seat, team in ((0, 0), (1, 0), (2, 1), (3, 1)):   # (the other team: no trace of it)
        assert [(ev.get("counter"), ev.get("amount")) for ev in events(log_lines(r, 4, seat=seat), "pay")] == \
            ([("purse", 1)] if team == 0 else [])


# ---------------------------------------------------------------------- knowledge
def test_a_card_leaving_a_team_zone_is_known_to_every_member_of_the_team(tmp_path):
    """Seats that saw a card leave a zone know where it went (engine/knowledge.py): for a team's
    zone, each member; a determinization for a member keeps it there."""
    r = team_rules(tmp_path, """
    flow:
      - move: {from: deck, to: "vault[0]", count: 2}
      - choose: {who: 0, options: "[1]", as: shown}
      - move: {from: "vault[0]", to: deck, count: 1}
      - choose: {who: 0, options: "[1]", as: shown}
    """)
    S = r.new_game(4, 1, knowledge=True)
    S.apply("1")
    card = S.z["deck"][-1]                 # the card just put on the hidden deck
    assert S.kn[card] == 0b0011            # seats 0 and 1 (team 0) know it is there
    for seat in (0, 1):
        for k in range(5):
            assert card in S.determinize(seat, random.Random(k)).z["deck"]


# ---------------------------------------------------------------------- the web table
def test_the_web_table_tells_a_seat_what_the_others_did_since_its_turn_as_it_may_know_it(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"hand where it == c or it == first(hand where it != c)"'))
    s = LiveGame(r, 3, 1, "first,first,human")        # two agents decide before the human seat
    full = [line for line, _ in s.positions[1:]]
    assert [line["seat"] for line in full] == [0, 1] and s.state.current_player() == 2
    for seat in (2, None):
        told = s.view(2, seat)["since"]
        assert len(told) == 2 and all(f"seat {line['seat']} chooses which in secret." in t for t, line in zip(told, full))
    told = s.view(2, "all")["since"]
    assert len(told) == 2 and all(f"seat {line['seat']} chooses which: {line['action']}." in t for t, line in zip(told, full))
    # seen from an earlier position: only what had happened by then
    assert len(s.view(1, 2)["since"]) == 1 and s.view(1, 2)["since"][0].startswith("seat 0 chooses which in secret.")
    # what was chosen at position 1 (seat 1's card): its own seat knows, the others do not
    assert s.view(1, 1)["chosen"] == s.view(1, "all")["chosen"] == full[1]["action"] != HIDDEN
    assert s.view(1, 0)["chosen"] == s.view(1, 2)["chosen"] == s.view(1, None)["chosen"] == HIDDEN


def test_a_live_game_shows_its_client_only_its_human_seats_and_the_spectator_s_view(tmp_path):
    r = load(tmp_path, CHOICE.replace("CARDS", '"hand where it == c"'))
    s = LiveGame(r, 3, 1, "first,first,human")
    assert s.seat_of("2") == 2 and s.seat_of("spectator") is None and s.seat_of("") is None
    for other in ("0", "1", "all"):       # another seat's hand, or every hand: not for this client
        with pytest.raises(NotYours):
            s.seat_of(other)
    for bad, message in (("3", "no seat 3 in a game of 3 players"), ("123456", "no seat '123456'"),
                         ("-1", "no seat '-1'"), ("x", "no seat 'x'")):
        with pytest.raises(GameError) as info:
            s.seat_of(bad)
        assert str(info.value.message) == message and not isinstance(info.value, NotYours)


def test_hidden_cards_are_dealt_into_overlapping_holds_each_where_it_may_be():
    """Holds that overlap without nesting (a in 0 or 1, b in 1 or 2, c in 2 or 0) are dealt by
    tries (engine/knowledge.py): every deal puts each card where its zone may hold it."""
    from interpreter.engine.dealing import deal as _deal
    kinds = ["a", "b", "c"]
    slots = [([], 1, frozenset("ac")), ([], 1, frozenset("ab")), ([], 1, frozenset("bc"))]
    rng = random.Random(2)
    deals = set()
    for _ in range(100):
        dealt, _ = _deal([0, 1, 2], slots, kinds, None, rng)
        assert all(kinds[c] in holds for (_, _, holds), cards in zip(slots, dealt) for c in cards)
        assert sorted(c for cards in dealt for c in cards) == [0, 1, 2]
        deals.add(tuple(map(tuple, dealt)))
    assert deals == {((0,), (1,), (2,)), ((2,), (0,), (1,))}   # the only two that fit, both dealt


# ---------------------------------------------------------------------- the RL tensors
def tensor_shows_the_observation(rules, S, seat):
    """A seat's tensor (adapters/tensors.py, docs/rl.md) holds what its observation shows and no
    more: each zone's cards where the seat sees them (zeros elsewhere) and how many, each
    counter's value where it sees it (0 elsewhere); owners relative to the seat (or its team)."""
    from collections import Counter
    from interpreter.adapters.tensors import layout
    L = layout(rules, S.n)
    t = L.encode(S, seat)
    pieces = {name: (off, size) for name, off, size in L.pieces}
    assert len(pieces) == len(L.pieces) and sum(size for _, size in pieces.values()) == L.size == len(t)
    obs, labels, n = S.observation(seat), rules.card_labels, S.n
    teams, team = len(S.members), S.tm[seat]
    assert list(t[slice(*_span(pieces["seat"]))]) == [float(p == seat) for p in range(n)]
    cur = S.current_player()
    assert list(t[slice(*_span(pieces["to_move"]))]) == [float(k == ((cur - seat) % n if cur >= 0 else n))
                                                         for k in range(n + 1)]
    for name, kind in rules.zone_owner.items():
        holds = rules.zone_holds.get(name)
        held = [c for c in range(len(labels)) if holds is None or rules.cards.kinds[c] in holds]
        shown = obs["zones"][name]
        if kind == "card":
            off, size = pieces[f"size:{name}"]
            sizes = {labels[o]: int(t[off + o]) for o in range(size) if t[off + o]}
            assert sizes == {k: (len(v) if isinstance(v, list) else v) for k, v in shown.items()}
            off, size = pieces[f"zone:{name}"]     # every card's zone at once: the cards seen
            assert Counter(labels[held[i]] for i in range(size) if t[off + i]) == Counter(
                x for v in shown.values() if isinstance(v, list) for x in v), name
            continue
        base, m = (seat, n) if kind == "player" else (team, teams)
        owners = [("", None)] if kind == "none" else [(f"+{k}", (base + k) % m) for k in range(m)]
        for suffix, owner in owners:
            seen = shown if owner is None else shown[owner]
            off, size = pieces[f"zone:{name}{suffix}"]
            hot = [held[i] for i in range(size) if t[off + i]]
            count = t[pieces[f"size:{name}{suffix}"][0]]
            if isinstance(seen, list):
                assert count == len(seen) and Counter(labels[c] for c in hot) == Counter(seen), (name, owner)
            else:
                assert count == seen and not hot, (name, owner)
    for name, kind in rules.counter_owner.items():
        off, size = pieces[f"counter:{name}"]
        value = obs["counters"][name]
        if kind == "none":
            expected = [value or 0]
        elif kind == "card":
            expected = [(value or {}).get(labels[c], 0) for c in range(size)] if value is not None else [0] * size
        else:
            base = seat if kind == "player" else team
            expected = [(value[(base + k) % size] or 0) for k in range(size)]
        assert list(t[off:off + size]) == expected, name


def _span(piece):
    off, size = piece
    return off, off + size


SEEN = """
zones:
  under: {owner: card, visible: owner}
  over: {owner: card, visible: all}
counters:
  mark: {owner: card, visible: all}
  secret_mark: {owner: card, visible: owner}
  pot: {start: 2}
  hidden_pot: {start: 5, visible: none}
flow:
  - deal: {from: deck, to: hand, count: 2}
  - move: {from: deck, to: table, count: 2}
  - move: {from: deck, to: "under[first(table)]", count: 1}
  - move: {from: deck, to: "over[last(table)]", count: 2}
  - gain: {counter: "mark[first(table)]", amount: 3}
  - gain: {counter: "secret_mark[first(table)]", amount: 4}
  - turns:
      rounds: 2
      steps:
        - gain: {counter: gold, amount: "me + 1"}
        - gain: {counter: fame, amount: 2}
        - pick: {from: hand, to: table, count: 1, prompt: play}
"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_tensor_shows_what_its_observation_shows_and_no_more(tmp_path, players):
    base = BASE.replace("zones:\n", "zones:\n" + SEEN.split("counters:")[0].split("zones:\n")[1]).replace(
        "counters:\n", "counters:\n" + SEEN.split("counters:\n")[1].split("flow:")[0])
    r = load(tmp_path, "flow:" + SEEN.split("flow:")[1], base=base)
    S = r.new_game(players, 1)
    while True:
        for seat in range(players):
            tensor_shows_the_observation(r, S, seat)
        if S.is_terminal():
            break
        S.apply_index(0)


def test_a_team_seat_tensor_shows_its_team_zones_and_counters(tmp_path):
    r = team_rules(tmp_path, TEAM_FLOW)
    S = r.new_game(4)
    for seat in range(4):
        tensor_shows_the_observation(r, S, seat)


@pytest.mark.parametrize("name, variant, players", [("diamonds", "teams", 4), ("diams", None, 3),
                                                    ("mister_diamond", None, 3)])
def test_a_seed_game_seat_tensor_shows_what_its_observation_shows(name, variant, players):
    rules = interpreter.load(name, variant=variant)
    S, rnd = rules.new_game(players, 2), random.Random(2)
    for k in range(400):
        if k % 20 == 0 or S.is_terminal():
            for seat in range(players):
                tensor_shows_the_observation(rules, S, seat)
        if S.is_terminal():
            break
        S.apply_index(rnd.randrange(len(S.dec[1])))


def test_a_saved_states_knowledge_names_only_seats_and_cards_of_the_game(tmp_path):
    """What each seat knows is saved with the state (``known``: card -> bitmask of seats);
    loading refuses a mask naming a seat past the last, or a card the game does not have."""
    from interpreter.errors import GameError
    r = load(tmp_path, CHOICE.replace("CARDS", '"[c]"'))
    S = r.new_game(3, 1, knowledge=True)
    saved = json.loads(S.to_json())
    card = str(S.z["hand"][0][0])
    for mask in (1, 0b111):
        T = r.state_from_json(json.dumps({**saved, "known": {card: mask}}))
        assert T.kn == {int(card): mask}
    for known, words in (({card: 0b1000}, rf"known\[{card}\]: expected a bitmask of seats"),
                         ({card: -1}, rf"known\[{card}\]: expected a bitmask of seats"),
                         ({"12": 1}, "known: no card '12'")):
        with pytest.raises(GameError, match=words):
            r.state_from_json(json.dumps({**saved, "known": known}))


def test_a_seat_loses_track_of_a_card_moved_where_it_cannot_see_and_all_know_a_card_shown(tmp_path):
    """Knowledge (engine/knowledge.py): seat 0 puts a card from its hand on the hidden deck and
    knows it is there; moved on from the deck into a hidden pile, nobody knows where it is (no
    seat saw it leave); a card put on the public table is no one's secret."""
    r = load(tmp_path, """
    flow:
      - deal: {from: deck, to: hand, count: 2}
      - choose: {who: 0, options: "[1]", as: shown}
      - move: {from: "hand[0]", to: deck, count: 1}
      - choose: {who: 0, options: "[1]", as: shown}
      - move: {from: deck, to: pile, count: 1}
      - move: {from: "hand[0]", to: deck, count: 1}
      - choose: {who: 0, options: "[1]", as: shown}
      - move: {from: deck, to: table, count: 1}
      - choose: {who: 0, options: "[1]", as: shown}
    """, base=BASE.replace("  table: {visible: all}\n", "  table: {visible: all}\n  pile: {visible: none}\n"))
    S = r.new_game(2, 1, knowledge=True)
    first, second = S.z["hand"][0][-1], S.z["hand"][0][-2]
    S.apply("1")
    assert S.kn == {first: 0b01}                       # seat 0 knows the deck's top card
    S.apply("1")
    assert S.z["pile"] == [first] and S.z["deck"][-1] == second
    assert S.kn == {second: 0b01}                      # the pile's card: nobody knows it now
    S.apply("1")
    assert S.z["table"] == [second] and S.kn == {}     # on the table: everyone sees it
