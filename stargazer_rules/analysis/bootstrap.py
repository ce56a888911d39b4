"""The bootstrap every target's interval and paired change comes from: resampled sums of parts.

A measure's figure is a function of sums over games (``analysis.measures``). A bootstrap resample
of ``n`` games drawn with replacement is a count per game (how often it was drawn), so the
resample's sums are those counts times the games' parts: one matrix product per block of
resamples, whatever the measure. A comparison draws the same counts for both runs' games of the
same deals (game ``i`` of A and of B), which is the paired bootstrap: the luck of the deal cancels.

The generator is seeded (``SEED``): the same games give the same intervals on every machine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from stargazer_rules.analysis.measures import Measure, MeasureContext

__all__ = ["DRAWS", "SEED", "PartMatrix", "draws_of", "part_matrix", "parts_of", "resample_counts"]

#: Bootstrap resamples, and the generator's seed.
DRAWS = 1000
SEED = 20240601
#: Resamples drawn at once (bounds the memory: BLOCK x games counts).
BLOCK = 100
#: Games whose parts are turned into an array at once.
_CHUNK = 1000


class PartMatrix:
    """The parts of one measure over some games: ``subjects`` (their order), ``data`` of shape
    (games, subjects, parts, 2) holding numerator and denominator, and ``games_in`` (per subject,
    the games where it has any denominator: a card's games in play)."""

    def __init__(self, subjects: Sequence[str], data: np.ndarray) -> None:
        self.subjects = list(subjects)
        self.data = data
        self.games_in = (data[..., 1] > 0).any(axis=2).sum(axis=0) if data.size else np.zeros(len(subjects), int)

    def values(self, measure: Measure, sums: np.ndarray | None = None) -> np.ndarray:
        """The measure's value per subject from ``sums`` (..., subjects, parts, 2); the whole
        games' sums by default. NaN where a ratio has no denominator."""
        sums = self.data.sum(axis=0) if sums is None else sums
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios = np.where(sums[..., 1] > 0, sums[..., 0] / np.where(sums[..., 1] > 0, sums[..., 1], 1), np.nan)
        return np.asarray(measure.value(ratios), dtype=float)

    def draws(self, measure: Measure, counts: Iterator[np.ndarray]) -> np.ndarray:
        """The measure per subject in each resample (draws, subjects)."""
        games = self.data.shape[0]
        flat = self.data.reshape(games, -1)
        out = [self.values(measure, (block @ flat).reshape((len(block), *self.data.shape[1:]))) for block in counts]
        return np.concatenate(out) if out else np.empty((0, len(self.subjects)))


def part_matrix(
    measure: Measure,
    games: Sequence[Mapping[str, Any]],
    context: MeasureContext,
    subjects: Sequence[str] | None = None,
    per_game: Sequence[Mapping[str, Sequence[tuple[float, float]]]] | None = None,
) -> PartMatrix:
    """The parts of ``measure`` in ``games``; ``subjects`` fixes their order (and adds those a
    game lacks: a card of only one of two compared drafts), else the order they first appear in.
    ``per_game`` are the games' parts when the caller has them (``parts_of``)."""
    if per_game is None:
        per_game = parts_of(measure, games, context)
    order = list(subjects) if subjects is not None else list(dict.fromkeys(s for parts in per_game for s in parts))
    width = max((len(pairs) for parts in per_game for pairs in parts.values()), default=1)
    where = {subject: index for index, subject in enumerate(order)}
    # rows of Python floats first, one array per chunk of games: item by item assignment into an
    # array costs more than the parts themselves, and rows of every game at once cost memory
    empty = [(0.0, 0.0)] * width
    data = np.zeros((len(games), len(order), width, 2))
    for first in range(0, len(per_game), _CHUNK):
        rows = []
        for parts in per_game[first:first + _CHUNK]:
            row = [empty] * len(order)
            for subject, pairs in parts.items():
                s = where.get(subject)
                if s is not None:
                    row[s] = [*pairs, *empty[len(pairs):]] if len(pairs) < width else pairs
            rows.append(row)
        if order:
            data[first:first + len(rows)] = np.array(rows, dtype=float).reshape(len(rows), len(order), width, 2)
    return PartMatrix(order, data)


def parts_of(measure: Measure, games: Sequence[Mapping[str, Any]], context: MeasureContext) -> list[Any]:
    """Each game's parts of ``measure`` (subject -> its (numerator, denominator) pairs)."""
    return [measure.parts(game, context) for game in games] if measure.parts else []


def draws_of(matrices: Sequence[tuple[PartMatrix, Measure]], games: int) -> list[np.ndarray]:
    """Each matrix's ``PartMatrix.draws`` of its measure, from one set of resamples of
    ``games`` games drawn once for all of them (every matrix has those games' rows)."""
    flats = [matrix.data.reshape(games, -1) for matrix, _ in matrices]
    found: list[list[np.ndarray]] = [[] for _ in matrices]
    for block in resample_counts(games):
        for (matrix, measure), flat, out in zip(matrices, flats, found, strict=True):
            out.append(matrix.values(measure, (block @ flat).reshape((len(block), *matrix.data.shape[1:]))))
    return [np.concatenate(out) if out else np.empty((0, len(matrix.subjects)))
            for out, (matrix, _) in zip(found, matrices, strict=True)]


def resample_counts(games: int, draws: int = DRAWS, seed: int = SEED) -> Iterator[np.ndarray]:
    """``draws`` bootstrap resamples of ``games`` games, as blocks of per-game counts (block, games)."""
    rng = np.random.default_rng(seed)
    left = draws
    while left > 0:
        size = min(BLOCK, left)
        picks = rng.integers(0, games, size=(size, games))
        counts = np.empty((size, games))
        for row, picked in enumerate(picks):  # a row at a time: no index arrays of the block's size
            counts[row] = np.bincount(picked, minlength=games)
        yield counts
        left -= size
