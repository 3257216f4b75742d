"""A ruleset's parameters at load: each one's type, from its values in the games of the player
counts it has (engine/params.py), its values checked against its declaration (``type:``,
``min:``, ``max:``, ``choices:``), a variant's bare value checked as an override, and the
warnings for ``by_players:`` entries no game reads. Mixed into Declarations
(building/declarations.py)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..errors import Diagnostic, UsageError, digits
from ..engine.params import (by_players, check_param, declared_type, held_length, held_texts, is_number, joined_type,
                             longest_text, misfit,
                             mixed, plain_value, quoted_number, read_entry, shape_of, unlike,
                             values_over, variant_counts)
from ..engine.param_bounds import param_chars, param_span
from ..expr.runtime import MAX_STORED
from ..expr.types import ANY, is_map

if TYPE_CHECKING:
    from ..expr import Names
    from ..loading.variants import Loaded


class ParamDeclarations:
    """Builder methods for ``params:`` (mixed into Declarations)."""
    # the Builder's (building/builder.py), which these read and fill
    diags: list[Diagnostic]
    names: Names
    loaded: Loaded
    error: Callable[..., None]
    count_error: Callable[..., None]
    warn: Callable[..., None]

    def params(self, spec, counts: list, reachable: set | None) -> dict:
        """Each parameter's type, from its values in games of ``counts`` players (the playable
        ones: engine/params.py), and its map keys; a playable count with no value is an error,
        a ``by_players:`` entry for a count no game of the ruleset plays (``reachable``: those
        of it and of its variants; None: not checked here) a warning."""
        out = {}
        for name, value in spec.items():
            if name in self.loaded.bare:
                value = self._bare_value(name, value, counts)
            table = by_players(value)
            if table is not None:
                self._param_counts(name, value, table, counts, reachable)
            vals = values_over(name, value, counts)
            self.names.params[name] = self._checked(name, value, vals)
            if is_map(self.names.params[name]):   # keys(params.NAME): each map's in the order written (the
                self.names.param_keys[name] = tuple(dict.fromkeys(tuple(v) for v in vals))   # game's, not JSON's)
            span = param_span(value, vals)
            if span is not None:
                self.names.param_spans[name] = span
            chars = param_chars(value, vals)
            if chars is not None:
                self.names.param_chars[name] = chars
            out[name] = value
        return out

    def _checked(self, name, spec, vals: list) -> str:
        """The type of parameter ``name``, its declaration (``spec``) and its values in games of the
        playable player counts (``vals``) checked in turn, the first fault one error where it is
        written and nothing after it checked (no error the side effect of another): each value
        plain data; where it declares no type or ``type: list``, its lists' elements of one type
        at every depth; its ``choices:`` a list of one value at least, plain data, of one type
        where the values are; without choices, its values for the player counts of one type; its
        type (the declared one, else its values' and choices' joined: 1 and 1.5 a num); each value
        of it, within ``min:`` and ``max:`` (where the values are numbers: a null is none) and one
        of its choices; the bounds numbers bounding a number parameter; each choice a value an
        override may give it in some game (``check_param``)."""
        d = spec if isinstance(spec, dict) else {}
        choices = d["choices"] if isinstance(d.get("choices"), list) else []
        one_type = d.get("type") in (None, "list")
        if not self._plain(name, spec, vals):
            return ANY
        try:   # (after an error, the type of its values: the rules that read it are checked against it)
            typ = declared_type(d, vals) or joined_type(vals)
            if not ((not one_type or self._uniform(name, spec, vals)) and self._choices_written(name, d, one_type)
                    and (choices or not one_type or self._one_type(name, spec, vals))):
                return typ
            typ = declared_type(d, [*vals, *choices]) or joined_type([*vals, *choices])
        except ValueError as e:
            self.error(str(e), ("params", name), "type")
            return ANY
        rest = {k: d[k] for k in ("min", "max") if is_number(d.get(k)) and all(is_number(v) for v in vals if v is not None)}
        if _whole(d.get("max_length")):   # (a text's; one of another kind: _param_bounds says why)
            rest["max_length"] = d["max_length"]
        allowed = {**rest, "choices": choices} if isinstance(d.get("choices"), list) else rest
        for v in vals:   # (a bound that is no number, or of no number parameter: _param_bounds)
            try:
                check_param(name, v, allowed, v, typ, read=False)
            except UsageError as e:
                at = _written_at(name, spec, v)
                if "max_length" in allowed and held_length(v) > allowed["max_length"]:
                    at = _overlaid_bound(self.loaded.smap, name, at, "max_length")   # (a variant's lower bound: there)
                self.error(e.message, at, "type", quoted_number(v, typ))
                return typ
        if self._param_bounds(name, d, vals):
            self._choices_fit(name, choices, rest, vals, typ)
        return typ

    def _plain(self, name, spec, vals: list) -> bool:
        """Whether each of the values is plain data, as a log and a saved state hold it (an error
        at the first that is not)."""
        for v in vals:
            try:
                plain_value(name, v)
                longest_text(name, v)
            except UsageError as e:
                self.error(e.message, _written_at(name, spec, v), "type")
                return False
        return True

    def _uniform(self, name, spec, vals: list) -> bool:
        """Whether each list in the values (``vals``) of parameter ``name`` has elements of one type
        at every depth (engine/params.py ``mixed``); else an error at the first element that does
        not fit those before it, in the value written (its ``by_players:`` entry, ``default:``...)."""
        for v in vals:
            found = mixed(name, v)
            if found is not None:
                self.error(found[1], (*_written_at(name, spec, v), *found[0]), "type", "a list's elements are of one type")
                return False
        return True

    def _one_type(self, name, spec, vals: list) -> bool:
        """Whether the values for each player count (``vals``) are of one type, the type its
        expressions read (``mixed``'s rule: 1 and 2.5 are numbers); else an error at the first that
        does not fit those before it, a variant's values after the ruleset's (``_by_variant``)."""
        if misfit(vals) is None:
            return True
        vals = sorted(vals, key=lambda v: self._by_variant(_written_at(name, spec, v)))   # (a variant's last)
        i = misfit(vals)
        if i is not None:
            self.error(f"parameter '{name}' is {shape_of(vals[:i])} for other player counts, got {vals[i]!r}",
                       _written_at(name, spec, vals[i]), "type", "a parameter has one type in every game")
        return i is None

    def _by_variant(self, path: tuple) -> bool:
        """Whether the part of the declarations at ``path`` is written by the variant applied (the
        overlay under ``variants:``, or its file), not by the ruleset: an error a variant's value
        causes, beside the ruleset's own, is at the variant's value."""
        entries, variant = self.loaded.smap.entries(), self.loaded.variant
        entry = entries.get(path)
        if variant is None or entry is None:
            return False
        if variant in (self.loaded.data.get("variants") or {}):
            return any(e is entry for p, e in entries.items() if p[:2] == ("variants", variant))
        return Path(entry.file.path).resolve() == Path(variant).resolve()

    def _choices_written(self, name, spec: dict, one_type: bool) -> bool:
        """Whether ``choices:`` (where a list: the schema says what else is wrong) lists one value
        at least, each plain data, and, where the parameter declares no type or ``type: list``, its
        lists' elements of one type at every depth and the choices of one type, as its values for
        the player counts are; else an error at the first that is not."""
        choices = spec.get("choices")
        if not isinstance(choices, list):
            return True
        if not choices:
            self.error("choices: lists no value (a parameter with choices: takes one of them)", ("params", name, "choices"),
                       "type", "list the values it may take, or leave choices: out")
            return False
        for i, choice in enumerate(choices):
            try:
                plain_value(name, choice)
            except UsageError as e:
                self.error(f"choices: {e.message}", ("params", name, "choices", i), "type")
                return False
            found = mixed(name, choice) if one_type else None
            if found is not None:
                self.error(found[1], ("params", name, "choices", i, *found[0]), "type", "a list's elements are of one type")
                return False
        odd = unlike(name, choices) if one_type else None
        if odd is not None:
            self.error(f"choices: {odd[1]}", ("params", name, "choices", odd[0]), "type", "a parameter's choices are of one type")
        return odd is None

    def _bare_value(self, name, spec: dict, counts: list) -> dict:
        """The declaration of a parameter an overlay gave a bare value (loading/variants.py),
        that value checked as ``--set`` checks an override: against the declaration's type,
        bounds and choices and each value it replaced (in games of ``counts`` players), of
        their type and its choices' where the declaration names none; its maps put in the order
        of those replaced. Where it replaced none (a ``by_players:`` with no entry for those counts, no
        ``default:``), against the type and bounds of any value of the declaration, as written.
        After an error, located at the overlay's value, the declaration it replaced (so the rules
        that read the parameter are checked against the type they were written for; one of its
        values its default where it has none for those counts: no second error)."""
        replaced, loc = self.loaded.bare[name]
        olds = values_over(name, replaced, counts)
        every, typ = olds or values_over(name, replaced, []), None   # (none for these counts: any one's type)
        try:
            choices = replaced.get("choices")
            joins = [*every, *(choices if isinstance(choices, list) else ())]   # (its values' and choices' type)
            typ = declared_type(replaced, joins) or (joined_type(joins) if joins else None)
            checked = [check_param(name, spec["default"], spec, old, typ, read=False) for old in olds]
            if not olds:   # (as written: no value replaced whose order it takes)
                check_param(name, spec["default"], spec, None, typ, read=False)
        except (ValueError, UsageError) as e:
            self.count_error(loc)
            self.diags.append(Diagnostic(e.message if isinstance(e, UsageError) else str(e), loc, "type",
                                         hint=quoted_number(spec["default"], typ)))
            return replaced if olds or not every else {**replaced, "default": every[0]}
        return {**spec, "default": checked[0]} if checked else spec

    def _param_counts(self, name, spec, table: dict, counts: list, reachable: set | None) -> None:
        missing = [n for n in counts if str(n) not in table]
        if missing and "default" not in spec:
            self.error(f"parameter '{name}' has no value for {', '.join(map(str, missing))} players "
                       f"(by_players: {', '.join(table) or 'none'})", ("params", name, "by_players"), "params",
                       "give it a default: for the other player counts")
        for key in table if reachable is not None else ():
            self._unread_entry(name, key, reachable or set(), ("params", name, "by_players", key), "this ruleset")

    def variant_params(self, data: dict) -> None:
        """Each ``by_players:`` entry a variant declared in the ruleset writes itself, checked
        against the player counts of that variant's games, as the ruleset's are against its own."""
        for variant, counts in variant_counts(data).items():
            params = data["variants"][variant].get("params")
            for name, spec in (params.items() if isinstance(params, dict) else ()):
                table = by_players(spec)
                for key in table if isinstance(table, dict) else ():
                    self._unread_entry(name, key, set(counts), ("variants", variant, "params", name, "by_players", key),
                                       f"variant {variant}")

    def _unread_entry(self, name: str, key, reachable: set, path: tuple, whose: str) -> None:
        """A warning at a ``by_players:`` entry no game reads: a count none of ``whose`` games has
        (``reachable``), or one not written plainly (``02``)."""
        if read_entry(key) and int(key) in reachable:
            return
        if digits(str(key)) and int(key) in reachable:
            self.warn(f"parameter '{name}': no game reads the entry {key} (a game of {int(key)} players reads "
                      f"the entry {int(key)})", path, "params")
            return
        have = sorted(reachable)
        have_text = (f"{have[0]} to {have[-1]}" if len(have) > 1 and have == list(range(have[0], have[-1] + 1))
                     else ", ".join(map(str, have))) if have else "none"
        self.warn(f"parameter '{name}': no game of {whose} has {key} players (its games: {have_text})", path, "params")

    def _param_bounds(self, name, spec: dict, values) -> bool:
        """Whether min: and max: bound a number parameter, with numbers (else an error at the bound);
        max_length: bounds a text parameter, or the strings a list or map parameter holds."""
        if "max_length" in spec and any(held_texts(v) is None for v in values):
            self.error(f"max_length: bounds a text parameter, or the strings a list or map parameter holds, and '{name}' "
                       "holds values that are not strings", ("params", name, "max_length"), "type", "remove the bound")
        elif isinstance(spec.get("max_length"), float):   # (40.0: the schema's integer; 40 meant, or a mistake)
            self.error(f"max_length: takes a whole number of characters, got {spec['max_length']!r}",
                       ("params", name, "max_length"), "type", f"write {int(spec['max_length'])}"
                       if spec["max_length"].is_integer() else "a whole number, 0 to 100,000")
        for bound in ("min", "max"):
            if bound not in spec:
                continue
            if not is_number(spec[bound]):
                self.error(f"{bound}: takes a number, got {spec[bound]!r}", ("params", name, bound), "type")
                return False
            odd = next((v for v in values if v is not None and not is_number(v)), None)
            if odd is not None and self._by_variant(_written_at(name, spec, odd)) and not self._by_variant(("params", name, bound)):
                self.error(f"parameter '{name}' expects a number, got {odd!r}", _written_at(name, spec, odd), "type",
                           f"its {bound}: bounds a number")
                return False
            if odd is not None:
                self.error(f"{bound}: bounds a number parameter, and '{name}' is not a number",
                           ("params", name, bound), "type", "remove the bound, or use choices: for a list of values")
                return False
        return True

    def _choices_fit(self, name, choices: list, bounds: dict, vals: list, typ: str) -> bool:
        """Whether each choice is a value an override may give the parameter in some game, as
        ``--set`` checks one against the value it replaces (one of ``vals``; itself where none):
        of its type ``typ``, within its ``bounds`` (where numbers bound it), a map with the keys
        of the map it replaces (a null: always, as a choice); else an error at the first that is not."""
        for i, choice in enumerate(choices):
            why = []
            for v in vals or [choice]:
                try:
                    check_param(name, choice, {**bounds, "choices": choices}, v, typ, read=False)
                    break
                except UsageError as e:
                    why.append(e.message)
            else:
                longest = held_length(choice)
                within = ("within its max_length:" if longest > bounds.get("max_length", longest) else
                          f"no string longer than {MAX_STORED:,} characters" if longest > MAX_STORED else "within its min: and max:")
                self.error(f"choices: {why[0]}", ("params", name, "choices", i), "type",
                           quoted_number(choice, typ) or f"each choice is a value the parameter may take: of its type, {within}")
                return False
        return True


def _written_at(name: str, spec: dict, value) -> tuple:
    """Where a value of a parameter's declaration (one ``values_over`` gives) is written: its
    ``by_players:`` entry, its ``default:`` or ``value:`` (the declaration, were it none)."""
    if not isinstance(spec, dict):   # (a bare value: the declaration is the value)
        return ("params", name)
    table = by_players(spec) or {}
    key = next((k for k, v in table.items() if v is value), None)
    if key is not None:
        return ("params", name, "by_players", key)
    return next((("params", name, k) for k in ("default", "value") if k in spec and spec[k] is value), ("params", name))


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _overlaid_bound(smap, name: str, at: tuple, bound: str) -> tuple:
    """Where an error of a value (at ``at``) past a parameter's ``bound`` is reported: at the
    bound where an overlay (a variant) wrote it into a declaration whose value it did not write
    (the overlay's declaration is the one the merged map names); else at the value."""
    decl, bound_at, value_at = smap.loc(("params", name)), smap.loc(("params", name, bound)), smap.loc(at)
    if decl is None or bound_at is None or value_at is None or bound_at.path != decl.path:
        return at
    overlaid = value_at.path != decl.path or (value_at.line, value_at.col) < (decl.line, decl.col)
    return ("params", name, bound) if overlaid and (bound_at.line, bound_at.col) >= (decl.line, decl.col) else at
