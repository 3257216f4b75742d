"""How good a position is for a seat, and the reward of a finished (or cut-off) game: what the
search agents maximise.

``evaluate(S, seat)`` is the ruleset's ``heuristic:`` expression for that seat (me = the
seat) when it declares one, else the seat's score minus the best other score (with teams,
the best score of another team). ``rewards(S, mode)`` gives every seat its reward in [0, 1]:

- ``win``: a finished game gives 1 to its winner, 1/k to each of k winners sharing it, 0 to
  the others; a game cut off before its end gives the same to the seats whose evaluation is
  the best (the current leaders);
- ``margin``: 0.5 + 0.5 x (the seat's value minus the best other value) / (1 + the largest
  absolute value), clipped to [0, 1]; the value is the score of a finished game, else the
  evaluation.
"""
from __future__ import annotations

REWARDS = ("win", "margin")


def evaluate(S, seat: int) -> float:
    heuristic = S.rules.heuristic
    if heuristic is not None:
        return heuristic(S, seat, None)
    return _lead(S, S.scores(), seat)


def _lead(S, scores, seat: int) -> float:
    sign = -1 if S.rules.scoring.lowest_wins else 1
    team = S.tm[seat]
    others = [sign * scores[p] for p in S.players if S.tm[p] != team]
    return sign * scores[seat] - (max(others) if others else 0)


def values(S) -> list[float]:
    """Each seat's value: its score when the game is over, else its evaluation."""
    if S.over:
        sign = -1 if S.rules.scoring.lowest_wins else 1
        return [sign * s for s in S.scores()]
    return [evaluate(S, p) for p in S.players]


def rewards(S, mode: str = "win") -> list[float]:
    n = S.n
    if mode == "win":
        if S.over:
            winners = S.winners()
        else:
            v = values(S)
            best = max(v)
            winners = [p for p in S.players if v[p] == best]
        share = 1.0 / len(winners) if winners else 0.0
        out = [0.0] * n
        for p in winners:
            out[p] = share
        return out
    v = values(S)
    scale = 1.0 + max(abs(x) for x in v)
    out = []
    for p in S.players:
        others = [v[q] for q in S.players if S.tm[q] != S.tm[p]]
        m = v[p] - (max(others) if others else 0.0)
        out.append(min(1.0, max(0.0, 0.5 + 0.5 * m / scale)))
    return out
