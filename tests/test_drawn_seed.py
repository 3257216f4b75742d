"""A seed ``play`` and ``serve`` draw (no ``--seed``): told with the error of a game it stopped
(a game over keeps no secret), on every path, and small enough to survive a JSON reader that
reads numbers as doubles (docs/security.md, "What each party can learn")."""
import io
import json
import shlex
import sys

from interpreter.tools.args import game_seed

HEAD = """game: stops
players: {min: 2, max: 2}
components:
  card: {attributes: {rank: 1..3}, label: "{rank}"}
zones:
  deck: {start: [card], visible: none}
vars:
  x: int
  c: str
"""
FAILS = '{set: {x: "1 // (count(deck) - count(deck))"}}'
IN_PLAY = HEAD + f"""flow:
  - choose: {{who: 0, options: "['go']", as: c, prompt: go}}
  - {FAILS}
"""
IN_SETUP = HEAD + f"""setup:
  - {FAILS}
flow:
  - choose: {{who: 0, options: "['go']", as: c, prompt: go}}
"""


def told(err: str) -> tuple[int, list[str]]:
    """The seed and the command (as argv, without ``rulebook``) of the note after an error."""
    note = err.strip().splitlines()[-1]
    assert note.startswith("rulebook: the game's seed was ") and note.endswith(" shows the error again"), err
    seed = int(note.split("seed was ")[1].split()[0])
    argv = shlex.split(note.split("(drawn at random): ")[1].removesuffix(" shows the error again"))
    assert argv[0] == "rulebook" and argv[argv.index("--seed") + 1] == str(seed)
    return seed, argv[1:]


def test_a_game_stopped_by_an_error_tells_its_drawn_seed_with_the_error_on_every_path(cli, tmp_path, monkeypatch):
    """play (summary, --json, --quiet), its setup, a person's game, and serve's setup: the error,
    then the seed and the command that shows the error again; nothing said with --seed given."""
    for name, text in (("play.yaml", IN_PLAY), ("setup.yaml", IN_SETUP)):
        path = tmp_path / name
        path.write_text(text)
        for more in ((), ("--json",), ("--quiet",)):
            code, out, err = cli("play", path, "-p", "2", *more)
            assert code == 1 and out == "" and "error[runtime]: in " in err and "division by zero" in err
            seed, argv = told(err)
            again = cli(*argv)                  # the same error, and no note: the seed was given
            assert again == (1, "", err[:err.index("rulebook: the game's seed")]), again
            assert "seed was" not in cli("play", path, "-p", "2", "--seed", str(seed), *more)[2]
        # a person at this terminal is a seat: the seed comes after the game stopped, never before
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
        code, out, err = cli("play", path, "-p", "2", "--agents", "human,random")
        seed, argv = told(err)
        assert code == 1 and str(seed) not in out and argv[argv.index("--agents") + 1] == "human,random"
    # serve: its setup fails before the server starts (and before the seed it prints then)
    code, out, err = cli("serve", tmp_path / "setup.yaml", "-p", "2")
    seed, argv = told(err)
    assert code == 1 and "division by zero" in err and cli(*argv)[0] == 1 and argv[0] == "play"
    # an error that is no game's (a usage error) says nothing of a seed
    assert "seed was" not in cli("play", tmp_path / "play.yaml", "-p", "3")[2]


def test_a_drawn_seed_is_below_2_to_the_53_so_a_json_reader_of_doubles_reads_it_exactly(cli):
    """jq 1.6 and JavaScript read a JSON number as a double: a 63-bit seed came back rounded and
    replayed another game. A drawn seed has 53 bits (far beyond trying seeds one by one)."""
    seeds = [game_seed(None) for _ in range(200)]
    assert all(0 <= s < 2 ** 53 for s in seeds) and len(set(seeds)) == 200 and max(seeds) >= 2 ** 40
    code, out, _ = cli("play", "diamonds", "-p", "3", "--set", "rounds=1", "--json")
    first = json.loads(out)
    as_double = json.loads(out, parse_int=float)["seed"]
    assert code == 0 and as_double == first["seed"]
    again = json.loads(cli("play", "diamonds", "-p", "3", "--set", "rounds=1", "--json",
                           "--seed", str(int(as_double)))[1])
    assert (again["scores"], again["decisions"]) == (first["scores"], first["decisions"])


def test_an_internal_error_that_stops_a_game_tells_its_drawn_seed_too(cli, monkeypatch):
    """A bug (an agent that raises) stops the game with a located error line naming the agent
    (gamelog.agent_choice): the seed follows it, so that the game can be played again to find it."""
    from interpreter.play.logs import gamelog

    def broken(agent, S, seat):
        raise RuntimeError("an agent's bug")
    monkeypatch.setattr(gamelog, "choose", broken)
    code, out, err = cli("play", "diamonds", "-p", "3", "--quiet")
    first = err.splitlines()[0]
    assert code == 1 and out == "" and "error[agent]: seat" in first and "'random' failed to decide" in first
    seed, argv = told(err)
    assert argv == ["play", "diamonds", "--players", "3", "--seed", str(seed)]
