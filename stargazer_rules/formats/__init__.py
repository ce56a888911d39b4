"""The formats layer: the game's values as plain JSON, and whole games as replayable records.

``jsonio`` turns states, actions, events, setups and score sheets into JSON and back, checked
against JSON Schemas; ``records`` keeps a whole game (ruleset, setup, actions) and replays it.
These are the forms a game leaves the process in: files, the simulation's ``games.jsonl``, the
JSON API. Its modules import ``errors``, the ``rulesets`` layer and the ``engine``, never the
text layer beside it nor anything above.
"""
