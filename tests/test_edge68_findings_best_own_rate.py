"""The runner-up's own rate beside its rate at the leader's weights (``findings_best._weighted``)
on hand-made tables: a significance row's B is at A's weights (``win_rate_b``) and its own rate
there is ``win_rate_b_own``; the sentence names the second only where the two print otherwise,
on either side of a table that lists the pair turned round, and in each verdict that writes the
two rates. Every printed figure is worked out by hand beside its table."""

from __future__ import annotations

from tests.test_mutation66_best import PAIRED, SUMM3, _best, _p, _s

NAN = float("nan")
HOLDS = "); it holds after Holm correction over the 1 pair compared."


def _clear(own: float) -> str:
    """a 42.0% and b 33.0% where both sat (b at a's weights), b's own rate ``own``: a margin
    of 9.0 points [+4.0, +14.0], p = 0.001, one pair (Holm's p is the same)."""
    return _best(SUMM3[:2], [_p("a", "b", 0.42, 0.33, 0.04, 0.14, 0.001, win_rate_b_own=own)])


def test_b_s_own_rate_that_prints_otherwise_is_said_beside_it():
    text = _clear(0.31)
    said = (f"({PAIRED}, p = 0.001; there a won 42.0% and b 33.0% weighted by a's seats, 31.0% "
            f"of its own seats{HOLDS}")  # fmt: skip
    assert text.endswith(said), text


def test_b_s_own_rate_equal_to_it_is_not_said():
    assert _clear(0.33).endswith(f"({PAIRED}, p = 0.001; there a won 42.0% and b 33.0%{HOLDS}")


def test_b_s_own_rate_that_prints_as_it_is_not_said():
    """33.04% prints 33.0%, as 33.0% does: a gap of 0.04 points the sentence cannot show."""
    assert _clear(0.3304).endswith(f"({PAIRED}, p = 0.001; there a won 42.0% and b 33.0%{HOLDS}")


def test_b_s_own_rate_a_hair_away_that_prints_otherwise_is_said():
    """33.06% prints 33.1%: said, however small the gap."""
    text = _clear(0.3306)
    assert text.endswith(f"b 33.0% weighted by a's seats, 33.1% of its own seats{HOLDS}"), text


def test_b_s_own_rate_not_known_is_not_said():
    """A table whose row has no own rate (NaN), or no such column: the clause as before."""
    for text in (_clear(NAN), _best(SUMM3[:2], [_p("a", "b", 0.42, 0.33, 0.04, 0.14, 0.001)])):
        assert text.endswith(f"({PAIRED}, p = 0.001; there a won 42.0% and b 33.0%{HOLDS}"), text


def test_turned_round_it_is_the_leader_at_the_other_s_weights():
    """The table lists b - a: b 33.0% (its own), a 44.0% at b's weights and 42.0% its own; the
    sentence reads a - b, a's two rates first, closed by a comma before b's."""
    sig = [_p("b", "a", 0.33, 0.44, -0.16, -0.06, 0.001, win_rate_b_own=0.42)]
    text = _best(SUMM3[:2], sig)
    said = (f"({PAIRED}, p = 0.001; there a won 44.0% weighted by b's seats, 42.0% of its own "
            f"seats, and b 33.0%{HOLDS}")  # fmt: skip
    assert text.endswith(said), text
    assert "by 11.0 percentage points [+6.0, +16.0]" in text


def test_turned_round_with_the_leader_s_own_rate_equal_to_it():
    sig = [_p("b", "a", 0.33, 0.44, -0.16, -0.06, 0.001, win_rate_b_own=0.44)]
    text = _best(SUMM3[:2], sig)
    assert text.endswith(f"({PAIRED}, p = 0.001; there a won 44.0% and b 33.0%{HOLDS}"), text


def test_a_runner_up_ahead_where_both_sat_with_the_leader_at_its_weights():
    """b - a listed: b 36.0% (own), a 30.0% at b's weights and 28.0% its own; b is ahead by
    6.0 points [+2.0, +10.0] where both sat though a leads the summary."""
    summ = [_s("a", 0.40, 0.35, 0.45), _s("b", 0.30, 0.25, 0.35)]
    sig = [_p("b", "a", 0.36, 0.30, 0.02, 0.10, 0.001, win_rate_b_own=0.28)]
    text = _best(summ, sig)
    said = ("but at the tables both sat at b wins 36.0% against its 30.0% weighted by b's "
            "seats, 28.0% of its own seats, and beats it by 6.0 percentage points [+2.0, +10.0] "
            f"({PAIRED}, p = 0.001)")  # fmt: skip
    assert said in text, text


def test_a_margin_not_significant_names_both_of_b_s_rates():
    """a 42.0%, b 38.0% at a's weights and 35.0% its own; p = 0.2: not significant."""
    sig = [_p("a", "b", 0.42, 0.38, -0.02, 0.10, 0.2, win_rate_b_own=0.35)]
    text = _best(SUMM3[:2], sig)
    said = ("is +4.0 percentage points [-2.0, +10.0] "
            f"({PAIRED}, p = 0.20; there a won 42.0% and b 38.0% weighted by a's seats, 35.0% "
            "of its own seats): not significant.")  # fmt: skip
    assert text.endswith(said), text
