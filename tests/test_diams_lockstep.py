"""Diam's against an independent program: tests/oracles/diams_handwritten.py, written
from the rulebook, RULINGS.md and the ruleset's decision points (not from the engine), replays
the engine's games in lockstep. At each round's start it takes the engine's dealt cards; at
every decision both must ask the same prompt with the same option labels, in the same order,
then both take the same random option; at the end the tokens, the last round's scores and the
rounds won must agree."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import interpreter
from seedgames import handwritten

REFERENCE = handwritten("diams")
LABEL = REFERENCE.LABEL
Game = REFERENCE.Game

RULES = interpreter.load(interpreter.ruleset_path("diams"))


def _label(option, prompt):
    """The engine's label of one of the program's options."""
    if option is None:
        return "done"
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, str):
        return option
    if isinstance(option, list):
        return "+".join(LABEL[c] for c in option)
    if prompt == "target":
        return f"p{option}"
    if prompt in ("quality", "collection"):
        return str(option)
    return LABEL[option]


class Lockstep(Game):
    """The program, its decisions taken from (and checked against) an engine game."""

    def __init__(self, players, seed, prompts):
        super().__init__(players, seed)
        self.S = RULES.new_game(players, seed=seed)
        self.pick_rng = random.Random(seed * 7 + 1)
        self.prompts = prompts
        self.rounds = 0

    def setup(self):
        super().setup()
        z, v = self.S.z, self.S.v
        if self.rounds:   # DM-5: the next round starts to the left, in both
            assert self.first == v["first_player"], (self.first, v["first_player"])
        self.first = self.turn_player = v["first_player"]
        self.pile, self.market = list(z["pile"]), list(z["market"])
        self.hands = [list(h) for h in z["hand"]]
        assert not any(z["safe"])
        self.rounds += 1

    def choose(self, options, prompt=None):
        S = self.S
        assert not S.over, f"the engine's game is over, the program asks {prompt}"
        theirs = (RULES.steps[S.stack[-1][0]].prompt, S.legal_actions())
        mine = (prompt, [_label(o, prompt) for o in options])
        assert theirs == mine, (self.rounds, theirs, mine)
        if prompt != "give_up":   # (the armor-piercer's target gives up the card)
            assert S.dec[0] == self.turn_player
        self.prompts[prompt] += 1
        i = self.pick_rng.randrange(len(options))
        S.apply_index(i)
        self.decisions += 1
        return options[i]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_engine_and_an_independent_program_play_the_same_games(players):
    prompts: Counter = Counter()
    for g in range(40):
        game = Lockstep(players, 1000 * players + g, prompts)
        tokens = game.play()
        S = game.S
        assert S.over
        assert (tokens, game.round_score, game.round_wins) == \
            (list(S.c["tokens"]), list(S.c["round_score"]), list(S.c["round_wins"]))
    # the games went through the usual decisions of every kind of turn
    assert {"draw", "action", "show", "give", "take", "secure", "collection", "put_on_market",
            "hand_limit", "sale_card", "target"} <= set(prompts), prompts
