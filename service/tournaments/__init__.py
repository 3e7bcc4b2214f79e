"""Tournaments: a community's players in rounds of tables, Swiss or round-robin.

Pure (no I/O, no clock): `split` (table sizes), `pairing` (who sits with whom), `scoring` (a table's points and
merit), `standings` (the ranking and its tiebreaks), `course` (registration, who plays a round, when it is over).
Stored: `rows` reads and writes the tournament's tables in the caller's transaction. The application that runs
them (commands, rounds as games, deadlines) is `service.play.tournament_*`.
"""
