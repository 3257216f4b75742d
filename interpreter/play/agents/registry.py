"""Agents: whoever decides for a seat. An agent sees only its observation and the legal actions.

    class ActingAgent(Protocol):
        name: str
        def act(self, observation: dict, legal: list[str]) -> int: ...   # an index into legal

    class DecidingAgent(Protocol):   # a search agent: greedy, rollouts, ismcts, mcts
        name: str
        def decide(self, view: SeatView) -> int: ...   # an index into the pending decision's options

Built in: ``random`` (uniform, with its own RNG seeded from its seat's seed, so a game is the
same on every run), ``first`` (always the first legal action) and ``human``
(asks on stdin). An agent whose ``reads_labels`` is False (random, first) only counts the
options: a batch gives it ``legal`` as a lazy sequence (``LazyLabels``) and labels nothing
unless it reads a label after all. An agent that chooses from the number of options alone (no
observation, no labels) may also define ``pick(n) -> index``, which a batch calls instead of
``act`` (one call a decision, nothing built for it). ``make_agents("random,first,human", players, seed)`` builds one per seat;
one name alone stands for every seat. New kinds register in ``AGENTS``.

An agent never gets the game's seed (``new_game`` of it would deal every hidden card): each is
built with its seat's seed, ``agent_seed(seed, seat)``, a one-way function of the two (SHA-256),
so a game with the same seed is the same game but no agent can work the game's seed out.
"""
from __future__ import annotations

import hashlib
import random as _random
import sys
from collections.abc import Sequence
from typing import Callable, Protocol, TextIO, runtime_checkable

from ...errors import UsageError, did_you_mean
from .view import SeatView


@runtime_checkable
class ActingAgent(Protocol):
    name: str

    def act(self, observation: dict, legal: list[str]) -> int:
        """The index in ``legal`` of the chosen action."""


@runtime_checkable
class DecidingAgent(Protocol):
    name: str

    def decide(self, view: SeatView) -> int:
        """The index of the chosen option of the decision pending in ``view``'s game."""


Agent = ActingAgent | DecidingAgent   # an agent is asked with decide() when it has one, else act()


class LazyLabels(Sequence):
    """The labels of the pending decision's options, made only if one is read (len() is free).
    Valid while the decision is pending, which is while an agent acts on it."""
    __slots__ = ("_state", "_n", "_labels")

    def __init__(self, state):
        self._state, self._n, self._labels = state, len(state.dec[1]), None

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        if self._labels is None:
            self._labels = self._state.legal_actions()
        return self._labels[i]


class RandomAgent:
    """Picks uniformly among the legal actions, from an RNG of its own (its seat's seed)."""
    name = "random"
    reads_labels = False

    def __init__(self, seed: int = 0, seat: int = 0):
        # a string seed is hashed with SHA-512 by random.Random: stable across runs and machines
        self.rng = _random.Random(f"rulebook-agent:{seed}:{seat}")
        self.pick = self.rng.randrange      # pick(n): the same draw as act() with n options

    def act(self, observation: dict, legal: list[str]) -> int:
        return self.rng.randrange(len(legal))


class FirstAgent:
    """Always takes the first legal action (a deterministic baseline)."""
    name = "first"
    reads_labels = False

    def __init__(self, seed: int = 0, seat: int = 0):
        pass

    def act(self, observation: dict, legal: list[str]) -> int:
        return 0

    def pick(self, n: int) -> int:
        return 0


class HumanAgent:
    """A person at the terminal: shows the table as the seat sees it and the numbered options;
    reads a number or a label. Hears every other move, in words."""
    name = "human"
    # what each option would do (play/display/foresee.py's foreseen), given by the command line
    # (tools/cli.py): it plays the options as a log does, and play/logs imports the agents
    foreseen: Callable | None = None

    def __init__(self, seed: int = 0, seat: int | None = 0, stdin: TextIO | None = None,
                 stdout: TextIO | None = None):   # (seat None: the person at the terminal, no seat's)
        self.seat = seat
        self.stdin, self.stdout = stdin, stdout

    def seated(self, rules, members) -> None:
        """Told the ruleset and the teams when the game starts (a team's things are named so)."""
        from ..display.narrate import owners
        self.owners = owners(rules, members)
        self.known: dict = {}   # what the story told each counter and variable is (a set to it is not told again)

    def hear(self, line: dict) -> None:
        """What happened, told from this seat (the line is redacted for it): a sentence a line."""
        from ..display.terminal import heard
        for said in heard(line, self.seat, getattr(self, "owners", None), getattr(self, "known", None)):
            print(f"  {said}", file=self.stdout or sys.stdout)

    def decide(self, view) -> int:
        """The table as this seat sees it (play/display/terminal.py), the options with their notes, and
        the answer read: a number or a label."""
        from ..display.terminal import show
        table = view.table()
        show(table, self.stdout or sys.stdout)
        foresee = None
        if self.foreseen is not None:   # ? says what each option would do (three deals of what the seat cannot see)
            rng, told = _random.Random(view.seat), getattr(self, "owners", None)
            foresee = lambda: self.foreseen([view.sample(rng) for _ in range(3)], view.seat, told)  # noqa: E731
        return self._read(view.legal, view.seat, (table.get("prompt") or {}).get("options"), foresee)

    def act(self, observation: dict, legal: list[str]) -> int:
        """For callers with only an observation: a summary of it and the numbered options."""
        out = self.stdout or sys.stdout
        print(summarise(observation), file=out)
        for i, label in enumerate(legal, 1):
            print(f"  {i:>3}. {label}", file=out)
        return self._read(legal, observation.get("player"))

    def _read(self, legal: list[str], seat, options: list | None = None, foresee=None) -> int:
        from ..display.terminal import read_answer
        return read_answer(legal, seat, self.stdin or sys.stdin, self.stdout or sys.stdout, options, foresee)


class TableReporter:
    """A seat's agent under ``--resolve ask`` with nobody human at the table's seats: a question
    about what happened at the real table (a step with ``reports``, such as a dexterity attempt's
    outcome) is asked of the person at the terminal; every other decision is the agent's."""
    # the person's, given by the command line when it narrates the game (tools/cli.py), read by
    # play_game (play/logs/gamelog.py) only if set: no class default
    hear: Callable[[dict], None]
    seated: Callable[..., None]

    def __init__(self, agent, person: "HumanAgent"):
        self.agent, self.person = agent, person
        self.name = getattr(agent, "name", type(agent).__name__)
        self.needs_knowledge = getattr(agent, "needs_knowledge", False)

    def decide(self, view) -> int:
        if view.reports:
            out = self.person.stdout or sys.stdout
            print(f"--- seat {view.seat}: {view.prompt}?", file=out)
            for i, label in enumerate(view.legal, 1):
                print(f"  {i:>3}. {label}", file=out)
            return self.person._read(view.legal, view.seat)
        decide = getattr(self.agent, "decide", None)
        return decide(view) if decide is not None else self.agent.act(view.observation, view.legal)


def summarise(obs: dict) -> str:
    """A few lines describing an observation for a person: phase, zones, counters, variables."""
    me = obs.get("player")
    lines = [f"--- seat {me} to decide: {obs.get('prompt', '?')}"
             + (f" (phase {obs['phase']})" if obs.get("phase") else "")]
    for name, value in (obs.get("zones") or {}).items():
        lines.append(f"  {name}: {_zone(value, me)}")
    for name, value in (obs.get("counters") or {}).items():
        if isinstance(value, list):
            shown = ", ".join(f"{_seat(i, me)} {'?' if v is None else v}" for i, v in enumerate(value))
        else:
            shown = "?" if value is None else str(value)
        lines.append(f"  {name}: {shown}")
    variables = {k: v for k, v in (obs.get("vars") or {}).items() if v is not None}
    if variables:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in variables.items()))
    return "\n".join(lines)


def _seat(i, me) -> str:
    return "you" if i == me else f"seat {i}"


def _zone(value, me) -> str:
    def one(z):
        return f"({z} hidden)" if isinstance(z, int) else (" ".join(z) or "-")
    if isinstance(value, list) and value and isinstance(value[0], (list, int)) and not isinstance(value[0], str):
        return " | ".join(f"{_seat(i, me)}: {one(z)}" for i, z in enumerate(value))
    return one(value)


AgentFactory = Callable[..., Agent]   # (seed, seat, **params) -> agent
AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "first": FirstAgent,
    "human": HumanAgent,
}
AGENT_PARAMS: dict[str, dict] = {}    # agent -> {parameter: type} it accepts in a spec


def register_agent(name: str, factory: AgentFactory, params: dict | None = None) -> None:
    """Make an agent kind available to ``--agents`` (and from Python): ``factory(seed, seat,
    **params)`` builds one for a seat; ``params`` maps the parameters a spec may give
    (``name:key=value,...``) to their types (int, float, str)."""
    AGENTS[name] = factory
    AGENT_PARAMS[name] = dict(params or {})


def parse_spec(spec: str) -> list[tuple[str, dict]]:
    """``"ismcts:iterations=200,c=0.7,random"`` -> [("ismcts", {"iterations": 200, "c": 0.7}),
    ("random", {})]: seats are separated by commas, and a ``key=value`` item belongs to the
    agent before it."""
    out: list = []
    for raw in str(spec).split(","):
        item = raw.strip()
        if not item:
            raise UsageError(f"--agents: an empty item in {spec!r}")
        if "=" in item and ":" not in item:
            if not out:
                raise UsageError(f"--agents: '{item}' is a parameter, but no agent comes before it")
            _param(out[-1], item, spec)
            continue
        name, _, first = item.partition(":")
        name = name.strip()
        if name not in AGENTS:
            close = did_you_mean(name, AGENTS)
            raise UsageError(f"unknown agent '{name}' (agents: {', '.join(AGENTS)})",
                             hint=f"did you mean '{close}'?" if close else None)
        out.append((name, {}))
        if first.strip():
            _param(out[-1], first.strip(), spec)
    return out


def _param(agent: tuple, item: str, spec: str) -> None:
    name, params = agent
    key, eq, value = item.partition("=")
    key, value = key.strip(), value.strip()
    known = AGENT_PARAMS.get(name, {})
    if not eq or key not in known:
        close = did_you_mean(key, known)
        takes = f"it takes {', '.join(known)}" if known else "it takes no parameters"
        raise UsageError(f"--agents: agent '{name}' has no parameter '{key}' ({takes})",
                         hint=f"did you mean '{close}'?" if close else None)
    try:
        params[key] = known[key](value)
    except ValueError:
        raise UsageError(f"--agents: {name}'s {key} expects {known[key].__name__}, got {value!r}") from None


def make_agents(spec: str, players: int, seed: int) -> list[Agent]:
    """One agent per seat from "random,first,..." (a single agent stands for every seat);
    an agent may take parameters: "ismcts:iterations=400,c=0.5,random,random,random"."""
    agents = parse_spec(spec)
    if len(agents) == 1:
        agents = agents * players
    if len(agents) != players:
        raise UsageError(f"--agents names {len(agents)} agents for {players} players "
                         "(give one agent for all seats, or one per seat)")
    out = []
    for seat, (name, params) in enumerate(agents):
        try:
            out.append(AGENTS[name](agent_seed(seed, seat), seat, **params))
        except ValueError as e:
            raise UsageError(f"--agents: {name}: {e}") from None
    return out


def agent_seed(seed: int, seat: int) -> int:
    """The seed the agent of ``seat`` is built with in a game of ``seed``: a 63-bit whole number
    from SHA-256, which gives nothing of the game's seed back."""
    digest = hashlib.sha256(f"rulebook-agent-seed:{int(seed)}:{int(seat)}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def needs_knowledge(agents) -> bool:
    """Whether a game with these agents must keep what each seat knows (determinization)."""
    return any(getattr(a, "needs_knowledge", False) for a in agents)


def choose(agent, S, seat: int) -> int:
    """Ask ``agent`` for seat ``seat``'s decision in ``S``: a search agent gets a SeatView
    (``decide``), any other its observation and the labels of the legal actions (``act``)."""
    decide = getattr(agent, "decide", None)
    if decide is not None:
        return decide(SeatView(S, seat))
    return agent.act(S.observation(seat), S.legal_actions())


def _register_search_agents() -> None:
    from . import greedy, rollouts, search
    register_agent("greedy", greedy.GreedyAgent, greedy.PARAMS)
    register_agent("rollouts", rollouts.RolloutAgent, rollouts.PARAMS)
    register_agent("ismcts", search.ISMCTSAgent, search.PARAMS)
    register_agent("mcts", search.MCTSAgent, search.PARAMS)


_register_search_agents()
