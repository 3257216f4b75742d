"""Stage 1, loading: a ruleset's text -> checked, merged plain data.

YAML is read safely with every value's file:line:col kept (source.py), checked against the
JSON Schema (schema.py), merged with its ``extends:`` base and its variant (variants.py).
Bundled files (grammar, schema, rulesets) are found by resources.py. Imports only errors.
"""
