"""Tools that measure the game: benchmarks and strength matches. Not part of the shipped package."""
