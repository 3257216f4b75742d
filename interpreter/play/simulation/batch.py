"""One game of a batch: the batch's plain description, and the record of a game.

Game ``i`` of a batch with seed ``S`` is played with seed ``rng.derive(S, i)`` by agents
seeded the same way as ``rulebook play`` seeds them, so a batch's records do not depend on
the number of workers, their order or the backend, and any game of a batch can be replayed
alone: ``rulebook play PATH --seed <its seed>`` plays exactly that game.

``play_one(rules, batch, index)`` plays one game and returns its record (a plain dict):
index, seed, scores, winners, decisions, rounds, first (the seat of the first decision),
margin, lead_changes (with ``comeback`` when lead changes are counted), and ``error`` instead of the results when the game failed.
Definitions (shared wins, rounds, margin, lead changes) are in docs/simulation.md.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from ...building import load
from ...engine import rng
from ...errors import GameError, RulebookError, UsageError
from ...loading.resources import ruleset_path
from .rules_fired import GameCoverage

LOOP_KINDS = ("repeat", "while", "until", "turns", "for_each")


@dataclass(frozen=True)
class Batch:
    """Everything a worker needs to play any game of a batch: plain, picklable data.

    ``path`` is the ruleset as given (a file or a bundled name): each worker loads it itself;
    ``hash`` is the content hash the driver loaded, checked by each worker (a cluster node
    with another copy of the ruleset fails loudly instead of mixing results)."""
    path: str
    players: int
    seed: int = 0
    variant: str | None = None
    agents: str = "random"
    params: dict = field(default_factory=dict)
    skill: tuple | None = None
    lead_changes: bool = False
    hash: str | None = None
    coverage: bool = False     # play with coverage counters (play/simulation/rules_fired.py)

    def options(self) -> dict:
        out: dict = {"params": dict(self.params)}
        if self.skill is not None:
            out["skill"] = list(self.skill)
        return out

    def config(self) -> dict:
        """What identifies the games of this batch (run.json; a resumed run must match it)."""
        d = asdict(self)
        d["skill"] = list(self.skill) if self.skill is not None else None
        return d


def load_batch_rules(batch: Batch):
    rules = load(ruleset_path(batch.path), variant=batch.variant, coverage=batch.coverage)
    if batch.hash is not None and rules.hash != batch.hash:
        raise RulebookError(f"the ruleset {batch.path} loaded here has hash {rules.hash[:12]}, the batch was "
                            f"started with {batch.hash[:12]}: every worker needs the same ruleset file")
    return rules




def check_players(rules, players: int) -> None:
    """Refuse a player count the game does not take before anything is made for each seat (an
    agent, a skill): new_game's usage error, as ``play`` gives it."""
    if players not in rules.player_counts:
        rules.new_game(players)   # (refused before any game is made)


def check_batch(rules, batch: Batch) -> None:
    """Refuse a batch that cannot start (player count, parameters, agents) before playing it."""
    from ..agents import make_agents, parse_spec
    names = [name for name, _ in parse_spec(batch.agents)]
    if "human" in names:
        raise UsageError("simulate plays without people: the 'human' agent cannot be used in a batch")
    try:   # (the player count checked first: an agent a seat is made only for a count the game takes)
        rules.new_game(batch.players, rng.derive(batch.seed, 0), batch.options())
    except GameError:
        pass     # a game that fails is recorded as a failure, with its seed, and the batch goes on
    make_agents(batch.agents, batch.players, batch.seed)


def outer_repeat(rules) -> int | None:
    """The index of the flow's outermost ``repeat`` (not inside any other loop), if there is
    exactly one; its iterations are the game's rounds. None otherwise."""
    found = []
    todo = [rules.steps[rules.root]]
    while todo:
        step = todo.pop()
        kind = getattr(step, "kind", None)
        if kind == "repeat":
            found.append(step.index)
            continue
        if kind in LOOP_KINDS:
            continue
        todo.extend(step.children())
    return found[0] if len(found) == 1 else None


def _blind(agent) -> bool:
    """Agents that never look at their observation (so a batch need not compute it)."""
    from ..agents import FirstAgent, RandomAgent
    blind = getattr(agent, "blind", None)
    return bool(blind) if blind is not None else type(agent) in (RandomAgent, FirstAgent)


def _team_best(scores, members, sign):
    """Each team's score (its best member's), in team order."""
    return [max(sign * scores[p] for p in team) for team in members]


def _leader(values):
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def play_one(rules, batch: Batch, index: int, round_step: int | None = -1) -> dict:
    """Play game ``index`` of the batch; its record (``error`` set if the game failed)."""
    from ..agents import FirstAgent, LazyLabels, RandomAgent, make_agents, needs_knowledge
    from ..agents.view import SeatView
    seed = rng.derive(batch.seed, index)
    rec: dict = {"index": index, "seed": seed}
    if round_step == -1:
        round_step = outer_repeat(rules)
    decisions = 0
    try:
        cov = GameCoverage(rules) if rules.probes is not None else None   # (its counters as they stand)
        agents = make_agents(batch.agents, batch.players, seed)
        S = rules.new_game(batch.players, seed, batch.options(), record=cov.events if cov is not None else False,
                           knowledge=needs_knowledge(agents))
        if cov is not None:
            cov.started(S)
        blind = [_blind(a) for a in agents]
        sign = -1 if getattr(rules.scoring, "lowest_wins", False) else 1
        members = S.members
        track = batch.lead_changes
        leader, changes = None, 0
        leaders: list = []   # the leading team after each decision (for the comeback at mid-game)
        rounds = 0 if round_step is not None else None
        lazy = [getattr(a, "reads_labels", True) is False for a in agents]
        pick = [getattr(a, "pick", None) for a in agents]   # agents that need only the count of options
        decide = [getattr(a, "decide", None) for a in agents]   # search agents: a SeatView
        checked = [type(a) not in (RandomAgent, FirstAgent) for a in agents]   # (ours pick in range)
        # the rounds' repeat frame: the outermost repeat is entered once, so once on the stack it
        # is the same list until it ends, and its count only grows
        frame = None
        first = S.current_player() if not S.over else None
        while not S.over:
            seat, options = S.dec
            if pick[seat] is not None:
                i = pick[seat](len(options))
            elif decide[seat] is not None:
                i = decide[seat](SeatView(S, seat))
            else:
                legal = LazyLabels(S) if lazy[seat] else S.legal_actions()
                i = agents[seat].act({} if blind[seat] else S.observation(seat), legal)
            if checked[seat] and (not (i.__class__ is int or isinstance(i, int) and not isinstance(i, bool))
                                  or not 0 <= i < len(options)):
                raise GameError(f"the agent of seat {seat} chose {i!r}, not an index 0..{len(options) - 1}")
            S.apply_index(i)
            decisions += 1
            if round_step is not None:
                if frame is None:
                    frame = next((f for f in S.stack if f[0] == round_step), None)
                if frame is not None and frame[1] > rounds:   # (once popped, it no longer changes)
                    rounds = frame[1]
            if track:
                now = _leader(_team_best(S.scores(), members, sign))
                if now is not None:
                    if leader is not None and now != leader:
                        changes += 1
                    leader = now
                leaders.append(now)
        if cov is not None:
            rec["coverage"] = cov.finish(S)
        scores = json.loads(json.dumps(S.scores()))
        teams = sorted(_team_best(scores, members, sign), reverse=True)
        margin = (teams[0] - teams[1]) if len(teams) > 1 else None
        rec.update(scores=scores, winners=list(S.winners()), breakdown=json.loads(json.dumps(S.breakdown())),
                   decisions=decisions, rounds=rounds, first=first,
                   margin=margin,
                   margin_relative=margin / abs(teams[0]) if margin is not None and teams[0] else None,
                   lead_changes=changes if track else None)
        if track and leaders:
            # a comeback: the team that led alone at mid-game (half the decisions) does not win
            mid = leaders[(len(leaders) - 1) // 2]
            rec["comeback"] = None if mid is None else not any(p in rec["winners"] for p in members[mid])
        if rules.scoring.eligible is not None:
            rec["unranked"] = rules.scoring.unranked(S)
    except Exception as e:   # noqa: BLE001 - any engine error is one failed game, not a failed batch
        message = e.message if isinstance(e, RulebookError) else str(e)
        rec.update(error=f"{type(e).__name__}: {message}", decisions=decisions)
    return rec
