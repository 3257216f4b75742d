"""Mister Diamond written by hand as the engine's generated module could run it, in rungs: each
rung adds one thing the engine's contract asks for, and each plays the same games as the engine
(tests/test_ceiling_rungs.py): the same decisions, with the same options in the same order, the
same draws of the game's SplitMix64, the same scores and winners.

  rung 0  tests/oracles/mister_diamond_handwritten.py, the plain program (``Game``);
  rung 1  resumable (``Rung1``): ``dec = (seat, tuple(options))``, ``apply_index(i)`` resumes
          play after the decision, ``over``; where play stands is data (a program counter);
  rung 2  + the engine's data model (``Rung2``): zones as lists of card ids, counters and
          variables in the slots of a State class, the record of each card's zone (``at``) and
          the sorted view of the hidden positions (``vw``), the copy-on-write test (``if
          self.sh``), the event and knowledge hooks, the step budget; the RNG's state an
          integer in a slot, drawn by interpreter/engine/rng.py;
  rung 3  + the ruleset as it is written (``Rung3``): its conditions, options and variables
          (``turn_over``, ``result``, ``victim``), the end condition evaluated after each change
          of what it reads, the attempt's chances computed, clamped and totalled as the engine
          does, expressions' errors located.

Card ids are the engine's: the 42 positions 0..41 in board order, the 16 tiles 42..57.
A line marked ``# [NAME]`` (with the block it opens) is one feature of the data model, which
benchmarks/ceiling.py takes out (``variant``) to count what it costs; the rest never changes.
"""
from __future__ import annotations

import importlib.util
import random
import sys
from bisect import bisect_left, insort
from operator import itemgetter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module(name: str, path: Path):
    """A module from its file, without importing its package (rng.py needs none of the engine)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hw = _module("mister_diamond_handwritten", ROOT / "tests" / "oracles" / "mister_diamond_handwritten.py")
rng = _module("ceiling_rng", ROOT / "interpreter" / "engine" / "rng.py")   # the engine's draws
uniform, shuffle = rng.uniform, rng.shuffle

Game = hw.Game                       # rung 0
N_SPOTS = len(hw.SPOTS)              # the positions are cards 0..41
FIRST_TILE = N_SPOTS                 # the tiles 42..57
N_CARDS = N_SPOTS + len(hw.TILES)
FAKES, FACE_UP, MAX_NEIGHBOURS = hw.FAKES, hw.FACE_UP, hw.MAX_NEIGHBOURS
NB = tuple(tuple(row) for row in hw.NEIGHBOURS)
NB_GET = tuple(itemgetter(*row) for row in NB)   # a position's neighbours' codes in one call
# the tiles' attributes by card id
SLOTS = (0,) * N_SPOTS + tuple(hw.SLOTS)
VALUE = (0,) * N_SPOTS + tuple(hw.VALUE)
STEAL = (False,) * N_SPOTS + tuple(hw.STEAL)
TAKE, PLACE, STEAL_FROM, STEAL_TILE = range(4)   # the decision play waits on
EMPTY, FAKE, KNOWN, REAL = 0, 1, 2, 3            # a position's zone in the record (``at``), as the engine codes it
LIMIT = 500_000                                   # the engine's step budget


def play(new_game, games: int, seed: int) -> int:
    """``games`` games of 4 players, each decision a random option drawn by one
    ``random.Random(seed)``, as benchmarks/playouts.py plays the engine; the decisions made."""
    rnd = random.Random(seed)
    decisions = 0
    for g in range(games):
        S = new_game(4, seed + g)
        while not S.over:
            S.apply_index(rnd.randrange(len(S.dec[1])))
            decisions += 1
    return decisions


def play_rung0(games: int, seed: int) -> int:
    """The plain program on the same games: its choices drawn from the same stream."""
    rnd = random.Random(seed)
    decisions = 0
    for g in range(games):
        game = Game(4, seed + g)
        game.rng = rnd
        game.play()
        decisions += game.decisions
    return decisions


class _Drawn:
    """What engine/rng.py's shuffle reads and writes: the RNG's state as ``rng``."""
    __slots__ = ("rng",)


def _engine_shuffle(dice, items) -> None:
    box = _Drawn()
    box.rng = dice.state
    shuffle(box, items)
    dice.state = box.rng


def shuffle_as_the_engine() -> None:
    """Rung 0's shuffles drawn as engine/rng.py draws them, in lanes of one integer: the same
    permutations and the same state after (for benchmarks/ceiling.py: what its shuffle costs)."""
    hw.SplitMix64.shuffle = _engine_shuffle


def _winners(points: list) -> list:
    best = max(points)
    return [p for p, x in enumerate(points) if x == best]


class Rung1:
    """Rung 0's game, resumable: where play stands is ``pc`` and a few fields."""

    def __init__(self, players: int, seed: int, skill=None):
        self.n = players
        self.dice = hw.SplitMix64(seed)
        self.skill = skill or [hw.SKILL] * players
        self.target = hw.TARGET[players]
        spots = list(range(N_SPOTS))
        self.dice.shuffle(spots)
        self.fake = [False] * N_SPOTS
        for s in spots[-FAKES:]:
            self.fake[s] = True
        self.hidden = list(range(N_SPOTS))
        self.reals = N_SPOTS - FAKES
        self.near = [len(row) for row in NB]
        self.deck = list(range(FIRST_TILE, N_CARDS))
        self.dice.shuffle(self.deck)
        self.row = [self.deck.pop() for _ in range(FACE_UP)]
        self.filled = [0] * N_CARDS
        self.won = [[] for _ in range(players)]
        self.points = [0] * players
        self.over = False
        self.dec = None
        self.player = 0
        self.victim = None
        self.pc = TAKE
        self._attempt()

    def apply_index(self, i: int):
        value = self.dec[1][i]
        self.dec = None
        pc = self.pc
        if pc == TAKE:
            self._take(value)
        elif pc == PLACE:
            self._place(value)
        elif pc == STEAL_FROM:
            self._steal_from(value)
        else:
            self._steal(value)
        return self

    def _attempt(self):
        if self.reals:
            self.pc = TAKE
            self.dec = (self.player, tuple(self.hidden))
        else:
            self.over = True

    def _end_turn(self):
        self.player = (self.player + 1) % self.n
        self._attempt()

    def _take(self, spot):
        if self.dice.uniform() < (1 - self.skill[self.player]) * self.near[spot] / MAX_NEIGHBOURS:
            return self._end_turn()
        self.hidden.remove(spot)
        if self.fake[spot]:
            return self._end_turn()
        self.reals -= 1
        for q in NB[spot]:
            self.near[q] -= 1
        self.pc = PLACE
        self.dec = (self.player, tuple(self.row))

    def _place(self, tile):
        self.filled[tile] += 1
        if self.filled[tile] < SLOTS[tile]:
            return self._attempt()
        p = self.player
        self.row.remove(tile)
        self.won[p].append(tile)
        if self._score(p, tile):
            return
        if STEAL[tile]:
            victims = [q for q in range(self.n) if q != p and any(not STEAL[t] for t in self.won[q])]
            if victims:
                self.pc = STEAL_FROM
                self.dec = (p, tuple(victims))
                return
        self._flip()

    def _steal_from(self, q):
        self.victim = q
        self.pc = STEAL_TILE
        self.dec = (self.player, tuple([t for t in self.won[q] if not STEAL[t]]))

    def _steal(self, tile):
        p, q = self.player, self.victim
        self.won[q].remove(tile)
        self.points[q] -= VALUE[tile]
        self.won[p].append(tile)
        if not self._score(p, tile):
            self._flip()

    def _score(self, p, tile):
        self.points[p] += VALUE[tile]
        if self.points[p] >= self.target:
            self.over = True
        return self.over

    def _flip(self):
        self.row.append(self.deck.pop())
        if self.deck:
            self._end_turn()
        else:
            self.over = True

    def scores(self):
        return list(self.points)

    def winners(self):
        return _winners(self.points)


class Rung2:
    """Rung 1 on the engine's data model."""

    __slots__ = ("n", "p", "o", "skill", "target", "rng", "pc", "dec", "over", "steps", "ev", "kn", "sh", "stack",
                 "z_real_spots", "z_fake_spots", "z_known_fakes", "z_empty_spots", "z_deck", "z_row", "z_won",
                 "c_filled", "v_turn_over", "v_spot", "v_tile", "v_victim", "v_turn_player", "v_result",
                 "at", "vw")

    def __init__(self, players: int, seed: int, skill=None):
        self.n = players
        self.p = {"skill": hw.SKILL, "fakes": FAKES, "face_up": FACE_UP, "max_neighbours": MAX_NEIGHBOURS,
                  "target": hw.TARGET[players]}
        self.o = {"skill": skill} if skill else {}
        self.skill = skill or [hw.SKILL] * players
        self.target = hw.TARGET[players]
        self.rng = rng.seed_state(seed)
        self.dec, self.over, self.steps, self.ev, self.kn, self.sh = None, False, 0, None, None, set()
        self.v_turn_over = self.v_spot = self.v_tile = self.v_victim = self.v_result = None
        # the setup as the ruleset writes it: shuffle the positions, the last 16 are the fakes
        # (taken from the end, last first), shuffle the tiles, turn up the last three
        real = list(range(N_SPOTS))
        shuffle(self, real)
        fakes = real[-FAKES:][::-1]
        del real[-FAKES:]
        deck = list(range(FIRST_TILE, N_CARDS))
        shuffle(self, deck)
        self.z_real_spots, self.z_fake_spots, self.z_known_fakes, self.z_empty_spots = real, fakes, [], []
        self.z_row = deck[-FACE_UP:][::-1]
        del deck[-FACE_UP:]
        self.z_deck = deck
        self.z_won = [[] for _ in range(players)]
        self.c_filled = [0] * N_CARDS
        self.at = at = [EMPTY] * N_CARDS
        for c in real:
            at[c] = REAL
        for c in fakes:
            at[c] = FAKE
        self.vw = [list(range(N_SPOTS))]   # the hidden positions (fakes and reals) in card order
        self.steps += 2 * N_SPOTS + FAKES + 2 * FACE_UP
        self.v_turn_player = 0
        self.pc = TAKE
        #+ self.stack = [[22, 0], [21, None, 0, 0, None]]  # [+frames]
        self._turn()

    def own(self, name: str):
        """(A state never cloned shares nothing: only the test ``if self.sh`` runs.)"""
        raise NotImplementedError("a rung is never cloned")

    def know(self, cards, to: str):
        """(A rung keeps no knowledge: only the test ``if self.kn is not None`` runs.)"""
        raise NotImplementedError("a rung keeps no knowledge")

    def over_budget(self):
        raise RuntimeError(f"the game went past its step budget ({LIMIT} steps)")

    def apply_index(self, i: int):
        value = self.dec[1][i]
        self.dec = None
        pc = self.pc
        if pc == TAKE:
            self._take(value)
        elif pc == PLACE:
            self._place(value)
        elif pc == STEAL_FROM:
            self._steal_from(value)
        else:
            self._steal(value)
        return self

    def _turn(self):
        self._attempt()

    def _attempt(self):
        if not self.z_real_spots:
            self.over = True
            return
        self.steps += 1  # [steps]
        if self.steps > LIMIT:  # [steps]
            self.over_budget()
        self.pc = TAKE
        self.dec = (self.v_turn_player, tuple(self.vw[0]))

    def _end_turn(self):
        self.v_turn_player = (self.v_turn_player + 1) % self.n
        self._turn()

    def _take(self, spot):
        p = self.v_turn_player
        at = self.at
        touch = (1 - self.skill[p]) * (len(NB[spot]) - NB_GET[spot](at).count(EMPTY)) / MAX_NEIGHBOURS
        if uniform(self) < touch:
            return self._end_turn()
        if at[spot] == FAKE:   # revealed: never offered again
            self._move_hidden(spot, self.z_fake_spots, self.z_known_fakes, KNOWN, "known_fakes")
            return self._end_turn()
        self._move_hidden(spot, self.z_real_spots, self.z_empty_spots, EMPTY, "empty_spots")
        self.pc = PLACE
        self.dec = (p, tuple(self.z_row))

    def _move_hidden(self, spot, source, dest, code, name):
        """A position out of the hidden ones into a sorted public zone (its record and the view too)."""
        if self.sh:  # [sh]
            self.own("@")
        source.remove(spot)
        insort(dest, spot)
        self.at[spot] = code
        view = self.vw[0]
        del view[bisect_left(view, spot)]
        self.steps += 1  # [steps]
        if self.kn is not None:  # [kn]
            self.know([spot], name)
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "move", "to": name, "cards": [spot]})

    def _move(self, card, source, dest, name):
        """One card from list to list (not recorded: the tiles)."""
        if self.sh:  # [sh]
            self.own(name)
        source.remove(card)
        dest.append(card)
        self.steps += 1  # [steps]
        if self.kn is not None:  # [kn]
            self.know([card], name)
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "move", "to": name, "cards": [card]})

    def _gain(self, tile):
        if self.sh:  # [sh]
            self.own("filled")
        self.c_filled[tile] += 1
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "gain", "counter": "filled", "owner": tile, "amount": 1})

    def _place(self, tile):
        self._gain(tile)
        if self.c_filled[tile] < SLOTS[tile]:
            return self._attempt()
        p = self.v_turn_player
        self._move(tile, self.z_row, self.z_won[p], "won")
        if self._reached(p):
            return
        if STEAL[tile]:
            won = self.z_won
            victims = [q for q in range(self.n) if q != p and any(not STEAL[t] for t in won[q])]
            if victims:
                self.pc = STEAL_FROM
                self.dec = (p, tuple(victims))
                return
        self._flip()

    def _steal_from(self, q):
        self.v_victim = q
        self.pc = STEAL_TILE
        self.dec = (self.v_turn_player, tuple([t for t in self.z_won[q] if not STEAL[t]]))

    def _steal(self, tile):
        p = self.v_turn_player
        self._move(tile, self.z_won[self.v_victim], self.z_won[p], "won")
        if not self._reached(p):
            self._flip()

    def _reached(self, p):
        """Player p's points at the target (MD-5): the game is over."""
        if sum([VALUE[t] for t in self.z_won[p]]) >= self.target:
            self.over = True
        return self.over

    def _turn_up(self):
        """The deck's top tile face up."""
        if self.sh:  # [sh]
            self.own("row")
        self.z_row.append(self.z_deck.pop())
        self.steps += 1  # [steps]
        if self.kn is not None:  # [kn]
            self.know(self.z_row[-1:], "row")
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "move", "to": "row", "cards": self.z_row[-1:]})

    def _flip(self):
        self._turn_up()
        if self.z_deck:
            self._end_turn()
        else:
            self.over = True

    def scores(self):
        return [sum(VALUE[t] for t in won) for won in self.z_won]

    def winners(self):
        return _winners(self.scores())


class RulesetError(Exception):
    """An expression's error, located at the rule it comes from."""


def located(e: Exception, where: str) -> RulesetError:
    return RulesetError(f"mister_diamond.yaml, {where}: {e}")


RUNTIME_ERRORS = (TypeError, ZeroDivisionError, KeyError, IndexError, ValueError, AttributeError, OverflowError)
EPS = 1e-9   # the engine's rounding allowance on a chance


class Rung3(Rung2):
    """Rung 2 running the ruleset as it is written."""

    __slots__ = ()

    def apply_index(self, i: int):
        try:  # [try]
            value = self.dec[1][i]
            if i < 0:
                raise IndexError(i)
        except (TypeError, IndexError):  # [try]
            raise RulesetError(f"no option {i!r} among the decision's {len(self.dec[1])}") from None
        self.dec = None
        #+ frame = self.stack[-1]  # [+frames]
        #+ frame[0] == 1  # [+frames]
        pc = self.pc
        if pc == TAKE:
            self._take(value)
        elif pc == PLACE:
            self._place(value)
        elif pc == STEAL_FROM:
            self._steal_from(value)
        else:
            self._steal(value)
        return self

    def _turn(self):
        """turns, until count(real_spots) == 0 (MD-5); its first step: set turn_over false."""
        try:  # [try]
            done = not self.z_real_spots
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "flow, until") from None
        if done:
            self.over = True
            return
        self.v_turn_over = False
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "set", "var": "turn_over", "value": False})
        #+ t = self.stack[-1]  # [+frames]
        #+ t[2] = t[2] + 1  # [+frames]
        #+ self.stack.append((19,))  # [+frames]
        self._attempt()

    def _attempt(self):
        """until turn_over or count(real_spots) == 0: attempt, its target from hidden_pieces."""
        #+ top = self.stack[-1]  # [+frames]
        #+ top[0] == 19  # [+frames]
        self.steps += 1  # [steps] [-trips]
        if self.steps > LIMIT:  # [steps] [-trips]
            self.over_budget()
        try:  # [try]
            done = self.v_turn_over or not self.z_real_spots
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "until") from None
        options = self.vw[0]
        if done or not options:
            #+ self.stack.pop()  # [+frames]
            #+ self.steps += 18  # [+trips]
            #+ if self.steps > 500000: self.over_budget()  # [+trips]
            return self._end_turn()
        #+ self.stack.extend(([17, 1, self.v_turn_player, None], (1,)))  # [+frames]
        #+ if self.steps > 499635: pass  # [+trips]
        #+ self.steps += 18  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        self.pc = TAKE
        self.dec = (self.v_turn_player, tuple(options))

    def _take(self, spot):
        """The attempt's roll: each outcome's chance as the ruleset writes it, made a probability."""
        #+ self.stack.pop()  # [+frames]
        #+ frame = self.stack[-1]  # [+frames]
        #+ frame[1] == 1 and frame[2]  # [+frames]
        self.v_spot = spot
        me = self.v_turn_player
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "target", "who": me, "card": spot})
        try:  # [try]
            c1 = len(self.z_fake_spots) > 0
            c2 = len(self.z_real_spots) > 0
            o = self.o
            skill = self.p["skill"] if not o or o.get("skill") is None else o["skill"][me]
            touch = (1 - skill) * (len(NB[spot]) - NB_GET[spot](self.at).count(EMPTY)) / self.p["max_neighbours"]
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "touch_chance") from None
        p = float(touch)
        p0 = p if 0.0 < p <= 1.0 else 0.0 if p == 0.0 else self._clamped("touch", p)
        p1 = 0.0
        if c1:
            try:  # [try]
                p = (1 - touch) if (self.v_spot is not None and self.at[self.v_spot] == FAKE) else 0
            except RUNTIME_ERRORS as e:  # [try]
                raise located(e, "outcome fake, chance") from None
            p = float(p)
            p1 = p if 0.0 < p <= 1.0 else 0.0 if p == 0.0 else self._clamped("fake", p)
        total = p0 + p1
        if total > 1 + EPS:
            raise RulesetError(f"the chances of the outcomes add up to {total:g}, more than 1")
        p2 = 0.0
        if c2:
            p = 1.0 - total
            p2 = p if p > 0.0 else 0.0
        u = uniform(self)
        acc = 0.0
        if p0 > 0 and u < (acc := acc + p0):
            #+ self.stack.pop()  # [+frames]
            #+ if self.steps > 499635: pass  # [+trips]
            #+ self.steps += 18  # [+trips]
            self.v_result = "touch"
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "attempt", "outcome": "touch"})
            self.v_turn_over = True
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "set", "var": "turn_over", "value": True})
        elif p1 > 0 and u < (acc := acc + p1):
            #+ self.stack[-1] = [6, 0]  # [+frames]
            #+ if self.steps > 499635: pass  # [+trips]
            #+ self.steps += 18  # [+trips]
            self.v_result = "fake"
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "attempt", "outcome": "fake"})
            self._reveal_fake()
            self.v_turn_over = True
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "set", "var": "turn_over", "value": True})
            #+ self.stack.pop()  # [+frames]
        elif p2 > 0 and u < (acc := acc + p2):
            #+ self.stack[-1] = [15, 0]  # [+frames]
            #+ if self.steps > 499635: pass  # [+trips]
            #+ self.steps += 18  # [+trips]
            self.v_result = "clean"
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "attempt", "outcome": "clean"})
            return self._clean()
        else:
            #+ self.stack.pop()  # [+frames]
            self.v_result = None
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "attempt", "outcome": None})
        #+ self.steps += 365  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        self._attempt()

    def _clamped(self, name, p):
        if not -EPS <= p <= 1 + EPS:
            raise RulesetError(f"the chance of outcome '{name}' is {p:g}, not between 0 and 1")
        return min(1.0, max(0.0, p))

    def _reveal_fake(self):
        """The effect reveal_fake: its swap applies only to a table's answer (resolve: ask)."""
        spot = self.v_spot
        if spot is not None and self.at[spot] == REAL:
            self._swap(spot, self.z_real_spots, self.z_fake_spots, FAKE)
        if spot is not None and self.at[spot] == FAKE:
            self._move_hidden(spot, self.z_fake_spots, self.z_known_fakes, KNOWN, "known_fakes")

    def _swap(self, spot, zone, other, code):
        """(resolve: ask) ``spot`` and the first of ``other`` trade zones."""
        first = other[0]
        other.remove(first)
        zone.append(first)
        self.at[first] = self.at[spot]
        zone.remove(spot)
        other.append(spot)
        self.at[spot] = code

    def _clean(self):
        """The outcome clean: confirm_real, take the diamond, place it, complete a tile."""
        spot = self.v_spot
        if spot is not None and self.at[spot] == FAKE:   # confirm_real (resolve: ask)
            self._swap(spot, self.z_fake_spots, self.z_real_spots, REAL)
        self._move_hidden(spot, self.z_real_spots, self.z_empty_spots, EMPTY, "empty_spots")
        try:  # [try]
            filled = self.c_filled
            options = [t for t in self.z_row if filled[t] < SLOTS[t]]
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "choose, options") from None
        #+ self.stack[-1][1] = 3  # [+frames]
        if not options:
            return self._completed()
        #+ self.stack.append([9, self.v_turn_player])  # [+frames]
        #+ self.steps += 365  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        self.pc = PLACE
        self.dec = (self.v_turn_player, tuple(options))

    def _place(self, tile):
        #+ self.stack.pop()  # [+frames]
        #+ top = self.stack[-1]  # [+frames]
        #+ top[0] == 15 and top[1]  # [+frames]
        self.v_tile = tile
        self._gain(tile)
        self._completed()

    def _completed(self):
        """if filled[tile] >= tile.slots: the tile is won; then the steal (MD-4, MD-6)."""
        me = self.v_turn_player
        try:  # [try]
            full = self.c_filled[self.v_tile] >= SLOTS[self.v_tile]
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "if") from None
        if full:
            self._move(self.v_tile, self.z_row, self.z_won[me], "won")
            self.v_turn_over = True
            if self.ev is not None:  # [ev]
                self.ev.append({"ev": "set", "var": "turn_over", "value": True})
            if self._ended():
                return
        self.v_victim = None
        if self.ev is not None:  # [ev]
            self.ev.append({"ev": "set", "var": "victim", "value": None})
        #+ self.stack[-1][1] = 6  # [+frames]
        #+ if self.steps > 499982: pass  # [+trips]
        #+ self.steps += 39  # [+trips]
        try:  # [try]
            won, tile = self.z_won, self.v_tile
            victims = [q for q in range(self.n) if q != me and any(not STEAL[t] for t in won[q])] \
                if STEAL[tile] and tile in won[me] else ()
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "choose, options") from None
        if victims:
            #+ self.stack.append([12, me])  # [+frames]
            self.pc = STEAL_FROM
            self.dec = (me, tuple(victims))
            return
        #+ self.steps += 18  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        self._pick()

    def _steal_from(self, q):
        #+ self.stack.pop()  # [+frames]
        self.v_victim = q
        self._pick()

    def _pick(self):
        """pick: who is me if victim != none, from won[victim] where not steal, one tile."""
        #+ self.stack[-1][1] = 7  # [+frames]
        try:  # [try]
            who = self.v_turn_player if self.v_victim is not None else None
            if who is None:
                return self._flip()
            options = [t for t in self.z_won[self.v_victim] if not STEAL[t]]
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "pick") from None
        if not options:
            return self._flip()
        #+ self.stack.append([13, [], who])  # [+frames]
        self.pc = STEAL_TILE
        self.dec = (who, tuple(options))

    def _steal(self, tile):
        #+ self.stack.pop()  # [+frames]
        self._move(tile, self.z_won[self.v_victim], self.z_won[self.v_turn_player], "won")
        if not self._ended():
            self._flip()

    def _ended(self):
        """end_when: any(players, by: sum(won, by: value) >= params.target), after won changed."""
        try:  # [try]
            won, target = self.z_won, self.p["target"]
            for q in range(self.n):
                total = 0
                for t in won[q]:
                    total += VALUE[t]
                if total >= target:
                    self.over = True
                    return True
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "end_when") from None
        return False

    def _flip(self):
        """if tile in won: a tile from the deck replaces it; the last tile flipped ends the game."""
        #+ self.steps += 20  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        try:  # [try]
            won = self.v_tile in self.z_won[self.v_turn_player]
        except RUNTIME_ERRORS as e:  # [try]
            raise located(e, "if") from None
        if won:
            if self.z_deck:
                self._turn_up()
            if not self.z_deck:
                self.over = True
                return
        #+ self.stack.pop()  # [+frames]
        #+ self.steps += 18  # [+trips]
        #+ if self.steps > 500000: self.over_budget()  # [+trips]
        self._attempt()


RUNGS = {1: Rung1, 2: Rung2, 3: Rung3}


def _marks(line: str) -> list:
    """The markers ``[NAME]`` (``[steps]``, ``[-trips]``) a line's closing comment holds."""
    comment = line.rstrip().rpartition("# ")[2] if "# [" in line else ""
    return comment.split() if comment.startswith("[") else []


def variant(rung: int, drop: tuple = (), replace: tuple = (), add: tuple = ()) -> type:
    """Rung ``rung``'s class with the lines marked ``# [NAME]`` for each NAME of ``drop`` taken out,
    each with the block it opens, each (old, new) text of ``replace`` replaced (it must be
    there), and the comments ``#+ CODE  # [+NAME]`` for each NAME of ``add`` made code: the rung
    without those features, or with the interpreter's own (for benchmarks/ceiling.py)."""
    if not drop and not replace and not add:
        return RUNGS[rung]
    text = Path(__file__).read_text()
    for name in add:   # (and the lines marked [-NAME], which the added ones stand for, taken out)
        marker = f"  # [+{name}]"
        if marker not in text:
            raise ValueError(f"no line marked {marker.strip()!r} in {Path(__file__).name}")
        text = "\n".join(line.replace("#+ ", "", 1).replace(marker, "") if line.endswith(marker) else line
                         for line in text.splitlines())
    drop = (*drop, *(f"-{name}" for name in add))
    for old, new in replace:
        if old not in text:
            raise ValueError(f"no {old!r} in {Path(__file__).name} to replace")
        text = text.replace(old, new)
    lines, out, skip, unwrap = text.splitlines(), [], None, None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if skip is not None:
            if line.strip() and indent > skip:
                continue
            skip = None
        if unwrap is not None:   # the block of a try taken out: its statements one level up
            if line.strip() and indent > unwrap:
                out.append(line[4:])
                continue
            unwrap = None
        if any(f"[{name}]" in _marks(line) for name in drop):
            if line.strip().startswith("try:"):
                unwrap = indent
            else:   # (an except clause goes with its try)
                skip = indent
            continue
        out.append(line)
    name = f"ceiling_rungs_variant_{len(sys.modules)}"
    module = type(sys)(name)
    module.__file__ = __file__
    sys.modules[name] = module
    exec(compile("\n".join(out) + "\n", f"<{name}>", "exec"), module.__dict__)  # noqa: S102 - this file's own lines
    return module.RUNGS[rung]
