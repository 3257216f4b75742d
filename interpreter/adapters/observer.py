"""OpenSpiel's observer protocol for a ruleset's game (adapters/openspiel.py): a seat's
tensor and strings, for the kinds of observation OpenSpiel names."""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from .common import Table


class Observer:
    """OpenSpiel's observer protocol: a float32 tensor (``dict``: its pieces by the layout's
    names, views of it) and a string, for the kinds of observation OpenSpiel names
    (``pyspiel.IIGObservationType``):

    - the default (no perfect recall, public and the seat's private information): the seat's
      tensor (adapters/tensors.py) and its observation as JSON;
    - public information only (``private_info=NONE``): the same with the seat's private pieces
      zeroed (its own hand, its counters visible to their owner), and a spectator's observation;
    - private information only (``public_info=False``): the seat's private pieces, the rest
      zeroed, and what its observation holds that a spectator's does not (JSON);
    - perfect recall (the information state): the string only (``tensor`` is None); the game
      provides no information-state tensor (its type says so), and asking for one is an error.

    Any other kind (every seat's private information, or a perfect recall of a part) is
    refused with ``ValueError``."""

    def __init__(self, table: Table, iig_obs_type=None):
        recall, public, private = False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            recall, public, private = iig_obs_type.perfect_recall, iig_obs_type.public_info, iig_obs_type.private_info
        single, none = pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE
        supported = (public and private == single) or (not recall and ((public and private == none)
                                                                       or (not public and private == single)))
        if not supported:
            raise ValueError(f"no observation of this kind (perfect_recall={recall}, public_info={public}, "
                             f"private_info={private.name}): a seat's observation, its public part "
                             "(private_info=NONE), its private part (public_info=False), or its "
                             "information state (perfect recall, a string)")
        self.table, self.perfect_recall = table, recall
        self.part = "public" if private == none else "private" if not public else None
        L = table.layout
        tensor = np.zeros(L.size, np.float32)
        self.tensor = None if recall else tensor
        self.dict = {} if recall else {name: tensor[o:o + n] for name, o, n in L.pieces if n}
        self._zeroed = L.private_pieces() if self.part == "public" else ()
        if self.part == "private":   # (every slot but the private pieces')
            keep = np.zeros(L.size, bool)
            for o, n in L.private_pieces():
                keep[o:o + n] = True
            self._public = ~keep
        self._encode = L.encoder()    # this observer's own

    def set_from(self, state, player):
        if self.perfect_recall:
            raise ValueError(f"{self.table.rules.name} provides no information-state tensor "
                             "(its game type's provides_information_state_tensor is False): "
                             "information_state_string, or observation_tensor")
        t = self.tensor
        assert t is not None      # (a perfect recall observer has none: refused above)
        if state.h is None:
            t.fill(0)
            return
        t[:] = self._encode(state.h.state, player)
        for o, n in self._zeroed:
            t[o:o + n] = 0.0
        if self.part == "private":
            t[self._public] = 0.0

    def string_from(self, state, player):
        if state.h is None:
            return "before the deal"
        S = state.h.state
        if self.part == "private":
            return json.dumps(_beyond(S.observation(player), S.observation(None)), sort_keys=True)
        now = json.dumps(S.observation(None if self.part == "public" else player), sort_keys=True)
        if not self.perfect_recall:
            return now
        return "\n".join([*state.h.seen(self.table)[player], now])


def _beyond(seen, public):
    """What an observation ``seen`` holds that ``public`` (a spectator's) does not: the keys
    of a dict whose values differ, each as far down as it differs."""
    if isinstance(seen, dict) and isinstance(public, dict):
        return {k: _beyond(v, public.get(k)) for k, v in seen.items() if v != public.get(k)}
    return seen
