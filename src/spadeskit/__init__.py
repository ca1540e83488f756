"""spadeskit: the rules of Spades, every variant a plugin.

>>> import spadeskit
>>> rules = spadeskit.load_rules("standard")
>>> game = rules.new_game(seed=7)
>>> game.to_act, game.legal_actions()[:3]
(0, (Nil(), Bid(tricks=1), Bid(tricks=2)))
"""

from collections.abc import Iterator
from typing import Any

# _native chooses the engine's compiled copy or its source as it is imported: first.
from spadeskit import _native
from spadeskit.analysis import AnalysisUnsupported
from spadeskit.apps.connection import Connection
from spadeskit.apps.seating import Seat, SeatError, token_digest
from spadeskit.apps.service import Table
from spadeskit.apps.store import PostgresStore, SQLiteStore, StoreError, TableStore
from spadeskit.apps.text_input import parse_action
from spadeskit.bots import Bot, HeuristicBot, ISMCTSBot, PIMCBot, RandomBot, SimpleBot
from spadeskit.core.actions import (
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
from spadeskit.core.cards import Card, Suit, parse_card, parse_cards
from spadeskit.core.errors import (
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
    install_hint,
)
from spadeskit.core.events import Event
from spadeskit.core.results import HandResult, HandScore, HandSummary, MatchEnd, ScoreLine
from spadeskit.core.state import REFEREE, GameState, Phase
from spadeskit.core.views import ShownTrick, View
from spadeskit.engine.authoring import Option, PlayFilter, PluginInfo, acts_in, hookimpl
from spadeskit.engine.loader import PluginSummary, available, load_rules
from spadeskit.engine.replay import ReplayStep, iter_replay, load_score_sheet, replay
from spadeskit.engine.rules import Rules, register_batch_engine
from spadeskit.engine.scoresheet import ScoreSheet

__version__ = "0.8.2"


def _simulate_batch(rules: Rules, *args: Any, **kwargs: Any) -> Iterator[Any]:
    """Run :func:`spadeskit.batch.simulate_batch`, loaded on first use (it needs numpy)."""
    try:
        from spadeskit.batch import simulate_batch
    except ImportError as exc:
        raise SpadesError(
            f"simulate_batch needs numpy: {install_hint('fast')}",
            code="no-numpy",
        ) from exc
    return simulate_batch(rules, *args, **kwargs)


# The package is the composition root: it wires the layers that may not import each
# other (the engine below, the batched engine above it).
register_batch_engine(_simulate_batch)

_native.correct_paths()
NATIVE: bool = _native.native_now()
"""Whether the engine runs as the native core (compiled by mypyc) rather than as pure
Python: see :doc:`performance`.  ``SPADESKIT_PURE=1`` in the environment forces pure
Python."""


def __getattr__(name: str) -> Any:
    if name == "COMPILED":  # 0.3's name for NATIVE
        import warnings

        warnings.warn(
            "spadeskit.NATIVE is now spadeskit.NATIVE; the old name goes in 0.5",
            DeprecationWarning,
            stacklevel=2,
        )
        return NATIVE
    raise AttributeError(f"module 'spadeskit' has no attribute {name!r}")


__all__ = [
    "AnalysisUnsupported",
    "NATIVE",
    "REFEREE",
    "Accept",
    "Action",
    "ActionParseError",
    "Bid",
    "BlindNil",
    "Bot",
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
    "HeuristicBot",
    "ISMCTSBot",
    "IllegalAction",
    "MatchEnd",
    "Nil",
    "NotYourTurn",
    "Option",
    "PIMCBot",
    "OptionError",
    "Pass",
    "Phase",
    "PickUp",
    "Play",
    "PlayFilter",
    "PluginError",
    "PluginInfo",
    "PluginSummary",
    "PostgresStore",
    "RandomBot",
    "RecordError",
    "ReplayStep",
    "RuleConflict",
    "Rules",
    "ScoreLine",
    "ScoreSheet",
    "Seat",
    "SeatError",
    "SeeCards",
    "SimpleBot",
    "ShownTrick",
    "SpadesError",
    "Suit",
    "SQLiteStore",
    "StoreError",
    "Table",
    "TableStore",
    "TableTalk",
    "UnknownPlugin",
    "View",
    "WrongPhase",
    "acts_in",
    "token_digest",
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
