"""Where the bars of a chart go: plain numbers for an SVG template to draw, no drawing library.

A chart fills the width of its card, whatever that is: across, every length is a percentage of the
chart's width, and text is set in pixels, so it never shrinks on a phone. Down, everything is in
pixels. Whether a count fits beside its bar, or a name on one line, is decided for the narrowest
chart, NARROWEST pixels wide (a 320 px screen): what fits there fits on every wider one.

>>> chart = log_bars([("minimax", 100_000), ("alpha-beta", 100)], title="Nodes")  # 5 decades and 2
>>> [(bar.label, bar.width) for bar in chart.bars]
[('100,000', 100.0), ('100', 40.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

FONT = 14  # the text size in pixels; app.css sets the same
LINE = 18  # from one line of a wrapped name to the next
NARROWEST = 256  # the chart's width on a 320 px phone is 262
GAP = 6  # between a bar's end and its count
NAME_GAP = 6  # between a name's last baseline and the top of its bar
ROW_GAP = 14  # between one bar and the next row's name
BAR_HEIGHT = 24
# About how wide each character is drawn, in ems: a little wider than in the widest common font (DejaVu Sans, bold).
EMS = {" ": 0.35, **dict.fromkeys(",.'’()-:;ijlI", 0.4), **dict.fromkeys("frt", 0.5), **dict.fromkeys("mwMW", 1.0)}
DIGIT, LOWER, UPPER = 0.72, 0.7, 0.8


@dataclass(frozen=True, slots=True)
class Tick:
    """A mark on the value axis."""

    x: float  # percent of the chart's width
    label: str
    anchor: str  # "start", "middle" or "end": the first and last labels stay inside the chart


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a log-scale chart, its name above and its exact count beside or inside it."""

    name: str
    lines: tuple[str, ...]  # the name as drawn, wrapped to fit the narrowest chart
    value: int
    label: str  # the exact count, with thousands separators
    name_y: float  # the baseline of the name's first line
    y: float  # the top of the bar
    width: float  # percent of the chart's width
    label_dx: float  # pixels from the bar's end to the count's anchor: past it, or back inside it
    label_inside: bool  # drawn at the inner end of the bar, because there is no room past it


@dataclass(frozen=True, slots=True)
class BarChart:
    """Horizontal bars on a log scale, with gridlines at each power of ten."""

    title: str
    height: float
    bar_height: float
    bars: tuple[Bar, ...]
    ticks: tuple[Tick, ...]
    axis_y: float  # where the gridlines end and the tick labels begin
    line_height: float = LINE  # between the lines of a wrapped name

    @property
    def summary(self) -> str:
        """The whole chart in words, for the accessible name."""
        return "; ".join(f"{bar.name}: {bar.label}" for bar in self.bars)


@dataclass(frozen=True, slots=True)
class Segment:
    """One part of a stacked bar; ``x`` and ``width`` are percentages of the chart's width."""

    kind: str  # names the colour in the stylesheet
    name: str  # what the part counts, such as "X wins"
    value: int
    x: float
    width: float
    label: str
    show_label: bool  # the count fits inside the part, even on the narrowest chart

    @property
    def centre(self) -> float:
        return round(self.x + self.width / 2, 2)


@dataclass(frozen=True, slots=True)
class StackedBar:
    """A bar split into parts that add up to its total, drawn full width."""

    name: str
    lines: tuple[str, ...]
    total: int
    name_y: float
    y: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class StackedChart:
    """Horizontal stacked bars, each showing its parts as shares of its total."""

    title: str
    height: float
    bar_height: float
    bars: tuple[StackedBar, ...]
    kinds: tuple[tuple[str, str], ...]  # (kind, name) of each part, in order: the legend
    line_height: float = LINE

    @property
    def summary(self) -> str:
        """The whole chart in words, for the accessible name."""
        return "; ".join(
            f"{bar.name}: " + ", ".join(f"{s.value:,} {s.name}" for s in bar.segments) for bar in self.bars
        )


def label_width(text: str, size: float = FONT) -> float:
    """About how many pixels wide ``text`` is drawn at ``size``, erring on the wide side.

    >>> label_width("549,946")
    66.08
    """
    ems = sum(EMS.get(c) or (DIGIT if c.isdigit() else UPPER if c.isupper() else LOWER) for c in text)
    return round(ems * size, 2)


def wrap(text: str, width: float = NARROWEST) -> tuple[str, ...]:
    """``text`` in as few lines as fit ``width`` pixels, broken between words, the lines as even as can be.

    >>> wrap("Impossible as X vs Impossible as O")
    ('Impossible as X vs', 'Impossible as O')
    """
    words = text.split()
    fewest = len(_greedy(words, width))
    runs = sorted({label_width(" ".join(words[i:j])) for i in range(len(words)) for j in range(i + 1, len(words) + 1)})
    even = next(run for run in runs if len(_greedy(words, run)) == fewest)
    return tuple(_greedy(words, even))


def _greedy(words: list[str], width: float) -> list[str]:
    """Each line as full as ``width`` allows; a word wider than that takes a line of its own."""
    lines: list[str] = []
    for word in words:
        if lines and label_width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


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


def _rows(names: Sequence[str]) -> list[tuple[tuple[str, ...], float, float]]:
    """Each name's lines, its first baseline and its bar's top, row under row; and the bottom of the last bar."""
    found, top = [], 0.0
    for name in names:
        lines = wrap(name)
        name_y = top + FONT
        bar_y = name_y + (len(lines) - 1) * LINE + NAME_GAP
        found.append((lines, name_y, bar_y))
        top = bar_y + BAR_HEIGHT + ROW_GAP
    return found


def log_bars(items: Sequence[tuple[str, int]], *, title: str) -> BarChart:
    """Bars for (name, count) pairs, each as long as log10 of its count, on an axis of whole decades
    that reaches past the largest count.

    Counts must be whole numbers of at least 1: a count of 1 draws no bar at all, but keeps its label.
    """
    if not items:
        raise ValueError("A chart needs at least one bar.")
    if any(value < 1 for _, value in items):
        raise ValueError("A log scale needs counts of at least 1.")
    decades = max(1, math.ceil(math.log10(max(value for _, value in items))))

    bars = []
    for (name, value), (lines, name_y, bar_y) in zip(items, _rows([name for name, _ in items]), strict=True):
        share = math.log10(value) / decades
        label = f"{value:,}"
        inside = share * NARROWEST + GAP + label_width(label) > NARROWEST
        bars.append(
            Bar(
                name=name,
                lines=lines,
                value=value,
                label=label,
                name_y=name_y,
                y=bar_y,
                width=round(100 * share, 2),
                label_dx=-GAP if inside else GAP,
                label_inside=inside,
            )
        )
    axis_y = bars[-1].y + BAR_HEIGHT + GAP
    ticks = tuple(
        Tick(
            round(100 * power / decades, 2),
            compact(10**power),
            "start" if power == 0 else "end" if power == decades else "middle",
        )
        for power in range(decades + 1)
    )
    return BarChart(title, axis_y + FONT + 2 * GAP, BAR_HEIGHT, tuple(bars), ticks, axis_y)


def stacked_bars(
    rows: Sequence[tuple[str, Sequence[int]]], kinds: Sequence[tuple[str, str]], *, title: str
) -> StackedChart:
    """Full-width bars for (name, counts) rows, split in the order of ``kinds``: (kind, name) pairs.

    A part with a count of 0 is left out; a part too narrow for its count on the narrowest chart
    keeps it unprinted (the table beside the chart has every number).
    """
    if not rows:
        raise ValueError("A chart needs at least one bar.")
    bars = []
    for (name, counts), (lines, name_y, bar_y) in zip(rows, _rows([name for name, _ in rows]), strict=True):
        if len(counts) != len(kinds):
            raise ValueError(f"The row {name!r} has {len(counts)} counts for {len(kinds)} kinds.")
        total = sum(counts)
        if total < 1 or min(counts) < 0:
            raise ValueError(f"The row {name!r} needs counts of 0 or more, and not all 0.")
        segments, start = [], 0
        for (kind, kind_name), value in zip(kinds, counts, strict=True):
            x, share = start / total, value / total
            start += value
            if value:
                label = f"{value:,}"
                fits = share * NARROWEST >= label_width(label) + GAP
                segments.append(Segment(kind, kind_name, value, round(100 * x, 2), round(100 * share, 2), label, fits))
        bars.append(StackedBar(name, lines, total, name_y, bar_y, tuple(segments)))
    height = bars[-1].y + BAR_HEIGHT + GAP
    return StackedChart(title, height, BAR_HEIGHT, tuple(bars), tuple(kinds))
