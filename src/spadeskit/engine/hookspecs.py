"""The rule points of spadeskit, one pluggy hookspec each.

Every variant and house rule is a plugin that implements some of these hooks with
:data:`spadeskit.plugin.hookimpl`.  Hooks fall into two groups:

**Configuration hooks** are called once, when :func:`spadeskit.load_rules` builds a
:class:`~spadeskit.engine.rules.Rules` object; what they return becomes tables and plain
callables.  **Event hooks** are called per bid, trick, hand or claim, each through one
plain call generated with pluggy's semantics (:mod:`spadeskit.engine.compiler`): play
never goes through pluggy, and a hook that no plugin implements costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from spadeskit.core.actions import Action
    from spadeskit.core.cards import Card, Suit
    from spadeskit.core.results import HandResult, HandSummary, MatchEnd, ScoreLine, Trick
    from spadeskit.core.seating import CardRank, Contract, Ranking, Step, TableSpec
    from spadeskit.core.state import GameState, HandState, MatchState
    from spadeskit.core.views import View
    from spadeskit.engine.authoring import PlayFilter

hookspec = pluggy.HookspecMarker("spadeskit")

Options = Mapping[str, Any]

# -- Configuration: table setup and card ranking ---------------------------------------


@hookspec(firstresult=True)
def spadeskit_table(options: Options) -> TableSpec | None:
    """Return the table: seats, sides (partnerships), deck and deal plan.

    :param options: the resolved options of every loaded plugin.
    :returns: a :class:`~spadeskit.core.seating.TableSpec`, or ``None`` to leave it to another
        plugin.
    :kind: first result: the first non-``None`` answer wins; a variant gives one.
    :called: once, when rules are built.

    A house rule that changes the deck (adding jokers, removing a deuce) wraps it
    (``wrapper=True``): ``table = yield``, then return an evolved copy.
    """


@hookspec
def spadeskit_action_types(table: TableSpec, options: Options) -> Sequence[type[Action]] | None:
    """Return the action types a plugin adds to the built-in ones.

    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: frozen attrs subclasses of :class:`~spadeskit.core.actions.Action`, each
        with its own ``kind`` (its ``"type"`` in records: lower-case words joined by
        hyphens) and fields a record writes (``int``, ``bool``, ``str``, ``Card``,
        ``tuple[Card, ...]``); or ``None``.
    :kind: collected: two plugins giving one kind is an error naming both.
    :called: once, when rules are built.

    Records, replays, messages and views read them (``Rules.action_types``); rules
    without the plugin refuse them.  ``str(action)`` is the label people read.
    """


@hookspec(firstresult=True)
def spadeskit_card_rank(card: Card, table: TableSpec, options: Options) -> CardRank | None:
    """Return what ``card`` means: its effective suit and its strength within that suit.

    :param card: a card of the deck.
    :param table: the table (deck, seats, sides).
    :param options: the resolved options of every loaded plugin.
    :returns: a :class:`~spadeskit.core.seating.CardRank`, or ``None`` for another plugin to
        answer.
    :kind: first result: the first non-``None`` answer wins, so a house rule that ranks
        the jokers answers for them (and ``None`` for every other card) before the
        variant is asked.
    :called: once per card of the deck, when rules are built.
    """


@hookspec(firstresult=True)
def spadeskit_card_points(card: Card, table: TableSpec, options: Options) -> int | None:
    """Return what ``card`` counts for when the cards a seat took are scored.

    A variant that scores card points (three-suit-trump: A♠ 40, other aces 20, …)
    declares them here, once; the engine then gives every scoring hook each seat's
    total in :attr:`HandSummary.points <spadeskit.core.results.HandSummary.points>` (the
    cards it won in tricks, and the discards or the blind where the variant gives them
    to it), and the batched engine (:mod:`spadeskit.batch`) counts them on arrays.

    :param card: a card of the deck.
    :param table: the table (deck, seats, sides).
    :param options: the resolved options of every loaded plugin.
    :returns: the card's points (a whole number), or ``None`` for another plugin to
        answer; a card nobody answers for counts 0.  Where no plugin implements the
        hook, ``HandSummary.points`` is ``None``.
    :kind: first result: the first non-``None`` answer wins.
    :called: once per card of the deck, when rules are built (only if implemented).
    """


@hookspec(firstresult=True)
def spadeskit_trick_strength(
    card: Card, rank: CardRank, led: Suit, trump: str, options: Options
) -> int | None:
    """Return how strong ``card`` is in a trick led in suit ``led`` under ``trump``.

    :param card: the card.
    :param rank: its :class:`~spadeskit.core.seating.CardRank` (effective suit and strength).
    :param led: the effective suit the trick was led in.
    :param trump: the hand's trump mode from its :class:`~spadeskit.core.seating.Contract`
        (``"spades"``, ``"ladder"``, ``"none"`` …), so one variant can play hands with
        different trumps.
    :param options: the resolved options of every loaded plugin.
    :returns: an int, 0 or more: the highest in a trick wins it, ``0`` cannot win; or
        ``None`` for another plugin to answer.
    :kind: first result: the first non-``None`` answer wins.
    :called: once per card, led suit and trump mode, the first time that trump mode is
        played; the answers are kept in a table.
    """


@hookspec(firstresult=True)
def spadeskit_trick_winner(
    plays: tuple[tuple[int, Card], ...],
    led: Suit,
    trump: str,
    strongest: int,
    table: TableSpec,
    options: Options,
) -> int | None:
    """Name the seat that wins a finished trick, where who played a card matters (the
    strength table decides by the cards alone; a rule set without this hook pays nothing).

    :param plays: the trick's ``(seat, card)`` plays, in the order they were played.
    :param led: the effective suit of the card led.
    :param trump: the hand's trump mode (``"spades"``, ``"ladder"``, ``"none"`` …).
    :param strongest: the seat the strength table names (the first of two equal cards).
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: the winning seat, one that played to the trick; or ``None`` to leave the
        trick to the strength table.
    :kind: first result: the first non-``None`` answer wins.
    :called: once per finished trick, on every path (step API, playouts, search,
        :meth:`Rules.trick_winner <spadeskit.engine.loaded.LoadedRules.trick_winner>`);
        the batched engine refuses rule sets that implement it.
    """


@hookspec
def spadeskit_play_filters(
    table: TableSpec, ranking: Ranking, options: Options
) -> Sequence[PlayFilter] | None:
    """Return the restrictions on which held cards may be played.

    :param table: the table.
    :param ranking: the compiled :class:`~spadeskit.engine.filters.Ranking` (effective suits,
        strengths, suit masks).
    :param options: the resolved options of every loaded plugin.
    :returns: :class:`~spadeskit.engine.filters.PlayFilter` values, or ``None`` for none.
    :kind: collected: every plugin's filters are applied, sorted by ``(order, name)``,
        each narrowing the set of allowed cards (an int mask).
    :called: once, when rules are built.

    Following suit and breaking spades are filters (the library's building blocks,
    :mod:`spadeskit.engine.filters`); so is "no trump in the first trick".  A house rule that
    lifts a restriction wraps this hook and drops the filter by name: a wrapper's
    ``groups = yield`` is one list per plugin (``None`` for none), and it returns the
    same shape.  A filter with
    ``enforced=False`` does not refuse a card: a play outside it is accepted and
    recorded as a secret :class:`~spadeskit.core.state.Breach` (table enforcement).
    """


@hookspec(firstresult=True)
def spadeskit_misdeal_allowed(table: TableSpec, options: Options) -> bool | None:
    """Return ``True`` if an explicit deal may give a seat the wrong number of cards.

    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: ``True`` to accept such a deal, or ``None``.
    :kind: first result: the first non-``None`` answer wins.
    :called: when a game is started with an explicit deal.

    By default such a deal is refused with a :class:`~spadeskit.core.errors.DealError`; a
    variant in which a player may declare a misdeal accepts it and offers
    ``DeclareMisdeal`` as an out-of-turn action.
    """


# -- Events: auction -------------------------------------------------------------------


@hookspec(firstresult=True)
def spadeskit_auction_next(
    game: GameState, table: TableSpec, options: Options
) -> int | Contract | None:
    """Return the seat that speaks next in the auction, or the :class:`Contract` that ends it.

    :param game: the state, holding every auction action so far (a frozen state that
        never changes afterwards).
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: a seat number, a :class:`~spadeskit.core.seating.Contract`, or ``None`` for
        another plugin to answer.
    :kind: first result: the first non-``None`` answer wins.
    :called: when the auction begins (with an empty ``game.auction``: at the deal, or
        after a kitty's discard) and after every auction action.

    The contract names the trump mode, the first leader, a declarer who takes the
    blind, and any discards or card exchanges owed before play.
    """


@hookspec
def spadeskit_contract_steps(
    game: GameState, contract: Contract, table: TableSpec, options: Options
) -> Sequence[Step] | None:
    """Return discards or card exchanges to owe before play, on top of the contract's.

    :param game: the state, holding the final bids.
    :param contract: the :class:`~spadeskit.core.seating.Contract` that ends the auction.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: :class:`~spadeskit.core.seating.Step` values, or ``None`` for none.
    :kind: collected: the steps are appended to ``contract.steps`` in the order the
        implementations are called (pluggy's: later registrations first).
    :called: once per hand, when :func:`spadeskit_auction_next` returns the contract.

    The blind-nil house rule adds its exchanges here.  Cheaper than wrapping
    :func:`spadeskit_auction_next`, which runs after every bid.  Steps marked
    ``simultaneous`` are chosen blind of each other (:class:`~spadeskit.core.seating.Step`).
    """


@hookspec(firstresult=True)
def spadeskit_auction_actions(
    game: GameState, seat: int, table: TableSpec, options: Options
) -> Sequence[Action] | None:
    """Return the auction actions open to ``seat``, whose turn it is to speak.

    :param game: the state.
    :param seat: the seat to speak.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: the actions (bids, nil, pick up, pass …), or ``None`` for another plugin
        to answer.
    :kind: first result: the first non-``None`` answer wins.
    :called: once per auction turn (the answer is kept on the state).

    The engine refuses any auction action not listed.  A house rule that adds a bid
    answers first for the seats it concerns (blind-nil: ``tryfirst=True``, answering
    ``None`` to defer); one that narrows the variant's bids wraps the hook
    (``wrapper=True``).
    """


@hookspec
def spadeskit_paper_bids(
    game: GameState, seat: int, table: TableSpec, options: Options
) -> Sequence[Action] | None:
    """Return bids ``seat`` could have made with some hand, for a score sheet that never
    sees the cards.

    :param game: the score sheet's auction so far (on a fixed deal: the sheet knows no
        cards).
    :param seat: the seat whose bid is checked.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: the bids possible with some hand, or ``None`` to add nothing.
    :kind: collected: the sheet accepts what :func:`spadeskit_auction_actions` offers
        together with every bid listed here.
    :called: only by the score sheet (:meth:`Rules.score_sheet
        <spadeskit.engine.rules.Rules.score_sheet>`, :meth:`Rules.score_hand
        <spadeskit.engine.rules.Rules.score_hand>`), once per bid written down.

    A rule whose :func:`spadeskit_auction_actions` reads the seat's cards (bid exactly
    your spades) implements this hook too, so the sheet judges a bid by what the rule
    allows for *some* hand, never by that deal's cards.
    """


# -- Events: play ----------------------------------------------------------------------


@hookspec(firstresult=True)
def spadeskit_first_leader(game: GameState, table: TableSpec, options: Options) -> int | None:
    """Return the seat that leads the first trick, or ``None`` to keep the contract's leader.

    :param game: the state as play begins, after the discards and exchanges owed before
        play (a rule like "the holder of the 2♣ leads" sees the 2♣ where an exchange
        put it).
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: a seat, or ``None``.
    :kind: first result: the first non-``None`` answer wins; without one the leader is
        the :class:`~spadeskit.core.seating.Contract`'s ``leader``.
    :called: once per hand when play begins (only if implemented).
    """


@hookspec(firstresult=True)
def spadeskit_after_trick(
    hand: HandState, trick: Trick, table: TableSpec, options: Options
) -> HandState | None:
    """Return the hand after something that happens between tricks, or ``None``.

    :param hand: the state after the trick (books counted, the winner to lead, any
        draw from the pile made), frozen.
    :param trick: the finished :class:`~spadeskit.core.results.Trick`.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: a new state (from :func:`~spadeskit.plugin.evolve_hand`), or ``None`` to
        leave the hand as it is.
    :kind: first result: the first non-``None`` answer wins.
    :called: after every finished trick, on every path (only if implemented: it costs
        nothing otherwise).

    The new state may change the hand's plugin data, its books and who acts, nothing
    else: a state whose cards moved, or of another phase, hand, contract or match, is a
    :class:`~spadeskit.core.errors.PluginError` naming the plugin.
    """


@hookspec(firstresult=True)
def spadeskit_before_scoring(game: GameState, table: TableSpec, options: Options) -> int | None:
    """Return a seat that still has a decision before the hand is scored, or ``None``.

    :param game: the state after the last trick (or after a review action).
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: the seat to ask, or ``None`` to score the hand.
    :kind: first result: the first non-``None`` answer wins.
    :called: after the last trick and after every action of the review that follows.

    A variant with a review step (renege claims) returns the seat to ask; the state is
    then in :attr:`~spadeskit.core.state.Phase.REVIEW` and that seat's actions come from
    :func:`spadeskit_out_of_turn_actions`.
    """


# -- Events: out-of-turn actions (claims, rulings, penalties) --------------------------


@hookspec
def spadeskit_out_of_turn_actions(
    game: GameState, seat: int | None, table: TableSpec, options: Options
) -> Sequence[Action] | None:
    """Return the actions ``seat`` may take outside the normal turn order, now.

    :param game: the state; ``game.to_act`` may be another seat.
    :param seat: the seat asking, or ``None`` for the referee (who acts as
        ``game.apply(action, spadeskit.REFEREE)``).
    :returns: the actions offered (added after the seat's own bids, cards or steps when
        it is also its turn), or ``None`` for none.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :kind: collected from every plugin, in pluggy's call order.
    :called: whenever legal actions are listed, in the phases an implementation
        declares (:func:`spadeskit.plugin.acts_in`).

    These are a renege claim, a misdeal declaration, a table-talk ruling, accepting the
    hand at review, looking at one's cards before a blind bid.  Asked whenever legal
    actions are listed, so declare the phases an implementation acts in, and who asks,
    with :func:`spadeskit.plugin.acts_in`; it is then not called anywhere else.  An
    undeclared implementation is asked in every phase.  A card is played, discarded or
    passed in turn, never offered out of turn (a ``PluginError``).  Formerly
    ``spadeskit_penalty_actions``: that name still works, with a
    ``DeprecationWarning``.
    """


@hookspec(firstresult=True)
def spadeskit_apply_out_of_turn(
    game: GameState, seat: int | None, action: Action, table: TableSpec, options: Options
) -> GameState | None:
    """Return the state after an action listed by :func:`spadeskit_out_of_turn_actions`.

    :param game: the state the action is taken on, the action already in its log.
    :param seat: who took it, or ``None`` for the referee.
    :param action: the action, one this plugin offered.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: the new state, or ``None`` to leave the action to another plugin.
    :kind: first result: the first non-``None`` answer wins (the plugin that offered
        the action applies it).
    :called: when an offered out-of-turn action is taken.

    Formerly ``spadeskit_apply_penalty``: that name still works, with a
    ``DeprecationWarning``.
    """


RENAMED = {
    "spadeskit_penalty_actions": "spadeskit_out_of_turn_actions",
    "spadeskit_apply_penalty": "spadeskit_apply_out_of_turn",
}
"""Old hook names still honoured (with a ``DeprecationWarning``): old name -> new name."""


# -- Events: scoring and the end of the match ------------------------------------------


@hookspec
def spadeskit_score_hand(
    summary: HandSummary, match: MatchState, table: TableSpec, options: Options
) -> Sequence[ScoreLine] | None:
    """Return score lines for a finished hand.

    :param summary: the :class:`~spadeskit.core.results.HandSummary`: bids, books, book
        transfers, cards won where a variant counts them, the tricks in order and the
        hand's plugin data (a score sheet's has no tricks: reading them raises).
    :param match: the match before this hand (scores and bag counters), for bag
        penalties.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: :class:`~spadeskit.core.results.ScoreLine` values, or ``None`` for none.
    :kind: collected: every plugin's lines are concatenated in registration order (the
        variant's first, then each house rule's); a side's points for the hand are the
        sum of its lines.
    :called: once per hand, and by :meth:`Rules.score_hand
        <spadeskit.engine.rules.Rules.score_hand>` and the score sheet.

    A house rule that adds a line (a Boston bonus, a partnership-nil bonus)
    implements the hook plainly; one that changes the variant's own lines (no bags)
    wraps it (``wrapper=True``): as for every collected hook, ``groups = yield`` is one
    list per plugin (``None`` for none), and it returns the same shape.  It
    changes a line's fields (``points``, ``bags``, ``bag_points``, ``bag_text``) with
    ``attrs.evolve``, never its ``text``: another rule's words are that rule's.
    """


@hookspec(firstresult=True)
def spadeskit_match_end(
    match: MatchState, result: HandResult, table: TableSpec, options: Options
) -> MatchEnd | None:
    """Return how the match ended after this hand, or ``None`` to play on.

    :param match: the match, already including ``result``.
    :param result: the finished :class:`~spadeskit.core.results.HandResult`.
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: a :class:`~spadeskit.core.results.MatchEnd`, or ``None``.
    :kind: first result: the first non-``None`` answer wins, so an instant win (a
        Boston, taking all tricks) implemented with ``tryfirst=True`` is seen before the
        target score.
    :called: after every scored hand.
    """


@hookspec(firstresult=True)
def spadeskit_next_dealer(
    dealer: int, result: HandResult, table: TableSpec, options: Options
) -> int | None:
    """Return the next hand's dealer (clockwise rotation, or passing after a misdeal).

    :param dealer: the finished hand's dealer.
    :param result: the finished :class:`~spadeskit.core.results.HandResult`
        (``result.void`` is true after a misdeal).
    :param table: the table.
    :param options: the resolved options of every loaded plugin.
    :returns: a seat, or ``None`` for another plugin to answer.
    :kind: first result: the first non-``None`` answer wins; every shipped variant
        passes the deal clockwise.
    :called: after every hand that does not end the match.
    """


# -- Events: what a seat may see -------------------------------------------------------


@hookspec(firstresult=True)
def spadeskit_view(view: View, game: GameState, seat: int | None, options: Options) -> View | None:
    """Return ``view`` with more hidden, or ``None`` to leave it as it is.

    :param view: the :class:`~spadeskit.core.views.View` the core built from public facts and
        the seat's own cards.
    :param game: the state.
    :param seat: the viewing seat, or ``None`` for a spectator.
    :param options: the resolved options of every loaded plugin.
    :returns: a redacted copy of the view, or ``None``.
    :kind: first result: the first non-``None`` answer wins; use ``wrapper=True`` to
        compose with others: ``redacted = yield``, then work on ``redacted or view``.
    :called: for every view.

    A house rule that hides more (sealed bids, cards not yet looked at) returns a
    redacted copy; the kit checks that nothing it shows depends on what the seat may not
    know.  A hook only hides: a view of another seat, or one showing a card or offering
    an action the given view did not, is a :class:`~spadeskit.core.errors.PluginError`.
    """
