import re

import pytest
from support import unfinished_boards

from webapp.engine import levels
from webapp.engine.big import levels as big
from webapp.engine.big.alphabeta import MATE
from webapp.engine.big.budget import Budget
from webapp.engine.big.levels import UNCLEAR, View
from webapp.engine.boards import BOARDS as CATALOGUE
from webapp.engine.boards import BY_KEY, position
from webapp.engine.levels import GAME, analyze
from webapp.engine.rules import geometry, parse
from webapp.engine.search import Counter, alphabeta
from webapp.learn.numbers import RESULTS, tree_size
from webapp.learn.tree import (
    Counts,
    InvalidPathError,
    SearchFigure,
    Value,
    counts,
    explore,
    format_path,
    parse_path,
    root_board,
    visited_paths,
)

EMPTY = "........."
# A node budget keeps the big boards' search, and so every figure the tree shows, independent of the machine.
QUICK = Budget(nodes=3000)
# 7×7, O to move: X in the centre and below it to the right, O above it. A quiet position: nothing proved.
QUIET_7 = "." * 17 + "O" + "." * 6 + "X" + "." * 7 + "X" + "." * 16

BOARDS = [
    EMPTY,
    "X...O....",  # X . . / . O . / . . .
    "XX.OO....",  # X X . / O O . / . . .  X wins at once, or O does
    "XOXOXO...",  # X O X / O X O / . . .  every move wins for X
    "XOXXOO.X.",  # X O X / X O O / . X .  O to move, two cells left
    "X.O.X...O",  # X . O / . X . / . . O  O blocked the diagonal
]


def opened(node):
    """Every node of the tree that is open, the root included."""
    if node.children is None:
        return []
    return [node, *(n for child in node.children for n in opened(child))]


# --- values ----------------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_the_children_are_the_legal_moves_in_cell_order(board):
    pos = parse(board)
    children = explore(board).root.children
    assert [child.move for child in children] == list(pos.legal_moves())
    assert [child.board for child in children] == [pos.play(m).board for m in pos.legal_moves()]
    assert all(child.path == (child.move,) and child.children is None for child in children)


@pytest.mark.parametrize("board", BOARDS)
def test_each_childs_value_is_what_analyze_says_for_the_side_that_moved(board):
    mover = parse(board).to_move
    for child in explore(board).root.children:
        result, plies = analyze(board)[child.move]
        expected = {"win": mover, "draw": None, "loss": "O" if mover == "X" else "X"}[result]
        assert child.mover == mover
        assert child.value.winner == expected
        assert child.value.moves_left == plies - 1  # counted from the child's own board


def test_every_position_of_the_game_agrees_with_analyze():
    # 4,520 roots; for each, the child values the page shows must be the solver's.
    words = {"win": 1, "draw": 0, "loss": -1}
    for board in unfinished_boards():
        mover = parse(board).to_move
        for child in explore(board).root.children:
            result, plies = analyze(board)[child.move]
            sign = 0 if child.value.winner is None else 1 if child.value.winner == mover else -1
            assert (sign, child.value.moves_left) == (words[result], plies - 1), (board, child.move)


def test_the_values_deeper_down_agree_with_analyze_of_their_parent():
    # . . . / . X . / . . .  then O in a corner, then X opposite it
    tree = explore(EMPTY, (4, 0, 8))
    for node in opened(tree.root)[1:]:
        for child in node.children:
            result, plies = analyze(node.board)[child.move]
            assert child.value.moves_left == plies - 1
            assert (child.value.winner is None) == (result == "draw")


def test_tones_are_from_the_roots_side_to_move_all_the_way_down():
    # X . . / . . . / . . .  O to move at the root: an X win is red on every level.
    tree = explore("X........", (1,))
    grandchildren = tree.node((1,)).children
    assert {c.value.tone for c in grandchildren if c.value.winner == "X"} == {"loss"}
    assert {c.value.tone for c in tree.root.children if c.value.winner is None} == {"draw"}
    assert tree.to_move == "O"


@pytest.mark.parametrize(
    ("value", "headline", "words"),
    [
        (Value("X", 0, "win"), "X has won", "X has won"),
        (Value("O", 1, "loss"), "O wins", "O wins next move"),
        (Value("X", 4, "win"), "X wins", "X wins in 4 moves, 2 by X"),
        (Value("O", 5, "loss"), "O wins", "O wins in 5 moves, 3 by O"),
        (Value(None, 3, "draw"), "Draw", "Draw with best play"),
        (Value(None, 0, "draw"), "Draw", "Draw, board full"),
    ],
)
def test_values_in_words(value, headline, words):
    assert value.headline == headline
    assert value.words == words


def test_the_roots_value_is_the_best_move_for_the_side_to_move():
    # X X . / O O . / . . .  X wins next move
    assert explore("XX.OO....").root.value == Value("X", 1, "win")
    # X . . / . . . / . . .  a draw with best play
    assert explore("X........").root.value == Value(None, 8, "draw")


@pytest.mark.parametrize(
    ("board", "winner", "line"),
    [
        ("XXXOO....", "X", (0, 1, 2)),  # X X X / O O . / . . .
        ("XXOOOXXXO", None, ()),  # X X O / O O X / X X O  a full board
    ],
)
def test_a_finished_board_is_a_leaf(board, winner, line):
    tree = explore(board)
    assert tree.root.is_over and tree.root.children is None
    assert tree.root.value.winner == winner and tree.root.value.moves_left == 0
    assert tree.root.winning_line == line
    assert tree.counts == Counts(1, 1)


# --- opening along a path --------------------------------------------------------------------


def test_the_path_opens_one_level_per_move_and_nothing_else():
    tree = explore(EMPTY, (4, 0))
    assert [node.path for node in opened(tree.root)] == [(), (4,), (4, 0)]
    assert [child.move for child in tree.node((4, 0)).children] == [1, 2, 3, 5, 6, 7, 8]
    assert tree.node((4, 0)).board == "O...X...."  # O . . / . X . / . . .
    assert tree.path_text == "4.0" and tree.node((4, 0)).parent_text == "4"


def test_a_finished_node_on_the_path_has_no_children():
    # X X . / O O . / . . .  X wins at 2
    tree = explore("XX.OO....", (2,))
    node = tree.node((2,))
    assert node.is_over and node.children is None
    assert node.winning_line == (0, 1, 2)


@pytest.mark.parametrize(
    ("text", "path"),
    [("", ()), ("4", (4,)), ("4.0", (4, 0)), ("0.1.2.3.4.5.6.7.8", (0, 1, 2, 3, 4, 5, 6, 7, 8))],
)
def test_paths_read_and_write(text, path):
    assert parse_path(text) == path
    assert format_path(path) == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a", "should be up to 9 squares 0 to 8 separated by dots"),
        ("4.", "should be up to 9 squares 0 to 8 separated by dots"),
        ("4,0", "should be up to 9 squares 0 to 8 separated by dots"),
        ("9", "should be up to 9 squares 0 to 8 separated by dots"),
        ("10", "should be up to 9 squares 0 to 8 separated by dots"),
        ("-1", "should be up to 9 squares 0 to 8 separated by dots"),
        (".".join("0123456780"), "should be up to 9 squares 0 to 8 separated by dots"),
        ("4.4", "Move 2 of the path cannot be played: Row 2, column 2 is already taken."),
        ("0.3.1.4.2.5", "Move 6 of the path cannot be played: The game is over"),
    ],
)
def test_a_bad_path_says_what_is_wrong(text, words):
    with pytest.raises(InvalidPathError, match=words.replace(".", r"\.")):
        explore(EMPTY, parse_path(text))


# --- pruning and node counts -----------------------------------------------------------------


def independent_search(board):
    counter, visited = Counter(), set()
    alphabeta(GAME, parse(board), ordered=True, counter=counter, visited=visited)
    return counter.nodes, visited


@pytest.mark.parametrize(
    ("board", "path"),
    [
        (EMPTY, (0,)),  # X in a corner: O's replies after the first draw are cut off
        (EMPTY, (4, 1)),
        ("X...O....", (8, 1)),  # X . . / . O . / . . .
        ("XOXOXO...", (7,)),  # X O X / O X O / . . .
    ],
)
def test_pruned_nodes_are_exactly_those_alpha_beta_never_visited(board, path):
    _, visited = independent_search(board)
    tree = explore(board, path)
    seen = [child for node in opened(tree.root) for child in node.children]
    assert seen, "the path should open some nodes"
    for child in seen:
        assert child.pruned == (child.path not in visited), child.path


def test_alpha_beta_skips_replies_but_never_a_move_from_the_root():
    # With no bounds yet at the root, every move there has to be searched.
    tree = explore(EMPTY, (0,))
    assert not any(child.pruned for child in tree.root.children)
    replies = tree.node((0,)).children
    assert [c.move for c in replies if not c.pruned] == [4]  # the centre holds the draw; the rest is cut off
    assert all(c.pruned for c in replies if c.move != 4)


def test_under_a_pruned_node_everything_is_pruned():
    tree = explore(EMPTY, (0, 1))
    assert tree.node((0, 1)).pruned
    assert all(child.pruned for child in tree.node((0, 1)).children)


def test_node_counts_from_the_empty_board():
    nodes, visited = independent_search(EMPTY)
    found = counts(EMPTY)
    assert found.minimax == 549_946
    assert found.alphabeta == nodes == len(visited) == 2_080
    assert found.alphabeta < found.minimax
    assert visited_paths(EMPTY) == visited
    assert explore(EMPTY).counts == found


@pytest.mark.parametrize("board", BOARDS[1:])
def test_alpha_beta_never_visits_more_than_minimax(board):
    found = counts(board)
    assert 1 < found.alphabeta <= found.minimax


def test_the_search_runs_once_per_root():
    assert visited_paths(EMPTY) is visited_paths(EMPTY)


@pytest.mark.parametrize(
    ("board", "words"),
    [
        (EMPTY, "The board is empty."),
        ("X...O....", "The board has X in row 1, column 1; O in row 2, column 2."),  # X . . / . O . / . . .
    ],
)
def test_the_root_board_in_words(board, words):
    assert explore(board).root.description == words


# --- every board ---------------------------------------------------------------------------

# 4×4, four in a row, eight squares left: X O X O / O X O X / . . . . / . . . .
NEAR_END_4 = "XOXOOXOX........"
# Ten left: the tree below is too big to count on request.
TEN_LEFT_4 = "XOXOOX.........."


def test_a_boards_key_names_its_empty_board():
    assert root_board("4x4") == "." * 16 and root_board("15x15") == "." * 225
    assert root_board(None) == EMPTY and root_board(NEAR_END_4) == NEAR_END_4


@pytest.mark.parametrize(
    ("key", "text", "path"), [("4x4", "15.0", (15, 0)), ("7x7", "48.0.24", (48, 0, 24)), ("15x15", "224", (224,))]
)
def test_paths_read_on_every_board(key, text, path):
    assert parse_path(text, BY_KEY[key]) == path


@pytest.mark.parametrize(
    ("key", "text", "words"),
    [
        ("4x4", "16", "up to 9 squares 0 to 15"),
        ("15x15", "225", "up to 3 squares 0 to 224"),
        ("7x7", "1.2.3.4", "up to 3 squares 0 to 48"),  # each level there is a search under a time limit
        ("4x4", ".".join("0123456789"), "up to 9 squares"),
    ],
)
def test_a_path_is_bounded_by_its_board(key, text, words):
    with pytest.raises(InvalidPathError, match=words):
        parse_path(text, BY_KEY[key])


def test_the_4x4_tree_is_exact_and_agrees_with_analyze():
    tree = explore(NEAR_END_4, (8,))
    pos = position(NEAR_END_4)
    assert tree.is_exact and tree.board == BY_KEY["4x4"]
    assert [child.move for child in tree.root.children] == list(pos.legal_moves())
    for node in opened(tree.root):
        found = analyze(node.board)
        for child in node.children:
            result, plies = found[child.move]
            assert child.value.is_proved and child.value.moves_left == plies - 1
            assert (child.value.winner is None) == (result == "draw")
    assert tree.counts == Counts(tree_size(pos), tree.counts.alphabeta)
    assert tree.counts.alphabeta < tree.counts.minimax
    assert tree.root.children[0].spot == "X left edge, row 3, column 1"


def test_a_tree_too_big_to_count_says_so_and_marks_nothing_pruned():
    tree = explore(TEN_LEFT_4)
    assert tree.counts is None
    assert not any(child.pruned for child in tree.root.children)


def fake_search(monkeypatch, proved: dict, preferred: tuple):
    """The top level as it is on a board that is not solved: ``proved`` cells have values, the rest are unclear."""
    import webapp.learn.tree

    def analyze_(board):
        return {c: proved.get(c, ("unclear", None)) for c, mark in enumerate(board) if mark == "."}

    monkeypatch.setattr(webapp.learn.tree, "analyze", analyze_)
    monkeypatch.setattr(webapp.learn.tree, "search_view", lambda board: View(preferred, 3, 500, "search"))


def real_search(monkeypatch, budget: Budget = QUICK) -> list[str]:
    """The real Hard search under a node budget, so that its figures do not depend on the machine; nothing
    proved, so that which moves are shown does not either. Returns the boards it was asked about."""
    import webapp.learn.tree

    asked = []

    def search_view_(board):
        asked.append(board)
        return levels.search_view(board, budget)

    monkeypatch.setattr(
        webapp.learn.tree, "analyze", lambda board: dict.fromkeys(position(board).legal_moves(), UNCLEAR)
    )
    monkeypatch.setattr(webapp.learn.tree, "search_view", search_view_)
    return asked


def test_on_a_big_board_only_proved_values_are_shown_and_the_preference_is_marked(monkeypatch):
    fake_search(monkeypatch, proved={5: ("draw", 40), 6: ("loss", 2)}, preferred=(24,))
    board = "X" + "." * 47 + "O"
    tree = explore(board)
    assert not tree.is_exact and tree.counts is None
    assert not tree.root.value.is_proved and tree.root.value.headline == "Unclear"
    first, second = tree.root.children
    assert (first.move, first.preferred, first.value.headline, first.value.tone) == (24, True, "Unclear", "unclear")
    assert (second.move, second.preferred, second.value.winner, second.value.moves_left) == (5, False, None, 39)
    # The proved loss is counted, not drawn: on 15×15 there can be two hundred of them.
    assert (tree.root.unshown, tree.root.lost) == (47 - 3, 1)


def test_a_proved_loss_on_a_big_board_is_shown_when_preferred_or_opened(monkeypatch):
    fake_search(monkeypatch, proved={5: ("loss", 2), 6: ("loss", 4), 7: ("loss", 2)}, preferred=(6,))
    tree = explore("X" + "." * 47 + "O", (7,))
    assert [child.move for child in tree.root.children] == [6, 7]
    assert (tree.root.unshown, tree.root.lost) == (47 - 3, 1)
    assert tree.node((7,)).value.winner == "O"


def test_the_big_board_tree_page_counts_the_proved_losses_it_leaves_out(client, monkeypatch):
    fake_search(monkeypatch, proved={5: ("loss", 2), 6: ("loss", 2)}, preferred=(24,))
    html = client.get("/tree?board=7x7").get_data(as_text=True)
    assert "The 46 other moves are unclear and not Hard’s choice, so they are left out." in html
    assert "The 2 moves proved to lose are left out too." in html
    assert html.count('class="tree-node') == 1  # the preferred move's card alone


def test_a_move_opened_on_a_big_board_is_shown_though_neither_proved_nor_preferred(monkeypatch):
    fake_search(monkeypatch, proved={}, preferred=(24,))
    tree = explore("." * 49, (30,))
    assert [child.move for child in tree.root.children] == [24, 30]
    assert tree.node((30,)).is_open and not tree.node((30,)).value.is_proved


def test_a_proved_win_among_unclear_moves_is_the_roots_value(monkeypatch):
    fake_search(monkeypatch, proved={3: ("win", 3), 4: ("win", 1)}, preferred=(4,))
    root = explore("." * 49).root
    assert (root.value.winner, root.value.moves_left, root.value.tone) == ("X", 1, "win")


def test_the_tree_page_takes_a_board_by_its_key_or_its_squares(client):
    html = client.get(f"/tree?board={NEAR_END_4}").get_data(as_text=True)
    assert "X to move" in html and 'value="4x4" selected' in html
    assert html.count('class="tree-node') == 8 and "Hard’s choice" not in html
    assert 'href="/tree?board=4x4"' in html  # start from the empty 4×4 board


def test_the_big_board_tree_page_says_what_is_a_preference(client, monkeypatch):
    fake_search(monkeypatch, proved={}, preferred=(24, 25))
    html = client.get("/tree?board=7x7").get_data(as_text=True)
    assert "a preference, not a proof" in html
    assert html.count('<p class="tree-preferred">Hard’s choice</p>') == 2 and "The 47 other moves are unclear" in html
    assert "Show what alpha-beta skips" not in html  # nothing to count there


@pytest.mark.parametrize("board", CATALOGUE, ids=[board.key for board in CATALOGUE])
def test_the_tree_states_one_value_for_the_empty_board_of_every_board(client, board):
    html = client.get(f"/tree?board={board.key}").get_data(as_text=True)
    best = re.search(r'<p class="tree-best">(.*?)</p>', html, re.S).group(1)
    # The value proved, whoever proved it, said once; never "unclear" beside a proof.
    assert "unclear" not in best
    if not board.is_solved():
        assert f">{RESULTS[board.known_value]}</span>, proved by {board.source}" in best
        assert html.count(board.source) == 1
        # Past the first move the proof says nothing, and the search here proves nothing either.
        moved = "X" + board.empty[1:]
        best = re.search(r'<p class="tree-best">(.*?)</p>', client.get(f"/tree?board={moved}").get_data(as_text=True))
        assert best.group(1).endswith("unclear</span>, not proved from this position")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("board=9x9", "A board has 9, 16, 25, 49 or 225 cells"),
        ("board=7x7&path=1.2.3.4", "up to 3 squares 0 to 48"),
        ("board=4x4&path=16", "up to 9 squares 0 to 15"),
        (f"board={NEAR_END_4}&path=0", "Move 1 of the path cannot be played"),
    ],
)
def test_a_bad_tree_request_on_any_board_is_a_400(client, query, words):
    response = client.get(f"/tree?{query}")
    assert response.status_code == 400 and words in response.get_data(as_text=True)


def test_the_4x4_tree_links_to_play_from_here_and_the_review_on_its_board(client):
    html = client.get(f"/tree?board={NEAR_END_4}&moves=0.4.2.6.5.1.7.3&path=8").get_data(as_text=True)
    assert 'href="/play-from?board=4x4&amp;moves=0.4.2.6.5.1.7.3"' in html
    assert 'href="/review?board=4x4&amp;moves=0.4.2.6.5.1.7.3&amp;at=8"' in html  # on the move that reached it
    assert 'href="/play-from?board=4x4&amp;moves=0.4.2.6.5.1.7.3.8"' in html  # the opened move's own
    # and the links hold: the position they name is the tree's
    assert client.get("/play-from?board=4x4&moves=0.4.2.6.5.1.7.3").status_code == 200


# --- the search's view on the boards too big to solve ----------------------------------------


def estimates(html: str) -> list[str]:
    """The search's figure on each card, as the page words it."""
    return re.findall(r'<p class="tree-estimate">(.*?)</p>', html)


def signed(figure: int) -> str:
    return f"{'−' if figure < 0 else '+' if figure else ''}{abs(figure):,}"


def test_each_opened_node_carries_the_real_search_and_each_move_its_figure(monkeypatch):
    asked = real_search(monkeypatch)
    first = big.view(QUIET_7, QUICK).best[0]
    tree = explore(QUIET_7, (first,))
    opened_nodes = opened(tree.root)
    assert asked == [node.board for node in opened_nodes]  # one search per opened node, and no other
    for node in opened_nodes:
        view = big.view(node.board, QUICK)
        assert node.search == view and view.reason == "search" and view.depth >= 2
        side = position(node.board).to_move
        for child in node.children:
            figure = view.score(child.move)
            assert child.estimate == SearchFigure(side, figure, figure == view.top)
            assert child.preferred == (child.move in view.best) == (figure == view.top)
    # the cards not yet opened carry no search of their own
    assert all(child.search is None for child in tree.root.children if not child.is_open)


def test_the_page_says_how_far_the_search_looked_and_labels_every_figure_an_estimate(client, monkeypatch):
    real_search(monkeypatch)
    root = big.view(QUIET_7, QUICK)
    # Open a move the search weighed but does not prefer: its figure is only a bound.
    move, bound = next((move, figure) for move, figure in root.scores if figure < root.top)
    reply = big.view(position(QUIET_7).play(move).board, QUICK)
    html = client.get(f"/tree?board={QUIET_7}&path={move}").get_data(as_text=True)
    # What a move ahead is, said once; then each opened position's search, in its own side's moves.
    assert html.count("One move is one side’s turn, so looking 4 moves ahead is 2 by each side") == 1
    turn, summary = html.index("One move is one side’s turn"), html.index("<summary>How this is counted</summary>")
    assert summary < turn < html.index("</details>") < html.index("tree-children")
    o_moves, x_moves = (root.depth + 1) // 2, root.depth // 2
    assert f"Hard looked {root.depth} moves ahead ({o_moves} by O, {x_moves} by X) and weighed {root.nodes:,} " in html
    assert f"Hard looked {reply.depth} moves ahead ({(reply.depth + 1) // 2} by X, {reply.depth // 2} by O)" in html
    assert f"and weighed {reply.nodes:,} positions; it prefers " in html
    shown = estimates(html)
    assert len(shown) == len(root.best) + 1 + len(reply.best)
    assert all(words.startswith("Search’s estimate for ") for words in shown)
    assert f"Search’s estimate for O: <strong>{signed(root.top)}</strong>" in shown
    assert f"Search’s estimate for O: <strong>at most {signed(bound)}</strong>" in shown
    assert f"Search’s estimate for X: <strong>{signed(reply.top)}</strong>" in shown
    # Never proved-looking: every card with a figure still says its value is unclear.
    assert html.count("<strong>Unclear</strong>") == len(shown)


@pytest.mark.parametrize(
    ("figure", "exact", "words"),
    [
        (120, True, "+120"),
        (-1_234, True, "−1,234"),
        (0, True, "0"),
        (-40, False, "at most −40"),
        (MATE - 5, True, "a win"),
        (MATE - 5, False, "at most a win"),
        (-(MATE - 4), False, "a loss"),  # at most a loss is a loss
        (None, False, "not weighed"),
    ],
)
def test_a_figure_in_words(figure, exact, words):
    assert SearchFigure("X", figure, exact).words == words


def test_a_search_with_no_look_ahead_says_why_and_shows_no_figure(monkeypatch):
    real_search(monkeypatch)
    root = explore("." * 49).root  # on the empty board only the centre is worth searching
    assert root.search.reason == "only" and [child.estimate for child in root.children] == [None]
    assert root.search_words == (
        "On an empty board Hard opens in the centre, with no look-ahead: no square lies on more of the lines "
        "where 5 in a row can be made, and it leaves the most room on every side."
    )


@pytest.mark.parametrize("board", [b for b in CATALOGUE if not b.solved], ids=lambda b: b.key)
def test_the_centre_lies_on_the_most_lines_as_the_opening_words_say(board):
    lines = geometry(board.n, board.k).lines
    through = [sum(cell in line for line in lines) for cell in range(board.cells)]
    centre = board.cells // 2
    assert through[centre] == max(through)  # on 15×15 many squares tie; on 7×7 none does
    assert through.count(max(through)) == (1 if board.n == 7 else (board.n - 2 * (board.k - 1)) ** 2)


def test_one_move_left_is_the_only_move_worth_weighing(monkeypatch):
    real_search(monkeypatch)
    # Pairs of columns, alternating by row: no five in a row anywhere, and the top-left corner left empty.
    board = "." + "".join("X" if (c // 2 + r) % 2 == 0 else "O" for r in range(7) for c in range(7))[1:]
    words = explore(board).root.search_words
    assert words == "Only one move is worth weighing here, top-left, so Hard plays it with no look-ahead."


@pytest.mark.parametrize("board", [EMPTY, "X...O....", NEAR_END_4, "." * 12 + "X" + "." * 12])
def test_a_solved_board_shows_no_search_view(client, board):
    tree = explore(board)
    assert all(node.search is None for node in opened(tree.root))
    assert all(child.estimate is None for child in tree.root.children)
    html = client.get(f"/tree?board={board}").get_data(as_text=True)
    for words in ("tree-search", "Search’s estimate", "moves ahead", "Hard looked"):
        assert words not in html


def test_a_move_the_search_never_weighed_says_so_only_where_nothing_is_proved(monkeypatch):
    real_search(monkeypatch)
    import webapp.learn.tree

    # Two squares the search never weighs: one proved drawn, the other opened by the visitor.
    view = big.view(QUIET_7, QUICK)
    never = [cell for cell in position(QUIET_7).legal_moves() if view.score(cell) is None]
    drawn, visited = never[0], never[-1]
    monkeypatch.setattr(webapp.learn.tree, "analyze", lambda board: {**fake_values(board), drawn: ("draw", 40)})
    root = explore(QUIET_7, (visited,)).root
    proved, opened_move = (next(child for child in root.children if child.move == cell) for cell in (drawn, visited))
    assert proved.value.is_proved and proved.estimate is None
    assert opened_move.estimate == SearchFigure("O", None, False) and opened_move.estimate.words == "not weighed"


def fake_values(board: str) -> dict:
    return dict.fromkeys(position(board).legal_moves(), UNCLEAR)


def test_one_move_left_out_is_said_in_the_singular(client, monkeypatch):
    # Every square but the centre and the last corner proved lost; the search prefers the centre.
    fake_search(monkeypatch, proved={cell: ("loss", 2) for cell in range(48) if cell != 24}, preferred=(24,))
    html = client.get("/tree?board=7x7&path=24").get_data(as_text=True)
    assert "The 1 other move is unclear and not Hard’s choice, so it is left out." in html
    assert "The 1 other reply is unclear and not Hard’s choice, so it is left out." in html


def test_the_first_reply_is_looked_for_like_any_other_move(monkeypatch):
    real_search(monkeypatch)
    first = explore("." * 112 + "X" + "." * 112).root.search_words
    assert first.startswith("Hard looked ")
