"""The 15×15 opening book: replies measured in games, where the search's own choice lost more often.

On 15×15 the games are decided in the opening, beyond what any threat search sees (docs/engine.md), and
Hard answers an opening position nearly the same way every time, as does the ThreatSpace player it is
measured against. The matches show where that answer loses: 17 of the 43 games Hard lost as O in 300
went through one position at the ninth stone. At such a position each reply was played out against that
opponent (``scripts/play_out.py``), and the book keeps one that lost least where the search's own lost
clearly more. Every entry says what was measured; ``docs/engine.md`` says how (*An opening book*, and for
X's lost lines that recur, *Recurring lines, booked* and *Coin flips*). The book is looked up before the
threat search, so no entry stands where a deeper threat search finds a win, unless the entry is that win's
first move, or that move lost when played out because Hard, within its budget, does not follow the win on (one
entry, which ``tests/test_openings.py`` names). A few entries lie past the opening, on lines ThreatSpace's choices
lead to again and again; some settle a tie, where the search rates two moves the same and the game's random
generator picks one. Seven keep the search's own choice where a slower machine's clock cut the search short: a
tie, at the position X meets most, and six single moves.

An entry is a real game's moves up to the position (cells as the match logs write them), the reply in the same
orientation (one square, or the squares of a tie, among which the game picks at random as it does among the
search's), and why it is kept, which the tree explorer says (``why``): BETTER, a move that lost less often than
the search's own; SETTLES, one of the search's tied moves that lost less often than the other; OWN, the
search's own choice, kept where a slower machine's clock cut the search to another. It stands for all eight
images of the position (its rotations and reflections), whatever order the stones came in.

>>> moves = (112, 96, 127, 97, 143, 111, 126, 98, 95)
>>> board = grid(15, moves)
>>> reply(board, 15, 5)
(125,)
>>> turned = "".join(board[col * 15 + row] for row in range(15) for col in range(15))
>>> reply(turned, 15, 5)  # the same position reflected in its diagonal: the reply reflected too
(83,)
>>> reply(grid(15, moves[:-1]), 15, 5) is None
True
>>> reply(grid(15, (112, 96)), 15, 5)  # a tie
(82, 110)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from webapp.engine.rules import geometry

N, K = 15, 5

# Why an entry's reply is kept, which the tree explorer says in words:
BETTER = "better"  # it lost less often, played out from here, than the move the search prefers
SETTLES = "settles"  # the search rates it the same as another move, and played out from here it lost less often
OWN = "own"  # the search's own choice counting its nodes alone (a move, or a tie), which a slower clock cut short

# (the moves of a game up to the position, the reply there (a square, or a tie's squares), why it is kept, what
# was measured)
ENTRIES: tuple[tuple[tuple[int, ...], int | tuple[int, ...], str, str], ...] = (
    (
        (112, 126, 127, 142, 110),
        109,
        BETTER,
        "O's third move. The search plays 109 or 114, as its clock allows: in 300 games of the shipped engine "
        "against ThreatSpace, 109 lost 4 of 34 and 114 lost 6 of 9; played out from here, 0 of 8 and 4 of 8.",
    ),
    (
        (112, 96, 127, 97, 143, 111, 126, 98, 95),
        125,
        BETTER,
        "O's fifth move. The search plays 99 (a dead four that X blocks at 100): 17 of the 29 games through "
        "here were lost in the 300 of the shipped engine against ThreatSpace, and 4 of 12 played out from "
        "here. 125 lost none of 24, and 82 none of 12; 83, 68 and 124 lost 4, 3 and 3 of 12. Against the threat "
        "attacker, played out from here, 82 lost 16 of 16 and 125 none of 16.",
    ),
    (
        (112, 98, 128, 96, 142, 97, 99, 114, 127, 95, 94, 130, 82),
        162,
        BETTER,
        "O's seventh move. The search plays 146: 4 of the 8 games through here were lost in those 300, "
        "and 2 of 12 played out from here. 162 lost none of 12.",
    ),
    (
        (112, 128, 126, 98, 142, 113, 143, 97, 144, 83, 68, 145, 81),
        129,
        BETTER,
        "O's seventh move. The search plays 161 at its budget, 129 given 3 s: 161 lost 3 of the 8 games "
        "through here in those 300, and 2 of 8 played out from here; 129 lost none of 12.",
    ),
    (
        (112, 126, 127, 142, 111, 110, 94, 143, 144),
        140,
        BETTER,
        "O's fifth move, against ThreatSpace. The search plays 158 at its budget, 140 given 3 s: in 800 games as O "
        "(seeds 3000 to 3039) 6 came through here, and 158 lost 3 of 6, three times the same game to 41 moves. "
        "Played out from here, 158 lost 6 of 24 and 6 of 24 more, 157 lost 4 of 24, and 140 none of 24 nor of "
        "24 more.",
    ),
    (
        (112, 128, 113, 114, 142, 157, 141),
        143,
        BETTER,
        "O's fourth move, against ThreatSpace. The search plays 140 at its budget and given 3 s (given 24,000 "
        "nodes in all, 143, each as the only move its checks leave): in 400 games as O (seeds 3000 to 3019) "
        "8 came through here, and 140 lost 4 of 4 and 143 none of 4. Played out from here, 140 lost 24 of 24, "
        "and 143 none of 24.",
    ),
    (
        (112, 98, 113, 114, 82, 67, 110, 68, 97, 69, 70, 65, 66),
        111,
        BETTER,
        "O's seventh move, against ThreatSpace. The search plays 99 at its budget, 142 given 3 s: in 400 games "
        "as O (seeds 3000 to 3019) 12 came through here: 99 lost 4 of 7 and 83 1 of 1, and 111 and 142 won 3 and 1. "
        "Played out from here, 99 lost 11 of 24, 83 lost 24 of 24, and 111 none of 24.",
    ),
    (
        (112, 126, 113, 111, 129, 97, 143, 115, 96, 128, 144, 142, 114, 99, 125),
        158,
        BETTER,
        "O's eighth move, against ThreatSpace. The search plays 158 or 131, as its clock allows (131 given 3 s): "
        "in 400 games as O (seeds 3000 to 3019) 9 came through here, and 131 lost 3 of 5 and 158 none of 4. "
        "Played out from here, 131 lost 5 of 24, and 158 none of 24.",
    ),
    (
        (112, 128, 113, 114, 97, 129, 127, 142, 156, 99, 144, 67, 83),
        69,
        BETTER,
        "O's seventh move, against ThreatSpace. The search plays 100, at its budget and given 3 s: in 400 games as "
        "O (seeds 3000 to 3019) 13 came through here, and 100 lost 2 of 4 and 69 2 of 9. Played out from here, "
        "100 lost 13 of 24, 101 and 125 1 of 24 each, and 69 none of 24.",
    ),
    (
        (112, 128, 113, 114, 97, 129, 127, 142, 156, 99, 84, 67, 83),
        143,
        BETTER,
        "O's seventh move, against ThreatSpace. The search scores 144 as a win in 17 plies, and given 3 s 143 as "
        "one in 15: in 400 games as O (seeds 3000 to 3019) 3 came through here, and 144 lost 2 of 3. Played out "
        "from here, 144 lost 10 of 24 (an alpha-beta win, its defender's moves pruned: after X's block at 159 "
        "Hard's search finds none), and 143 none of 24.",
    ),
    (
        (112, 96),
        (82, 110),
        OWN,
        "X's second move, the position X meets most (ThreatSpace answers the centre diagonally). The search ties 82 "
        "and 110, mirror images in the diagonal the two stones lie on, at every depth, and the game's random "
        "generator picks one; counting nodes alone it spends all 24,000, up to 0.8 s on a machine that searches "
        "28,000 to 37,000 nodes a second. There the clock cut it in games, and a check run after the cut settled "
        "the tie for 82 alone (a meter found past its time now stays spent): 4 of the 6 distinct games X lost in "
        "600 against ThreatSpace (seeds 3106 to 3135) parted there from the same game played counting nodes "
        "alone, which X won. The tie is kept, so that every machine plays it as the full search does, at once.",
    ),
    (
        (112, 96, 82, 95, 97, 67, 81, 83),
        79,
        BETTER,
        "X's fifth move. The search plays 113 (or 127, given more time): 3 of the 5 games through here were "
        "lost in 100 of the shipped engine as X against ThreatSpace, and 3 of 10 played out from here (127: "
        "2 of 4). 79, 66, 98, 84 and 114 lost none of 10 each; 79 is the one the search ranks highest.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 81, 126, 84),
        94,
        BETTER,
        "X's sixth move. The search plays 154 at its budget (66 given 3 s): 3 of the 5 games through here "
        "were lost in 100 of Hard as X against ThreatSpace on new seeds (2036 to 2040), and 4 of 6 played "
        "out from here. 65, 130, 99 and 94 lost none of 10 each (66: 1 of 4), and the book took 65, the one "
        "the search ranks highest. But with 65, 4 of the 19 games through here were lost in 900 as X against "
        "ThreatSpace, and played out again 65 lost 7 of 32 (130 and 99: 3 and 1 of 16), and 94 none of 32.",
    ),
    (
        (112, 126, 110, 113, 96, 128),
        127,
        BETTER,
        "X's fourth move, against the threat attacker's diagonal reply. The search plays 124: the 7 games "
        "through here (up to symmetry) in 200 of Hard as X against the attacker lost 4, X's only losses there, "
        "and 5 of 16 played out from here (109, 108 and 65: 11, 11 and 16 of 16). 127, 125 and 68 lost none of "
        "32 each; 127 is the one the search ranks highest. Against ThreatSpace from here, 124 and 127 lost "
        "none of 8.",
    ),
    (
        (112, 96, 82, 111, 97, 127, 81, 83, 65, 113, 67, 52, 66, 68, 63, 64, 49, 33, 98, 50, 130, 114),
        77,
        BETTER,
        "X's twelfth move, on a line ThreatSpace's choices lead to. The search plays 21: 2 of the 7 games "
        "through here were lost in 600 of Hard as X against ThreatSpace (seeds 2026 to 2060), and 9 of 30 "
        "played out from here (95, 36, 79 and 91: 1, 2, 6 and 10 of 10). 77, 35 and 126 lost none of 30 "
        "each; 77 is the one the search ranks highest.",
    ),
    (
        (112, 127, 96, 80, 126, 111, 98, 140),
        128,
        BETTER,
        "X's fifth move, against the threat attacker. The search plays 70: both games through here were lost "
        "in 400 of Hard as X against the attacker (seeds 2026 to 2045), and 16 of 16 played out from here. 128, "
        "144, 84, 113, 95, 143 and 110 lost none of 16 each; 128 is the one the search ranks highest given 3 s. "
        "ThreatSpace never answered the centre at 127 in 600 games.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 67, 109, 108),
        140,
        BETTER,
        "X's eighth move, against ThreatSpace. The search plays 126: 3 of the 4 games through here were lost in "
        "900 of Hard as X against ThreatSpace (seeds 2026 to 2060 and 2061 to 2075), and 3 of 24 played out "
        "from here (141, 84, 70, 93 and 94: 4, 3, 3, 2 and 1 of 8). 140 and 139 lost none of 24 each; 140 is "
        "the one the search ranks higher given 3 s.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 81),
        126,
        BETTER,
        "X's seventh move, against ThreatSpace. The search plays 130: 3 of the 11 games through here were lost "
        "in 1,100 of Hard as X against ThreatSpace (seeds 2026 to 2085), and 14 of 24 played out from here "
        "(52, 80: 7 and 4 of 8). 126 starts a forced win by threes in 17 plies, which the threat search finds "
        "with ten times its nodes, and won all 16 played out; 78 lost none of 24 (114 and 128: 1 and 3 of 24).",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 109, 83, 125, 69, 55, 82, 67, 127, 142, 81, 84),
        126,
        BETTER,
        "X's tenth move, against ThreatSpace. The search plays 93: 2 of the 6 games through here were lost in "
        "those 1,100, and 13 of 24 played out from here (130, 53: 5 and 8 of 8). 126 and 154 lost none of 24 "
        "each; 126 is the one the search ranks higher given 3 s.",
    ),
    (
        (112, 96, 82, 95, 97, 67, 111, 110),
        125,
        SETTLES,
        "X's fifth move, against ThreatSpace. The search ties 125 and 127, and the game's random generator picks "
        "one: in 1,900 games of Hard as X against ThreatSpace (seeds 2026 to 2030 and 2036 to 2125), 127 lost 3 "
        "of the 55 games through here and 125 none of 51; played out from here, 127 lost 2 of 32 and 125 none "
        "of 32. (With the clock's budget, before X counted nodes, 125 lost 6 of 33 played out: docs/engine.md.)",
    ),
    (
        (112, 96, 110, 97, 111, 109, 95, 113, 79, 127, 80, 65, 125, 140, 63, 47, 81, 78, 99, 141, 83, 82, 67, 115),
        53,
        BETTER,
        "X's thirteenth move, against ThreatSpace. The search plays 68: both games through here were lost in those "
        "1,900 (seeds 2065 and 2121, the same 48 plies), and 16 of 16 played out from here (139: 10 of 16). 53 and "
        "51 lost 1 of 16 each; 53 is the one the search ranks highest given 3 s.",
    ),
    (
        (
            *(112, 96, 82, 97, 98, 111, 83, 126, 141, 127, 66, 114, 50, 34, 128, 113, 81, 80, 95, 64, 67, 53, 84),
            *(85, 70, 56, 99, 51, 69, 68, 109, 123, 125, 93, 54, 39, 86, 102),
        ),
        38,
        SETTLES,
        "X's twentieth move, against ThreatSpace. The search ties 131 and 38: both games through here in those "
        "1,900 (seeds 2113 and 2116, the same 41 plies) took 131 and were lost, and 131 lost 8 of 8 played out "
        "from here. 38 lost none of 24 (173 and 94: 6 and 8 of 8). Played out two moves earlier, with the coin "
        "still to flip, the line's own move lost 2 of 8.",
    ),
    (
        (112, 96, 110, 97, 111, 109, 95, 79, 125, 140, 94, 65, 126, 142),
        113,
        SETTLES,
        "X's eighth move, against ThreatSpace. The search ties 113 and 128. Played out from here, 128 lost 9 of 12 "
        "and 113 2 of 12; in those 1,900 games, 128 lost 1 of the 2 games through here (seed 2046, in 78 plies), "
        "and 113 none of 1.",
    ),
    (
        (112, 96, 110, 111, 126, 95, 94, 142, 79, 81, 109, 124, 51, 65),
        78,
        SETTLES,
        "X's eighth move, against ThreatSpace. The search ties 49 and 78. Played out from here, 49 lost 10 of 24 "
        "and 78 none of 24; in those 1,900 games, 49 lost 1 of the 5 games through here (seed 2091), and 78 none "
        "of 3.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 81, 126, 84, 94, 113, 65, 114, 129, 115, 110, 142, 100, 109),
        140,
        SETTLES,
        "X's eleventh move, against ThreatSpace. The search ties 62 and 140, both fours. Played out from here, 62 "
        "lost 10 of 12 and 140 none of 12; in those 1,900 games, 62 lost the one game that took it (seed 2049, "
        "in 120 plies), and 140 none of 5.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 84),
        109,
        SETTLES,
        "X's seventh move, against ThreatSpace. The search ties 82 and 109. Played out from here, 82 lost 4 of 24 "
        "and 109 none of 24; in 2,300 games (seeds 2026 to 2030 and 2036 to 2145), 82 lost 1 of the 6 games "
        "through here (seed 2128) and 109 none of 16.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 67),
        109,
        SETTLES,
        "X's seventh move, against ThreatSpace, the position before the eighth-move entry above. The search ties "
        "109 and 126. Played out from here, 126 lost 6 of 24 and 109 1 of 24; in 2,700 games (seeds 2026 to "
        "2030 and 2036 to 2165), 126 lost 1 of the 11 games through here (seed 2151) and 109 none of 10. Replayed "
        "with this entry, one of those games that 126 had won was lost (seed 2098).",
    ),
    (
        (112, 96, 82, 111, 97, 127, 81, 83),
        65,
        SETTLES,
        "X's fifth move, against ThreatSpace, the position before the twelfth-move entry above. The search ties 65 "
        "and 95. In 3,500 games (seeds 2026 to 2030 and 2036 to 2205), 95 lost 3 of the 104 games through here "
        "(seeds 2125, 2155 and 2202) and 65 none of 102; played out from here, 95 lost 1 of 48 and 65 none of 48. "
        "The weakest evidence in the book, for a choice the search itself leaves to chance.",
    ),
    (
        (112, 96, 110, 97, 111, 109, 95, 125, 141, 113, 143, 127, 142, 140, 126, 158),
        79,
        SETTLES,
        "X's ninth move, against ThreatSpace. The search ties 129 and 144. In 4,300 games (seeds 2026 to 2030 and "
        "2036 to 2245), 144 lost 2 of the 5 games through here (seeds 2058 and 2190, the same 23 plies) and 129 "
        "none of 5; but played out from here, in two runs of 24, 129 lost 5 and 8 and 144 4 and 6. 79 lost none "
        "of 48, and 98 none of 24 (78: 3 of 24); 79 is the one the search ranks higher given 3 s.",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 79, 125, 140, 94, 78, 80, 65, 66, 108, 93),
            *(92, 113, 114, 52, 38, 124, 107, 106, 139, 137, 142, 141, 155, 123, 122, 127, 126),
        ),
        84,
        BETTER,
        "X's eighteenth move, against ThreatSpace, on a line it led 27 of 5,300 games down for 29 plies (seeds 2026 "
        "to 2030 and 2036 to 2295). The search plays 100: 2 of the 8 games through here were lost (seeds 2202 and "
        "2252, the same 35 plies), and in three runs of 24 played out from here 100 lost 8, 3 and 8. 84 lost 2, 2 "
        "and 1 (62: 3 and 6 of 24, 152: 12 of 24); 84 is the third the search ranks given 3 s, all three below even.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 81, 126, 84, 94, 114, 140, 154, 113, 128, 142, 110),
        69,
        BETTER,
        "X's tenth move, against ThreatSpace, on from the sixth-move entry above. The search plays 141: 2 of the 3 "
        "games through here were lost in 5,300 (seeds 2156 and 2258), and in two runs of 24 played out from here "
        "141 lost 3 and 3 (99: 7 of 24; 67: 24 of 24). 69 lost none of 48; it is the second the search ranks "
        "given 3 s, after 99.",
    ),
    (
        (112, 96, 110, 111, 126, 95, 94, 78, 127, 142, 98, 84),
        125,
        BETTER,
        "X's seventh move, against ThreatSpace. The search plays 141: 1 of the 18 games through here was lost in "
        "5,300 (seed 2218), and 1 of 24 played out from here. 125 starts a forced win by threes in 15 plies, which "
        "the threat search finds with 4,000 nodes (X's move gives it 2,880), and won all 24 played out.",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 113, 79, 127, 80, 65, 125),
            *(140, 63, 47, 81, 78, 99, 141, 83, 82, 67, 51, 68, 98),
        ),
        115,
        SETTLES,
        "X's fourteenth move, against ThreatSpace, on the line of the thirteenth-move entry above, where ThreatSpace "
        "answered 51, not 115. The search ties 53 and 115. In 5,300 games, 53 lost 1 of the 7 games through here "
        "(seed 2288) and 115 none of 13; played out from here, 53 lost 7 of 24 and 115 none of 24.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 67, 109, 108, 140, 126),
        138,
        BETTER,
        "X's ninth move, against ThreatSpace, on from the eighth-move entry at 140 above. The search plays 139: 3 of "
        "the 12 games through here were lost in 8,300 (seeds 2026 to 2030 and 2036 to 2445; 2363, 2386 and 2420), "
        "after ThreatSpace's 93 or 138. Played out from here, 139 lost 5 of 72, even with 138 booked as X's answer "
        "to 93 (125: 19 of 48; 99: 19 of 24; 143: 48 of 48). 138 lost none of 168, and 94 none of 168.",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 79, 125, 140, 94, 78, 80, 65, 66, 108, 93, 92),
            *(113, 114, 52, 38, 124, 107, 106, 139, 137, 142, 141, 155, 123, 122, 127, 126, 84, 100),
        ),
        86,
        BETTER,
        "X's nineteenth move, against ThreatSpace, on from the eighteenth-move entry at 84 above. O's broken three "
        "100-114-142 is to be blocked, and the search weighs only the middle, 128: 1 of the 2 games through here "
        "was lost in 7,300 (seeds 2026 to 2030 and 2036 to 2395; 2386), and played out from here 128 lost 15 of "
        "72. The two ends, 86 and 156, each lost none of 168; a threat search of 40 times X's nodes finds no "
        "forced win for O after either.",
    ),
    (
        (112, 96, 82, 95, 97, 67, 111, 110, 125, 83, 126, 127, 98, 140),
        114,
        SETTLES,
        "X's eighth move, against ThreatSpace. The search ties 84 and 114. In 9,300 games (seeds 2026 to 2030 and "
        "2036 to 2495), 84 lost 2 of the 39 games through here (seeds 2075 and 2485, the same 25 plies) and 114 "
        "none of 46; played out from here, in two runs of 24 and 48, 84 lost 3 and 9 and 114 none of either.",
    ),
    (
        (112, 96, 110, 97, 111, 109, 95, 79, 125, 140, 94, 65, 113, 114, 126, 142),
        78,
        SETTLES,
        "X's ninth move, against ThreatSpace, on from the eighth-move entry at 113 above, where ThreatSpace answered "
        "114. The search ties 78 and 128. In 9,300 games (seeds 2026 to 2030 and 2036 to 2495), 128 lost 1 of the "
        "26 games through here (seed 2046) and 78 none of 15; on the next 1,000 new seeds, 128 lost 3 of 12 "
        "(seeds 2497, 2503 and 2506: 2046's game again, its first stones in another order). Played out from here, "
        "in two runs of 24 and 48, 128 lost 5 and 6 and 78 none of either.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 126, 141, 81, 66, 114, 113, 68, 143, 128, 142, 140, 127, 99),
        157,
        SETTLES,
        "X's eleventh move, against ThreatSpace. The search ties 145 and 157. The one game through here in 10,300 "
        "(seeds 2026 to 2030 and 2036 to 2545) took 145 and was lost (seed 2521); played out from here, in runs "
        "of 24, 48 and 96, 145 lost 2, 1 and 2, and 157 none of any. 157 starts a forced win by threes in 31 "
        "plies, which the threat search finds with a hundred times X's nodes, and not with forty.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 83, 127, 142, 98, 84, 109, 108, 125, 124),
        126,
        BETTER,
        "X's ninth move, against ThreatSpace, on from the seventh-move entry at 109 above. The search plays 140: 2 "
        "of the 17 games through here were lost in 10,300 (seeds 2026 to 2030 and 2036 to 2545; 2198 and 2538), "
        "and played out from here 140 lost 4 of 24 and 2 of 48 (82, 93, 139, 153 and 157: 6, 5, 13, 18 and 1 of "
        "24). 126 lost none of 168, and 141 none of 168.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 81, 126, 84, 94, 113, 65, 114, 129, 115, 110, 142, 100, 79),
        140,
        SETTLES,
        "X's eleventh move, against ThreatSpace. The search ties 78 and 140. In 14,300 games (seeds 2026 to 2030 "
        "and 2036 to 2745) 13 came through here: 140 won 9 of 9, and 78 won 3 and lost 1 (seed 2739). Played out "
        "from here, 78 lost 9 of 72, and 140 none of 72 and none of 96 more.",
    ),
    (
        (112, 96, 82, 97, 98, 111, 83, 126, 141, 81, 66, 114, 50, 34, 113, 68, 143, 128, 142, 140, 127, 99, 157, 172),
        129,
        SETTLES,
        "X's thirteenth move, against ThreatSpace. The search ties 129 and 145. In 16,300 games (seeds 2026 to 2030 "
        "and 2036 to 2845) 7 came through here: 129 won 5 of 5, and 145 lost 2 of 2 (seeds 2794 and 2807). Played "
        "out from here, 145 lost 22 of 72, and 129 none of 72 and none of 96 more. A threat search given all of X's "
        "24,000 nodes proves a win by threes in 21 plies from 144. Hard's own has 2,880 of them and does not find "
        "it, nor, once 144 is played, the win's later moves: played out, 144 lost 27 of 72.",
    ),
    (
        (
            *(112, 96, 82, 97, 98, 111, 83, 84, 66, 50, 68, 113, 67, 65, 81, 53, 80, 79, 130, 114),
            *(69, 70, 51, 35, 36, 21, 63, 22, 20, 94, 52, 4),
        ),
        115,
        SETTLES,
        "X's seventeenth move, against ThreatSpace. The search ties 38 and 115. In 16,300 games (seeds 2026 to 2030 "
        "and 2036 to 2845) 2 came through here: 115 won (seed 2357), and 38 lost (seed 2799). Played out from "
        "here, 38 lost 72 of 72, and 115 none of 72.",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 79, 125, 140, 94, 78, 113, 114, 127, 128, 142, 172, 124, 126),
            *(80, 65, 143, 159, 66, 108, 99, 141, 52, 38, 93, 174, 85, 71, 92, 91, 144, 160, 146, 145),
            *(173, 162, 158, 190, 188, 203, 175, 177, 161, 147, 192, 86, 116, 117, 132, 131, 103, 56, 102, 130),
            *(100, 101, 41, 148, 176, 55, 53, 51, 37, 70),
        ),
        206,
        SETTLES,
        "X's thirty-sixth move, against ThreatSpace. The search ties 69, 84 and 206. In 16,300 games (seeds 2026 to "
        "2030 and 2036 to 2845) 3 came through here: 206 won 2 of 2 (seeds 2076 and 2596), and 84 lost 1 of 1 (seed "
        "2809). Played out from here, 84 lost 48 of 48, 69 lost 8 and drew 15, and 206 won all 48. Replayed with "
        "206, seed 2809's game was lost all the same, 24 plies later, past two more ties of the search.",
    ),
    (
        (112, 96, 110, 97, 111, 109, 95, 113, 79, 127, 63, 47),
        80,
        OWN,
        "X's seventh move, against ThreatSpace. Counting nodes alone the search plays 80, its defences' checks "
        "taking about 22,000 of its 24,000 nodes (0.5 to 0.9 s on a machine that searches 28,000 to 37,000 nodes a "
        "second). There the clock cut the checks and X played 125: of the 38 games through here on that machine "
        "(seeds 3096 to 3197), 80 won 31 of 31, and 125 lost 2 of 7 (games 3108006 and 3193003). Played out from "
        "here on that machine, 80 lost none of 24, and 125 lost 8 of 24.",
    ),
    (
        (112, 96, 82, 95, 97, 67, 111, 110, 125, 83),
        126,
        OWN,
        "X's sixth move, against ThreatSpace, a position X meets in about one game in sixteen. Counting nodes alone "
        "the search plays 126 at depth 5, its 24,000 nodes taking 0.6 to 0.8 s on a machine that searches 28,000 to "
        "37,000 nodes a second; there the clock cut it at depth 4, which plays 127. Of the 115 games through here on "
        "that machine (seeds 3096 to 3239), 126 won 108 of 108, and 127 lost 1 of 7 (game 3214016, which X won "
        "counting nodes alone). Played out from here on that machine, 126 lost none of 24, and 127 lost 1 of 24.",
    ),
    (
        (112, 96, 110, 95, 111, 113, 97, 109, 83, 125, 69, 55),
        82,
        OWN,
        "X's seventh move, against ThreatSpace. Counting nodes alone the search plays 82 at depth 1, its 24,000 nodes "
        "taking about 0.8 s on a machine that searches 28,000 to 37,000 nodes a second; there the clock cut it at "
        "depth 2, which plays 127 (the two score 5,887 and 5,790). Of the 64 games through here on that machine (seeds "
        "3096 to 3301), 82 lost none of 50, and 127 lost 4 of 14 (games 3130012, 3130014, 3266010 and 3267003, each "
        "won counting nodes alone). Not played out: the entry rests on the search's own choice and those games.",
    ),
    (
        (112, 96, 82, 111, 97, 127, 81, 113, 80, 79, 83, 84, 67, 52, 95, 53, 109, 123),
        50,
        OWN,
        "X's tenth move, against ThreatSpace. Counting nodes alone the search plays 50 at depth 5, its 24,000 nodes "
        "taking about 0.8 s on a machine that searches 28,000 to 37,000 nodes a second; there the clock cut it at 0.4 "
        "to 0.6 s, which plays 65 or 125. Of the 29 games through here on that machine (seeds 3096 to 3301), 50 lost "
        "none of 22, and 65 lost 2 of 7 (games 3271002 and 3301019, each won counting nodes alone). Not played out: "
        "the entry rests on the search's own choice and those games.",
    ),
    (
        (112, 96, 82, 111, 97, 127, 81, 113, 80, 83, 67, 52, 79, 78, 95, 53),
        64,
        OWN,
        "X's ninth move, against ThreatSpace. Counting nodes alone the search plays 64 at depth 5, its 24,000 nodes "
        "taking about 0.8 s on a machine that searches 28,000 to 37,000 nodes a second; there the clock cut it to "
        "110. Of the 38 games through here on that machine (seeds 3096 to 3364), 64 lost none of 34, and 110 lost 1 "
        "of 4 (game 3356004, won counting nodes alone). Not played out: the entry rests on the search's own choice "
        "and those games.",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 113, 79, 127, 63, 47, 80, 65, 125, 140, 81, 78, 99, 92),
            *(83, 82, 67, 51, 53, 39, 68, 98, 115, 131, 38, 23, 66, 52, 69, 70, 37, 85, 21, 5),
        ),
        114,
        OWN,
        "X's twenty-first move, against ThreatSpace. Counting nodes alone the search plays 114 at depth 3, its "
        "24,000 nodes taking about 0.7 s on a machine that searches 28,000 to 37,000 nodes a second; there the clock "
        "cut it at depth 2, which plays 35. Of the 4 games through here on that machine (seeds 3096 to 3386), 114 "
        "lost none of 3, and 35 lost 1 of 1 (game 3381019, won counting nodes alone).",
    ),
    (
        (
            *(112, 96, 110, 97, 111, 109, 95, 113, 79, 127, 80, 65, 125, 140, 63, 47, 81, 78, 99, 139),
            *(83, 82, 67, 51, 53, 39, 68, 98, 66, 38, 69, 70, 115, 131),
        ),
        94,
        SETTLES,
        "X's eighteenth move, against ThreatSpace. The search ties 37 and 94. Played out from here, 37 lost 5 of 72 "
        "and 94 none of 72; in 880 games on a machine that searches 28,000 to 37,000 nodes a second (seeds 3321 to "
        "3364), 3 came through here: 37 lost 1 of 2 (game 3353004, lost counting nodes alone too), and 94 won 1 of 1.",
    ),
    (
        (112, 98, 128, 96, 142, 97, 99, 114, 127),
        95,
        BETTER,
        "O's fifth move, against ThreatSpace. The search plays 94, 95 or 113, as its clock allows: in 360 games as O "
        "on a machine that searches 28,000 to 37,000 nodes a second (seeds 3060 to 3077), 56 came through here, and "
        "94 lost 9 of 9, 113 2 of 27 and 95 none of 20. Played out from here on that machine, 94 lost 16 of 16, 113 "
        "1 of 16 and 95 none of 16.",
    ),
    (
        (112, 126, 113, 111, 129, 97, 143),
        83,
        BETTER,
        "O's fourth move, against ThreatSpace. The search plays 83, 98 or 115, as its clock allows: in the games as "
        "O on a machine that searches 28,000 to 37,000 nodes a second (seeds 3060 to 3089, some played by two "
        "engines), 58 came through here, and 98 lost 14 of 24, 115 none of 24 and 83 none of 10. Played out from "
        "here on that machine, ThreatSpace shown the game first, 98 lost 5 of 16, 115 3 of 16 and 83 none of 16.",
    ),
    (
        (112, 126, 127, 142, 110, 109, 96, 124, 80, 64, 95, 125, 98),
        122,
        BETTER,
        "O's seventh move, against ThreatSpace. The search plays 97 or 122, as its clock allows: in the games as O "
        "on a machine that searches 28,000 to 37,000 nodes a second (seeds 3060 to 3089), 36 came through here, "
        "and 97 lost 6 of 6 and 122 none of 30. Played out from here on that machine, ThreatSpace shown the game "
        "first (it plays on a threat line it saved), 97 lost 16 of 16 and 122 none of 16.",
    ),
    (
        (112, 128, 113, 114, 142, 157, 141, 143, 171, 99, 129, 97, 126, 156, 158, 110, 140, 98, 96, 100, 101),
        86,
        BETTER,
        "O's eleventh move, against ThreatSpace. The search plays 69 at depth 3, and 86 where its clock stops it at "
        "depth 2: in the games as O on a machine that searches 28,000 to 37,000 nodes a second (seeds 3060 to "
        "3089), 13 came through here, and 69 lost 6 of 6 and 86 none of 7. Played out from here on that machine, "
        "ThreatSpace shown the game first, 69 lost 16 of 16 and 86 none of 16.",
    ),
    (
        (112, 128, 126, 98, 142, 113, 143),
        97,
        BETTER,
        "O's fourth move, against ThreatSpace. The search plays 141 at depth 4 and 97 at depth 5, as its clock "
        "allows: in the games as O on a machine that searches 28,000 to 37,000 nodes a second (seeds 3060 to 3113, "
        "each seed counted once), 180 came through here, and 141 lost 6 of 19 and 97 6 of 161. Played out from "
        "here, ThreatSpace shown the game first, 141 lost 13 of 48 and 97 none of 48 (at 40,000 nodes a second; "
        "an earlier 16 each on the slower machine lost none either way).",
    ),
)
# Past the book's longest entry, no position can be in it.
MOST_STONES = max(len(moves) for moves, *_ in ENTRIES)


def grid(n: int, moves: Iterable[int]) -> str:
    """The board after ``moves``, X first, as row-major text."""
    cells = ["."] * (n * n)
    for turn, move in enumerate(moves):
        cells[move] = "X" if turn % 2 == 0 else "O"
    return "".join(cells)


def _least_image(board: str) -> tuple[str, tuple[int, ...]]:
    """``board``'s least image among its eight, and the map that makes it: ``image[i] = board[perm[i]]``."""
    images = [("".join(board[cell] for cell in perm), perm) for perm in geometry(N, K).symmetries]
    return min(images, key=lambda pair: pair[0])


def squares(answer: int | tuple[int, ...]) -> tuple[int, ...]:
    """An entry's reply as the squares the game picks among.

    >>> squares(125), squares((82, 110))
    ((125,), (82, 110))
    """
    return (answer,) if isinstance(answer, int) else answer


@cache
def _book() -> dict[str, tuple[tuple[int, ...], str]]:
    """Each entry's position, as its least image, with the reply's squares in that image and why it is kept."""
    book = {}
    for moves, answer, kind, _ in ENTRIES:
        key, perm = _least_image(grid(N, moves))
        book[key] = (tuple(perm.index(square) for square in squares(answer)), kind)
    return book


def _entry(board: str, n: int, k: int) -> tuple[tuple[int, ...], str] | None:
    """The reply's squares in ``board`` (row-major text of X, O and .), in order, and why; None where it has none."""
    if (n, k) != (N, K) or len(board) - board.count(".") > MOST_STONES:
        return None
    key, perm = _least_image(board)
    found = _book().get(key)
    if found is None:
        return None
    answer, kind = found
    return tuple(sorted(perm[square] for square in answer)), kind


def reply(board: str, n: int, k: int) -> tuple[int, ...] | None:
    """The book's reply in ``board`` (row-major text of X, O and .), in order, or None where it has none."""
    found = _entry(board, n, k)
    return None if found is None else found[0]


def why(board: str, n: int, k: int) -> str | None:
    """Why the book keeps its reply in ``board``: BETTER, SETTLES or OWN; None where it has none.

    >>> why(grid(15, (112, 96)), 15, 5), why(grid(15, (112, 96, 127, 97, 143, 111, 126, 98, 95)), 15, 5)
    ('own', 'better')
    """
    found = _entry(board, n, k)
    return None if found is None else found[1]
