"""Bots: players that see a :class:`~spadeskit.View` and choose an action, never a state.

It owns the simple bots (:mod:`~spadeskit.bots.basic`), :class:`HeuristicBot`
(:mod:`~spadeskit.bots.heuristic`, bidding in :mod:`~spadeskit.bots.bidding`), the
search bots :class:`PIMCBot` and :class:`ISMCTSBot` (:mod:`~spadeskit.bots.search`,
bidding by rollouts in :mod:`~spadeskit.bots.bidsearch`), the sparring partners written
from published strategy, :class:`~spadeskit.bots.pointcount.PointCountBot` and
:class:`~spadeskit.bots.suretricks.SureTricksBot` (on :mod:`~spadeskit.bots.sparring`
and :mod:`~spadeskit.bots.counting`, what a careful player keeps count of), and what
the search bots share: what a
view implies about hidden cards (:mod:`~spadeskit.bots.inference`) and deals drawn from
it (:mod:`~spadeskit.bots.determinize`).  It may import :mod:`spadeskit.core`,
:mod:`spadeskit.engine` and :mod:`spadeskit.batch`.

>>> import random
>>> import spadeskit
>>> from spadeskit.bots import HeuristicBot
>>> rules = spadeskit.load_rules("standard")
>>> game = rules.new_game(seed=1)
>>> bot = HeuristicBot()
>>> bot.reset(game.to_act, rules, random.Random(1))  # before each match: its seat
>>> bot.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from spadeskit.bots.basic import Bot, RandomBot, SimpleBot, greedy_card
from spadeskit.bots.heuristic import HeuristicBot
from spadeskit.bots.search import ISMCTSBot, PIMCBot

__all__ = ["Bot", "HeuristicBot", "ISMCTSBot", "PIMCBot", "RandomBot", "SimpleBot", "greedy_card"]
