"""The vocabulary layer: the words a ruleset is written in and the table they act on.

``actions`` holds the decisions players make, ``events`` what happened (as message keys),
``table`` the immutable ``State`` and the mutable ``Table`` one ``apply`` works on, and
``effects`` the skill vocabulary: one class per effect type, declaring its parameters, timings,
timing requirements and target sentence and acting on a ``Table``. It sits at the bottom of the
package: its modules import ``errors`` and each other, never a layer above, so ``rulesets``
builds crew skills from it and ``engine`` runs them without either importing the other both
ways. Inside it the imports run one way, ``actions``/``events`` <- ``table`` <- ``effects``,
type-checking imports included; tests/test_layers.py keeps it so.
"""
