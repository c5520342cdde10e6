"""docs/research.md on a position set up by hand: its hands of a size no deal gives, its drawn
world (``resample_from_infostate``) stands at the position with no history, and the
``openspiel`` strategy plays it at the table sizes the page gives, refusing 2 seats under
today's rules in the one line it quotes and playing them under rules that seat two."""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import leaves  # noqa: E402
from interop.openspiel import GAME_NAME, OpenSpielAgent, register  # noqa: E402
from interop.variants import openspiel_text  # noqa: E402
from tests.helpers import doc_says  # noqa: E402

register()

WORDS = {"two": 2, "three": 3, "four": 4}


def _said() -> tuple[int, int, int, int, str]:
    """(cards a hand of the page's endgame, the fewest and most seats it plays, the seats it
    refuses, the refusal's line), as docs/research.md gives them."""
    m = doc_says(
        "research.md",
        r"A position set up by hand \(`leaves\.State\.initial`\) whose hands, as dealt, are of a "
        r"size no deal of the rules gives \(an endgame of (\w+) cards a hand\) has no deal to "
        r"play out: its drawn world stands at the position with no history, .*? the `openspiel` "
        r"strategy below plays such positions too, at (\d) to (\d) seats; one of (\d) seats, a "
        r"table today's rules do not seat, is refused in one line \(`([^`]+)`\), and played "
        r"under rules that seat two\.",
    )
    return WORDS[m[1]], int(m[2]), int(m[3]), int(m[4]), m[5]


def _endgame(n: int, cards: int, rules: str | None = None) -> leaves.State:
    """``n`` seats of ``cards`` cards set up by hand: seat ``i`` holds ``cards - 1`` cards of
    value ``i + 1`` and one 7."""
    hands = [[0] * 13 for _ in range(n)]
    for seat, hand in enumerate(hands):
        hand[seat], hand[6] = cards - 1, 1
    return leaves.State.initial(hands, first_player=n - 1, rules=rules)


def _plays(inner: leaves.State) -> bool:
    """Whether the ``openspiel`` strategy (ISMCTS, whose worlds are drawn) picks a legal move."""
    agent = OpenSpielAgent(bot="ismcts", max_simulations=8)
    seat = inner.current_player
    chosen = agent.choose(inner.view(seat), inner.legal_actions(), np.random.default_rng(3))
    return chosen in inner.legal_actions()


def test_the_openspiel_strategy_plays_a_position_set_up_by_hand_at_the_seats_the_page_gives():
    cards, fewest, most, refused, line = _said()
    assert (*range(fewest, most + 1),) == leaves.DEFAULT_RULES.players  # every table it seats
    assert refused not in leaves.DEFAULT_RULES.players
    for n in range(fewest, most + 1):
        inner = _endgame(n, cards)
        assert all(sum(hand) != inner.rules.hand_size_for(n) for hand in inner.hands)
        assert _plays(inner), n
        seat = inner.current_player
        game = pyspiel.load_game(GAME_NAME, {"players": n, "rules": openspiel_text(inner.rules)})
        standing = game.new_initial_state()
        standing.set_position(inner.view(seat), np.random.default_rng(0))
        world = standing.resample_from_infostate(seat, np.random.default_rng(n).random)
        assert world.history() == [] and world.state.hands[seat] == inner.hands[seat], n
        assert world.state.hand_sizes == inner.hand_sizes and world.state.turn == inner.turn
    with pytest.raises(ValueError) as info:
        _plays(_endgame(refused, cards))
    assert str(info.value) == line
    assert _plays(_endgame(refused, cards, rules=f"players={refused}-{most},hand_size=7"))
