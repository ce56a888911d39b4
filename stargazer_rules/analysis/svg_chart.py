"""Charts written as SVG text straight from the numbers: the drawing kit of the report's plots.

A chart is one or more ``Panel`` side by side, each with two linear axes (a category axis is a
linear one with a tick at each whole position), and a legend beneath them. A panel collects its
marks first and lays itself out when drawn: the axes' ranges come from the data (bars always
include 0), the ticks are round numbers, the margins are as wide as the tick labels need.

Every data point is one SVG element of class ``mark`` (a bar, a point, a box, a heatmap cell),
the title, axis labels and ticks are ``<text>`` of classes ``title``, ``axis-label`` and
``tick``: the page stays small (no fonts, no paths of glyphs: the browser draws the text) and a
test can count what a figure shows. The colours, font and sizes live here (``THEME``), once.
Text widths are estimated from the number of characters (``text_width``), which is what the
margins need; the text is English (names in ``summary.name``).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence

import attrs

__all__ = ["THEME", "Chart", "Panel", "nice_ticks", "text_width"]


@attrs.frozen
class Theme:
    """The look of every chart: colours by role, the font, the sizes in CSS pixels."""

    blue: str = "#3b6ea8"
    orange: str = "#d9822b"
    grey: str = "#888888"
    green: str = "#4a9a5b"
    ink: str = "#222222"
    axis: str = "#555555"
    font: str = 'system-ui, -apple-system, "Segoe UI", sans-serif'
    font_size: float = 13.0
    tick_size: float = 11.0
    #: CSS pixels per inch of the figure sizes the plots ask for.
    inch: float = 90.0
    #: Room between the parts of a panel (ticks, labels, title).
    gap: float = 5.0
    #: Half the width of a whisker's cap, and the radius of a point.
    cap: float = 4.0
    point: float = 3.5
    #: The heatmap's colours, for 0 and for the largest value.
    cold: tuple[int, int, int] = (247, 251, 255)
    hot: tuple[int, int, int] = (8, 48, 107)


THEME = Theme()

_DASHES = {"dashed": "6 4", "dotted": "2 3", "dashdot": "6 3 2 3", None: None}


def text_width(text: str, size: float = THEME.font_size) -> float:
    """The estimated width of one line of ``text`` at ``size`` px (0.56 em a character)."""
    return max((len(line) for line in str(text).split("\n")), default=0) * 0.56 * size


def _lines(text: str) -> int:
    return str(text).count("\n") + 1


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round numbers (1, 2, 2.5 or 5 times a power of ten apart) covering ``low`` to ``high``.

    >>> nice_ticks(0, 37)
    [0.0, 10.0, 20.0, 30.0, 40.0]
    """
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return [low] if math.isfinite(low) else [0.0]
    raw = (high - low) / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step + 1e-9) * step
    ticks = []
    value = first
    while value < high + step * 0.999:
        ticks.append(round(value, 10) + 0.0)
        value += step
    return ticks


def _tick_text(value: float) -> str:
    return f"{value:,.10g}".replace("-", "\u2212")


def _text(x: float, y: float, text: str, *, size: float = THEME.tick_size, anchor: str = "middle",
          cls: str = "tick", colour: str = THEME.ink, baseline: str = "central", rotate: float | None = None,
          bold: bool = False) -> str:
    """A ``<text>``, one ``<tspan>`` a line for text with newlines (centred on ``y``)."""
    lines = str(text).split("\n")
    transform = f' transform="rotate({_num(rotate)} {_num(x)} {_num(y)})"' if rotate is not None else ""
    weight = ' font-weight="bold"' if bold else ""
    head = (f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" text-anchor="{anchor}" '
            f'dominant-baseline="{baseline}" fill="{colour}"{weight}{transform}>')
    if len(lines) == 1:
        return f"{head}{_esc(text)}</text>"
    top = -(len(lines) - 1) / 2 * 1.15
    spans = "".join(
        f'<tspan x="{_num(x)}" dy="{top if i == 0 else 1.15:.2f}em">{_esc(line)}</tspan>' for i, line in enumerate(lines)
    )
    return f"{head}{spans}</text>"


class _Scale:
    """A linear map from data to pixels."""

    def __init__(self, low: float, high: float, start: float, end: float) -> None:
        self.low, self.high, self.start, self.end = low, high, start, end

    def __call__(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return self.start + (value - self.low) / span * (self.end - self.start)


#: A mark drawn once the panel knows its scales: (x scale, y scale) -> SVG text.
_Draw = Callable[[_Scale, _Scale], str]


@attrs.define
class _Axis:
    """One axis of a panel: its label, its range (from the data unless set), its ticks (round
    numbers, or ``labels`` at whole positions), whether it runs the other way."""

    label: str | None = None
    low: float | None = None
    high: float | None = None
    labels: Sequence[str] | None = None
    ticks: Sequence[float] | None = None
    inverted: bool = False
    shown: bool = True
    names: dict[float, str] | None = None
    seen: list[float] = attrs.Factory(list)

    def extent(self) -> tuple[float, float]:
        """The range drawn: the data's (or as set), 5% wider on a side not set, except at a 0
        the data starts from (a bar's base)."""
        if self.labels is not None:
            return -0.5, len(self.labels) - 0.5
        values = [v for v in self.seen if v is not None and math.isfinite(v)] or [0.0, 1.0]
        least, most = min(values), max(values)
        low = least if self.low is None else self.low
        high = most if self.high is None else self.high
        if high <= low:
            high = low + 1.0
        pad = (high - low) * 0.05
        if self.low is None and least != 0:
            low -= pad
        if self.high is None:
            high += pad
        return low, high

    def tick_list(self, low: float, high: float) -> list[tuple[float, str]]:
        if not self.shown:
            return []
        if self.labels is not None:
            return [(float(i), label) for i, label in enumerate(self.labels)]
        ticks = self.ticks if self.ticks is not None else [t for t in nice_ticks(low, high) if low <= t <= high]
        names = self.names or {}
        return [(float(t), names.get(t, _tick_text(t))) for t in ticks]


class Panel:
    """One pair of axes and its marks (see the module docstring). Sizes are in inches as the
    plots ask for them (``THEME.inch`` pixels each)."""

    def __init__(self, width: float, height: float, *, title: str | None = None, xlabel: str | None = None,
                 ylabel: str | None = None) -> None:
        self.width, self.height = width * THEME.inch, height * THEME.inch
        self.title = title
        self.x, self.y = _Axis(xlabel), _Axis(ylabel)
        self._marks: list[_Draw] = []
        self.legend: list[tuple[str, str, str, str | None]] = []  # (label, kind, colour, dash)

    # -- axes -------------------------------------------------------------------------------

    def categories(self, axis: str, labels: Sequence[str]) -> None:
        """Ticks at 0, 1, ... named ``labels``; a vertical category axis lists them top down."""
        target = self.x if axis == "x" else self.y
        target.labels = list(labels)
        target.inverted = axis == "y"

    def limits(self, axis: str, low: float | None = None, high: float | None = None) -> None:
        target = self.x if axis == "x" else self.y
        target.low, target.high = low, high

    def set_ticks(self, axis: str, ticks: Sequence[float], labels: Sequence[str] | None = None) -> None:
        """Ticks at ``ticks`` (a whole-number axis), named ``labels`` if given."""
        target = self.x if axis == "x" else self.y
        target.ticks = list(ticks)
        if labels is not None:
            target.names = dict(zip(ticks, labels, strict=True))
        target.seen.extend(ticks)

    def hide_ticks(self, axis: str) -> None:
        (self.x if axis == "x" else self.y).shown = False

    def _see(self, xs: Sequence[float], ys: Sequence[float]) -> None:
        self.x.seen.extend(xs)
        self.y.seen.extend(ys)

    def _key(self, label: str | None, kind: str, colour: str, dash: str | None = None) -> None:
        if label is not None:
            self.legend.append((label, kind, colour, dash))

    # -- marks ------------------------------------------------------------------------------

    def bars(self, positions: Sequence[float], values: Sequence[float], *, colour: str, width: float = 0.8,
             horizontal: bool = False, below: Sequence[float] | None = None, above: Sequence[float] | None = None,
             starts: Sequence[float] | None = None, label: str | None = None, height: float | None = None) -> None:
        """A bar per value from ``starts`` (0) at each position, with whiskers ``below`` and
        ``above`` its end when given; ``horizontal`` bars grow along x."""
        starts = list(starts) if starts is not None else [0.0] * len(values)
        ends = [s + v for s, v in zip(starts, values, strict=True)]
        lows = [e - b for e, b in zip(ends, below, strict=True)] if below is not None else ends
        highs = [e + a for e, a in zip(ends, above, strict=True)] if above is not None else ends
        spread = [*starts, *ends, *lows, *highs]
        self._see(spread, positions) if horizontal else self._see(positions, spread)
        thickness = height if height is not None else width
        self._key(label, "bar", colour)

        def draw(sx: _Scale, sy: _Scale) -> str:
            out = []
            along, across = (sx, sy) if horizontal else (sy, sx)
            for p, s, e, lo, hi in zip(positions, starts, ends, lows, highs, strict=True):
                a, b = sorted((along(s), along(e)))
                c, d = sorted((across(p - thickness / 2), across(p + thickness / 2)))
                x, y, w, h = (a, c, b - a, d - c) if horizontal else (c, a, d - c, b - a)
                out.append(f'<rect class="mark" x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
                           f'fill="{colour}"/>')
                if below is not None or above is not None:
                    out.append(_whisker(along(lo), along(hi), across(p), horizontal))
            return "".join(out)

        self._marks.append(draw)

    def points(self, xs: Sequence[float], ys: Sequence[float], *, colour: str, marker: str = "circle",
               xerr: Sequence[Sequence[float]] | None = None, yerr: Sequence[Sequence[float]] | None = None,
               label: str | None = None, colours: Sequence[str] | None = None) -> None:
        """A marker per point (``circle``, ``dot``, ``triangle``), with error bars ``xerr`` or
        ``yerr`` as (below, above) lists; ``colours`` one colour a point."""
        xs, ys = list(xs), list(ys)
        each = list(colours) if colours is not None else [colour] * len(xs)
        span_x = list(xs)
        span_y = list(ys)
        if xerr is not None:
            span_x += [x - b for x, b in zip(xs, xerr[0], strict=True)] + [x + a for x, a in zip(xs, xerr[1], strict=True)]
        if yerr is not None:
            span_y += [y - b for y, b in zip(ys, yerr[0], strict=True)] + [y + a for y, a in zip(ys, yerr[1], strict=True)]
        self._see(span_x, span_y)
        self._key(label, marker, colour)

        def draw(sx: _Scale, sy: _Scale) -> str:
            out = []
            for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
                if xerr is not None:
                    out.append(_whisker(sx(x - xerr[0][i]), sx(x + xerr[1][i]), sy(y), True, each[i]))
                if yerr is not None:
                    out.append(_whisker(sy(y - yerr[0][i]), sy(y + yerr[1][i]), sx(x), False, each[i]))
                out.append(_marker(sx(x), sy(y), marker, each[i]))
            return "".join(out)

        self._marks.append(draw)

    def line(self, xs: Sequence[float], ys: Sequence[float], *, colour: str, dash: str | None = None,
             marker: str | None = None, label: str | None = None, step: bool = False) -> None:
        """A line through the points (a staircase held until the next x with ``step``), a
        ``marker`` at each (a small dot without one)."""
        xs, ys = list(xs), list(ys)
        self._see(xs, ys)
        self._key(label, marker or "line", colour, dash)

        def draw(sx: _Scale, sy: _Scale) -> str:
            if not xs:
                return ""
            corners = []
            for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
                if step and i:
                    corners.append((sx(x), sy(ys[i - 1])))
                corners.append((sx(x), sy(y)))
            path = " ".join(f"{_num(x)},{_num(y)}" for x, y in corners)
            pattern = f' stroke-dasharray="{_DASHES[dash]}"' if dash else ""
            out = [f'<polyline class="line" points="{path}" fill="none" stroke="{colour}" stroke-width="2"{pattern}/>']
            out += [_marker(sx(x), sy(y), marker or "tick", colour) for x, y in zip(xs, ys, strict=True)]
            return "".join(out)

        self._marks.append(draw)

    def band(self, xs: Sequence[float], lows: Sequence[float], highs: Sequence[float], *, colour: str,
             label: str | None = None) -> None:
        """A shaded band between ``lows`` and ``highs``."""
        xs = list(xs)
        self._see(xs, [*lows, *highs])
        self._key(label, "band", colour)

        def draw(sx: _Scale, sy: _Scale) -> str:
            if not xs:
                return ""
            outline = [(sx(x), sy(v)) for x, v in zip(xs, highs, strict=True)]
            outline += [(sx(x), sy(v)) for x, v in reversed(list(zip(xs, lows, strict=True)))]
            path = " ".join(f"{_num(x)},{_num(y)}" for x, y in outline)
            return f'<polygon class="band" points="{path}" fill="{colour}" fill-opacity="0.2"/>'

        self._marks.append(draw)

    def reference(self, value: float, *, axis: str, colour: str, dash: str = "dashed", label: str | None = None) -> None:
        """A line across the panel at ``value`` of ``axis`` (a fair share, say)."""
        (self.y if axis == "y" else self.x).seen.append(value)
        self._key(label, "line", colour, dash)

        def draw(sx: _Scale, sy: _Scale) -> str:
            if axis == "y":
                x1, x2, y1, y2 = sx.start, sx.end, sy(value), sy(value)
            else:
                x1, x2, y1, y2 = sx(value), sx(value), sy.start, sy.end
            return (f'<line class="reference" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
                    f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="{_DASHES[dash]}"/>')

        self._marks.append(draw)

    def boxes(self, rows: Sequence[Sequence[float | None]], *, colour: str, label: str | None = None) -> None:
        """Horizontal box plots, one a category of y: each row (p10, p25, median, p75, p90, mean);
        box: quartiles, whiskers: p10 to p90, line: median, triangle: mean."""
        self.x.seen.extend(v for row in rows for v in row if v is not None)
        self._key(label, "bar", colour)

        def draw(sx: _Scale, sy: _Scale) -> str:
            out = []
            for i, row in enumerate(rows):
                if any(v is None for v in row):
                    continue
                p10, p25, median, p75, p90, mean = (float(v) for v in row)  # type: ignore[arg-type]
                top, bottom = sorted((sy(i - 0.25), sy(i + 0.25)))
                centre = sy(i)
                out.append(f'<line x1="{_num(sx(p10))}" y1="{_num(centre)}" x2="{_num(sx(p25))}" y2="{_num(centre)}" '
                           f'stroke="{THEME.ink}"/>')
                out.append(f'<line x1="{_num(sx(p75))}" y1="{_num(centre)}" x2="{_num(sx(p90))}" y2="{_num(centre)}" '
                           f'stroke="{THEME.ink}"/>')
                for end in (p10, p90):
                    out.append(f'<line x1="{_num(sx(end))}" y1="{_num(top + 3)}" x2="{_num(sx(end))}" '
                               f'y2="{_num(bottom - 3)}" stroke="{THEME.ink}"/>')
                out.append(f'<rect class="mark" x="{_num(sx(p25))}" y="{_num(top)}" width="{_num(sx(p75) - sx(p25))}" '
                           f'height="{_num(bottom - top)}" fill="{colour}" fill-opacity="0.35" stroke="{THEME.ink}"/>')
                out.append(f'<line x1="{_num(sx(median))}" y1="{_num(top)}" x2="{_num(sx(median))}" '
                           f'y2="{_num(bottom)}" stroke="{THEME.orange}" stroke-width="2"/>')
                out.append(_marker(sx(mean), centre, "triangle", THEME.green, cls="mean"))
            return "".join(out)

        self._marks.append(draw)

    def cells(self, grid: Sequence[Sequence[float]], *, high: float, labels: Sequence[tuple[int, int, str]] = ()) -> None:
        """A heatmap: ``grid[row][column]`` shaded from 0 to ``high`` (NaN: no cell), rows down y
        and columns along x; ``labels`` are (row, column, text) drawn on their cells."""

        def draw(sx: _Scale, sy: _Scale) -> str:
            out = []
            for r, row in enumerate(grid):
                for c, value in enumerate(row):
                    if math.isnan(value):
                        continue
                    x1, x2 = sorted((sx(c - 0.5), sx(c + 0.5)))
                    y1, y2 = sorted((sy(r - 0.5), sy(r + 0.5)))
                    out.append(f'<rect class="mark" x="{_num(x1)}" y="{_num(y1)}" width="{_num(x2 - x1)}" '
                               f'height="{_num(y2 - y1)}" fill="{shade(value / high if high else 0)}">'
                               f"<title>{value:.1%}</title></rect>")
            for r, c, text in labels:
                out.append(_text(sx(c), sy(r), text, size=THEME.font_size, cls="cell-label", colour=THEME.orange, bold=True))
            return "".join(out)

        self._marks.append(draw)

    def note(self, x: float, y: float, text: str) -> None:
        """``text`` just above the point (x, y)."""

        def draw(sx: _Scale, sy: _Scale) -> str:
            return _text(sx(x), sy(y) - THEME.gap, text, anchor="middle", baseline="auto", cls="note")

        self._marks.append(draw)

    # -- layout -----------------------------------------------------------------------------

    def render(self, left: float, top: float) -> tuple[str, float, float]:
        """The panel's SVG at (``left``, ``top``), its width and height in pixels."""
        size = THEME.tick_size
        x_range, y_range = self.x.extent(), self.y.extent()
        xt, yt = self.x.tick_list(*x_range), self.y.tick_list(*y_range)
        tick_w = max((text_width(t, size) for _, t in yt), default=0.0)
        margin_left = tick_w + 2 * THEME.gap + (
            (THEME.font_size * 1.2 * _lines(self.y.label) + THEME.gap) if self.y.label else 0)
        tick_lines = max((_lines(t) for _, t in xt), default=0)
        margin_bottom = tick_lines * size * 1.2 + 2 * THEME.gap + (
            (THEME.font_size * 1.2 * _lines(self.x.label)) if self.x.label else 0)
        margin_top = (THEME.font_size * 1.5 + THEME.gap) if self.title else THEME.gap * 2
        margin_right = max(THEME.gap * 3, text_width(xt[-1][1], size) / 2 if xt else 0)
        plot_left, plot_right = left + margin_left, left + self.width - margin_right
        plot_top, plot_bottom = top + margin_top, top + self.height - margin_bottom
        if plot_right - plot_left < 40:
            plot_right = plot_left + 40
        sx = _Scale(*x_range, plot_left, plot_right)
        sx = _Scale(x_range[1], x_range[0], plot_left, plot_right) if self.x.inverted else sx
        sy = (_Scale(*y_range, plot_top, plot_bottom) if self.y.inverted
              else _Scale(*y_range, plot_bottom, plot_top))
        out = ['<g class="panel">']
        if self.title:
            out.append(_text((plot_left + plot_right) / 2, top + THEME.font_size * 0.8, self.title,
                             size=THEME.font_size, cls="title", bold=True))
        out += [mark(sx, sy) for mark in self._marks]
        axis = f'stroke="{THEME.axis}" stroke-width="1"'
        out.append(f'<line class="axis" x1="{_num(plot_left)}" y1="{_num(plot_bottom)}" x2="{_num(plot_right)}" '
                   f'y2="{_num(plot_bottom)}" {axis}/>')
        if self.y.shown or self.y.labels is None:
            out.append(f'<line class="axis" x1="{_num(plot_left)}" y1="{_num(plot_top)}" x2="{_num(plot_left)}" '
                       f'y2="{_num(plot_bottom)}" {axis}/>')
        if len(xt) > 1:  # every k-th label only, when they would overlap (30 rounds on 6 inches)
            room = abs(sx(xt[1][0]) - sx(xt[0][0]))
            widest = max(text_width(t, size) for _, t in xt) + THEME.gap
            every = max(1, math.ceil(widest / room)) if room > 0 else 1
            xt = [(v, t if i % every == 0 else "") for i, (v, t) in enumerate(xt)]
        for value, text in xt:
            x = sx(value)
            out.append(f'<line x1="{_num(x)}" y1="{_num(plot_bottom)}" x2="{_num(x)}" y2="{_num(plot_bottom + 4)}" {axis}/>')
            lines = _lines(text)
            if text:
                out.append(_text(x, plot_bottom + THEME.gap + 2 + lines * size * 0.6, text, size=size))
        for value, text in yt:
            y = sy(value)
            out.append(f'<line x1="{_num(plot_left - 4)}" y1="{_num(y)}" x2="{_num(plot_left)}" y2="{_num(y)}" {axis}/>')
            out.append(_text(plot_left - THEME.gap - 2, y, text, size=size, anchor="end"))
        if self.x.label:
            lines = _lines(self.x.label)
            out.append(_text((plot_left + plot_right) / 2,
                             top + self.height - lines * THEME.font_size * 0.6 - 2, self.x.label,
                             size=THEME.font_size, cls="axis-label"))
        if self.y.label:
            lines = _lines(self.y.label)
            out.append(_text(left + lines * THEME.font_size * 0.6 + 2, (plot_top + plot_bottom) / 2, self.y.label,
                             size=THEME.font_size, cls="axis-label", rotate=-90))
        out.append("</g>")
        return "".join(out), self.width, self.height


def shade(fraction: float) -> str:
    """The heatmap colour of ``fraction`` (0..1) of the largest value."""
    f = min(1.0, max(0.0, fraction))
    r, g, b = (round(c + (h - c) * f) for c, h in zip(THEME.cold, THEME.hot, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _whisker(start: float, end: float, at: float, horizontal: bool, colour: str = THEME.ink) -> str:
    """An interval's line from ``start`` to ``end`` with a cap at each end."""
    cap = THEME.cap
    stroke = f'stroke="{colour}" stroke-width="1.3"'
    if horizontal:
        return (f'<g class="whisker"><line x1="{_num(start)}" y1="{_num(at)}" x2="{_num(end)}" y2="{_num(at)}" {stroke}/>'
                f'<line x1="{_num(start)}" y1="{_num(at - cap)}" x2="{_num(start)}" y2="{_num(at + cap)}" {stroke}/>'
                f'<line x1="{_num(end)}" y1="{_num(at - cap)}" x2="{_num(end)}" y2="{_num(at + cap)}" {stroke}/></g>')
    return (f'<g class="whisker"><line x1="{_num(at)}" y1="{_num(start)}" x2="{_num(at)}" y2="{_num(end)}" {stroke}/>'
            f'<line x1="{_num(at - cap)}" y1="{_num(start)}" x2="{_num(at + cap)}" y2="{_num(start)}" {stroke}/>'
            f'<line x1="{_num(at - cap)}" y1="{_num(end)}" x2="{_num(at + cap)}" y2="{_num(end)}" {stroke}/></g>')


def _marker(x: float, y: float, kind: str, colour: str, cls: str = "mark") -> str:
    r = THEME.point
    if kind == "triangle":
        return (f'<polygon class="{cls}" points="{_num(x)},{_num(y - r * 1.3)} {_num(x - r * 1.2)},{_num(y + r)} '
                f'{_num(x + r * 1.2)},{_num(y + r)}" fill="{colour}"/>')
    if kind == "tick":
        return f'<circle class="{cls}" cx="{_num(x)}" cy="{_num(y)}" r="1.5" fill="{colour}"/>'
    radius = r * (0.7 if kind == "dot" else 1.0)
    return f'<circle class="{cls}" cx="{_num(x)}" cy="{_num(y)}" r="{_num(radius)}" fill="{colour}"/>'


def _swatch(x: float, y: float, kind: str, colour: str, dash: str | None) -> str:
    if kind == "bar":
        return f'<rect x="{_num(x)}" y="{_num(y - 5)}" width="16" height="10" fill="{colour}"/>'
    if kind == "band":
        return f'<rect x="{_num(x)}" y="{_num(y - 5)}" width="16" height="10" fill="{colour}" fill-opacity="0.2"/>'
    pattern = f' stroke-dasharray="{_DASHES[dash]}"' if dash else ""
    line = f'<line x1="{_num(x)}" y1="{_num(y)}" x2="{_num(x + 16)}" y2="{_num(y)}" stroke="{colour}" stroke-width="2"{pattern}/>'
    if kind in ("circle", "dot", "triangle"):
        line += _marker(x + 8, y, kind, colour, cls="swatch")
    return line


class Chart:
    """Panels side by side, a legend beneath (the entries of every panel, each once), an
    optional colour scale on the right; ``svg()`` is the ``<svg>`` element."""

    def __init__(self, *panels: Panel, title: str | None = None, colour_scale: tuple[float, str] | None = None) -> None:
        self.panels = panels
        self.title = title
        self.colour_scale = colour_scale  # (largest value, label)

    def svg(self) -> str:
        size = THEME.font_size
        left, parts, height = 0.0, [], 0.0
        for panel in self.panels:
            drawn, width, tall = panel.render(left, 0.0)
            parts.append(drawn)
            left += width
            height = max(height, tall)
        if self.colour_scale is not None:
            drawn, width = _colour_scale(left, height, *self.colour_scale)
            parts.append(drawn)
            left += width
        entries = list(dict.fromkeys(entry for panel in self.panels for entry in panel.legend))
        if entries:
            drawn, tall = _legend(entries, left, height)
            parts.append(drawn)
            height += tall
        label = self.title or next((p.title for p in self.panels if p.title), None) or "chart"
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{_num(left)}" '
            f'height="{_num(height)}" viewBox="0 0 {_num(left)} {_num(height)}" font-family=\'{THEME.font}\' '
            f'font-size="{_num(size)}"><title>{_esc(label)}</title>{"".join(parts)}</svg>'
        )


def _legend(entries: Sequence[tuple[str, str, str, str | None]], width: float, top: float) -> tuple[str, float]:
    """The legend's row (or rows, when wider than the chart) centred under the panels."""
    size = THEME.tick_size
    rows: list[list[tuple[tuple[str, str, str, str | None], float]]] = [[]]
    used = 0.0
    for entry in entries:
        wide = 22 + text_width(entry[0], size) + 16
        if rows[-1] and used + wide > width:
            rows.append([])
            used = 0.0
        rows[-1].append((entry, wide))
        used += wide
    out = ['<g class="legend">']
    line = size * 1.6
    for number, row in enumerate(rows):
        y = top + THEME.gap + line * (number + 0.5)
        x = (width - sum(wide for _, wide in row)) / 2
        for (label, kind, colour, dash), wide in row:
            out.append(_swatch(x, y, kind, colour, dash))
            out.append(_text(x + 22, y, label, size=size, anchor="start", cls="legend-label"))
            x += wide
    out.append("</g>")
    return "".join(out), THEME.gap * 2 + line * len(rows)


def _colour_scale(left: float, height: float, high: float, label: str) -> tuple[str, float]:
    """The heatmap's key: ten steps from 0 to ``high``, ticked in percent, and its label."""
    size = THEME.tick_size
    top, bottom = THEME.gap * 2, height - 3 * THEME.gap - size * 2.4
    steps = 10
    out = ['<g class="colour-scale">']
    step = (bottom - top) / steps
    for i in range(steps):
        out.append(f'<rect x="{_num(left + 10)}" y="{_num(bottom - (i + 1) * step)}" width="14" height="{_num(step + 0.5)}" '
                   f'fill="{shade((i + 0.5) / steps)}"/>')
    scale = _Scale(0, high, bottom, top)
    for tick in nice_ticks(0, high * 100, 4):
        if tick / 100 <= high + 1e-12:
            out.append(_text(left + 28, scale(tick / 100), f"{tick:g}%", size=size, anchor="start"))
    out.append(_text(left + 28 + text_width("100%", size) + 12, (top + bottom) / 2, label, size=size, cls="axis-label",
                     rotate=-90))
    out.append("</g>")
    return "".join(out), 28 + text_width("100%", size) + 12 + size * 1.5
