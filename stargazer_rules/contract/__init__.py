"""The contract between the two engines, declared once: data, no behaviour.

What crosses the line between the Python engine and the native kernel is listed here and
nowhere else: the kernel's limits (``limits``), the enumerations both engines name the same
way (``enums``: stages, action kinds), the state's fields (``state``), the ruleset's numeric
knobs (``knobs``) and the events with their parameters (``events``). Both sides are built from
these lists: Python reads them where it needs them (the loader's knobs, the ``State``'s fields,
``EVENT_KEYS``), and ``python -m stargazer_rules.kernel.contract --write`` generates from them
the Rust declarations, the bindings' readers and writers by name, the event schema and the
declared parts of the rules and state schemas (``--check`` fails when any is stale). The bottom
layer: it imports nothing of the package.
"""
