"""Tuning: the values a search may change in a ruleset, and the new drafts it proposes.

A layer above ``analysis`` and ``simulation`` (a search plays candidates and judges them by the
designer's targets) and below the front ends. ``space`` reads tune.yaml, the parameters and
their choices; ``paths`` names one value of a ruleset; ``edits`` changes values, in memory and
as a new draft folder whose YAML keeps the designer's comments.
"""
