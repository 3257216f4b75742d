#!/usr/bin/env python3
"""Game lengths of the interpreter and of a seed game's hand-written program, with their errors.

    python benchmarks/game_lengths.py --game diamonds_club --players 4 --games 10000 [--draws]

Each side plays its own random games as ``versus_handwritten.py`` plays them (game ``g`` from
the seed ``seed + g``; the interpreter draws each option from ``random.Random(seed + g)``, the
program from its own generator; every option alike): the decisions a game on each side, their
mean with its standard error, and the difference in standard errors (Welch), in all and per
prompt (the programs that name their prompts). The lockstep tests check that both sides play a
game alike once they are handed the same chance; where the programs draw their own (who starts,
the deal, the market), equal lengths over many games say the draws agree too (docs/testing.md,
"Chance against the hand-written programs"). A difference under about 3 standard errors is
within the noise; the 10 games of ``versus_handwritten.py --instructions`` can differ by 50
decisions a game on either side. With ``--draws`` (Diamonds Club), the draws themselves are
compared over the same games, interpreter against program: the first start player, each market
column's strip and face, the strips laid out, the spaces of each kind a market.
"""
from __future__ import annotations

import argparse
import collections
import importlib
import math
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "oracles")]

import interpreter  # noqa: E402

GAMES = ("diamonds", "diams", "diamonds_club", "mister_diamond")   # with a hand-written program


def interpreted(game: str, players: int, games: int, seed: int, draws: list | None = None) -> list[collections.Counter]:
    """The prompts asked in each game of the interpreter (the key None: every decision); with
    ``draws`` (Diamonds Club), each round's draws appended to it (``club_round``)."""
    rules = interpreter.load(interpreter.ruleset_path(game))
    steps, out = rules.steps, []
    base = rules.card_labels.index("S5") if draws is not None else 0   # the first market space card
    for g in range(games):
        S, rnd, asked = rules.new_game(players, seed=seed + g), random.Random(seed + g), collections.Counter()
        last, rounds = None, 0
        while not S.over:
            prompt = steps[S.stack[-1][0]].prompt
            if draws is not None and prompt == "buy" and last not in ("buy", "track"):   # a round's first decision
                draws.append(club_round(rounds, S.v["start_player"], [c - base for c in S.z["market"]],
                                        [rules.card_labels[c] for c in S.z["market"]]))
                rounds += 1
            asked[prompt] += 1
            last = prompt
            S.apply_index(rnd.randrange(len(S.dec[1])))
        asked[None] = sum(asked.values())
        out.append(asked)
    return out


def handwritten(game: str, players: int, games: int, seed: int, draws: list | None = None) -> list[collections.Counter]:
    module = importlib.import_module(f"{game}_handwritten")
    Game, out = module.Game, []
    space_id = {id(space): i for i, space in enumerate(getattr(module, "SPACES", ()))}

    class Counted(Game):
        def choose(self, options, *rest):   # (prompt, seat: as the program passes them)
            self.asked[rest[0] if rest and rest[0] else "(any)"] += 1
            return Game.choose(self, options, *rest)

        def lay_out_market(self):           # (Diamonds Club, with draws)
            Game.lay_out_market(self)
            if draws is not None:
                draws.append(club_round(self.asked["(rounds)"], self.start_player,
                                        [space_id[id(space)] for space in self.market],
                                        [space[0] for space in self.market]))
                self.asked["(rounds)"] += 1

    for g in range(games):
        Counted.asked = collections.Counter()   # (before __init__: a program may ask in its setup)
        game_ = Counted(players, seed + g)
        game_.play()
        game_.asked[None] = game_.decisions
        del game_.asked["(rounds)"]
        out.append(game_.asked)
    return out


def club_round(number: int, start: int, spaces: list[int], kinds: list[str]) -> tuple:
    """A Diamonds Club round's draws: (its number in the game, the start player, the market's
    columns as (strip, face), the count of each kind of space laid out). ``spaces`` are the
    market's spaces as indices in the strip faces table (12 a strip: face A's 6, then B's)."""
    return number, start, tuple((i // 12 + 1, i % 12 // 6) for i in spaces[::6]), collections.Counter(kinds)


def chi2_two_samples(a: collections.Counter, b: collections.Counter) -> tuple[float, int, float]:
    """Pearson's chi-square of two samples of categories (homogeneity), its degrees of freedom
    and its p (Wilson and Hilferty's approximation, close enough for a check)."""
    cells = sorted(set(a) | set(b), key=str)
    na, nb = sum(a.values()), sum(b.values())
    x = sum((obs - (a[c] + b[c]) * n / (na + nb)) ** 2 / ((a[c] + b[c]) * n / (na + nb))
            for c in cells for obs, n in ((a[c], na), (b[c], nb)))
    df = len(cells) - 1
    if df < 1:
        return x, df, 1.0
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return x, df, 0.5 * math.erfc(z / math.sqrt(2))


def draw_rows(a: list[tuple], b: list[tuple], players: int) -> list[str]:
    """Diamonds Club's draws compared, interpreter against program: the first start player, each
    market column's strip and face and the sets of strips laid out (every round: a new shuffle
    each), and the count of each kind of space a market (Welch)."""
    rows = [f"draws ({len(a)} and {len(b)} rounds): chi-square, degrees of freedom, p"]
    tests = [("start player (round 1)", lambda r: r[1] if r[0] == 0 else None)]
    tests += [(f"column {c + 1}: strip and face", lambda r, c=c: r[2][c]) for c in range(2 * players)]
    tests += [("strips laid out (the sets)", lambda r: (frozenset(s for s, _ in r[2][:players]),
                                                           frozenset(s for s, _ in r[2][players:])))]
    for name, key in tests:
        x, df, p = chi2_two_samples(collections.Counter(k for r in a if (k := key(r)) is not None),
                                    collections.Counter(k for r in b if (k := key(r)) is not None))
        rows.append(f"  {name:28s} {x:8.1f} {df:4d} {p:6.3f}")
    kinds = sorted({k for r in a + b for k in r[3]})
    welch = []
    for kind in kinds:
        (ma, sa), (mb, sb) = mean_se([r[3][kind] for r in a]), mean_se([r[3][kind] for r in b])
        z = (ma - mb) / math.hypot(sa, sb)
        welch.append((math.erfc(abs(z) / math.sqrt(2)), kind, ma, mb))
    p, kind, ma, mb = min(welch)
    rows.append(f"  spaces of each kind a market: {len(kinds)} kinds, the least alike {kind} "
                f"({ma:.3f} against {mb:.3f}, p {p:.3f}; times {len(kinds)}: {min(1.0, p * len(kinds)):.2f})")
    return rows


def mean_se(values: list[int]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def compare(a: list[collections.Counter], b: list[collections.Counter]) -> list[tuple]:
    """(prompt, mean a, its error, mean b, its error, difference in errors, two-sided p) rows."""
    rows = []
    prompts = [None] + sorted({p for c in a for p in c if p is not None} & {p for c in b for p in c})
    for prompt in prompts:
        (ma, sa), (mb, sb) = mean_se([c[prompt] for c in a]), mean_se([c[prompt] for c in b])
        z = (ma - mb) / math.hypot(sa, sb) if sa or sb else 0.0
        rows.append((prompt or "(a game)", ma, sa, mb, sb, z, math.erfc(abs(z) / math.sqrt(2))))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, default="diamonds_club")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000, help="games a side (1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--draws", action="store_true",
                    help="Diamonds Club: also compare the start player and the markets laid out")
    args = ap.parse_args(argv)
    if args.draws and args.game != "diamonds_club":
        ap.error("--draws compares Diamonds Club's draws")
    draws_a, draws_b = ([], []) if args.draws else (None, None)
    a = interpreted(args.game, args.players, args.games, args.seed, draws_a)
    b = handwritten(args.game, args.players, args.games, args.seed, draws_b)
    print(f"{args.game}, {args.players} players, decisions a game ({args.games} games each, own chance): "
          "interpreter, hand-written, difference in standard errors, two-sided p")
    rows = compare(a, b)
    width = max(len(row[0]) for row in rows)
    for prompt, ma, sa, mb, sb, z, p in rows:
        print(f"{prompt:{width}s} {ma:9.2f} ± {sa:5.2f} {mb:9.2f} ± {sb:5.2f} {z:+6.2f} {p:6.3f}")
    if draws_a is not None and draws_b is not None:
        print("\n".join(draw_rows(draws_a, draws_b, args.players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
