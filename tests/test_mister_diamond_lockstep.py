"""Mister Diamond against an independent program: tests/oracles/mister_diamond_handwritten.py,
written from the rulebook, RULINGS.md and the ruleset's decision points and random draws (not from
the engine's data), plays the engine's games in lockstep. It takes nothing from the engine: from
the same seed it draws the same fakes, the same tiles and the same dexterity rolls; at every
decision both must ask the same seat the same prompt with the same option labels, in the same
order, then both take the same random option; at the end the scores and winners must agree."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import interpreter
from seedgames import handwritten

REFERENCE = handwritten("mister_diamond")
Game = REFERENCE.Game

RULES = interpreter.load(interpreter.ruleset_path("mister_diamond"))


def _label(option, prompt):
    """The engine's label of one of the program's options."""
    if prompt == "take":
        return REFERENCE.SPOT_LABEL[option]
    if prompt == "steal_from":
        return f"p{option}"
    return REFERENCE.TILE_NAME[option]


class Lockstep(Game):
    """The program, its decisions taken from (and checked against) an engine game."""

    def __init__(self, players, seed, prompts, skill=None):
        self.S = RULES.new_game(players, seed=seed, options={"skill": skill} if skill else None)
        super().__init__(players, seed, skill)
        self.pick_rng = random.Random(seed * 7 + 1)
        self.prompts = prompts
        # the same draws dealt the same board and tiles (checked, not copied)
        labels = RULES.card_labels
        assert sorted(labels[c] for c in self.S.z["fake_spots"]) == \
            sorted(REFERENCE.SPOT_LABEL[s] for s in range(len(self.fake)) if self.fake[s])
        assert [labels[c] for c in self.S.z["row"]] == [REFERENCE.TILE_NAME[t] for t in self.row]
        assert [labels[c] for c in self.S.z["deck"]] == [REFERENCE.TILE_NAME[t] for t in self.deck]

    def choose(self, options, prompt=None, seat=None):
        S = self.S
        assert not S.over, f"the engine's game is over, the program asks {prompt}"
        theirs = (S.dec[0], RULES.steps[S.stack[-1][0]].prompt, S.legal_actions())
        mine = (seat, prompt, [_label(o, prompt) for o in options])
        assert theirs == mine, (self.decisions, theirs, mine)
        self.prompts[prompt] += 1
        i = self.pick_rng.randrange(len(options))
        S.apply_index(i)
        self.decisions += 1
        return options[i]


def _play(players, seed, prompts, skill=None):
    game = Lockstep(players, seed, prompts, skill)
    scores = game.play()
    S = game.S
    assert S.over, (seed, S.legal_actions())
    assert (scores, game.winners()) == (list(S.scores()), list(S.winners())), seed
    return game


def _ending(game):
    """How the game ended (MD-5): a player at the target, or the deck's last tile flipped."""
    return "target" if max(game.points) >= game.target else "deck" if not game.deck else "no real left"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_engine_and_an_independent_program_play_the_same_games(players):
    prompts: Counter = Counter()
    endings: Counter = Counter()
    for g in range(100):
        game = _play(players, 1000 * players + g, prompts)
        endings[_ending(game)] += 1
        endings["tie"] += len(game.winners()) > 1
    # the games went through every kind of decision, and both ways a game ends, ties included
    assert {"take", "place", "steal_from", "steal"} <= set(prompts), prompts
    assert endings["target"] and endings["deck"] and endings["tie"], endings


def test_the_same_games_with_a_skill_per_seat():
    """MD-2: each seat rolls with its own skill (clumsier seats touch more, turns are shorter)."""
    prompts: Counter = Counter()
    for g in range(20):
        _play(6, 6000 + g, prompts, skill=[0.0, 0.3, 0.5, 0.8, 0.95, 1.0])
    assert {"take", "place", "steal_from", "steal"} <= set(prompts), prompts
