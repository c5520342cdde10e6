"""Rule variants in the rules core: ``Rules`` itself, the State API under each switch, and the
compiled kernels against the State API under random rule sets (every state compared)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import leaves
from leaves import kernels as K
from leaves.actions import Action, IllegalActionError
from leaves.board import M_FIRST, META, board_from_state, state_from_board
from leaves.rules import DECK, EXPERT_TARGET, HAND_SIZES, N_ACTION_IDS, TURN_LIMIT
from leaves.ruleset import DEFAULT_RULES, KEYS, Rules
from leaves.testing import rule_sets, variant_games

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_default_rules_are_todays():
    r = Rules()
    assert r == DEFAULT_RULES and r.is_default and str(r) == "default" and r.flags == 0
    assert r.deck == DECK and dict(r.hand_size) == HAND_SIZES and r.players == (3, 4, 5, 6)
    assert r.expert_target == EXPERT_TARGET and r.turn_limit == TURN_LIMIT
    assert r.min_count and r.take == "any" and r.changes() == {}
    assert [k.name for k in KEYS] == list(r.to_dict())


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        ("hand_size=9", {"hand_size": 9}),
        ("take=ends,min_count=off", {"take": "ends", "min_count": False}),
        ("deck=2/3/4/5/6/7/6/7/6/5/4/3/2", {"deck": [2, 3, 4, 5, 6, 7, 6, 7, 6, 5, 4, 3, 2]}),
        ("players=2-6,hand_size=2:14/3:12/4:11/5:10/6:9", None),
        ("expert_target=30, turn_limit=500", {"expert_target": 30, "turn_limit": 500}),
        ("default", {}),
    ],
)
def test_rules_read_from_text_and_back(text, changes):
    r = Rules.parse(text)
    if changes is not None:
        assert r.changes() == changes
    assert Rules.parse(str(r)) == r
    assert Rules.from_dict(r.to_dict()) == r
    assert hash(Rules.parse(str(r))) == hash(r)


def test_hand_size_lets_the_player_counts_follow():
    assert Rules(hand_size=14).players == (3, 4)  # 5 x 14 = 70 > 62 cards
    assert str(Rules(hand_size=14)) == "hand_size=14"
    assert Rules(hand_size=14).hand_size_for(4) == 14
    with pytest.raises(ValueError, match="played by 3 or 4 players, got 5"):
        Rules(hand_size=14).hand_size_for(5)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("hand_size=14,players=5", "cannot deal 5 hands of 14 cards: 70 cards, the deck holds 62"),
        ("players=2", "no hand for 2 players"),
        ("take=some", "take must be one of any, ends, nothing"),
        ("deck=1/2", "13 counts"),
        ("deck=9/3/4/5/6/7/8/7/6/5/4/3/2", "deck: copies of one value must be 0..8, got 9"),
        ("foo=1", "unknown rule 'foo'"),
        ("hand_size", "write key=value"),
        ("min_count=maybe", "on or off"),
        ("turn_limit=0", "turn_limit must be"),
        ("hand_size=30", "no player count 3..6 can be dealt"),
        ("players=1-4", "players must be 2..6"),
    ],
)
def test_impossible_rules_are_refused_in_one_line(text, match):
    with pytest.raises(ValueError, match=match) as err:
        Rules.parse(text)
    assert "\n" not in str(err.value)


@SETTINGS
@given(rule_sets())
def test_any_rule_set_reads_back_from_its_words(rules):
    assert Rules.parse(str(rules)) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


@SETTINGS
@given(variant_games())
def test_a_variant_deal_conserves_its_deck(state):
    rules = state.rules
    hands = np.array(state.hands)
    assert (hands.sum(axis=1) == rules.hand_size_for(state.n_players)).all()
    assert tuple(hands.sum(axis=0) + np.array(state.undealt)) == rules.deck
    assert leaves.State.from_dict(state.to_dict()) == state
    view = state.view(0)
    assert view.rules == rules
    assert sum(view.unseen()) == rules.deck_size - sum(view.hand)


def _table(stacks: dict[int, int], rules: Rules, hand: dict[int, int]) -> leaves.State:
    """A 3-player position with ``stacks`` on the table (value: size) and seat 0's ``hand``,
    the rest of the deck spread over the other hands and the undealt pile."""
    table = [stacks.get(v + 1, 0) for v in range(13)]
    h0 = [hand.get(v + 1, 0) for v in range(13)]
    rest = [d - t - h for d, t, h in zip(rules.deck, table, h0, strict=True)]
    h1 = [min(r, 1) for r in rest]
    h2 = [min(r - a, 1) for r, a in zip(rest, h1, strict=True)]
    return leaves.State.from_dict(
        {"hands": [h0, h1, h2], "table": table, "current_player": 0, "rules": rules.changes()}
    )


def test_min_count_off_lets_one_card_answer_any_end():
    stacks, hand = {6: 3, 12: 2}, {2: 1, 13: 1, 9: 1}
    today = _table(stacks, DEFAULT_RULES, hand)
    assert Action.play(2, 1) not in today.legal_actions()
    with pytest.raises(IllegalActionError, match="at least 3 cards"):
        today.apply(Action.play(2, 1))
    free = _table(stacks, Rules(min_count=False), hand)
    assert {Action.play(2, 1), Action.play(13, 1)} <= set(free.legal_actions())
    assert Action.play(9, 1) not in free.legal_actions()  # between the ends: never
    assert free.apply(Action.play(2, 1)).ends == ((2, 1), (12, 2))


def test_take_ends_takes_from_an_end_stack_only():
    rules = Rules(take="ends")
    s = _table({3: 1, 6: 2, 12: 2}, rules, {1: 1})
    takes = [a for a in s.legal_actions() if a.is_pass]
    assert takes == [Action.take(3), Action.take(12)]
    with pytest.raises(IllegalActionError, match="only an end stack"):
        s.apply(Action.take(6))


def test_take_nothing_passes_without_a_card():
    rules = Rules(take="nothing")
    s = _table({6: 2}, rules, {1: 1})
    assert [a for a in s.legal_actions() if a.is_pass] == [Action.pass_()]
    with pytest.raises(IllegalActionError, match="takes nothing"):
        s.apply(Action.take(6))
    after = s.apply(Action.pass_())
    assert after.table == s.table and after.hand(0) == s.hand(0) and after.passed[0]
    with pytest.raises(IllegalActionError, match="takes a card"):
        _table({6: 2}, DEFAULT_RULES, {1: 1}).apply(Action.pass_())
    lead = leaves.new_game(3, seed=1, rules=rules)  # P1: the leader must play
    assert not any(a.is_pass for a in lead.legal_actions())


def _compare(state: leaves.State, board: np.ndarray) -> None:
    out = np.empty(N_ACTION_IDS + 8, np.int64)
    m = K.legal_actions(board, out)
    ids = [a.id for a in state.legal_actions()]
    assert out[:m].tolist() == ids
    assert [a for a in range(118) if K.is_legal(board, a)] == ids
    assert state_from_board(board, state.rules) == state
    again = board_from_state(state)
    again[META, M_FIRST] = board[META, M_FIRST]
    assert np.array_equal(again, board)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_sets(), st.integers(0, 2**63 - 1), st.data())
def test_kernels_play_every_rule_set_as_the_state_api(rules, seed, data):
    n = data.draw(st.sampled_from(rules.players))
    board = K.deal_board(n, seed, rules=rules)
    state = state_from_board(board, rules)
    rng = K.rng_new(np.uint64(seed))
    while not state.is_terminal:
        _compare(state, board)
        if data.draw(st.booleans()):  # the kernels' own uniform draw, or hypothesis' choice
            aid = int(K.random_action(board, rng))
            assert aid in state.legal_action_ids()
        else:
            legal = state.legal_action_ids()
            aid = legal[data.draw(st.integers(0, len(legal) - 1))]
        state = state.apply(aid)
        K.apply(board, aid)
    assert state_from_board(board, rules) == state


# ---------------------------------------------------------------------- strategies
VARIANT_SAMPLE = [
    Rules(min_count=False),
    Rules(take="ends"),
    Rules(take="nothing"),
    Rules(hand_size=7, deck=(1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1), players=(2, 3, 4, 5, 6)),
    Rules(hand_size=14, min_count=False, take="ends"),
]


@pytest.mark.parametrize("rules", VARIANT_SAMPLE, ids=str)
def test_every_builtin_plays_legally_and_alike_on_both_paths_under_variants(rules):
    """The compiled loop's games of every built-in replay legally under the rules, and a
    deterministic built-in plays the very same games on the Python path."""
    import strategies
    from leaves.players.batch import _play_python

    names = [n for n in strategies.names() if strategies.get(n).compiled() is not None]
    n = rules.players[-1]
    deal = np.arange(1, 13, dtype=np.uint64)
    play = deal + np.uint64(100)
    for k, name in enumerate(names):
        table = [names[(k + i) % len(names)] for i in range(n)]
        fast = strategies.play_batch(table, deal, play, record=True, rules=rules)
        for rec in fast.records:
            assert leaves.replay(rec, rules)[-1].rules == rules
            assert leaves.GameRecord.from_json(rec.to_json()).game_rules() == rules
        if all(not strategies.get(t).classifier["stochastic"] for t in table):
            slow = _play_python([strategies.get(t) for t in table], deal, play, rules, False)
            assert np.array_equal(fast.winner_seat, slow.winner_seat), name
            assert np.array_equal(fast.turns, slow.turns), name
            assert np.array_equal(fast.cards_left, slow.cards_left), name


def test_a_record_carries_its_rules_and_a_replay_checks_them():
    import strategies

    rules = Rules(take="nothing", hand_size=9)
    res = strategies.play_game(["weighted", "taker", "counter"], seed=5, rules=rules)
    rec = res.record
    assert rec.rules == rules.changes() and "rules" in rec.to_dict()
    assert leaves.replay(rec)[-1] == res.final_state
    with pytest.raises(ValueError, match="played under the rules hand_size=9, take=nothing"):
        leaves.replay(rec, DEFAULT_RULES)
    today = strategies.play_game(["weighted", "taker", "counter"], seed=5).record
    assert "rules" not in today.to_dict()  # today's records read as before
    bad = leaves.GameRecord.from_dict({**rec.to_dict(), "rules": {"hand_size": 8}})
    with pytest.raises(ValueError, match="not 8 cards each"):
        leaves.replay(bad)


def test_ismcts_and_matches_follow_the_rules():
    import strategies

    rules = Rules(take="ends", min_count=False, expert_target=8)
    res = strategies.play_game(["ismcts:iterations=30", "weighted", "low"], seed=2, rules=rules)
    assert res.forfeit_seat is None and leaves.replay(res.record)[-1].rules == rules
    seeds = np.arange(6, dtype=np.uint64)
    table = ["weighted", "taker", "low"]
    short = strategies.play_match_batch(table, seeds, seeds, rules=rules)
    long = strategies.play_match_batch(table, seeds, seeds, rules=rules.replace(expert_target=30))
    assert (short.totals.max(axis=1) >= 8).all() and (long.totals.max(axis=1) >= 30).all()
    assert short.games.sum() < long.games.sum()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_sets("turn_limit=400"), st.integers(0, 2**32), st.data())
def test_every_builtin_stays_legal_under_any_rule_set(rules, seed, data):
    """Random rule sets: every compiled built-in, seated with the others, plays games whose
    every action the State API accepts (``replay`` checks each) and whose results it confirms."""
    import strategies

    names = [n for n in strategies.names() if strategies.get(n).compiled() is not None]
    n = data.draw(st.sampled_from(rules.players))
    start = data.draw(st.integers(0, len(names) - 1))
    table = [names[(start + i) % len(names)] for i in range(n)]
    deal = np.arange(seed, seed + 3, dtype=np.uint64)
    res = strategies.play_batch(table, deal, deal + np.uint64(7), record=True, rules=rules)
    for rec in res.records:
        final = leaves.replay(rec, rules)[-1]
        assert final.rules == rules and final.turn == rec.turns


def test_rules_of_reads_every_form_the_project_takes():
    r = Rules(hand_size=9, take="ends")
    assert Rules.of(None) is DEFAULT_RULES and Rules.of(r) is r
    assert Rules.of("hand_size=9,take=ends") == Rules.of(["hand_size=8", "hand_size=9,take=ends"])
    assert Rules.of({"hand_size": 9, "take": "ends"}) == r == Rules.of(r.to_dict())
    with pytest.raises(ValueError, match="rules must be a leaves.Rules"):
        Rules.of(3)
    assert r.under() == " under hand_size=9, take=ends" and DEFAULT_RULES.under() == ""
