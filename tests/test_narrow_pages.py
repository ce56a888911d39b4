"""report.html, comparison.html and explain.html at a phone's width (issue 36 item 4).

Headless Chromium (tests/chromium.py, driven by Playwright as in tests/test_report_layout.py)
opens each page of a small run at 420 and 1,280 px: the page never scrolls sideways, no table
cell reaches past the window, and at 420 px, where every table's rows stack into blocks whose
cells are led by their column's name, every text of the page is at least 11 px.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import simulated_games
from chromium import CHROMIUM, CHROMIUM_FLAGS, require_chromium
from playwright.sync_api import Browser, sync_playwright
from processes import HANG_GUARD

from stargazer_rules import load_ruleset
from stargazer_rules.analysis import compare_summaries, summarize, write_comparison
from stargazer_rules.analysis.explain_report import write_explain_page
from stargazer_rules.analysis.explain_run import explain_run
from stargazer_rules.analysis.report import write_report
from stargazer_rules.analysis.targets import Targets
from stargazer_rules.simulation.kernel_games import play_games
from stargazer_rules.simulation.planning import plan

#: A phone's width and a laptop's.
WIDTHS = (420, 1280)
#: The smallest text a reader is asked to read at a phone's width, in CSS pixels.
SMALLEST_TEXT = 11

#: What reaches past the window, and the smallest font of any text outside the charts.
MEASURE = """
() => {
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const width = document.documentElement.clientWidth;
  const wider = Array.from(document.querySelectorAll("body *"))
    .filter((element) => element.getBoundingClientRect().right > width + 0.5)
    .map((element) => `${element.tagName} "${element.textContent.trim().slice(0, 40)}"`);
  const sizes = Array.from(document.querySelectorAll("body *"))
    .filter((element) => !element.closest("svg") && element.getClientRects().length
      && Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.textContent.trim()))
    .map((element) => [parseFloat(getComputedStyle(element).fontSize), element.textContent.trim().slice(0, 40)]);
  const cell = document.querySelector("thead ~ tbody td");
  const heading = cell && cell.closest("table").tHead.rows[0].cells[cell.cellIndex].textContent.trim();
  return { scrollWidth: document.documentElement.scrollWidth, wider,
           smallest: sizes.reduce((least, size) => (size[0] < least[0] ? size : least), [Infinity, ""]),
           heading, label: cell ? getComputedStyle(cell, "::before").content : null };
}
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each page of one small run: four random games of draft7 (and of base, to compare)."""
    out = tmp_path_factory.mktemp("narrow-pages")
    draft7 = simulated_games.run(ruleset="draft7", lineup=("random",) * 4, blocks=1)
    base = simulated_games.run(ruleset="base", lineup=("random",) * 4, blocks=1)
    write_report(summarize(draft7), out / "report")
    comparison = compare_summaries(draft7, base, label_a="draft7", label_b="base",
                                   ruleset_a=load_ruleset("draft7"), ruleset_b=load_ruleset("base"))
    write_comparison(comparison, out / "comparison")
    ruleset = load_ruleset("draft7")
    lineup = ("random",) * 4
    run = play_games(ruleset, plan(4, 4, seed=2), lineup)
    explained = explain_run(ruleset, run, lineup, Targets.default(), seed=2, arm_games=4,
                            crews=["pilot"], planets=["lava-1"], workers=1)
    return {
        "report": out / "report" / "report.html",
        "comparison": out / "comparison" / "comparison.html",
        "explain": write_explain_page(explained, out / "explain"),
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["report", "comparison", "explain"])
def test_the_page_fits_the_window_and_its_text_is_readable(browser: Browser, pages: dict[str, Path],
                                                           name: str, width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(HANG_GUARD * 1000)  # a hang guard, not a bound on speed
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(pages[name].as_uri())
        measured = page.evaluate(MEASURE)
    finally:
        page.close()
    assert errors == []
    assert measured["scrollWidth"] <= width, measured
    assert measured["wider"] == []
    if width == 420:
        assert measured["smallest"][0] >= SMALLEST_TEXT, measured["smallest"]
    # a stacked row's cell is led by its column's name; a wide window shows the header row instead
    assert measured["label"] == (f'"{measured["heading"]}: "' if width == 420 else "none")
