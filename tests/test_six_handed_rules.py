"""Six-handed Spades, one test per ruling: two decks, three pairs or two threes, and a
deck that holds every card twice (issue 49, item 5)."""

from __future__ import annotations

import json
import random
import types
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spadeskit
from spadeskit import Bid, GameState, Nil, Play
from spadeskit.core.cards import COPY, STANDARD_DECK, card_at, cards_of, iter_mask, parse_card
from spadeskit.testing import check_state, check_views
from spadeskit_plugins.six_handed import DEAL

TWO_DECKS = Counter(2 * [c for c in STANDARD_DECK if c != parse_card("2C")])


def rules(**options: object) -> spadeskit.Rules:
    return spadeskit.load_rules("six-handed", options=options)


def bid_all(game: GameState, bids: list[spadeskit.Action]) -> GameState:
    for bid in bids:
        game = game.apply(bid)
    return game


def play(game: GameState, cards: str) -> GameState:
    for card in cards.split():
        game = game.apply(Play(card))
    return game


def cards_everywhere(game: GameState) -> Counter[spadeskit.Card]:
    """Every card of the hand, copy by copy: in hands, in the trick, in tricks played."""
    found: Counter[spadeskit.Card] = Counter()
    for mask in game.hands:
        found.update(cards_of(mask))
    found.update(card_at(c) for _, c in game.trick)
    for trick in game.tricks:
        found.update(card_at(c) for _, c in trick.plays)
    return found


# -- the deck and the deal ---------------------------------------------------------------


def test_two_decks_without_both_two_of_clubs_make_102_cards_17_to_each_player() -> None:
    table = rules().table
    assert table.players == 6 and len(table.deck) == 102
    assert Counter(table.deck) == TWO_DECKS
    game = rules().new_game(seed=1)
    assert [len(game.cards(s)) for s in range(6)] == [17] * 6
    assert cards_everywhere(game) == TWO_DECKS


def test_a_hand_is_17_tricks() -> None:
    game = rules().new_game(seed=2)
    rng = random.Random(2)
    while not game.hand_results:
        game = game.apply(rng.choice(game.legal_actions()))
    assert sum(game.hand_results[0].books) == 17


def test_a_deal_may_hold_a_card_twice_but_not_three_times() -> None:
    game = rules().new_game(deal=DEAL)
    assert [c.code for c in game.cards(0)].count("AS") == 2
    hands = [h.split() for h in DEAL]
    hands[1][0], hands[2][0] = "AS", "KS"  # a third A♠ (NE's), one K♠ short
    with pytest.raises(
        spadeskit.DealError,
        match=r"AS is dealt three times: to seat 0 \(N\) twice and to seat 1 \(NE\)$",
    ):
        rules().new_game(deal=hands)


def test_a_deck_of_one_copy_still_refuses_a_card_dealt_twice() -> None:
    hands = [
        "AS 2S 3S AH KH AC KC QC AD KD QD JD AS",
        "KS QS JS 10S QH JH 10H JC 10C 9D 8D 7D 6D",
        "9S 8S 7S 9H 8H 7H 6H 9C 8C 7C 6C 5D 4D",
        "6S 5S 4S 5H 4H 3H 2H 5C 4C 3C 2C 3D 2D",
    ]
    with pytest.raises(spadeskit.DealError, match=r"AS is dealt twice: to seat 0 \(N\)$"):
        spadeskit.load_rules("standard").new_game(deal=hands)


def test_a_table_holding_a_card_three_times_is_inconsistent() -> None:
    table = rules().table
    three = spadeskit.plugin.TableSpec(
        6,
        table.seat_names,
        table.sides,
        table.side_names,
        table.deck + (parse_card("AS"),),
        table.deal,
    )
    assert any("holds AS more than twice" in p for p in three.problems())


# -- partnerships and bids -----------------------------------------------------------------


def test_three_pairs_by_default_partners_sit_opposite() -> None:
    table = rules().table
    assert table.sides == ((0, 3), (1, 4), (2, 5))
    assert table.side_names == ("N/S", "NE/SW", "SE/NW")
    assert rules().new_game(seed=0).view(4).partner == 1


def test_two_threes_seats_every_other_player_together() -> None:
    table = rules(teams="two-threes").table
    assert table.sides == ((0, 2, 4), (1, 3, 5))
    assert rules(teams="two-threes").new_game(seed=0).view(2).partner is None


def test_each_player_bids_1_to_17_or_nil() -> None:
    game = rules().new_game(seed=3)
    assert set(game.legal_actions()) == {Nil(), *(Bid(n) for n in range(1, 18))}
    with pytest.raises(spadeskit.IllegalAction):
        game.apply(Bid(18))


def test_a_sides_contract_is_the_sum_of_its_non_nil_bids() -> None:
    pairs = rules().score_hand(bids=[3, 2, "nil", 4, 2, 1], books=[4, 3, 0, 3, 2, 5])
    assert pairs.points == (70, 41, 114)
    threes = rules(teams="two-threes").score_hand(
        bids=[3, 2, "nil", 4, 2, 1], books=[4, 3, 0, 3, 2, 5]
    )
    assert threes.points == (151, 74)  # N/SE/SW bid 5 took 6 (+51), SE's nil +100


def test_a_failed_nil_costs_100_and_its_tricks_are_bags_as_in_standard() -> None:
    scored = rules().score_hand(bids=["nil", 2, 2, 5, 2, 2], books=[1, 3, 2, 5, 3, 3])
    assert scored.points == (-100 + 50 + 1, 42, 41)
    assert scored.bags == (1, 2, 1)


def test_ten_bags_cost_100() -> None:
    scored = rules().score_hand(
        bids=[2, 2, 2, 2, 2, 2], books=[5, 2, 2, 4, 2, 2], scores=(300, 0, 0), bags=(5, 0, 0)
    )
    assert scored.points[0] == 40 + 5 - 100 and scored.bags[0] == 0


# -- play --------------------------------------------------------------------------------


def test_follow_suit_and_spades_are_led_only_once_broken() -> None:
    game = bid_all(rules().new_game(deal=DEAL), [Bid(2)] * 6)
    assert not any(a.card.suit is spadeskit.Suit.SPADES for a in game.legal_actions())
    game = play(game, "AH")
    assert {a.card.code for a in game.legal_actions()} == {"KH", "QH", "JH", "10H"}


def test_both_copies_in_one_trick_the_first_played_wins() -> None:
    game = bid_all(rules().new_game(deal=DEAL), [Bid(2)] * 6)
    game = play(game, "AH 10H AH 5H 6H 2H")
    assert game.tricks[-1].winner == 0  # N's A♥ before SE's


def test_with_identical_second_the_second_copy_played_wins() -> None:
    game = bid_all(rules(identical="second").new_game(deal=DEAL), [Bid(2)] * 6)
    game = play(game, "AH 10H AH 5H 6H 2H")
    assert game.tricks[-1].winner == 2  # SE's A♥ after N's


def test_identical_cards_that_do_not_win_change_nothing() -> None:
    trick = [(1, "10D"), (2, "8D"), (3, "AD"), (4, "2D"), (5, "2D"), (0, "10D")]
    for identical in ("first", "second"):
        assert rules(identical=identical).trick_winner(trick) == 3


def test_the_trick_winner_reads_a_states_copy_indices() -> None:
    second = parse_card("AH").index + COPY
    assert rules().trick_winner([(0, second), (1, "AH")]) == 0
    assert rules(identical="second").trick_winner([(0, second), (1, "AH")]) == 1
    with pytest.raises(spadeskit.SpadesError, match="at most twice"):
        rules().trick_winner([(0, "AH"), (1, "AH"), (2, "AH")])
    with pytest.raises(spadeskit.SpadesError, match="plays twice"):
        spadeskit.load_rules("standard").trick_winner([(0, "AH"), (1, "AH")])


def test_a_player_holding_both_copies_has_one_play_of_the_card() -> None:
    game = bid_all(rules().new_game(deal=DEAL), [Bid(2)] * 6)
    game = play(game, "AH 10H AH 5H 6H")  # NW holds 2♥ 2♥ 3♥ 4♥
    assert [c.code for c in game.view(5).cards].count("2H") == 2
    assert game.legal_actions() == (Play("2H"), Play("3H"), Play("4H"))
    assert [a["card"] for a in game.view(5).to_json()["legal_actions"]] == ["2H", "3H", "4H"]
    game = game.apply(Play("2H"))
    assert [c.code for c in game.cards(5)].count("2H") == 1
    assert game.hand.log[-1] == (5, Play("2H"))


def test_both_copies_are_the_same_card_played_one_after_the_other() -> None:
    game = bid_all(rules(teams="two-threes").new_game(deal=DEAL, dealer=5), [Bid(2)] * 6)
    before = game.hands[0]
    game = game.apply(Play("AH"))
    assert before.bit_count() - game.hands[0].bit_count() == 1
    # N held one A♥ (its own copy); SE holds the second copy, index + COPY.
    assert game.hands[2] >> (parse_card("AH").index + COPY) & 1
    game = play(game, "10H")
    game = game.apply(Play("AH"))
    assert not game.hands[2] >> (parse_card("AH").index + COPY) & 1
    assert game.trick[-1] == (2, parse_card("AH").index + COPY)
    assert game.view(3).trick[-1] == (2, parse_card("AH"))


def test_a_card_the_seat_does_not_hold_is_refused_and_nothing_changes() -> None:
    game = bid_all(rules().new_game(deal=DEAL), [Bid(2)] * 6)
    with pytest.raises(spadeskit.IllegalAction, match="not in their hand") as caught:
        game.apply(Play("2S"))
    assert caught.value.code == "not-in-hand"
    assert game.view(0).refusal(Play("2S")).code == "not-in-hand"  # type: ignore[union-attr]
    with pytest.raises(spadeskit.IllegalAction) as broken:
        game.apply(Play("AS"))
    assert broken.value.code == "break-spades"
    assert [c.code for c, _, _ in game.view(0).refused] == ["KS", "AS"]


# -- the match -------------------------------------------------------------------------------


def test_first_to_500_wins() -> None:
    sheet = rules().score_sheet()
    for _ in range(2):
        sheet = sheet.add_hand([9, 1, 1, 8, 1, 1], [9, 0, 0, 8, 0, 0])
    assert sheet.match.scores == (340, -40, -40) and sheet.match.end is None
    sheet = sheet.add_hand([9, 1, 1, 8, 1, 1], [9, 0, 0, 8, 0, 0])
    assert sheet.match.end is not None and sheet.match.end.winner == 0


def test_a_side_at_minus_200_loses_and_the_best_of_the_rest_wins() -> None:
    sheet = rules().score_sheet()
    for _ in range(2):
        sheet = sheet.add_hand([9, 3, 3, 9, 3, 3], [0, 6, 5, 0, 3, 3])
    assert sheet.match.scores == (-360, 126, 124)
    assert sheet.match.end is not None and sheet.match.end.winner == 1


def test_an_exact_tie_at_the_top_plays_another_hand() -> None:
    sheet = rules(target=60).score_sheet()
    sheet = sheet.add_hand([3, 3, 1, 3, 3, 1], [3, 3, 2, 3, 3, 3])
    assert sheet.match.scores == (60, 60, 23) and sheet.match.end is None
    sheet = sheet.add_hand([3, 3, 1, 3, 3, 1], [4, 3, 2, 3, 2, 3])
    assert sheet.match.end is not None and sheet.match.end.winner == 0


# -- views, records and the table ------------------------------------------------------------


def test_views_list_both_copies_and_never_another_seats_cards() -> None:
    game = rules().new_game(deal=DEAL)
    view = game.view(0).to_json()
    assert view["cards"].count("AS") == 2 and len(view["cards"]) == 17
    assert game.view(4).to_json()["cards"].count("2S") == 2
    text = json.dumps(game.view(0).to_json())
    assert '"2S"' not in text  # SW's pair of 2♠, S's 3♠: none of N's business
    check_views(game)
    rng = random.Random(4)
    for _ in range(40):
        game = game.apply(rng.choice(game.legal_actions()))
        check_views(game)


def test_a_record_replays_to_the_same_state_seeded_dealt_or_secret() -> None:
    rng = random.Random(6)
    for game in (
        rules().new_game(seed=6),
        rules().new_game(deal=DEAL),
        rules().new_game(),  # dealt from a secret: the record lists the deals as text
    ):
        for _ in range(150):
            if game.is_over:
                break
            game = game.apply(rng.choice(game.legal_actions()))
        record = game.to_record(key="a key of sixteen bytes or more")
        assert json.loads(json.dumps(record)) == record
        again = spadeskit.replay(record, key="a key of sixteen bytes or more")
        assert again == game and again.hands == game.hands


def test_records_and_views_with_a_card_twice_keep_to_the_shipped_schemas() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from spadeskit.core.records import record_schema
    from spadeskit.core.views import view_schema

    game = rules().new_game()  # dealt from a secret: the record lists each hand's cards
    rng = random.Random(7)
    for _ in range(40):
        game = game.apply(rng.choice(game.legal_actions()))
    record = game.to_record()
    jsonschema.validate(record, record_schema())
    dealt = [card for hand in record["deals"][0] for card in hand]
    assert sorted(dealt) == sorted(c.code for c in TWO_DECKS.elements())
    for seat in (*range(6), None):
        jsonschema.validate(game.view(seat).to_json(), view_schema())


def test_a_record_written_by_hand_places_the_copies_as_the_shuffle_did() -> None:
    game = rules().new_game()
    deal = [[c.code for c in cards_of(m)] for m in game.hands]
    assert rules().new_game(deal=deal).hands == game.hands


def test_a_table_plays_a_whole_match_of_six_with_bots() -> None:
    bots = {s: "simple" for s in range(1, 6)}
    table = spadeskit.Table(rules(target=100), seed=9, bots=bots)
    rng = random.Random(9)
    while not table.game.is_over:
        if table.bot_due:
            table.play_bots(100)
        else:
            table.act(0, rng.choice(table.game.legal_actions(0)))
    stream, _ = table.events(0)
    assert stream[-1]["type"] == "match-over"
    started = next(e for e in stream if e["type"] == "hand-started")
    assert len(started["cards"]) == 17


def test_the_kit_runs_the_pinned_examples() -> None:
    from spadeskit.testing import run_examples

    def fail(r: spadeskit.Rules, kind: str, what: str) -> AssertionError:
        return AssertionError(what)

    assert run_examples(rules(), fail) == 6


def test_the_kits_trick_reference_reads_the_identical_option() -> None:
    from spadeskit.testing.oracles import reading, reference_winner

    plays = [(0, parse_card("AH").index), (1, parse_card("AH").index + COPY)]
    assert reference_winner(reading(rules()), plays, "spades") == 0
    assert reference_winner(reading(rules(identical="second")), plays, "spades") == 1


def test_the_kit_catches_a_trick_given_to_the_wrong_copy() -> None:
    from spadeskit.testing.oracles import Watcher

    wrong = types.ModuleType("wrong_copy")
    wrong.PLUGIN = spadeskit.PluginInfo(  # type: ignore[attr-defined]
        name="wrong-copy", kind="house-rule", summary="Says the first copy wins; it does not."
    )
    wrong.ORACLES = {"identical": "first"}  # type: ignore[attr-defined]
    six = spadeskit.load_rules("six-handed", [wrong], {"identical": "second"})

    def fail(game: GameState, oracle: str, what: str) -> AssertionError:
        return AssertionError(f"{oracle}: {what}")

    game = play(bid_all(six.new_game(deal=DEAL), [Bid(2)] * 6), "AH 10H AH 5H 6H")
    with pytest.raises(AssertionError, match="tricks: trick winner .* to seat 2 .SE.*seat 0"):
        Watcher(six, fail).after(game, Play("2H"), game.apply(Play("2H")))
    Watcher(rules(identical="second"), fail).after(game, Play("2H"), game.apply(Play("2H")))


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"identical": "second", "teams": "two-threes"}])
def test_the_kit_passes_six_handed(options: dict[str, str]) -> None:
    from spadeskit.testing import check_rules

    check_rules(rules(**options), level="quick")


# -- the rest of the library ---------------------------------------------------------------


def test_rollouts_and_simulations_play_as_the_step_api() -> None:
    game = bid_all(rules().new_game(seed=11), [Bid(2)] * 6)
    rolled = game.rollout(seed=5)
    rng = random.Random(5)
    stepped = game
    while stepped.hand.number == game.hand.number:
        stepped = stepped.apply(rng.choice(stepped.legal_actions()))
    assert rolled == stepped
    hands = list(rules().simulate(2, seed=3))
    assert all(sum(h.books) == 17 for h in hands)


def test_what_keeps_one_bit_a_card_refuses_two_decks_clearly() -> None:
    from spadeskit.analysis.position import AnalysisUnsupported, position_of
    from spadeskit.engine.encoding import encoding_for

    game = bid_all(rules().new_game(seed=1), [Bid(2)] * 6)
    with pytest.raises(AnalysisUnsupported, match="holds a card twice"):
        position_of(game)
    with pytest.raises(spadeskit.SpadesError, match="holds a card twice"):
        encoding_for(rules())  # OpenSpiel, PettingZoo and Gymnasium number cards by it
    pytest.importorskip("numpy")
    from spadeskit.batch import BatchEngine, BatchUnsupported

    with pytest.raises(BatchUnsupported, match="holds a card twice"):
        BatchEngine(rules())


@pytest.mark.parametrize("bot", ["random", "simple", "heuristic", "pimc"])
def test_the_bots_play_a_hand_of_six(bot: str) -> None:
    from spadeskit.arena.matchplay import make_bot, play_match

    spec = "pimc[seconds=0.001]" if bot == "pimc" else bot
    rng = random.Random(2)
    six = rules(target=50, floor=-50)
    game = play_match(six, [make_bot(spec, s, six, rng) for s in range(6)], seed=2)
    assert game.is_over


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved_copy_by_copy_in_random_six_handed_hands(seed: int) -> None:
    game = rules().new_game(seed=seed)
    rng = random.Random(seed)
    while not game.hand_results:
        assert cards_everywhere(game) == TWO_DECKS
        for mask in game.hands:
            # Never one index twice: a hand's copies are distinct bits.
            assert all(i < 2 * COPY for i in iter_mask(mask))
        check_state(game)
        game = game.apply(rng.choice(game.legal_actions()))
