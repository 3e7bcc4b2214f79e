"""The card game's rules, one module per family of the digest `shared/rules/card-game.md`: `listen` (C-LISTEN),
`quest` (C-QUEST, C-RESOLVE), `accuse` (C-ACCUSE), `traitor` (C-TRAITOR), `characters` with `morgan`, `merlin` and
`vivien` (C-CHAR, C-SILENCE), `knights` (C-KNIGHTS), `end` (C-END), and `table` (the turn passing on, draws, swords).

`ACTIONS` is the one table from an action's kind to the rule id its misuse breaks and the function that applies it:
`handler(state, seat, args, events)`, called by `CardGame.apply` only for a legal action."""

from __future__ import annotations

from collections.abc import Callable

from engine.cards.rules import accuse, knights, listen, merlin, morgan, quest, traitor, vivien
from engine.cards.state import State
from engine.core.events import Event

Handler = Callable[[State, int, tuple, list[Event]], None]

ACTIONS: dict[str, tuple[str, Handler]] = {
    "listen": ("C-LISTEN", listen.listen),
    "quest": ("C-QUEST", quest.declare),
    "accuse": ("C-ACCUSE", accuse.accuse),
    "place": ("C-TRAITOR", traitor.place),
    "count": ("C-SILENCE", morgan.count),
    "announce": ("C-SILENCE", morgan.announce),
    "token": ("C-CHAR", merlin.token),
    "give": ("C-CHAR", vivien.give),
    "keep": ("C-CHAR", vivien.keep),
    "swap": ("C-CHAR", vivien.swap),
    "tristan": ("C-KNIGHTS", knights.tristan),
    "galahad": ("C-KNIGHTS", knights.galahad),
    "arthur": ("C-KNIGHTS", knights.arthur),
    "gawain": ("C-KNIGHTS", knights.gawain),
    "percival": ("C-KNIGHTS", knights.percival),
    "pick": ("C-KNIGHTS", knights.pick),
    "pass": ("C-TURN", knights.pass_),
}
