#!/usr/bin/env python3
"""Agent strength: the win share of one agent against others, over seeded games with the
tested agent in every seat in turn (so no seat's advantage counts for or against it).

    python benchmarks/agents.py --ruleset diamonds --players 4 --games 100 \
        --agent "ismcts:iterations=200,depth=20" --against random

Prints the tested agent's win share with its 95% Wilson interval, the even share, the time
per decision of each agent kind, and the command that reproduces it. Games are played by
`rulebook simulate`'s batch runner on all cores (a batch per seat of the tested agent).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import interpreter  # noqa: E402
from interpreter.play.simulation import stats  # noqa: E402
from interpreter.play.simulation.batch import Batch  # noqa: E402
from interpreter.play.simulation.runs import simulate  # noqa: E402
from interpreter.play.simulation.workers import default_workers, settled  # noqa: E402


def measure(ruleset: str, players: int, games: int, agent: str, against: str, seed: int = 1,
            workers: int | None = None, variant: str | None = None) -> dict:
    rules = interpreter.load(ruleset, variant=variant)
    per_seat = [games // players + (1 if s < games % players else 0) for s in range(players)]
    wins = played = 0.0
    seat_rates = []
    started = time.perf_counter()
    decisions = 0
    for seat, n in enumerate(per_seat):
        if not n:
            continue
        specs = [against] * players
        specs[seat] = agent
        batch = Batch(path=ruleset, players=players, seed=seed + 1000 * seat, variant=variant,
                      agents=",".join(specs), hash=rules.hash)
        with settled():
            out = simulate(batch, n, workers=workers or default_workers(), rules=rules)
        ok = [r for r in out["records"] if "error" not in r]
        share = sum(1.0 / len(r["winners"]) for r in ok if seat in r["winners"])
        wins += share
        played += len(ok)
        decisions += sum(r["decisions"] for r in ok)
        seat_rates.append(share / len(ok) if ok else None)
    seconds = time.perf_counter() - started
    lo, hi = stats.wilson(wins, int(played)) if played else (None, None)
    return {"ruleset": ruleset, "variant": variant, "players": players, "games": int(played), "agent": agent,
            "against": against, "win_rate": wins / played if played else None, "ci": [lo, hi],
            "even": 1.0 / players, "by_seat": seat_rates, "seconds": round(seconds, 1),
            "s_per_decision": round(seconds * (workers or default_workers()) / max(1, decisions), 4)}


def decision_time(ruleset: str, players: int, agent: str, against: str, seed: int = 1, games: int = 2,
                  variant: str | None = None) -> dict:
    """Seconds per decision of the tested agent (in this process, the others as opponents)."""
    from interpreter.play.agents import choose, make_agents, needs_knowledge
    rules = interpreter.load(ruleset, variant=variant)
    times = []
    for g in range(games):
        specs = [against] * players
        specs[0] = agent
        agents = make_agents(",".join(specs), players, seed + g)
        S = rules.new_game(players, seed + g, knowledge=needs_knowledge(agents))
        while not S.is_terminal():
            seat = S.current_player()
            t = time.perf_counter()
            i = choose(agents[seat], S, seat)
            if seat == 0 and len(S.dec[1]) > 1:
                times.append(time.perf_counter() - t)
            S.apply_index(i)
    times.sort()
    return {"decisions": len(times), "mean": sum(times) / len(times), "median": times[len(times) // 2],
            "max": times[-1]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", default="diamonds")
    p.add_argument("--variant")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--agent", default="ismcts:iterations=200,depth=20")
    p.add_argument("--against", default="random")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int)
    p.add_argument("--json", action="store_true")
    p.add_argument("--time-only", action="store_true", help="only time the tested agent's decisions (2 games)")
    a = p.parse_args(argv)
    if a.time_only:
        t = decision_time(a.ruleset, a.players, a.agent, a.against, a.seed, variant=a.variant)
        print(f"{a.ruleset}: {a.agent}: {t['mean']:.3f} s a decision (median {t['median']:.3f}, max {t['max']:.3f}, "
              f"{t['decisions']} decisions with a choice)")
        return 0
    r = measure(a.ruleset, a.players, a.games, a.agent, a.against, a.seed, a.workers, a.variant)
    if a.json:
        print(json.dumps(r))
        return 0
    print(f"{r['ruleset']}, {r['players']} players, {r['games']} games: {r['agent']} against {r['against']}: "
          f"win rate {r['win_rate']:.3f} (95% CI {r['ci'][0]:.3f}-{r['ci'][1]:.3f}; even share {r['even']:.3f}); "
          f"by seat {[round(x, 3) for x in r['by_seat'] if x is not None]}; {r['seconds']} s, "
          f"{r['s_per_decision']} s a decision (all seats, one core)")
    print(f"    python benchmarks/agents.py --ruleset {a.ruleset} --players {a.players} --games {a.games} "
          f"--agent \"{a.agent}\" --against \"{a.against}\" --seed {a.seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
