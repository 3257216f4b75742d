"""Tuning: search a ruleset's declared parameters for the variant that plays best.

``space`` turns declared parameters and ``--param`` ranges into search dimensions,
``objectives`` turns a batch's game records into one loss (lower is better), ``study`` runs
the search with Optuna on common seeds and confirms the best trial on fresh ones, and
``written`` writes what a designer reads (the overlay, the summary, the report page). docs/tuning.md has every formula.
"""
