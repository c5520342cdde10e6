"""The edges of ``leaves.ruleset``: every key at the ends of its range and one step beyond, the
kernels' flags of each combination, the player counts a deck and hand size allow, and the words
rules are written in. Ranges and words are those docs/rules.md ("Rule variants") states."""

from __future__ import annotations

import pytest

from leaves import DEFAULT_RULES, Rules
from leaves.ruleset import counts_text, value_text
from leaves_cli.flags import message

TODAY = (2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2)


@pytest.mark.parametrize("key, low, high", [("expert_target", 1, 1000),
                                            ("turn_limit", 1, 1_000_000)])  # fmt: skip
def test_whole_number_keys_at_their_ends(key, low, high):
    assert getattr(Rules(**{key: low}), key) == low
    assert getattr(Rules(**{key: high}), key) == high
    assert getattr(Rules(**{key: str(high)}), key) == high
    for bad in (low - 1, high + 1):
        with pytest.raises(ValueError, match=f"^{key} must be {low}..{high}, got {bad}$"):
            Rules(**{key: bad})
    for bad in (True, "x", 2.5, None):
        with pytest.raises(ValueError, match=f"^{key} must be a whole number {low}..{high}, got"):
            Rules(**{key: bad})
    assert getattr(Rules(**{key: 3.0}), key) == 3  # a float that is a whole number


def test_hand_size_at_its_ends():
    assert Rules(hand_size=1, players=2).hand_size == ((0, 1),)
    assert Rules(hand_size="31", players=2).hand_size_for(2) == 31
    for bad in (0, 53):
        with pytest.raises(ValueError, match=f"hand_size must be 1..52, got {bad}"):
            Rules(hand_size=bad)
    assert Rules(hand_size="2:14/3:12", players="2-3").hand_size == ((2, 14), (3, 12))
    with pytest.raises(ValueError, match="hand_size's player count must be 2..6, got 1"):
        Rules(hand_size={1: 5})
    with pytest.raises(ValueError, match="hand_size's player count must be 2..6, got 7"):
        Rules(hand_size={7: 5})
    assert Rules(hand_size={6: 9, 2: 10}).hand_size == ((2, 10), (6, 9))
    assert Rules(hand_size=((0, 9),)).hand_size == ((0, 9),)
    with pytest.raises(ValueError, match="hand_size must name at least one player count"):
        Rules(hand_size={})
    with pytest.raises(ValueError, match="hand_size must be a number or players:cards"):
        Rules(hand_size=[(3,)])


def test_the_deck_at_its_ends():
    assert Rules(deck=(8,) * 6 + (0,) * 7, players=3).deck_size == 48
    with pytest.raises(ValueError, match=r"^deck: copies of one value must be 0..8, got 9$"):
        Rules(deck=(9,) + TODAY[1:])
    with pytest.raises(ValueError, match="deck must list 13 counts"):
        Rules(deck=TODAY[:12])
    with pytest.raises(ValueError, match="deck must list 13 counts"):
        Rules(deck=5)
    with pytest.raises(ValueError, match="the deck must hold at least 2 cards"):
        Rules(deck=(1,) + (0,) * 12, hand_size=1, players=2)
    two = Rules(deck=(1, 1) + (0,) * 11, hand_size=1, players=2)
    assert two.deck_size == 2 and two.players == (2,)
    assert Rules(deck="/".join(map(str, TODAY))) == DEFAULT_RULES


def test_players_at_their_ends():
    assert Rules(players=2, hand_size=20).players == (2,)
    assert Rules(players="2-6", hand_size=10).players == (2, 3, 4, 5, 6)
    assert Rules(players="3/5").players == (3, 5)
    for bad, said in (("1-4", "1"), ("3-7", "7"), (1, "1"), (7, "7")):
        with pytest.raises(ValueError, match=f"players must be 2..6, got {said}"):
            Rules(players=bad)
    with pytest.raises(ValueError, match="players must allow at least one player count"):
        Rules(players=[])
    with pytest.raises(ValueError, match="players allows 2 but hand_size gives no hand for 2"):
        Rules(players=2)
    # 6 x 10 = 60 cards fit the 62; 6 x 11 = 66 do not
    assert Rules(players=6, hand_size=10).players == (6,)
    with pytest.raises(
        ValueError, match="cannot deal 6 hands of 11 cards: 66 cards, the deck holds 62"
    ):
        Rules(players=6, hand_size=11)


def test_the_counts_a_deck_and_hand_size_allow():
    assert DEFAULT_RULES.players == (3, 4, 5, 6)
    # 62 cards: 3 x 20 = 60 fit, 4 x 20 = 80 do not
    assert Rules(hand_size=20).players == (3,)
    assert Rules(hand_size=15).players == (3, 4)  # 60 fit, 75 do not
    assert Rules(hand_size=10).players == (3, 4, 5, 6)  # 60 fit
    assert Rules(hand_size="4:11").players == (4,)
    with pytest.raises(
        ValueError,
        match=r"^no player count 3\.\.6 can be dealt: 3 hands of 21 need 63 cards, the deck holds "
        r"62 \(players=2 deals 2 hands of 21: a count below 3 is dealt only when named\)$",
    ):
        Rules(hand_size=21)
    with pytest.raises(ValueError, match=r"no player count 3\.\.6 can be dealt: hand_size gives "
                                         r"hands for 2 players only \(players=2 deals 2 hands of 30: "
                                         r"a count below 3 is dealt only when named\)$"):  # fmt: skip
        Rules(hand_size="2:30")  # was: "3 hands of 30 need 90 cards", of a count it gives none
    with pytest.raises(ValueError, match="5 hands of 13 need 65 cards, the deck holds 62$"):
        Rules(hand_size="5:13")  # was: "3 hands of 13 need 39 cards", which the deck holds
    with pytest.raises(ValueError, match="4 hands of 16 need 64 cards, the deck holds 62$"):
        Rules(hand_size="4:16/5:13")  # the count that needs the fewest cards


def test_hand_size_for():
    r = Rules(hand_size="3:12/5:10")
    assert r.hand_size_for(3) == 12 and r.hand_size_for(5) == 10
    with pytest.raises(ValueError, match=r"is played by 3 or 5 players, got 4"):
        r.hand_size_for(4)
    assert Rules(hand_size=9).hand_size_for(6) == 9
    with pytest.raises(ValueError, match=r"^13 Leaves is played by 3 to 6 players, got 2$"):
        DEFAULT_RULES.hand_size_for(2)


@pytest.mark.parametrize("min_count, take, flags", [
    (True, "any", 0), (False, "any", 1), (True, "ends", 2), (False, "ends", 3),
    (True, "nothing", 4), (False, "nothing", 5)])  # fmt: skip
def test_the_kernels_flags(min_count, take, flags):
    assert Rules(min_count=min_count, take=take).flags == flags


def test_switches_and_choices():
    """A switch is on or off (or a bool, numpy's too), a choice one of its words, as
    ``leaves rules`` lists them; the spaces around are dropped."""
    import numpy as np

    assert Rules(min_count=" on ").min_count is True and Rules(min_count="off").min_count is False
    assert Rules(min_count=np.bool_(False)).min_count is False
    for bad in ("maybe", "yes", "ON", "1"):
        with pytest.raises(ValueError, match=f"min_count must be on or off, got '{bad}'"):
            Rules(min_count=bad)
    assert Rules(take=" ends ").take == "ends"
    for bad in ("all", "ENDS"):
        with pytest.raises(
            ValueError, match=f"take must be one of any, ends, nothing, got '{bad}'"
        ):
            Rules(take=bad)


def test_equality_hash_and_words():
    a, b = Rules(hand_size=9), Rules.parse("hand_size=9")
    assert a == b and hash(a) == hash(b) and a != DEFAULT_RULES
    assert not a.is_default and DEFAULT_RULES.is_default
    assert str(DEFAULT_RULES) == "default" and DEFAULT_RULES.under() == ""
    assert str(a) == "hand_size=9" and a.under() == " under hand_size=9"
    r = Rules(take="ends", min_count=False, expert_target=30)
    assert str(r) == "min_count=off, take=ends, expert_target=30"
    assert Rules.parse(str(r)) == r


def test_the_plain_data_forms():
    assert DEFAULT_RULES.to_dict() == {
        "hand_size": {"3": 12, "4": 11, "5": 10, "6": 9}, "deck": list(TODAY),
        "players": [3, 4, 5, 6], "min_count": True, "take": "any", "expert_target": 20,
        "turn_limit": 1000}  # fmt: skip
    assert Rules(hand_size=9).to_dict()["hand_size"] == 9
    assert DEFAULT_RULES.changes() == {}
    assert Rules(players="3/4").changes() == {"players": [3, 4]}
    assert Rules(hand_size=15).changes() == {"hand_size": 15}  # the counts follow


def test_replace_lets_derived_counts_follow():
    r = DEFAULT_RULES.replace(hand_size=15)
    assert r.players == (3, 4)
    fixed = Rules(players="3/4").replace(hand_size=10)
    assert fixed.players == (3, 4)  # chosen counts stay
    # 52 cards: 5 x 10 = 50 fit, 6 x 9 = 54 do not
    assert DEFAULT_RULES.replace(deck=(4,) * 13).players == (3, 4, 5)
    assert DEFAULT_RULES.replace(turn_limit=5).players == (3, 4, 5, 6)


def test_reading_rules_from_data_and_text():
    assert Rules.from_dict(None) is DEFAULT_RULES and Rules.from_dict({}) is DEFAULT_RULES
    with pytest.raises(ValueError, match="unknown rule 'colour'; the rules are hand_size, deck"):
        Rules.from_dict({"colour": "red", "take": "ends"})
    with pytest.raises(ValueError, match="rules must be a table of key = value, got"):
        Rules.from_dict([("take", "ends")])
    assert Rules.of(None) is DEFAULT_RULES and Rules.of(DEFAULT_RULES) is DEFAULT_RULES
    assert Rules.of({"take": "ends"}) == Rules(take="ends")
    assert Rules.of(["take=ends", "take=nothing"]) == Rules(take="nothing")
    assert Rules.of(("hand_size=9",)) == Rules(hand_size=9)
    with pytest.raises(
        ValueError, match="rules must be a leaves.Rules, its key=value text or a dict"
    ):
        Rules.of(["take=ends", 5])
    with pytest.raises(ValueError, match="rules must be a leaves.Rules"):
        Rules.of(5)
    assert Rules.parse(" , default, take=ends ,") == Rules(take="ends")
    assert Rules.parse(None) is DEFAULT_RULES
    assert Rules.parse("min_count=off", base=Rules(take="ends")) == Rules(
        take="ends", min_count=False
    )
    for bad in ("take", "=ends", "take=", " = "):
        with pytest.raises(ValueError, match="write key=value"):
            Rules.parse(bad)


def test_counts_and_values_in_words():
    assert counts_text((3, 4, 5, 6)) == "3 to 6"
    assert counts_text((3, 4, 5)) == "3 to 5"
    assert counts_text((3, 4)) == "3 or 4"
    assert counts_text((4,)) == "4"
    assert counts_text((2, 3, 5)) == "2, 3 or 5"
    assert counts_text((2, 4, 5, 6)) == "2, 4, 5 or 6"
    assert value_text("players", [3, 4, 5, 6]) == "3-6"
    assert value_text("players", [3, 4]) == "3-4"
    assert value_text("players", [4]) == "4"
    assert value_text("players", [3, 5]) == "3/5"
    assert value_text("hand_size", {"3": 12, "4": 11}) == "3:12/4:11"
    assert value_text("hand_size", 9) == "9"
    assert value_text("deck", [1, 2]) == "1/2"
    assert value_text("min_count", True) == "on" and value_text("min_count", False) == "off"
    assert value_text("take", "ends") == "ends"


FULL = (8,) * 13  # the largest deck, 104 cards: two hands of 52


@pytest.mark.parametrize("form", [str, lambda h: ((0, h),), lambda h: {2: h}])
def test_hand_size_bounds_in_every_form(form):
    assert Rules(deck=FULL, hand_size=form(52), players=2).hand_size_for(2) == 52
    assert Rules(deck=FULL, hand_size=form(1), players=2).hand_size_for(2) == 1
    for bad in (0, 53):
        with pytest.raises(ValueError, match=f"hand_size must be 1..52, got {bad}"):
            Rules(deck=FULL, hand_size=form(bad), players=2)


def test_a_hand_size_pair_is_read_at_its_first_colon():
    with pytest.raises(ValueError, match="hand_size must be a whole number 1..52, got '12:5'"):
        Rules(hand_size="3:12:5")


def test_a_count_named_twice_is_refused_in_its_words():
    with pytest.raises(
        ValueError, match=r"hand_size names 3 players twice \(3:12/3:9\): give each"
    ):
        Rules(hand_size="3:12/3:9")
    with pytest.raises(ValueError, match=r"players names 3 twice \(3/3/5\): give each count once"):
        Rules(players="3/3/5")


def test_derived_counts_stop_at_six_and_include_a_full_deal():
    assert Rules(hand_size=8).players == (3, 4, 5, 6)  # 7 x 8 = 56 would fit, 7 seats do not
    # 52 cards: 4 x 13 deals the whole deck, 5 x 13 does not
    assert Rules(deck=(4,) * 13, hand_size=13).players == (3, 4)


def test_no_count_dealt_names_a_count_it_gives_a_hand():
    """Was: "3 hands of 30 need 90 cards", for 2:30/4:20, which deals no hand to 3 players."""
    with pytest.raises(
        ValueError, match=r"4 hands of 20 need 80 cards, the deck holds 62 \(players=2 deals"
    ):
        Rules(hand_size="2:30/4:20")
    with pytest.raises(ValueError, match="6 hands of 11 need 66 cards, the deck holds 62$"):
        Rules(hand_size="6:11")  # the largest count is one of them


def test_of_options_joins_a_turn_limit_given_apart_to_the_rules():
    """The one place a separately given turn limit (``--turn-limit``, OpenSpiel's parameter)
    joins the rules: it sets the rule, whatever form the rules come in."""
    for form in (None, "take=ends", ["take=any", "take=ends"], {"take": "ends"}, Rules()):
        base = Rules.of(form)
        assert Rules.of_options(form) == base == Rules.of_options(form, None)
        assert Rules.of_options(form, 300) == base.replace(turn_limit=300)
    assert Rules.of_options(Rules(turn_limit=50), 300).turn_limit == 300  # not text: no words
    assert Rules.of_options("turn_limit=300,take=ends", 300) == Rules(turn_limit=300, take="ends")


@pytest.mark.parametrize("text", ["turn_limit=200", ["turn_limit=1000", "take=ends"],
                                  ["turn_limit=200", "take=ends,turn_limit=1000"]])  # fmt: skip
def test_of_options_refuses_text_naming_another_limit(text):
    """Text that names a limit, even today's, and a different limit given apart disagree."""
    named = "200" if text == "turn_limit=200" else "1000"
    with pytest.raises(ValueError, match=f"^turn_limit 300 and rules turn_limit={named} "
                                         "disagree: give one$"):  # fmt: skip
        Rules.of_options(text, 300)
    with pytest.raises(ValueError) as caught:  # a command line names its flags
        Rules.of_options(text, 300)
    assert message(caught.value).startswith(f"--turn-limit 300 and --rules turn_limit={named} ")


def test_of_options_names_the_option_text_came_from():
    with pytest.raises(ValueError, match="^rules: take must be one of any, ends, nothing") as e:
        Rules.of_options("take=most", 300)
    assert message(e.value).startswith("--rules: take must be one of any, ends, nothing")
    with pytest.raises(ValueError, match="^take must be one of"):  # data, not an option's text
        Rules.of_options({"take": "most"})
    with pytest.raises(ValueError, match="^turn_limit must be 1..1000000, got 0$"):
        Rules.of_options("take=ends", 0)


def test_no_count_dealt_points_to_two_players_only_where_two_are_dealt():
    """Was: "no player count can be dealt" where ``players=2`` deals the rules: the default
    counts are 3..6, and a count below them is allowed only when named."""
    tiny = "deck=1/1/0/0/0/0/0/0/0/0/0/0/0,hand_size=1"
    with pytest.raises(ValueError, match=r"^no player count 3\.\.6 can be dealt: 3 hands of 1 "
                                         r"need 3 cards, the deck holds 2 \(players=2 deals 2 "
                                         r"hands of 1: .*\)$"):  # fmt: skip
        Rules.parse(tiny)
    assert Rules.parse(tiny + ",players=2").players == (2,)  # the hint is true
    with pytest.raises(ValueError, match=r"the deck holds 62$"):
        Rules(hand_size=40)  # 2 x 40 = 80 cards: two players are not dealt either


def test_a_range_of_one_player_count_is_that_count():
    """``players=3-3`` is the range 3..3 (the bound: ``b < a`` is empty, ``b == a`` is not)."""
    assert Rules.parse("players=3-3").players == (3,)
    with pytest.raises(ValueError, match=r"players 4-3 is an empty range"):
        Rules.parse("players=4-3")
