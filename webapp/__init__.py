"""Tic-tac-toe in the browser, and a clear demonstration of game-tree search."""
