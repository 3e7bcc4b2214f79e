"""No idle taps (issue 23 item 5): how long a person is given for a decision, decided from public information only.

Some windows are asked of every living knight although most can only pass: asking only those with a choice would
tell the table who holds a Merlin (the engine asks all, `engine.core.prompts`). Those windows keep everyone asked,
but the default (pass) is played for whoever has not answered after a short time (`window_deadline`), the same for
everyone asked, so neither who is asked nor when the window closes depends on a hidden card. Nobody is told their
time ran out in such a window: passing there is the expected answer, not a lapse. Which prompts are such
windows is a property of the prompt's kind alone (public), never of a seat's hand.
"""

from __future__ import annotations

from engine.core.prompts import Prompt

WINDOW = "window"  # the deadline timing of a secret-keeping window
# (game, prompt kind) of windows asked of all to keep who can answer secret, whose default is to pass
SECRET_WINDOWS = frozenset({("board", "window")})


def timing(game: str, prompt: Prompt) -> str:
    """The deadline a prompt gets: the engine's timing ("turn", "response"), or the short "window" one."""
    return WINDOW if (game, prompt.kind) in SECRET_WINDOWS else prompt.timing
