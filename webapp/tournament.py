"""Every computer level against every other, as X and as O."""

from __future__ import annotations

import random
from dataclasses import dataclass

from webapp.engine.rules import Position
from webapp.solver import LEVELS, check_level, choose_move


@dataclass(frozen=True, slots=True)
class Pairing:
    """The results of ``games`` games between a level playing X and a level playing O."""

    x_level: str
    o_level: str
    x_wins: int
    o_wins: int
    draws: int

    @property
    def games(self) -> int:
        return self.x_wins + self.o_wins + self.draws


def play_game(x_level: str, o_level: str, rng: random.Random) -> Position:
    """Play one game between two levels and return the final position."""
    levels = {"X": check_level(x_level), "O": check_level(o_level)}
    pos = Position.empty()
    while not pos.is_over():
        pos = pos.play(choose_move(pos.board, levels[pos.to_move], rng))
    return pos


def play_pairing(x_level: str, o_level: str, games: int, rng: random.Random) -> Pairing:
    """Play ``games`` games between one level as X and one as O."""
    winners = [play_game(x_level, o_level, rng).winner for _ in range(games)]
    return Pairing(x_level, o_level, winners.count("X"), winners.count("O"), winners.count(None))


def tournament(games: int, rng: random.Random | None = None) -> list[Pairing]:
    """Every level as X against every level as O, ``games`` games each."""
    if games < 1:
        raise ValueError("A tournament needs at least one game per pairing.")
    rng = rng or random.Random()
    return [play_pairing(x, o, games, rng) for x in LEVELS for o in LEVELS]


@dataclass(frozen=True, slots=True)
class Standing:
    """One level's record over a whole tournament, as X and as O together."""

    level: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def standings(pairings: list[Pairing]) -> list[Standing]:
    """Each level's wins, draws and losses, summed over its games as X and as O."""
    table = []
    for level in LEVELS:
        wins = draws = losses = 0
        for p in pairings:
            if p.x_level == level:
                wins, draws, losses = wins + p.x_wins, draws + p.draws, losses + p.o_wins
            if p.o_level == level:
                wins, draws, losses = wins + p.o_wins, draws + p.draws, losses + p.x_wins
        table.append(Standing(level, wins, draws, losses))
    return table
