"""Balance analysis: games.jsonl lines -> summary.json, report.html, terminal tables, comparisons.

The simulation runner (``stargazer_rules.simulation``) plays the games and calls these:

- ``summarize(games, bounds=..., ruleset=...)``: every figure of the report, each with its sample size
  (docs/simulation.md, "summary.json");
- ``write_report(summary, out_dir)``: summary.json and a self-contained report.html;
- ``terminal_summary(summary)``: the short table ``stargazer simulate`` prints;
- ``compare_summaries(run_a, run_b, label_a=..., label_b=...)``, ``write_comparison`` and
  ``terminal_comparison``: two runs side by side, paired by game index; a run is a ``Run``
  (``Run.summarised(games, ...)``: the games with their summary) or its games alone;
- ``view_of(summary)``: a summary read through typed parts (``analysis.summary_view``).

Games are the dicts of games.jsonl lines (``simulation.read_games`` reads a file). ``Targets``
are the designer's design targets (``targets.yaml``, ``analysis.targets_file``): a target not
met is a finding.
"""

import importlib
from typing import Any

from stargazer_rules.analysis.targets import Targets

#: Where each public name lives. They are imported on first use: the statistics pull in numpy
#: and scipy.special (a few tenths of a second), which ``stargazer validate`` or ``play``
#: should not pay for just because the command line knows the ``Targets``.
_LAZY = {
    "Run": "compare",
    "compare_summaries": "compare",
    "write_comparison": "compare",
    "write_report": "report",
    "summarize": "summary",
    "terminal_comparison": "terminal",
    "terminal_summary": "terminal",
    "view_of": "summary_view",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Run",
    "compare_summaries",
    "summarize",
    "terminal_comparison",
    "Targets",
    "terminal_summary",
    "view_of",
    "write_comparison",
    "write_report",
]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
