"""The compile-time limits of the expression language (docs/language.md, docs/security.md)."""

MAX_COST = 1_000_000   # worst-case operations of one expression (nested filters multiply)
MAX_SOURCE = 50_000   # characters of generated Python for one expression, defines expanded
MAX_EXPANSIONS = 500  # uses of defines expanded in one expression (defines using defines multiply)
