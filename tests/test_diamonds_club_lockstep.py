"""Diamonds Club against an independent program: tests/oracles/diamonds_club_handwritten.py,
written from the rulebook, RULINGS.md and the ruleset's decision points (not from the engine),
replays the engine's games in lockstep. It takes the engine's start player and each round's
laid-out market; at every decision both must ask the same seat the same prompt with the same
option labels, in the same order, then both take the same random option; at the end the
scores, gems, track positions and coins must agree."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import interpreter
from seedgames import handwritten

REFERENCE = handwritten("diamonds_club")
ROWS = REFERENCE.ROWS
SPACES = REFERENCE.SPACES
Game = REFERENCE.Game

RULES = interpreter.load(interpreter.ruleset_path("diamonds_club"))
SPACE_BASE = RULES.card_labels.index("S5")   # the first space card (strip 1, face A, space 1)


class Lockstep(Game):
    """The program, its decisions taken from (and checked against) an engine game."""

    def __init__(self, players, seed, prompts):
        self.S = RULES.new_game(players, seed=seed)
        self.pick_rng = random.Random(seed * 7 + 1)
        self.prompts = prompts
        self.rounds = 0
        super().__init__(players, seed)

    def setup(self):
        self.start_player = self.S.v["start_player"]
        self.seat_hats()

    def lay_out_market(self):
        S = self.S
        assert self.start_player == S.v["start_player"]
        self.new_market([SPACES[c - SPACE_BASE] for c in S.z["market"]])
        self.rounds += 1

    def label(self, option, prompt):
        if prompt == "buy":
            return "pass" if option is None else f"c{option // ROWS + 1}r{option % ROWS + 1}:{self.market[option][0]}"
        return option

    def choose(self, options, prompt=None, seat=None):
        S = self.S
        assert not S.over, f"the engine's game is over, the program asks {prompt}"
        theirs = (S.dec[0], RULES.steps[S.stack[-1][0]].prompt, S.legal_actions())
        mine = (seat, prompt, [self.label(o, prompt) for o in options])
        assert theirs == mine, (self.rounds, self.decisions, theirs, mine)
        self.prompts[prompt] += 1
        i = self.pick_rng.randrange(len(options))
        S.apply_index(i)
        self.decisions += 1
        return options[i]


def test_the_market_spaces_are_the_same_cards():
    assert [RULES.card_labels[SPACE_BASE + i] for i in range(len(SPACES))] == [s[0] for s in SPACES]


@pytest.mark.parametrize("players, games", [(2, 4), (3, 4), (4, 8)])
def test_the_engine_and_an_independent_program_play_the_same_games(players, games):
    prompts: Counter = Counter()
    for g in range(games):
        game = Lockstep(players, 1000 * players + g, prompts)
        scores = game.play()
        S = game.S
        assert S.over
        assert scores == list(S.scores())
        for name in ("blue", "yellow", "green", "red", "diamond"):
            assert [p.gems[name] for p in game.players] == list(S.c[name]), name
        for name in ("forest_pos", "tech_pos", "money_pos", "coins"):
            assert [getattr(p, name) for p in game.players] == list(S.c[name]), name
    # the games went through every kind of decision but the rarest
    assert {"buy", "keep", "build", "pay", "forest", "mine", "right", "ship", "track"} <= set(prompts), prompts
