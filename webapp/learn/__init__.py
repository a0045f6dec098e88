"""The learning features: the game tree, the numbers, the tournament, the review and the words for squares."""
