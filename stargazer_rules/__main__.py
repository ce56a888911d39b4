"""``python -m stargazer_rules``: the ``stargazer`` command."""

from stargazer_rules.frontends.cli import main

raise SystemExit(main())
