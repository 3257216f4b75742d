"""What a person at the table is shown: the table as one seat sees it, as plain data that the
web page and the terminal draw (``table.py``), that table as text (``terminal.py``), and a
game's decisions told in words (``narrate.py``).
"""
