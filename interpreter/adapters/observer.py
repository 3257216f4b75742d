"""OpenSpiel's observer protocol for a ruleset's game (adapters/openspiel.py): a seat's
tensor and strings, for the kinds of observation OpenSpiel names."""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from .common import Table
from .length import length_bound


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
    - perfect recall (the information state): the string, and the tensor ``infostate_size``
      gives: the seat's tensor, then a row for each decision up to ``max_game_length``
      (adapters/length.py): who made it (relative to the seat, one-hot), whether the seat saw
      the action, and if so the action's id in binary, lowest bit first; rows past the last
      decision are zeros, and decisions past the bound are left out.

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
        self.rows, self.row, self.bits = history_shape(table)
        tensor = np.zeros(infostate_size(table) if recall else L.size, np.float32)
        self.tensor = tensor
        self.dict = {name: tensor[o:o + n] for name, o, n in L.pieces if n}
        if recall:
            self.dict["history"] = tensor[L.size:].reshape(self.rows, self.row)
        self._zeroed = L.private_pieces() if self.part == "public" else ()
        if self.part == "private":   # (every slot but the private pieces')
            keep = np.zeros(L.size, bool)
            for o, n in L.private_pieces():
                keep[o:o + n] = True
            self._public = ~keep
        self._encode = L.encoder()    # this observer's own

    def set_from(self, state, player):
        t = self.tensor
        if state.h is None:
            t.fill(0)
            return
        size = self.table.layout.size
        t[:size] = self._encode(state.h.state, player)
        if self.perfect_recall:
            self._history(state, player)
            return
        for o, n in self._zeroed:
            t[o:o + n] = 0.0
        if self.part == "private":
            t[self._public] = 0.0

    def _history(self, state, player) -> None:
        history, players = self.dict["history"], self.table.players
        history.fill(0)
        state.h.seen(self.table)     # (the recall brought up to date)
        for k, (mover, act) in enumerate(state.h.recall.acts[player][:self.rows]):
            row = history[k]
            row[(mover - player) % players] = 1.0
            if act >= 0:
                row[players] = 1.0
                for b in range(self.bits):
                    row[players + 1 + b] = (act >> b) & 1

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


def history_shape(table: Table) -> tuple[int, int, int]:
    """The information-state tensor's history: (rows, floats a row, bits of an action id)."""
    bits = max(1, (len(table.actions) - 1).bit_length())
    return length_bound(table), table.players + 1 + bits, bits


def infostate_size(table: Table) -> int:
    """The information-state tensor's size: the seat's tensor and its history's rows."""
    rows, row, _ = history_shape(table)
    return table.layout.size + rows * row
