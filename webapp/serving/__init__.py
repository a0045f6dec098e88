"""The serving layer: the production worker, what a request may cost, the search processes, the security headers and
the settings about serving. It knows nothing of the game (tests/test_layout.py holds it to that)."""
