"""Stage 7, tools: the ``rulebook`` command line and what it prints for people.

cli.py is the table of subcommands and their exit codes; batches.py the simulate and compare
commands, report.py their tables; explain.py and diff.py describe rulesets and variants;
args.py checks command-line values; schema_gen.py keeps the schema's kinds current.
"""
