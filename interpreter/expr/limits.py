"""The compile-time limits of the expression language (docs/language.md, docs/security.md)."""

MAX_COST = 1_000_000   # worst-case operations of one expression (nested filters multiply)
# (the hint of the error past MAX_COST: what bounds a list's length in the worst case)
LONGEST = ("each list is counted at the longest it can be in any game: a zone as every card unless it "
           "declares max:, a range as far as its parameters' declared min:/max: allow "
           "(docs/reference.md, Limits)")
MAX_SOURCE = 50_000   # characters of generated Python for one expression, defines expanded
MAX_EXPANSIONS = 500  # uses of defines expanded in one expression (defines using defines multiply)
MAX_RULESET_EXPANSIONS = 5_000   # uses of defines expanded in a whole ruleset (the bundled ones: at most 64)
MAX_SUGGESTION_WORK = 1_000_000   # declared names compared with unknown ones for did-you-means, per ruleset
MAX_CALL_DEPTH = 32   # declared effects calling one another, deepest chain (each level a few frames of the compiler's)
STEP_WORK_UNIT = 100   # worst-case operations of a step's own expressions per unit of limits.steps it uses
MAX_STEP_BUDGET = 5_000_000   # the most limits.steps may allow (8 to 10 s of the costliest steps: docs/security.md)
