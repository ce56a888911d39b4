"""Balance analysis: games.jsonl lines -> summary.json, report.html, terminal tables, comparisons.

The simulation runner (``stargazer_rules.simulation``) plays the games and calls these:

- ``summarize(games, bounds=..., ruleset=...)``: every figure of the report, each with its sample size
  (docs/simulation.md, "summary.json");
- ``write_report(summary, out_dir)``: summary.json and a self-contained report.html;
- ``terminal_summary(summary)``: the short table ``stargazer simulate`` prints;
- ``compare_summaries(games_a, games_b, label_a=..., label_b=...)``, ``write_comparison`` and
  ``terminal_comparison``: two runs side by side, paired by game index.

Games are the dicts of games.jsonl lines (``simulation.read_games`` reads a file). ``Bounds``
are the designer's limits that turn a figure into a finding.
"""

from stargazer_rules.analysis.bounds import Bounds
from stargazer_rules.analysis.compare import compare_summaries, write_comparison
from stargazer_rules.analysis.report import write_report
from stargazer_rules.analysis.summary import summarize
from stargazer_rules.analysis.terminal import terminal_comparison, terminal_summary

__all__ = [
    "Bounds",
    "compare_summaries",
    "summarize",
    "terminal_comparison",
    "terminal_summary",
    "write_comparison",
    "write_report",
]
