"""The rulesets layer: read a ruleset folder's YAML, check it and build an immutable ``Ruleset``.

``loader`` reads and checks a folder (``yamlsource`` keeps positions, ``validation`` and
``schemas`` apply the JSON Schemas, ``schemas`` also generates the crew schema from the effect
declarations, ``checks`` the cross-file rules), ``model`` holds the ``Ruleset`` values,
``resources`` finds the bundled rulesets and schemas, ``drafts`` copies a ruleset into a new
draft. Its modules import ``errors``, the ``vocabulary`` layer below (a crew card's skill is a
tuple of effect objects) and each other; nothing above this layer, the engine included.
"""
