"""StepScope: what the steps at one place of the flow can name of the seats (mechanics/base.py
``Step.build`` takes it)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepScope:
    """What the steps at one place can name: who 'me' is (a variable: the last of the enclosing
    ``seats``), and what holds each of those (``holders``, in their order: ``within``)."""
    me_var: str | None = None
    seats: tuple[str, ...] = ()
    holders: tuple[str, ...] = ()

    @property
    def has_me(self) -> bool:
        return self.me_var is not None

    def within(self, var: str, holder: str) -> StepScope:
        """The scope of steps run as the seat in ``var``, which ``holder`` holds (as a message
        names it: "the as: of an enclosing branch")."""
        return StepScope(var, (*self.seats, var), (*self.holders, holder))

    def holder(self, var: str) -> str:
        """What holds the seat in ``var``, one of ``seats`` (the innermost, were it twice)."""
        return self.holders[len(self.seats) - 1 - self.seats[::-1].index(var)]

    def holding(self, var: str, here: str = "") -> str:
        """What ``var`` (one of ``seats``) holds, as an error says it: the seat me stands for
        (``here``: where that is said), and what holds it, where ``var`` is ``me_var``; else only
        what holds it (a turns' variable inside a branch's as:, me being the branch's seat there)."""
        if var == self.me_var:
            return f"holds the seat me stands for{here} ({self.holder(var)})"
        return f"is {self.holder(var)}"
