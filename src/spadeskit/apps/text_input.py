"""Turn what a person types into an action: ``parse_action("10♥", view)``.

One function for every front end (a terminal, a chat bot, a web form): it reads the
words people use at a card table, checks the result against what the seat may do in
the :class:`~spadeskit.core.views.View` it is given, and when it cannot, raises an error whose
message lists those choices, ready to show the player.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from spadeskit.core.actions import (
    ACTION_TYPES,
    Accept,
    Action,
    Bid,
    BlindNil,
    CallRenege,
    DeclareMisdeal,
    Discard,
    Exchange,
    Nil,
    Pass,
    PickUp,
    Play,
    SeeCards,
    TableTalk,
)
from spadeskit.core.cards import parse_cards
from spadeskit.core.errors import (
    ActionParseError,
    CardParseError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    shown,
)
from spadeskit.core.views import View

if TYPE_CHECKING:
    from spadeskit.core.state import GameState

__all__ = ["describe_choices", "parse_action"]

_WORDS: dict[str, Action] = {
    "nil": Nil(),
    "bid nil": Nil(),
    "blind nil": BlindNil(),
    "blind-nil": BlindNil(),
    "blindnil": BlindNil(),
    "bid blind nil": BlindNil(),
    "see": SeeCards(),
    "see cards": SeeCards(),
    "see my cards": SeeCards(),
    "look": SeeCards(),
    "pick up": PickUp(),
    "pickup": PickUp(),
    "pick-up": PickUp(),
    "pick up the blind": PickUp(),
    "pass": Pass(),
    "accept": Accept(),
    "ok": Accept(),
    "misdeal": DeclareMisdeal(),
    "declare misdeal": DeclareMisdeal(),
    "declare a misdeal": DeclareMisdeal(),
}
_NUMBER = re.compile(r"(?:bid\s+)?(\d{1,3})")
_RENEGE = re.compile(r"(?:call\s+)?(?:a\s+)?renege(?:\s+in)?(?:\s+trick)?\s+(\d{1,3})")
_TABLE_TALK = re.compile(r"table[\s-]talk(?:\s+by)?\s+(.+)")
_CARDS_VERB = re.compile(r"(play|discard|exchange|give|pass)\s+(.+)")
_CARDISH = re.compile(r"(?:\d{1,2}|[a-z])[shdc]|\w{1,3}[♠♥♦♣]")
"""A word written as a card (a rank, then a suit letter or symbol): "11♥", "1s", "zh"."""


def parse_action(text: str, view: View, *, game: GameState | None = None) -> Action:
    """Return the action ``text`` names for the seat of ``view``, checked against
    ``view.legal_actions``.

    Understood (case and spacing do not matter): a number (``"4"``, ``"bid 4"``),
    ``"nil"``, ``"blind nil"``, ``"see cards"``, a card in any notation the card
    parser takes (``"QH"``, ``"q♥"``, ``"10♥"``, ``"T♥"``, ``"play QH"``, ``"BJ"``),
    ``"pick up"``, ``"pass"``, ``"discard 7C 9S"``, ``"pass AS KS"`` (or bare cards
    when an exchange or a discard is due), ``"call renege 3"``, ``"misdeal"``,
    ``"accept"``, and for the referee ``"table talk N/S"`` (a side's name or number).
    ``"0"`` is a bid of 0 where the rules list one, otherwise nil.

    Raises :class:`~spadeskit.core.errors.ActionParseError` when the text names no action,
    :class:`~spadeskit.core.errors.NotYourTurn` when the seat has nothing to do because
    another seat is to act, and :class:`~spadeskit.core.errors.IllegalAction` when it names
    an action the seat may not take now; every message lists what the seat may do.
    Give ``game`` (the state ``view`` was made from, as a server holds it) and a
    refused action is refused exactly as ``game.apply`` refuses it: the same class,
    reason code and rule ("a player must follow the led suit when able"), with the
    choices added.

    >>> import spadeskit
    >>> game = spadeskit.load_rules("standard").new_game(seed=1)
    >>> spadeskit.parse_action("nil", game.view(game.to_act))
    Nil()
    """
    if not isinstance(view, View):
        raise ActionParseError(f"parse_action reads text for a seat's View, not {shown(view, 30)}")
    legal = view.legal_actions
    seat = view.seat
    if not isinstance(text, str):
        raise ActionParseError(f"type an action as text, not {shown(text, 30)}", seat=seat)
    if not legal:
        who = "a spectator" if seat is None else f"{view.seat_names[seat]}"
        if view.to_act is not None and view.to_act != seat and not view.is_over:
            raise NotYourTurn(
                f"{who} has nothing to do now: it is {view.seat_names[view.to_act]}'s turn",
                seat=seat,
                action=_read_out_of_turn(text, view),
            )
        if view.is_over:
            raise GameOver(f"{who} has nothing to do now: the match is over", seat=seat)
        raise IllegalAction(f"{who} has nothing to do now", code="nothing-to-do", seat=seat)
    words = " ".join(text.strip().lower().split())
    action = _read(words, legal, view)
    if action is None:
        raise ActionParseError(
            f"cannot read {shown(text.strip(), 30)} as an action; {describe_choices(legal)}",
            seat=seat,
        )
    if action not in legal:
        raise _refusal(action, legal, view, game)
    return action


def _refusal(
    action: Action, legal: Sequence[Action], view: View, game: GameState | None
) -> IllegalAction:
    """Return the error for a readable ``action`` the seat may not take: the one ``apply``
    raises (from the state when given, else as the view tells it), with the choices."""
    choices = describe_choices(legal)
    refused: IllegalAction | None = None
    if game is not None:
        try:
            game.apply(action, view.seat)
        except IllegalAction as exc:
            refused = exc
    if refused is None:
        refused = view.refusal(action) or IllegalAction(f"{action} is not allowed now")
    return type(refused)(f"{refused}; {choices}", code=refused.code, seat=view.seat, action=action)


def _read(words: str, legal: Sequence[Action], view: View) -> Action | None:
    if not words:
        return None
    for action in legal:
        if type(action).kind not in ACTION_TYPES and str(action).lower() == words:
            return action  # a plugin's action, read by its label ("blind 6")
    if words in _WORDS:
        word = _WORDS[words]
        if isinstance(word, Pass) and word not in legal:
            return None  # "pass" alone where an exchange is due: say which cards
        return word
    number = _NUMBER.fullmatch(words)
    if number:
        value = int(number.group(1))
        if value == 0 and Bid(0) not in legal and Nil() in legal:
            return Nil()
        return Bid(value)
    renege = _RENEGE.fullmatch(words)
    if renege:
        return CallRenege(int(renege.group(1)))
    talk = _TABLE_TALK.fullmatch(words)
    if talk:
        return _table_talk(talk.group(1), view)
    verb, rest = None, words
    match = _CARDS_VERB.fullmatch(words)
    if match:
        verb, rest = match.group(1), match.group(2)
    try:
        cards = parse_cards(rest.upper())
    except CardParseError as exc:
        if verb is not None or all(_CARDISH.fullmatch(word) for word in rest.split()):
            raise CardParseError(
                f"{exc}; {describe_choices(legal)}", seat=view.seat, code=exc.code
            ) from None
        return None
    if not cards:
        return None
    if verb == "discard":
        return Discard(cards)
    if verb in ("exchange", "give", "pass"):
        return Exchange(cards)
    if verb == "play" or (len(cards) == 1 and any(type(a) is Play for a in legal)):
        return Play(cards[0]) if len(cards) == 1 else None
    for kind in (Discard, Exchange):
        if any(type(a) is kind for a in legal):
            return kind(cards)
    return Play(cards[0]) if len(cards) == 1 else None


def _read_out_of_turn(text: str, view: View) -> Action | None:
    """Return the action ``text`` names with no choices to check it against, or
    ``None``: what a seat tried out of turn, for its error."""
    try:
        return _read(" ".join(text.strip().lower().split()), (), view)
    except CardParseError:
        return None


def _table_talk(name: str, view: View) -> Action | None:
    for index, side in enumerate(view.side_names):
        if name in (side.lower(), str(index)):
            return TableTalk(index)
    return None


def describe_choices(legal: Sequence[Action]) -> str:
    """Return ``legal`` in a few words for a player: ``"you may: bid 1-13, nil, blind nil"``.

    >>> import spadeskit
    >>> describe_choices([spadeskit.Nil(), *(spadeskit.Bid(n) for n in range(1, 14))])
    'you may: nil, bid 1-13'
    """
    parts: list[str] = []
    groups: dict[type, str] = {
        Bid: "bid",
        Play: "play",
        CallRenege: "renege",
        Discard: "step",
        Exchange: "step",
    }
    told: set[str] = set()
    for action in legal:
        group = groups.get(type(action))
        if group is None:
            parts.append(str(action))
            continue
        if group in told:
            continue  # each group is described once, where its first action stands
        told.add(group)
        if group == "bid":
            parts.append("bid " + _ranges(sorted(a.tricks for a in legal if type(a) is Bid)))
        elif group == "play":
            parts.append(
                "play "
                + " ".join(c.symbol for c in sorted(a.card for a in legal if type(a) is Play))
            )
        elif group == "renege":
            parts.append(
                "call a renege in trick "
                + _ranges(sorted(a.trick for a in legal if type(a) is CallRenege))
            )
        elif isinstance(action, (Discard, Exchange)):
            count = len(action.cards)
            verb = "discard" if isinstance(action, Discard) else "pass"
            parts.append(
                f"{verb} {count} card{'s' if count != 1 else ''} (e.g. '{verb} "
                f"{' '.join(c.code for c in action.cards)}')"
            )
    return "you may: " + ", ".join(parts)


def _ranges(numbers: Sequence[int]) -> str:
    """Return ``[1, 2, 3, 5]`` as ``"1-3, 5"``."""
    spans: list[list[int]] = []
    for value in numbers:
        if spans and value == spans[-1][1] + 1:
            spans[-1][1] = value
        else:
            spans.append([value, value])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
