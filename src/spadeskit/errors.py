"""The one error family spadeskit raises.

Every error is a :class:`SpadesError`, which is a :class:`ValueError`, so an app can
catch everything the library refuses with one ``except`` clause and still tell the
kinds apart.  Messages name the bad input, and where it matters the seat and the rule
that refused it, so they can be shown to a player as they are.
"""

from __future__ import annotations

__all__ = [
    "shown",
    "ActionParseError",
    "CardParseError",
    "DealError",
    "Deadlock",
    "GameOver",
    "IllegalAction",
    "NotYourTurn",
    "OptionError",
    "PluginError",
    "RecordError",
    "RuleConflict",
    "SpadesError",
    "UnknownPlugin",
    "WrongPhase",
]


class SpadesError(ValueError):
    """Base class of every error spadeskit raises on bad input."""


class CardParseError(SpadesError):
    """A card (or list of cards) could not be read, e.g. ``"1S"`` or ``"XX"``."""


class ActionParseError(SpadesError):
    """Text a player typed names no action (see :func:`spadeskit.parse_action`)."""


class IllegalAction(SpadesError):
    """An action the rules do not allow now: a card not in hand, a bid out of range."""


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat's decision is pending."""


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase, e.g. a bid during play."""


class GameOver(IllegalAction):
    """An action was applied to a finished match."""


class DealError(SpadesError):
    """An explicit deal does not fit the table: wrong card count, duplicates, strangers."""


class RecordError(SpadesError):
    """A game record is malformed, from another version, or does not replay."""


class PluginError(SpadesError):
    """A plugin is broken: bad metadata, or a hook returned something unusable."""


class Deadlock(PluginError):
    """A reachable state offers nobody an action: the rules (usually two house rules that
    cannot be combined) leave the game stuck."""


class UnknownPlugin(PluginError):
    """No installed plugin has the requested name, or it is of the wrong kind."""


class OptionError(PluginError):
    """An option is unknown to every loaded plugin, or its value is refused."""


class RuleConflict(PluginError):
    """Two plugins cannot be loaded together, or a house rule does not fit the variant."""


def shown(value: object, width: int = 40) -> str:
    """Return ``repr(value)`` cut to ``width`` characters, safe for any input.

    Error messages echo what the caller gave; a huge integer has no ``repr`` within
    Python's digit limit and an object's ``repr`` may fail, so neither may break the
    error that reports them.
    """
    if type(value) is int and value.bit_length() > 128:
        digits = int(value.bit_length() * 0.30103) + 1
        return f"a {'negative ' if value < 0 else ''}number of about {digits} digits"
    try:
        text = repr(value)
    except Exception:
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."
