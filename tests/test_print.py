"""``stargazer print``: the printable prototype, its card images and its Tabletop Simulator
object, read back with libraries other than the ones that drew them (pypdf for the PDF's text,
jsonschema for the saved object).

The PDF's text is read as the strings drawn, in drawing order (pypdf's ``visitor_text``): on a
planet card the number of each square is drawn just before its VP, so "square n, then its VP"
is checked for every square of every planet, in order (R1).
"""

from __future__ import annotations

import functools
import io
import json
import math
import re
from pathlib import Path

import jsonschema
import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import load_documents, name, ruleset_documents

from stargazer_rules import load_ruleset
from stargazer_rules.frontends.cli import main
from stargazer_rules.printing import write_images, write_pdf, write_tts
from stargazer_rules.printing.cards import CREW, PLANET, SQUARE_GAP, print_cards, track_grid
from stargazer_rules.printing.document import pdf_bytes
from stargazer_rules.printing.export import pixel_size, tts_object
from stargazer_rules.printing.layout import CARD_HEIGHT, CARD_WIDTH, sheet_layout
from stargazer_rules.printing.words import langs
from stargazer_rules.rulesets.resources import schemas_dir
from stargazer_rules.text.messages import skill_sentences

BUNDLED = ("draft7", "base")
#: Cards on a sheet: 4 x 2 landscape on A4, 3 x 2 landscape on Letter (63 x 88 mm, 3 mm bleed).
PER_PAGE = {"a4": 8, "letter": 6}
#: The paper sizes in points, landscape.
PAGE = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}
#: Image size at the test's resolution (kept low for speed; the size rule is the same).
TEST_DPI = 40


@functools.cache
def ruleset(name_: str):
    return load_ruleset(name_)


def drawn_strings(data: bytes) -> list[list[str]]:
    """Per page, every string drawn, in drawing order, stripped, empty ones left out."""
    pages = []
    for page in pypdf.PdfReader(_stream(data)).pages:
        strings: list[str] = []
        page.extract_text(visitor_text=lambda text, *_: strings.append(text.strip()))
        pages.append([s for s in strings if s])
    return pages


def _stream(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def assert_cards_in_pdf(rules, data: bytes, lang: str) -> None:
    """Every card's name, and every planet's squares ``n`` then ``V[n]`` in order, then its id."""
    strings = [s for page in drawn_strings(data) for s in page]
    everything = squeeze("".join(strings))
    for card in (*rules.planets, *rules.crew):
        for one in langs(lang):
            assert squeeze(card.name.in_lang(one)) in everything, card.id
    cursor = 0
    for card in rules.planets:
        for square, vp in enumerate(card.track, start=1):
            while not (strings[cursor] == str(square) and strings[cursor + 1] == str(vp)):
                cursor += 1
                assert cursor + 1 < len(strings), f"{card.id}: square {square} with {vp} VP not found in order"
            cursor += 2
        while strings[cursor] != card.id:
            cursor += 1
            assert cursor < len(strings), f"{card.id}: id not after its squares"


# -- the PDF ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name_", BUNDLED)
@pytest.mark.parametrize("lang", ["en", "ja", "both"])
def test_pdf_names_every_card_and_every_square_vp_in_order(name_, lang):
    """R1: every planet card shows its squares 1..L with V[n]; every card is named."""
    rules = ruleset(name_)
    data, _ = pdf_bytes(rules, lang, "a4")
    assert_cards_in_pdf(rules, data, lang)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_count_follows_cards_and_paper(paper):
    """Faces and backs of ceil(cards / per sheet) sheets, then the rules sheet; landscape pages."""
    rules = ruleset("draft7")
    data, summary = pdf_bytes(rules, "en", paper)
    reader = pypdf.PdfReader(_stream(data))
    cards = len(rules.planets) + len(rules.crew) + max(rules.player_counts)
    assert summary.cards == cards == 30
    assert summary.per_page == PER_PAGE[paper] == sheet_layout(paper).per_page
    assert summary.card_pages == 2 * math.ceil(cards / PER_PAGE[paper])
    assert summary.sheet_pages >= 1
    assert len(reader.pages) == summary.card_pages + summary.sheet_pages
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(PAGE[paper], abs=0.01)


def test_every_page_footer_names_title_name_and_fingerprint():
    """A printed sheet is traceable to its YAML: title, name and fingerprint on every page."""
    rules = ruleset("draft7")
    data, _ = pdf_bytes(rules, "en", "a4")
    for number, strings in enumerate(drawn_strings(data), start=1):
        footer = (
            f"{rules.title.en} · {rules.name} · fingerprint {rules.fingerprint[:12]} · page {number}"
        )
        assert footer in strings, number


def test_faces_are_followed_by_their_backs_mirrored_for_duplex():
    """Each sheet of faces is followed by its backs: slot (row, column) -> (row, last - column)."""
    layout = sheet_layout("a4")
    assert layout.card_origin(0, back=True) == layout.card_origin(layout.columns - 1)
    assert layout.card_origin(layout.columns + 1, back=True) == layout.card_origin(2 * layout.columns - 2)
    width, _ = layout.page
    left, _ = layout.grid_origin
    cell_w, _ = layout.cell
    assert left == pytest.approx(width - (left + layout.columns * cell_w))  # equal margins
    rules = ruleset("draft7")
    pages = drawn_strings(pdf_bytes(rules, "en", "a4")[0])
    assert rules.planets[0].name.en in pages[0]
    assert "Planet" in pages[1] and rules.planets[0].name.en not in pages[1]


def test_japanese_text_is_embedded_in_the_font_that_ships_with_the_package():
    """The Japanese font is a TrueType font embedded in the PDF, and the text reads back."""
    rules = ruleset("draft7")
    data, _ = pdf_bytes(rules, "ja", "a4")
    reader = pypdf.PdfReader(_stream(data))
    fonts = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            fonts[str(font["/BaseFont"])] = font

    for page in reader.pages[:2]:
        page.extract_text(visitor_text=visit)
    assert fonts and all(base.endswith("+IPAexGothic") for base in fonts)  # a subset of it
    descriptor = next(iter(fonts.values()))["/FontDescriptor"].get_object()
    assert "/FontFile2" in descriptor  # embedded TrueType, not a reference to a system font
    assert "溶岩惑星１" in drawn_strings(data)[0]


def test_crew_cards_carry_survey_count_skill_sentences_always_and_placeholder_marks():
    """The skill is ``skill_sentences`` (as `stargazer rules` prints it); R19's Armstrong is
    always in play; placeholders (R20, and Armstrong's survey count from R19) carry the mark and
    an asterisk on the survey count."""
    rules = ruleset("draft7")
    data, _ = pdf_bytes(rules, "en", "a4")
    text = squeeze("".join(s for page in drawn_strings(data) for s in page))
    for card in rules.crew:
        for sentence in skill_sentences(card, rules, "en"):
            assert squeeze(sentence) in text, card.id
    strings = [s for page in drawn_strings(data) for s in page]
    armstrong = strings.index("Captain Armstrong")
    navigator = strings.index("Navigator")
    assert "always in play" in strings[armstrong:navigator]
    # R19, not the draft, gives his survey count: marked as every value that is not the designer's.
    assert "2*" in strings[armstrong:navigator] and "PLACEHOLDER R20" in strings[armstrong:navigator]
    following = strings[navigator : strings.index("navigator") + 3]
    assert "3*" in following and "PLACEHOLDER R20" in following


def test_rules_sheet_gives_this_rulesets_numbers():
    """The sheet's setup, end and knobs come from the ruleset (R6, R10, R11, R13, R14)."""
    rules = ruleset("draft7")
    data, summary = pdf_bytes(rules, "en", "a4")
    sheet = " ".join(s for page in drawn_strings(data)[summary.card_pages :] for s in page)
    sheet = re.sub(r"\s+", " ", sheet)
    assert "Put all 12 free cubes in the stock" in sheet
    assert "takes the worker and 12 cubes of one colour" in sheet
    assert "Take Captain Armstrong out of the crew cards" in sheet
    assert "score 1 VP for each. Player cubes on it score 2 VP each" in sheet
    assert "reach 3 with 3 players, 4 with 4 players" in sheet
    assert "(a crew holds at most 3)" in sheet
    assert "1. Choose a crew." in sheet and "2. Survey." in sheet and "3. End of turn." in sheet


# -- generated rulesets -------------------------------------------------------------------------

_WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzアイウエオ惑星調査", min_size=1, max_size=14)


@st.composite
def print_documents(draw) -> dict:
    """A generated valid ruleset (tests/strategies.py) with long names, odd track lengths up to
    31 squares and up to 30 crew cards."""
    documents = draw(ruleset_documents())
    for card in documents["planets.yaml"]["planets"]:
        card["name"] = name(" ".join(draw(st.lists(_WORDS, min_size=1, max_size=8))))
        length = draw(st.sampled_from([1, 3, 9, 11, 17, 31]))
        card["track"] = draw(st.lists(st.integers(0, 12), min_size=length, max_size=length))
    crew = documents["crew.yaml"]["crew"]
    extra = draw(st.integers(0, 30 - len(crew))) if len(crew) < 30 else 0
    for index in range(extra):
        crew.append({"id": f"extra{index}", "name": name(f"crew extra {index}"), "survey_count": 1, "skill": []})
    for card in crew:
        card["name"] = name(" ".join(draw(st.lists(_WORDS, min_size=1, max_size=6))))
    return documents


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(documents=print_documents(), paper=st.sampled_from(["a4", "letter"]))
def test_generated_rulesets_print_every_name_and_square(documents, paper):
    """Any valid ruleset prints: long names, odd and long tracks, many crew; pages follow the
    card count."""
    rules = load_documents(documents)
    data, summary = pdf_bytes(rules, "en", paper)
    assert_cards_in_pdf(rules, data, "en")
    cards = len(rules.planets) + len(rules.crew) + max(rules.player_counts)
    assert summary.card_pages == 2 * math.ceil(cards / PER_PAGE[paper])
    assert len(pypdf.PdfReader(_stream(data)).pages) == summary.pages


@given(length=st.integers(1, 300))
def test_any_track_length_fits_its_area(length):
    """The squares shrink, and wrap into rows, so that any track length fits (never clips)."""
    width, height = CARD_WIDTH - 8, CARD_HEIGHT / 2
    columns, rows, size = track_grid(length, width, height)
    assert columns * rows >= length > (rows - 1) * columns
    assert size > 0
    assert columns * size + (columns - 1) * SQUARE_GAP <= width + 1e-6
    assert rows * size + (rows - 1) * SQUARE_GAP <= height + 1e-6


# -- images and Tabletop Simulator --------------------------------------------------------------


def test_pixel_size_is_the_card_at_the_resolution():
    """63 x 88 mm at 300 dpi, rounded up as PDFium renders a page."""
    assert pixel_size(300) == (745, 1040)


def test_one_image_per_card_and_back_at_the_card_size(tmp_path):
    from PIL import Image

    rules = ruleset("draft7")
    images = write_images(rules, tmp_path / "images", lang="ja", dpi=TEST_DPI)
    cards = print_cards(rules)
    assert set(images.faces) == set(cards)
    assert set(images.backs) == {"planet", "crew", "aid"}
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == sorted(p.name for p in images.paths)
    assert len(images.paths) == len(cards) + 3
    for path in images.paths:
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert image.size == pixel_size(TEST_DPI)
    assert [p.name for p in tmp_path.iterdir()] == ["images"]  # no temporary folder left


@functools.cache
def tts_schema() -> dict:
    return json.loads((schemas_dir() / "tts_saved_object.schema.json").read_text(encoding="utf-8"))


def test_tts_saved_object_validates_and_names_every_image(tmp_path):
    """A deck per kind (planets, crew, player aids); every face and back image referenced."""
    rules = ruleset("draft7")
    images = write_images(rules, tmp_path / "images", dpi=TEST_DPI)
    path = write_tts(rules, tmp_path / "stargazer.json", images)
    saved = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(tts_schema()).validate(saved)
    decks = {deck["Nickname"]: deck for deck in saved["ObjectStates"]}
    assert list(decks) == ["Planet", "Crew", "Player aid"]
    assert [card["Nickname"] for card in decks["Crew"]["ContainedObjects"]] == [c.name.en for c in rules.crew]
    assert [card["Description"] for card in decks["Planet"]["ContainedObjects"]] == [c.id for c in rules.planets]
    faces, backs = set(), set()
    for deck in saved["ObjectStates"]:
        assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]]
        for card in deck["ContainedObjects"]:
            (number, entry), = card["CustomDeck"].items()
            assert card["CardID"] == int(number) * 100
            assert deck["CustomDeck"][number] == entry
            faces.add(entry["FaceURL"])
            backs.add(entry["BackURL"])
    assert faces == {p.resolve().as_uri() for p in images.faces.values()}
    assert backs == {p.resolve().as_uri() for p in images.backs.values()}


def test_tts_image_url_puts_images_under_a_web_folder(tmp_path):
    rules = ruleset("base")
    images = write_images(rules, tmp_path / "images", dpi=TEST_DPI)
    saved = tts_object(rules, images, base_url="https://example.org/stargazer/")
    jsonschema.Draft202012Validator(tts_schema()).validate(saved)
    first = saved["ObjectStates"][0]["ContainedObjects"][0]["CustomDeck"]
    assert next(iter(first.values()))["FaceURL"] == f"https://example.org/stargazer/planet-{rules.planets[0].id}.png"


# -- the command ----------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_print_command_writes_pdf_images_and_tts(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("stargazer_rules.printing.export.DEFAULT_DPI", TEST_DPI)
    status, out, err = run(
        capsys, "print", "base", "--lang", "both", "--paper", "letter", "--images", "img", "--tts", "base.json"
    )
    assert (status, err) == (0, "")
    rules = ruleset("base")
    assert (tmp_path / "stargazer-base-both.pdf").is_file()
    assert out.splitlines()[0].startswith("stargazer-base-both.pdf: ")
    assert f"fingerprint {rules.fingerprint[:12]}" in out
    assert len(list((tmp_path / "img").iterdir())) == len(print_cards(rules)) + 3
    jsonschema.Draft202012Validator(tts_schema()).validate(json.loads(Path("base.json").read_text(encoding="utf-8")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base.json", "img", "stargazer-base-both.pdf"]


def test_print_of_an_invalid_ruleset_prints_validates_errors_and_writes_nothing(capsys, tmp_path):
    """The same located problems as `stargazer validate`, exit 1, no file."""
    from ruleset_edits import copy_ruleset, replace

    folder = copy_ruleset(tmp_path, "draft7")
    replace(folder, "planets.yaml", "colour: red", "colour: rd")
    validate = run(capsys, "validate", str(folder))
    out_pdf = tmp_path / "out.pdf"
    printed = run(capsys, "print", str(folder), "--out", str(out_pdf), "--images", str(tmp_path / "img"))
    assert printed == validate
    assert printed[0] == 1
    assert "planets.yaml:" in printed[1]
    assert not out_pdf.exists() and not (tmp_path / "img").exists()


def test_print_usage_errors_exit_2(capsys, tmp_path):
    status, _, err = run(capsys, "print", "--tts", str(tmp_path / "x.json"))
    assert status == 2 and "--tts needs --images" in err
    with pytest.raises(SystemExit) as exit_:
        main(["print", "--paper", "a3"])
    assert exit_.value.code == 2
    assert list(tmp_path.iterdir()) == []


def test_pdf_is_written_whole_under_its_name(tmp_path):
    """Written to a temporary file and renamed: the old file is replaced, no temporary left."""
    target = tmp_path / "proto.pdf"
    target.write_bytes(b"old")
    summary = write_pdf(ruleset("base"), target, lang="en", paper="a4")
    assert target.read_bytes().startswith(b"%PDF-")
    assert summary.path == target
    assert [p.name for p in tmp_path.iterdir()] == ["proto.pdf"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_sheet_draws_the_tables_of_stargazer_rules(lang):
    """The sheet's two tables are ``text.tables``' counts and setups, cell for cell, the ones
    ``stargazer rules`` prints: the round limit (R10) in both."""
    from stargazer_rules.text import tables
    from stargazer_rules.text.reports import ruleset_report

    rules = ruleset("draft7")
    data, summary = pdf_bytes(rules, lang, "a4")
    # A cell's paragraph may wrap: the sheet's strings are read as one text, lines joined.
    joiner = "" if lang == "ja" else " "
    sheet = joiner.join(s for page in drawn_strings(data)[summary.card_pages :] for s in page)
    report = ruleset_report(rules, lang)
    for table in (tables.counts_table(rules, lang), tables.setups_table(rules, lang)):
        cells = [*(table.headers or ()), *(cell for row in table.rows for cell in row)]
        assert [cell for cell in cells if cell not in sheet] == []
        assert [cell for cell in cells if cell not in report] == []
    label, value = tables.counts_table(rules, lang).rows[-2]
    assert value == "30" and f"{label}{joiner}30" in sheet


def _placed_strings(page) -> list[tuple[str, float, float, float]]:
    """A page's strings as drawn: (text, font size, x, y), y upwards from the foot of the page."""
    placed: list[tuple[str, float, float, float]] = []

    def visit(text, cm, tm, _font, size):
        if text.strip():
            placed.append((text.strip(), size, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)
    return placed


@pytest.mark.parametrize("name_", BUNDLED)
@pytest.mark.parametrize("lang", ["en", "ja", "both"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_heading_of_the_rules_sheet_is_left_alone_at_the_foot_of_a_column(name_, lang, paper):
    """Each heading has text below it in its own column: one that would end a column starts
    the next with what follows it (the English A4 sheet of draft 7 ended its first column with
    "End of a round, end of the game")."""
    from stargazer_rules.printing.sheet import HEADING_SIZE

    data, summary = pdf_bytes(ruleset(name_), lang, paper)
    pages = pypdf.PdfReader(_stream(data)).pages[summary.card_pages :]
    headings = set()  # (page, column, line): a Japanese heading is drawn as several strings
    for number, page in enumerate(pages):
        middle = float(page.mediabox.width) / 2
        placed = [item for item in _placed_strings(page) if item[1] > 7.5]  # the footer is smaller
        for text, size, x, y in placed:
            if size == HEADING_SIZE:
                headings.add((number, x > middle, round(y)))
                below = [other for other, _, ox, oy in placed if (ox > middle) == (x > middle) and oy < y - 1]
                assert below, f"{text!r} ends its column"
    assert len(headings) == 5 * len(langs(lang))


#: Opening brackets a Japanese line may not end with (kinsoku): the text they open is on the next line.
OPENING = ("（", "「")


def _wrapped_lines(flowables, width):
    """The lines of every paragraph of ``flowables`` (table cells at their column's width)
    as ReportLab wraps them at ``width``."""
    from reportlab.platypus import Paragraph, Table

    from stargazer_rules.printing.sheet import _KeptTogether

    for flowable in flowables:
        if isinstance(flowable, _KeptTogether):
            yield from _wrapped_lines(flowable.parts, width)
        elif isinstance(flowable, Paragraph):
            flowable.wrap(width, 10_000)
            for line in flowable.blPara.lines:
                words = line.words if hasattr(line, "words") else line[1]
                yield "".join(word if isinstance(word, str) else word.text for word in words)
        elif isinstance(flowable, Table):
            cells = [cell for row in flowable._cellvalues for cell in row]
            yield from _wrapped_lines(cells, flowable._colWidths[0] - 12)


@pytest.mark.parametrize("name_", [*BUNDLED, "ideas"])
@pytest.mark.parametrize("width", [150, 190, 230])
def test_no_wrapped_japanese_line_of_the_rules_sheet_ends_in_an_opening_bracket(name_, width):
    """A wrapped line of the printed Japanese sheet never ends in （ or 「: the bracket goes
    down with what it opens, at three column widths so that lines break in many places."""
    from stargazer_rules.printing.sheet import sheet_story

    lines = list(_wrapped_lines(sheet_story(ruleset(name_), "ja", width), width))
    assert len(lines) > 80  # the sheet was wrapped, not skipped
    assert [line for line in lines if line.rstrip().endswith(OPENING)] == []
    assert any(opening in line for line in lines for opening in OPENING)  # the brackets are there


# -- what the page shows, counted in pixels ---------------------------------------------------

#: The resolution the pixel tests render at: 8-point text is about 11 pixels tall.
PIXEL_DPI = 100
#: A pixel darker than this (0 black, 255 white) is ink.
DARK = 128


def _ink_rows(image, box: tuple[int, int, int, int]) -> list[int]:
    """How many dark pixels each pixel row of ``box`` (left, top, right, bottom) holds."""
    grey = image.convert("L").crop(box)
    width, height = grey.size
    pixels = grey.load()
    return [sum(1 for x in range(width) if pixels[x, y] < DARK) for y in range(height)]


def _text_lines(rows: list[int]) -> int:
    """The runs of inked pixel rows separated by blank ones: the lines of text drawn."""
    return sum(1 for y, ink in enumerate(rows) if ink and (y == 0 or not rows[y - 1]))


@pytest.mark.parametrize("lang", ["en", "ja", "both"])
def test_player_aid_text_is_ink_on_the_card_line_by_line(lang, tmp_path):
    """The player aid's turn, end and score are printed dark on white below the band: each line
    the text is wrapped into is a run of inked pixel rows, and the text area is inked at a text's
    density, not blank (the band's white ink once carried on into the text)."""
    from PIL import Image

    from stargazer_rules.printing import fonts
    from stargazer_rules.printing.cards import AID_SIZE, aid_paragraphs, aid_text_box

    rules = ruleset("draft7")
    images = write_images(rules, tmp_path / "images", lang=lang, dpi=PIXEL_DPI)
    x, top, width, height = aid_text_box()
    scale = PIXEL_DPI / 72  # PDF points (y up from the bottom) to pixels (y down from the top)
    box = (round(x * scale), round((CARD_HEIGHT - top) * scale),
           round((x + width) * scale), round((CARD_HEIGHT - top + height) * scale))
    with Image.open(images.folder / "aid-1.png") as image:
        rows = _ink_rows(image, box)
    paragraphs = [line for one in langs(lang) for line in aid_paragraphs(rules, one)]
    _, wrapped = fonts.fit_paragraphs(paragraphs, width, height, AID_SIZE)
    assert _text_lines(rows) == sum(len(lines) for lines in wrapped)
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert sum(rows) / area > 0.03  # 8-point text inks 5-8% of its area (en, ja, both); a blank card 0
