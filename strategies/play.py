"""Playing strategies against each other: one game, a batch of games, a batch of expert matches.

Deals always come from ``leaves.kernels`` (``board_deal`` with ``rng_new(deal_seed)``), so a
deal seed means the same hands and first player on the Python path here and on the compiled
path (``strategies.compiled.play_batch_compiled``), which ``play_batch`` uses when every seat
has a compiled policy. On the Python path each game's decisions draw from
``np.random.default_rng(play_seed)``. A strategy that raises or returns an action that is not
legal forfeits the game: it ends at once with no winner and the error is kept.

Strategies never carry information from one game to the next: ``play_batch`` (and so every
tournament) plays each game with fresh instances built from the seats' parameters
(``fresh``), and ``end_game`` receives only the player's final view and the public result
(``PublicResult``: no hands, deal or seeds).

Long because it is one job, playing strategies against each other on the Python and the
compiled path: one game, a batch at one table, a batch of expert matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from leaves import Action, GameRecord, State
from leaves.rules import EXPERT_TARGET, MAX_PLAYERS, MIN_PLAYERS, TURN_LIMIT
from leaves.seeding import match_deal_seeds, match_play_seeds

from .base import Strategy
from .deadline import Deadline, DecisionTimeout, bounded, check_timeout, run_bounded
from .registry import get

_U64 = 0xFFFFFFFFFFFFFFFF


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


@dataclass(frozen=True)
class GameResult(_Outcome):
    """Outcome of one game played by ``play_game`` (the caller's full record of it)."""

    labels: tuple[str, ...]
    deal_seed: int
    play_seed: int
    first_player: int
    winner: int | None
    cards_left: tuple[int, ...]
    turns: int
    rounds: int
    unfinished: bool
    forfeit_seat: int | None = None
    error: str | None = None
    final_state: State | None = field(default=None, repr=False, compare=False)
    record: GameRecord | None = field(default=None, repr=False, compare=False)

    def public(self) -> PublicResult:
        """The part of the result every player may know (what ``end_game`` receives)."""
        return PublicResult(
            labels=self.labels,
            first_player=self.first_player,
            winner=self.winner,
            cards_left=self.cards_left,
            turns=self.turns,
            rounds=self.rounds,
            unfinished=self.unfinished,
            forfeit_seat=self.forfeit_seat,
        )


def fresh(strategy: Strategy) -> Strategy:
    """A new instance with the same parameters: the state every game starts from.

    Anything a strategy stores on itself during a game is dropped before the next one, so a
    decision never depends on earlier games, on how games are chunked or on ``--jobs``. Keep
    expensive immutable set-up (tables, models) in class-level caches keyed by parameters.
    """
    return type(strategy)(**strategy.params)


def _seat_strategies(players: Any, n_players: int | None) -> list[Strategy]:
    """One Strategy per seat; a repeated instance is cloned so seats never share game state."""
    if isinstance(players, str | Strategy) or (
        isinstance(players, type) and issubclass(players, Strategy)
    ):
        if n_players is None:
            raise ValueError("give n_players (3..6) when one strategy plays every seat")
        players = [players] * int(n_players)
    players = list(players)
    if n_players is not None and len(players) != n_players:
        raise ValueError(f"{len(players)} strategies given for n_players={n_players}")
    if not (MIN_PLAYERS <= len(players) <= MAX_PLAYERS):
        raise ValueError(
            f"13 Leaves is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"got {len(players)} strategies"
        )
    out: list[Strategy] = []
    seen: set[int] = set()
    for p in players:
        s = get(p)
        if id(s) in seen:
            s = type(s)(**s.params)
        seen.add(id(s))
        out.append(s)
    return out


def _seed_u64(seed: Any, what: str) -> int:
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be an integer, got {seed!r}") from None
    if not (0 <= value <= _U64):
        raise ValueError(f"{what} must be 0..2**64-1, got {value}")
    return value


def deal_state(n_players: int, deal_seed: int, turn_limit: int = TURN_LIMIT) -> State:
    """The dealt state for ``deal_seed`` (same hands and first player as the compiled path)."""
    from leaves.kernels import deal_board, state_from_board

    board = deal_board(n_players, _seed_u64(deal_seed, "deal seed"), -1, turn_limit=turn_limit)
    return state_from_board(board)


def play_game(
    players: Any,
    seed: int | None = None,
    n_players: int | None = None,
    turn_limit: int = TURN_LIMIT,
    record: bool = True,
    *,
    deal_seed: int | None = None,
    play_seed: int | None = None,
    decision_timeout: float | None = None,
) -> GameResult:
    """Play one game on the Python path and return its ``GameResult``.

    ``players`` is one strategy (spec, class or instance) per seat, or a single one with
    ``n_players``. ``seed`` derives both the deal seed and the play seed; ``deal_seed`` and
    ``play_seed`` set them directly (as ``play_batch`` does for game ``i``).
    ``decision_timeout`` (seconds) forfeits a seat whose decision takes longer.
    """
    timeout = check_timeout(decision_timeout)
    strats = _seat_strategies(players, n_players)
    if deal_seed is None or play_seed is None:
        words = np.random.SeedSequence(seed).generate_state(2, np.uint64)
        deal_seed = int(words[0]) if deal_seed is None else deal_seed
        play_seed = int(words[1]) if play_seed is None else play_seed
    return run_bounded(
        timeout,
        _play_one_bounded,
        timeout,
        strats,
        _seed_u64(deal_seed, "deal seed"),
        _seed_u64(play_seed, "play seed"),
        _check_turn_limit(turn_limit),
        record,
    )


def _check_turn_limit(turn_limit: Any) -> int:
    if not isinstance(turn_limit, int | np.integer) or int(turn_limit) < 1:
        raise ValueError(f"turn_limit must be a positive integer, got {turn_limit!r}")
    return int(turn_limit)


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


def _error(seat: int, strat: Strategy, exc: BaseException | str) -> ForfeitError:
    if isinstance(exc, str):
        return ForfeitError(f"seat {seat} ({strat.label}): {exc}")
    import traceback

    text = f"{type(exc).__name__}: {exc}".splitlines()[0]  # the rest is in the traceback
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return ForfeitError(f"seat {seat} ({strat.label}): {text}", tb)


_UNBOUNDED = Deadline(None)


def _play_one_bounded(timeout: float | None, *args: Any) -> GameResult:
    with bounded(timeout) as deadline:
        return _play_one(*args, deadline)


def _play_one(
    strats: list[Strategy],
    deal_seed: int,
    play_seed: int,
    turn_limit: int,
    record: bool,
    deadline: Deadline = _UNBOUNDED,
) -> GameResult:
    n = len(strats)
    initial = deal_state(n, deal_seed, turn_limit)
    rng = np.random.default_rng(play_seed)
    labels = tuple(s.label for s in strats)
    state = initial
    forfeit: int | None = None
    error: str | None = None
    for seat, s in enumerate(strats):
        try:
            with deadline:
                s.start_game(state.view(seat), rng)
        except DecisionTimeout:
            forfeit, error = seat, _error(seat, s, deadline.message("start_game"))
            break
        except Exception as exc:
            forfeit, error = seat, _error(seat, s, exc)
            break
    while forfeit is None and not state.is_terminal:
        seat = state.current_player
        s = strats[seat]
        legal = state.legal_actions()
        try:
            with deadline:
                action = s.choose(state.view(seat), legal, rng)
        except DecisionTimeout:
            what = f"choose at turn {state.turn}"
            forfeit, error = seat, _error(seat, s, deadline.message(what))
            break
        except Exception as exc:
            forfeit, error = seat, _error(seat, s, exc)
            break
        if not isinstance(action, Action) or action not in legal:
            shown = str(action) if isinstance(action, Action) else repr(action)
            forfeit = seat
            error = _error(seat, s, f"IllegalActionError: returned {shown}, not a legal action")
            break
        state = state.apply(action)

    def result(forfeit_seat: int | None, err: str | None) -> GameResult:
        rec = None
        if record:
            rec = GameRecord.from_states(
                initial, state, seed=deal_seed, strategies=labels,
                forfeit_seat=forfeit_seat, error=err,
            )  # fmt: skip
        return GameResult(
            labels=labels,
            deal_seed=deal_seed,
            play_seed=play_seed,
            first_player=initial.current_player,
            winner=None if forfeit_seat is not None else state.winner,
            cards_left=state.hand_sizes,
            turns=state.turn,
            rounds=state.round,
            unfinished=forfeit_seat is None and state.unfinished,
            forfeit_seat=forfeit_seat,
            error=err,
            final_state=state,
            record=rec,
        )

    out = result(forfeit, error)
    for seat, s in enumerate(strats):
        try:
            with deadline:
                s.end_game(state.view(seat), out.public())
        except DecisionTimeout:
            if out.forfeit_seat is None:
                out = result(seat, _error(seat, s, deadline.message("end_game")))
        except Exception as exc:
            if out.forfeit_seat is None:
                out = result(seat, _error(seat, s, exc))
    return out


# ---------------------------------------------------------------------- batches
@dataclass
class BatchResult:
    """Outcomes of G games at one table (arrays indexed by game, then seat)."""

    first_player: np.ndarray  # int8 (G,)
    cards_left: np.ndarray  # int16 (G, n)
    winner_seat: np.ndarray  # int8 (G,), -1: no winner (unfinished or forfeited)
    turns: np.ndarray  # int32 (G,)
    rounds: np.ndarray  # int32 (G,)
    unfinished: np.ndarray  # bool (G,): turn limit reached (E1)
    forfeit_seat: np.ndarray  # int8 (G,), -1: none
    errors: list[str | None]
    records: list[GameRecord] | None = None

    def __len__(self) -> int:
        return len(self.winner_seat)

    @property
    def n_players(self) -> int:
        return int(self.cards_left.shape[1])


def _empty_batch(g: int, n: int) -> BatchResult:
    return BatchResult(
        first_player=np.zeros(g, np.int8),
        cards_left=np.zeros((g, n), np.int16),
        winner_seat=np.full(g, -1, np.int8),
        turns=np.zeros(g, np.int32),
        rounds=np.zeros(g, np.int32),
        unfinished=np.zeros(g, bool),
        forfeit_seat=np.full(g, -1, np.int8),
        errors=[None] * g,
        records=None,
    )


def _seed_array(seeds: Any, what: str) -> np.ndarray:
    arr = np.asarray(seeds)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a 1-d array of seeds, got shape {arr.shape}")
    if arr.size and arr.dtype != np.uint64:
        if not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"{what} must hold integers, got dtype {arr.dtype}")
        if arr.min() < 0:
            raise ValueError(f"{what} must be non-negative (uint64 seeds)")
    return arr.astype(np.uint64)


def play_batch(
    table: Sequence[Strategy | str],
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int = TURN_LIMIT,
    record: bool = False,
    decision_timeout: float | None = None,
) -> BatchResult:
    """Play game ``i`` from ``deal_seeds[i]``/``play_seeds[i]`` for every ``i`` at one table.

    Runs the compiled loop when every seat has a compiled policy (``Strategy.compiled()`` is
    not None); otherwise plays with ``choose``, each game with fresh instances (``fresh``),
    so the given instances are never changed and games never share state. ``record=True`` adds
    a ``GameRecord`` per game on either path. ``decision_timeout`` (seconds; None or 0: none)
    forfeits a Python seat whose decision takes longer (compiled policies cannot hang).
    Deterministic
    strategies give the same games on both paths; stochastic ones draw from different
    generators (xoshiro vs numpy), so their individual games differ while the statistics agree.
    """
    strats = _seat_strategies(table, None)
    deal = _seed_array(deal_seeds, "deal_seeds")
    play = _seed_array(play_seeds, "play_seeds")
    if deal.shape != play.shape:
        raise ValueError(f"deal_seeds and play_seeds differ in length: {len(deal)} != {len(play)}")
    limit = _check_turn_limit(turn_limit)
    timeout = check_timeout(decision_timeout)
    compiled = [s.compiled() for s in strats]
    if all(c is not None for c in compiled):
        labels = tuple(s.label for s in strats)
        return _play_compiled(compiled, labels, deal, play, limit, record)
    return run_bounded(timeout, _play_python, strats, deal, play, limit, record, timeout)


def _play_python(
    strats: list[Strategy],
    deal: np.ndarray,
    play: np.ndarray,
    turn_limit: int,
    record: bool,
    timeout: float | None = None,
) -> BatchResult:
    with bounded(timeout) as deadline:
        return _play_python_games(strats, deal, play, turn_limit, record, deadline)


def _play_python_games(
    strats: list[Strategy],
    deal: np.ndarray,
    play: np.ndarray,
    turn_limit: int,
    record: bool,
    deadline: Deadline,
) -> BatchResult:
    g, n = len(deal), len(strats)
    out = _empty_batch(g, n)
    records: list[GameRecord] = []
    for i in range(g):
        seats = [fresh(s) for s in strats]  # no state crosses from one game to the next
        r = _play_one(seats, int(deal[i]), int(play[i]), turn_limit, record, deadline)
        out.first_player[i] = r.first_player
        out.cards_left[i] = r.cards_left
        out.winner_seat[i] = -1 if r.winner is None else r.winner
        out.turns[i] = r.turns
        out.rounds[i] = r.rounds
        out.unfinished[i] = r.unfinished
        out.forfeit_seat[i] = -1 if r.forfeit_seat is None else r.forfeit_seat
        out.errors[i] = r.error
        if record and r.record is not None:
            records.append(r.record)
    out.records = records if record else None
    return out


def play_seatings(
    tables: Sequence[Sequence[Strategy | str]],
    seating: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int = TURN_LIMIT,
    decision_timeout: float | None = None,
) -> BatchResult:
    """``play_batch`` for games at several seatings: game ``i`` at table ``tables[seating[i]]``.

    Each game is the game ``play_batch(tables[seating[i]], ...)`` plays from the same seeds;
    when every seat of every table is compiled they are all played in one compiled call (a
    tournament chunk's seatings at once), else table by table.
    """
    seats = [_seat_strategies(t, None) for t in tables]
    sel = np.asarray(seating, dtype=np.int64)
    deal = _seed_array(deal_seeds, "deal_seeds")
    play = _seed_array(play_seeds, "play_seeds")
    if not (sel.shape == deal.shape == play.shape):
        raise ValueError("seating, deal_seeds and play_seeds must have one entry per game")
    if len({len(t) for t in seats}) != 1:
        raise ValueError("every table of play_seatings must have the same number of seats")
    if sel.size and (sel.min() < 0 or sel.max() >= len(seats)):
        raise ValueError(f"seating indices must be 0..{len(seats) - 1}")
    limit = _check_turn_limit(turn_limit)
    compiled = [[s.compiled() for s in t] for t in seats]
    if all(c is not None for t in compiled for c in t):
        return _play_compiled(compiled, (), deal, play, limit, False, sel)
    g, n = len(deal), len(seats[0])
    out = _empty_batch(g, n)
    for r, table in enumerate(seats):
        pos = np.flatnonzero(sel == r)
        if pos.size == 0:
            continue
        res = play_batch(table, deal[pos], play[pos], limit, False, decision_timeout)
        for name in ("first_player", "cards_left", "winner_seat", "turns", "rounds"):
            getattr(out, name)[pos] = getattr(res, name)
        out.unfinished[pos] = res.unfinished
        out.forfeit_seat[pos] = res.forfeit_seat
        for i, e in zip(pos.tolist(), res.errors, strict=True):
            out.errors[i] = e
    return out


def _play_compiled(
    compiled: list[tuple[int, np.ndarray]] | list[list[tuple[int, np.ndarray]]],
    labels: tuple[str, ...],
    deal: np.ndarray,
    play: np.ndarray,
    turn_limit: int,
    record: bool,
    seating: np.ndarray | None = None,
) -> BatchResult:
    """Compiled games at one table (``compiled``: (kind, params) per seat) or, with
    ``seating``, at several (``compiled``: one such list per table)."""
    from . import compiled as compiled_mod

    tables = compiled if seating is not None else [compiled]
    n = len(tables[0])
    width = max(
        [getattr(compiled_mod, "N_PARAMS", 0)]
        + [np.atleast_1d(p).size for t in tables for _, p in t]
    )
    kinds = np.array([[int(k) for k, _ in t] for t in tables], dtype=np.int64)
    params = np.zeros((len(tables), n, width), dtype=np.float64)
    for r, t in enumerate(tables):
        for seat, (_, p) in enumerate(t):
            p = np.atleast_1d(np.asarray(p, dtype=np.float64))
            params[r, seat, : p.size] = p
    if record:
        res = compiled_mod.play_batch_compiled_records(
            kinds, params, deal, play, turn_limit, seating
        )
    else:
        res = compiled_mod.play_batch_compiled(kinds, params, deal, play, turn_limit, seating)
    first_player, cards_left, winner_seat, turns, rounds, unfinished = res[:6]
    g = len(deal)
    out = BatchResult(
        first_player=np.asarray(first_player, np.int8),
        cards_left=np.asarray(cards_left, np.int16).reshape(g, n),
        winner_seat=np.asarray(winner_seat, np.int8),
        turns=np.asarray(turns, np.int32),
        rounds=np.asarray(rounds, np.int32),
        unfinished=np.asarray(unfinished, bool),
        forfeit_seat=np.full(g, -1, np.int8),
        errors=[None] * g,
        records=None,
    )
    if record:
        actions = res[6]
        out.records = [
            _record_from_arrays(
                out, i, int(deal[i]), deal_state(n, int(deal[i]), turn_limit), actions[i], labels
            )
            for i in range(g)
        ]
    return out


def _record_from_arrays(
    out: BatchResult,
    i: int,
    seed: int,
    initial: State,
    actions: np.ndarray,
    labels: tuple[str, ...],
) -> GameRecord:
    turns = int(out.turns[i])
    winner = int(out.winner_seat[i])
    return GameRecord(
        hands=[list(h) for h in initial.hands],
        first_player=initial.current_player,
        actions=[int(a) for a in actions[:turns]],
        winner=None if winner < 0 else winner,
        turns=turns,
        rounds=int(out.rounds[i]),
        seed=int(seed),
        strategies=list(labels),
        turn_limit=initial.turn_limit,
        unfinished=bool(out.unfinished[i]),
    )


# ---------------------------------------------------------------------- expert matches
@dataclass
class MatchBatchResult:
    """Outcomes of M expert matches at one table, and of every game they played.

    Games are ordered by match, then by game number: ``game_match[j]`` and ``game_index[j]``
    say which match and which of its games row ``j`` of the per-game arrays is.
    """

    games: np.ndarray  # int16 (M,): games played in each match
    totals: np.ndarray  # int16 (M, n): expert points
    match_winners: np.ndarray  # bool (M, n): lowest total (ties share, X1)
    game_match: np.ndarray  # int32 (Gtot,)
    first_player: np.ndarray
    cards_left: np.ndarray
    winner_seat: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    unfinished: np.ndarray
    forfeit_seat: np.ndarray
    errors: list[str | None]
    records: list[GameRecord] | None = None
    game_index: np.ndarray | None = None  # int16 (Gtot,): game number within its match
    deal_seeds: np.ndarray | None = None  # uint64 (Gtot,)
    play_seeds: np.ndarray | None = None  # uint64 (Gtot,)

    def __len__(self) -> int:
        return len(self.games)

    @property
    def n_players(self) -> int:
        return int(self.totals.shape[1])

    @property
    def scores(self) -> np.ndarray:
        """Expert points of every game (G, n): cards left (the winner has none)."""
        return self.cards_left


def play_match_batch(
    table: Sequence[Strategy | str],
    match_seeds: np.ndarray,
    play_seeds: np.ndarray,
    target: int = EXPERT_TARGET,
    turn_limit: int = TURN_LIMIT,
    record: bool = False,
    decision_timeout: float | None = None,
) -> MatchBatchResult:
    """Play one expert match per seed: games until some total reaches ``target``.

    After each game every seat scores its cards left (the winner has none, so scores 0; an
    unfinished or forfeited game scores everyone their cards). The lowest total wins the
    match; tied seats share the win. Game ``i`` of match ``m`` is dealt from
    ``match_deal_seeds(match_seeds[m], i)`` and played from ``match_play_seeds(play_seeds[m], i)``,
    so ``play_batch`` (or ``play_game``) with those two seeds replays it exactly.
    Games are played in waves (game ``i`` of every unfinished match in one ``play_batch``).
    """
    strats = _seat_strategies(table, None)
    mseeds = _seed_array(match_seeds, "match_seeds")
    pseeds = _seed_array(play_seeds, "play_seeds")
    if mseeds.shape != pseeds.shape:
        raise ValueError(
            f"match_seeds and play_seeds differ in length: {len(mseeds)} != {len(pseeds)}"
        )
    if not isinstance(target, int | np.integer) or target < 1:
        raise ValueError(f"target must be a positive number of points, got {target!r}")
    m, n = len(mseeds), len(strats)
    totals = np.zeros((m, n), np.int64)
    games = np.zeros(m, np.int64)
    active = np.arange(m)
    waves: list[tuple[np.ndarray, int, BatchResult, np.ndarray, np.ndarray]] = []
    wave = 0
    while active.size:
        deal = match_deal_seeds(mseeds[active], wave)
        play = match_play_seeds(pseeds[active], wave)
        res = play_batch(
            strats, deal, play, turn_limit=turn_limit, record=record,
            decision_timeout=decision_timeout,
        )  # fmt: skip
        totals[active] += res.cards_left
        games[active] += 1
        waves.append((active, wave, res, deal, play))
        active = active[totals[active].max(axis=1) < target]
        wave += 1
    low = totals.min(axis=1, keepdims=True)
    return _collect(waves, games, totals, totals == low, record, n)


def _collect(waves, games, totals, winners, record, n) -> MatchBatchResult:
    if not waves:
        waves = [(np.zeros(0, np.int64), 0, _empty_batch(0, n), np.zeros(0, np.uint64),
                  np.zeros(0, np.uint64))]  # fmt: skip
        if record:
            waves[0][2].records = []
    match = np.concatenate([w[0] for w in waves]).astype(np.int32)
    index = np.concatenate([np.full(len(w[0]), w[1]) for w in waves]).astype(np.int16)
    order = np.lexsort((index, match))

    def cat(attr: str) -> np.ndarray:
        return np.concatenate([getattr(w[2], attr) for w in waves])[order]

    errors_all = [e for w in waves for e in w[2].errors]
    records_all = [r for w in waves for r in (w[2].records or [])] if record else None
    return MatchBatchResult(
        games=games.astype(np.int16),
        totals=totals.astype(np.int16),
        match_winners=winners,
        game_match=match[order],
        first_player=cat("first_player"),
        cards_left=cat("cards_left").reshape(-1, n),
        winner_seat=cat("winner_seat"),
        turns=cat("turns"),
        rounds=cat("rounds"),
        unfinished=cat("unfinished"),
        forfeit_seat=cat("forfeit_seat"),
        errors=[errors_all[j] for j in order],
        records=None if records_all is None else [records_all[j] for j in order],
        game_index=index[order],
        deal_seeds=np.concatenate([w[3] for w in waves])[order],
        play_seeds=np.concatenate([w[4] for w in waves])[order],
    )
