"""Playing strategies against each other: one game, and what every game is played with.

Deals always come from ``leaves.kernels`` (``board_deal`` with ``rng_new(deal_seed)``), so a
deal seed means the same hands and first player on the Python path here and on the compiled
path (``leaves.players.compiled.play_batch_compiled``), which ``play_batch`` uses when every seat
has a compiled policy. On the Python path each game's decisions draw from
``np.random.default_rng(play_seed)``. A strategy that raises or returns an action that is not
legal forfeits the game: it ends at once with no winner and the error is kept.

Strategies never carry information from one game to the next: ``play_batch`` (and so every
tournament) plays each game with fresh instances built from the seats' parameters
(``fresh``), and ``end_game`` receives only the player's final view and the public result
(``PublicResult``: no hands, deal or seeds).

Batches of games at one table are ``leaves.players.batch``, expert matches
``leaves.players.matches``.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Set
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from gamekit.seed_check import check_seed as kernel_seed
from leaves import Action, GameRecord, State
from leaves.actions import shown
from leaves.deal import check_seed
from leaves.players.base import Strategy
from leaves.ruleset import DEFAULT_RULES, Rules, counts_text
from strategies.deadline import Deadline, DecisionTimeout, bounded, check_timeout, run_bounded
from strategies.registry import get, refusal
from tournaments.checks import flag, integer, optional_integer, spec_list


# ---------------------------------------------------------------------- one game
class _Outcome:
    """What every result of a game says the same way: seats and expert points."""

    labels: tuple[str, ...]
    cards_left: tuple[int, ...]

    @property
    def n_players(self) -> int:
        return len(self.labels)

    @property
    def scores(self) -> tuple[int, ...]:
        """Expert points: cards left in hand (the winner has none; E1/forfeit: everyone's)."""
        return self.cards_left


@dataclass(frozen=True)
class PublicResult(_Outcome):
    """What every player may know when a game ends: passed to ``Strategy.end_game``.

    Hand sizes are public at every moment; hands, the deal and the seeds are not.
    """

    labels: tuple[str, ...]
    first_player: int
    winner: int | None
    cards_left: tuple[int, ...]
    turns: int
    rounds: int
    unfinished: bool
    forfeit_seat: int | None = None


@dataclass(frozen=True, kw_only=True)
class GameResult(PublicResult):
    """Outcome of one game played by ``play_game`` (the caller's full record of it): the
    public result, and the seeds, error, final state and record that only the caller sees."""

    deal_seed: int
    play_seed: int
    error: str | None = None
    final_state: State | None = field(default=None, repr=False, compare=False)
    record: GameRecord | None = field(default=None, repr=False, compare=False)

    def public(self) -> PublicResult:
        """The part of the result every player may know (what ``end_game`` receives)."""
        return PublicResult(**{f.name: getattr(self, f.name) for f in fields(PublicResult)})


def fresh(strategy: Strategy) -> Strategy:
    """A new instance with the same parameters: the state every game starts from.

    Anything a strategy stores on itself during a game is dropped before the next one, so a
    decision never depends on earlier games, on how games are chunked or on ``--jobs``. Keep
    expensive immutable set-up (tables, models) in class-level caches keyed by parameters.
    A constructor that fails here (it built the first instance) is a ValueError naming it.
    """
    if not isinstance(strategy, Strategy):
        raise TypeError(f"fresh takes a strategy instance, got {shown(strategy)}")
    try:
        return type(strategy)(**strategy.params)
    except Exception as exc:  # noqa: BLE001 - the user's constructor: one line naming it
        text = error_text(exc)
        raise ValueError(f"cannot build a new {strategy.label} for the next game: {text}") from exc


def in_seat_order(value: Any, name: str) -> list[Any]:
    """The strategies ``value`` lists, one a seat (``spec_list``: TypeError naming ``name``
    for text or what lists nothing), refusing a set: its order follows its items' hashes,
    which change from process to process, so the same call would seat them otherwise."""
    if isinstance(value, Set):
        raise TypeError(
            f"{name} must be a list of strategies or specs in seat order (a set has none), "
            f"got {shown(value)}"
        )
    return spec_list(value, name)


def playing(strategy: Strategy) -> Strategy:
    """``strategy``; ValueError (one line) for one that cannot play (``cannot_play``: neither a
    ``choose`` nor a compiled policy), refused before a game, each of which it would forfeit.
    Every way into a game or a run asks here (``leaves.plugin.LeavesGame.lookup`` too)."""
    refused = refusal(strategy, strategy.label)
    if refused is not None:
        raise ValueError(refused)
    return strategy


def _seat_strategies(
    players: Any, n_players: int | None, rules: Rules = DEFAULT_RULES
) -> list[Strategy]:
    """One Strategy per seat (as many as ``rules`` allow), each one that plays (``playing``);
    a repeated instance is cloned so seats never share game state."""
    n_players = optional_integer(n_players, "n_players", "a whole number of players")
    if n_players is not None:
        rules.hand_size_for(n_players)  # raises, naming the counts the rules allow
    if isinstance(players, str | Strategy) or (
        isinstance(players, type) and issubclass(players, Strategy)
    ):
        if n_players is None:
            counts = counts_text(rules.players)
            raise ValueError(f"give n_players ({counts}) when one strategy plays every seat")
        players = [players] * n_players
    if isinstance(players, bytes) or not isinstance(players, Iterable):
        raise TypeError(
            "players must be a strategy (a name, spec, class or instance) or a list of them "
            f"in seat order, got {shown(players)}"
        )
    players = in_seat_order(players, "players")
    if n_players is not None and len(players) != n_players:
        raise ValueError(f"{len(players)} strategies given for n_players={n_players}")
    if len(players) not in rules.players:
        rules.hand_size_for(len(players))  # raises, naming the counts the rules allow
    out: list[Strategy] = []
    seen: set[int] = set()
    for p in players:
        s = playing(get(p))
        if id(s) in seen:
            s = type(s)(**s.params)
        seen.add(id(s))
        out.append(s)
    return out


def deal_state(n_players: int, deal_seed: int, rules: Any = None) -> State:
    """The dealt state for ``deal_seed`` under ``rules`` (any form ``Rules.of`` reads; the
    same hands and first player as the compiled path)."""
    # start-up: the deal's engine loads with the first deal
    from leaves.board import state_from_board
    from leaves.deal_kernels import setup_for  # start-up: as above

    from .compiled import engine  # start-up: as above

    n_players = integer(n_players, "n_players", "a whole number of players")
    rules = Rules.of(rules)
    seed = kernel_seed(deal_seed, "deal seed")
    if engine.available():  # the C engine's deal: no compile
        board = engine.deal(setup_for(rules, n_players), seed)
    else:
        from leaves.kernels import deal_board  # start-up: as above

        engine.ENGINE.note_fallback(deal_cold)  # said once where numba compiles, before it does
        board = deal_board(n_players, seed, -1, rules=rules)
    return state_from_board(board, rules)


def deal_cold() -> bool | None:
    """Whether numba's deal (``leaves.kernels.deal_board``'s kernels) compiles at its first
    call in this process (None: cannot tell): False once its cache holds them."""
    from gamekit.cbuild import any_cold  # start-up: asked only where numba deals
    from gamekit.jit import needs_compile  # start-up: as above
    from leaves.deal_kernels import board_new, deal_setup, rng_new  # start-up: as above

    return any_cold(needs_compile(k) for k in (board_new, deal_setup, rng_new))


def play_game(
    players: Any,
    seed: int | None = None,
    n_players: int | None = None,
    rules: Any = None,
    record: bool = True,
    *,
    deal_seed: int | None = None,
    play_seed: int | None = None,
    decision_timeout: float | None = None,
) -> GameResult:
    """Play one game on the Python path and return its ``GameResult``.

    ``players`` is one strategy (spec, class or instance) per seat, or a single one with
    ``n_players``. The instances given play (their hooks run on them; a repeated one is
    cloned), so one that keeps state on itself may play a seed differently in a later call:
    ``play_batch`` plays every game with fresh instances. ``seed`` derives both the deal seed
    and the play seed; ``deal_seed`` and ``play_seed`` set them directly instead (as
    ``play_batch`` does for game ``i``; one left out is drawn afresh), never with ``seed``.
    ``decision_timeout`` (seconds) forfeits a seat whose decision takes longer. The game is
    played under ``rules`` (any form ``Rules.of`` reads, e.g. ``"turn_limit=50"``; today's
    by default).
    """
    timeout = check_timeout(decision_timeout, "decision_timeout")
    record = flag(record, "record")
    rules = Rules.of(rules)
    strats = _seat_strategies(players, n_players, rules)
    if seed is not None and (deal_seed is not None or play_seed is not None):
        raise ValueError("give seed, or deal_seed and play_seed, not both: seed derives the two")
    if deal_seed is None or play_seed is None:
        seed = check_seed(seed, "seed", numpy_forms=False)
        words = np.random.SeedSequence(seed).generate_state(2, np.uint64)
        deal_seed = int(words[0]) if deal_seed is None else deal_seed
        play_seed = int(words[1]) if play_seed is None else play_seed
    return run_bounded(
        timeout,
        _play_one_bounded,
        timeout,
        strats,
        kernel_seed(deal_seed, "deal seed"),
        kernel_seed(play_seed, "play seed"),
        rules,
        record,
    )


class ForfeitError(str):
    """A forfeit's one-line error, carrying the strategy's traceback as ``.traceback`` (None
    for a timeout or an illegal answer): a run's rows keep the line, its forfeits.json the
    traceback too, so a failure far into a long run can be found without replaying it."""

    traceback: str | None

    def __new__(cls, text: str, traceback: str | None = None) -> ForfeitError:
        self = super().__new__(cls, text)
        self.traceback = traceback
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # workers and the timeout helper pickle it
        return (ForfeitError, (str(self), self.traceback))


_ERROR_CHARS = 200
"""A forfeit's line keeps this much of the error's first line (the traceback keeps it all)."""

FAILURES = (Exception, SystemExit)
"""What a strategy's call may raise and forfeit by: any error, and ``sys.exit()`` (which would
otherwise end the whole run, silently). Ctrl-C still stops the run."""


def error_text(exc: BaseException) -> str:
    """How a forfeit says a strategy's error: ``Type: first line``, cut short (the traceback
    keeps it all), for any exception, one whose ``str()`` raises too."""
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - the strategy's own exception class is broken
        message = "(its message cannot be shown: str() raised)"
    lines = message.splitlines()
    text = f"{type(exc).__name__}: {lines[0]}" if lines and lines[0] else type(exc).__name__
    return text if len(text) <= _ERROR_CHARS else text[: _ERROR_CHARS - 3] + "..."


def _error(seat: int, strat: Strategy, exc: BaseException | str) -> ForfeitError:
    if isinstance(exc, str):
        return ForfeitError(f"seat {seat} ({strat.label}): {exc}")
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return ForfeitError(f"seat {seat} ({strat.label}): {error_text(exc)}", tb)


def illegal_answer(action: object) -> str:
    """The forfeit's text for an answer that is not a legal action (safe for any object)."""
    if isinstance(action, Action):
        return f"IllegalActionError: returned {action}, not a legal action"
    try:
        what = shown(action)
    except Exception:  # noqa: BLE001 - an object whose repr raises
        what = f"a {type(action).__name__}"
    return (f"IllegalActionError: returned {what}, not a legal action (choose must return "
            "an Action, one of legal)")  # fmt: skip


_UNBOUNDED = Deadline(None)


def _play_one_bounded(timeout: float | None, *args: Any) -> GameResult:
    with bounded(timeout) as deadline:
        return _play_one(*args, deadline)


Forfeit = tuple[int, ForfeitError]
"""The seat that forfeits a game, and why."""


def _play_one(
    strats: list[Strategy],
    deal_seed: int,
    play_seed: int,
    rules: Rules,
    record: bool,
    deadline: Deadline = _UNBOUNDED,
) -> GameResult:
    """One game under ``rules``: every seat starts it, plays its turns, and hears how it
    ended; the first seat that fails (raises, runs past ``deadline`` or answers an illegal
    action) forfeits."""
    initial = deal_state(len(strats), deal_seed, rules=rules)
    labels = tuple(s.label for s in strats)
    game = _Game(strats, labels, initial, deal_seed, play_seed, record)
    rng = np.random.default_rng(play_seed)
    state, forfeit = initial, _start(strats, initial, rng, deadline)
    if forfeit is None:
        state, forfeit = _turns(strats, initial, rng, deadline)
    return _end(game, state, game.result(state, forfeit), deadline)


@dataclass(frozen=True)
class _Game:
    """A game in play: what its result holds besides the state it ended in."""

    strats: list[Strategy]
    labels: tuple[str, ...]
    initial: State
    deal_seed: int
    play_seed: int
    record: bool

    def result(self, state: State, forfeit: Forfeit | None) -> GameResult:
        """The result of the game ended in ``state`` (``forfeit``: by that seat's failure)."""
        seat, err = forfeit if forfeit is not None else (None, None)
        rec = None
        if self.record:
            rec = GameRecord.from_states(
                self.initial, state, seed=self.deal_seed, strategies=self.labels,
                forfeit_seat=seat, error=err,
            )  # fmt: skip
        return GameResult(
            labels=self.labels,
            deal_seed=self.deal_seed,
            play_seed=self.play_seed,
            first_player=self.initial.current_player,
            winner=None if seat is not None else state.winner,
            cards_left=state.hand_sizes,
            turns=state.turn,
            rounds=state.round,
            unfinished=seat is None and state.unfinished,
            forfeit_seat=seat,
            error=err,
            final_state=state,
            record=rec,
        )


def _start(strats: list[Strategy], state: State, rng: np.random.Generator,
           deadline: Deadline) -> Forfeit | None:  # fmt: skip
    """Every seat's ``start_game``; the first that fails forfeits."""
    for seat, s in enumerate(strats):
        try:
            with deadline:
                s.start_game(state.view(seat), rng)
        except DecisionTimeout:
            return seat, _error(seat, s, deadline.message("start_game"))
        except FAILURES as exc:
            return seat, _error(seat, s, exc)
    return None


def _turns(strats: list[Strategy], state: State, rng: np.random.Generator,
           deadline: Deadline) -> tuple[State, Forfeit | None]:  # fmt: skip
    """The game's turns from ``state``: where it ended, and who forfeited it (if anyone)."""
    while not state.is_terminal:
        seat = state.current_player
        s = strats[seat]
        legal = state.legal_actions()
        try:
            with deadline:
                action = s.choose(state.view(seat), legal, rng)
        except DecisionTimeout:
            return state, (seat, _error(seat, s, deadline.message(f"choose at turn {state.turn}")))
        except FAILURES as exc:
            return state, (seat, _error(seat, s, exc))
        if not isinstance(action, Action) or action not in legal:
            return state, (seat, _error(seat, s, illegal_answer(action)))
        state = state.apply(action)
    return state, None


def _end(game: _Game, state: State, out: GameResult, deadline: Deadline) -> GameResult:
    """Every seat's ``end_game``: one that fails forfeits a game nobody forfeited yet."""
    for seat, s in enumerate(game.strats):
        try:
            with deadline:
                s.end_game(state.view(seat), out.public())
        except DecisionTimeout:
            if out.forfeit_seat is None:
                out = game.result(state, (seat, _error(seat, s, deadline.message("end_game"))))
        except FAILURES as exc:
            if out.forfeit_seat is None:
                out = game.result(state, (seat, _error(seat, s, exc)))
    return out
