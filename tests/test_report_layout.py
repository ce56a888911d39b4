"""report.html and comparison.html laid out in a real browser: every table fits the window.

Headless Chromium (tests/chromium.py, driven by Playwright as in tests/test_browser.py) opens
the pages of real small runs (random and greedy bots, draft7 and base, 4 and 3 players, and a
comparison of two of them) at two window widths, opens every ``<details>``, and measures every
table of the page with ``getBoundingClientRect``, so a table added to a page later is measured
too: no cell reaches past the window (or past the box that clips it), no row is taller than
``ROW_HEIGHT``, no header row or header cell is empty, and the page never scrolls sideways.
The pages' sections are parsed too: each closes before the next opens.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
import simulated_games
from chromium import CHROMIUM, CHROMIUM_FLAGS, require_chromium
from playwright.sync_api import BrowserContext, sync_playwright
from processes import HANG_GUARD

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import compare_summaries, summarize, write_comparison
from stargazer_rules.analysis.report import write_report

#: The window widths a designer reads the report at: a laptop's full screen and half a wide one.
WIDTHS = (1400, 1000)
#: The tallest a table row may be, in CSS pixels. A line of the tables' text (0.9rem at a line
#: height of 1.45) is about 21 px, so 120 px holds five lines and the cell's padding: a figure,
#: its interval, a note and a short wrapped list. A taller row is a list stacked one item to a
#: line, and a window 1,000 px high would show fewer than eight rows of the table.
ROW_HEIGHT = 120
#: The runs whose pages are measured: (ruleset, lineup); three blocks of games each.
RUNS = {
    "draft7-random-4": ("draft7", ("random",) * 4),
    "draft7-greedy-3": ("draft7", ("greedy",) * 3),
    "base-random-4": ("base", ("random",) * 4),
    "base-greedy-3": ("base", ("greedy",) * 3),
}
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

#: Every table of the page measured; returns how many tables there are and what is wrong.
MEASURE = """
(maxRow) => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const width = document.documentElement.clientWidth;
  const problems = [];
  const tables = Array.from(document.querySelectorAll("table"));
  tables.forEach((table, index) => {
    const first = table.rows.length ? table.rows[0].textContent.trim().slice(0, 40) : "";
    const where = `${(table.closest("section") || {}).id || "page"}: table ${index} ("${first}")`;
    let left = 0, right = width;  // the window, or the nearest box that clips the table
    for (let box = table.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") {
        const clip = box.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
        break;
      }
    }
    Array.from(table.rows).forEach((row, number) => {
      const height = row.getBoundingClientRect().height;
      if (height > maxRow) problems.push(`${where}: row ${number} is ${Math.round(height)} px tall`);
      Array.from(row.cells).forEach((cell, column) => {
        const box = cell.getBoundingClientRect();
        if (box.right > right + 0.5 || box.left < left - 0.5) {
          problems.push(`${where}: row ${number} column ${column} spans ${Math.round(box.left)}-${Math.round(box.right)} px, outside ${Math.round(left)}-${Math.round(right)}`);
        }
      });
    });
    if (table.tHead) {
      Array.from(table.tHead.rows).forEach((row, number) => {
        if (!row.textContent.trim()) problems.push(`${where}: header row ${number} is empty`);
        Array.from(row.cells).forEach((cell, column) => {
          if (!cell.textContent.trim()) problems.push(`${where}: header cell ${column} is empty`);
        });
      });
    }
  });
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) problems.push(`the page is ${page.scrollWidth} px wide`);
  return { tables: tables.length, problems };
}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """report.html of every run of ``RUNS`` and comparison.html of draft7 against base."""
    out = tmp_path_factory.mktemp("pages")
    games = {}
    written = {}
    for name, (ruleset, lineup) in RUNS.items():
        games[name] = simulated_games.run(ruleset=ruleset, lineup=lineup, blocks=3)
        write_report(summarize(games[name]), out / name)
        written[name] = out / name / "report.html"
    comparison = compare_summaries(games["draft7-random-4"], games["base-random-4"], label_a="draft7",
                                   label_b="base", ruleset_a=load_ruleset("draft7"), ruleset_b=load_ruleset("base"))
    write_comparison(comparison, out / "comparison")
    written["comparison"] = out / "comparison" / "comparison.html"
    return written


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    require_chromium()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": WIDTHS[0], "height": 1000},
        )
        context.set_default_timeout(HANG_GUARD * 1000)  # a hang guard, not a bound on speed
        try:
            yield context
        finally:
            context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", [*RUNS, "comparison"])
def test_every_table_fits_the_window(browser: BrowserContext, pages: dict[str, Path], name: str, width: int,
                                     tmp_path: Path) -> None:
    """No cell past the window, no row taller than ROW_HEIGHT, no empty header, at both widths."""
    path = pages[name]
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto(path.as_uri())
        measured = page.evaluate(MEASURE, ROW_HEIGHT)
        shot = tmp_path / f"layout-{name}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copyfile(shot, ARTIFACTS / shot.name)
    finally:
        page.close()
    assert measured["tables"] == path.read_text(encoding="utf-8").count("<table")
    assert measured["problems"] == []
    assert errors == []


class _Sections(HTMLParser):
    """The ids of the sections of a page, each with the id of the section it sits in (None at
    the top)."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str | None] = []
        self.found: list[tuple[str | None, str | None]] = []

    def handle_starttag(self, tag: str, attrs) -> None:  # type: ignore[no-untyped-def]
        if tag == "section":
            ident = dict(attrs).get("id")
            self.found.append((ident, self.open[-1] if self.open else None))
            self.open.append(ident)

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.open.pop()


@pytest.mark.parametrize("name", [*RUNS, "comparison"])
def test_every_section_closes_before_the_next(pages: dict[str, Path], name: str) -> None:
    """No section of a page holds another (a section left open swallows the rest of the page)."""
    parser = _Sections()
    parser.feed(pages[name].read_text(encoding="utf-8"))
    parser.close()
    assert parser.open == []
    assert [inside for _, inside in parser.found] == [None] * len(parser.found)
