"""Stage 7, adapters: any ruleset as a standard reinforcement-learning environment.

``pettingzoo.env(path, players=N)`` is a PettingZoo ``AECEnv`` (``parallel_env`` a
``ParallelEnv``); ``openspiel.load_game(path, players=N)`` an OpenSpiel ``pyspiel.Game`` (every
bundled ruleset registered at import); ``gymnasium.env(path, players=N, seat=0,
opponents=...)`` a single-agent gymnasium ``Env`` against fixed agents. All use the ruleset's fixed action space
(adapters/actions.py) and observation tensors (adapters/tensors.py); docs/rl.md shows them at work.
They need the ``rl`` extra (``pip install '.[rl]'`` in Rulebook's folder: pettingzoo, gymnasium,
open-spiel, numpy). Imports the stages below it, never tools.
"""
