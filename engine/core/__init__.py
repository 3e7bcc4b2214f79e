"""Machinery shared by both games: errors, actions, prompts, events, the game protocol, random play."""

from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import Game
from engine.core.prompts import RESPONSE, TURN, Prompt

__all__ = ["Action", "Event", "Game", "IllegalAction", "Prompt", "RESPONSE", "TURN"]
