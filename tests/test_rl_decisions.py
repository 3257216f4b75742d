"""A decision's ids and labels by the step that asks (adapters/decisions.py), and the mask the
PettingZoo env makes in ``last()`` itself: the same as the engine's options say, on every
decision of random games of the seed games and the bundled rulesets."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the rl extra (pip install '.[rl]') is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[rl]') is not installed")

import numpy as np  # noqa: E402

from interpreter.adapters import pettingzoo  # noqa: E402
from interpreter.adapters.common import Table  # noqa: E402
from interpreter.adapters.decisions import deciders  # noqa: E402

GAMES = [("diamonds", 4), ("diams", 4), ("mister_diamond", 4), ("diamonds_club", 2), ("kuhn_poker", 2)]


@pytest.mark.parametrize("name,players", GAMES)
def test_each_steps_ids_and_labels_are_its_options_labels_and_their_ids(name, players):
    table = Table(name, players)
    space, rnd = table.actions, random.Random(5)
    seen = set()
    for seed in range(2):
        S = table.new_game(seed)
        while not S.over:
            at, options = S.stack[-1][0], S.dec[1]
            labels = tuple(S.legal_actions())
            assert space.ids_and_labels(at, S, options) == (tuple(space.index[x] for x in labels), labels)
            assert space.deciders[at](S, options) == space.ids_and_labels(at, S, options)
            seen.add(at in space.by_card)
            S.apply_index(rnd.randrange(len(options)))
    if name != "kuhn_poker":
        assert True in seen   # (a step offering plain cards was asked)


def test_a_card_step_reads_lists_by_card_when_every_card_is_in_the_space_and_dicts_otherwise():
    ids, labels = {0: 5, 1: 3, 2: 9}, {0: "A", 1: "B", 2: "C"}
    by_list = deciders([_Step()], {}, {0}, ids, labels)[0]
    assert by_list(None, [2, 0]) == ((9, 5), ("C", "A")) and by_list(None, [1]) == ((3,), ("B",))
    assert by_list(None, []) == ((), ())
    with_none = deciders([_Step()], {}, {0}, {**ids, None: 7}, {**labels, None: "none"})[0]
    assert with_none(None, [None, 1]) == ((7, 3), ("none", "B"))
    holes = deciders([_Step()], {}, {0}, {0: 5, 2: 9}, {0: "A", 2: "C"})[0]   # (card 1: in no step's options)
    assert holes(None, [2, 0]) == ((9, 5), ("C", "A"))
    with pytest.raises(KeyError):
        holes(None, [1, 0])


class _Step:
    def labels(self, S, options):   # (not asked: the step offers plain cards)
        raise AssertionError


@pytest.mark.parametrize("name,players", GAMES[:3])
def test_the_envs_mask_made_in_last_is_the_legal_ids_alone_and_fresh(name, players):
    e = pettingzoo.env(name, players=players)
    e.reset(seed=2)
    rnd, made = random.Random(2), []
    for _agent in e.agent_iter(max_iter=120):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.flags.writeable and mask.shape == (len(e.table.actions),)
        assert list(np.flatnonzero(mask)) == sorted(e.legal_ids)
        assert e.observe(e.agent_selection)["action_mask"] is mask   # (asked again: the same array)
        made.append((mask, sorted(e.legal_ids)))
        mask[:] = 1    # (a consumer may write into it: the next mask is its own)
        e.step(e.legal_ids[rnd.randrange(len(e.legal_ids))])
    assert all(not np.shares_memory(a, b) for (a, _), (b, _) in zip(made, made[1:]))


def test_a_deep_copied_env_has_masks_of_its_own():
    """A deep copy of the env (a learner's lookahead) makes its masks over bytes of its own: its
    last() mask is its legal ids, step after step, and the original's stays its own."""
    import copy
    e = pettingzoo.env("diamonds", players=4)
    e.reset(seed=1)
    c = copy.deepcopy(e)
    for env in (c, e, c):
        mask = env.last()[0]["action_mask"]
        assert mask.sum() == len(env.legal_ids) > 0 and all(mask[i] == 1 for i in env.legal_ids)
        env.step(env.legal_ids[0])
    assert c.last()[0]["action_mask"].sum() == len(c.legal_ids)
