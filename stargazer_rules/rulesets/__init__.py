"""The rulesets layer: read a ruleset folder's YAML, check it and build an immutable ``Ruleset``.

``loader`` reads and checks a folder (``yamlsource`` keeps positions, ``validation`` and
``schemas`` apply the JSON Schemas, ``checks`` the cross-file rules), ``model`` holds the
``Ruleset`` values, ``resources`` finds the bundled rulesets and schemas, ``drafts`` copies a
ruleset into a new draft. Its modules import ``errors`` and each other; of the engine they import
only the skill vocabulary, ``engine.effects`` (and with it ``engine.actions``), because a crew
card's skill is a tuple of effect objects. Nothing else above this layer is imported here.
"""
