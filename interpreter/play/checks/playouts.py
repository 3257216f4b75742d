"""Random playouts: play many games with random agents and report what a static check cannot
see, each problem with the seed that reproduces it.

    problems = playouts(rules, games=50)              # every player count min..max
    problems = playouts(rules, games=50, players=[4], seed=100)

Game ``k`` of a batch uses seed ``seed + k`` and the ``random`` agents seeded with it, exactly
as ``rulebook play PATH --players P --seed S`` (default agents) does, so the command printed
with a problem replays that game. The problems:

- ``dead-end``: the game is not over and no decision is pending (the engine stopped), or a
  decision offers no option;
- ``budget``: the game ran past its step budget (``limits.steps``): a flow that never ends;
- ``error``: a runtime error (a GameError, located at the step or effect that raised it);
- ``invariant``: a declared ``invariants:`` condition is false after a decision (or at the
  start). Only the first problem of a game is reported: the game stops there.

A player count the ruleset refuses (``new_game`` raises a UsageError, e.g. teams declared for
4 and 6 players only) is not played; ``Report.refused`` says why. Each finished game leaves a
record as a batch's does (scores, winners, who was not ranked, and its coverage when the
ruleset was built with coverage counters), in ``Report.records`` by player count, for the
coverage and anomaly reports (play/simulation/rules_fired.py, play/simulation/anomalies.py).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from ...engine.invariants import first_broken
from ...errors import BudgetExceeded, GameError, Location, UsageError
from ...expr.messages import describe
from ..agents import RandomAgent, agent_seed
from ..simulation.rules_fired import GameCoverage

KINDS = ("dead-end", "budget", "error", "invariant")


def play_command(path: str, players: int, seed: int, variant: str | None = None, sets: list[str] | tuple = (),
                 more: list[str] | tuple = ()) -> str:
    """``rulebook play`` of one game (``sets``: its ``--set NAME=VALUE`` items; ``more``: any other
    arguments, such as ``--agents``), each argument shell-quoted so that it pastes back as it is."""
    argv = ["rulebook", "play", path, "--players", str(players), "--seed", str(seed)]
    argv += ["--variant", variant] if variant else []
    for item in sets:
        argv += ["--set", item]
    return shlex.join([*argv, *more])


@dataclass
class Problem:
    kind: str             # one of KINDS
    players: int
    seed: int
    decisions: int        # decisions made before the problem showed
    message: str
    loc: Location | None = None
    calls: tuple = ()     # an error inside a declared effect: where it was called, the nearest first

    def command(self, path: str, variant: str | None = None, sets: list[str] | tuple = ()) -> str:
        """The command that replays the game (``sets``: the ``--set NAME=VALUE`` items the games
        were played with)."""
        return play_command(path, self.players, self.seed, variant, sets)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "players": self.players, "seed": self.seed, "decisions": self.decisions,
                "message": self.message, "loc": str(self.loc) if self.loc else None,
                **({"calls": [str(at) for at in self.calls]} if self.calls else {})}


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    problems: list = field(default_factory=list)
    refused: dict = field(default_factory=dict)   # player count -> why the ruleset refuses it (not played)
    records: dict = field(default_factory=dict)   # player count -> the records of its finished games

    @property
    def ok(self) -> bool:
        return not self.problems


def playouts(rules, games: int, players=None, seed: int = 0, options: dict | None = None) -> Report:
    """Play ``games`` random games per player count (``players``: a list, default all)."""
    counts = list(players) if players else rules.player_counts
    report = Report()
    for n in counts:
        try:
            rules.new_game(n, seed, options)
        except UsageError as e:   # e.g. teams declared for 4 and 6 players only: 5 is refused by design
            report.refused[n] = e.message
            continue
        except GameError:
            pass                  # reported by the first game below, with its seed
        for k in range(games):
            rec: dict = {"index": k, "seed": seed + k}
            problem, decisions = play_one(rules, n, seed + k, options, rec)
            report.games += 1
            report.decisions += decisions
            if problem is not None:
                report.problems.append(problem)
                rec["error"] = problem.message
            report.records.setdefault(n, []).append(rec)
    return report


def play_one(rules, players: int, seed: int, options: dict | None = None, record: dict | None = None):
    """Play one random game; returns (the first Problem or None, decisions made). ``record``
    receives the game's results when it ends."""
    agents = [RandomAgent(agent_seed(seed, seat), seat) for seat in range(players)]   # (as `rulebook play` seeds them)
    decisions = 0

    def problem(kind, message, loc=None, calls=()):
        return Problem(kind, players, seed, decisions, message, loc, calls), decisions

    try:
        cov = GameCoverage(rules) if rules.probes is not None else None
        S = rules.new_game(players, seed, options, record=cov.events if cov is not None else False)
        if cov is not None:
            cov.started(S)
        first = S.current_player() if not S.over else None
        while True:
            broken = _broken_invariant(rules, S)
            if broken is not None:
                return problem("invariant", *broken)
            if S.over:
                if record is not None:
                    record.update(scores=S.scores(), winners=S.winners(), decisions=decisions, first=first,
                                  unranked=rules.scoring.unranked(S))
                    if cov is not None:
                        record["coverage"] = cov.finish(S)
                return None, decisions
            if S.dec is None:
                return problem("dead-end", "the game is not over but no decision is pending")
            seat, options_ = S.dec
            if not options_:
                return problem("dead-end", f"seat {seat} must decide '{S.prompt()}' but has no option")
            S.apply_index(agents[seat].pick(len(options_)))
            decisions += 1
    except BudgetExceeded as e:
        return problem("budget", e.message, e.loc)
    except GameError as e:
        return problem("error", e.message, e.loc, e.calls)


def _broken_invariant(rules, S):
    """(message, location) of the first invariant that does not hold, or None; a zone that says
    what it ``holds`` holds nothing else."""
    for zone in rules.zone_holds_declared:
        kinds = rules.zone_holds[zone]
        held = S.z[zone]
        parts = [held] if rules.zone_owner[zone] == "none" else (held.values() if isinstance(held, dict) else held)
        for part in parts:
            for c in part:
                if rules.cards.kinds[c] not in kinds:
                    return (f"zone '{zone}' holds a {rules.cards.kinds[c]} card ({rules.card_labels[c]}), "
                            f"but it holds only {', '.join(sorted(kinds))}", None)
    broken = first_broken(S)
    if broken is None:
        return None
    (_, text, loc), error = broken
    if error is not None:
        return f"invariant '{text}' could not be evaluated: {describe(error)}", loc
    from ...expr import Compiler   # with the values of its parts, as a scenario's false expectation says them
    from .scenarios import why_false
    why = why_false(Compiler(rules.names), S, text)
    return f"invariant '{text}' is false" + ("" if why == "it is false" else f": {why}"), loc
