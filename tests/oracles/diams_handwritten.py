"""Hand-written Python implementation of the card game Diam's (shared/seeds/diams.txt, rulings
DM-1 to DM-11 and the collection points table of shared/RULINGS.md), used as the speed anchor
for the interpreter's rulesets/diams.yaml: the same game, random legal play, no DSL. Plain,
reasonable Python, not golfed.

It asks the same decisions with the same options, at the same points, as the ruleset does
(prompt names in the calls to choose() are the ruleset's), so that the cost per decision is
comparable:
  - each turn a `draw` choice (draw / to_market) while there is no closer and the pile is not
    empty, then an `action` choice among take_same, trade, secure, put_on_market, forced_sale,
    sleight_of_hand, armor_piercer, quick_secure (those whose conditions hold; none: skipped),
    then their sub-choices, then the hand limit (DM-8);
  - a choice among cards offers identical cards (same label: "5", "5*", "FS-quick") once;
    a pick takes cards one at a time, with "done" (None) once its minimum is reached;
  - trade's `take` offers every distinct multiset of market cards adding up to the given
    card's quality, in the engine's order (groups by decreasing value then label, more of a
    larger group first).
Rulings followed: DM-1 (the three forced-sale cards' powers), DM-2 (collection points), DM-3
(one pure diamond a quality), DM-4 (setup; the closing_last variant is left out), DM-5 (random
first player, then to the left), DM-6 (a forced sale or a power replaces phase 2), DM-7
(armor-piercer: the target chooses the card given), DM-8 (excess forced-sale cards discarded),
DM-9 (end of round and scoring), DM-10 (three rounds, the 2-player early win), DM-11 (the
closing card set aside, not replaced; bonuses only above 0; a tied round is nobody's win).

``python benchmarks/versus_handwritten.py --game diams`` times it against the interpreter
(and ``--instructions`` counts both under valgrind); the lockstep test replays the engine's
games with it.
"""
import bisect
import random

# Cards are numbers, in the ruleset's order: 0-39 diamonds (quality 1-10, four each), 40-49
# the pure diamonds (DM-3), 50-52 the forced-sale cards (DM-1), 53 the closing card.
SLEIGHT, PIERCER, QUICK, CLOSING = 50, 51, 52, 53
QUALITY = [c // 4 + 1 for c in range(40)] + list(range(1, 11)) + [None] * 4
PURE = [False] * 40 + [True] * 10 + [False] * 4
LABEL = ([str(q) for q in QUALITY[:40]] + [f"{q}*" for q in range(1, 11)]
         + ["FS-sleight", "FS-piercer", "FS-quick", "closing"])
POINTS = [[0] * 10, [0] * 10, [0] * 10,                # DM-2: by size (0-5), then quality
          [1, 2, 3, 4, 5, 6, 7, 3, 2, 1],
          [2, 3, 4, 5, 6, 8, 9, 4, 3, 2],
          [3, 4, 6, 7, 8, 10, 12, 5, 4, 3]]
RANK_TOKENS = [4, 3, 2, 1, 0]                           # DM-9
HAND_LIMIT = 5
QUALITIES = tuple(range(1, 11))
ACTIONS = ("take_same", "trade", "secure", "put_on_market", "forced_sale",
           "sleight_of_hand", "armor_piercer", "quick_secure")
DONE = None                                             # a pick's "done" option


def distinct(cards):
    """The cards with identical ones (same label) offered once, in order."""
    seen = set()
    out = []
    for c in cards:
        if LABEL[c] not in seen:
            seen.add(LABEL[c])
            out.append(c)
    return out


class Game:
    def __init__(self, players, seed):
        self.n = players
        self.rng = random.Random(seed)
        self.tokens = [0] * players
        self.round_wins = [0] * players
        self.round_score = [0] * players
        self.first = self.rng.randrange(players)         # DM-5
        self.decisions = 0

    def choose(self, options, prompt=None):
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def pick(self, allowed, lo, hi, prompt):
        """Cards picked one at a time among `allowed` (identical ones offered once), at least
        lo of them (then "done" is offered), at most hi (None: until none is left)."""
        allowed = list(allowed)
        picked = []
        while allowed and (hi is None or len(picked) < hi):
            options = distinct(allowed)
            if len(picked) >= lo:
                options.append(DONE)
            c = self.choose(options, prompt)
            if c is DONE:
                break
            allowed.remove(c)
            picked.append(c)
        return picked

    # --- cards moving ---------------------------------------------------------
    def from_pile(self, k):
        start = max(0, len(self.pile) - k)
        cards = self.pile[start:][::-1]                  # the top of the pile is its end
        del self.pile[start:]
        return cards

    def to_market(self, cards):
        """Cards onto the market: a forced-sale card is discarded and replaced (DM-4), the
        closing card sets the closer and goes aside, not replaced (DM-9, DM-11)."""
        self.market.extend(cards)
        for c in cards:
            if c == CLOSING:
                self.closer = self.turn_player
                self.market.remove(c)
            elif QUALITY[c] is None:
                self.market.remove(c)
                self.to_market(self.from_pile(1))

    def refill(self):
        if not self.market and self.pile:
            self.to_market(self.from_pile(3))

    def to_hand(self, p, cards):
        for c in cards:
            bisect.insort(self.hands[p], c)

    # --- a round --------------------------------------------------------------
    def setup(self):
        cards = list(range(53))                          # DM-4: all but the closing card
        self.rng.shuffle(cards)
        bottom = cards[:15] + [CLOSING]
        self.rng.shuffle(bottom)
        self.pile = bottom + cards[15:]                  # the 16 under the 38 others
        self.market = []
        self.hands = [[] for _ in range(self.n)]
        self.safes = [[] for _ in range(self.n)]
        self.closer = None
        self.turn_player = self.first
        for _ in range(3):
            for p in range(self.n):
                self.hands[p].append(self.pile.pop())
        for hand in self.hands:
            hand.sort()
        self.to_market(self.from_pile(3))

    def play_round(self):
        self.setup()
        p = self.first
        while True:
            self.turn(p)
            # DM-9: the closer's turn, then one more for each other player
            if self.closer is not None and p == (self.closer - 1) % self.n:
                break
            p = (p + 1) % self.n
        self.score()
        self.first = (self.first + 1) % self.n          # DM-5

    def turn(self, p):
        self.turn_player = p
        hand = self.hands[p]
        # phase 1 (not in the last turns, DM-9)
        if self.closer is None and self.pile:
            if self.choose(("draw", "to_market"), "draw") == "draw":
                c = self.pile.pop()
                if c == CLOSING:
                    self.closer = p
                else:
                    bisect.insort(hand, c)
            else:
                self.to_market(self.from_pile(2))
        # phase 2, or a forced-sale card or power instead (DM-6)
        options = self.actions(p)
        if options:
            getattr(self, self.choose(options, "action"))(p)
            self.refill()
        # phase 3: the hand limit (DM-8)
        excess = len(hand) - HAND_LIMIT
        if excess > 0:
            for c in self.pick(hand, excess, excess, "hand_limit"):
                hand.remove(c)
                if QUALITY[c] is not None:               # forced-sale cards are discarded
                    self.market.append(c)

    def actions(self, p):
        hand = self.hands[p]
        market_qualities = {QUALITY[c] for c in self.market}
        diamonds = [c for c in hand if QUALITY[c] is not None]
        ok = {
            "take_same": any(QUALITY[c] in market_qualities for c in diamonds),
            "trade": bool(self.tradeable(diamonds)),
            "secure": bool(self.new_sets(hand)),
            "put_on_market": bool(diamonds),
            "forced_sale": len(diamonds) < len(hand) and bool(diamonds),   # a forced-sale card
            "sleight_of_hand": SLEIGHT in hand and bool(self.market),
            "armor_piercer": PIERCER in hand,
            "quick_secure": QUICK in hand and bool(self.completable(p)),
        }
        return [a for a in ACTIONS if ok[a]]

    def tradeable(self, diamonds):
        """The diamonds whose quality some cards of the market add up to."""
        sums = 1                                         # bit s set: some cards add up to s
        for c in self.market:
            sums |= sums << QUALITY[c]
        return [c for c in diamonds if sums >> QUALITY[c] & 1]

    def new_sets(self, hand):
        """The qualities of which the hand holds 3 or more."""
        counts = {}
        for c in hand:
            if QUALITY[c] is not None:
                counts[QUALITY[c]] = counts.get(QUALITY[c], 0) + 1
        return [q for q, k in counts.items() if k >= 3]

    def completable(self, p):
        in_safe = {QUALITY[c] for c in self.safes[p]}
        return [c for c in self.hands[p] if QUALITY[c] in in_safe]

    def others(self, p):
        return [q for q in range(self.n) if q != p]

    def combos(self, total):
        """Every distinct multiset of market cards whose qualities add up to total."""
        groups = {}
        for c in self.market:
            if QUALITY[c] <= total:
                groups.setdefault(LABEL[c], []).append(c)
        groups = sorted(groups.values(), key=lambda g: (-QUALITY[g[0]], LABEL[g[0]]))
        left = [0] * (len(groups) + 1)                   # left[i]: the value of groups i..
        for i in range(len(groups) - 1, -1, -1):
            left[i] = left[i + 1] + QUALITY[groups[i][0]] * len(groups[i])
        out = []

        def walk(i, remaining, taken):
            if remaining == 0:
                out.append(taken)
                return
            if left[i] < remaining:                      # (also when no group is left)
                return
            group = groups[i]
            v = QUALITY[group[0]]
            for k in range(min(len(group), remaining // v), -1, -1):   # more of the larger first
                walk(i + 1, remaining - k * v, taken + group[:k])

        walk(0, total, [])
        return out

    # --- the actions ----------------------------------------------------------
    def take_same(self, p):
        market_qualities = {QUALITY[c] for c in self.market}
        shown = self.choose(distinct([c for c in self.hands[p] if QUALITY[c] in market_qualities]), "show")
        taken = [c for c in self.market if QUALITY[c] == QUALITY[shown]]
        for c in taken:
            self.market.remove(c)
        self.to_hand(p, taken)

    def trade(self, p):
        hand = self.hands[p]
        given = self.choose(distinct(self.tradeable([c for c in hand if QUALITY[c] is not None])), "give")
        taken = self.choose(self.combos(QUALITY[given]), "take")
        hand.remove(given)
        self.market.append(given)
        for c in taken:
            self.market.remove(c)
        self.to_hand(p, taken)

    def secure(self, p):
        hand, safe = self.hands[p], self.safes[p]
        while True:
            q = self.choose(self.new_sets(hand), "collection")
            for c in self.pick([c for c in hand if QUALITY[c] == q], 3, None, "secure"):
                hand.remove(c)
                bisect.insort(safe, c)
            if not self.new_sets(hand) or self.choose(("another", "enough"), "another_collection") == "enough":
                break
        for c in self.pick(self.completable(p), 0, None, "complete"):
            hand.remove(c)
            bisect.insort(safe, c)

    def put_on_market(self, p):
        hand = self.hands[p]
        for c in self.pick([c for c in hand if QUALITY[c] is not None], 1, 1, "put_on_market"):
            hand.remove(c)
            self.market.append(c)

    def forced_sale(self, p):                            # DM-6
        hand = self.hands[p]
        card = self.choose(distinct([c for c in hand if QUALITY[c] is None]), "sale_card")
        hand.remove(card)                                # DM-1: a use discards it
        target = self.choose(self.others(p), "target")
        shown = self.choose(distinct([c for c in hand if QUALITY[c] is not None]), "show")
        sold = [c for c in self.hands[target] if QUALITY[c] == QUALITY[shown]]
        if sold:                                         # through the market into the seller's hand
            for c in sold:
                self.hands[target].remove(c)
            self.to_hand(p, sold)
        else:                                            # none: the shown card goes to the market
            hand.remove(shown)
            self.market.append(shown)

    def sleight_of_hand(self, p):                        # DM-1 card A
        self.hands[p].remove(SLEIGHT)
        for c in self.pick(self.market, 1, 1, "sleight_of_hand"):
            self.market.remove(c)
            self.to_hand(p, [c])

    def armor_piercer(self, p):                          # DM-1 card B, DM-7
        self.hands[p].remove(PIERCER)
        target = self.choose(self.others(p), "target")
        quality = self.choose(QUALITIES, "quality")
        pure = self.choose((False, True), "pure")
        safe = self.safes[target]
        matching = [c for c in safe if QUALITY[c] == quality and (PURE[c] or not pure)]
        if matching:                                     # the target chooses which to give
            c = self.choose(distinct(matching), "give_up")
            safe.remove(c)
            self.to_hand(p, [c])

    def quick_secure(self, p):                           # DM-1 card C
        hand = self.hands[p]
        hand.remove(QUICK)
        for c in self.pick(self.completable(p), 1, None, "quick_secure"):
            hand.remove(c)
            bisect.insort(self.safes[p], c)

    # --- scoring --------------------------------------------------------------
    def score(self):                                     # DM-9, DM-11
        n = self.n
        scores = [0] * n
        for p in range(n):
            sizes = [0] * 11
            for c in self.safes[p]:
                sizes[QUALITY[c]] += 1
            scores[p] = sum(POINTS[sizes[q]][q - 1] for q in range(1, 11))
        hand_values = [sum(QUALITY[c] for c in hand if QUALITY[c] is not None) for hand in self.hands]
        top = max(hand_values)
        for p in range(n):
            if top > 0 and hand_values[p] == top:
                scores[p] += 3
        pure_counts = [sum(1 for c in safe if PURE[c]) for safe in self.safes]
        top = max(pure_counts)
        if top > 0:
            best = [p for p in range(n) if pure_counts[p] == top]
            for p in best:
                scores[p] += 5 if len(best) == 1 else 2
        for p in range(n):                               # tied players share the lower award
            rank = sum(1 for s in scores if s >= scores[p])
            self.tokens[p] += RANK_TOKENS[rank - 1]
        if scores.count(max(scores)) == 1:
            self.round_wins[scores.index(max(scores))] += 1
        self.round_score = scores

    def play(self):
        for r in range(1, 4):                            # DM-10
            self.play_round()
            if self.n == 2 and r == 2 and 2 in self.round_wins:
                break
        return self.tokens
