"""The game for the research libraries: OpenSpiel, PettingZoo and Gymnasium (docs/research.md).

Each adapter is a module of its own, importable only with its library installed
(``pip install 'stargazer-rules[openspiel]'`` or ``'stargazer-rules[rl]'``), and plays through
the fast API (``stargazer_rules.fast``): action ids, legal masks and observation vectors come
from there, so that the three libraries see the same game.
"""
