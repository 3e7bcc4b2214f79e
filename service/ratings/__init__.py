"""Ratings: each person's skill at each game kind, from their finished games, rated as two teams (the loyal side
against the Traitor's). The model is explained in `service.ratings.model`, what is shown of it (each person
among everyone, whose spread is learned) in `service.ratings.shown`; storing and recomputing in
`service.ratings.store`; reading standings, leaderboard and history in `service.ratings.standings`; the simulation
that checks the model in `service.ratings.simulate`."""

from service.ratings.model import PROVISIONAL_GAMES, SIDES, sides_of
from service.ratings.standings import Played, Standing, history, leaderboard, of_user, standings
from service.ratings.store import Change, rate_game, recompute, side_rate

__all__ = [
    "PROVISIONAL_GAMES",
    "SIDES",
    "Change",
    "Played",
    "Standing",
    "history",
    "leaderboard",
    "of_user",
    "rate_game",
    "recompute",
    "side_rate",
    "sides_of",
    "standings",
]
