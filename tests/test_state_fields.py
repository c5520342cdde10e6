"""State's raw fields have one named source (``StateFields``): its slots, its one constructor
``State._build`` and its record ``State._fields`` follow it, and every way a state is built
(a deal, ``apply``'s moves, a view's public or sampled state) fills each field by name."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

import leaves
from leaves.packed import LANE
from leaves.state import State, StateFields

NAMES = StateFields._fields


def _distinct() -> StateFields:
    """A record whose every field holds a value no other field holds."""
    return StateFields(**{name: 1000 + i for i, name in enumerate(NAMES[:-1])}, history=(None,))


def test_slots_and_constructor_follow_the_record():
    assert State.__slots__[: len(NAMES)] == tuple(f"_{name}" for name in NAMES)
    params = inspect.signature(State._build).parameters.values()
    assert [p.name for p in params] == list(NAMES)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)


def test_each_field_lands_in_its_own_slot():
    f = _distinct()
    s = State._build(**f._asdict())
    assert s._fields() == f
    for name in NAMES:
        assert getattr(s, f"_{name}") == getattr(f, name)


def test_the_constructor_takes_no_positions():
    with pytest.raises(TypeError):
        State._build(*_distinct())  # type: ignore[misc]


def _states(n_games: int = 40):
    rnd = random.Random(7)
    for g in range(n_games):
        s = leaves.new_game(3 + g % 4, seed=g)
        yield s
        while not s.is_terminal:
            legal = s.legal_actions()
            s = s.apply(legal[rnd.randrange(len(legal))])
            yield s


def test_every_move_writes_every_field():
    """Each state ``apply`` builds has all its fields, equal to the checked rebuild's."""
    for s in _states():
        f = s._fields()
        assert f._replace(history=None) == State.from_dict(s.to_dict())._fields()


def test_views_rebuild_states_by_name():
    rng = np.random.default_rng(1)
    for s in _states(10):
        p = s.current_player
        view = s.view(p)
        public = view._public_state()._fields()
        hidden = {"hh", "undealt", "history"}
        f = s._fields()
        for name in NAMES:
            if name not in hidden:
                assert getattr(public, name) == getattr(f, name), name
        assert public.undealt == 0 and public.history is None
        assert public.hh == s._hands[p] << (LANE * p)
        sampled = view.sample_state(rng)
        g = sampled._fields()
        for name in NAMES:
            if name not in ("hh", "undealt"):
                assert getattr(g, name) == getattr(f, name), name
        assert sampled._hands[p] == s._hands[p] and sampled._sizes == s._sizes
