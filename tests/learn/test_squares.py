from webapp.learn.squares import place, places, spot, where


def test_squares_in_words():
    assert [spot(cell) for cell in range(9)] == [
        "top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right",
    ]  # fmt: skip
    assert [place(cell) for cell in (0, 1, 4, 5, 8)] == [
        "the top-left corner", "the top edge", "the centre", "the right edge", "the bottom-right corner",
    ]  # fmt: skip


def test_squares_in_words_on_a_bigger_board():
    # 4×4: four corners, edges of two squares each, no centre.
    assert spot(0, 4) == "top-left" and spot(15, 4) == "bottom-right"
    assert spot(1, 4) == "top edge, row 1, column 2"
    assert spot(5, 4) == "row 2, column 2"
    assert place(12, 4) == "the bottom-left corner"


def test_the_status_line_names_corners_and_the_centre_and_otherwise_rows_and_columns():
    assert [where(cell) for cell in (0, 1, 4)] == ["the top-left corner", "the top edge", "the centre"]
    assert where(0, 15) == "the top-left corner" and where(112, 15) == "the centre"
    assert where(1, 15) == "row 1, column 2"


def test_several_squares_in_a_few_words():
    assert places((0, 2, 6, 8)) == "any corner"
    assert places((1, 3, 5, 7)) == "any edge"
    assert places((4,)) == "the centre"
    assert places((0, 4)) == "the top-left corner or the centre"
