"""``explain`` reads titles as grammatical English whatever the ruleset calls things: a plural
title after "every", a zone titled as one card, a seat titled by what it does, a flag as yes/no."""
from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
from interpreter.tools.explain import explain
from interpreter.tools.phrases import Phraser


def test_a_zone_with_a_plural_title_is_gathered_from_all_of_them_not_every():
    text = explain(interpreter.load("six_nimmt"))
    assert "every cards taken" not in text and "every rows" not in text
    assert "Gather the cards of every hand, all the cards taken and all the rows into the deck." in text


def test_the_first_card_of_a_zone_titled_as_one_card_is_that_card():
    rules = interpreter.load("leduc_poker")   # zones: public: {title: public card}
    text = explain(rules)
    assert "the first card in the public card" not in text
    assert "the rank of the public card" in text
    assert "the first card in your hand" in text    # a zone of several cards keeps "the first card in"


def test_a_seat_titled_by_what_it_does_reads_as_the_player_who_does_it():
    text = explain(interpreter.load("leduc_poker"))   # cur: {type: player, title: to act}
    assert "the to act" not in text and "Set the player to act to *next in*." in text


def test_a_flag_reads_yes_or_no_and_a_counter_that_counts_stays_a_number():
    rules = interpreter.load("love_letter")   # safe and out are only ever set to 0 or 1
    text = explain(rules)
    assert "Set your protection to yes." in text and "Set your protection to 1." not in text
    assert "Set the knocked out of *p* to yes." in text
    assert "Set every player's knocked out back to no; set every player's protection back to no." in text
    assert "| protection (`safe`) | each player | no (a flag: yes or no) |" in text
    assert "| tokens of affection (`tokens`) | each player | 0 |" in text
    ph = Phraser(rules)   # (outside explain: names, not titles)
    assert ph.phrase("safe == 0") == "your safe is no"
    assert ph.phrase("out[me] > 0") == "your out is yes"
    assert ph.phrase("tokens >= 2").endswith(" at least 2")   # a counter that counts: a number
    assert "Set turn over to yes." in explain(interpreter.load("mister_diamond"))   # a bool variable


def test_a_name_with_a_leading_underscore_reads_without_a_gap():
    text = explain(interpreter.load("crazy_eights"))   # _drawn
    assert "the  drawn" not in text and "Set the drawn to an empty list" in text


def _with(tmp_path, name, after: dict) -> str:
    """The bundled ruleset NAME with a line added after each line given (by its start)."""
    from pathlib import Path
    lines = (Path(interpreter.ruleset_path(name))).read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        out.append(line)
        for start, added in after.items():
            if line.startswith(start):
                out.append(added)
    path = tmp_path / f"{name}.yaml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return explain(interpreter.load(path))


def test_the_rulebooks_own_sentences_are_quoted_where_a_step_gives_them(tmp_path):
    text = _with(tmp_path, "mister_diamond", {
        "            - attempt:": '                doc: "Take a diamond from the display without touching another."',
        "                  touch:": '                    doc: "If you touch another piece, your turn ends."'})
    lines = text.splitlines()
    attempt = next(i for i, line in enumerate(lines) if "make an attempt" in line)
    assert lines[attempt + 1].strip() == "- *“Take a diamond from the display without touching another.”*"
    touch = next(i for i, line in enumerate(lines) if line.strip().startswith("- **touch**"))
    assert lines[touch + 1].strip() == "- *“If you touch another piece, your turn ends.”*"
    assert len(lines[touch + 1]) - len(lines[touch + 1].lstrip()) > len(lines[touch]) - len(lines[touch].lstrip())
    option = _with(tmp_path, "diams", {"                      draw:": '                        doc: "Draw the top card of the pile."'})
    assert "*“Draw the top card of the pile.”*" in option


def test_any_step_may_quote_its_rule_beside_its_kind(tmp_path):
    """``doc:`` beside any step or effect (here a deal and a tricks step) is accepted
    by the build and the schema, and explain quotes it under the step; any other unknown key beside
    a step is still an error."""
    src = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "little_tricks.yaml").read_text()
    src = src.replace("      - deal: {from: deck, to: hand, count: params.hand_size}\n",
                      "      - deal: {from: deck, to: hand, count: params.hand_size}\n"
                      "        doc: \"Deal each player their hand.\"\n")
    src = src.replace("      - tricks:\n", "      - doc: \"Play the tricks.\"\n        tricks:\n")
    path = tmp_path / "quoted.yaml"
    path.write_text(src)
    text = explain(interpreter.load(path))
    assert "*“Deal each player their hand.”*" in text and "*“Play the tricks.”*" in text
    path.write_text(src.replace("doc: \"Play the tricks.\"", "dco: \"Play the tricks.\""))
    with pytest.raises(interpreter.RulesetError, match="unknown key 'dco'"):
        interpreter.load(path)
