"""Playtests at the table: games the designer played on paper, kept beside the draft.

``log`` reads and checks a playtest log (one YAML file a game) and writes one; ``sources``
makes a log of a game record or a simulation's games.jsonl line; ``folder`` keeps the logs in
``<draft folder>/playtests/``; ``figures`` counts what a designer reads of a set of games, the
people's and the bots' alike. ``analysis.calibrate`` sets them beside the bots' games.
"""
