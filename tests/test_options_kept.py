"""The options a decision offers are a snapshot: an agent that keeps them (``S.dec``'s options,
``SeatView.option_values()``, ``legal_actions()``) across the moves that follow, its own answer's
and everyone's after it, on the state or on a clone of it, finds them as they were, and can
not change them. A question may offer a list the state keeps (a zone, a view such as Mister
Diamond's hidden positions) which the answer then writes in place: the options handed over must
not be that list (docs/performance.md "Tried and dropped": a question's options handed over)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
from interpreter.play.agents.view import SeatView

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.stem for p in ROOT.glob("rulesets/*.yaml"))
AHEAD = 10   # the moves each kept snapshot lives through (all that follow, at the end of a game)


def _kept(S) -> tuple:
    """What an agent asked now may keep: the options as the state holds them, as an agent's
    view gives them, and their labels; each with a copy of its items made now."""
    held = (S.dec[1], SeatView(S, S.dec[0]).option_values(), S.legal_actions())
    return held, tuple(list(h) for h in held)


@pytest.mark.parametrize("name", RULESETS)
def test_options_kept_by_an_agent_do_not_change_as_the_game_goes_on(name):
    rules = interpreter.load(interpreter.ruleset_path(name))
    rnd = random.Random(7)
    checked = 0
    for seed in range(3):
        players = rules.player_counts[seed % len(rules.player_counts)]
        S = rules.new_game(players, seed=seed)
        kept: list[tuple] = []   # (decision number, held, copies)
        for n in range(400):
            if S.over:
                break
            held, copies = _kept(S)
            assert isinstance(held[0], tuple) and isinstance(held[1], tuple), "options are immutable"
            kept.append((n, held, copies))
            if n % 5 == 2:   # a clone answered otherwise and played on: the original's options stay
                C = S.clone()
                for _ in range(AHEAD):
                    if C.over:
                        break
                    C.apply_index(rnd.randrange(len(C.dec[1])))
                assert tuple(map(list, held)) == copies, (name, seed, n, "after a clone played on")
            S.apply_index(rnd.randrange(len(S.dec[1])))
            while kept and kept[0][0] <= n - AHEAD:   # this one lived through AHEAD moves
                _, old, copies = kept.pop(0)
                assert tuple(map(list, old)) == copies, (name, seed, n)
                checked += 1
        for _, old, copies in kept:
            assert tuple(map(list, old)) == copies, (name, seed, "at the end")
            checked += 1
    assert checked > 0


def test_the_options_of_a_question_over_a_kept_view_are_a_copy():
    """Mister Diamond's take offers the hidden positions, a view the state keeps sorted and writes
    in place when a card is taken: what the decision holds is not that list, and a taken spot
    leaves the view (a card won) but not the options kept from before."""
    rules = interpreter.load(interpreter.ruleset_path("mister_diamond"))
    S = rules.new_game(4, seed=3)
    rnd = random.Random(3)
    seen = written = 0
    for _ in range(200):
        if S.over:
            break
        options = S.dec[1]
        step = rules.steps[S.stack[-1][0]]
        view = getattr(S, "vw", None)
        if view and list(options) == view[0]:
            seen += 1
            assert options is not view[0]
            before = list(options)
            i = rnd.randrange(len(options))
            S.apply_index(i)
            assert list(options) == before, step.prompt
            written += S.vw[0] != before   # (the view written in place since it was offered)
            continue
        S.apply_index(rnd.randrange(len(options)))
    assert seen > 5 and written > 0
