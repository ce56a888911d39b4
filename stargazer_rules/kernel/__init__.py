"""The native kernel layer: Stargazer's rules and the bots' search compiled to Rust.

The kernel itself is the Rust workspace in ``crates/`` (``crates/kernel``: the pure-Rust core;
``crates/python``: its PyO3 bindings), built by maturin into the extension
``stargazer_rules._kernel``. Its Python side: ``compiled``, the one typed form a validated
``Ruleset`` crosses in (with the bounds and action-index sizes Python derived), and ``native``,
which hands it to the kernel, carries states across, and chooses the engine. This layer imports the rulesets and the
engine; the bots, the simulation and the front ends above it use it.
"""
