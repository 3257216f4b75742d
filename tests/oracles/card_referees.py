"""Independent referees for the classics without an OpenSpiel twin, written from the published
rules in plain Python, sharing nothing with the interpreter: Love Letter (Seiji Kanai, AEG
2012) and 6 nimmt! (Wolfgang Kramer, Amigo 1994).

A referee keeps its own game. Chance is handed to it as it happens at the table (the cards of
a shuffled deck, in the order they will be drawn); everything else it decides from the rules:
whose turn it is, what that player may do (``legal()``: the seat, the prompt and the option
labels, as the ruleset labels them) and what each move does. tests/test_classics_cards.py
plays seeded games in Rulebook, hands the referee each shuffle as Rulebook dealt it, and
requires, at every decision, the same seat, prompt and options and the same hands, and at the
end the same scores.
"""
from __future__ import annotations

# ---------------------------------------------------------------------- Love Letter
LOVE_LETTER_CARDS = {"Guard": 1, "Priest": 2, "Baron": 3, "Handmaid": 4, "Prince": 5, "King": 6,
                     "Countess": 7, "Princess": 8}
LOVE_LETTER_DECK = (["Guard"] * 5 + ["Priest"] * 2 + ["Baron"] * 2 + ["Handmaid"] * 2 + ["Prince"] * 2
                    + ["King", "Countess", "Princess"])
TOKENS_TO_WIN = {2: 7, 3: 5, 4: 4}


class LoveLetter:
    """Love Letter for 2 to 4 players. Each round: ``deal(order, first)`` with the shuffled
    deck (the last card is the top), then ``legal()`` / ``play(label)`` until ``over`` or
    ``round_over`` (then ``deal`` again for the next round)."""

    def __init__(self, n: int):
        self.n = n
        self.tokens = [0] * n
        self.goal = TOKENS_TO_WIN[n]
        self.over = False
        self.round_over = True
        self.next_first: int | None = None   # the last round's winner begins the next

    # --- a round
    def deal(self, order: list[str], first: int) -> None:
        """A new round from a shuffled deck (``order[-1]`` on top); ``first`` begins (a random
        seat in the first round, checked against the last winner after it)."""
        assert sorted(order) == sorted(LOVE_LETTER_DECK), "the deck is not Love Letter's 16 cards"
        assert self.round_over and not self.over
        if self.next_first is not None:
            assert first == self.next_first, f"round begun by seat {first}, the last winner is {self.next_first}"
        self.deck = list(order)
        self.aside = self.deck.pop()                                   # one card face down
        self.removed = [self.deck.pop() for _ in range(3)] if self.n == 2 else []
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        for i in range(self.n):                                        # one card each, from the first player
            self.hands[(first + i) % self.n].append(self.deck.pop())
        self.played: list[list[str]] = [[] for _ in range(self.n)]
        self.out = [False] * self.n
        self.safe = [False] * self.n
        self.round_over = False
        self._begin(first)

    def scores(self) -> list[int]:
        return list(self.tokens)

    def table(self) -> tuple:
        """What lies face up: each seat's cards played (sorted), who is out (1) or in (0)."""
        return [sorted(p) for p in self.played], [int(o) for o in self.out]

    def _begin(self, seat: int) -> None:
        self.seat = seat
        self.safe[seat] = False                                        # the Handmaid lasts until now
        self.hands[seat].append(self.deck.pop())
        self.step, self.card, self.target = "play", None, None

    def _others(self) -> list[int]:
        return [p for p in range(self.n) if p != self.seat and not self.out[p] and not self.safe[p]]

    def legal(self) -> tuple[int, str, list[str]]:
        hand = self.hands[self.seat]
        if self.step == "play":
            if "Countess" in hand and ("King" in hand or "Prince" in hand):
                return self.seat, "play", ["Countess"]
            return self.seat, "play", sorted(set(hand))
        if self.step == "target":
            targets = self._others() + ([self.seat] if self.card == "Prince" else [])
            return self.seat, "target", [f"p{p}" for p in sorted(targets)]
        return self.seat, "guess", [c for c in LOVE_LETTER_CARDS if c != "Guard"]

    def play(self, label: str) -> None:
        seat, _, options = self.legal()
        assert label in options, f"{label!r} is not allowed: {options}"
        if self.step == "play":
            self.hands[seat].remove(label)
            self.played[seat].append(label)
            self.card = label
            if label in ("Guard", "Priest", "Baron", "King", "Prince"):
                if self._others() or label == "Prince":
                    self.step = "target"
                    return
                self.target = None                 # no one to choose: played for nothing
            self._resolve()
        elif self.step == "target":
            self.target = int(label[1:])
            if self.card == "Guard":
                self.step = "guess"
                return
            self._resolve()
        else:
            if self.hands[self.target] == [label]:
                self._knock_out(self.target)
            self._end_turn()

    def _knock_out(self, p: int) -> None:
        self.played[p] += self.hands[p]
        self.hands[p] = []
        self.out[p] = True

    def _resolve(self) -> None:
        me, t, card = self.seat, self.target, self.card
        if card == "Baron" and t is not None:
            mine, theirs = LOVE_LETTER_CARDS[self.hands[me][0]], LOVE_LETTER_CARDS[self.hands[t][0]]
            if mine != theirs:
                self._knock_out(t if mine > theirs else me)
        elif card == "Handmaid":
            self.safe[me] = True
        elif card == "Prince":
            if self.hands[t] == ["Princess"]:
                self._knock_out(t)
            else:
                self.played[t] += self.hands[t]
                self.hands[t] = [self.deck.pop() if self.deck else self.aside]
        elif card == "King" and t is not None:
            self.hands[me], self.hands[t] = self.hands[t], self.hands[me]
        elif card == "Princess":
            self._knock_out(me)
        self._end_turn()          # (Guard's miss, Priest's look and Countess change nothing here)

    def _end_turn(self) -> None:
        alive = [p for p in range(self.n) if not self.out[p]]
        if len(alive) == 1 or not self.deck:
            best = max(LOVE_LETTER_CARDS[self.hands[p][0]] for p in alive)
            finalists = [p for p in alive if LOVE_LETTER_CARDS[self.hands[p][0]] == best]
            totals = {p: sum(LOVE_LETTER_CARDS[c] for c in self.played[p]) for p in finalists}
            winners = [p for p in finalists if totals[p] == max(totals.values())]
            for p in winners:
                self.tokens[p] += 1
            self.next_first = winners[0]
            self.round_over = True
            self.over = max(self.tokens) >= self.goal
            return
        nxt = (self.seat + 1) % self.n
        while self.out[nxt]:
            nxt = (nxt + 1) % self.n
        self._begin(nxt)


# ---------------------------------------------------------------------- 6 nimmt!
def bullheads(card: int) -> int:
    """A card's bullheads, as printed: 7 on the 55, 5 on a double (11, 22...), 3 on a multiple
    of 10, 2 on another multiple of 5, else 1."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


ROWS = "ABCD"


class SixNimmt:
    """6 nimmt! for 2 to 10 players. Each round: ``deal(order)`` with the shuffled deck (the
    last card on top: ten cards to each player in turn from seat 0, then one to each row A to
    D), then ``legal()`` / ``play(label)`` until ``over`` or ``round_over``."""

    def __init__(self, n: int, hand_size: int = 10, row_length: int = 5, target: int = 66):
        self.n, self.hand_size, self.row_length, self.target = n, hand_size, row_length, target
        self.score = [0] * n
        self.over = False
        self.round_over = True

    def scores(self) -> list[int]:
        return list(self.score)

    def table(self) -> tuple:
        """The rows (oldest card first), each seat's cards taken this round (sorted as text)."""
        return [[str(c) for c in row] for row in self.rows], [sorted(map(str, t)) for t in self.taken]

    def deal(self, order: list[str], first=None) -> None:
        assert sorted(order, key=int) == [str(c) for c in range(1, 105)], "the deck is not 1 to 104"
        deck = [int(c) for c in order]
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        for _ in range(self.hand_size):
            for p in range(self.n):
                self.hands[p].append(deck.pop())
        self.rows = [[deck.pop()] for _ in ROWS]
        self.taken: list[list[int]] = [[] for _ in range(self.n)]
        self.turns_left = self.hand_size
        self.round_over = False
        self._new_turn()

    def _new_turn(self) -> None:
        self.chosen: list[int | None] = [None] * self.n
        self.asking = 0              # the seat to choose, in seat order
        self.choosing_row = None     # the seat that must take a row

    def legal(self) -> tuple[int, str, list[str]]:
        if self.choosing_row is not None:
            return self.choosing_row, "take", [f"row {r}" for r in ROWS]
        return self.asking, "play", [str(c) for c in sorted(self.hands[self.asking])]

    def play(self, label: str) -> None:
        seat, _, options = self.legal()
        assert label in options, f"{label!r} is not allowed: {options}"
        if self.choosing_row is not None:
            row = ROWS.index(label[-1])
            card = self.chosen[seat]
            self.taken[seat] += self.rows[row]
            self.rows[row] = [card]
            self.hands[seat].remove(card)
            self.chosen[seat] = None
            self.choosing_row = None
            self._place()
            return
        self.chosen[seat] = int(label)
        self.asking += 1
        if self.asking == self.n:    # every card revealed: placed from the lowest
            self._place()

    def _place(self) -> None:
        for card in sorted(c for c in self.chosen if c is not None):
            seat = self.chosen.index(card)
            below = [i for i, row in enumerate(self.rows) if row[-1] < card]
            if not below:            # lower than every row: its player takes a row of their choice
                self.choosing_row = seat
                return
            row = max(below, key=lambda i: self.rows[i][-1])
            if len(self.rows[row]) >= self.row_length:
                self.taken[seat] += self.rows[row]
                self.rows[row] = []
            self.rows[row].append(card)
            self.hands[seat].remove(card)
            self.chosen[seat] = None
        self.turns_left -= 1
        if self.turns_left:
            self._new_turn()
            return
        for p in range(self.n):
            self.score[p] += sum(bullheads(c) for c in self.taken[p])
        self.round_over = True
        self.over = max(self.score) >= self.target
