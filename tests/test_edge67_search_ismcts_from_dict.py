"""``ismcts`` searches any position the API makes: one rebuilt by ``State.from_dict`` keeps no
history, so there is no evidence to weigh and every deal is drawn from the public facts alone
(hand sizes, table, removed, the undealt pile's size, the cards known in a hand), as at a
game's first decision. Each deal a search draws is checked card by card; the move is legal and
the same for the same seed, under the rule variants, at 3 to 6 seats and with the presets."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves import Rules, State, new_game
from leaves.board import HANDS, REMOVED, SEAT_SLOTS, TABLE, UNDEALT
from leaves.players.ismcts import NO_EVIDENCE, cengine, evidence
from leaves.players.ismcts.cengine import NUMBA_KERNELS
from leaves.players.ismcts.evidence import Replay
from leaves.testing import games, positions

VARIANTS = [Rules.of(text) for text in (None, "take=ends", "min_count=off", "take=nothing")]
SPECS = [
    "ismcts:iterations=40",
    "ismcts:preset=fast,iterations=40",
    "ismcts:preset=strong,iterations=40",
]


def _rebuilt(state: State) -> State:
    """The position alone: ``from_dict`` of its dict form, with no history."""
    out = State.from_dict(state.to_dict())
    assert out.history == () and out.to_dict() == state.to_dict()
    return out


@contextmanager
def _drawn(numba: bool = False) -> Iterator[dict[str, list]]:
    """Record every deal the search draws (one iteration at a time) and the number of past
    decisions each search weighs; ``numba``: the numba kernels instead of the C engine's."""
    seen: dict[str, list] = {"deals": [], "evidence": []}
    real = cengine.kernels

    def kernels(kinds=()):
        kern = NUMBA_KERNELS if numba else real(kinds)

        def searcher(pos, cfg, models, ev, rng, state):
            run = kern.searcher(pos, cfg, models, ev, rng, state)
            seen["evidence"].append(len(ev.seats))

            def one_at_a_time(n_iter: int) -> None:
                for _ in range(n_iter):
                    run(1)
                    seen["deals"].append(state.deal.copy())

            return one_at_a_time

        return kern._replace(searcher=searcher)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cengine, "kernels", kernels)
        yield seen


def _check_deal(deal: np.ndarray, state: State) -> None:
    """``deal`` holds every card of the deck once and agrees with every public fact of
    ``state`` and the searcher's own hand."""
    n, seat = state.n_players, state.current_player
    deck = np.array(state.rules.deck)
    assert (deal[TABLE] == state.table).all() and (deal[REMOVED] == state.removed).all()
    hands = deal[HANDS : HANDS + n]
    assert (hands >= 0).all() and (deal[UNDEALT] >= 0).all()
    assert (hands.sum(axis=0) + deal[TABLE] + deal[REMOVED] + deal[UNDEALT] == deck).all()
    assert hands.sum(axis=1).tolist() == list(state.hand_sizes)
    assert int(deal[UNDEALT].sum()) == sum(state.undealt)
    assert (deal[HANDS + n : HANDS + min(SEAT_SLOTS, TABLE)] == 0).all()
    assert (hands[seat] == state.hands[seat]).all()
    assert (hands >= np.array(state.known)).all(), "a card known to be in a hand was dealt away"


def _choose(spec: str, state: State, seed: int):
    """A fresh ``spec``'s move at ``state`` from ``seed``, and the strategy."""
    strat = strategies.get(spec)
    view = state.view(state.current_player)
    return strat.choose(view, state.legal_actions(), np.random.default_rng(seed)), strat


@settings(max_examples=40)
@given(
    st.sampled_from(VARIANTS).flatmap(lambda r: positions(3, 6, max_turns=120, rules=r)),
    st.sampled_from(SPECS),
    st.integers(0, 2**32),
)
def test_every_deal_of_a_rebuilt_position_holds_every_card_once(state, spec, seed):
    position = _rebuilt(state)
    with _drawn() as seen:
        move, strat = _choose(spec, position, seed)
    assert move in position.legal_actions()
    if len(position.legal_actions()) == 1:
        return  # no search
    assert seen["evidence"] == [0], "a position without history has no past decisions"
    assert len(seen["deals"]) == strat.last_iterations == 40
    for deal in seen["deals"]:
        _check_deal(deal, position)


@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("spec", SPECS)
def test_a_rebuilt_position_plays_a_legal_move_the_same_for_the_same_seed(n_players, rules, spec):
    rng = np.random.default_rng(n_players)
    state = new_game(n_players, seed=17 * n_players, rules=rules)
    chosen = state
    for _ in range(int(rng.integers(4, 30))):  # a position some turns in with a choice to make
        state = state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
        if state.is_terminal:
            break
        if len(state.legal_actions()) > 1:
            chosen = state
    position = _rebuilt(chosen)
    assert len(position.legal_actions()) > 1 and position.turn > 0
    first, a = _choose(spec, position, 5)
    again, b = _choose(spec, position, 5)
    assert first in position.legal_actions()
    assert first == again and a.last_visits == b.last_visits and a.last_nodes == b.last_nodes


def _known_position() -> State:
    """Seat 0 to act; seat 1 took a 13 on a pass and still holds it (``known``), and the
    other 13 is seat 0's: every deal must give seat 1 that 13, as a deal that took it for
    unseen seldom would (seat 1 holds 4 of the 50 cards seat 0 would then not see)."""
    hands = [
        [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
        [0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1],
        [0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0],
        [1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0],
    ]
    deck = Rules().deck
    table = [0] * 13  # seat 0 leads
    removed = [1, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    undealt = [deck[v] - sum(h[v] for h in hands) - table[v] - removed[v] for v in range(13)]
    known = [[0] * 13 for _ in hands]
    known[1][12] = 1
    return State.from_dict(
        {"hands": hands, "table": table, "removed": removed, "undealt": undealt,
         "known": known, "current_player": 0, "turn": 23, "round": 3}
    )  # fmt: skip


@pytest.mark.parametrize("numba", [False, True], ids=["engine", "numba"])
def test_a_card_known_in_a_hand_stays_there_in_every_deal(numba):
    position = _known_position()
    assert _rebuilt(position).known[1][12] == 1  # from_dict keeps who holds the taken card
    with _drawn(numba) as seen:
        move, _ = _choose("ismcts:iterations=60", position, 3)
    assert move in position.legal_actions()
    assert len(seen["deals"]) == 60
    for deal in seen["deals"]:
        _check_deal(deal, position)
        assert deal[HANDS + 1, 12] == 1


def _laid_at_turn_zero() -> State:
    """A dealt game whose table already holds two cards of the undealt pile, written with its
    turn left at 0: a position set up by hand, not a deal."""
    d = new_game(4, seed=3).to_dict()
    v = max(i for i in range(8) if d["undealt"][i] >= 2)
    d["undealt"][v] -= 2
    d["table"][v] += 2
    del d["turn"]
    return State.from_dict(d)


def _play(state: State, turns: int, seed: int) -> State:
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        state = state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    return state


def test_a_history_from_a_position_set_up_at_turn_zero_weighs_no_evidence():
    """Its replay starts from an empty table that was never the game's: the boards the
    opponents' decisions would be judged on are wrong, so none is weighed."""
    state = _play(_laid_at_turn_zero(), 9, 0)
    view = state.view(state.current_player)
    assert view.turn == len(view.history) == 9 and not state.is_terminal
    assert evidence(view) is NO_EVIDENCE
    assert len(state.legal_actions()) > 1
    with _drawn() as seen:
        move, _ = _choose("ismcts:iterations=40", state, 1)
    assert move in state.legal_actions() and seen["evidence"] == [0]
    for deal in seen["deals"]:
        _check_deal(deal, state)
    replay = Replay()  # kept between decisions, it stays without evidence
    for k in range(1, 10):
        earlier = _play(_laid_at_turn_zero(), k, 0)
        assert replay.evidence(earlier.view(earlier.current_player)) is NO_EVIDENCE


def test_a_history_from_the_deal_still_weighs_the_same_decisions():
    """The same moves from the deal itself (and from its dict form at turn 0, the public facts
    of a deal) keep every opponent decision as evidence."""
    dealt = new_game(4, seed=3)
    state = _play(dealt, 9, 0)
    view = state.view(state.current_player)
    full = evidence(view)
    assert len(full.seats) == sum(who != view.player for who, _ in view.history) > 0
    same = _play(_rebuilt(dealt), 9, 0).view(state.current_player)
    assert same.history == view.history
    assert np.array_equal(evidence(same).actions, full.actions)


@settings(max_examples=30)
@given(st.sampled_from(VARIANTS).flatmap(lambda r: games(rules=r)))
def test_every_decision_of_a_game_from_its_deal_weighs_every_opponent_decision(game):
    """The replay of a game from its deal reaches the view's public board at each decision,
    so a game with its history loses no evidence to the check (and plays as before)."""
    replays = [Replay() for _ in range(game[0].n_players)]
    for state in game:
        if state.is_terminal:
            break
        view = state.view(state.current_player)
        ev = replays[view.player].evidence(view)
        assert len(ev.seats) == sum(who != view.player for who, _ in view.history)
