"""The ``blind-bids`` house rule, one test per ruling, and the plugin action type it is
built on (``spadeskit_action_types``) through records, replay, views and text."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import Bid, Nil, Pass, SeeCards
from tests.conftest import bid_all, play_out


def rules(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("standard", ["blind-bids"], options=options)


def blind(tricks: int) -> spadeskit.Action:
    """Return the house rule's ``BlindBid(tricks)``, read as a record reads it."""
    return rules().action_from_json({"type": "blind-bid", "tricks": tricks})


def behind_by_100() -> spadeskit.GameState:
    """Return the second hand of a match in which N/S trail E/W by 100 or more
    (N/S bid 14 in the first hand: certainly set) and E/W bid first."""
    game = bid_all(rules().new_game(seed=4), [Bid(13), Bid(1), Bid(1), Bid(1)])
    game = play_out(game)
    assert game.scores[0] <= game.scores[1] - 100 and game.to_act == 1
    return game


def test_blind_bids_offered_only_to_a_side_behind_by_at_least_behind() -> None:
    """A side behind by at least ``behind`` points (default 100) may bid blind."""
    game = rules().new_game(seed=4)
    assert not any(a.kind == "blind-bid" for a in game.legal_actions())  # 0-0: nobody
    game = behind_by_100()
    assert not any(a.kind == "blind-bid" for a in game.legal_actions())  # E/W lead
    game = game.apply(Bid(3))  # E bids; S (of N/S, who trail) speaks next
    assert game.to_act == 2 and game.legal_actions(2) == (blind(6), blind(7), SeeCards())
    assert rules(behind=0).new_game(seed=4).legal_actions()[0] == blind(6)  # 0: not leading


def test_blind_bid_made_before_either_partner_has_seen_a_card() -> None:
    """One partner announces "blind N" before either partner has seen a card."""
    game = rules(behind=0).new_game(seed=1)
    assert game.view(0).cards == () and game.view(2).cards == ()  # both partners blind
    assert game.view(1).cards == () and game.view(3).cards == ()  # 0-0: E/W may too
    looked = game.apply(SeeCards(), 2)  # S looks first: the side gives the chance up
    assert looked.view(0).cards == looked.cards(0) and looked.view(2).cards == looked.cards(2)
    assert not any(a.kind == "blind-bid" for a in looked.legal_actions())
    assert Bid(4) in looked.legal_actions() and Nil() in looked.legal_actions()


def test_blind_bid_names_6_to_max_blind_tricks() -> None:
    """N from 6 to ``max_blind`` (default 7; 8 allowed by the option)."""
    offered = {
        most: [a.tricks for a in rules(behind=0, max_blind=most).new_game(seed=1).legal_actions()
               if a.kind == "blind-bid"]
        for most in (6, 7, 8)
    }  # fmt: skip
    assert offered == {6: [6], 7: [6, 7], 8: [6, 7, 8]}
    with pytest.raises(spadeskit.OptionError, match="max_blind"):
        rules(max_blind=9)


def test_blind_bid_is_the_sides_whole_contract_the_partner_only_passes() -> None:
    """The partner does not bid (nil included), and no nil is scored for that side."""
    game = rules(behind=0).new_game(seed=1).apply(blind(6))
    game = game.apply(SeeCards(), 1).apply(Bid(4))  # E/W bid as usual
    assert game.to_act == 2 and game.legal_actions() == (Pass(),)
    with pytest.raises(spadeskit.IllegalAction):
        game.apply(Nil())
    game = bid_all(game.apply(Pass()), [Bid(3)])
    assert game.phase is spadeskit.Phase.PLAY and game.bids[2] == Pass()


def test_the_other_side_bids_as_usual() -> None:
    """The other side bids as usual."""
    game = behind_by_100()
    assert Bid(3) in game.legal_actions() and Nil() in game.legal_actions()
    game = game.apply(Bid(3)).apply(blind(7))
    assert Nil() in game.legal_actions() and Bid(10) in game.legal_actions()  # W


@pytest.mark.parametrize(
    "bids, books, points",
    [
        (["blind 6", 4, "pass", 3], [4, 3, 3, 3], (121, -70)),  # made, one bag
        (["blind 7", 4, "pass", 3], [4, 3, 3, 3], (140, -70)),  # made exactly
        (["blind 7", 4, "pass", 3], [3, 4, 3, 3], (-140, 70)),  # set: -20 a trick
        (["blind 8", 4, "pass", 3], [5, 2, 5, 1], (162, -70)),  # 8 (max_blind 8), 2 bags
    ],
)
def test_blind_bid_made_scores_20_a_trick_set_loses_20(
    bids: list[object], books: list[int], points: tuple[int, int]
) -> None:
    """Made: +20 x N, books over N are bags as usual; failed: -20 x N."""
    scored = rules(behind=0, max_blind=8).score_hand(bids=bids, books=books)
    assert scored.points == points
    assert [line.kind for line in scored.lines if line.side == 0] == ["contract"]


def test_blind_bid_set_single_loses_10_a_trick() -> None:
    """Option ``set``: ``single`` makes a failed blind bid cost -10 x N."""
    scored = rules(behind=0, set="single").score_hand(
        bids=["blind 7", 4, "pass", 3], books=[3, 4, 3, 3]
    )
    assert scored.points == (-70, 70)
    assert scored.lines[0].text == "N/S blind 7, took 6: -70"


def test_blind_bid_bags_count_toward_the_bag_limit() -> None:
    """Books over N are bags as usual: they fill the bag counter and its penalty."""
    scored = rules(behind=0).score_hand(
        bids=["blind 6", 4, "pass", 2], books=[5, 3, 4, 1], bags=[8, 0]
    )
    assert scored.points[0] == 120 + 3 - 100 and scored.bags[0] == 1


def test_blind_bid_is_public_at_once_even_with_hidden_bids() -> None:
    """With ``hidden-bids``, the blind bid is public at once (announced before the deal)."""
    sealed = spadeskit.load_rules("standard", ["blind-bids", "hidden-bids"], {"behind": 0})
    game = sealed.new_game(seed=1).apply(blind(7))
    game = game.apply(SeeCards(), 1).apply(Bid(4))
    view = game.view(3)  # W sees N's blind bid, not E's sealed one
    assert view.bids[0] == blind(7) and view.bids[1] is None
    assert "N bids blind 7" in [e.text for e in view.events]


def test_blind_bid_is_its_own_action_type_recorded_replayed_and_shown() -> None:
    """The blind bid is its own action type (recorded, replayed, shown in views as
    "blind 6"), not a ``Bid`` with a flag."""
    r = rules(behind=0)
    game = r.new_game(seed=1)
    view = game.view(0)
    assert [a.kind for a in view.legal_actions] == ["blind-bid", "blind-bid", "see-cards"]
    assert view.to_json()["legal_labels"][:2] == ["blind 6", "blind 7"]
    game = game.apply(spadeskit.parse_action("Blind 6", view))
    assert game.bids[0] == blind(6) and game.bids[0] != Bid(6) and str(game.bids[0]) == "blind 6"
    record = json.loads(json.dumps(game.to_record()))
    assert record["actions"] == [[0, {"type": "blind-bid", "tricks": 6}]]
    assert spadeskit.replay(record) == game
    with pytest.raises(spadeskit.RecordError, match="blind-bid"):
        spadeskit.load_rules("standard").action_from_json({"type": "blind-bid", "tricks": 6})
    with pytest.raises(spadeskit.RecordError, match="tricks"):
        r.action_from_json({"type": "blind-bid", "tricks": "6"})


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), behind=st.sampled_from([0, 30]))
def test_blind_bid_hands_score_as_ruled_and_replay(seed: int, behind: int) -> None:
    """Random matches: every hand with a blind bid scores +/-20 x N on its contract
    line, no blind side's seat sees its cards while the side may bid blind, and the
    record replays to the same state."""
    r = rules(behind=behind)
    rng = random.Random(seed)
    game = r.new_game(seed=seed)
    for _ in range(300):
        if game.is_over:
            break
        for seat in range(4):
            offered = [a for a in game.legal_actions(seat) if a.kind == "blind-bid"]
            if game.phase is spadeskit.Phase.AUCTION and any(
                a.kind == "blind-bid" for s in (seat, (seat + 2) % 4) for a in game.legal_actions(s)
            ):
                assert game.view(seat).cards == ()
            assert not offered or game.to_act == seat
        game = game.apply(rng.choice(game.legal_actions()))
    for result in game.match.results:
        for side, seats in enumerate(r.table.sides):
            made = [b for s in seats if (b := result.bids[s]) is not None and b.kind == "blind-bid"]
            if made:
                n, took = made[0].tricks, sum(result.books[s] for s in seats)
                line = next(ln for ln in result.lines if ln.side == side and ln.kind == "contract")
                assert line.points == (20 * n + took - n if took >= n else -20 * n)
    assert spadeskit.replay(json.loads(json.dumps(game.to_record()))) == game
