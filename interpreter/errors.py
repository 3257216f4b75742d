"""Located diagnostics and the exception hierarchy.

Every user-facing error is located (design principle 7): it carries a `Diagnostic` with a
`path:line:col`, and formats the offending source line with a caret under the column.
"""
from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, replace
from typing import Iterable, NamedTuple


class Location(NamedTuple):
    path: str
    line: int  # 1-based
    col: int   # 1-based

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


# Source texts by path, so a diagnostic can quote its line without carrying the text around.
_SOURCES: dict[str, list[str]] = {}
# The line breaks YAML itself recognises, so line numbers agree with the parser's.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


def register_source(path: str, text: str) -> None:
    _SOURCES[str(path)] = LINE_BREAK.split(text)


def source_line(path: str, line: int) -> str | None:
    lines = _SOURCES.get(str(path))
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


@dataclass
class Diagnostic:
    message: str
    loc: Location | None = None
    code: str = "generic"     # stable kebab-case code: "yaml-syntax", "unknown-key", "limit"...
    severity: str = "error"   # "error" or "warning"
    hint: str | None = None
    span: int = 1             # caret length
    # the items that called the declared effect it arose in, the nearest first (a runtime error
    # inside a declared effect: engine/effectlines.py), each shown as "called from LOC: its line"
    calls: tuple = ()

    def format(self) -> str:
        """The diagnostic as a terminal shows it. Every text in it that may come from a file (its
        message, hint and paths, the quoted source line) is written ``printable``: a ruleset or
        a log is untrusted input, and a control character in it must not reach the terminal."""
        head = f"{self.severity}[{self.code}]: {printable(self.message)}"
        out = [head if self.loc is None else f"{printable(str(self.loc))}: {head}"]
        loc = self.loc
        src = source_line(loc.path, loc.line) if loc else None
        if loc is not None and src is not None:
            col = max(1, loc.col)
            if len(src) > QUOTE_WIDTH:   # a window of a very long line, around the column
                start = max(0, min(col - 1 - QUOTE_WIDTH // 2, len(src) - QUOTE_WIDTH))
                src = ("…" if start else "") + src[start:start + QUOTE_WIDTH] + (
                    "…" if start + QUOTE_WIDTH < len(src) else "")
                col -= start - (1 if start else 0)
            # Each character as printable writes it, but tabs kept as tabs so the caret lines up
            # whatever the terminal's tab width; the caret's column counted on the written text.
            shown = ["\t" if c == "\t" else printable(c) for c in src]
            pad = "".join("\t" if c == "\t" else " " * len(c) for c in shown[:col - 1]).ljust(col - 1)
            width = max(1, sum(len(c) for c in shown[col - 1:col - 1 + max(1, self.span)]))
            out += ["    " + "".join(shown), "    " + pad + "^" * width]
        out += [f"  {called_from(at)}" for at in self.calls]
        if self.hint:
            out.append(f"  hint: {printable(self.hint)}")
        return "\n".join(out)

    def to_dict(self) -> dict:
        loc = self.loc
        return {"path": loc.path if loc else None, "line": loc.line if loc else None,
                "col": loc.col if loc else None, "severity": self.severity,
                "code": self.code, "message": self.message, "hint": self.hint,
                **({"calls": [str(at) for at in self.calls]} if self.calls else {})}


def called_from(loc: Location | str) -> str:
    """A call site as an error names it: ``called from g.yaml:12:7: - draw`` (its line, if known;
    ``loc``: a Location, or one as text)."""
    path, line = (loc.path, loc.line) if isinstance(loc, Location) else (str(loc).rsplit(":", 2) + ["", ""])[:2]
    src = source_line(path, int(line)) if str(line).isdigit() else None
    return printable(f"called from {loc}" + (f": {src.strip()}" if src and src.strip() else ""))


QUOTE_WIDTH = 160   # characters of a source line quoted under a diagnostic


class RulebookError(Exception):
    """Base of all user-facing errors; holds one or more diagnostics."""
    default_code = "generic"
    exit_code = 1  # what the CLI exits with

    def __init__(self, message_or_diagnostics: str | Diagnostic | Iterable[Diagnostic],
                 loc: Location | None = None, code: str | None = None,
                 hint: str | None = None, span: int = 1, calls: tuple = ()):
        m = message_or_diagnostics
        if isinstance(m, str):
            diags = [Diagnostic(m, loc, code or self.default_code, hint=hint, span=span, calls=calls)]
        elif isinstance(m, Diagnostic):
            diags = [m]
        else:
            diags = list(m)
        self.diagnostics: list[Diagnostic] = diags
        # args = (diagnostics,) so the error pickles (worker processes) without losing locations
        super().__init__(diags)

    @property
    def loc(self) -> Location | None:
        return self.diagnostics[0].loc if self.diagnostics else None

    @property
    def calls(self) -> tuple:
        """Where the declared effect the error arose in was called from, the nearest first (Diagnostic.calls)."""
        return self.diagnostics[0].calls if self.diagnostics else ()

    @property
    def message(self) -> str:
        return self.diagnostics[0].message if self.diagnostics else ""

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


class RulesetError(RulebookError):
    """The ruleset is invalid (CLI exit 1)."""
    default_code = "ruleset"


class UsageError(RulebookError):
    """Bad command-line use (CLI exit 2)."""
    default_code = "usage"
    exit_code = 2


class Refused(UsageError):
    """A game that a requirement of the ruleset (``requires:``) refuses for its parameters, options
    and player count, located at the requirement (CLI exit 2, as a player count it is not for)."""
    default_code = "requires"


class GameError(RulebookError):
    """A runtime problem in a game: an illegal action, a runtime expression error...
    ``summary``: for an error of the rules, its message without the values it names (where, and
    what kind of error), which a seat is shown (play/logs/redact.py); None: not known."""
    default_code = "game"
    summary: str | None = None


class BudgetExceeded(GameError):
    """A game ran past its step budget (a ruleset that never ends)."""
    default_code = "limit"


class ReplayError(RulebookError):
    """A log does not replay. Its message may quote the log's text, and so may each diagnostic
    it carries (a ruleset's, loaded with the variant a log names): each written ``printable``,
    its message, hint and paths."""
    default_code = "replay"

    def __init__(self, message_or_diagnostics, *args, **kwargs):
        m = message_or_diagnostics
        if isinstance(m, str):
            m = printable(m)
        else:
            m = [_printed(d) for d in ([m] if isinstance(m, Diagnostic) else m)]
        if isinstance(kwargs.get("hint"), str):
            kwargs["hint"] = printable(kwargs["hint"])
        super().__init__(m, *args, **kwargs)


def _printed(d: Diagnostic) -> Diagnostic:
    """``d`` with every text it shows ``printable``."""
    def at(loc):
        return loc if loc is None else Location(printable(str(loc.path)), loc.line, loc.col)
    return replace(d, message=printable(d.message), hint=None if d.hint is None else printable(d.hint),
                   loc=at(d.loc), calls=tuple(at(c) for c in d.calls))


def printable(text: str) -> str:
    """A text read from outside (a log's) as a terminal may show it: each character that is not
    printable (a control character, which can move the cursor, clear the screen or retitle the
    window; a line break, which can pass for a line of its own; a bidirectional override)
    written as a Python string literal writes it (``\\x1b``, ``\\n``, ``\\u202e``), every
    other as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def digits(text, signed: bool = False) -> bool:
    """Whether ``text`` is a string of ASCII digits, a whole number ``int()`` reads (``str.isdigit``
    also takes "²" and other digits that ``int()`` refuses: read from outside, a ValueError);
    ``signed``: after one minus, where there is one (``-5``; ``--5``, which ``int()`` refuses, not)."""
    if signed and isinstance(text, str) and text[:1] == "-":
        text = text[1:]
    return isinstance(text, str) and text.isascii() and text.isdigit()


MAX_SUGGESTION_CANDIDATES = 300   # names compared with an unknown one (a ruleset may declare 50,000)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The declared name closest to an unknown one, if any is close. Only names of about the
    same length can be close (difflib's ratio is at most 2*min/(len1+len2)); of those, at most
    MAX_SUGGESTION_CANDIDATES are compared, so that many unknown names among many declared
    ones stay cheap."""
    name = str(name)
    n = len(name)
    lo, hi = -(-3 * n // 7), 7 * n // 3   # 0.6 * (n + m) <= 2 * min(n, m), solved for m
    near = [c for c in map(str, candidates) if lo <= len(c) <= hi]
    if len(near) > MAX_SUGGESTION_CANDIDATES:   # those sharing the first letter first
        first = name[:1]
        near = ([c for c in near if c[:1] == first] + [c for c in near if c[:1] != first])[:MAX_SUGGESTION_CANDIDATES]
    found = difflib.get_close_matches(name, near, n=1, cutoff=0.6)
    return found[0] if found else None


FIGURE_CAP = 10 ** 15   # (a figure past it is written as past it: figure)


def figure(n: int | float, bound: str = "") -> str:
    """A number in a message, with its thousands marked (``12,345``), after ``bound`` ("at least",
    "at most": what it bounds), or past 10^15 "more than 10^15" ("less than -10^15"): a number a
    ruleset makes (a product of defines, a span, a count of passes) can have thousands of digits,
    more than Python writes (4,300) and than anyone reads. A bound past it the other way is
    written by its power of ten ("at most about 10^40")."""
    if -FIGURE_CAP <= n <= FIGURE_CAP or isinstance(n, float) and not math.isfinite(n):
        return f"{bound} {n:,}".lstrip()
    if bound != ("at most" if n > 0 else "at least"):
        return "more than 10^15" if n > 0 else "less than -10^15"
    return f"{bound} about {'-' if n < 0 else ''}10^{int(math.log10(abs(n)))}"


def key_hint(close, known, cut=False) -> str | None:
    """The hint for an unknown key: 'did you mean X?' and the keys accepted there (when at
    most 12, a list one can read), or whichever of the two there is. ``cut``: the key has no
    value inside { } (loading/source.py SourceMap.bare_key), the rest of a text cut at a comma
    (`{doc: the deck, face down}`): with no close key, the hint says to quote the text."""
    accepted = ", ".join(known) if known and len(known) <= 12 else None
    if close:
        return f"did you mean '{close}'?" + (f" (accepted keys: {accepted})" if accepted else "")
    if cut:
        quote = "a comma inside { } ends the text before it: put a text holding a comma in quotes"
        return quote + (f" (accepted keys: {accepted})" if accepted else "")
    return f"accepted keys: {accepted}" if accepted else None


def unknown_name_message(kind: str, name: str, candidates: Iterable[str]) -> tuple[str, str | None]:
    close = did_you_mean(name, candidates)
    return f"unknown {kind} '{name}'", (f"did you mean '{close}'?" if close else None)


def tag_origin(e: BaseException, what: str, loc, part=None) -> None:
    """Note on a runtime error the rule part it arose in (``what``: "trigger closing_card",
    "end_when"...), unless a more precise part already did: the engine reports it there.
    ``part``: its compiled function, when known (what ran below it is what the error arose in:
    engine/effectlines.py)."""
    if getattr(e, "rulebook_where", None) is None:
        e.rulebook_where = (what, loc)   # type: ignore[attr-defined]  # (our note, on any exception)
        e.rulebook_part = part   # type: ignore[attr-defined]


def raised_in(e: BaseException, part) -> bool:
    """Whether a compiled rule (a function, or an object with one as ``fn``) is on the
    traceback of ``e``: whether the error arose while it ran."""
    code = getattr(getattr(part, "fn", part), "__code__", None)
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            return True
        tb = tb.tb_next
    return False
