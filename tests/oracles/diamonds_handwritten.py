"""(Copied from the project's shared benchmark material: the reference benchmarks/versus_handwritten.py
runs against; unchanged but for this paragraph.)

Hand-written Python implementation of the trick-taking seed game 'Diamonds'
(rulings DI-1 to DI-7 in ../RULINGS.md), used as the speed anchor for the interpreter:
the same game, random legal play, no DSL. Plain, reasonable Python, not golfed.

    python diamonds_handwritten.py --players 4 --games 2000 --seed 1
prints games/s, decisions/game and microseconds per decision. Run it beside the
interpreter's benchmark in the same minutes: wall time moves with the machine's load.
"""
import argparse
import random
import sys
import time

SUITS = ("D", "H", "S", "C")          # diamonds, hearts, spades, clubs
ROUNDS = {3: 6, 4: 4, 5: 5, 6: 6}     # default; overridden by --rounds


class Game:
    def __init__(self, players, seed, rounds=None):
        self.n = players
        self.rng = random.Random(seed)
        self.rounds = rounds or ROUNDS[players]
        self.showroom = [3] * players
        self.safe = [0] * players
        self.start = 0
        self.decisions = 0

    # --- suit benefits -------------------------------------------------
    def benefit(self, suit, p):
        if suit == "D":                       # supply -> safe
            self.safe[p] += 1
        elif suit == "H":                     # supply -> showroom
            self.showroom[p] += 1
        elif suit == "S":                     # showroom -> safe
            if self.showroom[p]:
                self.showroom[p] -= 1
                self.safe[p] += 1
        else:                                 # clubs: rob the Thief holder, token moves on
            t = self.thief
            if self.showroom[t]:
                self.showroom[t] -= 1
                self.showroom[p] += 1
            self.thief = (t + 1) % self.n

    def choose(self, options):
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def play_round(self):
        n = self.n
        deck = [(s, r) for s in SUITS for r in range(1, 16)]
        self.rng.shuffle(deck)
        hands = [deck[i * 10:(i + 1) * 10] for i in range(n)]
        self.thief = (self.start + 1) % n
        # passing: start player picks 1..3, everyone passes that many to the left
        k = self.choose((1, 2, 3))
        passed = []
        for p in range(n):
            give = []
            for _ in range(k):
                c = self.choose(hands[p])
                hands[p].remove(c)
                give.append(c)
            passed.append(give)
        for p in range(n):
            hands[(p + 1) % n].extend(passed[p])
        won = [[] for _ in range(n)]
        tricks = [0] * n
        leader = self.start
        for _ in range(10):
            led = None
            best = None
            trick = []
            for i in range(n):
                p = (leader + i) % n
                hand = hands[p]
                if led is None:
                    legal = hand
                else:
                    legal = [c for c in hand if c[0] == led] or hand
                c = self.choose(legal)
                hand.remove(c)
                trick.append(c)
                if led is None:
                    led = c[0]
                    best = (c[1], p)
                elif c[0] == led:
                    if c[1] > best[0]:
                        best = (c[1], p)
                else:
                    self.benefit(c[0], p)          # could not follow suit
            winner = best[1]
            tricks[winner] += 1
            won[winner].extend(trick)
            self.benefit(led, winner)
            leader = winner
        # end of round: suit majorities, then the no-trick bonus
        for s in SUITS:
            counts = [sum(1 for c in won[p] if c[0] == s) for p in range(n)]
            top = max(counts)
            if top > 0 and counts.count(top) == 1:
                self.benefit(s, counts.index(top))
        for p in range(n):
            if tricks[p] == 0:
                self.benefit("D", p)
                self.benefit("D", p)
        self.start = (self.start + 1) % n

    def play(self):
        for _ in range(self.rounds):
            self.play_round()
        scores = [self.showroom[p] + 2 * self.safe[p] for p in range(self.n)]
        return scores


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=None)
    a = ap.parse_args()
    t0 = time.perf_counter()
    decisions = 0
    for g in range(a.games):
        game = Game(a.players, a.seed + g, a.rounds)
        game.play()
        decisions += game.decisions
    dt = time.perf_counter() - t0
    print(f"games/s {a.games / dt:.1f}  decisions/game {decisions / a.games:.1f}  "
          f"us/decision {1e6 * dt / decisions:.2f}")


if __name__ == "__main__":
    sys.exit(main())
