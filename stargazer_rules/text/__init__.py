"""The text layer: what a game says to people, in Japanese and English.

``messages`` renders events, actions, skills and labels through the message catalogue
``messages.yaml`` beside it (the one implementation of its template language); ``tables`` builds
the tables every front end draws (a ruleset's numbers, a score sheet) once; ``lines`` measures
and wraps text; ``reports`` lays out the text of the command line (a ruleset, setup, log, score
sheet) and builds every title that names a ruleset. Events and actions carry message keys and ids, never sentences, so the words
live here alone. Its modules import ``errors``, the ``rulesets`` layer and the ``engine``, never
the formats layer beside it nor anything above.
"""
