"""A subclass of a built-in whose own ``__init__`` skips ``super().__init__`` has no policy
vector: it ended every game at its first decision on a bare AttributeError ('_vector'), in a
tournament, a gauntlet, play_batch and check_strategy alike. It is refused when built, in one
line naming the class and the call it lacks."""

import pytest

from leaves.players.builtin.simple import GreedyStrategy
from leaves.players.play import play_game
from leaves.players.testing import check_strategy
from strategies import registry

LACKS = (
    "NoSuper.__init__ does not call super().__init__(keep_pairs=keep_pairs), so the built-in "
    "greedy it extends has no policy to play; add that call to it"
)


class NoSuper(GreedyStrategy, register=False):
    def __init__(self, keep_pairs: bool = False, extra: int = 1):
        self.extra = extra


class WithSuper(GreedyStrategy, register=False):
    def __init__(self, keep_pairs: bool = False, extra: int = 1):
        super().__init__(keep_pairs=keep_pairs)
        self.extra = extra


def test_building_it_directly_is_refused_naming_the_call():
    with pytest.raises(TypeError) as info:
        NoSuper(extra=2)
    assert str(info.value) == LACKS


@pytest.mark.parametrize(
    "way",
    [
        lambda: registry.get(NoSuper),
        lambda: play_game([NoSuper, "greedy", "greedy"], seed=1),
        lambda: check_strategy(NoSuper, max_examples=1, games=1),
    ],
    ids=["registry", "play_game", "check_strategy"],
)
def test_every_way_in_says_the_same_line(way):
    with pytest.raises(ValueError) as info:
        way()
    assert str(info.value).endswith(f"TypeError: {LACKS}")
    assert "\n" not in str(info.value)


def test_one_that_calls_super_keeps_its_signature_and_plays():
    built = registry.get(WithSuper, keep_pairs=True, extra=3)
    assert built.params == {"keep_pairs": True, "extra": 3}
    kind, vector = built.compiled()
    expected = GreedyStrategy(keep_pairs=True).compiled()
    assert kind == expected[0] and (vector == expected[1]).all()
    assert play_game([built, "greedy", "greedy"], seed=1).n_players == 3
