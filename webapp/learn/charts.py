"""Where the bars of a chart go: plain numbers for an SVG template to draw, no drawing library.

Every chart has a row per bar, the bar's name above it and its exact count beside or inside
it, so the names never compete with the bars for width on a narrow phone. Lengths are in the
chart's own units (its viewBox); the page scales the whole drawing to fit.

>>> chart = log_bars([("minimax", 100_000), ("alpha-beta", 100)], title="Nodes")  # 5 decades and 2
>>> [(bar.label, bar.width) for bar in chart.bars]
[('100,000', 400.0), ('100', 160.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

FONT = 14  # the text size in chart units; app.css sets the same
CHAR = 0.62 * FONT  # a generous average width of a character, to tell whether a label fits
GAP = 6  # between a bar's end and its label
NAME_GAP = 6  # between a name's baseline and the top of its bar
ROW_GAP = 14  # between one bar and the next row's name
WIDTH = 400
BAR_HEIGHT = 24


@dataclass(frozen=True, slots=True)
class Tick:
    """A mark on the value axis."""

    x: float
    label: str
    anchor: str  # "start", "middle" or "end": the first and last labels stay inside the chart


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a log-scale chart, its name above and its exact count beside or inside it."""

    name: str
    value: int
    label: str  # the exact count, with thousands separators
    name_y: float  # the baseline of the name
    y: float  # the top of the bar
    width: float
    label_x: float
    label_inside: bool  # drawn at the inner end of the bar, because there is no room past it


@dataclass(frozen=True, slots=True)
class BarChart:
    """Horizontal bars on a log scale, with gridlines at each power of ten."""

    title: str
    width: float
    height: float
    bar_height: float
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    axis_y: float  # where the gridlines end and the tick labels begin

    @property
    def summary(self) -> str:
        """The whole chart in words, for the accessible name."""
        return "; ".join(f"{bar.name}: {bar.label}" for bar in self.bars)


@dataclass(frozen=True, slots=True)
class Segment:
    """One part of a stacked bar."""

    kind: str  # names the colour in the stylesheet
    name: str  # what the part counts, such as "X wins"
    value: int
    x: float
    width: float
    label: str
    show_label: bool  # the count fits inside the part

    @property
    def centre(self) -> float:
        return round(self.x + self.width / 2, 2)


@dataclass(frozen=True, slots=True)
class StackedBar:
    """A bar split into parts that add up to its total, drawn full width."""

    name: str
    total: int
    name_y: float
    y: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class StackedChart:
    """Horizontal stacked bars, each showing its parts as shares of its total."""

    title: str
    width: float
    height: float
    bar_height: float
    bars: tuple[StackedBar, ...]
    kinds: tuple[tuple[str, str], ...]  # (kind, name) of each part, in order: the legend

    @property
    def summary(self) -> str:
        """The whole chart in words, for the accessible name."""
        return "; ".join(
            f"{bar.name}: " + ", ".join(f"{s.value:,} {s.name}" for s in bar.segments) for bar in self.bars
        )


def label_width(text: str) -> float:
    """About how wide ``text`` is drawn, erring on the wide side."""
    return len(text) * CHAR


def compact(value: int) -> str:
    """A round number for an axis.

    >>> [compact(v) for v in (1, 100, 1_000, 10_000, 1_000_000)]
    ['1', '100', '1,000', '10k', '1M']
    """
    if value >= 1_000_000 and value % 1_000_000 == 0:
        return f"{value // 1_000_000}M"
    if value >= 10_000 and value % 1000 == 0:
        return f"{value // 1000}k"
    return f"{value:,}"


def _row_top(index: int) -> float:
    return index * (FONT + NAME_GAP + BAR_HEIGHT + ROW_GAP)


def log_bars(items: Sequence[tuple[str, int]], *, title: str, width: float = WIDTH) -> BarChart:
    """Bars for (name, count) pairs, each as long as log10 of its count, on an axis of whole decades.

    Counts must be whole numbers of at least 1: a count of 1 draws no bar at all, but keeps its label.
    """
    if not items:
        raise ValueError("A chart needs at least one bar.")
    if any(value < 1 for _, value in items):
        raise ValueError("A log scale needs counts of at least 1.")
    decades = max(1, math.ceil(math.log10(max(value for _, value in items))))
    scale = width / decades

    bars = []
    for index, (name, value) in enumerate(items):
        top = _row_top(index)
        length = round(math.log10(value) * scale, 2)
        label = f"{value:,}"
        inside = length + GAP + label_width(label) > width
        bars.append(
            Bar(
                name=name,
                value=value,
                label=label,
                name_y=top + FONT,
                y=top + FONT + NAME_GAP,
                width=length,
                label_x=round(length - GAP if inside else length + GAP, 2),
                label_inside=inside,
            )
        )
    axis_y = _row_top(len(items)) - ROW_GAP + GAP
    ticks = tuple(
        Tick(
            round(power * scale, 2),
            compact(10**power),
            "start" if power == 0 else "end" if power == decades else "middle",
        )
        for power in range(decades + 1)
    )
    return BarChart(title, width, axis_y + FONT + 2 * GAP, BAR_HEIGHT, tuple(bars), ticks, axis_y)


def stacked_bars(
    rows: Sequence[tuple[str, Sequence[int]]],
    kinds: Sequence[tuple[str, str]],
    *,
    title: str,
    width: float = WIDTH,
) -> StackedChart:
    """Full-width bars for (name, counts) rows, split in the order of ``kinds``: (kind, name) pairs.

    A part with a count of 0 is left out; a part too narrow for its count keeps it unprinted
    (the table beside the chart has every number).
    """
    if not rows:
        raise ValueError("A chart needs at least one bar.")
    bars = []
    for index, (name, counts) in enumerate(rows):
        if len(counts) != len(kinds):
            raise ValueError(f"The row {name!r} has {len(counts)} counts for {len(kinds)} kinds.")
        total = sum(counts)
        if total < 1 or min(counts) < 0:
            raise ValueError(f"The row {name!r} needs counts of 0 or more, and not all 0.")
        top = _row_top(index)
        segments, start = [], 0
        for (kind, kind_name), value in zip(kinds, counts, strict=True):
            x, end = start * width / total, (start + value) * width / total
            start += value
            if value:
                label = f"{value:,}"
                fits = end - x >= label_width(label) + GAP
                segments.append(Segment(kind, kind_name, value, round(x, 2), round(end - x, 2), label, fits))
        bars.append(StackedBar(name, total, top + FONT, top + FONT + NAME_GAP, tuple(segments)))
    height = _row_top(len(rows)) - ROW_GAP + GAP
    return StackedChart(title, width, height, BAR_HEIGHT, tuple(bars), tuple(kinds))
