"""Any ruleset as an OpenSpiel game (a Python ``pyspiel.Game``).

    from interpreter.adapters.openspiel import load_game
    game = load_game("my_game.yaml", players=4)      # registered as "rulebook_<game name>"
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

Chance is *explicit*, at one chance node: a game starts by drawing the seed of its RNG,
one of ``SEEDS`` (65,536) equally likely outcomes, which no seat observes; every later chance
event (shuffling sixty cards, a dexterity roll) follows from that seed inside
``apply_action``. Listing each shuffle's outcomes as chance nodes is out of reach (60! deals),
and a sampled-stochastic Python game cannot be serialized by OpenSpiel (its Python games have
no RNG state to save), while this model serializes, replays from its history and reaches every
game of a seed. Actions are ids of the ruleset's fixed action
space (play/actions.py); ``observation_tensor`` is play/tensors.py's encoding;
``information_state_string`` is the seat's perfect-recall view: what it saw of every move so
far (other seats' hidden choices as "?", as a redacted log shows them) and what it sees now.
Rewards come at the end (``reward="win"``: 1/k to each of k winners; ``"score"``: the final
scores). ``clone`` copies the game state (``State.clone``); ``serialize`` writes it as JSON
with the options taken. A move is one ``State.apply_index``: what each seat saw of the moves
(the perfect recall) is worked out only when an information state is asked, by replaying
them from the seed.
"""
from __future__ import annotations

import json

import numpy as np
import pyspiel

from ..play.gamelog import logged_decision
from ..play.redact import Redactor
from .common import Table

_TABLES: dict = {}      # registered name -> Table (pyspiel builds games from a name and parameters)
SEEDS = 1 << 16         # the outcomes of the chance node that starts a game
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def load_game(path, players: int | None = None, variant: str | None = None, reward: str = "win",
              params: dict | None = None, **options):
    """A ``pyspiel.Game`` playing ``path`` (a file or a bundled ruleset's name) with ``players``
    seats; also registered as ``rulebook_<name>``, so ``pyspiel.load_game("rulebook_<name>")``
    works afterwards in this process."""
    table = Table(path, players, variant, reward, params, **options)
    name = f"rulebook_{table.rules.name}" + (f"_{table.rules.variant}" if variant else "")
    name = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    _TABLES[name] = table
    lo, hi = table.bounds()
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"Rulebook: {table.rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=table.players, min_num_players=table.players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=len(table.actions), max_chance_outcomes=SEEDS,
                            num_players=table.players, min_utility=lo, max_utility=hi,
                            max_game_length=table.rules.max_steps)

    class Game(RulebookGame):
        def __init__(self, params=None):
            super().__init__(name, game_type, info, params)

    Game.__name__ = f"RulebookGame_{name}"
    pyspiel.register_game(game_type, Game)
    return Game()


class RulebookGame(pyspiel.Game):
    def __init__(self, name, game_type, info, params=None):
        super().__init__(game_type, info, params or {})
        self.table_name = name

    def new_initial_state(self):
        return RulebookState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(_TABLES[self.table_name], perfect_recall=recall)


class Handle:
    """A game state as an OpenSpiel state keeps it: the engine's state, copied with
    ``State.clone``; the option taken at each decision (``moves``); the pending decision's
    legal ids (``legal``); and, once an information state was asked, what each seat saw of
    every move (``recall``, computed by replaying the moves, shared by clones until one moves
    on). Pickled as the ruleset's name, the state's JSON and the moves."""
    __slots__ = ("state", "table_name", "moves", "legal", "recall")

    def __init__(self, state, table_name: str, moves: list, recall=None):
        self.state, self.table_name, self.moves, self.recall = state, table_name, moves, recall
        self.legal = None      # (decision number, the legal ids sorted, id -> option index)

    def __deepcopy__(self, memo):
        h = Handle(self.state.clone(), self.table_name, self.moves[:], self.recall)
        h.legal = self.legal
        return h

    def __reduce__(self):
        return (_restore, (self.table_name, self.state.to_json(), self.moves))

    def seen(self, table: Table) -> list:
        """Per seat, what it saw of each move so far (JSON strings: the move's seat, action and
        events as its redacted log line shows them)."""
        r = self.recall
        if r is None or r.done > len(self.moves) or r.moves != self.moves[:r.done]:
            r = _Recall(table, self.state.seed)     # (another path than the one recalled)
        elif r.done < len(self.moves):
            r = r.copy()                            # (its own: the clones keep theirs)
        r.advance(table, self.moves)
        self.recall = r
        return r.seen


def _restore(table_name: str, text: str, moves: list) -> Handle:
    return Handle(_TABLES[table_name].rules.state_from_json(text), table_name, list(moves))


class _Recall:
    """A game replayed from its seed with its events, and what each seat saw of its moves."""
    __slots__ = ("S", "moves", "done", "seen")

    def __init__(self, table: Table, seed: int):
        self.S = table.new_game(seed)
        self.moves, self.done, self.seen = [], 0, [[] for _ in range(table.players)]

    def copy(self) -> "_Recall":
        r = _Recall.__new__(_Recall)
        r.S, r.moves, r.done, r.seen = self.S.clone(), self.moves[:], self.done, [s[:] for s in self.seen]
        return r

    def advance(self, table: Table, moves: list) -> None:
        S = self.S
        for i in moves[self.done:]:
            line, error = logged_decision(table.rules, S, i, len(self.moves))   # (as a log writes it)
            if error is not None:   # (the move was applied once: it cannot fail on the same game)
                raise error
            for p in range(table.players):   # what each seat saw of this move (perfect recall)
                seen = Redactor(table.rules, p, S.members).line(line)
                self.seen[p].append(json.dumps([seen["seat"], seen["action"], seen["events"]], sort_keys=True))
            self.moves.append(i)
        S.ev = None               # (logged_decision leaves the last move's events on)
        self.done = len(moves)


class RulebookState(pyspiel.State):
    def __init__(self, game: RulebookGame):
        super().__init__(game)
        self.table_name = game.table_name
        self.h = None          # the game, once the chance node has drawn its seed

    @property
    def _table(self) -> Table:
        return _TABLES[self.table_name]

    def current_player(self):   # (OpenSpiel asks it several times a move: State.current_player inlined)
        h = self.h
        if h is None:
            return _CHANCE
        d = h.state.dec
        if d is not None:
            return d[0]
        return _TERMINAL if h.state.over else -1

    def chance_outcomes(self):
        return [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]

    def _legal(self):
        """(decision number, the legal ids sorted, id -> option index), once a decision."""
        h = self.h
        legal = h.legal
        if legal is None or legal[0] != len(h.moves):
            ids = self._table.actions.ids(h.state)
            index = dict(zip(ids, range(len(ids))))
            if len(index) < len(ids):   # an id twice (two options of one label): its first option
                index = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1)))
            legal = h.legal = (len(h.moves), sorted(ids), index)
        return legal

    def _legal_actions(self, player):
        h = self.h
        if h is None:
            return []
        d = h.state.dec
        if d is None or d[0] != player:
            return []
        return self._legal()[1]   # (pybind11 copies it into a vector)

    def legal_actions(self, *player):
        """Asked from Python at a seat's decision: the ids at once. (pyspiel's own goes through
        C++, which asks ``current_player`` back in Python three times and ``is_terminal`` once,
        then ``_legal_actions``: a rollout's most expensive call.) Anything else: pyspiel's."""
        h = self.h
        if h is not None:
            d = h.state.dec
            if d is not None and (not player or player[0] == d[0]):
                legal = h.legal
                if legal is None or legal[0] != len(h.moves):   # (_legal's test, inline: the hot path)
                    legal = self._legal()
                return list(legal[1])   # (a list of the caller's own, as pyspiel's)
        return super().legal_actions(*player)

    def _apply_action(self, action):
        h = self.h
        if h is None:     # the chance node: the game of this seed
            self.h = Handle(self._table.new_game(int(action)), self.table_name, [])
            return
        legal = h.legal
        if legal is None or legal[0] != len(h.moves):
            legal = self._legal()
        i = legal[2].get(action)
        if i is None:
            raise ValueError(f"action {action} is not legal now; legal: {legal[1]}")
        h.state.apply_index(i)
        h.moves.append(i)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self._table.actions.labels[action]

    def is_chance_node(self):   # (asked from Python, as a rollout does each move: no round trip through C++)
        return self.h is None

    def is_terminal(self):
        return self.h is not None and self.h.state.over

    def returns(self):
        return [0.0] * self._table.players if self.h is None else self._table.returns(self.h.state)

    def __str__(self):
        if self.h is None:
            return f"{self._table.rules.name}, before the deal"
        S = self.h.state
        who = "over" if S.over else f"seat {S.current_player()} to decide '{S.prompt()}'"
        return f"{S.rules.name}, {who}, state {S.digest()[:16]}"


class Observer:
    """OpenSpiel's observer protocol: a float32 tensor (and its pieces) and a string."""

    def __init__(self, table: Table, perfect_recall: bool):
        self.table, self.perfect_recall = table, perfect_recall
        self.tensor = np.zeros(table.layout.size, np.float32)
        self.dict = {"observation": self.tensor}
        self._encode = table.layout.encoder()    # this observer's own

    def set_from(self, state, player):
        if state.h is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = self._encode(state.h.state, player)

    def string_from(self, state, player):
        if state.h is None:
            return "before the deal"
        now = json.dumps(state.h.state.observation(player), sort_keys=True)
        if not self.perfect_recall:
            return now
        return "\n".join([*state.h.seen(self.table)[player], now])
