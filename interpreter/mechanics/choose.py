"""choose: one player picks one value from a list; the value goes into a variable. The options
and ``then`` are the seat asked's (``me`` = ``who``, which is read where the step stands).

With ``simultaneous: true``, several players (``who:`` a list, default every player) choose at
once, none seeing what the others chose: each is asked in turn on the same state (nothing
changes until all have chosen), the choices are held in the step's frame, hidden from the other
seats (an observation shows who has chosen, not what; a log redacted for another seat shows
"?"), then revealed together into the variable, a list with one value per seat (none for a
seat that did not choose), and ``then`` runs once per seat that chose, with ``me`` = that seat.
Revealed into a private variable (``_name``), the choices stay secret: the ``reveal`` event
loses its value in every redacted log, as the observation never shows the variable.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..expr.runtime import HELPERS, MAX_STORED, list_bound, stored_source
from ..expr.types import ANY, CARD, PLAYER, elem, holds_growing, is_list, list_of
from ..expr.names import state_read, state_write, var_write
from ..engine.frames import listof, option, seat, whole
from ..engine.knowledge import tell
from ..engine.labels import held_type, short_labels
from ..engine.values import as_declared, as_typed
from ..engine.visibility import Visibility
from ..engine.protocol import UNCHANGED
from .ask_once import SEAT_ASKED, AskOnce
from .base import IF_NONE_KEY, WHO, Step, step_kind
from .contract import Key
from .variables import charge_check, checked, typed

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn


@step_kind("choose", "a player picks one option from a list; the choice is stored in a variable",
           keys=(WHO,
          Key("options", "expression: list", "the options, labelled by their values (me = the seat asked)",
              required=True),
          Key("as", "variable name", "the variable the choice is stored in (simultaneous: list[T], one a seat)",
              required=True),
          Key("prompt", "text", "the decision's name", default="the variable's name"),
          Key("then", "effects", "run after the choice, me = the chooser"),
          IF_NONE_KEY,
          Key("simultaneous", "bool", "who (default players) choose at once, unseen until all have", default=False)))
class Choose(AskOnce):

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the seat asked
    who_me: bool                        # who is just 'me'
    options: ExprFn
    distinct: bool                      # the options never share a label
    one_zone: bool                      # they are one zone's cards (filtered), each labelled its own way
    short_labels: bool                  # their labels known short at load: not measured (engine/labels.py)
    label_type: str                     # the type their labels are bounded as (engine/labels.py held_type)
    var: str                            # the variable the choice is stored in
    typed: bool                         # the answer checked against the variable's declared type (variables.checked)
    then: Callable[..., Any] | None     # effects f(S, me, L) once chosen

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        step, main, p = cls.started(ctx, main, rest, path, scope)
        if main.get("simultaneous") is True:   # (the step started here goes unused)
            return Simultaneous.from_choose(ctx, main, p, scope)
        if "simultaneous" in main and main["simultaneous"] is not False:
            ctx.error(f"simultaneous is true or false, got {main['simultaneous']!r}", (*p, "simultaneous"), "type")
        step.who, step.who_me = cls.asker(ctx, main.get("who", "me"), (*p, "who"), scope)
        # the options are the seat asked's (me = who; who itself is read where the step stands)
        with ctx.asking(main.get("who", "me")):
            opts = ctx.expr(main.get("options", "[]"), (*p, "options"), has_me=scope.has_me or not step.who_me,
                            expect="list")
        step.options = opts
        step.distinct = opts.distinct
        step.option_type = elem(opts.type)
        step.label_type = held_type(opts)   # (any where made of a value of type any: its labels measured)
        step.short_labels = short_labels(step.label_type, opts, ctx.widest_label)   # (no fit asked: _offered)
        step.one_zone = bool(step.option_type == CARD and ctx.unique_labels and opts.tree is not None
                             and _one_zone(opts.tree, ctx.names.zones))
        step.var = ctx.declare_as(main.get("as", "choice"), step.option_type, (*p, "as"), scope)
        step.typed = checked(ctx, step.var, elem(opts.proven))   # (an answer of type any: as set stores it)
        if step.typed:   # (its check counted in the step's work, as random's of an element: variables.stored)
            charge_check(ctx, ctx.names.vars[step.var], opts.elements[1:2] * 2)
        step.prompt = str(main.get("prompt", step.var))
        step.then = ctx.effects(main.get("then"), (*p, "then"), has_me=True)
        step.read_if_none(ctx, main, p)
        return step

    resolve = Step.resolve   # (written once, by resolve_source)

    def flow_source(self, g):
        """The question: the seat asked (none: the step does not apply), then its options (me =
        that seat; none: ``if_none``). Asked of ``me``, the seat is tested once and the options once."""
        lines = [f"def R{self.index}(S, frame):",
                 f"    me = {g.me(self.me_var)}"]
        if self.who_me:
            asked = f"(me, {self._offered(g, 'options')})"
            return "\n".join([*lines, *g.assign(self.options, "options", "me", "    "),
                              "    if me is None:   # nobody is asked: the step does not apply",
                              f"        {state_read('stack')}.pop()",
                              "        return U",
                              "    if not options:", *self.none_source(g, "        "),
                              f"    frame[{SEAT_ASKED}] = me",
                              f"    {state_write('dec', asked)}",
                              "    return U"])
        found = [*g.assign(self.options, "options", "who", "    "), f"    options = {self._offered(g, 'options')}"]
        return "\n".join([*lines, *g.assign(self.who, "who", "me", "    "), *self.asked_source(g, found)])

    def _offered(self, g, options: str) -> str:
        """The options offered, as a tuple (each label once). Specialised: no card is ever twice in a
        zone, so one zone's cards, labelled each its own way, are distinct."""
        rules, typ = state_read('rules'), self.option_type
        fit = options if self.short_labels else f"{rules}.fit({options}, {self.label_type!r})"   # (engine/labels.py)
        if self.distinct or self.one_zone and not g.plain:
            return f"tuple({fit})"
        return f"tuple({rules}.distinct({fit}, {typ!r}))"

    def skip_source(self, g, pad, push, failed=0):
        """In its sequence's function (not in the plain reference): the seat and its options found in
        place (an error in them located at the choose), the frame made only to ask (``push``: the lines
        pushing a new frame of these slots as ``f``); with no seat or no option, where nothing counts
        it (``if_none: skip``), nothing is pushed and the sequence goes on."""
        if g.plain or self.if_none != "skip" or self.none_probe is not None:
            return None
        me = g.me(self.me_var)
        if self.who_me:
            found = [*g.assign(self.options, "_options", me, pad + "    ")]
            who, offered, test = me, self._offered(g, "_options"), f"_options and {me} is not None"
        else:   # (the seat first, then its options, as the run finds them: none asked, no option; the
            # seat tested once, where nobody asked leaves no option)
            found = [*g.assign(self.who, "_asked", me, pad + "    "), f"{pad}    if _asked is None:",
                     f"{pad}        _options = ()", f"{pad}    else:   # (last: no jump after it)",
                     *g.assign(self.options, "_options", "_asked", pad + "        "),
                     f"{pad}        _options = {self._offered(g, '_options')}"]
            who, offered, test = "_asked", "_options", "_options"
        asked = f"({who}, {offered})"
        return [*g.found(self, found, pad, push, failed),
                f"{pad}if {test}:",
                *(f"{pad}    {line}" for line in push([who])),
                f"{pad}    {state_write('dec', asked)}",
                f"{pad}    return U"]

    def resolve_source(self, g):
        """The answer into the variable, then ``then`` (me: the seat asked); the frame removed."""
        answer = _stored_answer(g, self.option_type, self.options.chars)
        if self.typed:
            g.bind({"_typed": as_declared})
            answer = typed(self.var, answer)
        lines = [f"def Q{self.index}(S, frame, value):", f"    {var_write(self.var, answer)}"]
        if not Visibility.var_seers(self.var):   # the seat asked knows what it chose (engine/knowledge.py)
            kn = state_read("kn")
            lines += [f"    if {kn} is not None:", f"        {kn}[{self.var!r}] = 1 << frame[{SEAT_ASKED}]"]
        elif self.option_type == CARD:   # a card chosen into a public variable: every seat knows where it lies
            g.bind({"_tell_all": _tell_all})
            lines.append(f"    if {state_read('kn')} is not None and value is not None: _tell_all(S, value)")
        if self.then is not None:
            lines += g.effects(self.then, f"frame[{SEAT_ASKED}]", "    ", self)
        lines.append(f"    {state_read('stack')}.pop()")
        # (the flow goes on up to its next question; the game's end tested where ``then`` may end it)
        climb = g.climb(self, "    ", self.then is not None and g.may_end(self.then)) if self.resolved is UNCHANGED else []
        return "\n".join([*lines, *(climb or [f"    return {'U' if self.resolved is UNCHANGED else 'None'}"])])

    def choice_var(self):
        return self.var

    def asked(self, S, frame):
        """What is chosen (the variable set) and, for numbers, their range (play/display/ask.py)."""
        values = S.dec[1]
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        out: dict = {"sets": self.var}
        if numbers and len(numbers) == len(values) and len(numbers) > 1:
            out.update(low=min(numbers), high=max(numbers))
        return out

    def vocabulary(self, V, spec):
        return V.labels(spec.get("options", "[]"), self.option_type)

    resolved = None     # UNCHANGED when nothing a check reads is changed by the answer (settle)

    def settle(self, quiet, watched_vars):
        if self.var not in watched_vars and (self.then is None or quiet.quiet(self.then)):
            self.resolved = UNCHANGED


def _tell_all(S, card: int) -> None:
    """A card chosen into a public variable (the step decides it when it is built: a variable is
    public or private, Visibility.var_seers): every seat now knows where the card lies (a card of
    a hidden hand given, shown, played next: engine/knowledge.py)."""
    tell(S, [card], (1 << S.n) - 1)


def _stored_answer(g, typ: str, chars: int) -> str:
    """The answer as the variable stores it: a list its own copy, within the language's bounds, as
    ``set`` stores one (an option may be a zone's list, which later moves change in place); a
    string checked where the options may hold one longer than a variable may (``chars``, the
    longest their expression builds: ``[u + u]``, not ``[u]`` nor a literal)."""
    if not (is_list(typ) or typ == ANY or chars > MAX_STORED):
        return "value"
    g.bind({"_stored": HELPERS["_stored"], "_LIST_BOUND": list_bound(g.cards)})
    return stored_source("value", holds_growing(typ))


def _one_zone(tree, zones) -> bool:
    """Whether an expression's list is the cards of one zone (``row``, ``won[p]``), or a filter of them."""
    while tree.data in ("where", "where_as"):
        tree = tree.children[0]
    if tree.data == "index":
        tree = tree.children[0]
    return tree.data == "name" and str(tree.children[0]) in zones


_STORED: Any = HELPERS["_stored"]   # (a variable's bounds: runtime._stored)

# a simultaneous choice's frame: [step index, the seats to ask (None before the first question),
# the position among them, the choices so far (one per seat, held hidden; replaced, never mutated)]
SEATS, POS, CHOICES = 1, 2, 3


class Simultaneous(Step):
    """choose with ``simultaneous: true`` (the module docstring). Frame: [index, SEATS, POS,
    CHOICES] (the slots above)."""
    kind = "choose"
    frame_shape = (listof("the seats to ask", seat("a seat"), none=True), whole("the position", upto=(SEATS,)),
                   listof("the choices so far", option("a choice"), per_seat=True, none_with=SEATS))
    asks = True
    private_choice = True   # a seat cannot tell what another chose until the reveal (engine/sight.py)

    me_var: str | None                  # the variable holding 'me' where the step runs
    who: ExprFn                         # the seats asked
    options: ExprFn
    label_type: str                     # the type their labels are bounded as (engine/labels.py held_type)
    var: str                            # the variable the choices (one per seat) are stored in
    typed: bool                         # each answer checked against the variable's element type (variables.checked)
    then: Callable[..., Any] | None     # effects f(S, me, L) once all have chosen

    @classmethod
    def from_choose(cls, ctx, main, p, scope):
        """The step of a ``choose:`` with ``simultaneous: true`` (Choose.build hands it over)."""
        step = cls()
        step.me_var = scope.me_var
        step.who = ctx.expr(main.get("who", "players"), (*p, "who"), has_me=scope.has_me, expect=list_of(PLAYER))
        with ctx.asking(None):   # (each seat's options: me = that seat)
            step.options = opts = ctx.expr(main.get("options", "[]"), (*p, "options"), has_me=True, expect="list")
        step.option_type, step.label_type = elem(opts.type), held_type(opts)
        step.var = ctx.declare_as(main.get("as", "choice"), list_of(step.option_type), (*p, "as"), scope)
        step.typed = checked(ctx, step.var, list_of(elem(opts.proven)))   # (each answer, as Choose's: resolve)
        if step.typed:
            charge_check(ctx, elem(ctx.names.vars[step.var]), opts.elements[1:2] * 2)
        step.prompt = str(main.get("prompt", step.var))
        step.then = ctx.effects(main.get("then"), (*p, "then"), has_me=True)
        if "if_none" in main:
            ctx.error("if_none is for a choice of one player: a simultaneous choice leaves none for a seat "
                      "with no option", (*p, "if_none"), "type")
        return step

    def enter(self, S):
        return [self.index, None, 0, None]

    def options_of(self, S, seat) -> tuple:
        options = self.options(S, seat, None)
        options = S.rules.fit(options, self.label_type)
        return tuple(options) if self.options.distinct else tuple(S.rules.distinct(options, self.option_type))

    def run(self, S, frame):
        if frame[SEATS] is None:
            frame[SEATS] = list(dict.fromkeys(self.who(S, self.me(S, self.me_var), None)))
            frame[CHOICES] = [None] * S.n
        seats = frame[SEATS]
        while frame[POS] < len(seats):
            options = self.options_of(S, seats[frame[POS]])
            if options:
                S.dec = (seats[frame[POS]], options)
                return UNCHANGED
            frame[POS] += 1            # nothing to choose from: this seat's choice is none
        choices = list(frame[CHOICES])      # every seat has chosen: revealed together
        # (then: for each seat that chose; one whose choice is none may have had no option, which the
        # state as it was asked, unchanged until the reveal, tells)
        chose = seats if self.then is None or None not in choices else [
            seat for seat in seats if choices[seat] is not None or self.options_of(S, seat)]
        S.stack.pop()
        S.set_var(self.var, choices)
        if S.kn is not None and not Visibility.var_seers(self.var):   # each seat knows its own entry
            S.kn[self.var] = sum(1 << seat for seat in seats)
        if S.ev is not None:
            S.ev.append({"ev": "reveal", "var": self.var, "value": choices})
        if S.kn is not None and self.option_type == CARD and S.rules.visibility.var_public(self.var):
            tell(S, [c for c in choices if c is not None], (1 << S.n) - 1)   # every seat knows where they lie
        if self.then is not None:
            for seat in chose:
                self.then(S, seat, None)
        return None

    def resolve(self, S, frame, value):
        seat = frame[SEATS][frame[POS]]
        choices = list(frame[CHOICES])
        # (its own copy, within a variable's bounds, as _stored_answer stores a choice: the options may build
        # a longer string or list, [v[0] + v[0]])
        choices[seat] = _STORED(value, list_bound(len(S.rules.card_labels)), True)
        if self.typed:   # (an answer of type any, or made of one: held to the type of the variable's elements)
            want = S.rules.names.vars[self.var]
            as_typed(S, elem(want), f"variable '{self.var}' is declared {want}", choices[seat])
        frame[CHOICES] = choices
        frame[POS] += 1
        return UNCHANGED         # held in the frame: nothing a check can read has changed

    def observe(self, S, frame, player):
        """Who has chosen and who is still to choose; a seat's own choice to itself only."""
        if frame[SEATS] is None:
            return None
        done = frame[SEATS][:frame[POS]]
        out = {"chosen": done, "to_choose": frame[SEATS][frame[POS]:]}
        if player is not None and player in done:
            out["my_choice"] = S.rules.label(frame[CHOICES][player], self.option_type)
        return {"simultaneous": out}

    def hidden_values(self, S, frame, seat, rng) -> None:
        """A determinization for ``seat`` holds random choices for the others who have chosen
        (engine/knowledge.py): what they chose is not the seat's to know. Options the world
        cannot list (they read a private value it holds as none) are none: that seat's choice
        is none, as when it has nothing to choose from."""
        if frame[SEATS] is None or frame[CHOICES] is None:
            return
        choices = list(frame[CHOICES])
        for other in frame[SEATS][:frame[POS]]:
            if other != seat:
                try:
                    options = self.options_of(S, other)
                except Exception:   # noqa: BLE001 - any failure of the options: nothing to choose from
                    options = ()
                choices[other] = options[rng.randrange(len(options))] if options else None
        frame[CHOICES] = choices

    def choice_var(self):
        return self.var

    def vocabulary(self, V, spec):
        return V.labels(spec.get("options", "[]"), self.option_type)

    def reask(self, S, frame):
        pass
