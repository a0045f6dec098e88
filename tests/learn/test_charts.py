import itertools
import math

import pytest

from webapp.learn.charts import (
    BAR_HEIGHT,
    FONT,
    GAP,
    LINE,
    NARROWEST,
    compact,
    label_width,
    log_bars,
    stacked_bars,
    wrap,
)

# The nodes each search visits to choose the first move, as stats.numbers() finds them.
SEARCHES = [
    ("Plain minimax", 549_946),
    ("Alpha-beta", 20_866),
    ("Alpha-beta with move ordering", 2_080),
    ("Alpha-beta with move ordering and a transposition table", 243),
]
OUTCOMES = (("x", "X wins"), ("draw", "draws"), ("o", "O wins"))


def right_end(bar, width=NARROWEST) -> float:
    """Where a bar's count ends, in pixels, on a chart ``width`` pixels wide."""
    anchor = bar.width * width / 100 + bar.label_dx
    return anchor if bar.label_inside else anchor + label_width(bar.label)


# --- the log-scale bars ----------------------------------------------------------------------


def test_each_bar_is_as_long_as_the_log_of_its_count():
    chart = log_bars(SEARCHES, title="Nodes")
    # 549,946 needs six decades, so the axis runs from 1 to 1,000,000 across the whole width.
    for bar, (_, nodes) in zip(chart.bars, SEARCHES, strict=True):
        assert bar.width == pytest.approx(100 * math.log10(nodes) / 6, abs=0.01)


def test_ratios_of_counts_become_differences_of_length():
    chart = log_bars([("a", 100_000), ("b", 10_000), ("c", 1_000), ("d", 10)], title="Tenfold")
    widths = [bar.width for bar in chart.bars]
    assert widths == [pytest.approx(20 * n) for n in (5, 4, 3, 1)]
    assert widths[0] - widths[1] == pytest.approx(widths[1] - widths[2]) == pytest.approx(20)


def test_labels_carry_the_exact_counts():
    chart = log_bars(SEARCHES, title="Nodes")
    assert [bar.label for bar in chart.bars] == ["549,946", "20,866", "2,080", "243"]
    assert [bar.name for bar in chart.bars] == [name for name, _ in SEARCHES]
    assert "Plain minimax: 549,946" in chart.summary
    assert "Alpha-beta with move ordering and a transposition table: 243" in chart.summary


@pytest.mark.parametrize("width", [NARROWEST, 400, 544])
def test_every_count_stays_inside_the_chart_on_the_narrowest_and_wider(width):
    chart = log_bars(SEARCHES, title="Nodes")
    longest, *others = chart.bars
    # No room past the longest bar on a phone, so its count goes inside it, where it fits.
    assert longest.label_inside and longest.label_dx < 0
    assert label_width(longest.label) + 2 * GAP <= longest.width * NARROWEST / 100
    for bar in others:
        assert not bar.label_inside and bar.label_dx > 0
    for bar in chart.bars:
        assert right_end(bar, width) <= width


def test_the_axis_reaches_past_the_largest_count_in_whole_decades():
    chart = log_bars(SEARCHES, title="Nodes")
    assert [t.label for t in chart.ticks] == ["1", "10", "100", "1,000", "10k", "100k", "1M"]
    assert [t.x for t in chart.ticks] == [pytest.approx(100 * power / 6, abs=0.01) for power in range(7)]
    assert (chart.ticks[0].anchor, chart.ticks[-1].anchor) == ("start", "end")
    assert all(bar.width <= chart.ticks[-1].x for bar in chart.bars)


def test_tick_labels_never_touch_on_the_narrowest_chart():
    ticks = log_bars(SEARCHES, title="Nodes").ticks
    spans = []
    for tick in ticks:
        x, wide = tick.x * NARROWEST / 100, label_width(tick.label, 12)
        start = x if tick.anchor == "start" else x - wide if tick.anchor == "end" else x - wide / 2
        spans.append((start, start + wide))
    assert spans[0][0] >= 0 and spans[-1][1] <= NARROWEST
    assert all(left[1] < right[0] for left, right in itertools.pairwise(spans))


def test_a_long_name_wraps_evenly_and_its_row_grows_to_hold_it():
    chart = log_bars(SEARCHES, title="Nodes")
    assert [bar.lines for bar in chart.bars[-2:]] == [
        ("Alpha-beta with move ordering",),
        ("Alpha-beta with move ordering", "and a transposition table"),
    ]
    last = chart.bars[-1]
    assert last.y == pytest.approx(last.name_y + LINE + 6)  # the second line, then the gap above the bar


def test_names_wrap_between_words_into_lines_that_fit():
    for name, _ in SEARCHES:
        lines = wrap(name)
        assert " ".join(lines) == name
        assert all(label_width(line) <= NARROWEST for line in lines)
    assert wrap("Plain minimax") == ("Plain minimax",)
    assert wrap("Impossible as X vs Impossible as O") == ("Impossible as X vs", "Impossible as O")
    assert wrap("Unbreakable" * 4) == ("Unbreakable" * 4,)  # too long, but a word is never split


def test_rows_stack_without_overlapping_and_fit_the_chart():
    chart = log_bars(SEARCHES, title="Nodes")
    for above, below in zip(chart.bars, chart.bars[1:], strict=False):
        assert above.y + BAR_HEIGHT < below.name_y - FONT
    for bar in chart.bars:
        assert bar.name_y + (len(bar.lines) - 1) * chart.line_height < bar.y  # the name sits above its bar
    assert chart.bars[-1].y + BAR_HEIGHT <= chart.axis_y < chart.height


def test_a_count_of_one_draws_no_bar_and_the_axis_has_at_least_one_decade():
    chart = log_bars([("root", 1)], title="One")
    assert chart.bars[0].width == 0 and chart.bars[0].label == "1"
    assert [t.label for t in chart.ticks] == ["1", "10"]


def test_a_label_is_measured_wide_rather_than_narrow():
    # In Chromium's widest common font (DejaVu Sans) at 14 px: bold "549,946" is 64 px, "Alpha-beta" 87 px.
    assert label_width("549,946") >= 64
    assert label_width("Alpha-beta") >= 87


@pytest.mark.parametrize(
    ("items", "words"),
    [([], "at least one bar"), ([("none", 0)], "at least 1"), ([("a", 5), ("b", -3)], "at least 1")],
)
def test_log_bars_refuse_what_a_log_scale_cannot_draw(items, words):
    with pytest.raises(ValueError, match=words):
        log_bars(items, title="Bad")


@pytest.mark.parametrize(
    ("value", "text"), [(1, "1"), (10, "10"), (1_000, "1,000"), (10_000, "10k"), (100_000, "100k"), (10**6, "1M")]
)
def test_axis_labels_are_compact(value, text):
    assert compact(value) == text


# --- the stacked bars ------------------------------------------------------------------------


def test_stacked_parts_are_proportional_and_fill_the_width():
    chart = stacked_bars([("Easy vs Easy", (57, 10, 33))], OUTCOMES, title="Games")
    (bar,) = chart.bars
    assert [p.kind for p in bar.segments] == ["x", "draw", "o"]
    assert [p.width for p in bar.segments] == [57, 10, 33]  # percent of the chart's width
    assert [p.x for p in bar.segments] == [0, 57, 67]
    assert bar.segments[-1].x + bar.segments[-1].width == pytest.approx(100)
    assert bar.total == 100


def test_stacked_labels_carry_exact_counts_and_hide_when_too_narrow():
    chart = stacked_bars([("Easy vs Medium", (3, 12, 85)), ("Big", (1_234, 0, 8_766))], OUTCOMES, title="Games")
    small, big = chart.bars
    # 3 of 100 is 7.4 px on the narrowest chart: too narrow for its label and a margin, so the table alone says it.
    assert [(p.label, p.show_label) for p in small.segments] == [("3", False), ("12", True), ("85", True)]
    assert [p.label for p in big.segments] == ["1,234", "8,766"]  # the empty part is left out
    one = stacked_bars([("One in a thousand", (1, 0, 999))], OUTCOMES, title="Games").bars[0]
    assert not one.segments[0].show_label  # 0.1 % wide: no room for its "1"
    for part in (*small.segments, *big.segments):
        if part.show_label:
            assert label_width(part.label) + GAP <= part.width * NARROWEST / 100
    assert "Easy vs Medium: 3 X wins, 12 draws, 85 O wins" in chart.summary


def test_stacked_rows_go_down_the_chart():
    rows = [(f"Row {i}", (i + 1, 1, 1)) for i in range(9)]
    chart = stacked_bars(rows, OUTCOMES, title="Nine")
    tops = [bar.y for bar in chart.bars]
    assert tops == sorted(tops) and len(set(tops)) == 9
    assert chart.bars[-1].y + BAR_HEIGHT < chart.height
    assert chart.kinds == OUTCOMES


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([], "at least one bar"),
        ([("short", (1, 2))], "has 2 counts for 3 kinds"),
        ([("empty", (0, 0, 0))], "not all 0"),
        ([("negative", (5, -1, 2))], "0 or more"),
    ],
)
def test_stacked_bars_refuse_rows_that_do_not_add_up(rows, words):
    with pytest.raises(ValueError, match=words):
        stacked_bars(rows, OUTCOMES, title="Bad")
