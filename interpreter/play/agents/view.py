"""What an agent may use to decide for its seat: its observation, the legal actions, and
determinizations of the game (full states consistent with what the seat may know).

A search agent (``decide(view)``) gets a ``SeatView`` instead of the state: it plans on
``view.sample(rng)`` states, never on the real one. ``view.true_state()`` is the real
state's copy, for the agents documented as seeing hidden information (``mcts``, an upper
bound for comparisons).
"""
from __future__ import annotations


class SeatView:
    __slots__ = ("_state", "seat", "rules", "_obs", "_legal")

    def __init__(self, state, seat: int):
        self._state = state
        self.seat = seat
        self.rules = state.rules
        self._obs: dict | None = None
        self._legal: list[str] | None = None

    @property
    def observation(self) -> dict:
        if self._obs is None:
            self._obs = self._state.observation(self.seat)
        return self._obs

    @property
    def legal(self) -> list[str]:
        if self._legal is None:
            self._legal = self._state.legal_actions()
        return self._legal

    @property
    def options(self) -> int:
        """How many legal actions there are (nothing labelled)."""
        return len(self._state.dec[1])

    def option_values(self) -> tuple:
        """The legal actions as the option values they label, in the same order."""
        return self._state.dec[1]

    def sample(self, rng):
        """A determinization for this seat (``State.determinize``), drawn with ``rng``."""
        return self._state.determinize(self.seat, rng)

    @property
    def reports(self) -> bool:
        """Whether the pending question is what happened at a real table (Step.reports)."""
        S = self._state
        return S.dec is not None and S.rules.steps[S.stack[-1][0]].reports

    @property
    def prompt(self) -> str | None:
        return self._state.prompt()

    def table(self) -> dict:
        """The table as this seat sees it, laid out for people (play/display/table.py)."""
        from ..display.table import table_of
        return table_of(self.rules).render(self._state, self.seat)

    def true_state(self):
        """A copy of the real state, hidden information included: only for agents that say so."""
        return self._state.clone()
