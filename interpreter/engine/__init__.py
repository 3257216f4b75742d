"""Stage 3, engine: the Ruleset and the State, and the loop that runs a game.

ruleset.py is the compiled, frozen Ruleset and ``new_game``; state.py the plain-data State;
loop.py runs steps until a player must decide and applies a decision; rng.py the seeded
chance inside the state; observation.py what one seat may see; protocol.py what the engine
asks of the steps it runs. The engine knows mechanics only through that protocol: it
imports errors, loading and expr, never mechanics, build, play or tools.
"""
