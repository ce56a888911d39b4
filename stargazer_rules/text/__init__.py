"""The text layer: what a game says to people, in Japanese and English.

``messages`` renders events, actions, skills and labels through the message catalogue
``messages.yaml`` beside it; ``reports`` lays out the text tables of the command line (setup,
log, score sheet). Events and actions carry message keys and ids, never sentences, so the words
live here alone. Its modules import ``errors``, the ``rulesets`` layer and the ``engine``, never
the formats layer beside it nor anything above.
"""
