"""The engine layer: the Python rules of the game over immutable states.

``game`` holds ``Game`` (setup, legal actions, ``apply``) and ``Setup``; ``table`` the immutable
``State`` and the mutable ``Table`` one ``apply`` works on; ``effects`` the skill vocabulary that
acts on a ``Table``; ``actions`` and ``events`` the decisions and what happened; ``scoring`` the
score sheet. Its modules import ``errors``, the ``rulesets`` layer and each other, never a layer
above (formats, text, bots, simulation, analysis, front ends). Inside it the imports run one way,
``actions``/``events`` <- ``table`` <- ``effects`` <- ``scoring`` <- ``game``, type-checking
imports included; tests/test_layers.py keeps it so.
"""
