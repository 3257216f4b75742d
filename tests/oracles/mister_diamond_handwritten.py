"""Hand-written Python implementation of the dexterity game Mister Diamond (shared/seeds/
mister_diamond.txt, rulings MD-1 to MD-6 of shared/RULINGS.md), used as the speed anchor for the
interpreter's rulesets/mister_diamond.yaml: the same game, random legal play, no DSL. Plain,
reasonable Python, not golfed.

It asks the same decisions with the same options, at the same points, as the ruleset does
(prompt names in the calls to choose() are the ruleset's), so that the cost per decision is
comparable:
  - `take`: the positions still holding a hidden piece (real, or a fake nobody has revealed),
    in board order a1 .. g4 (MD-2);
  - `place`: the face-up tiles, in the order they were turned up (MD-2; a full tile never
    stays face up, MD-3);
  - on completing a steal tile (MD-4, MD-6), `steal_from`: the other players with a tile that
    is not a steal tile, by seat, then `steal`: those tiles, in the order they were won.
Dexterity is rolled as the ruleset does it, draw for draw, from the engine's generator
(SplitMix64, interpreter/engine/rng.py), so that the same seed and the same choices give the
same game: the 42 positions are shuffled and the last 16 hold the fakes (MD-1), the 16 tiles
are shuffled and the last three turned up, last first; each attempt is one uniform draw u,
a touch when u < (1 - skill) * occupied neighbours / 6 (MD-2).

``python benchmarks/versus_handwritten.py --game mister_diamond`` times it against the interpreter
(and ``--instructions`` counts both under valgrind); the lockstep test replays the engine's
games with it.
"""
import random

# MD-1: the octagon, rows of 4-6-7-8-7-6-4 positions; x is a doubled column (a position
# touches the two beside it in its row, x +- 2, and two in each next row, x +- 1).
ROWS = "abcdefg"
ROW_LENGTH = (4, 6, 7, 8, 7, 6, 4)
ROW_FIRST_X = (3, 2, 1, 0, 1, 2, 5)
SPOTS = [(r, ROW_FIRST_X[r] + 2 * i) for r in range(7) for i in range(ROW_LENGTH[r])]
SPOT_LABEL = [f"{ROWS[r]}{i + 1}" for r in range(7) for i in range(ROW_LENGTH[r])]
NEIGHBOURS = [[q for q, (r2, x2) in enumerate(SPOTS)
               if (r == r2 and abs(x - x2) == 2) or (abs(r - r2) == 1 and abs(x - x2) == 1)]
              for r, x in SPOTS]
FAKES = 16
MAX_NEIGHBOURS = 6                    # MD-2: the touch chance's divisor, whatever the position
SKILL = 0.8                           # MD-2: the default dexterity of a seat

# the 16 jewelry tiles: (name, points, slots, steal)
TILES = ([(f"1000{c}", 1000, 1, False) for c in "abcdefg"]
         + [(f"2000{c}", 2000, 2, False) for c in "abcde"]
         + [(f"3000{c}", 3000, 3, False) for c in "ab"]
         + [("steal_a", 0, 3, True), ("steal_b", 0, 3, True)])
TILE_NAME = [t[0] for t in TILES]
VALUE = [t[1] for t in TILES]
SLOTS = [t[2] for t in TILES]
STEAL = [t[3] for t in TILES]
FACE_UP = 3
TARGET = {2: 10000, 3: 10000, 4: 7000, 5: 7000, 6: 7000}   # MD-5

# SplitMix64 (interpreter/engine/rng.py): the game's own generator, so that a seed deals what
# the engine deals.
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, seed):
        self.state = mix((seed * GOLDEN + 0x632BE59BD9B4E019) & MASK)

    def next(self):
        self.state = (self.state + GOLDEN) & MASK
        return mix(self.state)

    def below(self, n):
        return (self.next() * n) >> 64

    def uniform(self):
        return (self.next() >> 11) * (1.0 / (1 << 53))

    def shuffle(self, items):                 # Fisher-Yates, from the end
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Game:
    def __init__(self, players, seed, skill=None):
        self.n = players
        self.rng = random.Random(seed)        # the players' choices
        self.dice = SplitMix64(seed)          # the game's chance: setup and dexterity
        self.skill = skill or [SKILL] * players
        self.target = TARGET[players]
        self.decisions = 0
        self.over = False
        # MD-1: every position holds a piece; the fakes are fixed, hidden from everyone
        spots = list(range(len(SPOTS)))
        self.dice.shuffle(spots)
        self.fake = [False] * len(SPOTS)
        for s in spots[-FAKES:]:
            self.fake[s] = True
        self.hidden = list(range(len(SPOTS)))   # the positions an attempt may name, in board order
        self.reals = len(SPOTS) - FAKES
        self.near = [len(nb) for nb in NEIGHBOURS]   # occupied neighbours of each position
        self.deck = list(range(len(TILES)))
        self.dice.shuffle(self.deck)
        self.row = [self.deck.pop() for _ in range(FACE_UP)]   # the top of the deck is its end
        self.filled = [0] * len(TILES)
        self.won = [[] for _ in range(players)]
        self.points = [0] * players

    def choose(self, options, prompt=None, seat=None):   # (seat: who decides)
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def play(self):
        p = 0                                 # the youngest player, then clockwise
        while self.reals and not self.over:   # MD-5: no real diamond left ends the game
            self.turn(p)
            p = (p + 1) % self.n
        return self.points

    def turn(self, p):
        """Attempts until a touch, a fake, a completed tile or no real left (MD-2, MD-3)."""
        while self.reals:
            spot = self.choose(self.hidden, "take", p)
            # MD-2: the dexterity check first, whatever the piece; without a touch the piece
            # decides (one draw: the ruleset's chances of touch and then fake or real add up to 1)
            if self.dice.uniform() < (1 - self.skill[p]) * self.near[spot] / MAX_NEIGHBOURS:
                return
            self.hidden.remove(spot)
            if self.fake[spot]:               # revealed: never offered again
                return
            self.reals -= 1
            for q in NEIGHBOURS[spot]:
                self.near[q] -= 1
            tile = self.choose(self.row, "place", p)   # each has an empty slot: a full one is won (MD-3)
            self.filled[tile] += 1
            if self.filled[tile] == SLOTS[tile]:
                self.complete(p, tile)
                return

    def score(self, p, tile):
        self.points[p] += VALUE[tile]
        if self.points[p] >= self.target:     # MD-5: reaching the target wins at once
            self.over = True

    def complete(self, p, tile):
        """MD-3, MD-4, MD-6: the tile is won, a steal tile steals, then the replacement flip."""
        self.row.remove(tile)
        self.won[p].append(tile)
        self.score(p, tile)
        if self.over:
            return
        if STEAL[tile]:
            victims = [q for q in range(self.n) if q != p and any(not STEAL[t] for t in self.won[q])]
            if victims:
                q = self.choose(victims, "steal_from", p)
                stolen = self.choose([t for t in self.won[q] if not STEAL[t]], "steal", p)
                self.won[q].remove(stolen)
                self.points[q] -= VALUE[stolen]
                self.won[p].append(stolen)
                self.score(p, stolen)
                if self.over:
                    return
        self.row.append(self.deck.pop())
        if not self.deck:                     # MD-5: the last tile flipped ends the game
            self.over = True

    def winners(self):
        """MD-5: most points; ties share the victory (a player at the target has the most)."""
        best = max(self.points)
        return [p for p in range(self.n) if self.points[p] == best]
