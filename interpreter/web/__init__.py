"""A local web app for any ruleset: watch a log (``rulebook view``) or play (``rulebook serve``).

play/display/table.py lays out what a seat sees as plain data (the terminal draws it too);
games.py holds a game as a list of positions (read from a log, or played live with
agents); server.py answers the browser (standard library only: one JSON API and the static
files of static/).
"""
