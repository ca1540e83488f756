"""The compiled event hooks of one rule set (:class:`HookCalls`): each hook the
engine calls during play, compiled once when the rules load, and the out-of-turn
offerers chosen for each phase.  :mod:`spadeskit.engine.rules` re-exports the class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pluggy

from spadeskit.core import codegen
from spadeskit.core.errors import PluginError
from spadeskit.core.seating import FrozenMap, TableSpec
from spadeskit.core.state import Phase
from spadeskit.engine.authoring import ActsIn
from spadeskit.engine.compiler import ACTS_IN, Compiled, compile_hook

if TYPE_CHECKING:
    pass


OFFER_PHASES = (Phase.AUCTION, Phase.EXCHANGE, Phase.PLAY, Phase.REVIEW)


REQUIRED = (
    "spadeskit_auction_next",
    "spadeskit_auction_actions",
    "spadeskit_score_hand",
    "spadeskit_match_end",
    "spadeskit_next_dealer",
)
"""Event hooks every rule set must implement."""


class HookCalls:
    """Every event hook of a rules object, compiled into a plain call (or ``None``).

    Each call takes the hook's arguments other than ``table`` and ``options``,
    positionally in the hookspec's order.  ``offers[(phase, referee)]`` is the
    ``spadeskit_out_of_turn_actions`` call for that phase and asker, or ``None`` when no
    implementation acts there.
    """

    __slots__ = (
        "after_trick",
        "apply_out_of_turn",
        "auction_actions",
        "auction_next",
        "before_scoring",
        "contract_steps",
        "first_leader",
        "match_end",
        "misdeal_allowed",
        "next_dealer",
        "offers",
        "paper_bids",
        "score_hand",
        "view",
    )

    def __init__(
        self,
        pm: pluggy.PluginManager,
        table: TableSpec,
        options: FrozenMap,
        name: str,
        sources: codegen.Sources | None = None,
    ) -> None:
        bound = {"table": table, "options": options}

        def hook(hook_name: str) -> Any:
            return compile_hook(pm, hook_name, bound, name, sources=sources)

        missing = [h for h in REQUIRED if not getattr(pm.hook, h).get_hookimpls()]
        if missing:
            raise PluginError(f"no plugin of {name!r} implements {', '.join(missing)}")
        self.auction_next: Compiled = hook("spadeskit_auction_next")
        self.auction_actions: Compiled = hook("spadeskit_auction_actions")
        self.score_hand: Compiled = hook("spadeskit_score_hand")
        self.match_end: Compiled = hook("spadeskit_match_end")
        self.next_dealer: Compiled = hook("spadeskit_next_dealer")
        self.after_trick: Compiled | None = hook("spadeskit_after_trick")
        self.first_leader: Compiled | None = hook("spadeskit_first_leader")
        self.contract_steps: Compiled | None = hook("spadeskit_contract_steps")
        self.before_scoring: Compiled | None = hook("spadeskit_before_scoring")
        self.apply_out_of_turn: Compiled | None = hook("spadeskit_apply_out_of_turn")
        self.misdeal_allowed: Compiled | None = hook("spadeskit_misdeal_allowed")
        self.view: Compiled | None = hook("spadeskit_view")
        self.paper_bids: Compiled | None = hook("spadeskit_paper_bids")
        self.offers: dict[tuple[Phase, bool], Compiled | None] = {}
        shared: dict[tuple[int, ...], Compiled | None] = {}
        impls = getattr(pm.hook, "spadeskit_out_of_turn_actions").get_hookimpls()
        for phase in OFFER_PHASES:
            for referee in (False, True):
                chosen = tuple(id(i) for i in impls if _acts(i, phase, referee, options))
                if chosen not in shared:
                    shared[chosen] = compile_hook(
                        pm,
                        "spadeskit_out_of_turn_actions",
                        bound,
                        name,
                        sources=sources,
                        keep=lambda i, ids=frozenset(chosen): id(i) in ids,  # type: ignore[misc]
                    )
                self.offers[(phase, referee)] = shared[chosen]


def _acts(impl: pluggy.HookImpl, phase: Phase, referee: bool, options: Mapping[str, Any]) -> bool:
    declared = getattr(impl.function, ACTS_IN, None)
    if impl.wrapper or impl.hookwrapper or not isinstance(declared, ActsIn):
        return True
    return declared.active(phase, referee, options)
