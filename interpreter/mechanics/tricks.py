"""tricks: trick-taking as a generic mechanic.

A trick: starting with the leader and going clockwise, each player plays a card from their
hand to a public zone, ``plays`` times round (2 for the two-player rule of some games). A
player must play a card whose ``follow`` value matches the led card's when able; a player
who cannot gets the ``on_void`` hook. The winner holds the highest ``rank`` among the cards
of the ``trump`` value if any were played, else among the cards that followed the led card;
the winner gets ``on_win``, collects the cards and leads the next trick. ``follow`` and
``rank`` may read the state (a trump named in play) and the local ``led``, never ``me``: a
card's key is the same for every seat (building/elements.py card_key).

Hooks run with ``me`` = the player concerned and locals ``card`` (the card played, or the
winning card), ``led`` (the led card), ``trick`` (the cards of the trick so far) and
``tricks_played`` (the tricks finished before this one).

``playable`` restricts which cards may be played, on top of following: a condition on each
card of the hand (its attributes bare, ``it``), ``me`` the player, with locals ``led`` (none
when leading), ``trick`` and ``tricks_played``. When it leaves nothing, any card that follows
may be played (hearts not yet broken, yet a hand of hearts only).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache
from typing import TYPE_CHECKING, Any, Callable

from ..expr.runtime import ExprRuntimeError, attribute_index
from ..expr.parser import bare_name
from ..expr.types import CARD, INT, PLAYER, list_of
from ..expr.cdialect import list_take
from ..expr.names import item_read, owning, state_add, state_read, state_write, zone_ref
from ..engine.capacity import guard
from ..engine.frames import listof, seat, whole
from ..engine.knowledge import know
from ..engine.loop import at_step
from ..engine.sight import reads_unseen
from ..engine.visibility import bit
from ..engine.voids import follow_index, led_cards, record
from .base import Step, checked_seat, step_kind
from .contract import Key, players_key

if TYPE_CHECKING:
    from ..expr.compiler import ExprFn

_HOOK_LOCALS = {"card": CARD, "led": CARD, "trick": list_of(CARD), "tricks_played": INT}
_KEY_LOCALS = {"led": CARD}   # follow: and rank: (the led card of the trick being played)
_PLAYABLE_LOCALS = {"led": CARD, "trick": list_of(CARD), "tricks_played": INT}


def rounds(plays, cards: int) -> int:
    """A trick's ``plays``, checked: each play takes a card, so it goes round 1 to as many
    times as the game has cards (a larger value would only build a list of turns for ever)."""
    if type(plays) is not int or not 1 <= plays <= cards:
        raise ExprRuntimeError(f"plays: a trick goes round 1 to {cards} times (the cards of the game), not {plays}")
    return plays


MAX_ROTATED = 16   # the most seats whose orders from each leader are kept (rotations)


@cache   # (one table for every step and ruleset: one name in a module's namespace)
def rotations(most: int) -> tuple:
    """For n = 0 .. ``most`` seats, the order of play from each leader (``[n][leader]``: the
    seats from the leader on, then those before): tuples, so a trick's frame holds one
    without a copy (frame contents are replaced, never mutated)."""
    return tuple(tuple(tuple(range(leader, n)) + tuple(range(leader)) for leader in range(n)) for n in range(most + 1))


# the slots of a trick's frame: [step index, tricks done, leader, order of seats this trick,
# position in that order, the seats that played so far (None: each seat of the order before the
# position, as when no seat was passed over: no list is built a card; ``played``)]
DONE, LEADER, ORDER, POS, PLAYED = 1, 2, 3, 4, 5


def played(frame) -> list:
    """The seats that played in the trick in progress, in order."""
    seats = frame[PLAYED]
    if seats is None:
        return list(frame[ORDER][:frame[POS]]) if frame[ORDER] is not None else []
    return seats


@step_kind("tricks", "play tricks: follow, trumps, winner by rank, hooks on void and on win",
           keys=(Key("hand", "zone", "where players play from", required=True),
          Key("table", "zone", "the public zone of the trick in progress", required=True),
          Key("leader", "expression: player", "the first leader; a trick's winner leads the next", required=True),
          players_key("who plays"),
          Key("count", "expression: int", "tricks to play (default: until the leader's hand is empty)"),
          Key("plays", "expression: int", "cards each player plays per trick", default=1),
          Key("follow", "card key", "the attribute a card must follow when able"),
          Key("trump", "expression", "cards with this follow value beat the others"),
          Key("rank", "card key", "higher wins", required=True),
          Key("playable", "condition on a card", "which cards may be played, on top of following"),
          Key("collect", "zone", "the winner (or the winner's team) takes the cards", required=True),
          Key("on_play", "effects", "run after each card (locals card, led, trick, tricks_played)"),
          Key("on_void", "effects", "run when a player could not follow"),
          Key("on_win", "effects", "run when a trick is won (card: the winning card)"),
          Key("prompt", "text", "the decision's name", default="play")))
class Tricks(Step):
    """Frame: [index, DONE, LEADER, ORDER, POS, PLAYED] (the slots above)."""
    frame_shape = (whole("tricks done"), seat("the leader", none=True),
                   listof("the order of seats this trick", seat("a seat"), none=True),
                   whole("the position in that order", upto=(ORDER,)),
                   listof("the seats that played so far", seat("a seat"), none=True))
    option_type = CARD

    me_var: str | None                      # the variable holding 'me' where the step runs
    hand: str                               # cards go from hand to table, then to the winner's collect
    table: str
    collect: str
    leader: ExprFn                          # the seat leading the first trick
    players: ExprFn                         # the seats playing
    count: ExprFn | None                    # tricks to play (None: until the leader's hand is empty)
    plays: ExprFn                           # times round each trick goes
    follow: Callable[..., Any] | None       # the value a card must follow: card -> value, or
                                            # f(S, me, L, card) for a key that reads the state (card_key)
    trump: ExprFn | None
    rank: Callable[..., Any]                # its rank (as follow)
    playable: Callable[..., list] | None    # f(S, me, L, cards) -> the cards that may be played
    on_play: Callable[..., Any] | None      # hooks: f(S, me, L)
    on_void: Callable[..., Any] | None
    on_win: Callable[..., Any] | None
    hand_by_team: bool                      # the hand (collect) zone is a team's
    collect_by_team: bool
    unique_labels: bool                     # no two cards share a label
    notify_table: bool                      # the table (collect) zone has enter triggers
    notify_collect: bool
    collect_sorted: bool                    # the collect zone is kept in card order
    table_max: int | str | None             # the table's and the collect zone's max: (engine/capacity.py guard)
    collect_max: int | str | None

    @classmethod
    def build(cls, ctx, main, rest, path, scope):
        s, main, p = cls.started(ctx, main, rest, path, scope)
        has_me = scope.has_me
        s.hand = ctx.owned_zone(main.get("hand"), (*p, "hand"))
        s.table = ctx.shared_zone(main.get("table"), (*p, "table"))
        s.collect = ctx.owned_zone(main.get("collect"), (*p, "collect"))
        ctx.flows(s.hand, s.table)
        ctx.flows(s.table, s.collect)
        # (a seat or none, as its frame keeps it: leader: -1 led as seat -1, true as true)
        s.leader = checked_seat(ctx, ctx.expr(main.get("leader", "0"), (*p, "leader"), has_me=has_me, expect=PLAYER))
        s.players = ctx.expr(main.get("players", "players"), (*p, "players"), has_me=has_me, expect="list")
        s.count = ctx.expr(main["count"], (*p, "count"), has_me=has_me, expect=INT) if "count" in main else None
        s.plays = ctx.expr(main.get("plays", 1), (*p, "plays"), has_me=has_me, expect=INT)
        s.follow = ctx.card_key(main["follow"], (*p, "follow"), _KEY_LOCALS) if "follow" in main else None
        s.trump = ctx.expr(main["trump"], (*p, "trump"), has_me=has_me) if "trump" in main else None
        s.rank = ctx.card_key(main.get("rank", "0"), (*p, "rank"), _KEY_LOCALS)
        with ctx.asking(None):   # (each player's: me = that player)
            s.playable = ctx.card_selector(main["playable"], (*p, "playable"), _PLAYABLE_LOCALS) if "playable" in main else None
        s.on_play = ctx.effects(main.get("on_play"), (*p, "on_play"), _HOOK_LOCALS, True, by_name=True)
        s.on_void = ctx.effects(main.get("on_void"), (*p, "on_void"), _HOOK_LOCALS, True, by_name=True)
        s.on_win = ctx.effects(main.get("on_win"), (*p, "on_win"), _HOOK_LOCALS, True, by_name=True)
        s.prompt = str(main.get("prompt", "play"))
        s.hand_by_team = ctx.names.zones.get(s.hand) == "team"
        s.collect_by_team = ctx.names.zones.get(s.collect) == "team"
        s.unique_labels = ctx.unique_labels
        s.notify_table = s.table in ctx.triggers.enter
        s.notify_collect = s.collect in ctx.triggers.enter
        s.collect_sorted = bool(s.collect) and ctx.zone_sorted(s.collect)
        s.table_max, s.collect_max = ctx.zone_max(s.table), ctx.zone_max(s.collect)
        s.follow_runs = _runs(s.follow) if ctx.zone_sorted(s.hand) else None
        # a card that does not follow tells the table what the hand lacks, where some seat cannot
        # see the hand and every seat sees the trick (engine/voids.py)
        s.voids_seen = (s.follow is not None and ctx.zone_visible(s.hand) != "all"
                        and ctx.zone_visible(s.table) == "all")
        if bare_name(s.players.tree) == "players" and ctx.names.max_players <= MAX_ROTATED:
            s.rotations = rotations(ctx.names.max_players)
        if s.table and ctx.zone_sorted(s.table):   # the led card is the first played: order is the rule
            ctx.error(f"the trick table '{s.table}' keeps the order of play: it cannot be declared sorted",
                      (*p, "table"), "type")
        return s

    def enter(self, S):
        me = self.me(S, self.me_var)
        try:
            return [self.index, 0, self.leader(S, me, None), None, 0, None]   # DONE .. PLAYED
        except Exception as e:   # (its leader's error: located here)
            at_step(e, self)
            raise

    def observe(self, S, frame, player):
        """Who has played which card of the trick in progress, and who led it: each card by its
        label to a seat that sees the table (its ``visible:``), else ``"?"`` (a face-down trick)."""
        table = S.zone(self.table)
        labels = S.rules.card_labels if self._sees_table(S, player) else None
        return {"trick": [{"seat": p, "card": labels[c] if labels else "?"} for p, c in zip(played(frame), table)],
                "trick_leader": frame[LEADER], "tricks_played": frame[DONE]}

    def _sees_table(self, S, player) -> bool:
        """Whether ``player`` (None: a spectator) sees the trick's table (engine/visibility.py)."""
        return bool(S.rules.visibility.seen(S.members).zone_seers(self.table, None) & bit(player))

    asks = True

    def asked(self, S, frame):
        table = S.zone(self.table)
        seats = played(frame)
        shown = seats and table and self._sees_table(S, S.dec[0] if S.dec else None)
        return {"leads": not seats, "led": S.rules.card_labels[table[0]] if shown else None}

    def vocabulary(self, V, spec):
        return V.card_labels(V.zone_cards(self.hand))

    # ------------------------------------------------------------------ its behaviour, written once
    # A trick's run, resolve and finish exist only as the Python this generator writes
    # (building/flowgen.py): specialised for its place in the ruleset, or plain (``g.plain``: the
    # reference the specialised code is checked against).
    follow_runs = None  # _runs(follow) when the hand is kept in card order (build)
    rotations = None    # rotations(most players) when every seat plays (build)
    voids_seen = False  # whether a card that does not follow is recorded (build; engine/voids.py)
    void_kept: tuple | None = None   # (the ruleset, follow_index of a key that reads only the card):
                                     # made at a ruleset's first void
    asks_again = False  # whether no check can see what a card played changes (settle): the
                        # compiled resolve then asks the next card itself

    def settle(self, quiet, watched_vars):
        zones = {("z", self.hand), ("z", self.table), ("z", self.collect)}
        hooks = [fn for fn in (self.on_play, self.on_void, self.on_win) if fn is not None]
        self.asks_again = (quiet.watched is not None and not zones & quiet.watched
                           and not (self.notify_table or self.notify_collect)
                           and all(quiet.quiet(fn) for fn in hooks))

    def flow_source(self, g):
        me = g.me(self.me_var)
        hand = zone_ref(self.hand)
        cards = f"len({state_read('rules')}.card_labels)" if g.plain else g.cards   # (a trick goes round at most that many times)
        lines = [f"def R{self.index}(S, frame):",
                 f"    order = frame[{ORDER}]",
                 "    if order is None:   # a new trick",
                 f"        leader = frame[{LEADER}]",
                 f"        me = {me}"]
        over = f"not {hand}[{item_read(state_read('tm'), 'leader') if self.hand_by_team else 'leader'}]"
        if self.count is not None:
            over = f"frame[{DONE}] >= {g.value(self.count)} or {over}"
        lines += [f"        if {over}:",
                  f"            {state_read('stack')}.pop()",
                  "            return U",
                  *([f"        seats = {g.fn(self.rotations)}[{state_read('n')}][leader]   # (0..n-1 from the leader on)"]
                    if self.rotations is not None and not g.plain else
                    ["        seats = S.players[leader:] + S.players[:leader]   # (0..n-1 from the leader on)"]
                    if bare_name(self.players.tree) == "players" and not g.plain else
                    [f"        n = {state_read('n')}",
                     f"        seats = sorted({g.fn(self.players)}(S, me, None), key=lambda q: (q - leader) % n)"]),
                  f"        k = {g.value(self.plays)}",
                  f"        if k.__class__ is not int or not 0 < k <= {cards}:",
                  f"            {g.fn(rounds)}(k, {cards})   # (raises)",
                  f"        frame[{ORDER}] = order = seats if k == 1 else seats * k",   # (POS 0 and PLAYED None since enter or W)
                  f"    player = order[frame[{POS}]]",
                  f"    hand = {hand}[{item_read(state_read('tm'), 'player') if self.hand_by_team else 'player'}]"]
        lines += self._options(g, "    ")
        lines += ["    if not options:   # nothing left to play: the trick goes on without this seat",
                  f"        if frame[{PLAYED}] is None:   # (the seats that played are no longer the order's first ones)",
                  f"            frame[{PLAYED}] = list(order[:frame[{POS}]])",
                  f"        frame[{POS}] += 1",
                  f"        if frame[{POS}] >= len(order):",
                  f"            W{self.index}(S, frame)",
                  "        return None",
                  f"    {state_write('dec', self._offered())}",
                  "    return U"]
        return "\n".join(lines) + "\n\n" + self._finish_source(g)

    def _offered(self) -> str:
        """Source of the question asked of ``player`` with ``options``."""
        return "(player, tuple(options))" if self.unique_labels else \
            f"(player, tuple({state_read('rules')}.distinct_cards(options)))"

    def _options(self, g, pad, led=False, run=False):
        """Lines setting ``options``, the cards ``player`` may play from ``hand`` (``led``: the
        table is known to hold the led card; ``run``: and ``first, last`` are its run's)."""
        lines = []
        if self.follow_runs is not None and not g.plain:   # a hand in card order: the led value's cards are one slice
            lines += [f"table = {zone_ref(self.table)}", "if table:",
                      f"    first, last = {g.fn(self.follow_runs)}[table[0]]",
                      f"    i = {g.fn(bisect_left)}(hand, first)",
                      f"    j = {g.fn(bisect_right)}(hand, last, i)",
                      "    options = hand[i:j] if i != j else hand",   # (no empty list made when none follows)
                      "else:",
                      "    options = hand"]
        elif self.follow is not None:
            lines += [f"table = {zone_ref(self.table)}", "if table:",
                      f"    led = {g.key(self.follow, 'table[0]', 'table[0]')}",
                      f"    options = [c for c in hand if {g.key(self.follow, 'c', 'table[0]')} == led] or hand",
                      "else:",
                      "    options = hand"]
        else:
            lines.append("options = hand")
        if led and self.follow is not None:   # (the resolve's table, holding the card just played)
            lines = [x[4:] for x in lines[2 + run:-2]]
        if self.playable is not None:
            lines += ["if options:",
                      f"    table = {zone_ref(self.table)}",
                      f"    allowed = {g.fn(self.playable)}(S, player, {{'led': table[0] if table else None, "
                      f"'trick': table[:], 'tricks_played': frame[{DONE}]}}, options)",
                      "    if allowed:   # nothing playable: any card that follows",
                      "        options = allowed"]
        return [pad + x for x in lines]

    def resolve_source(self, g):
        owner = item_read(state_read("tm"), "player") if self.hand_by_team else "player"
        lines = [f"def Q{self.index}(S, frame, card):",
                 *owning({self.hand, self.table}),   # (written in place below)
                 f"    pos = frame[{POS}]",
                 f"    order = frame[{ORDER}]",
                 f"    player = {item_read('order', 'pos')}",   # (reads in the compiler's dialect: expr/names.py)
                 f"    hands = {zone_ref(self.hand)}",   # (play never puts another list in a zone's place)
                 *([f"    if {state_read('kn')} is not None:   # what the table learns of the hand, as its options read it",
                    f"        {g.fn(self.voided)}(S, {owner}, card)"] if self.records_voids(g.rules) else []),
                 f"    {list_take(item_read('hands', owner), 'card')}",
                 f"    table = {zone_ref(self.table)}"]
        runs = self.follow_runs is not None and not g.plain
        again = self.asks_again and g.runs_on
        runs_of = g.fn(self.follow_runs) if runs else ""
        if runs:   # the led card's run, read once: the void test (one run object a value) and the next seat's slice
            lines += ["    if table:",
                      f"        run = {item_read(runs_of, 'table[0]')}",
                      f"        void = {item_read(runs_of, 'card')} is not run",
                      "    else:",
                      *([f"        run = {item_read(runs_of, 'card')}"] if again else []),
                      "        void = False"]
        elif self.follow is not None:
            lines += ["    void = False", "    if table:",
                      f"        void = {g.key(self.follow, 'card', 'table[0]')} != {g.key(self.follow, 'table[0]', 'table[0]')}"]
        lines += ["    table.append(card)", *guard(self.table_max, self.table, "table", "    ", g)]
        if self.notify_table:
            lines.append(f"    {state_read('rules')}.triggers.entered(S, {self.table!r}, None, False, [card], player)")
        lines += [f"    if frame[{PLAYED}] is not None:   # (None: the order's seats up to the position played)",
                  f"        frame[{PLAYED}] = [*frame[{PLAYED}], player]   # replace, never mutate: clones share frame contents",
                  f"    if {state_read('kn')} is not None:",
                  f"        {g.fn(know)}(S, (card,), {self.hand!r}, {owner}, {self.table!r}, None)",
                  f"    if {state_read('ev')} is not None:",
                  f"        {state_read('ev')}.append({{'ev': 'play', 'who': player, 'from': {self.hand!r}, 'from_owner': {owner}, "
                  f"'to': {self.table!r}, 'cards': [card]}})"]
        hook = {"card": "card", "led": "table[0]", "trick": "table[:]", "tricks_played": f"frame[{DONE}]"}
        if self.on_play is not None:
            lines += g.effects(self.on_play, "player", "    ", self, hook)
        if self.follow is not None and self.on_void is not None:
            lines += ["    if void:", *g.effects(self.on_void, "player", "        ", self, hook)]
        lines += [f"    frame[{POS}] = pos = pos + 1",
                  "    if pos >= len(order):",
                  f"        W{self.index}(S, frame)"]
        if again:   # the next seat's question written in (R's lines) where no hook stopped it
            ran = [fn for fn in (self.on_play, self.on_void if self.follow is not None else None) if fn is not None]
            # (a hook that ran left the trick going: the game not ended, where one may end it)
            going = f"{'not ' + state_read('over') + ' and ' if any(map(g.may_end, ran)) else ''}{state_read('stack')}[-1] is frame"
            if self.on_play is not None:
                lines.append(f"    elif {going}:")
            elif self.follow is not None and self.on_void is not None:
                lines.append(f"    elif not void or {going}:")
            else:
                lines.append("    else:")
            pending = "return ASKED"   # (again: no forced move calls this resolve, FlowSource.runs_on)
            rerun = []   # (a hook that ran may have changed the table: its run read again)
            if runs and self.on_play is not None:
                rerun = [f"        run = {g.fn(self.follow_runs)}[table[0]]"]
            elif runs and self.on_void is not None:
                rerun = ["        if void:", f"            run = {g.fn(self.follow_runs)}[table[0]]"]
            if runs:
                rerun.append("        first, last = run")
            lines += [f"        player = {item_read('order', 'pos')}",
                      f"        hand = {item_read('hands', owner)}",
                      *rerun,
                      *self._options(g, "        ", led=True, run=runs),
                      "        if options:",
                      f"            {state_write('dec', self._offered())}",
                      f"            {state_add('steps', 1 + self.charge)}",
                      f"            if {state_read('steps')} > {g.max_steps}:",
                      "                _over_budget(S)",
                      f"            {pending}"]
        return "\n".join(lines)

    def _finish_source(self, g):
        """finish() specialised: the winner found in one pass over the trick."""
        owner = item_read(state_read("tm"), "winner") if self.collect_by_team else "winner"
        lines = [f"def W{self.index}(S, frame):",
                 *owning({self.table, self.collect}),   # (written in place below)
                 f"    table = {zone_ref(self.table)}",
                 "    if not table:",
                 f"        frame[{ORDER}] = None",
                 f"        frame[{DONE}] += 1",
                 f"        frame[{POS}] = 0",
                 f"        frame[{PLAYED}] = None",
                 "        return"]
        runs = self.follow_runs is not None and self.trump is None and not g.plain
        if runs:   # following: sharing the led card's run (one object a value, _runs)
            lines.append(f"    run = {g.fn(self.follow_runs)}[table[0]]")
        elif self.follow is not None:
            lines.append(f"    wanted = {g.key(self.follow, 'table[0]', 'table[0]')}")
            if self.trump is not None:
                lines += [f"    trump = {g.value(self.trump, g.me(self.me_var))}",   # (me: where the step stands)
                          "    for c in table:",
                          f"        if {g.key(self.follow, 'c', 'table[0]')} == trump:",
                          "            wanted = trump",
                          "            break"]
        if self.trump is None:   # the led card takes part: the best so far, the others compared with it
            lines += [f"    best, top = 0, {g.key(self.rank, 'table[0]', 'table[0]')}",
                      "    for i in range(1, len(table)):",
                      f"        c = {item_read('table', 'i')}"]
        else:
            lines += ["    best = -1", "    for i, c in enumerate(table):"]
        if runs:
            lines += [f"        if {g.fn(self.follow_runs)}[c] is not run:", "            continue"]
        elif self.follow is not None:
            lines += [f"        if {g.key(self.follow, 'c', 'table[0]')} != wanted:", "            continue"]
        lines += [f"        r = {g.key(self.rank, 'c', 'table[0]')}",
                  "        if r > top:   # the highest rank; of equal ones, the first played" if self.trump is None else
                  "        if best < 0 or r > top:   # the highest rank; of equal ones, the first played",
                  "            best, top = i, r",
                  f"    seats = frame[{PLAYED}]",   # (None: the order's first seats played)
                  f"    winner = {item_read(f'frame[{ORDER}]', 'best')} if seats is None else {item_read('seats', 'best')}",
                  "    cards = table[:]",
                  f"    win_card = {item_read('table', 'best')}",
                  "    table.clear()",
                  f"    zone = {zone_ref(self.collect)}[{owner}]",
                  "    zone.extend(cards)", *guard(self.collect_max, self.collect, "zone", "    ", g)]
        if self.collect_sorted:
            lines.append("    zone.sort()")
        if self.notify_collect:
            lines.append(f"    {state_read('rules')}.triggers.entered(S, {self.collect!r}, {owner}, {self.collect_by_team}, cards, winner)")
        lines += [f"    if {state_read('kn')} is not None:",
                  f"        {g.fn(know)}(S, cards, {self.table!r}, None, {self.collect!r}, {owner})",
                  f"    if {state_read('ev')} is not None:",
                  f"        {state_read('ev')}.append({{'ev': 'trick', 'winner': winner, 'from': {self.table!r}, 'to': {self.collect!r}, "
                  f"'to_owner': {owner}, 'cards': cards}})"]
        if self.on_win is not None:
            hook = {"card": "win_card", "led": "cards[0]", "trick": "cards", "tricks_played": f"frame[{DONE}]"}
            lines += g.effects(self.on_win, "winner", "    ", self, hook)
        lines += [f"    frame[{DONE}] += 1",
                  f"    frame[{LEADER}] = winner",
                  f"    frame[{ORDER}] = None",
                  f"    frame[{POS}] = 0",
                  f"    frame[{PLAYED}] = None"]
        return "\n".join(lines)


    def records_voids(self, rules) -> bool:
        """Whether a card that does not follow is recorded (``voids_seen``), unless the follow
        key reads what not every seat sees (engine/sight.py ``reads_unseen``): the cards it
        names would tell of it. Asked as the code is written (the ruleset's visibility known)."""
        follow = self.follow
        return self.voids_seen and not (getattr(follow, "reads_state", False) and reads_unseen(rules, follow))

    def voided(self, S, owner, card) -> None:
        """``card`` is played from ``owner``'s hand (still in it: the state its options were
        read in). When it does not follow the led card, it was offered only because the hand
        held no card that follows (``_options``: ``playable:`` narrows the cards that follow,
        never widens them), so every seat that sees the table learns the hand holds none of the
        cards whose follow value is the led card's (engine/voids.py). Called where
        ``records_voids``."""
        table, follow, kept = S.zone(self.table), self.follow, self.void_kept
        if not table or follow is None:
            return
        if kept is None or kept[0] is not S.rules:
            index = None if getattr(follow, "reads_state", False) else follow_index(follow, len(S.rules.card_labels))
            kept = self.void_kept = (S.rules, index)
        cards = led_cards(S, follow, kept[1], table[0], card)
        if cards:
            record(S, self.hand, owner, cards, self.table)


def _runs(follow):
    """For each card, the (first, last) card numbers of the cards sharing its ``follow`` value,
    when ``follow`` is a plain attribute whose every value is one run of consecutive card
    numbers (four suits of fifteen ranks); else None. In a hand kept in card order the cards
    that follow a card are then one slice, found by bisection. Each run is one tuple object,
    shared by its cards: two cards share a value when their runs are the same object."""
    table = getattr(follow, "__self__", None)
    if type(table) is not tuple or getattr(follow, "__name__", "") != "__getitem__":
        return None
    index = attribute_index(table)
    out = []
    one: dict = {}   # run -> the tuple its cards share
    for value in table:
        try:
            runs = index.get(value)
        except TypeError:      # an unhashable value
            return None
        if runs is None or len(runs) != 1:
            return None
        out.append(one.setdefault(runs[0], runs[0]))
    return tuple(out)
