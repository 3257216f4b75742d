"""Any ruleset as an OpenSpiel game (a Python ``pyspiel.Game``).

    from interpreter.adapters.openspiel import load_game
    game = load_game("my_game.yaml", players=4)      # registered as "rulebook_<game name>"
    game = pyspiel.load_game("rulebook_<name>(players=4)")   # a bundled ruleset: registered at import
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

Chance is the rules' own (``chance="explicit"``, the default): each random event is a chance
node with its real outcomes, a card drawn from a shuffled zone when it leaves it, a ``random``
draw, an attempt's roll (adapters/chance.py); a move is made on a copy of the state before
it and made again once the outcome it asked for is chosen. ``chance="seed"``, the option for
speed: one chance node, the seed of the game's RNG (``SEEDS``, 65,536 outcomes), from which
every later chance event follows inside ``apply_action``; a search that clones such a state
(OpenSpiel's ``MCTSBot``) knows the deals and rolls to come. Actions are ids of the ruleset's
fixed action space (adapters/actions.py); ``observation_tensor`` is adapters/tensors.py's
encoding; ``information_state_string`` is the seat's perfect-recall view: what it saw of every
move so far (other seats' hidden choices as "?", as a redacted log shows them) and what it
sees now. Rewards come at the end (``reward="win"``: 1/k to each of k winners; ``"score"``:
the final scores). ``clone`` copies the game state (``State.clone``). What each seat saw of
the moves (the perfect recall) is worked out only when an information state is asked, by
replaying them from the game's start; ``information_state_tensor`` is the seat's tensor and a
row per decision as it saw it (adapters/observer.py). ``max_game_length`` is derived from the
flow where the ruleset bounds it, else measured (adapters/length.py).
"""
from __future__ import annotations

import json
import random
from urllib.parse import unquote

import pyspiel

from ..building import load
from ..errors import UsageError
from ..loading.resources import bundled_rulesets, find_ruleset
from ..loading.variants import load_data
from .chance import NeedChance, explicit, outcomes_bound, own_piles, replaying
from .common import Table
from .length import length_bound
from .observer import Observer
from .recall import Recall

_RULESETS: dict = {}    # registered name -> (path, variant): what pyspiel.load_game(name) plays
_TABLES: dict = {}      # (registered name, its parameters) -> Table: one per distinct game
SEEDS = 1 << 16         # the outcomes of the chance node that starts a game (chance="seed")
_SEED_OUTCOMES = [(seed, 1.0 / SEEDS) for seed in range(SEEDS)]   # (a copy for each caller: not made anew)
CHANCE_MODES = ("explicit", "seed")   # the first the default: one node, the seed; or each random event a node
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
# OpenSpiel's game strings split parameters at commas and read "(", ")" and "=" as syntax: a
# JSON text given as a parameter has those written as %XX (urllib's quoting), so that
# str(game) loads the same game again
_UNSAFE: dict[str, str | int | None] = {c: f"%{ord(c):02X}" for c in "%,()="}   # (str.maketrans's table)


def _text(values: dict) -> str:
    """A dict of parameters as a game parameter: compact JSON, OpenSpiel's syntax escaped."""
    return json.dumps(values, sort_keys=True, separators=(",", ":")).translate(str.maketrans(_UNSAFE))


def _values(text: str, what: str) -> dict:
    try:
        values = json.loads(unquote(text))
    except ValueError:
        values = None
    if not isinstance(values, dict):
        raise UsageError(f"the game parameter {what} is a JSON object, not {text!r}")
    return values


def _type_name(name: str, variant) -> str:
    name = f"rulebook_{name}" + (f"_{variant}" if variant else "")
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def _register(path, variant=None) -> str:
    """Register the game type of ``path`` (``variant``) as ``rulebook_<name>`` (``_<variant>``)
    and return that name. The type's parameters default to the ruleset's defaults (its fewest
    players, ``reward="win"``, no params, no options): ``pyspiel.load_game(name)`` plays
    those, whatever other settings were loaded since. Reads the ruleset's header only; the
    ruleset is compiled when a game of it is made."""
    data = load_data(find_ruleset(path), variant).data
    players = data.get("players")
    counts = (players, players) if isinstance(players, int) else \
        (int(players["min"]), int(players["max"])) if isinstance(players, dict) else (None, None)
    if counts[0] is None:                 # (a form the header does not give plainly: compile it)
        rules = load(path, variant)
        counts = (min(rules.player_counts), max(rules.player_counts))
    name = _type_name(str(data.get("game")), variant)
    _RULESETS[name] = (path, variant)
    defaults = {"players": counts[0], "reward": "win", "params": _text({}), "options": _text({}),
                "chance": CHANCE_MODES[0]}
    scoring = data.get("scoring")
    ranks_all = not (isinstance(scoring, dict) and "eligible" in scoring)   # (Table.constant_sum, for the defaults)
    game_type = _game_type(name, str(data.get("title", name)), counts, defaults, _utility(1.0 if ranks_all else None))

    class Game(RulebookGame):
        def __init__(self, params=None):
            super().__init__(name, game_type, params)

    Game.__name__ = Game.__qualname__ = f"RulebookGame_{name}"
    pyspiel.register_game(game_type, Game)
    return name


def _game_type(name: str, title: str, counts: tuple, settings: dict, utility) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=name, long_name=f"Rulebook: {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=counts[1], min_num_players=counts[0],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=settings)


def _utility(constant: float | None):
    return pyspiel.GameType.Utility.GENERAL_SUM if constant is None else pyspiel.GameType.Utility.CONSTANT_SUM


def register_bundled() -> list[str]:
    """Register every bundled ruleset and each of its named variants (done at import: a
    fresh process, or a worker, that imports this module loads ``rulebook_<name>(players=4)``
    by name). Returns the names registered."""
    names = []
    for ruleset in bundled_rulesets():
        names.append(_register(ruleset))
        declared = load_data(find_ruleset(ruleset)).data.get("variants") or {}
        names += [_register(ruleset, variant) for variant in declared]
    return names


def load_game(path, players: int | None = None, variant: str | None = None, reward: str = "win",
              params: dict | None = None, chance: str = CHANCE_MODES[0], **options):
    """A ``pyspiel.Game`` playing ``path`` (a file or a bundled ruleset's name) with ``players``
    seats. Its type is registered as ``rulebook_<name>`` (``_<variant>``), its settings are the
    game's parameters (``players``, ``reward``, and ``params`` and ``options`` as JSON), so
    ``str(game)``, ``pyspiel.load_game(str(game))`` and a serialized game and state name this
    very game; ``pyspiel.load_game("rulebook_<name>")`` plays the ruleset's defaults. Games of
    one ruleset with other settings coexist."""
    table = _chance_table(Table(path, players, variant, reward, params, **options), chance)   # (a bad setting: now)
    name = _type_name(table.rules.name, variant)
    if _RULESETS.get(name) != (path, variant):
        _register(path, variant)
    settings = {"players": table.players, "reward": reward, "params": _text(params or {}), "options": _text(options),
                "chance": chance}
    _TABLES[_key(name, settings)] = table
    return pyspiel.load_game(name, settings)


def _key(name: str, settings: dict) -> tuple:
    return (name, settings["players"], settings["reward"], settings["params"], settings["options"],
            settings["chance"])


def _table_of(name: str, settings: dict) -> Table:
    """The Table of a game of ``name`` with these parameters (made when a game string names
    settings no ``load_game`` of this process made)."""
    key = _key(name, settings)
    table = _TABLES.get(key)
    if table is None:
        path, variant = _RULESETS[name]
        table = _TABLES[key] = _chance_table(Table(path, settings["players"], variant, settings["reward"],
                                                   _values(settings["params"], "params"),
                                                   **_values(settings["options"], "options")), settings["chance"])
    return table


def _chance_table(table: Table, chance: str) -> Table:
    """``table`` with its chance as ``chance`` says: explicit, its ruleset's random source the
    oracle of adapters/chance.py (the table compiled its own ruleset: no other game is touched)."""
    if chance not in CHANCE_MODES:
        raise UsageError(f"chance is one of {', '.join(CHANCE_MODES)}, not {chance!r}")
    if chance == "explicit":
        explicit(table.rules)
        table.explicit = True
    return table


def _game_of(path, variant, text: str):
    """A pickled game, loaded again (in a worker: the ruleset registered first)."""
    if path is not None and _type_name_of(text) not in _RULESETS:
        _register(path, variant)
    return pyspiel.load_game(text)


def _type_name_of(text: str) -> str:
    return text.split("(", 1)[0]


class RulebookGame(pyspiel.Game):
    def __init__(self, name, game_type, params=None):
        settings = {**game_type.parameter_specification, **(params or {})}
        self.table_key = _key(name, settings)
        self.table = table = _table_of(name, settings)
        lo, hi = table.bounds()
        constant = table.constant_sum()   # the game type of these settings: its utility is theirs
        game_type = _game_type(name, table.rules.title, (game_type.min_num_players, game_type.max_num_players),
                               game_type.parameter_specification, _utility(constant))
        info = pyspiel.GameInfo(num_distinct_actions=len(table.actions), max_chance_outcomes=outcomes_bound(table.rules) if table.explicit else SEEDS,
                                num_players=table.players, min_utility=lo, max_utility=hi,
                                utility_sum=constant, max_game_length=length_bound(table))
        super().__init__(game_type, info, settings)

    def __reduce__(self):
        path, variant = _RULESETS.get(self.table_key[0], (None, None))
        return (_game_of, (None if path is None else str(path), variant, str(self)))

    def new_initial_state(self):
        return RulebookState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return Observer(self.table, iig_obs_type)


class Handle:
    """A game state as an OpenSpiel state keeps it: the engine's state, copied with
    ``State.clone``; the option taken at each decision (``moves``); the pending decision's
    legal ids (``legal``); and, once an information state was asked, what each seat saw of
    every move (``recall``, computed by replaying the moves, shared by clones until one moves
    on). With explicit chance, the outcomes each move drew (``draws``, and the setup's), which
    its replays are given. Pickled as the ruleset's name, the state's JSON and the moves (with
    explicit chance: the outcomes drawn, replayed)."""
    __slots__ = ("state", "table_key", "moves", "legal", "recall", "known", "draws", "setup")

    def __init__(self, state, table_key: tuple, moves: list, recall=None, draws=None, setup=()):
        self.state, self.table_key, self.moves, self.recall = state, table_key, moves, recall
        self.draws: list | None = draws   # per move, the chance outcomes it drew (explicit chance), else None
        self.setup: tuple = setup         # the outcomes the setup drew
        self.legal: tuple | None = None   # (decision number, the legal ids sorted, id -> option index)
        self.known: tuple | None = None   # (decision number, the game replayed keeping what each seat knows)

    def __deepcopy__(self, memo):
        h = Handle(self.state.clone(), self.table_key, self.moves[:], self.recall,
                   None if self.draws is None else self.draws[:], self.setup)
        h.legal, h.known = self.legal, self.known
        return h

    def __reduce__(self):
        if self.draws is not None:
            return (_replayed, (self.table_key, self.setup, self.moves, self.draws))
        return (_restore, (self.table_key, self.state.to_json(), self.moves))

    def start(self, table: Table, knowledge: bool = False):
        """A new game as this one started (its seed's, or its setup's draws)."""
        if self.draws is None:
            return table.new_game(self.state.seed, knowledge)
        with replaying(self.setup):
            return table.new_game(0, knowledge)

    def replay(self, S, k: int, apply):
        """``apply(S, option)`` of move ``k`` of this game, with the outcomes it drew."""
        if self.draws is None:
            return apply(S, self.moves[k])
        with replaying(self.draws[k]):
            return apply(S, self.moves[k])

    def seen(self, table: Table) -> list:
        """Per seat, what it saw of each move so far (JSON strings: the move's seat, action and
        events as its redacted log line shows them)."""
        r = self.recall
        if r is None or r.done > len(self.moves) or r.moves != self.moves[:r.done]:
            r = Recall(table, self.start(table))   # (another path than the one recalled)
        elif r.done < len(self.moves):
            r = r.copy()                            # (its own: the clones keep theirs)
        r.advance(table, self)
        self.recall = r
        return r.seen


def _restore(table_key: tuple, text: str, moves: list) -> Handle:
    return Handle(_TABLES[table_key].rules.state_from_json(text), table_key, list(moves))


def _replayed(table_key: tuple, setup: tuple, moves: list, draws: list) -> Handle:
    """A game of explicit chance, replayed from its setup's and its moves' draws."""
    table = _TABLES[table_key]
    h = Handle(None, table_key, list(moves), draws=list(draws), setup=setup)
    S = h.start(table)
    for k in range(len(moves)):
        h.replay(S, k, type(S).apply_index)
    h.state = S
    return h


class RulebookState(pyspiel.State):
    def __init__(self, game: RulebookGame):
        super().__init__(game)
        self.table_key = game.table_key   # (pickled with the state: a key, not the Table)
        self.h: Handle | None = None   # the game, once the chance node has drawn its seed (or the setup its draws)
        # explicit chance: (the move being made, None for the setup; the outcomes chosen for it;
        # the chance node it stopped at), while a move waits for an outcome
        self.pend: tuple | None = None
        if game.table.explicit:
            self._run(None, ())

    @property
    def _table(self) -> Table:
        return _TABLES[self.table_key]

    def current_player(self):   # (OpenSpiel asks it several times a move: State.current_player inlined)
        h = self.h
        if h is None or self.pend is not None:
            return _CHANCE
        d = h.state.dec
        if d is not None:
            return d[0]
        return _TERMINAL if h.state.over else -1

    def chance_outcomes(self):
        """At a chance node its outcomes (explicit chance: the node the move stopped at; else
        the seeds, equally likely); none anywhere else (as OpenSpiel's)."""
        if self.pend is not None:
            return list(self.pend[2].outcomes)
        if self.h is not None:
            return []
        return _SEED_OUTCOMES[:]

    def _run(self, i: int | None, chosen: tuple) -> None:
        """Explicit chance: make move ``i`` (None: the setup) on a copy of the state before it,
        with the outcomes ``chosen`` so far; if it asks for one more, wait at that chance node."""
        table = self._table
        h = self.h
        try:
            with replaying(chosen):
                if h is None:
                    S = table.new_game(0)
                else:
                    S = h.state.clone()
                    own_piles(S)
                    S.apply_index(i)
        except NeedChance as need:
            self.pend = (i, chosen, need.node)
            return
        self.pend = None
        if h is None:
            self.h = Handle(S, self.table_key, [], draws=[], setup=chosen)
        else:
            h.state = S
            h.moves.append(i)
            h.draws.append(chosen)   # type: ignore[union-attr]  # (a game of explicit chance keeps its draws)

    def _legal(self, h: Handle):
        """(decision number, the legal ids sorted, id -> option index), once a decision (``h``:
        the game, past the chance node)."""
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
        if h is None or self.pend is not None:
            return []
        d = h.state.dec
        if d is None or d[0] != player:
            return []
        return self._legal(h)[1]   # (pybind11 copies it into a vector)

    def legal_actions(self, *player):
        """Asked from Python at a seat's decision: the ids at once. (pyspiel's own goes through
        C++, which asks ``current_player`` back in Python three times and ``is_terminal`` once,
        then ``_legal_actions``: a rollout's most expensive call.) Anything else: pyspiel's."""
        h = self.h
        if h is not None and self.pend is None:
            d = h.state.dec
            if d is not None and (not player or player[0] == d[0]):
                legal = h.legal
                if legal is None or legal[0] != len(h.moves):   # (_legal's test, inline: the hot path)
                    legal = self._legal(h)
                return list(legal[1])   # (a list of the caller's own, as pyspiel's)
        return super().legal_actions(*player)

    def _apply_action(self, action):
        pend = self.pend
        if pend is not None:   # an outcome of the node the move waits at: the move made again with it
            if action not in pend[2].ids:
                raise ValueError(f"{action} is no outcome of this chance node; its outcomes: {sorted(pend[2].ids)}")
            self._run(pend[0], (*pend[1], int(action)))
            return
        h = self.h
        if h is None:     # the chance node: the game of this seed
            if not 0 <= action < SEEDS:
                raise ValueError(f"the chance node's outcomes are 0..{SEEDS - 1}, not {action}")
            self.h = Handle(self._table.new_game(int(action)), self.table_key, [])
            return
        legal = h.legal
        if legal is None or legal[0] != len(h.moves):
            legal = self._legal(h)
        i = legal[2].get(action)
        if i is None:
            raise ValueError(f"action {action} is not legal now; legal: {legal[1]}")
        if h.draws is not None:
            self._run(i, ())
            return
        h.state.apply_index(i)
        h.moves.append(i)

    def _knowing(self, h: Handle):
        """The game with what each seat knows of the hidden cards' places (a card it passed,
        one shown to it), which ``determinize`` keeps in place: a game played without that
        record (the default: it costs a fifth more a move) is replayed with it, from its seed
        the first time, then on from where it was replayed last."""
        if h.state.kn is not None:     # (a world drawn by resample_from_infostate keeps it)
            return h.state
        known, n = h.known, len(h.moves)
        if known is None or known[0] != n:
            # (a handle only appends moves, and a clone copies ``known``: its first moves are these)
            done, K = (0, h.start(self._table, knowledge=True)) if known is None else \
                (known[0], known[1].clone())
            for k in range(done, n):
                h.replay(K, k, type(K).apply_index)
            known = h.known = (n, K)
        return known[1]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}" if self.pend is None else self.pend[2].label(action, self._table.rules)
        return self._table.actions.labels[action]

    def is_chance_node(self):   # (asked from Python, as a rollout does each move: no round trip through C++)
        return self.h is None or self.pend is not None

    def is_terminal(self):
        return self.h is not None and self.h.state.over

    def returns(self):
        return [0.0] * self._table.players if self.h is None else self._table.returns(self.h.state)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one (``State.determinize``): the cards
        it cannot place dealt again, other seats' hidden choices drawn again, and a new seed
        for the chance to come (no chance node: a sampled world, docs/rl.md), from a
        ``random.Random`` seeded by one draw of
        ``probability_sampler`` (a callable giving floats in [0, 1), as OpenSpiel's
        ``UniformProbabilitySampler``). Its information state for ``player_id`` is this
        state's (the seat's recall is carried over, and what it sees of the moves after
        is worked out in the world drawn). Before the deal: a copy, the deal still to draw."""
        if self.h is None or self.pend is not None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        h = self.h
        world = self._knowing(h).determinize(int(player_id), rng)
        h.seen(self._table)    # (the recall so far, brought up to date)
        state = self.clone()
        state.h = Handle(world, self.table_key, h.moves[:], h.recall.rebased(world, int(player_id)))
        return state

    def __str__(self):
        if self.h is None:
            return f"{self._table.rules.name}, before the deal"
        S = self.h.state
        who = "over" if S.over else f"seat {S.current_player()} to decide '{S.prompt()}'"
        return f"{S.rules.name}, {who}, state {S.digest()[:16]}"


register_bundled()
