"""The compile-time limits of the expression language (docs/language.md, docs/security.md)."""

MAX_COST = 1_000_000   # worst-case operations of one expression (nested filters multiply)
MAX_SOURCE = 50_000   # characters of generated Python for one expression, defines expanded
MAX_EXPANSIONS = 500  # uses of defines expanded in one expression (defines using defines multiply)
MAX_RULESET_EXPANSIONS = 5_000   # uses of defines expanded in a whole ruleset (the bundled ones: at most 64)
MAX_SUGGESTION_WORK = 1_000_000   # declared names compared with unknown ones for did-you-means, per ruleset
STEP_WORK_UNIT = 100   # worst-case operations of a step's own expressions per unit of limits.steps it uses
MAX_STEP_BUDGET = 10_000_000   # the most limits.steps may allow
