"""The keys of a scenario, of its patches and of its actions: one table each.

The scenario runner refuses a key no table names (a misspelt ``expcet:``, located, with a
did-you-mean), and the reference's table under "Scenario tests" is written from them
(``python -m interpreter.tools.schema_gen``)."""
from __future__ import annotations

from ...mechanics.contract import Key, key_names

PATCH_KEYS: tuple[Key, ...] = (
    Key("zones", "mapping ZONE: cards",
        "Each zone's exact cards by label: a shared zone a list, an owned one {owner: list} (a seat, a team "
        "index, or a card's label); a card pushed out goes back to the zone its component starts in."),
    Key("counters", "mapping COUNTER: values",
        "One number for every owner, a list of one per owner, or {owner: number} for some; a family's "
        "counters by their names (metal.gold)."),
    Key("vars", "mapping VARIABLE: value", "Variables' values (a card by its label, a seat by its number), "
        "each checked against its declared type as a saved state's are (a card, seat or team that exists)."))

ACTION_KEYS: tuple[Key, ...] = (
    Key("seat", "seat", "The seat that must be asked; the scenario fails if another is."),
    Key("action", "label", "The option it takes.", required=True))   # (an entry of actions: as a mapping)

SCENARIO_KEYS: tuple[Key, ...] = (
    Key("name", "text", "What the scenario proves (a failure is reported by it).", default="scenario N"),
    Key("rule", "text", "The rule it proves (free text: a ruling id, a rulebook sentence)."),
    Key("players", "integer", "The player count.", default="the ruleset's least"),
    Key("seed", "integer", "The game's seed.", default=0),
    Key("variant", "name", "One of the ruleset's variants, or a variant file found as ruleset: is (--variant)."),
    Key("params", "mapping NAME: value", "Parameter values in effect (as --set)."),
    Key("deal", "mapping ZONE: cards",
        "Cards the opening shuffle deals to these places, written like a patch's zones; the seed's draws stay "
        "the same."),
    Key("patch", "mapping", "Zones, counters and variables set at the first decision.", keys=PATCH_KEYS),
    Key("actions", "list",
        "The moves in order: a label; {seat: N, action: L}, which also checks the seat; {patch: {...}} to patch "
        "again mid-way; {expect: [...]} to check expressions mid-way."),
    Key("expect", "list of expressions", "Expressions (no me) that must hold at the end."),
    Key("scores", "list of numbers", "Each seat's score at the end."),
    Key("winners", "list of seats", "The winners at the end."),
    Key("over", "`true` / `false`", "Whether the game is over at the end."),
    Key("legal", "list of labels", "The legal actions at the end, in any order."),
    Key("prompt", "text", "The prompt pending at the end."),
    Key("current", "seat", "The seat to act at the end."),
    Key("illegal", "label", "An action that must be refused at the end."),
    Key("refused", "text", "The game must not start, with this in its message (a wrong player count)."),
    Key("skill", "number or list", "The seats' skill, passed to the game as its option (attempt)."),
    Key("resolve", "`random` / `ask`", "How attempts resolve, passed to the game as its option."))

SCENARIO_NAMES = key_names(SCENARIO_KEYS)
PATCH_NAMES = key_names(PATCH_KEYS)
ACTION_NAMES = key_names(ACTION_KEYS)
