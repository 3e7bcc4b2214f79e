"""The board game's heuristic bot, in parts: what a seat may know and what things cost (`knowledge`), what things
are worth to a loyal knight (`values`), how a loyal knight and a Traitor score actions (`loyal`, `traitor`), the
tuned numbers (`weights`), and a measuring script (`python -m engine.bots.board.measure`).
`engine.bots.board_heuristic.BoardHeuristicBot` puts them together."""
