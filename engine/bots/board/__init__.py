"""The board game's heuristic bot, in parts: what a seat may know (`knowledge`), how it scores actions, and a
measuring script (`python -m engine.bots.board.measure`)."""
