"""Hand-written Python implementation of the board game Diamonds Club (shared/seeds/
diamonds_club.txt, rulings DC-1 to DC-12, the price tables and the market strip faces table of
shared/RULINGS.md), used as the speed anchor for the interpreter's rulesets/diamonds_club.yaml:
the same game, random legal play, no DSL. Plain, reasonable Python, not golfed.

It asks the same decisions with the same options, at the same points, as the ruleset does
(prompt names in the calls to choose() are the ruleset's), so that the cost per decision is
comparable:
  - `buy`: the market spaces (column by column, a market index) that are free, affordable and,
    for an animal, placeable, then "pass" (None); a player who can afford nothing passes
    without being asked; `track` after buying a `?` space, among the tracks not at the end;
  - `mine`, `right`, `ship`: each complete set is picked one tile at a time (identical tiles
    offered once), then `keep`: one tile at a time, of parts not kept yet, at most two, with
    "done" (skipped when no equipment is left);
  - `build`: the price tables allowed now, then "pass"; `tile` for the Any table; `pay` for
    each gem unit that has more than one way to be paid (the engine's pay step: the specific
    costs first, the counter itself or a diamond, then the `any` units among blue, yellow,
    green, red, diamond, each only if the rest stays payable); `space` when a building could
    go on its required space or on a plain one; `forest` for each forest tile (which building
    type turns over).
Rulings followed: DC-1 (1 coin + 1 per occupied neighbour), DC-2 (N dark then N light strips,
a random face each), DC-3 (start-player track, stacking, first past 9), DC-4 (sets, keeping
one incomplete set), DC-5 (track values), DC-6 (price tables, diamonds as jokers, +1 gem per
opposing piece, one piece per table a round), DC-7 (animals placed at once, dark spaces last),
DC-8 (required spaces), DC-9 (bonus cards), DC-10 (scoring), DC-11 (everything printed on a
space; a full track's step is lost), DC-12 (the builder chooses a forest's building type),
DC-13 (the most-coins diamond only above 0 coins).
Scores are the raw totals (S.scores() of the engine); eligibility (DC-10) is not applied.

``python benchmarks/versus_handwritten.py --game diamonds_club`` times it against the interpreter
(and ``--instructions`` counts both under valgrind); the lockstep test replays the engine's
games with it.
"""
import random

ROWS = 6
# the market strip faces table (RULINGS): strip -> (face A, face B), spaces 1-6 top down
FACES = {
    1: ("S5 Mb DF R2 R3+1h AP", "DT R3 H1 S2+1h My S4"),
    2: ("AW S3 DM Mg DF R4", "R5 Mr S4+2h H2 DQ S2"),
    3: ("R3 R4+2h AV DT S5 Mb", "R4 My H1 S4 H3 DM"),
    4: ("R4+1h DQ S3 Mg R5 AP", "DF S2 S5+1h Mr H1 R2"),
    5: ("Mb R4 S4 DM DF AW", "S3 S2+2h H2 My R5 DQ"),
    6: ("AV Mg S2 DF R2 R4+2h", "H3 Mr H2 S5 R3 DT"),
    7: ("DQ AP R5 S4 R2+1h Mb", "H1 DF S5+1h R2 My S3"),
    8: ("DT AW R3 S2 Mg DQ", "Mr S3+2h R4 DM H2 S5"),
    9: ("R5+2h AV Mb S3 R2 DF", "R3 H1 DT S2 My H3"),
    10: ("Mg AP S5 DM R3+1h R4", "S4 S2+1h Mr R5 H1 DQ"),
    11: ("DQ AW R3 DT S3 Mb", "S4+2h DM My S2 R4 H2"),
    12: ("AV S5 DQ R5 Mg R3+2h", "H2 Mr DF S4 H3 R2"),
}
# equipment kinds, in the ruleset's card order: (name, part, colour, value)
EQUIP = [("mine_blue", "mine", "blue", 0), ("mine_yellow", "mine", "yellow", 0),
         ("mine_green", "mine", "green", 0), ("mine_red", "mine", "red", 0)]
EQUIP += [(f"right{v}", "right", None, v) for v in range(2, 6)]
EQUIP += [(f"ship{v}", "ship", None, v) for v in range(2, 6)]
EQUIP_OF_CODE = {"Mb": 0, "My": 1, "Mg": 2, "Mr": 3, "R2": 4, "R3": 5, "R4": 6, "R5": 7,
                 "S2": 8, "S3": 9, "S4": 10, "S5": 11}
PART_KINDS = {part: [k for k, e in enumerate(EQUIP) if e[1] == part] for part in ("mine", "right", "ship")}
DEV = {"DF": "forest", "DT": "tech", "DM": "money", "DQ": "any"}
ANIMAL = {"AP": "pond", "AW": "wildlife_park", "AV": "aviary"}
ANIMALS = ("pond", "wildlife_park", "aviary")
BUILDINGS = ("fountain", "orangery", "pavilion", "rose_garden")
BOARDS = {"red": ("fountain", "orangery", "pavilion"), "white": ("orangery", "pavilion", "rose_garden"),
          "bronze": ("pavilion", "rose_garden", "fountain"), "blue": ("rose_garden", "fountain", "orangery")}
SEAT_BOARD = ("red", "white", "bronze", "blue")                  # DC-8
TRACKS = ("forest", "tech", "money")
TRACK_LAST, HAT_LAST = 4, 10
FOREST_VP = (2, 3, 4, 5, 6)
TECH_GEMS, TECH_DIAMONDS, TECH_VP = (0, 1, 0, 1, 2), (0, 0, 1, 1, 1), (0, 0, 0, 0, 1)   # DC-5
MONEY_COINS, MONEY_VP = (10, 11, 12, 13, 14), (0, 0, 1, 2, 3)
COLOURS = ("blue", "yellow", "green", "red")
PAY_FROM = ("blue", "yellow", "green", "red", "diamond")          # DC-6: diamonds are jokers
# DC-6 price tables: (name, gives, tiles, (blue, yellow, green, red), any)
TABLES = [("fountain", "fountain", 1, (2, 1, 1, 0), 0), ("orangery", "orangery", 1, (1, 2, 0, 1), 0),
          ("pavilion", "pavilion", 1, (1, 0, 2, 1), 0), ("rose_garden", "rose_garden", 1, (0, 1, 1, 2), 0),
          ("forest", "forest", 1, (0, 0, 0, 0), 2), ("forest2", "forest", 2, (0, 0, 0, 0), 3),
          ("forest3", "forest", 3, (0, 0, 0, 0), 5), ("any_tile", "any", 1, (0, 0, 0, 0), 5)]
# DC-9 bonus cards: (award, race, building, vp)
BONUSES = [("three_fountains", "three", "fountain", 3), ("three_orangeries", "three", "orangery", 3),
           ("three_pavilions", "three", "pavilion", 3), ("three_rose_gardens", "three", "rose_garden", 3),
           ("all_four_5", "all_four", None, 5), ("all_four_3", "all_four", None, 3),
           ("five_same_5", "five_same", None, 5), ("five_same_3", "five_same", None, 3)]
PIECES = 6


def parse_space(code):
    """A market space: (code, equipment kind or None, top hats, animal or None, development or None)."""
    equip, _, hats = code.partition("+")
    if code[0] == "H":
        return (code, None, int(code[1]), None, None)
    if code in DEV:
        return (code, None, 0, None, DEV[code])
    if code in ANIMAL:
        return (code, None, 0, ANIMAL[code], None)
    return (code, EQUIP_OF_CODE[equip], int(hats[0]) if hats else 0, None, None)


# every printed space, in the ruleset's card order (strip 1 face A 1-6, face B 1-6, strip 2 ...)
SPACES = [parse_space(code) for s in range(1, 13) for face in FACES[s] for code in face.split()]


def neighbours(size):
    """For each index of a column-major grid of `size` spaces, its orthogonal neighbours."""
    return [[j for j, ok in ((i - 1, i % ROWS > 0), (i + 1, i % ROWS < ROWS - 1 and i + 1 < size),
                             (i - ROWS, i >= ROWS), (i + ROWS, i + ROWS < size)) if ok]
            for i in range(size)]


class Player:
    def __init__(self, seat):
        self.seat = seat
        self.coins = MONEY_COINS[0]
        self.gems = {"blue": 1, "yellow": 1, "green": 1, "red": 1, "diamond": 0}
        self.forest_pos = self.tech_pos = self.money_pos = 0
        self.hat_pos = self.hat_height = 0
        self.equipment = [0] * len(EQUIP)          # count of each kind
        self.plain_free = 11                       # plain light-green spaces free
        self.required_free = list(BOARDS[SEAT_BOARD[seat]])   # DC-8
        self.dark_free = 5
        self.buildings = dict.fromkeys(BUILDINGS, 0)
        self.forests = 0
        self.animals = dict.fromkeys(ANIMALS, 0)
        self.bonus = []                            # (award, race, building, vp) won
        self.pieces = PIECES
        self.passed = False

    def dark_open(self):                           # DC-7: every light-green space built on
        return self.plain_free == 0 and not self.required_free

    def plain_spot(self):
        """The label of the space an animal or a forest goes on, or None (DC-7)."""
        if not self.dark_open():
            return "light" if self.plain_free else None
        return "dark" if self.dark_free else None

    def room(self):
        return self.plain_free + (self.dark_free if not self.required_free else 0)

    def score(self):                               # DC-10
        sets = min(self.animals.values())
        return (sum(self.buildings.values()) * 4 + self.forests * FOREST_VP[self.forest_pos]
                + sets * 10 + (sum(self.animals.values()) - 3 * sets)
                + sum(b[3] for b in self.bonus) + TECH_VP[self.tech_pos] + MONEY_VP[self.money_pos])


class Game:
    def __init__(self, players, seed):
        self.n = players
        self.rng = random.Random(seed)
        self.decisions = 0
        self.players = [Player(p) for p in range(players)]
        self.dark_strips = list(range(1, 7))
        self.light_strips = list(range(7, 13))
        self.tile_supply = dict.fromkeys(BUILDINGS, 21)
        self.animal_supply = dict.fromkeys(ANIMALS, 7)
        self.bonus_supply = list(BONUSES)
        self.on_table = [[] for _ in TABLES]       # the seats with a piece on each table
        self.market = []
        self.coins_on = []
        self.end_triggered = False
        self.hat_first = None
        self.setup()

    def choose(self, options, prompt=None, seat=None):   # (seat: who decides)
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def setup(self):
        self.start_player = self.rng.randrange(self.n)
        self.seat_hats()

    def seat_hats(self):                           # DC-3: start player on 0, the others on 1, 2, 3
        self.hat_first = None
        for p in self.players:
            p.hat_pos = p.hat_height = (p.seat - self.start_player) % self.n

    # ------------------------------------------------------------------ effects
    def hat_step(self, p, n):
        new = min(p.hat_pos + n, HAT_LAST)
        if new != p.hat_pos:
            p.hat_pos = new
            p.hat_height = 1 + max(q.hat_height for q in self.players)   # lands on top
        if p.hat_pos == HAT_LAST and self.hat_first is None:
            self.hat_first = p.seat

    def develop(self, p, track):                   # DC-11: a step past the end is lost
        if track == "forest":
            p.forest_pos = min(p.forest_pos + 1, TRACK_LAST)
        elif track == "tech":
            p.tech_pos = min(p.tech_pos + 1, TRACK_LAST)
        elif p.money_pos < TRACK_LAST:
            p.money_pos += 1
            p.coins += 1

    def check_end(self, p):
        if p.dark_open():
            self.end_triggered = True

    def fill(self, p, spot):
        if spot == "light":
            p.plain_free -= 1
        elif spot == "dark":
            p.dark_free -= 1
        else:
            p.required_free.remove(spot[4:])

    def take_space(self, p, space):                # DC-11: everything printed on it
        _, equip, hats, animal, dev = space
        if equip is not None:
            p.equipment[equip] += 1
        if hats:
            self.hat_step(p, hats)
        if animal is not None:                     # DC-7: placed at once
            self.fill(p, p.plain_spot())
            self.animal_supply[animal] -= 1
            p.animals[animal] += 1
            self.check_end(p)
        if dev in TRACKS:
            self.develop(p, dev)

    def track_order(self, p):                      # DC-3
        return p.hat_pos * 1000 + p.hat_height + (100000 if self.hat_first == p.seat else 0)

    def by_track(self):
        return sorted(self.players, key=lambda p: -self.track_order(p))

    # ------------------------------------------------------------------ phases
    def lay_out_market(self):                      # DC-2
        n, rng = self.n, self.rng
        rng.shuffle(self.dark_strips)
        rng.shuffle(self.light_strips)
        layout = self.dark_strips[:n] + self.light_strips[:n]
        self.dark_strips = self.dark_strips[n:] + self.dark_strips[:n]
        self.light_strips = self.light_strips[n:] + self.light_strips[:n]
        market = []
        for s in layout:
            face = rng.randrange(2)
            start = (s - 1) * 12 + face * 6
            market += SPACES[start:start + 6]
        self.new_market(market)

    def new_market(self, spaces):
        self.market = spaces
        self.coins_on = [0] * len(spaces)
        self.near = neighbours(len(spaces))
        self.taken_near = [0] * len(spaces)        # occupied orthogonal neighbours of each space

    def buy_options(self, p):
        coins_on, taken_near = self.coins_on, self.taken_near
        animal_ok = p.plain_spot() is not None
        most = p.coins - 1                         # DC-1: 1 coin + 1 per occupied neighbour
        out = []
        for i, space in enumerate(self.market):
            if coins_on[i] or taken_near[i] > most:
                continue
            animal = space[3]
            if animal is not None and not (animal_ok and self.animal_supply[animal] > 0):
                continue
            out.append(i)
        return out

    def buy_turn(self, p):
        options = self.buy_options(p)
        if not options:                            # nothing affordable: the player passes
            p.passed = True
            return
        options.append(None)
        i = self.choose(options, "buy", p.seat)
        if i is None:
            p.passed = True
            return
        cost = 1 + self.taken_near[i]
        p.coins -= cost
        self.coins_on[i] = cost
        for j in self.near[i]:
            self.taken_near[j] += 1
        space = self.market[i]
        self.take_space(p, space)
        if space[4] == "any":                      # DC-11: a `?` step, to a track not at its end
            tracks = [t for t in TRACKS if getattr(p, t + "_pos") < TRACK_LAST]
            if tracks:
                self.develop(p, self.choose(tracks, "track", p.seat))

    def buying(self):
        for p in self.players:
            p.passed = False
        ring = [self.players[(self.start_player + k) % self.n] for k in range(self.n)]
        while True:
            for p in ring:
                if all(q.passed for q in self.players):
                    return
                if not p.passed:
                    self.buy_turn(p)

    def distribute_diamonds(self):                 # Phase 3
        most = max(p.coins for p in self.players)
        furthest = max(p.hat_pos for p in self.players)
        for p in self.players:
            if p.coins == most and most > 0:       # DC-13: with no coin left over, nobody
                p.gems["diamond"] += 1
        for p in self.players:
            if p.hat_pos == furthest:
                p.gems["diamond"] += 1
        if self.hat_first is not None:
            self.start_player = self.hat_first
        else:
            self.start_player = max(self.players, key=lambda p: p.hat_pos * 1000 + p.hat_height).seat

    def pick_one(self, p, part, prompt):
        kinds = [k for k in PART_KINDS[part] if p.equipment[k]]
        k = EQUIP_OF_NAME[self.choose([EQUIP[k][0] for k in kinds], prompt, p.seat)]
        p.equipment[k] -= 1
        return EQUIP[k]

    def acquire_gems(self, p):                     # DC-4
        eq = p.equipment
        while any(eq[k] for k in PART_KINDS["mine"]) and any(eq[k] for k in PART_KINDS["right"]) \
                and any(eq[k] for k in PART_KINDS["ship"]):
            mine = self.pick_one(p, "mine", "mine")
            right = self.pick_one(p, "right", "right")
            ship = self.pick_one(p, "ship", "ship")
            p.gems[mine[2]] += min(right[3], ship[3]) + TECH_GEMS[p.tech_pos]
            p.gems["diamond"] += TECH_DIAMONDS[p.tech_pos]
        kept = []                                  # one incomplete set: at most two parts
        while len(kept) < 2:
            parts = {EQUIP[k][1] for k in kept}
            options = [EQUIP[k][0] for k in range(len(EQUIP)) if eq[k] and EQUIP[k][1] not in parts]
            if not options:
                break
            choice = self.choose(options + ["done"], "keep", p.seat)
            if choice == "done":
                break
            k = EQUIP_OF_NAME[choice]
            eq[k] -= 1
            kept.append(k)
        p.equipment = [0] * len(EQUIP)
        for k in kept:
            p.equipment[k] += 1

    def table_options(self, p, supply_kinds, single_kinds, room_left, open_required):
        gems = p.gems
        total = sum(gems.values())
        out = []
        for t, (name, gives, tiles, costs, any_n) in enumerate(TABLES):
            if p.pieces == 0 or p.seat in self.on_table[t]:
                continue
            short = sum(max(0, c - gems[col]) for c, col in zip(costs, COLOURS))
            if short > gems["diamond"] or total < sum(costs) + any_n + len(self.on_table[t]):
                continue
            if gives == "any":
                if single_kinds:
                    out.append(name)
            elif gives in supply_kinds and sum(self.tile_supply.values()) >= tiles \
                    and (room_left >= tiles or gives in open_required):
                out.append(name)
        return out

    def pay(self, p, costs, any_n):
        """DC-6, the engine's pay step: one unit at a time, asked only when there is a choice."""
        have = p.gems
        left = list(costs)
        while any(left) or any_n > 0:
            k = next((i for i, c in enumerate(left) if c > 0), None)
            if k is not None:
                cands = [COLOURS[k], "diamond"]
            else:
                cands = PAY_FROM
            opts = [c for c in cands if have[c] > 0 and self.feasible(have, left, any_n, k, c)]
            name = opts[0] if len(opts) == 1 else self.choose(opts, "pay", p.seat)
            have[name] -= 1
            if k is None:
                any_n -= 1
            else:
                left[k] -= 1

    @staticmethod
    def feasible(have, left, any_n, k, name):
        """Whether, after paying one unit of cost k (None: an `any` unit) with `name`, the rest
        of the cost can still be paid."""
        have = dict(have)
        have[name] -= 1
        left = list(left)
        if k is None:
            any_n -= 1
        else:
            left[k] -= 1
        for col, need in zip(COLOURS, left):
            if have[col] >= need:
                have[col] -= need
            else:
                have["diamond"] -= need - have[col]
                have[col] = 0
                if have["diamond"] < 0:
                    return False
        return sum(have.values()) >= any_n

    def build(self, p, t, single_kinds):
        _, build_what, tiles, costs, any_n = TABLES[t]
        if build_what == "any":
            build_what = self.choose(single_kinds, "tile", p.seat)
        self.pay(p, costs, any_n + len(self.on_table[t]))
        for _ in range(tiles):
            spots = (["req_" + build_what] if build_what in p.required_free else [])
            plain = p.plain_spot()
            if plain is not None:
                spots.append(plain)
            spot = self.choose(spots, "space", p.seat) if len(spots) > 1 else spots[0]   # DC-8
            self.fill(p, spot)
            if build_what == "forest":             # DC-12: which building turns over
                kind = self.choose([b for b in BUILDINGS if self.tile_supply[b]], "forest", p.seat)
                self.tile_supply[kind] -= 1
                p.forests += 1
            else:
                self.tile_supply[build_what] -= 1
                p.buildings[build_what] += 1
            self.check_end(p)
        p.pieces -= 1
        self.on_table[t].append(p.seat)
        self.claim_bonuses(p)

    def claim_bonuses(self, p):                    # DC-9: only buildings count
        b = p.buildings
        for card in [c for c in self.bonus_supply if c[1] == "three"]:
            if b[card[2]] >= 3:
                self.bonus_supply.remove(card)
                p.bonus.append(card)
        for race, sets in (("all_four", min(b.values())), ("five_same", sum(v // 5 for v in b.values()))):
            left = [c for c in self.bonus_supply if c[1] == race]
            if left and sets > sum(1 for c in p.bonus if c[1] == race):
                card = max(left, key=lambda c: c[3])
                self.bonus_supply.remove(card)
                p.bonus.append(card)

    def build_turn(self, p):
        room_left = p.room()
        open_required = p.required_free
        supply_kinds = [b for b in BUILDINGS if self.tile_supply[b]]
        if supply_kinds:
            supply_kinds.append("forest")
        single_kinds = [gives for _, gives, _, _, _ in TABLES[:5]
                        if gives in supply_kinds and (room_left >= 1 or gives in open_required)]
        options = self.table_options(p, supply_kinds, single_kinds, room_left, open_required)
        action = self.choose(options + ["pass"], "build", p.seat)
        if action == "pass":
            p.passed = True
        else:
            self.build(p, TABLE_OF_NAME[action], single_kinds)

    def building(self):
        for p in self.players:
            p.passed = False
        while True:
            for p in self.by_track():
                if all(q.passed for q in self.players):
                    return
                if not p.passed:
                    self.build_turn(p)

    def end_of_round(self):
        for p in self.players:
            p.coins = MONEY_COINS[p.money_pos]     # unused coins do not carry over
            p.pieces = PIECES
        self.on_table = [[] for _ in TABLES]
        self.seat_hats()

    def play_round(self):
        self.lay_out_market()
        self.buying()
        self.distribute_diamonds()
        for p in self.by_track():
            self.acquire_gems(p)
        self.building()
        self.end_of_round()

    def play(self):
        while not self.end_triggered:              # the round of the trigger is finished
            self.play_round()
        return [p.score() for p in self.players]


EQUIP_OF_NAME = {e[0]: k for k, e in enumerate(EQUIP)}
TABLE_OF_NAME = {t[0]: i for i, t in enumerate(TABLES)}
