"""Card images and a Tabletop Simulator saved object, for digital tables.

The images are the PDF's own drawing rasterised, not a second drawing path: each card face and
each kind of back is drawn by ``cards`` on a page of its own (cut size, no bleed, no marks),
and PDFium (``pypdfium2``) renders the pages to PNG. The Tabletop Simulator file is a saved
object (the JSON that the game's "Saved Objects" folder holds): one custom deck per kind of
card (planets, crew, player aids), each card with its own face image and its kind's back,
referencing the images by file URL or under a base URL given for shared games.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pypdfium2
from reportlab.pdfgen.canvas import Canvas

from stargazer_rules.printing import fonts
from stargazer_rules.printing.cards import AID, CREW, PLANET, PrintCard, card_title, draw_back, draw_face, print_cards
from stargazer_rules.printing.layout import CARD_HEIGHT, CARD_WIDTH
from stargazer_rules.printing.words import each, joined, names
from stargazer_rules.rulesets import outputfiles
from stargazer_rules.rulesets.loader import short_fingerprint
from stargazer_rules.rulesets.model import Ruleset

#: Image resolution, dots per inch: 300 is print quality and sharp at any zoom on a table.
DEFAULT_DPI = 300


@attrs.frozen
class CardImages:
    """The images written: ``faces`` maps each card to its PNG, ``backs`` each kind to its."""

    folder: Path
    faces: Mapping[PrintCard, Path]
    backs: Mapping[str, Path]

    @property
    def paths(self) -> tuple[Path, ...]:
        return (*self.faces.values(), *self.backs.values())


def image_name(card: PrintCard) -> str:
    """``planet-lava-1.png``, ``crew-navigator.png``, ``aid-1.png``."""
    return f"{card.id}.png" if card.kind == AID else f"{card.kind}-{card.id}.png"


def back_name(kind: str) -> str:
    return f"back-{kind}.png"


def pixel_size(dpi: int = DEFAULT_DPI) -> tuple[int, int]:
    """The size of a card image in pixels at ``dpi`` (PDFium rounds a page's size up)."""
    scale = dpi / 72
    return -int(-CARD_WIDTH * scale // 1), -int(-CARD_HEIGHT * scale // 1)


def _card_pdf(ruleset: Ruleset, cards: Sequence[PrintCard], kinds: Sequence[str], lang: str) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(CARD_WIDTH, CARD_HEIGHT), invariant=True, initialFontName=fonts.register_font())
    for card in cards:
        draw_face(canvas, ruleset, card, lang, bleed=0)
        canvas.showPage()
    for kind in kinds:
        draw_back(canvas, ruleset, kind, lang, bleed=0)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def write_images(
    ruleset: Ruleset, folder: str | os.PathLike[str], lang: str = "en", dpi: int | None = None
) -> CardImages:
    """One PNG per card face and one per kind of back in ``folder`` (made if missing), at
    ``dpi`` (default ``DEFAULT_DPI``). The images are all rendered before the first is written:
    an error in rendering leaves ``folder`` untouched."""
    dpi = DEFAULT_DPI if dpi is None else dpi
    folder = Path(folder)
    cards = print_cards(ruleset)
    kinds = [kind for kind in (PLANET, CREW, AID) if any(card.kind == kind for card in cards)]
    files = [image_name(card) for card in cards] + [back_name(kind) for kind in kinds]
    document = pypdfium2.PdfDocument(_card_pdf(ruleset, cards, kinds, lang))
    rendered = {}
    try:
        for index, name in enumerate(files):
            page = document[index]
            bitmap = page.render(scale=dpi / 72)
            buffer = io.BytesIO()
            bitmap.to_pil().save(buffer, format="PNG", optimize=True)
            rendered[name] = buffer.getvalue()
            bitmap.close()
            page.close()
    finally:
        document.close()
    outputfiles.output_folder(folder)
    for name, data in rendered.items():
        outputfiles.write_bytes(folder / name, data)
    faces = {card: folder / image_name(card) for card in cards}
    backs = {kind: folder / back_name(kind) for kind in kinds}
    return CardImages(folder=folder, faces=faces, backs=backs)


# -- Tabletop Simulator -----------------------------------------------------------------------

#: A card's pose in a deck lying face down (Tabletop Simulator's own default for decks).
_FACE_DOWN = {"rotX": 0.0, "rotY": 180.0, "rotZ": 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
#: Where each deck lands, left to right, relative to where the object is spawned.
_DECK_X = {PLANET: -3.0, CREW: 0.0, AID: 3.0}


def image_url(path: Path, base_url: str | None) -> str:
    """A local ``file://`` URL, or the image's name under ``base_url`` (a web folder the
    images were uploaded to, so that every player of an online table can load them)."""
    if base_url:
        return base_url.rstrip("/") + "/" + path.name
    return path.resolve().as_uri()


def _guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode("utf-8")).hexdigest()[:6]


def _transform(x: float, y: float = 1.0) -> dict[str, float]:
    return {"posX": x, "posY": y, "posZ": 0.0, **_FACE_DOWN}


def tts_object(ruleset: Ruleset, images: CardImages, lang: str = "en", base_url: str | None = None) -> dict[str, Any]:
    """The saved object: a ``DeckCustom`` per kind of card, each card a ``Card`` with its own
    one-image ``CustomDeck`` entry (``NumWidth`` = ``NumHeight`` = 1, so ``CardID`` is the
    entry's number times 100)."""
    decks = []
    number = 0
    for kind in (PLANET, CREW, AID):
        cards = [card for card in images.faces if card.kind == kind]
        if not cards:
            continue
        back = image_url(images.backs[kind], base_url)
        contained = []
        custom: dict[str, Any] = {}
        for card in cards:
            number += 1
            entry = {
                "FaceURL": image_url(images.faces[card], base_url),
                "BackURL": back,
                "NumWidth": 1,
                "NumHeight": 1,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
            custom[str(number)] = entry
            contained.append({
                "GUID": _guid(ruleset.fingerprint, kind, card.id),
                "Name": "Card",
                "Transform": _transform(_DECK_X[kind]),
                "Nickname": card_title(ruleset, card, lang),
                "Description": card.id,
                "CardID": number * 100,
                "CustomDeck": {str(number): entry},
            })
        decks.append({
            "GUID": _guid(ruleset.fingerprint, kind),
            "Name": "DeckCustom",
            "Transform": _transform(_DECK_X[kind]),
            "Nickname": joined(each(f"kind_{kind}", lang)),
            "Description": f"{ruleset.name} {short_fingerprint(ruleset.fingerprint)}",
            "DeckIDs": [card["CardID"] for card in contained],
            "CustomDeck": custom,
            "ContainedObjects": contained,
        })
    title = joined(names(ruleset.title, lang))
    return {
        "SaveName": f"{title} ({ruleset.name})",
        "Date": "",
        "VersionNumber": "",
        "GameMode": title,
        "Note": f"{ruleset.name}, fingerprint {short_fingerprint(ruleset.fingerprint)}",
        "ObjectStates": decks,
    }


def write_tts(
    ruleset: Ruleset, path: str | os.PathLike[str], images: CardImages, lang: str = "en", base_url: str | None = None
) -> Path:
    """Write the saved object's JSON to ``path`` (atomically)."""
    text = json.dumps(tts_object(ruleset, images, lang, base_url), ensure_ascii=False, indent=2)
    outputfiles.write_text(path, text + "\n")
    return Path(path)


__all__ = ["CardImages", "DEFAULT_DPI", "pixel_size", "tts_object", "write_images", "write_tts"]
