"""The one error family spadeskit raises.

Every error is a :class:`SpadesError`, which is a :class:`ValueError`, so an app can
catch everything the library refuses with one ``except`` clause and still tell the
kinds apart.  Messages name the bad input, and where it matters the seat and the rule
that refused it, so they can be shown to a player as they are.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "install_hint",
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


def install_hint(extra: str) -> str:
    """Return how to install an optional extra, from the package index and from a clone.

    >>> install_hint("fast")
    "pip install 'spadeskit[fast]' (from a clone: pip install -e '.[fast]')"
    """
    return f"pip install 'spadeskit[{extra}]' (from a clone: pip install -e '.[{extra}]')"


class SpadesError(ValueError):
    """Base class of every error spadeskit raises on bad input.

    Besides its message (``text``, the same as ``str(error)``), an error carries fields
    an app can use without reading the words: ``code``, a stable reason code (see
    :ref:`reason-codes`; each class has a default, and a refusal by a rule names the
    rule), and where they apply the ``seat`` that acted and the ``action`` refused.
    :meth:`to_json` gives all of them as JSON data.

    >>> import spadeskit
    >>> game = spadeskit.load_rules("standard").new_game(seed=1)
    >>> try:
    ...     game.apply(spadeskit.Bid(4), 2)
    ... except spadeskit.SpadesError as error:
    ...     print(error.code, error.seat, error.action)
    not-your-turn 2 bid 4
    """

    code: str = "error"
    seat: int | None = None
    action: Any = None

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        seat: int | None = None,
        action: Any = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        if seat is not None:
            self.seat = seat
        if action is not None:
            self.action = action

    @property
    def text(self) -> str:
        """Return the message, for people."""
        return str(self)

    def to_json(self) -> dict[str, Any]:
        """Return the error as JSON data: ``{"error": "NotYourTurn", "code":
        "not-your-turn", "seat": 0, "action": {"type": "bid", "tricks": 4}, "text": ...}``."""
        action = self.action
        to_json = getattr(action, "to_json", None)
        return {
            "error": type(self).__name__,
            "code": self.code,
            "seat": self.seat,
            "action": to_json() if callable(to_json) else None,
            "text": self.text,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self),), self.__dict__)


class CardParseError(SpadesError):
    """A card (or list of cards) could not be read, e.g. ``"1S"`` or ``"XX"``."""

    code = "unreadable-card"


class ActionParseError(SpadesError):
    """Text a player typed names no action (see :func:`spadeskit.parse_action`)."""

    code = "unreadable-action"


class IllegalAction(SpadesError):
    """An action the rules do not allow now: a card not in hand, a bid out of range."""

    code = "not-allowed"


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat's decision is pending."""

    code = "not-your-turn"


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase, e.g. a bid during play."""

    code = "wrong-phase"


class GameOver(IllegalAction):
    """An action was applied to a finished match."""

    code = "game-over"


class DealError(SpadesError):
    """An explicit deal does not fit the table: wrong card count, duplicates, strangers."""

    code = "bad-deal"


class RecordError(SpadesError):
    """A game record is malformed, from another version, or does not replay."""

    code = "bad-record"


class PluginError(SpadesError):
    """A plugin is broken: bad metadata, or a hook returned something unusable."""

    code = "plugin-fault"


class Deadlock(PluginError):
    """A reachable state offers nobody an action: the rules (usually two house rules that
    cannot be combined) leave the game stuck."""

    code = "deadlock"


class UnknownPlugin(PluginError):
    """No installed plugin has the requested name, or it is of the wrong kind."""

    code = "unknown-plugin"


class OptionError(PluginError):
    """An option is unknown to every loaded plugin, or its value is refused."""

    code = "bad-option"


class RuleConflict(PluginError):
    """Two plugins cannot be loaded together, or a house rule does not fit the variant."""

    code = "rule-conflict"


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
