"""The one error type for illegal or stale input."""


class IllegalAction(Exception):
    """Raised by `Game.apply` (and `decode`) when input breaks a rule; the state is left unchanged.

    `rule` is a rule id from `shared/rules/` (`B-…` for the board game, `C-…` for the card game) so that
    tests and chat messages can name the rule that was broken.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
