"""Shadows over Camelot: The Card Game — rules engine (`engine.get_game("cards")`)."""
