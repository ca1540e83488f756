"""spadeskit: the rules of Spades, every variant a plugin.

>>> import spadeskit
>>> rules = spadeskit.load_rules("standard")
>>> game = rules.new_game(seed=7)
>>> game.to_act, game.legal_actions()[:3]
(0, (Nil(), Bid(tricks=1), Bid(tricks=2)))
"""

from .actions import (
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
    action_from_json,
    label,
)
from .cards import Card, Suit, parse_card, parse_cards
from .engine import REFEREE
from .errors import (
    ActionParseError,
    CardParseError,
    Deadlock,
    DealError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    PluginError,
    RecordError,
    RuleConflict,
    SpadesError,
    UnknownPlugin,
    WrongPhase,
)
from .events import Event
from .loader import PluginSummary, available, load_rules
from .plugin import Option, PlayFilter, PluginInfo, acts_in, hookimpl
from .replay import ReplayStep, iter_replay, load_score_sheet, replay
from .results import HandResult, HandSummary, MatchEnd, ScoreLine
from .rules import HandScore, Rules
from .scoresheet import ScoreSheet
from .service import Connection, Seat, SeatError, Table
from .state import GameState, Phase
from .text_input import parse_action
from .views import ShownTrick, View

__version__ = "0.2.0"

__all__ = [
    "REFEREE",
    "Accept",
    "Action",
    "ActionParseError",
    "Bid",
    "BlindNil",
    "CallRenege",
    "Card",
    "CardParseError",
    "Connection",
    "DealError",
    "Deadlock",
    "DeclareMisdeal",
    "Event",
    "Discard",
    "Exchange",
    "GameOver",
    "GameState",
    "HandResult",
    "HandScore",
    "HandSummary",
    "IllegalAction",
    "MatchEnd",
    "Nil",
    "NotYourTurn",
    "Option",
    "OptionError",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "PlayFilter",
    "PluginError",
    "PluginInfo",
    "PluginSummary",
    "RecordError",
    "ReplayStep",
    "RuleConflict",
    "Rules",
    "ScoreLine",
    "ScoreSheet",
    "Seat",
    "SeatError",
    "SeeCards",
    "ShownTrick",
    "SpadesError",
    "Suit",
    "Table",
    "TableTalk",
    "UnknownPlugin",
    "View",
    "WrongPhase",
    "acts_in",
    "action_from_json",
    "available",
    "hookimpl",
    "iter_replay",
    "label",
    "load_rules",
    "load_score_sheet",
    "parse_card",
    "parse_action",
    "parse_cards",
    "replay",
]
