"""Print and play: the ruleset the simulator plays as a printable prototype (PDF), card images
and a Tabletop Simulator saved object (``stargazer print``, docs/print.md).

One module per job: ``layout`` (paper, grid, bleed, crop marks), ``cards`` (drawing one card),
``sheet`` (the rules sheet), ``document`` (the PDF), ``export`` (PNG images and the Tabletop
Simulator JSON), with ``fonts`` (the embedded Japanese font, fitting text) and ``words`` (the
printed matter's catalogue). The public names are imported on first use, so that the command
line reads ``layout`` and ``words`` without loading the PDF libraries.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Each public name and the module that defines it.
_PUBLIC = {
    "PrintSummary": "document",
    "write_images": "export",
    "write_pdf": "document",
    "write_tts": "export",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_PUBLIC[name]}"), name)
