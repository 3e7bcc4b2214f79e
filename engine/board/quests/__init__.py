"""The quests of the board game (digest §6, §7), one module each: `black_knight`, `lancelot`, `dragon` (the solo and
shared fights, with their common mechanics in `fight`), `excalibur`, `grail`, `wars` (the Picts and the Saxons, whose
rules are the same), and what every quest shares: the quest action's routing (`actions`) and a quest's end with its
rewards (`rewards`). The siege of Camelot is `engine.board.siege`."""
