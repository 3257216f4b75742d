"""Random small flows played in lockstep (tests/fuzzing/lockstep.py): a valid ruleset on chips
(attributes n and m, a shared ``pool``, a shared ``heap`` and each seat's ``mine``, int variables
x y z, a counter ``points`` of each seat) whose ``flow:`` is a random tree of the constructs the
flow's generators specialise: sequences, ``turns`` (rounds or until), ``while``/``until``/
``repeat``, ``if`` steps, ``phase``, ``choose``, ``branch``, ``pick``, ``attempt`` with outcomes, and
effect lists (``set``, ``move``, ``gain``/``lose``, ``for_each``, ``if`` of effects, ``end_game``, declared
effects). Costly
conditions carry a budget charge, an expression raises now and then (``10 / (2 - z)``), and
``end_when:``, triggers and a step budget come sometimes. Every loop is bounded: by a variable of
its own that its body counts up, or by the pool, which only empties (cards go pool -> mine ->
heap), its body moving a card out of it. The case's ruleset is checked by playing it both ways
(``run_lockstep``), as the mutated bundled ones are.
"""
from __future__ import annotations

import random

import yaml

from .rulesets import _DUMPER, Case

# declared effects: with a parameter, moving cards, acting for the seat (called in turns only)
DECLARED = {"bump": {"params": {"k": "int"}, "do": [{"set": {"x": "(x + k) % 5"}},
                                                      {"if": "x == 3", "then": [{"set": {"z": "(z + 1) % 4"}}]}]},
            "shift": {"do": [{"move": {"from": "pool", "to": "heap", "count": 1}}, {"set": {"y": "y + 1"}}]},
            "award": {"do": [{"gain": {"counter": "points", "amount": 1}},
                             {"if": "points > 3", "then": [{"set": {"y": "10 // (2 - z)"}}]}]},
            # effects calling effects, with items that raise often (a division by 3 - x, x moved by
            # bump; a move of a card not in the zone it is taken from): an error inside a declared
            # effect, located at its item and the items that called it, both ways alike
            "relay": {"params": {"k": "int"}, "do": [{"bump": {"k": "k"}}, {"set": {"y": "y + 12 // (3 - x)"}}]},
            "cascade": {"do": ["shift", {"if": "y % 2 == 0", "then": [{"relay": {"k": "1 + y % 3"}}]}]},
            "fetch": {"do": [{"set": {"c": "first(heap) if z == 1 else last(pool)"}},
                             {"move": {"from": "pool", "to": "heap", "cards": "[c]"}}]},
            "sweep": {"do": [{"for_each": {"in": "heap where n < 3", "as": "it",
                                           "do": [{"relay": {"k": "it.n"}}, "fetch"]}}]}}
NESTED = ("relay", "cascade", "fetch", "sweep")
BUDGETS = (5, 8, 13, 20, 40, 80, 150, 300, 600, 1200, 2500, 4000)
# conditions that cost more than a step's free work: the step carrying them is charged
COSTLY = ("count(pool where n + m > 2) > 0", "count(pool where n * m > 3 and n + m < 17) > 1",
          "sum(map(pool, to: n + m)) > 40", "any(pool, by: n + m == 9)")
CHEAP = ("x > 1", "y < 2", "z == 1", "x + y > 2", "count(pool) > 10", "count(mine) > 0", "points > 1", "c in heap",
         "z != 2", "x == y")
RAISING = ("10 / (2 - z) > 3", "x + 10 / (2 - z) < 6", "[1, 2, 3][x] > 1", "10 // (y - 2) < 4")


class FlowGen:
    """One random ruleset: ``text()`` writes it, ``what`` says in a few words what it holds."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd
        self.loops = 0          # loop variables l0, l1...: one a bounded loop
        self.what: set = set()
        self.decisions = 0      # a rough count of the decisions written (to keep games short)

    # ------------------------------------------------------------------ pieces
    def cond(self, in_turn: bool) -> str:
        r = self.rnd.random()
        if r < 0.2:
            self.what.add("costly")
            return self.rnd.choice(COSTLY)
        if r < 0.35:
            self.what.add("raising")
            return self.rnd.choice(RAISING)
        c = self.rnd.choice(CHEAP if in_turn else [c for c in CHEAP if "points" not in c and "mine" not in c])
        return c

    def who(self, in_turn: bool):
        r = self.rnd.random()
        if r < 0.15:
            self.what.add("who-none")
            return "none if x > 1 else 0" if self.rnd.random() < 0.5 else "none"
        if in_turn and r < 0.7:
            return None     # me
        return self.rnd.choice(["0", "1", "left(0)" if in_turn else "1"])

    def effect(self, in_turn: bool, depth: int = 0) -> dict:
        rnd = self.rnd
        kinds = ["set", "set", "move", "move", "for_each", "if", "end_game", "declared"]
        if in_turn:
            kinds += ["gain", "lose", "move_mine", "declared"]
        kind = rnd.choice(kinds if depth < 2 else [k for k in kinds if k not in ("for_each", "if")])
        if kind == "set":
            var = rnd.choice("xyz")
            value = rnd.choice({"x": ["x + 1", "0", "(x + 2) % 5"], "y": ["y + 1", "x", "0"],
                                "z": ["(z + 1) % 4", "z + 1", "0" if rnd.random() < 0.3 else "z + 1"]}[var])
            if rnd.random() < 0.25:
                self.what.add("raising")
                value = rnd.choice(["x + 10 // (2 - z)", "[1, 2, 3][x] + y"]) if var != "z" else "(z + 10 // (2 - z)) % 4"
            return {"set": {var: value}}
        if kind in ("move", "move_mine"):
            src, dst = ("mine", "heap") if kind == "move_mine" and rnd.random() < 0.5 else (
                ("pool", rnd.choice(["mine", "heap"]) if in_turn else "heap"))
            move = {"from": src, "to": dst}
            r = rnd.random()
            if r < 0.5:
                move["count"] = rnd.choice([1, 1, 2, "1 + z % 2"])
            elif r < 0.8:
                move["cards"] = rnd.choice([f"{src} where n > 5", f"{src} where n + m == 7", f"[first({src})]"
                                            if rnd.random() < 0.3 else f"{src} where m < 3"])
                if rnd.random() < 0.5:
                    move["count"] = rnd.choice([1, 2])
                if move["cards"].startswith("[first"):
                    move["cards"] = f"{src} where n > 0"
            else:
                move["count"] = 1
            return {"move": move}
        if kind == "declared":   # a declared effect (DECLARED), written in where it is called
            self.what.add("declared")
            name = rnd.choice(["bump", "shift"] + (["award"] if in_turn else []) + ["nested"])
            if name == "nested":   # an effect calling effects
                self.what.add("nested")
                name = rnd.choice(NESTED)
                return {"relay": {"k": rnd.choice([1, 2])}} if name == "relay" else name
            return {"bump": {"k": rnd.choice([1, 2, "y % 3"])}} if name == "bump" else name
        if kind == "gain":
            return {"gain": {"counter": "points", "amount": rnd.choice([1, 2, "x % 3"])}}
        if kind == "lose":
            return {"lose": {"counter": "points", "amount": rnd.choice([1, "y % 2"])}}
        if kind == "for_each":
            self.what.add("for_each")
            zone = rnd.choice(["heap", "pool where n < 3"] + (["mine"] if in_turn else []))
            body = [rnd.choice([{"set": {"y": "y + 1"}}, {"set": {"x": "(x + it.n) % 7"}},
                                {"if": "it.n > 4", "then": [{"set": {"z": "(z + 1) % 4"}}]}])]
            if in_turn and rnd.random() < 0.4:
                body.append({"gain": {"counter": "points", "amount": 1}})
            return {"for_each": {"in": zone, "as": "it", "do": body}}
        if kind == "if":
            fx = {"if": self.cond(in_turn), "then": [self.effect(in_turn, depth + 1) for _ in range(rnd.randint(1, 2))]}
            if rnd.random() < 0.4:
                fx["else"] = [self.effect(in_turn, depth + 1)]
            return fx
        self.what.add("end_game")
        return {"if": rnd.choice(["x > 3 and y > 3", "count(heap) > 12", "z == 3 and x == 4", "y > 6"]),
                "then": [{"end_game": True}]}

    def effects(self, in_turn: bool) -> list:
        return [self.effect(in_turn) for _ in range(self.rnd.choice([1, 1, 2, 3]))]

    # ------------------------------------------------------------------ steps
    def choose(self, in_turn: bool) -> dict:
        rnd = self.rnd
        self.decisions += 1
        step = {"options": rnd.choice(["[1, 2]", "[1, 2, 3]", "[]", "[1, 2] where x > 1", "0..2",
                                       "[x, x + 1]", "[1, 2] where " + rnd.choice(COSTLY),
                                       "[1, 2] where 10 / (2 - z) > 0"]),
                "as": rnd.choice("xyz")}
        if "10 /" in step["options"]:
            self.what.add("raising")
        if "where count" in step["options"] or "where sum" in step["options"] or "where any" in step["options"]:
            self.what.add("costly")
        w = self.who(in_turn)
        if w is not None:
            step["who"] = w
        elif not in_turn:
            step["who"] = "0"
        if rnd.random() < 0.5:
            step["if_none"] = rnd.choice(["skip", "pass", "end_game"])
        if step["as"] == "z" or (step.get("if_none") == "pass"):
            step["as"] = rnd.choice("xy")    # z moves on its own; a variable made none reads badly
            if step.get("if_none") == "pass":
                step["if_none"] = "skip"
        if rnd.random() < 0.3:
            step["then"] = self.effects(in_turn)
        return {"choose": step}

    def pick(self, in_turn: bool) -> dict:
        rnd = self.rnd
        self.decisions += 2
        src = rnd.choice(["pool", "pool", "mine"]) if in_turn else "pool"
        dst = ("mine" if src == "pool" and in_turn and rnd.random() < 0.6 else "heap")
        step: dict = {"from": src, "to": dst}
        r = rnd.random()
        if r < 0.4:
            step["count"] = rnd.choice([1, 2, "1 + x % 2"])
        elif r < 0.8:
            step["min"], step["max"] = rnd.choice([(0, 1), (1, 2), (0, 2)])
        else:
            step["max"] = 1
        if rnd.random() < 0.4:
            step["where"] = rnd.choice(["n > 3", "n + m > 6", "count(picked) == 0 or n > first(picked).n"])
        w = self.who(in_turn)
        if w is not None:
            step["who"] = w
        elif not in_turn:
            step["who"] = "0"
        if src == "mine" and "who" in step:
            step.pop("who")   # mine is the picker's own: me
        if rnd.random() < 0.4:
            step["if_none"] = rnd.choice(["skip", "end_game"])
        if rnd.random() < 0.3:
            step["then"] = [{"set": {"y": "y + card.n % 3"}}]
        return {"pick": step}

    def attempt(self, in_turn: bool) -> dict:
        rnd = self.rnd
        self.what.add("attempt")
        self.decisions += 1
        step: dict = {"as": "r"} if rnd.random() < 0.6 else {}
        if rnd.random() < 0.6:
            r = rnd.random()   # (a union of shared zones: a view where both are recorded, building/record.py)
            step["target"] = {"from": "pool where n > 2" if r < 0.4 else "pool" if r < 0.7 else "pool + heap", "as": "c"}
            if r >= 0.7:
                self.what.add("union")
            self.decisions += 1
        if not in_turn or rnd.random() < 0.2:
            step["who"] = rnd.choice(["0", "1", "none if x > 1 else 1"])
            if in_turn:   # (its outcomes' steps may read me: they act for the seat that attempted)
                step["actor"] = "thrower"
        chance = rnd.choice(["0.3", "0.5", "0.2 if x > 1 else 0.4",
                             "0.3 if " + rnd.choice(COSTLY) + " else 0.1"])
        outcomes: dict = {"slip": {"chance": chance}}
        if rnd.random() < 0.5:
            outcomes["slip"]["steps"] = self.effects(in_turn)
        mid: dict = {"chance": rnd.choice(["0.1", "0.2"])}
        if rnd.random() < 0.5:
            mid["if"] = self.cond(in_turn)
        r = rnd.random()
        if r < 0.4:
            mid["steps"] = self.effects(in_turn)
        elif r < 0.7:
            mid["steps"] = [self.choose(in_turn)]
        outcomes["half"] = mid
        take: dict = {"chance": "rest"} if rnd.random() < 0.7 else {"chance": "0.3"}
        if rnd.random() < 0.3:
            take["if"] = "count(pool) > 2"
        if "target" in step:
            take["steps"] = [{"move": {"from": "pool", "to": "heap", "cards": "[c] where c != none and c in pool"}}]
            if rnd.random() < 0.4:
                take["steps"].append(self.effect(in_turn))
        else:
            take["steps"] = self.effects(in_turn)
        outcomes["take"] = take
        step["outcomes"] = outcomes
        return {"attempt": step}

    def branch(self, depth: int, in_turn: bool) -> dict:
        rnd = self.rnd
        self.what.add("branch")
        self.decisions += 1
        options: dict = {}
        for name in rnd.sample(["draw", "score", "wait", "think"], rnd.randint(1, 3)):
            option: dict = {}
            if rnd.random() < 0.5:
                option["if"] = self.cond(in_turn)
            if rnd.random() < 0.7:
                option["steps"] = (self.steps(depth + 1, in_turn) if depth < 3 and rnd.random() < 0.5
                                   else self.effects(in_turn))
            options[name] = option
        step: dict = {"options": options}
        if not in_turn:
            step["who"] = rnd.choice(["0", "1"])
        if rnd.random() < 0.4:
            step["if_none"] = rnd.choice(["skip", "end_game"])
        return {"branch": step}

    def bounded(self, body: list, in_turn: bool) -> tuple:
        """A loop's bound: (the effects before it, its key and value, the body with its count
        added). The body counts a variable of its own up, or moves a card out of the pool."""
        rnd = self.rnd
        if rnd.random() < 0.3:
            self.what.add("pool-loop")
            limit = rnd.choice([70, 75, 78])
            body.insert(rnd.randrange(len(body) + 1), {"move": {"from": "pool", "to": "heap", "count": 1}})
            kind = rnd.choice(["while", "until"])
            return [], kind, (f"count(pool) > {limit}" if kind == "while" else f"count(pool) <= {limit}"), body
        v = f"l{self.loops}"
        self.loops += 1
        k = rnd.randint(1, 3)
        body.insert(rnd.randrange(len(body) + 1), {"set": {v: f"{v} + 1"}})
        kind = rnd.choice(["while", "until"])
        cond = f"{v} < {k}" if kind == "while" else f"{v} >= {k}"
        if rnd.random() < 0.25:
            cond = (f"{cond} and " if kind == "while" else f"{cond} or not ") + f"({rnd.choice(COSTLY)})"
            self.what.add("costly")
        return [{"set": {v: 0}}], kind, cond, body

    def steps(self, depth: int, in_turn: bool) -> list:
        return [self.step(depth, in_turn) for _ in range(self.rnd.choice([1, 1, 2, 2, 3]))]

    def step(self, depth: int, in_turn: bool):
        """One item of a flow: a step, or an effect list's effect (several in a row are run
        as one list)."""
        rnd = self.rnd
        heavy = depth < 4 and self.decisions < 30
        kinds = ["effect", "effect", "choose", "choose", "pick", "attempt", "branch"]
        if heavy:
            kinds += ["loop", "loop", "if", "phase", "repeat"] + ([] if in_turn else ["turns", "turns"])
        kind = rnd.choice(kinds)
        if kind == "effect":
            return self.effect(in_turn)
        if kind == "choose":
            return self.choose(in_turn)
        if kind == "pick":
            return self.pick(in_turn)
        if kind == "attempt":
            return self.attempt(in_turn)
        if kind == "branch":
            return self.branch(depth, in_turn)
        if kind == "phase":
            return {"phase": rnd.choice(["early", "late"]), "steps": self.steps(depth + 1, in_turn)}
        if kind == "if":
            self.what.add("if-step")
            step = {"if": self.cond(in_turn), "then": self.steps(depth + 1, in_turn)}
            if rnd.random() < 0.5:
                step["else"] = self.steps(depth + 1, in_turn)
            return step
        if kind == "repeat":
            return {"repeat": rnd.randint(1, 3), "steps": self.steps(depth + 1, in_turn)}
        if kind == "turns":
            self.what.add("turns")
            turns: dict = {}
            body = self.steps(depth + 1, True)
            if rnd.random() < 0.6:
                turns["rounds"] = rnd.randint(1, 2)
            else:
                v = f"l{self.loops}"
                self.loops += 1
                body.insert(rnd.randrange(len(body) + 1), {"set": {v: f"{v} + 1"}})
                turns["until"] = f"{v} >= {rnd.randint(1, 4)}"
                if rnd.random() < 0.3:
                    self.what.add("costly")
                    turns["until"] += f" or not ({rnd.choice(COSTLY)})"
                if rnd.random() < 0.3:
                    turns["from"] = rnd.choice(["1", "z % 2"])
                turns["steps"] = body
                return {"phase": "play", "steps": [{"set": {v: 0}}, {"turns": turns}]}
            if rnd.random() < 0.2:
                turns["skip"] = "points > 2"
            turns["steps"] = body
            return {"turns": turns}
        self.what.add("loop")
        before, key, cond, body = self.bounded(self.steps(depth + 1, in_turn), in_turn)
        loop = {key: cond, "steps": body}
        return {"phase": "loop", "steps": [*before, loop]} if before else loop

    # ------------------------------------------------------------------ the ruleset
    def data(self) -> dict:
        rnd = self.rnd
        flow = self.steps(0, False)
        if not any(isinstance(s, dict) and "turns" in s for s in flow) or rnd.random() < 0.5:
            flow.append(self.step(1, False) if rnd.random() < 0.3 else
                        {"turns": {"rounds": rnd.randint(1, 2), "steps": self.steps(2, True)}})
        data: dict = {"game": "flowfuzz", "players": {"min": 2, "max": 3},
                      "components": {"chips": {"attributes": {"n": "1..9", "m": "1..9"}}},
                      "zones": {"pool": {"owner": "none", "visible": "all", "start": ["chips"]},
                                "heap": {"owner": "none", "visible": "all"},
                                "mine": {"owner": "player", "visible": "all"}},
                      "counters": {"points": {"owner": "player"}},
                      "vars": {**{v: {"type": "int", "start": 0} for v in "xyz"}, "r": "str", "c": "card",
                               **{f"l{i}": {"type": "int", "start": 0} for i in range(self.loops)}},
                      "effects": DECLARED, "flow": flow}
        if rnd.random() < 0.35:
            self.what.add("end_when")
            data["end_when"] = [rnd.choice(["x > 3 and y > 2", "count(heap) > 9", "z == 3", "y > 5",
                                            "count(pool where n + m > 16) == 0"])]
        if rnd.random() < 0.3:
            self.what.add("triggers")
            triggers = {}
            if rnd.random() < 0.6:
                triggers["got"] = {"on_enter": "mine", "do": [{"gain": {"counter": "points", "amount": 1}}]}
                if rnd.random() < 0.5:
                    triggers["got"]["if"] = "card.n > 4"
            if not triggers or rnd.random() < 0.5:
                triggers["many"] = {"when": rnd.choice(["y > 2", "x + y > 4", "z == 3"]), "do": [{"set": {"y": 0}}]}
                if rnd.random() < 0.3:
                    triggers["many"] = {"when": "points > 2", "per_player": True,
                                        "do": [{"lose": {"counter": "points", "amount": 2}}]}
            data["triggers"] = triggers
        if rnd.random() < 2 / 3:   # (a for_each over a zone of the 81 chips may count some 80 to 400 steps a run:
            # a step holding one is refused at load under a budget it cannot fit, so such a case's budget is 600 or more)
            looped = "for_each" in str(data["flow"]) or "sweep" in str(data["flow"])
            data["limits"] = {"steps": rnd.choice([b for b in BUDGETS if b >= 600 or not looped]) + rnd.randrange(8)}
            self.what.add(f"budget {data['limits']['steps']}")
        data["scoring"] = {"categories": {"p": "points", "chips": "count(mine)"}}
        return data


def make_flow_case(rnd: random.Random) -> Case:
    """A small valid ruleset with a random flow (``FlowGen``), its game's seed, and what it
    holds in a few words (``mutations``)."""
    gen = FlowGen(rnd)
    text = yaml.dump(gen.data(), Dumper=_DUMPER, sort_keys=False, allow_unicode=True)
    return Case({"flow.yaml": text}, "flow.yaml", seed=rnd.randrange(1 << 30), mutations=[", ".join(sorted(gen.what))])
