"""Conformance check for strategies: ``check_strategy(cls_or_spec)``.

Users run it on their own strategy (``pytest``-style: it raises ``AssertionError`` with a
message naming the position on failure). Positions come from random legal games (uniform
over the legal actions) from hypothesis-drawn seeds, stopped at random turns, and cover every
phase of a round: leading on an empty table, following, forced situations where only takes
are legal, the last two players in a round, and 3 to 6 players. For each position it checks:

- the answer is an ``Action`` among the legal ones (and ``choose`` does not raise);
- the view, the legal tuple and the state are unchanged afterwards;
- the same seed gives the same answer (fresh instances, ``np.random.default_rng(seed)``);
- no memory across games: an instance that has played other games first answers the same
  position, with the same rng state, as a fresh one (tournaments give every game a fresh
  instance; a strategy whose decisions depend on earlier games would behave differently
  when used directly);

and it plays a few whole games with the strategy in every seat (hooks included) through
``play_game``, which must finish without a forfeit. The same checks then run under a sample of
rule variants (``VARIANTS``: no minimum count, takes from the ends only or no take at all, a
smaller deck and hands with 2 players), one position of each kind and one whole game each.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from leaves import Action, State, new_game
from leaves.players.play import FAILURES  # a check fails by what a game forfeits by
from leaves.rules import MAX_PLAYERS, MIN_PLAYERS
from leaves.ruleset import DEFAULT_RULES, Rules
from strategies.base import CLASSIFIER_KEYS
from strategies.registry import get

from .base import Strategy
from .play import play_game

PHASES: tuple[str, ...] = ("lead", "follow", "forced_take", "last_two", "any")
"""Kinds of positions checked: see ``phase_of``."""

_SEARCH_GAMES = 8

SELF_PLAY = Rules(turn_limit=2000)
"""Today's rules with room for a slow strategy's self-play game to end (the limit doubled)."""

VARIANTS: tuple[Rules, ...] = (
    Rules(min_count=False),
    Rules(take="ends"),
    Rules(take="nothing"),
    Rules(hand_size=7, deck=(1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1), players=(2, 3, 4, 5, 6)),
    Rules(hand_size=14, min_count=False, take="nothing", expert_target=10),
)
"""The rule variants ``check_strategy`` checks a strategy under, besides today's rules: every
switch of ``leaves.Rules`` at least once."""


def phase_matches(state: State, phase: str) -> bool:
    """Whether the position (its player to act) is of kind ``phase``.

    ``lead``: empty table; ``follow``: a table to play on with some play legal;
    ``forced_take``: only takes are legal; ``last_two``: two players left in the round;
    ``any``: every position.
    """
    if state.is_terminal:
        return False
    if phase == "any":
        return True
    if phase == "lead":
        return state.ends is None
    legal = state.legal_actions()
    if phase == "follow":
        return state.ends is not None and any(not a.is_pass for a in legal)
    if phase == "forced_take":
        return all(a.is_pass for a in legal)
    if phase == "last_two":
        return state.n_players - sum(state.passed) == 2
    raise ValueError(f"unknown phase {phase!r}; phases: {', '.join(PHASES)}")


def random_position(
    n_players: int, seed: int, phase: str = "any", rules: Rules = DEFAULT_RULES
) -> tuple[State, State]:
    """(dealt state, a position of kind ``phase`` in that game) from random legal play under
    ``rules``.

    Plays uniform random games from ``seed`` and picks a matching position uniformly among
    those the game passes through; tries a few games before settling for the deal itself.
    """
    rng = np.random.default_rng(seed)
    for _ in range(_SEARCH_GAMES):
        initial = state = new_game(n_players, seed=rng, rules=rules)
        found = []
        while not state.is_terminal:
            if phase_matches(state, phase):
                found.append(state)
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.integers(len(legal)))])
        if found:
            return initial, found[int(rng.integers(len(found)))]
    initial = new_game(n_players, seed=rng, rules=rules)
    return initial, initial


def _factory(cls_or_spec: Any) -> tuple[type[Strategy], dict[str, Any], str]:
    proto = get(cls_or_spec)
    return type(proto), proto.params, proto.label


def _check_identity(cls: type[Strategy], params: dict[str, Any], label: str) -> None:
    inst = cls(**params)
    assert isinstance(getattr(cls, "description", ""), str), f"{label}: description must be a str"
    missing = [k for k in CLASSIFIER_KEYS if k not in cls.classifier]
    assert not missing, f"{label}: classifier lacks {', '.join(missing)}"
    assert inst.label == repr(inst) == label, f"{label}: label and repr differ ({inst!r})"
    assert inst.params == params, f"{label}: params changed on rebuilding ({inst.params})"
    compiled = inst.compiled()
    if compiled is not None:
        ok = (
            isinstance(compiled, tuple)
            and len(compiled) == 2
            and isinstance(compiled[0], int | np.integer)
            and np.asarray(compiled[1]).dtype == np.float64
        )
        assert ok, f"{label}: compiled() must return None or (int kind, float64 params)"


def check_position(
    cls: type[Strategy],
    params: dict[str, Any],
    initial: State,
    state: State,
    seed: int,
    where: str = "",
) -> Action:
    """Ask fresh instances for a move at ``state`` and check legality, purity, reproducibility.

    Each instance first gets ``start_game`` with its seat's view of ``initial`` (the deal).
    """
    label = cls(**params).label
    seat = state.current_player
    legal = state.legal_actions()
    legal_ids = [a.id for a in legal]
    place = (
        f"{where}turn {state.turn} of a {state.n_players}-player game, seat {seat}, "
        f"stacks {list(state.stacks)}, hand {list(state.hand(seat))}"
    )
    answers = []
    for _ in range(2):
        strat = cls(**params)
        view = state.view(seat)
        rng = np.random.default_rng(seed)
        try:
            strat.start_game(initial.view(seat), rng)
            action = strat.choose(view, legal, rng)
        except FAILURES as exc:
            raise AssertionError(
                f"{label}: start_game/choose raised {type(exc).__name__}: {exc} at {place}"
            ) from exc
        assert isinstance(action, Action), (
            f"{label}: choose returned {action!r} ({type(action).__name__}), not an Action, "
            f"at {place}"
        )
        assert action in legal, (
            f"{label}: choose returned {action} at {place}; legal: {[str(a) for a in legal]}"
        )
        assert view == state.view(seat) and view.hand == state.hand(seat), (
            f"{label}: choose modified the view at {place}"
        )
        assert [a.id for a in legal] == legal_ids and legal == state.legal_actions(), (
            f"{label}: choose modified the legal actions at {place}"
        )
        answers.append(action)
    assert answers[0] == answers[1], (
        f"{label}: not reproducible: the same seed gave {answers[0]} then {answers[1]} at "
        f"{place} (draw randomness only from the rng argument)"
    )
    return answers[0]


MEMORY_GAMES = 2
"""Games an instance plays (3 players, against first-legal players) before ``check_memory``
asks it again."""


class _FirstLegal(Strategy, register=False):
    """A cheap opponent for the memory check's games."""

    def choose(self, view: Any, legal: tuple[Action, ...], rng: np.random.Generator) -> Action:
        return legal[0]


def check_memory(
    cls: type[Strategy], params: dict[str, Any], initial: State, state: State, seed: int,
    where: str = "",
) -> None:  # fmt: skip
    """The answer at ``state`` must not change after the instance has played other games."""
    label = cls(**params).label
    seat = state.current_player
    legal = state.legal_actions()

    def ask(strat: Strategy) -> Action:
        rng = np.random.default_rng(seed)
        try:
            strat.start_game(initial.view(seat), rng)
            return strat.choose(state.view(seat), legal, rng)
        except FAILURES as exc:
            raise AssertionError(
                f"{label}: start_game/choose raised {type(exc).__name__}: {exc} at {where}turn "
                f"{state.turn} of a {state.n_players}-player game, seat {seat}"
            ) from exc

    before = ask(cls(**params))
    used = cls(**params)
    for g in range(MEMORY_GAMES):
        seats = [used, _FirstLegal(), _FirstLegal()]
        play_game(seats[g % 3 :] + seats[: g % 3], seed=seed + 7919 * (g + 1), record=False)
    after = ask(used)
    assert before == after, (
        f"{label}: remembers earlier games: after {MEMORY_GAMES} other games it chose {after} "
        f"instead of {before} at {where}turn {state.turn} of a {state.n_players}-player game, "
        f"seat {seat} (same position, same rng state); keep per-game state in start_game, "
        "nothing across games"
    )


def check_strategy(
    cls_or_spec: Any, max_examples: int = 60, games: int = 4, seed: int | None = None
) -> None:
    """Check that a strategy follows the protocol; raise AssertionError explaining any failure.

    ``cls_or_spec`` is a Strategy subclass, an instance (its parameters are reused) or a spec
    string. First one position of every phase for every player count, then
    ``max_examples`` hypothesis-drawn positions (a failure is shrunk to a simple case), then
    a memory check (the same positions after other games), then ``games`` whole self-play
    games. Deterministic unless ``seed`` is given.
    """
    label = getattr(cls_or_spec, "__name__", None) or str(cls_or_spec)
    try:
        cls, params, label = _factory(cls_or_spec)
        _checks(cls, params, label, max_examples, games, seed)
    except SystemExit as exc:  # sys.exit() in the strategy: a failure like any other
        raise AssertionError(f"{label}: called sys.exit({exc.code!r}) during the checks") from exc


def _checks(cls: type[Strategy], params: dict[str, Any], label: str, max_examples: int,
            games: int, seed: int | None) -> None:  # fmt: skip
    """``check_strategy``'s checks, in its order."""
    _check_identity(cls, params, label)
    base = 0 if seed is None else int(seed)

    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for k, phase in enumerate(PHASES):
            s = base + 1000 * n + k
            initial, state = random_position(n, s, phase)
            check_position(cls, params, initial, state, s, f"phase {phase!r} (seed {s}): ")

    @settings(
        max_examples=max(1, max_examples),
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(
        n_players=st.integers(MIN_PLAYERS, MAX_PLAYERS),
        phase=st.sampled_from(PHASES),
        game_seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
    )
    def positions(n_players: int, phase: str, game_seed: int, play_seed: int) -> None:
        initial, state = random_position(n_players, game_seed, phase)
        where = f"phase {phase!r} (position seed {game_seed}, rng seed {play_seed}): "
        check_position(cls, params, initial, state, play_seed, where)

    if seed is not None:
        positions = hypothesis_seed(int(seed))(positions)
    if max_examples > 0:
        positions()

    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        s = base + 1000 * n + 999
        initial, state = random_position(n, s, "any")
        check_memory(cls, params, initial, state, s, f"seed {s}: ")

    for g in range(games):
        n = MIN_PLAYERS + g % (MAX_PLAYERS - MIN_PLAYERS + 1)
        result = play_game(
            [cls(**params) for _ in range(n)], seed=base + g, record=False, rules=SELF_PLAY
        )
        assert result.forfeit_seat is None, (
            f"{label}: forfeited a {n}-player self-play game (seed {base + g}): {result.error}"
        )
    check_variants(cls, params, label, base)


def check_variants(cls: type[Strategy], params: dict[str, Any], label: str, base: int = 0) -> None:
    """``check_strategy``'s checks under each rule set of ``VARIANTS``: a position of every
    kind (at the player counts the rules allow, in turn) and one whole self-play game."""
    for r, rules in enumerate(VARIANTS):
        counts = rules.players
        for k, phase in enumerate(PHASES):
            n = counts[k % len(counts)]
            s = base + 100_000 + 1000 * r + k
            initial, state = random_position(n, s, phase, rules)
            where = f"rules {rules}, phase {phase!r} (seed {s}): "
            check_position(cls, params, initial, state, s, where)
        n = counts[r % len(counts)]
        result = play_game([cls(**params) for _ in range(n)], seed=base + r, record=False,
                           rules=rules.replace(turn_limit=SELF_PLAY.turn_limit))  # fmt: skip
        assert result.forfeit_seat is None, (
            f"{label}: forfeited a {n}-player self-play game under the rules {rules} "
            f"(seed {base + r}): {result.error}"
        )
