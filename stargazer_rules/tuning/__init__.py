"""The search of ``stargazer tune``: a base ruleset, the parameters a designer lets it change,
and the smallest edit that meets the missed design targets (docs/simulation.md)."""
