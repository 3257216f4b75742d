"""``rulebook view LOG`` and ``rulebook serve PATH``: the web viewer (interpreter/web/) from the command line."""
from __future__ import annotations

import argparse
import sys

from .args import game_seed, parse_sets, seed_told_on_error
from ..building import load
from ..errors import UsageError


def _where(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; ::1 for IPv6; "
                        "another address offers the game to the network, with a warning)")
    p.add_argument("--port", type=int, default=0, help="the port (default: a free one, printed)")
    p.add_argument("--allow-host", dest="allow_host", action="append", default=[], metavar="NAME",
                   help="a host name the page may be reached by besides the bound address and "
                        "localhost (repeatable; off loopback, the name other machines use)")


def add_view(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", metavar="LOG.jsonl",
                   help="a log written by play --log (a full log: its tables, replayed and verified; "
                        "a log redacted for a seat: what that seat saw happen)")
    p.add_argument("--ruleset", metavar="PATH", help="the ruleset to use instead of the one the header names")
    _where(p)


def cmd_view(args) -> int:
    """Replay and verify the log, then serve its positions to step through in a browser; a
    redacted log is served as the story its seat saw (web/timeline.py)."""
    from ..web.server import run
    from ..web.timeline import open_log
    host, port, allow = _host(args.host), _port(args.port), _allowed(args.allow_host)
    return run(open_log(args.log, args.ruleset), host, port, sys.stdout, allow)


def add_serve(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", metavar="PATH", help="a ruleset file, or a bundled ruleset's name")
    p.add_argument("--players", "-p", type=int, required=True, help="number of players")
    p.add_argument("--seed", "-s", type=int, default=None,
                   help="game seed (default: a fresh random one, printed on stderr and kept in the --log header, "
                        "never shown to a seat; a seed given here is guessable if small: docs/security.md)")
    p.add_argument("--variant", "-V", help="a variant declared under variants:, or an overlay file")
    p.add_argument("--agents", "-a", default=None,
                   help="an agent per seat; the seats named human are played in the browser, each at its own "
                        "address when there are several (default: human for seat 0, random for the others)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter (repeatable)")
    p.add_argument("--skill", metavar="X,Y,...", help="per-seat skill for dexterity attempts")
    p.add_argument("--log", metavar="F.jsonl", help="write the game's log as it is played (replay or view it later)")
    p.add_argument("--force", action="store_true", help="with --log: replace the file if it exists")
    _where(p)


def cmd_serve(args) -> int:
    """Start a game and serve it: people play the human seats by clicking, agents the rest."""
    from ..web.server import run
    from ..web.games import LiveGame
    from ..play.checks.playouts import play_command
    host, port, allow = _host(args.host), _port(args.port), _allowed(args.allow_host)
    rules = load(args.path, args.variant)
    options = {"params": parse_sets(args.sets)}
    if args.skill is not None:
        options["skill"] = args.skill        # checked (count, range) by new_game below
    seed = game_seed(args.seed)
    # a game stopped by its setup: the drawn seed told with the error (the setup asks no seat, so
    # play shows it again)
    more = ["--skill", args.skill] if args.skill is not None else []
    with seed_told_on_error(args.seed, seed, play_command(args.path, args.players, seed, args.variant, args.sets, more)):
        rules.new_game(args.players, seed, options)   # the player count and parameters, checked first
        agents = args.agents or ",".join(["human"] + ["random"] * (args.players - 1))
        game = LiveGame(rules, args.players, seed, agents, options, log=args.log, force=args.force)
    if args.seed is None:   # the operator's terminal, never the page: to play the same game again
        print(f"rulebook: seed {seed} (drawn at random, shown to no seat; --seed {seed} plays this game again)",
              file=sys.stderr, flush=True)
    elif game.humans:
        print(f"rulebook: warning: --seed {seed} deals every hidden card: a person at a human seat who knows or "
              f"guesses it (a small seed is found by trying seeds until one deals their own cards) can work out "
              f"the others'; leave --seed out to draw one at random", file=sys.stderr, flush=True)
    return run(game, host, port, sys.stdout, allow)


def _allowed(names: list) -> list:
    """--allow-host values: host names or addresses, without a port (the server's port is checked)."""
    import ipaddress
    out = []
    for name in names:
        bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
        try:
            ipaddress.ip_address(bare)
        except ValueError:
            if not _host_name(bare):
                raise UsageError(f"--allow-host {name!r}: a host name (letters, digits, '-' and '.') or an "
                                 "address, without a port") from None
        out.append(bare.lower().rstrip("."))
    return out


def _host_name(name: str) -> bool:
    """A host name: at most 253 characters (and a dot at the end), labels of 1 to 63 letters,
    digits and '-' between dots, none starting or ending with '-'. The length first, then label
    by label: each check takes time in proportion to the name."""
    import re
    labels = name[:-1] if name.endswith(".") else name
    return 0 < len(labels) <= 253 and all(
        len(label) <= 63 and re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?", label) is not None
        for label in labels.split("."))


def _host(host: str) -> str:
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host   # [::1] as in a URL


def _port(port: int) -> int:
    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a port (0 to 65535; 0 picks a free one)")
    return port
