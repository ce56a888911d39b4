"""``python -m stargazer_rules``: the ``stargazer`` command."""

from stargazer_rules.cli import main

raise SystemExit(main())
