"""The JSON the analysis writes (summary.json, comparison.json): plain values, short floats.

One convention for both files, so that a figure reads the same in each: tuples become lists,
floats are rounded to 6 decimals (whole floats stay floats), NaN and infinities become null.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["plain"]


def plain(value: Any) -> Any:
    """``value`` with tuples as lists, floats rounded to 6 decimals, NaN and inf as None."""
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return None
        return round(value, 6)
    return value
