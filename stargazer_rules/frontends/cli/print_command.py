"""``stargazer print``: the printable prototype."""

from __future__ import annotations

import argparse

from stargazer_rules.frontends.cli.common import (
    DEFAULT_LANG,
    EXIT_INVALID,
    EXIT_USAGE,
    add_ruleset_argument,
    report_warnings,
    ruleset_or_list_problems,
    say_error,
    summary,
    wrapped,
)
from stargazer_rules.printing.layout import PAPERS
from stargazer_rules.printing.words import PRINT_LANGS


def add_print(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "print",
        help="a printable prototype (PDF), card images and a Tabletop Simulator deck",
        description=wrapped(
            "Print and play: every planet, crew and player-aid card of the ruleset, poker size "
            "with crop marks and a bleed, backs on alternate pages for duplex printing, and "
            "the rules sheet, as one PDF; with --images one PNG per card face and back, with "
            "--tts a Tabletop Simulator saved object of those images. An invalid ruleset "
            "prints its problems as 'stargazer validate' does and writes nothing. See "
            "docs/print.md."
        ),
    )
    add_ruleset_argument(parser, positional=True)
    parser.add_argument(
        "--lang", choices=PRINT_LANGS, default=DEFAULT_LANG,
        help=f"the language of the cards: ja, en, or both on one card; default {DEFAULT_LANG}",
    )
    parser.add_argument(
        "--paper", choices=tuple(PAPERS), default="a4", help="the paper size (default a4)"
    )
    parser.add_argument(
        "--out", default=None, metavar="FILE.pdf",
        help="the PDF to write (default stargazer-RULES-LANG.pdf in the current folder)",
    )
    parser.add_argument(
        "--images", default=None, metavar="DIR", help="also write one PNG per card face and back to DIR"
    )
    parser.add_argument(
        "--tts", default=None, metavar="FILE.json",
        help="also write a Tabletop Simulator saved object referencing the images (needs --images)",
    )
    parser.add_argument(
        "--image-url", default=None, metavar="URL",
        help="the web folder the images will be uploaded to, for --tts (default: local file URLs)",
    )
    parser.set_defaults(run=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the PDF (and images, the Tabletop Simulator object); exit 1 for an invalid
    ruleset (its problems printed as by validate, nothing written), 2 for bad options."""
    from stargazer_rules import printing

    command = "print"
    if args.tts is not None and args.images is None:
        say_error(command, "--tts needs --images DIR: the saved object references the card images")
        return EXIT_USAGE
    ruleset = ruleset_or_list_problems(args.ruleset)
    report_warnings(ruleset, command)
    out = args.out or f"stargazer-{ruleset.name}-{args.lang}.pdf"
    try:
        written = printing.write_pdf(ruleset, out, lang=args.lang, paper=args.paper)
        print(
            f"{written.path}: {written.pages} pages, {written.cards} cards "
            f"({written.per_page} a sheet, faces and backs on {written.card_pages} pages), "
            f"rules sheet on {written.sheet_pages} — {summary(ruleset)}"
        )
        if args.images is not None:
            images = printing.write_images(ruleset, args.images, lang=args.lang)
            print(f"{args.images}: {len(images.paths)} images")
            if args.tts is not None:
                path = printing.write_tts(ruleset, args.tts, images, lang=args.lang, base_url=args.image_url)
                print(f"{path}: Tabletop Simulator saved object")
    except OSError as error:
        say_error(command, str(error))
        return EXIT_INVALID
    return 0
