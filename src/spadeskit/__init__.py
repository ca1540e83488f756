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
)
from .cards import Card, Suit, parse_card, parse_cards
from .engine import REFEREE
from .errors import (
    CardParseError,
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
from .loader import PluginSummary, available, load_rules
from .plugin import Option, PlayFilter, PluginInfo, acts_in, hookimpl
from .replay import load_score_sheet, replay
from .results import HandResult, HandSummary, MatchEnd, ScoreLine
from .rules import HandScore, Rules
from .scoresheet import ScoreSheet
from .state import GameState, Phase
from .views import View

__version__ = "0.1.0"

__all__ = [
    "REFEREE",
    "Accept",
    "Action",
    "Bid",
    "BlindNil",
    "CallRenege",
    "Card",
    "CardParseError",
    "DealError",
    "DeclareMisdeal",
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
    "RuleConflict",
    "Rules",
    "ScoreLine",
    "ScoreSheet",
    "SeeCards",
    "SpadesError",
    "Suit",
    "TableTalk",
    "UnknownPlugin",
    "View",
    "WrongPhase",
    "acts_in",
    "action_from_json",
    "available",
    "hookimpl",
    "load_rules",
    "load_score_sheet",
    "parse_card",
    "parse_cards",
    "replay",
]
