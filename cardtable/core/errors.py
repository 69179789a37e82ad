"""Errors a person can act on: each says what was wrong and, where it can, what to do."""

from __future__ import annotations


class CardtableError(Exception):
    """Base class of every error cardtable raises on purpose."""


class IllegalAction(CardtableError):
    """An action that the rules do not allow now. The state is unchanged."""


class OptionError(CardtableError, ValueError):
    """A game option that is unknown, of the wrong type or out of range."""


class CardFileError(CardtableError, ValueError):
    """A card data file that cannot be used; the message names the file, the card and the field."""


class ReplayError(CardtableError, ValueError):
    """A replay or saved state that cannot be loaded or does not reproduce."""


class UnknownGame(CardtableError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])
