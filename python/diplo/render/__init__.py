"""Board pictures: SVG of a position or a phase, and an HTML page stepping through a game."""
