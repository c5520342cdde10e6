"""The Ligretto plug-in: rounds of ``ligretto.players`` players at one seating.

Per seat: ``score`` (the rank value, higher is better), ``stack_left``, ``centre_cards`` and
``won`` (1 for each player with the round's highest score: ties share, Interpretation L4). Per
round: ``seconds`` (game time to the nearest whole second, the length histogrammed),
``time_ms``, ``ended_by`` (seat whose stack emptied, -1 blockade, -2 stopped unfinished at a
limit, -3 forfeited: a round with no end, neither ``blockade`` nor ``unfinished``),
``blockade``, ``unfinished``, ``plays``, ``flips``, ``fails``. There is no first player:
everyone plays at once. Games of several rounds (to ``--target`` 100 points, or ``--rounds
N``) are the runner's generic matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any

import numpy as np

import ligretto
from gamekit.errors import ParameterError, shown
from ligretto.match import MAX_GAME_POINTS, OUT_OF_REACH
from ligretto.rules import (
    DEFAULT_SPEED,
    ENDED_BLOCKADE,
    ENDED_UNFINISHED,
    L4_SHARED_WINS,
    LIMIT_WORDS,
    MATCH_TARGET,
    MAX_PLAYERS,
    MAX_ROUND_MS,
    MIN_PLAYERS,
    check_players,
)
from tournaments.game import (
    BenchReport,
    GameBase,
    Replayed,
    SeatedBatch,
    Seats,
    Seeds,
    check_bench,
)

__all__ = ["LigrettoGame"]


class LigrettoGame(GameBase):
    """Ligretto between ``ligretto.players`` entrants (specs, classes or instances)."""

    name = "ligretto"
    title = "Ligretto"
    rules_core = "ligretto"
    default_baseline = "stack"
    spec_example = "cautious:patience=3,speed=1.1"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    seat_columns = ("score", "stack_left", "centre_cards", "won")
    game_columns = (
        "seconds", "time_ms", "ended_by", "blockade", "unfinished", "plays", "flips", "fails",
    )  # fmt: skip
    rank_value = "score"
    higher_is_better = True
    ahead_means = "a higher score"
    length_value = "seconds"
    length_columns = ("seconds", "plays")
    share_columns = {"blockade": "ended by blockade"}
    mean_columns = ("score", "stack_left", "centre_cards")
    parameters = {"speed": DEFAULT_SPEED}  # better to be faster or to play smarter?
    max_length = MAX_ROUND_MS // 1000
    limits = f"{' or '.join(LIMIT_WORDS)} a round"
    """What stops a round unfinished (``ligretto.rules``' two safety limits), in the reports'
    words; ``ended_by`` -2 says only that one did."""
    limit_columns = {LIMIT_WORDS[0]: ("time_ms", MAX_ROUND_MS), LIMIT_WORDS[1]: None}
    """Which one: a round stopped at the clock lasted ``MAX_ROUND_MS`` (every engine writes
    that end time), one stopped earlier reached ``MAX_ACTIONS`` (which the rows do not count).
    A round whose last allowed action fell at ``MAX_ROUND_MS`` itself reached both, and is
    said stopped at the clock: it did last the whole of it."""
    has_first_player = False
    shared_wins = L4_SHARED_WINS  # tied top scorers share a round's and a game's win
    match_score = "score"
    match_target = MATCH_TARGET
    unit = "round"
    match_unit = "game"  # a game of Ligretto: rounds to the target, or a set number of them
    match_title = "Games of rounds"  # to the target, or of --rounds N: the section says which
    match_label = "Games"
    default_seating = "rotations"
    """No turns, so no neighbour to balance (a balanced design would only replay each deal
    more often: 42 seatings with 7 different strategies, 72 with 9; none is searched for with
    10 or more); the rotations of the canonical order (by label, never the listing)."""
    min_unit_s = 2e-6
    """A lower bound on one round's single-core time (compiled built-ins, 2 players: about
    5.5e-6 s of CPU time on a 2-core machine; a test holds it below the time it measures)."""

    def check_players(self, n_players: int) -> None:
        """ValueError naming the game and the table sizes it is played by (``min_players`` to
        ``max_players``, the rules' own) when ``n_players`` is not one: the sentence its
        engine says (``ligretto.rules.check_players``, its one source), not the runner's
        generic one."""
        check_players(n_players)

    def check_target(self, target: Any) -> None:
        """ParameterError for a target no game of rounds reaches (above ``MAX_GAME_POINTS``):
        refused before a run starts, where every game would stop at the cap on rounds (the
        runner's ``tournaments.arguments.match_rules`` asks it on every way in, and refuses
        any other bad target itself)."""
        whole = isinstance(target, Integral) and not isinstance(target, bool)
        if whole and target > MAX_GAME_POINTS:
            raise ParameterError(f"{{target}} {_points(int(target))} is out of reach: "
                                 f"{OUT_OF_REACH}", "target")  # fmt: skip

    def lookup(self, spec: Any) -> Any:
        """The strategy of an entrant spec; ValueError for one that is no Ligretto player (no
        reaction-time model to draw its times from): bad input, refused before a run starts."""
        from ligretto.engine import not_a_player  # start-up: the engine loads when it plays
        from ligretto.players import resolve  # start-up: so do the players

        strategy = resolve(spec)
        why = not_a_player(strategy)
        if why is not None:
            raise ValueError(f"{strategy.label} is no Ligretto player: {why}")
        return strategy

    def plays_without_gil(self, payloads: Sequence[Any], expert: bool) -> bool:
        """True when every entrant is a policy vector and the C engine plays them: ctypes
        releases the GIL while a batch of rounds runs, so a local run plays in threads."""
        from ligretto import cengine  # start-up: the plug-in loads its engine when it plays

        if not cengine.available():
            return False
        return all(self.strategy(p).policy() is not None for p in payloads)

    def bench(self, players: int, games: int | None, api_games: int | None, repeats: int,
              seed: int) -> BenchReport:  # fmt: skip
        """Rounds of the built-in attention orders, compiled and through the Python path."""
        # start-up: the plug-in loads its engine to measure it
        from ligretto.bench import DEFAULT_API_ROUNDS, DEFAULT_ROUNDS, run_bench

        rounds = DEFAULT_ROUNDS if games is None else games
        check_bench(players, (self.min_players, self.max_players), rounds, repeats, api_games,
                    seed, seed_bits=63)  # fmt: skip
        api = DEFAULT_API_ROUNDS if api_games is None else api_games
        r = run_bench(players=players, rounds=rounds, seed=seed, api_rounds=api, repeats=repeats)
        loop = "C engine" if r.get("engine") == "c" else "numba"
        rows = [(f"compiled (round loop, {loop})", f"{r['rounds']:,} x {r['repeats']}",
                 f"{r['rounds_per_second']:,.0f}")]  # fmt: skip
        if r["api_rounds"]:
            rows.append(("Python path (State, engine)", f"{r['api_rounds']:,}",
                         f"{r['api_rounds_per_second']:,.1f}"))  # fmt: skip
        blocked = round(r["blockade_share"] * r["rounds"])  # counted: 2 of 50,000 read 0.00%
        notes = [
            f"mean round {r['mean_round_seconds']:.1f} s of game time, "
            f"{r['mean_plays']:.1f} cards played, {blocked:,} of the {r['rounds']:,} rounds "
            "ended by blockade"
        ]
        return BenchReport(r, f"Ligretto rounds, {players} players, one core",
                           ("path", "rounds", "rounds/s"), rows, notes)  # fmt: skip

    def bench_needs(self, players: int, games: int | None, api_games: int | None,
                    repeats: int) -> tuple[int, float]:  # fmt: skip
        """(bytes, seconds): the memory ``bench`` holds at its peak and a lower bound on its
        time on one core (``ligretto.bench.needs``), known before it plays, so that a command
        can refuse a size the machine cannot hold or finish."""
        # start-up: as in bench
        from ligretto.bench import DEFAULT_API_ROUNDS, DEFAULT_ROUNDS, needs

        rounds = DEFAULT_ROUNDS if games is None else games
        api = DEFAULT_API_ROUNDS if api_games is None else api_games
        return needs(players, rounds, api, repeats)

    def replay(self, seats: Seats, deal_seed: int, play_seed: int) -> Replayed:
        """One round played again from its seeds; ValueError for a forfeited one, which keeps
        no round record (the pinned format holds finished rounds only), saying the error."""
        played = super().replay(seats, deal_seed, play_seed)
        if played.error is not None:
            raise ValueError(f"the round was forfeited ({played.error}); a forfeited round keeps "
                             "no round record, so there is no timeline to show")  # fmt: skip
        return played

    def replay_lines(self, record: str) -> list[str]:
        """A recorded round, checked card by card, as a timeline."""
        try:
            rec = ligretto.RoundRecord.from_json(record)
            ligretto.replay(rec)  # checked card by card before it is shown
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad Ligretto round record: {exc}") from None
        return list(ligretto.timeline(rec))

    def play(self, seats: Seats, deal_seeds: Seeds, play_seeds: Seeds,
             record: bool = False) -> SeatedBatch:  # fmt: skip
        # start-up: the plug-in loads its players when it plays
        from ligretto.players import play_batch

        out = play_batch([self.strategy(p) for p in seats], deal_seeds, play_seeds, record=record)
        b = out.batch
        scores = b.scores.astype(np.int16)
        winners = scores == scores.max(axis=1, keepdims=True)
        forfeit = out.forfeit_seat.astype(np.int8)
        winners[forfeit >= 0] = False
        single = winners.sum(axis=1) == 1
        winner = np.where(single, winners.argmax(axis=1), -1).astype(np.int8)
        return SeatedBatch(
            first_player=None,
            winner_seat=winner,
            forfeit_seat=forfeit,
            seat_values={
                "score": scores,
                "stack_left": b.stack_left.astype(np.int8),
                "centre_cards": b.centre_cards.astype(np.int8),
                "won": winners.astype(np.int8),
            },
            game_values={
                "seconds": _whole_seconds(b.time_ms),
                "time_ms": b.time_ms.astype(np.int32),
                "ended_by": b.ended_by.astype(np.int8),
                "blockade": b.ended_by == ENDED_BLOCKADE,
                "unfinished": b.ended_by == ENDED_UNFINISHED,  # a forfeit's is ENDED_FORFEIT
                "plays": b.plays.astype(np.int16),
                "flips": b.flips.astype(np.int32),
                "fails": b.fails.astype(np.int16),
            },
            errors=out.errors,
            records=[r for r in out.records] if out.records is not None else None,
            winners=winners,
        )


def _points(target: int) -> str:
    """A target for an error line: its digits grouped by thousands ('2,561'), or in words
    where it is too long for the line (``shown``)."""
    said = shown(target, typed=False)
    return f"{target:,}" if said.isdigit() else said


def _whole_seconds(time_ms: np.ndarray) -> np.ndarray:
    """Game time in the nearest whole seconds (the length histogrammed): rounded, never cut
    down, so the report's mean and median round length are not half a second short. A round
    under half a second is 0 here (``time_ms`` keeps it): the findings say such a length
    lasted under one second (``reports.findings``), never 0 seconds."""
    return ((time_ms.astype(np.int64) + 500) // 1000).astype(np.int16)
