"""The strategies framework: base class, registry, spec strings, loading, conformance check."""

from __future__ import annotations

import pickle
import textwrap
import types

import numpy as np
import pytest

import strategies
from leaves import Action
from leaves.players import ENTRY_POINT_GROUP
from leaves.players.testing import PHASES, check_strategy, phase_matches, random_position
from strategies import Strategy
from strategies import registry as reg


# ---------------------------------------------------------------------- tiny test strategies
class FirstLegal(Strategy, register=False):
    """Deterministic: the lowest legal action id."""

    name = "t-first"
    description = "first legal action"

    def choose(self, view, legal, rng):
        return legal[0]


class Tunable(Strategy, register=False):
    name = "t-tunable"
    description = "parameters of every simple type"
    classifier = {"stochastic": True, "search": True, "depth_limited": True}

    def __init__(
        self, keep_pairs: bool = False, depth: int = 3, temp: float = 1.0, mode: str = "a"
    ):
        self.keep_pairs = keep_pairs

    def choose(self, view, legal, rng):
        return legal[int(rng.integers(len(legal)))]


@pytest.fixture
def registered():
    """Register the test classes for one test and remove them afterwards."""
    added = []

    def add(cls, name=None):
        strategies.register(cls, name=name)
        added.append(name or cls.name)
        return cls

    yield add
    for name in added:
        reg.unregister(name)


# ---------------------------------------------------------------------- base class
def test_params_are_introspected_with_defaults():
    s = Tunable(depth=5)
    assert s.params == {"keep_pairs": False, "depth": 5, "temp": 1.0, "mode": "a"}
    s.params["depth"] = 9  # a copy: the instance is unchanged
    assert s.params["depth"] == 5


def test_label_shows_only_non_default_params_and_equals_repr():
    assert Tunable().label == "t-tunable"
    s = Tunable(keep_pairs=True, temp=0.5)
    assert s.label == "t-tunable(keep_pairs=True,temp=0.5)"
    assert repr(s) == s.label
    assert Tunable(depth=3).label == "t-tunable"  # explicitly the default


def test_variants_compare_by_class_and_params():
    assert Tunable(depth=4) == Tunable(depth=4)
    assert Tunable(depth=4) != Tunable(depth=5)
    assert len({Tunable(depth=4), Tunable(depth=4), Tunable()}) == 2


def test_classifier_is_merged_over_defaults():
    assert FirstLegal.classifier == {
        "stochastic": False,
        "uses_card_counting": False,
        "search": False,
        "compiled": False,
    }
    assert Tunable.classifier["stochastic"] is True
    assert Tunable.classifier["depth_limited"] is True
    assert Tunable.classifier["compiled"] is False


def test_compiled_defaults_to_none_and_default_hooks_change_nothing():
    # A strategy with the default hooks plays exactly like one whose hooks are never called:
    # same games, and no state left on the instance.
    s = FirstLegal()
    assert s.compiled() is None
    before = dict(vars(s))
    a = strategies.play_game([s, "low", "high"], seed=4)
    b = strategies.play_game([FirstLegal(), "low", "high"], seed=4)
    assert a.record.actions == b.record.actions and vars(s) == before


def test_choose_must_be_implemented():
    class NoChoose(Strategy, register=False):
        pass

    with pytest.raises(NotImplementedError, match="NoChoose"):
        NoChoose().choose(None, (), None)


def test_unnamed_classes_are_labelled_by_class_name():
    class Anonymous(Strategy, register=False):
        def __init__(self, k: int = 1):
            pass

    assert (
        Anonymous(k=2).label
        == "test_unnamed_classes_are_labelled_by_class_name.<locals>.Anonymous(k=2)"
    )


def test_bad_constructor_arguments_name_the_valid_parameters():
    with pytest.raises(ValueError, match="valid parameters: keep_pairs, depth, temp, mode"):
        Tunable(depht=3)


def test_star_kwargs_constructor_is_refused():
    with pytest.raises(TypeError, match="no \\*args/\\*\\*kwargs"):

        class Loose(Strategy, register=False):
            def __init__(self, **kw):
                pass


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="lowercase"):

        class Bad(Strategy, register=False):
            name = "Has Space"


def test_pickle_round_trip_keeps_params():
    s = Tunable(depth=7, mode="x y")
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.params == s.params and t.keep_pairs is False


# ---------------------------------------------------------------------- registry
def test_subclass_with_name_registers_itself():
    class AutoReg(Strategy):
        name = "t-autoreg"

        def choose(self, view, legal, rng):
            return legal[0]

    try:
        assert "t-autoreg" in strategies.names()
        assert type(strategies.get("t-autoreg")) is AutoReg
    finally:
        reg.unregister("t-autoreg")
    assert "t-autoreg" not in strategies.names()


def test_register_false_keeps_the_registry_clean():
    assert "t-first" not in strategies.names()
    assert "t-tunable" not in strategies.names()


def test_register_decorator(registered):
    registered(FirstLegal)
    assert "t-first" in strategies.names()
    assert isinstance(strategies.get("t-first"), FirstLegal)


def test_register_decorator_with_name(registered):
    @strategies.register(name="t-decorated")
    class Deco(Strategy, register=False):
        def choose(self, view, legal, rng):
            return legal[0]

    registered(Deco, "t-decorated")
    assert Deco.name == "t-decorated"
    assert strategies.get("t-decorated").label == "t-decorated"


def test_name_clash_is_an_error(registered):
    registered(FirstLegal)

    class Other(Strategy, register=False):
        name = "t-first"

        def choose(self, view, legal, rng):  # a player: register refuses one that cannot play
            return legal[0]

    with pytest.raises(ValueError, match="already taken"):
        strategies.register(Other)


def test_get_with_params_and_spec_strings_agree(registered):
    registered(Tunable)
    a = strategies.get("t-tunable", keep_pairs=True, depth=4)
    b = strategies.get("t-tunable:keep_pairs=true,depth=4")
    c = strategies.get("t-tunable(keep_pairs=True,depth=4)")  # the label form
    assert a == b == c
    assert a.label == "t-tunable(keep_pairs=True,depth=4)"
    assert strategies.get(a.label) == a


def test_spec_values_are_parsed_by_type(registered):
    registered(Tunable)
    s = strategies.get("t-tunable:keep_pairs=no,depth=12,temp=2,mode='p,q'")
    assert s.params == {"keep_pairs": False, "depth": 12, "temp": 2.0, "mode": "p,q"}
    assert type(s.params["temp"]) is float
    assert strategies.get("t-tunable:mode=fast").params["mode"] == "fast"
    assert strategies.get("t-tunable:temp=1e-3").params["temp"] == 0.001


def test_keyword_params_override_the_spec(registered):
    registered(Tunable)
    assert strategies.get("t-tunable:depth=2", depth=5).params["depth"] == 5


def test_parse_value_kinds():
    pv = strategies.spec_values.parse_value
    assert pv("true") is True and pv("OFF") is False and pv("none") is None
    assert pv("3") == 3 and isinstance(pv("3"), int)
    assert pv("0.25") == 0.25 and pv("'3'") == "3" and pv("greedy") == "greedy"


def test_get_class_and_instance(registered):
    registered(Tunable)
    assert strategies.get(Tunable, depth=2) == Tunable(depth=2)
    inst = Tunable(depth=2)
    assert strategies.get(inst) is inst
    assert strategies.get(inst, temp=3.0) == Tunable(depth=2, temp=3.0)


def test_unknown_name_suggests_closest(registered):
    registered(Tunable)
    with pytest.raises(ValueError, match="unknown strategy 't-tunabel'; did you mean 't-tunable'"):
        strategies.get("t-tunabel")


def test_unknown_name_without_close_match_lists_names():
    with pytest.raises(ValueError, match="known strategies:"):
        strategies.get("zzzzzzzzzzzz")


def test_bad_parameter_names_the_valid_ones(registered):
    registered(Tunable)
    with pytest.raises(
        ValueError,
        match=r"no parameter 'dept'.*did you mean 'depth'.*valid parameters: keep_pairs, depth, temp, mode",
    ):
        strategies.get("t-tunable:dept=3")
    with pytest.raises(ValueError, match="it takes no parameters"):
        strategies.get(FirstLegal, x=1)


def test_bad_parameter_type_is_explained(registered):
    registered(Tunable)
    with pytest.raises(
        ValueError, match="parameter 'depth' of strategy t-tunable expects int, got 'deep'"
    ):
        strategies.get("t-tunable:depth=deep")
    with pytest.raises(ValueError, match="expects bool"):
        strategies.get("t-tunable:keep_pairs=2")


def test_malformed_specs(registered):
    registered(Tunable)
    with pytest.raises(ValueError, match="write key=value"):
        strategies.get("t-tunable:keep_pairs")
    with pytest.raises(ValueError, match="given twice"):
        strategies.get("t-tunable:depth=1,depth=2")
    with pytest.raises(ValueError, match="empty strategy spec"):
        strategies.get("  ")
    with pytest.raises(ValueError, match="a name, a spec string"):
        strategies.get(42)


def test_filtered_by_classifier(registered):
    registered(Tunable)
    registered(FirstLegal)
    stochastic = strategies.filtered(stochastic=True)
    assert "t-tunable" in stochastic and "t-first" not in stochastic
    assert "t-first" in strategies.filtered(stochastic=False, search=False)
    assert strategies.filtered(depth_limited=True) == ["t-tunable"]
    with pytest.raises(ValueError, match="unknown classifier key 'stochastik'"):
        strategies.filtered(stochastik=True)


# ---------------------------------------------------------------------- loading code
USER_FILE = """
from strategies import Strategy

class MyStrategy(Strategy, register=False):
    description = "from a user's file"

    def __init__(self, bias: int = 0):
        self.bias = bias

    def choose(self, view, legal, rng):
        return legal[min(self.bias, len(legal) - 1)]

class NotAStrategy:
    pass
"""


def test_load_from_file(tmp_path):
    path = tmp_path / "my_strat.py"
    path.write_text(textwrap.dedent(USER_FILE))
    s = strategies.get(f"{path}:MyStrategy")
    assert type(s).__name__ == "MyStrategy" and s.params == {"bias": 0}
    t = strategies.get(f"{path}:MyStrategy:bias=2")
    assert t.params == {"bias": 2}
    assert strategies.get(f"{path}:MyStrategy(bias=1)").bias == 1
    assert type(t) is type(s)  # the file is loaded once
    assert pickle.loads(pickle.dumps(t)) == t
    check_strategy(f"{path}:MyStrategy", max_examples=5, games=1)


def test_file_loading_errors(tmp_path):
    path = tmp_path / "my_strat.py"
    path.write_text(textwrap.dedent(USER_FILE))
    with pytest.raises(ValueError, match="has no class 'Missing'; it defines MyStrategy"):
        strategies.get(f"{path}:Missing")
    with pytest.raises(ValueError, match="has no strategy class 'NotAStrategy'"):
        strategies.get(f"{path}:NotAStrategy")
    with pytest.raises(ValueError, match="no such strategy file"):
        strategies.get(f"{tmp_path / 'nope.py'}:X")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(ValueError, match="error while loading .*RuntimeError: boom"):
        strategies.get(f"{broken}:X")


def test_load_from_module(tmp_path, monkeypatch):
    pkg = tmp_path / "userpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(textwrap.dedent(USER_FILE))
    monkeypatch.syspath_prepend(str(tmp_path))
    s = strategies.get("userpkg.mod:MyStrategy:bias=1")
    assert s.params == {"bias": 1}
    with pytest.raises(ValueError, match="cannot import module 'userpkg.nomod'"):
        strategies.get("userpkg.nomod:MyStrategy")


class FakeEntryPoint:
    def __init__(self, name, value, obj=None, error=None):
        self.name, self.value, self.group = name, value, ENTRY_POINT_GROUP
        self._obj, self._error = obj, error

    def load(self):
        if self._error:
            raise self._error
        return self._obj


def test_entry_points(monkeypatch):
    class Plugin(Strategy, register=False):
        name = "t-plugin"
        classifier = {"search": True}

        def __init__(self, level: int = 1):
            pass

        def choose(self, view, legal, rng):
            return legal[-1]

    eps = [
        FakeEntryPoint("t-plugin", "thirdparty.mod:Plugin", Plugin),
        FakeEntryPoint("t-broken", "thirdparty.mod:Broken", error=ImportError("no numpy 3")),
    ]
    seen_groups = []

    def fake_entry_points(group=None):
        seen_groups.append(group)
        return [ep for ep in eps if ep.group == group]

    monkeypatch.setattr(reg.importlib.metadata, "entry_points", fake_entry_points)
    try:
        assert {"t-plugin", "t-broken"} <= set(strategies.names())
        assert "t-plugin" not in reg._REGISTRIES["leaves"]  # listed without importing it
        s = strategies.get("t-plugin:level=2")
        assert type(s) is Plugin and s.params == {"level": 2}
        with pytest.raises(
            ValueError, match="cannot load strategy 't-broken'.*ImportError: no numpy 3"
        ):
            strategies.get("t-broken")
        with pytest.warns(UserWarning, match="t-broken"):
            assert "t-plugin" in strategies.filtered(search=True)
        assert set(seen_groups) == {"leaves.strategies"}
    finally:
        reg.unregister("t-plugin")


def test_entry_point_must_be_a_strategy(monkeypatch):
    ep = FakeEntryPoint("t-notstrat", "x:y", types.SimpleNamespace())
    monkeypatch.setattr(reg.importlib.metadata, "entry_points", lambda group=None: [ep])
    with pytest.raises(ValueError, match="not a strategy class"):
        strategies.get("t-notstrat")


# ---------------------------------------------------------------------- positions used by the check
@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("n", [3, 6])
def test_random_positions_have_the_phase(phase, n):
    initial, state = random_position(n, 12345, phase)
    assert initial.turn == 0 and state.n_players == n
    assert phase_matches(state, phase)
    assert not state.is_terminal and state.legal_actions()


# ---------------------------------------------------------------------- check_strategy
def test_check_strategy_accepts_good_strategies():
    check_strategy(FirstLegal, max_examples=10, games=2)
    check_strategy(Tunable(temp=0.5), max_examples=10, games=2)


CHEAP = {"openspiel": "openspiel:max_simulations=4"}
"""Specs that check a registered strategy at a small search budget (OpenSpiel's Python search
takes a second a decision at its default)."""


EXTRA = {"openspiel": "pyspiel"}
"""Registered strategies that need the research extra's package (skipped without it)."""


@pytest.mark.slow
def test_every_registered_strategy_passes_the_check():
    import importlib.util

    for name in strategies.names():
        if name in EXTRA and importlib.util.find_spec(EXTRA[name]) is None:
            continue
        check_strategy(CHEAP.get(name, name), max_examples=15, games=2)


class IllegalSometimes(Strategy, register=False):
    """Plays one card of its lowest value even when that is not legal."""

    def choose(self, view, legal, rng):
        v = next(i + 1 for i, c in enumerate(view.hand) if c)
        return Action.play(v, 1)


class ReturnsId(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[0].id


class Mutator(Strategy, register=False):
    def choose(self, view, legal, rng):
        object.__setattr__(view, "turn", view.turn + 1)
        return legal[0]


class GlobalRandom(Strategy, register=False):
    """Draws from a private generator that outlives instances: not reproducible by seed."""

    _shared = np.random.default_rng(0)

    def choose(self, view, legal, rng):
        return legal[int(self._shared.integers(len(legal)))]


class Raises(Strategy, register=False):
    def choose(self, view, legal, rng):
        if view.ends is not None and all(a.is_pass for a in legal):
            raise KeyError("no plays")
        return legal[0]


class RemembersHands(Strategy, register=False):
    """Keeps every hand it is dealt, across games, and plays differently once it has some."""

    def __init__(self):
        self.hands = []

    def start_game(self, view, rng):
        self.hands.append(view.hand)

    def choose(self, view, legal, rng):
        return legal[-1] if len(set(self.hands)) > 1 else legal[0]


class ForgetsLeading(Strategy, register=False):
    """Breaks only when leading with 6 players (checks that the sweep reaches every case)."""

    def choose(self, view, legal, rng):
        if view.n_players == 6 and view.ends is None:
            return None
        return legal[0]


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (IllegalSometimes, "not one of|legal:"),
        (ReturnsId, "not an Action"),
        (Mutator, "modified the view"),
        (GlobalRandom, "not reproducible"),
        (Raises, "raised KeyError"),
        (ForgetsLeading, "6-player game"),
        (RemembersHands, "remembers earlier games"),
    ],
)
def test_check_strategy_catches_broken_strategies(cls, message):
    with pytest.raises(AssertionError, match=message):
        check_strategy(cls, max_examples=20, games=1)


def test_check_strategy_catches_forfeits_in_self_play():
    class BadHook(Strategy, register=False):
        def end_game(self, view, result):
            if view.n_players == 4:
                raise RuntimeError("no 4-player games")

        def choose(self, view, legal, rng):
            return legal[0]

    with pytest.raises(AssertionError, match="forfeited a 4-player self-play game"):
        check_strategy(BadHook, max_examples=0, games=2)


def test_check_strategy_flags_a_bad_compiled_hook():
    class BadCompiled(FirstLegal, register=False):
        def compiled(self):
            return ("greedy", [1, 2])

    with pytest.raises(AssertionError, match="compiled"):
        check_strategy(BadCompiled, max_examples=1, games=0)


def test_registered_labels_round_trip_through_get():
    for name in strategies.names():
        s = strategies.get(name)
        assert s.label == name and strategies.get(s.label) == s
        for key, value in s.params.items():
            if isinstance(value, bool):
                new = not value
            elif isinstance(value, int | float):
                new = value + 1
            else:
                continue
            variant = strategies.get(name, **{key: new})
            assert key in variant.label and strategies.get(variant.label) == variant


def test_strategies_offers_the_default_games_shared_names_and_loads_it_only_then():
    """``strategies.Strategy`` and the play functions are the default game's players' (their
    ``SHARED`` list), read through its entry point when first asked for; a private name
    probed (as tools do) loads no game."""
    import subprocess
    import sys

    code = (
        "import sys, strategies\n"
        "hasattr(strategies, '__wrapped__'), hasattr(strategies, '_private')\n"
        "print('leaves.players' in sys.modules)\n"
        "from leaves.players.base import Strategy\n"
        "print(strategies.Strategy is Strategy, 'play_game' in dir(strategies))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()  # fmt: skip
    assert out == ["False", "True", "True"]
