"""The engine layer: the Python rules of the game over immutable states.

``game`` holds ``Game`` (setup, legal actions, ``apply``) and ``Setup``; ``scoring`` the score
sheet. The engine runs the effects of the ``vocabulary`` layer on its ``Table`` and reads the
``Ruleset`` of the ``rulesets`` layer; it imports those, ``errors`` and its own modules, never a
layer above (formats, text, bots, simulation, analysis, front ends). Inside it the imports run
one way, ``scoring`` <- ``game``; tests/test_layers.py keeps it so.
"""
