"""The formats layer: the game's values as plain JSON, and whole games as replayable records.

``jsonio`` is the front of the JSON forms, one module for each job behind it:
``schema_checks`` (the schemas and the wording of their errors), ``ruleset_identity``,
``actions_json``, ``values_json`` (events, setups, score sheets) and ``states_json``.
``records`` keeps a whole game (ruleset, setup, actions) and replays it; ``game_lines`` writes
and reads the simulation's games line; ``signing`` signs the states a server issues.
These are the forms a game leaves the process in: files, the simulation's ``games.jsonl``, the
JSON API. Its modules import ``errors``, the ``rulesets`` layer and the ``engine``, never the
text layer beside it nor anything above.
"""
