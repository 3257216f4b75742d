"""What a pending decision asks, in words for the seat that reads it: the prompt with its count
and its target ("pass 3 cards to seat 2", "pass 1 more card to you (of 3)"), how many cards a
pick takes ("take 2 more cards (of 3)", "take a card (1 picked, up to 3); done stops"), whether
a trick is led or which card led it ("play a card (7D led)"), what a market
costs against what the seat holds ("buy a space or pass: 4 coins"), what a choice sets and a
number's range ("quality (pierce quality, 1 to 10)"). The figures come from
the step (``Step.asked``, mechanics/base.py), the words from the ruleset's prompt."""
from __future__ import annotations

from .words import singular


def asked(prompt: str, question: dict | None, options: int | None, who, title=str) -> str:
    """The sentence for a decision: ``prompt`` (the ruleset's word), ``question`` (the step's
    figures, or None), ``options`` (how many the seat has, None when it is not shown them),
    ``who(seat)`` names a seat for the reader ("you", "seat 2"), ``title(name)`` a variable."""
    q = question or {}
    text = prompt
    if "count" in q:
        left, of = q["count"], q.get("of", q["count"])
        more = " more" if left < of else ""
        text += f" {left}{more} card{'s' if left != 1 else ''}"
        if q.get("to") is not None:
            text += f" to {who(q['to'])}"
        if more:
            text += f" (of {of})"
    elif "picked" in q:
        picked, least, most = q["picked"], q["least"], q["most"]
        if most is not None and most == least:   # a fixed number: how many are left
            left = most - picked
            text += f" {left}{' more' if picked else ''} card{'s' if left != 1 else ''}" + (f" (of {most})" if picked else "")
        else:
            said = [f"{picked} picked"] if picked else []
            said += [f"at least {least}"] if picked < least and least > 1 else []
            said += [f"up to {most}"] if most is not None else []
            text += " a card" + (f" ({', '.join(said)})" if said else "")
            if picked >= least:
                text += "; done stops"
    elif "leads" in q:
        text += " a card to lead the trick" if q["leads"] else f" a card ({q['led']} led)" if q.get("led") else ""
    elif q.get("pay"):
        paid = title(q["pay"])   # "10 coins", "1 coin": the counter's title, agreeing
        text += " a space" + (" or pass" if q.get("can_pass") else "") + f": {q['has']} {singular(paid) if q['has'] == 1 else paid}"
    elif "sets" in q:   # a choice: what it sets, when the prompt does not say it, and a number's range
        chosen = title(q["sets"])
        said = [chosen] if chosen != prompt else []
        said += [f"{q['low']} to {q['high']}"] if "low" in q else []
        text += f" ({', '.join(said)})" if said else ""
    if options == 1:
        text += " (one option: Enter takes it)"
    return text
