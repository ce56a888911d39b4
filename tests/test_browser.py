"""The page end to end: a whole game against bots in headless Chromium, driven by Playwright.

The test starts ``stargazer serve``'s app with uvicorn on 127.0.0.1 and a free port (in a
thread, stopped afterwards) and Debian's Chromium (tests/chromium.py) with a fresh profile. A
human seat clicks through its decisions, a crew card and a Planet in the SVG among them, until
the final score sheet shows; undo, the language toggle and saving the record are exercised on
the way. Screenshots go to pytest's tmp path and are copied to ``test-artifacts/`` (ignored by
git).
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
import yaml
from chromium import CHROMIUM, CHROMIUM_FLAGS, require_chromium
from playwright.sync_api import BrowserContext, Page, sync_playwright
from processes import HANG_GUARD

from stargazer_rules import Game, load_ruleset
from stargazer_rules.formats import records
from stargazer_rules.frontends.server import create_app, listening
from stargazer_rules.frontends.server.service import PAGE_MESSAGES_PATH
from stargazer_rules.text import messages, reports, tables

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
#: The bots are random ones: the test is about the page, not the bots' play.
SEATS = ["human", "random", "random", "random"]
SEED = 11
#: Whole-game guard: a 4-player game has about 15 human decisions.
MAX_DECISIONS = 200


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset("draft7")


@pytest.fixture(scope="module")
def server_url(ruleset) -> Iterator[str]:
    """The app served by uvicorn on 127.0.0.1 and a port the OS chose, in a thread. The socket
    listens before the thread starts, so the page's first request waits in its backlog for the
    server instead of the fixture waiting a number of seconds for it."""
    sock = listening.listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(ruleset, allowed_hosts=listening.allowed_hosts("127.0.0.1"))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(HANG_GUARD)
        sock.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Iterator[BrowserContext]:
    require_chromium()
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1400, "height": 1000},
            accept_downloads=True,
        )
        context.set_default_timeout(HANG_GUARD * 1000)  # a hang guard, not a bound on speed
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser) -> Iterator[Page]:
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    yield page
    page.close()
    assert problems == [], problems


def save_artifact(page: Page, tmp_path: Path, name: str) -> Path:
    """A full-page screenshot in pytest's tmp path, copied to test-artifacts/."""
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copyfile(path, ARTIFACTS / name)
    return path


def wait_for_decision(page: Page) -> str:
    """Wait until the human seat decides or the game is over; the phase."""
    page.wait_for_selector("body[data-phase=human], body[data-phase=over], body[data-phase=error]")
    phase = page.get_attribute("body", "data-phase")
    assert phase != "error", page.inner_text("#status")
    return phase


def actions_played(page: Page) -> int:
    return int(page.get_attribute("body", "data-actions"))


def click_first_choice(page: Page) -> None:
    page.locator("#choices button.choice:not(.dimmed)").first.click()


def test_a_whole_game_against_bots_with_undo_language_and_save(page, server_url, ruleset, tmp_path):
    """A human seat plays a 4-player game against bots through the page to the final score sheet."""
    game = Game(ruleset)
    page.goto(f"{server_url}/?delay=0&lang=en")
    page.wait_for_selector("#setup-dialog[open]")
    page.select_option("#setup-players", "4")
    for seat, spec in enumerate(SEATS):
        page.select_option(f"#setup-seat-{seat}", spec)
    page.fill("#setup-seed", str(SEED))
    page.select_option("#setup-lang", "en")
    page.click("#start")

    # The first human decision: pick a crew by clicking its card in the SVG crew area.
    assert wait_for_decision(page) == "human"
    assert page.inner_text("#status") == "Player 1 decides: pick a crew"
    assert page.locator("#ring g.planet").count() == 7
    assert page.locator("#crew g.crew").count() == 6
    before = actions_played(page)
    crew = page.locator("#crew g.crew.clickable").first
    picked = crew.get_attribute("data-id")
    crew.click()
    assert wait_for_decision(page) == "human"
    assert page.locator(f'#crew g.crew[data-id="{picked}"] .worker-pawn').count() == 1
    assert actions_played(page) == before + 1

    # Undo: one more decision, then back to the position before it, its choices unchanged.
    choices = page.locator("#choices button.choice").all_inner_texts()
    log_lines = page.locator("#log li").count()
    played = actions_played(page)
    click_first_choice(page)
    assert wait_for_decision(page) == "human"
    assert actions_played(page) > played
    page.click("#undo")
    assert wait_for_decision(page) == "human"
    assert actions_played(page) == played
    assert page.locator("#log li").count() == log_lines
    assert page.locator("#choices button.choice").all_inner_texts() == choices

    # Japanese: the page's words, the choices and the log switch; then play on in Japanese.
    page.click("#lang-toggle")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text("#undo") == "元に戻す"
    assert page.inner_text("#status").startswith("プレイヤー1の選択")
    assert all(not text.isascii() for text in page.locator("#choices button.choice").all_inner_texts())
    assert not page.locator("#log li").first.inner_text().isascii()
    save_artifact(page, tmp_path, "browser-ja.png")

    planet_clicked = False
    for _ in range(MAX_DECISIONS):
        if wait_for_decision(page) == "over":
            break
        clickable = page.locator("#ring g.planet.clickable")
        if not planet_clicked and clickable.count():
            # A Planet in the SVG: plays its only action, or narrows the choices to its own.
            played = actions_played(page)
            clickable.first.click()
            planet_clicked = True
            if page.get_attribute("body", "data-phase") == "human" and actions_played(page) == played:
                visible = page.locator("#choices button.choice:not(.dimmed)")
                assert 0 < visible.count() < page.locator("#choices button.choice").count()
                click_first_choice(page)
            continue
        click_first_choice(page)
    else:
        pytest.fail(f"the game was not over after {MAX_DECISIONS} human decisions")
    assert planet_clicked

    assert page.inner_text("#score-title") == "最終得点"
    assert page.inner_text("#status") == "ゲーム終了"
    page.click("#lang-toggle")
    assert page.inner_text("#score-title") == "Final score"
    assert page.inner_text("#status") == "Game over"

    # Save: the record the server builds replays to the game the page shows.
    with page.expect_download() as download:
        page.click("#save")
    document = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert document["format"] == records.RECORD_FORMAT
    assert document["seed"] == SEED
    assert document["metadata"] == {"generator": "stargazer serve", "seats": SEATS}
    assert len(document["actions"]) == actions_played(page)
    final = records.final_state(game, records.record_from_json(document, game))
    assert game.is_over(final)
    sheet = game.score(final)
    assert page.inner_text("#winner") == reports.winner_line(sheet, "en")
    totals = page.locator("#score tr.total td").all_inner_texts()
    assert totals[1:] == [str(seat.total) for seat in sheet.seats]
    # The table the terminal prints (text.tables.score_table), cell for cell.
    table = tables.score_table(game, sheet, "en")
    assert page.locator("#score thead th").all_inner_texts() == list(table.headers)
    rows = page.locator("#score tbody tr")
    assert [rows.nth(k).locator("td").all_inner_texts() for k in range(rows.count())] == [list(row) for row in table.rows]

    screenshot = save_artifact(page, tmp_path, "browser-game-over.png")
    assert screenshot.stat().st_size > 10_000


def test_the_page_fills_its_words_as_python_does_and_refuses_any_other_field(page, server_url):
    """app.js's ``fill`` gives every page word, in both languages, the text the library's
    ``messages.fill`` gives; a catalogue field it does not do (``{n:cube|cubes}``) is refused."""
    page.goto(f"{server_url}/?delay=0&lang=en")
    page.wait_for_selector("#setup-dialog[open]")
    words = yaml.safe_load(PAGE_MESSAGES_PATH.read_text(encoding="utf-8"))
    for key, entry in words.items():
        for lang in messages.LANGS:
            values = {name: f"<{name} 1>" for name in messages.placeholders(entry[lang])}
            shown = page.evaluate("([template, values]) => fill(template, values)", [entry[lang], values])
            assert shown == messages.fill(entry[lang], values), (key, lang)
    with pytest.raises(Exception, match=r"the page cannot fill \{count:cube\|cubes\}"):
        page.evaluate("() => fill('Stop ({count:cube|cubes} placed)', { count: 2 })")


def start_a_game_of_bots(page: Page, server_url: str) -> None:
    """A 4-player game of random bots, started from the setup form; it plays itself to the end."""
    page.goto(f"{server_url}/?delay=0&lang=en")
    page.wait_for_selector("#setup-dialog[open]")
    page.select_option("#setup-players", "4")
    for seat in range(4):
        page.select_option(f"#setup-seat-{seat}", "random")
    page.fill("#setup-seed", str(SEED))
    page.click("#start")


#: The width of the marker Chromium draws for list item ``n`` of ``#log`` ("123. "), in pixels,
#: measured in the item's own font.
MARKER_WIDTH = """(n) => {
  const item = document.querySelector("#log li");
  const probe = document.createElement("span");
  probe.style.font = getComputedStyle(item).font;
  probe.style.whiteSpace = "pre";
  probe.style.position = "absolute";
  probe.textContent = `${n}. `;
  document.body.append(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  return width;
}"""


def test_the_game_log_numbers_its_lines_whole_past_a_hundred(page, server_url, tmp_path):
    """Line 100 and up show all their digits ("100.", not "00."): the log's left padding holds
    the widest number it shows."""
    start_a_game_of_bots(page, server_url)
    assert wait_for_decision(page) == "over"
    lines = page.locator("#log li").count()
    assert lines >= 100
    room = page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('log')).paddingLeft)")
    assert page.evaluate(MARKER_WIDTH, lines) <= room
    page.evaluate("() => { const log = document.getElementById('log'); log.scrollTop = log.scrollHeight; }")
    path = tmp_path / "browser-log.png"
    page.locator("#log-panel").screenshot(path=str(path))
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copyfile(path, ARTIFACTS / path.name)


@pytest.mark.parametrize("width", [420, 360])
def test_a_narrow_window_shows_the_page_without_sideways_scrolling(page, server_url, tmp_path, width):
    """At a phone's width the header's buttons wrap and the panels stack in one column: nothing
    is wider than the window."""
    page.set_viewport_size({"width": width, "height": 900})
    start_a_game_of_bots(page, server_url)
    assert wait_for_decision(page) == "over"
    sizes = page.evaluate("""() => ({
        page: document.documentElement.scrollWidth,
        header: [document.querySelector("header").scrollWidth, document.querySelector("header").clientWidth],
        wider: [...document.querySelectorAll("header > *, main > section")]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((element) => element.id || element.tagName),
    })""")
    assert sizes["page"] <= width, sizes
    assert sizes["header"][0] <= sizes["header"][1], sizes
    assert sizes["wider"] == [], sizes
    save_artifact(page, tmp_path, f"browser-{width}px.png")


#: The rendered size of every text of the ring and the crew area, in CSS pixels: its font size
#: in SVG units times the scale its SVG is drawn at (a skill's paragraph, its foreignObject's).
SVG_TEXT_SIZES = """() => Array.from(document.querySelectorAll("#ring text, #crew text, #crew .skill")).map((node) => {
  const drawn = node.closest("foreignObject") || node;
  return { size: parseFloat(getComputedStyle(node).fontSize) * drawn.getScreenCTM().a,
           kind: node.getAttribute("class"), text: node.textContent.slice(0, 30) };
})"""
#: The smallest text a reader is asked to read at a phone's width, in CSS pixels.
SMALLEST_TEXT = 11


def start_a_game_with_a_human_seat(page: Page, server_url: str) -> None:
    """A 4-player game with a human in seat 1, waiting at its first decision."""
    page.goto(f"{server_url}/?delay=0&lang=en")
    page.wait_for_selector("#setup-dialog[open]")
    page.select_option("#setup-players", "4")
    for seat, spec in enumerate(SEATS):
        page.select_option(f"#setup-seat-{seat}", spec)
    page.fill("#setup-seed", str(SEED))
    page.click("#start")
    assert wait_for_decision(page) == "human"


@pytest.mark.parametrize("widths", [(420,), (1280,), (1280, 420)], ids=["420", "1280", "1280-then-420"])
def test_the_ring_numbers_and_crew_text_are_readable_at_a_phones_width(page, server_url, tmp_path, widths):
    """At 420 px the Planets stand in rows and the crew cards in one column, drawn at a unit a
    pixel or more, so every ring number and crew text is at least 11 px; at 1,280 px the ring
    stays a ring. A window narrowed after the game started is laid out again. Nothing is wider
    than the window at either width."""
    page.set_viewport_size({"width": widths[0], "height": 900})
    start_a_game_with_a_human_seat(page, server_url)
    for width in widths[1:]:
        page.set_viewport_size({"width": width, "height": 900})
    width = widths[-1]
    page.wait_for_function("(width) => window.innerWidth === width", arg=width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    sizes = page.evaluate(SVG_TEXT_SIZES)
    kinds = {text["kind"] for text in sizes}
    assert {"square-vp", "special-label", "planet-name", "crew-name", "crew-meta", "skill"} <= kinds
    rows = page.evaluate("() => document.getElementById('ring').classList.contains('rows')")
    if width == 420:
        assert min(text["size"] for text in sizes) >= SMALLEST_TEXT, min(sizes, key=lambda text: text["size"])
        assert rows
    else:
        assert not rows
    # the drawing stays clickable: the first crew is picked from its card
    page.locator("#crew g.crew.clickable").first.click()
    assert wait_for_decision(page) == "human"
    save_artifact(page, tmp_path, f"browser-readable-{'-'.join(map(str, widths))}.png")
