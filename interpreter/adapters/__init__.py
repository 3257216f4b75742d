"""Stage 7, adapters: any ruleset as a standard reinforcement-learning environment.

``pettingzoo.env(path, players=N)`` is a PettingZoo ``AECEnv``; ``openspiel.load_game(path,
players=N)`` an OpenSpiel ``pyspiel.Game``. Both use the ruleset's fixed action space
(play/actions.py) and observation tensors (play/tensors.py); docs/rl.md shows them at work.
They need the ``rl`` extra (``pip install '.[rl]'`` in Rulebook's folder: pettingzoo, gymnasium,
open-spiel, numpy). Imports the stages below it, never tools.
"""
