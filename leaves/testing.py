"""Hypothesis strategies for property-testing code against the 13 Leaves rules.

Users import these to generate positions, whole games and legal action sequences for their own
strategies and tools::

    from hypothesis import given
    from leaves.testing import positions

    @given(positions())
    def test_my_strategy_is_legal(state):
        ...

Every generated position is reached by legal play from a real deal, so it satisfies every
invariant of the rules (cards conserved, ends consistent, known cards bounded by hands).
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from hypothesis import strategies as st

from gamekit.errors import shown

from .rules import MAX_COPIES, MAX_PLAYERS, MIN_PLAYERS, N_VALUES
from .ruleset import FEWEST_PLAYERS, MOST_CARDS, TAKE_MODES, TARGETS, Rules, counts_text
from .state import State, new_game

__all__ = [
    "action_sequences",
    "games",
    "new_games",
    "player_counts",
    "positions",
    "rule_sets",
    "seeds",
    "variant_games",
]


def seeds() -> st.SearchStrategy[int]:
    """Seeds for ``new_game`` (64-bit non-negative ints: 0..2**64 - 1, a deal seed's range)."""
    return st.integers(min_value=0, max_value=2**64 - 1)


def player_counts(
    min_players: int | None = None, max_players: int | None = None, rules: Any = None
) -> st.SearchStrategy[int]:
    """Player counts the rules allow (3..6 under today's), within ``min_players``..
    ``max_players`` when given."""
    return st.sampled_from(_allowed_counts(min_players, max_players, Rules.of(rules)))


def _bound(value: Any, name: str) -> int | None:
    """A bound given to a strategy: None or a whole number >= 0 (a numpy integer too); a
    bool, a float or text is refused in one line naming it, when the strategy is built."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a whole number (or None), got {shown(value)}")
    if value < 0:
        raise ValueError(f"{name} must be at least 0, got {shown(int(value), typed=False)}")
    return int(value)


def _allowed_counts(min_players: int | None, max_players: int | None, rules: Rules) -> list[int]:
    """The player counts ``rules`` allow within ``min_players``..``max_players`` (None: no
    bound); ValueError in one line, when the strategy is built, if there are none."""
    min_players = _bound(min_players, "min_players")
    max_players = _bound(max_players, "max_players")
    counts = [
        n
        for n in rules.players
        if (min_players is None or n >= min_players) and (max_players is None or n <= max_players)
    ]
    if not counts:
        bounds = (("min_players", min_players), ("max_players", max_players))
        given = [f"{k}={shown(v, typed=False)}" for k, v in bounds if v is not None]
        raise ValueError(
            f"no player count to draw: 13 Leaves{rules.under()} is played by "
            f"{counts_text(rules.players)} players: {' and '.join(given)} "
            f"{'leave' if len(given) > 1 else 'leaves'} none of them"
        )
    return counts


def new_games(
    min_players: int | None = None,
    max_players: int | None = None,
    rules: Any = None,
) -> st.SearchStrategy[State]:
    """Freshly dealt games with a random player count, seed and first player, under ``rules``
    (any form ``Rules.of`` reads, e.g. ``"turn_limit=50"``; today's by default). The counts
    are those the rules allow, within ``min_players``..``max_players`` when given."""
    rules = Rules.of(rules)
    counts = _allowed_counts(min_players, max_players, rules)
    return st.builds(
        lambda n, seed: new_game(n, seed=seed, rules=rules), st.sampled_from(counts), seeds()
    )


@st.composite
def _played(draw, starts: st.SearchStrategy[State], max_turns: int | None) -> tuple[State, list]:
    """(a start drawn from ``starts``, the legal action ids drawn after it)."""
    state = draw(starts)
    start = state
    ids: list[int] = []
    while not state.is_terminal and (max_turns is None or len(ids) < max_turns):
        legal = state.legal_actions()
        choice = legal[draw(st.integers(0, len(legal) - 1))]
        ids.append(choice.id)
        state = state.apply(choice)
    return start, ids


def action_sequences(
    min_players: int | None = None,
    max_players: int | None = None,
    max_turns: int | None = None,
    rules: Any = None,
) -> st.SearchStrategy[tuple[State, list[int]]]:
    """(initial state, legal action ids) of a game played by drawing each move under
    ``rules`` (as ``new_games``).

    Stops at a terminal state or after ``max_turns`` actions; every id is legal where played.
    Choices are drawn as indices into the legal actions, so hypothesis shrinks towards the
    lowest-id moves and short games.
    """
    return _played(new_games(min_players, max_players, rules), _bound(max_turns, "max_turns"))


def games(
    min_players: int | None = None,
    max_players: int | None = None,
    rules: Any = None,
) -> st.SearchStrategy[list[State]]:
    """Every state of one whole game of random legal play under ``rules`` (as ``new_games``;
    initial state first)."""
    return action_sequences(min_players, max_players, rules=rules).map(_replayed)


def _replayed(game: tuple[State, list[int]]) -> list[State]:
    start, ids = game
    out = [start]
    for aid in ids:
        out.append(out[-1].apply(aid))
    return out


def positions(
    min_players: int | None = None,
    max_players: int | None = None,
    max_turns: int = 200,
    nonterminal: bool = True,
    rules: Any = None,
) -> st.SearchStrategy[State]:
    """A position reached by at most ``max_turns`` moves (None: any number) of random legal
    play under ``rules`` (as ``new_games``); by default one where someone must act.

    The position after a drawn number of moves or, where the game ends before, any one of
    its positions, drawn alike (its end, with ``nonterminal=False``, as often as any other):
    positions spread along games instead of piling up at their ends. Shrinks towards the
    fresh deal."""
    turns = _bound(max_turns, "max_turns")  # None: no bound
    if not isinstance(nonterminal, bool):
        raise TypeError(f"nonterminal must be True or False, got {shown(nonterminal)}")
    return _position(new_games(min_players, max_players, rules), turns, nonterminal)


@st.composite
def _position(draw, starts: st.SearchStrategy[State], max_turns: int, nonterminal: bool):
    n_turns = draw(st.integers(0, max_turns))
    path = _replayed(draw(_played(starts, n_turns)))
    if not path[-1].is_terminal:
        return path[-1]
    if nonterminal:
        path.pop()
    return path[draw(st.integers(0, len(path) - 1))]  # the game ended first: any position


def rule_sets(base: Any = None) -> st.SearchStrategy[Rules]:
    """Valid ``Rules`` of every kind: a deck of 0..8 copies per value; one hand size, or a
    size per player count (``3:12/4:11``); the player counts named (any of 2..6 the deck can
    deal) or left to follow the deck and hand size; the minimum count on or off, each way a
    pass takes, an expert target of 1..1000; the other keys (the turn limit) those of
    ``base`` (any form ``Rules.of`` reads; today's by default). Shrinks towards the smallest
    game, not today's: a deck of one 1 and one 2, hands of one card, two players named, no
    minimum count, any take, a 1-point target. A ``base`` that is no rules is refused when
    the strategy is built."""
    return _rule_sets(Rules.of(base))


@st.composite
def _rule_sets(draw, base: Rules) -> Rules:
    deck = tuple(draw(st.lists(st.integers(0, MAX_COPIES), min_size=N_VALUES, max_size=N_VALUES)))
    cards = sum(deck)
    if cards < 2:
        deck, cards = (1, 1) + deck[2:], sum(deck[2:]) + 2
    sizes = draw(_hand_sizes(cards))  # {players: cards}, 0 for every count
    dealt = [n for n in range(FEWEST_PLAYERS, MAX_PLAYERS + 1)
             if (h := sizes.get(n, sizes.get(0))) and n * h <= cards]  # fmt: skip
    follows = [n for n in dealt if n >= MIN_PLAYERS]  # what players left unset allows
    if follows and draw(st.booleans()):
        players = None
    else:
        players = sorted(draw(st.lists(st.sampled_from(dealt), min_size=1, unique=True)))
    return base.replace(
        hand_size=sizes.get(0, sizes),  # one size for every count, or the mapping
        deck=deck,
        players=players,
        min_count=draw(st.booleans()),
        take=draw(st.sampled_from(TAKE_MODES)),
        expert_target=draw(st.integers(*TARGETS)),
    )


@st.composite
def _hand_sizes(draw, cards: int) -> dict[int, int]:
    """One hand size for every count (``{0: h}``), at most half of ``cards``, or a size for
    each of some counts 2..6, each a hand the deck deals at its count."""
    if not draw(st.booleans()):
        return {0: draw(st.integers(1, max(1, min(MOST_CARDS, cards // 2))))}
    counts = [n for n in range(FEWEST_PLAYERS, MAX_PLAYERS + 1) if n <= cards]
    named = draw(st.lists(st.sampled_from(counts), min_size=1, unique=True))
    return {n: draw(st.integers(1, min(MOST_CARDS, cards // n))) for n in sorted(named)}


def variant_games(base: Any = None) -> st.SearchStrategy[State]:
    """Freshly dealt games under random rule sets (``rule_sets(base)``), at a player count
    they allow."""
    return _variant_games(rule_sets(base))


@st.composite
def _variant_games(draw, drawn_rules: st.SearchStrategy[Rules]) -> State:
    rules = draw(drawn_rules)
    n = draw(st.sampled_from(rules.players))
    return new_game(n, seed=draw(seeds()), rules=rules)
