"""Pictures of the games drawn with Pillow: layout (data), fonts, pieces, a recording canvas, one module per game."""
