"""The 13 Leaves plug-in (entry point ``leaves.games: leaves``): maps the runner's seatings and
seeds to ``strategies.play_batch``.

Part of the game's package on top of the shared layers (``strategies``, ``tournaments``), as a
third party's plug-in is; ``import leaves`` does not load it. Per-seat value: ``cards_left``
(lower finishes ahead; the winner has 0). Per-game values: ``turns`` (the length histogrammed),
``rounds``, ``unfinished``. Expert scores are the cards left of every game. A plain-Python
strategy's decision is bounded by ``decision_timeout`` seconds (then it forfeits the game).
Every game is played under the run's ``rules`` (``leaves.Rules``; today's by default), which
its ``config`` records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import strategies
from gamekit.errors import ParameterError
from leaves.players.builtin import BEST_HEURISTIC
from leaves.rule_text import named_value, texts_of, value_text
from leaves.rules import MAX_PLAYERS, MIN_PLAYERS, TURN_LIMIT
from leaves.ruleset import TARGETS, Rules
from strategies.deadline import DEFAULT_DECISION_TIMEOUT as DEFAULT_TIMEOUT
from strategies.deadline import check_timeout
from tournaments.game import (
    BenchReport,
    GameBase,
    GameOption,
    Replayed,
    SeatedBatch,
    SeatedMatches,
    Seats,
    Seeds,
    check_bench,
)

PYTHON_CHUNK_GAMES = 48
"""Default games per chunk when a plain-Python strategy plays (two deals at 4 players)."""

__all__ = ["LeavesGame"]


def rules_from_config(value: Any) -> tuple[str, ...]:
    """A config file's rules (a ``[rules]`` table, its ``key=value`` text or a list of such
    texts) as the texts ``--rules`` gives, checked; ValueError (one line) otherwise. A table
    keeps every key it writes, today's value too: a rule written in the file is a rule given,
    as the same rule typed is (``target_named``), not "default"."""
    if isinstance(value, dict):
        full = Rules.from_dict(value).to_dict()  # checked; each key in the form text takes
        return (", ".join(f"{k}={value_text(k, full[k])}" for k in value) or "default",)
    texts = [value] if isinstance(value, str) else value
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ValueError("write a table of key = value, or key=value text")
    Rules.parse(texts)
    return tuple(texts)


def limit_words(turn_limit: int) -> str:
    """The turn limit in the reports' words ("1,000 turns a game")."""
    return f"{turn_limit:,} turn{'' if turn_limit == 1 else 's'} a game"


class LeavesGame(GameBase):
    """13 Leaves between ``strategies`` entrants (specs, classes or instances)."""

    name = "leaves"
    former_names = ("13leaves",)
    title = "13 Leaves"
    rules_core = "leaves"
    options = (
        GameOption("turn_limit", int, f"Turn limit per game (default {TURN_LIMIT})."),
        GameOption(
            "decision_timeout",
            float,
            "A plain-Python strategy's decision taking longer forfeits the game "
            f"(default {DEFAULT_TIMEOUT:g}; 0: none).",
            "SECONDS",
        ),
        GameOption(
            "rules",
            str,
            "Play under these rules (see 'leaves rules'): KEY=VALUE, comma-separated; "
            "repeatable, the later winning (default: today's rules).",
            "KEY=VALUE[,...]",
            multiple=True,
            from_config=rules_from_config,
        ),
    )
    default_baseline = BEST_HEURISTIC  # the gauntlet's baseline: the strongest heuristic
    spec_example = "counter:threat_weight=1.0"
    replay_viewer = "leaves.commands.replay_view:show"
    match_rounds = False  # matches run to a target
    target_makes_matches = False  # matches are the expert variant (--expert)
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    seat_columns = ("cards_left",)
    game_columns = ("turns", "rounds", "unfinished")
    rank_value = "cards_left"
    higher_is_better = False  # fewer cards left finishes ahead; the lowest match total wins
    ahead_means = "fewer cards left"
    length_value = "turns"
    length_columns = ("turns", "rounds")
    has_first_player = True
    turn_order = True  # the next player faces the ends one leaves: neighbours matter
    shared_wins = False  # one winner per game (matches: tied totals share, see play_matches)
    match_score = "cards_left"
    match_target = 20  # the expert variant: to 20 points
    match_name = "expert"
    match_title = "Expert variant"
    match_label = "Expert matches"
    default_seating = "balanced"
    limits = limit_words(TURN_LIMIT)
    """What stops a game unfinished, in the reports' words: its rules' ``turn_limit`` (a run's
    own, set in ``__init__``; today's here, for the class itself)."""
    min_unit_s = 2e-6
    """A lower bound on one game's single-core time (compiled random play, 3 players)."""

    def __init__(
        self,
        turn_limit: int | None = None,
        decision_timeout: float | None = DEFAULT_TIMEOUT,
        rules: Rules | str | Sequence[str] | dict[str, Any] | None = None,
    ):
        """``rules``: a ``Rules``, its ``key=value`` text (one string, or several that
        ``--rules`` gave, the later winning) or its plain data (today's when None);
        ``turn_limit`` is ``--turn-limit``'s sugar for that rule (``Rules.of_options``:
        text that names another limit is refused, the two would disagree)."""
        try:
            self.decision_timeout = check_timeout(decision_timeout)
        except ValueError as exc:
            raise ParameterError(f"{{decision_timeout}}: {exc}", "decision_timeout") from None
        typed = texts_of(rules)  # the rules as typed, where they were text
        self.rules = rules = Rules.of_options(rules, turn_limit)
        self.match_target = rules.expert_target
        self.target_named = (None if typed is None or named_value(typed, "expert_target") is None
                             else f"expert_target={rules.expert_target}")  # fmt: skip
        """The words in which the rules typed name the match target, today's value included
        (the command line refuses a target a run would not play to); None: they name none."""
        self.min_players, self.max_players = rules.players[0], rules.players[-1]
        self.max_length = rules.turn_limit
        self.limits = limit_words(rules.turn_limit)
        self._turn_dtype = np.int16 if rules.turn_limit < 2**15 else np.int32

    def check_players(self, n_players: int) -> None:
        """ValueError naming the counts the rules allow when ``n_players`` is not one."""
        self.rules.hand_size_for(n_players)

    def check_target(self, target: Any) -> None:
        """ParameterError for a target above what the rule ``expert_target`` takes
        (``TARGETS``): ``--target`` is that rule's sugar. The runner's
        ``tournaments.arguments.match_rules`` asks on every way in, and refuses any other bad
        target (below one, not whole) itself."""
        whole = isinstance(target, int) and not isinstance(target, bool)
        if whole and target > TARGETS[1]:
            raise ParameterError(f"{{target}} takes a whole number from {TARGETS[0]} to "
                                 f"{TARGETS[1]} (as the rule expert_target does), got {target}",
                                 "target")  # fmt: skip

    def settings_words(self) -> dict[str, str]:
        """The rules the run is played under, for the report's overview."""
        return {"rules": "today's rules" if self.rules.is_default else str(self.rules)}

    def config(self) -> dict[str, Any]:
        """The settings a run records and ``--resume`` restores: the turn limit, the decision
        timeout and the rules' other changed keys (none under today's rules)."""
        changed = {k: v for k, v in self.rules.changes().items() if k != "turn_limit"}
        out: dict[str, Any] = {"turn_limit": self.rules.turn_limit,
                               "decision_timeout": self.decision_timeout}  # fmt: skip
        if changed:
            out["rules"] = changed
        return out

    def lookup(self, spec: Any) -> Any:
        """The strategy of an entrant spec; ValueError for one that cannot play (neither a
        ``choose`` nor a compiled policy: it would forfeit every game), refused before a run
        starts (``leaves.players.play.playing``: a game's own refusal)."""
        from leaves.players.play import playing  # start-up: a game's play loads when a run does

        return playing(super().lookup(spec))

    def rebuild(self, entrant: dict[str, Any]) -> Any:
        """The entrant from the manifest's description: its class (from its file, if any),
        every parameter (ValueError in the manifest's words where they are no table)."""
        from strategies.provenance import entrant_params  # start-up: as in describe

        cls = str(entrant["class"])
        target = f"{entrant['file']}:{cls}" if entrant.get("file") else cls
        return strategies.get(target, **entrant_params(entrant))

    def bench(self, players: int, games: int | None, api_games: int | None, repeats: int,
              seed: int) -> BenchReport:  # fmt: skip
        """Random play through the compiled engine runs play on and through the State API."""
        # start-up: the plug-in loads its engine when it plays
        from leaves.bench import DEFAULT_GAMES, compiled_label, run_bench

        games = DEFAULT_GAMES if games is None else games
        check_bench(players, (self.min_players, self.max_players), games, repeats, api_games,
                    seed, seed_bits=64)  # fmt: skip
        r = run_bench(players=players, games=games, seed=seed, api_games=api_games,
                      repeats=repeats)  # fmt: skip
        runs = ", ".join(f"{x:,.0f}" for x in r["games_per_second_runs"])
        rows = [
            (compiled_label(r["engine"]), f"{r['games']:,} x {r['repeats']}",
             f"{r['games_per_second']:,.0f}", f"{r['turns_per_second']:,.0f}"),
            ("State API (legal_actions/apply)", f"{r['api_games']:,}",
             *(f"{r[k]:,.0f}" if r[k] is not None else "not measured"
               for k in ("api_games_per_second", "api_turns_per_second"))),
        ]  # fmt: skip
        speedup = f"; {r['speedup']:,.0f}x the API" if r["speedup"] else ""
        notes = [
            f"compiled runs (games/s): {runs}; best shown{speedup}",
            f"mean turns {r['mean_turns']:.1f}, mean rounds {r['mean_rounds']:.2f}, "
            f"longest game {r['max_turns']} turns, unfinished {r['unfinished']}",
            f"numba {r['numba_version']}, numpy {r['numpy_version']}, "
            f"Python {r['python_version']}, {r['cpu'] or r['machine']}",
        ]
        return BenchReport(r, f"13 Leaves random play, {players} players, one core",
                           ("path", "games", "games/s", "turns/s"), rows, notes)  # fmt: skip

    def bench_needs(self, players: int, games: int | None, api_games: int | None,
                    repeats: int) -> tuple[int, float]:  # fmt: skip
        """(bytes, seconds): the memory ``bench`` holds at its peak and a lower bound on its
        time on one core (``leaves.bench.needs``), known before it plays, so that a command can
        refuse a size the machine cannot hold or finish. Random play's figures are the same at
        every table size."""
        from leaves.bench import DEFAULT_GAMES, needs  # start-up: as in bench

        return needs(DEFAULT_GAMES if games is None else games, api_games, repeats)

    def replay(self, seats: Seats, deal_seed: int, play_seed: int) -> Replayed:
        """One game again from its seeds (a forfeit stops at the failing decision, whose
        traceback comes back)."""
        res = strategies.play_batch(
            [self.strategy(p) for p in seats], np.array([deal_seed], np.uint64),
            np.array([play_seed], np.uint64), record=True, rules=self.rules,
            decision_timeout=self.decision_timeout,
        )  # fmt: skip
        error = res.errors[0]
        outcome = (int(res.winner_seat[0]), int(res.turns[0]), int(res.forfeit_seat[0]))
        return Replayed(res.records[0].to_json(), None if error is None else str(error),
                        getattr(error, "traceback", None), outcome)  # fmt: skip

    def chunk_games(self, payloads: Sequence[Any]) -> int | None:
        """Small chunks when a plain-Python strategy plays (a search takes about a second a
        game): a few hundred of its games still make many chunks for the workers."""
        if all(self.strategy(p).compiled() is not None for p in payloads):
            return None
        return PYTHON_CHUNK_GAMES

    def plays_without_gil(self, payloads: Sequence[Any], expert: bool) -> bool:
        """True when every entrant is a compiled policy and the compiled loop a run uses
        releases the GIL while it plays (the C engine's calls and numba's JIT loops do): the
        run's players are then threads."""
        if not all(self.strategy(p).compiled() is not None for p in payloads):
            return False
        from leaves.players import warmup  # start-up: the plug-in loads its engine when it plays

        return warmup.loop_releases_gil()

    def warm_up(self, payloads: Sequence[Any], expert: bool) -> tuple[bool, Callable[[], None]]:
        """(cold, load): ``load()`` readies the compiled loop the run needs (games or matches);
        ``cold`` says it must compile it first (numba's cache does not hold it yet)."""
        from leaves.players import warmup  # start-up: the plug-in loads its engine when it plays

        compiled = [self.strategy(p).compiled() for p in payloads]
        kinds = [c[0] for c in compiled if c is not None]
        if not kinds:  # plain-Python strategies only: nothing to compile
            return False, lambda: None
        # Only the loop over the run's policy kinds: a first run compiles just those kernels.
        return not warmup.loop_cached(expert, kinds), lambda: warmup.warm_up(expert, kinds)

    def _batch(self, res: Any) -> SeatedBatch:
        return SeatedBatch(
            first_player=np.asarray(res.first_player, np.int8),
            winner_seat=np.asarray(res.winner_seat, np.int8),
            forfeit_seat=np.asarray(res.forfeit_seat, np.int8),
            seat_values={"cards_left": np.asarray(res.cards_left, np.int16)},
            game_values={
                "turns": np.asarray(res.turns).astype(self._turn_dtype),
                "rounds": np.asarray(res.rounds).astype(self._turn_dtype),
                "unfinished": np.asarray(res.unfinished, bool),
            },
            errors=list(res.errors),
        )

    def play(self, seats: Seats, deal_seeds: Seeds, play_seeds: Seeds,
             record: bool = False) -> SeatedBatch:  # fmt: skip
        table = [self.strategy(p) for p in seats]
        res = strategies.play_batch(
            table, deal_seeds, play_seeds, record=record, rules=self.rules,
            decision_timeout=self.decision_timeout,
        )  # fmt: skip
        out = self._batch(res)
        if record:
            out.records = [r.to_json() for r in res.records or []]
        return out

    def play_seatings(self, tables: Sequence[Seats], seating: np.ndarray, deal_seeds: Seeds,
                      play_seeds: Seeds) -> SeatedBatch:  # fmt: skip
        """Game ``i`` with payloads ``tables[seating[i]]``: a chunk's seatings in one call
        (the games ``play`` plays table by table)."""
        res = strategies.play_seatings(
            [[self.strategy(p) for p in t] for t in tables], seating, deal_seeds, play_seeds,
            rules=self.rules, decision_timeout=self.decision_timeout,
        )  # fmt: skip
        return self._batch(res)

    def play_matches(self, seats: Seats, match_seeds: Seeds, play_seeds: Seeds, target: int,
                     rounds: int | None = None) -> SeatedMatches:  # fmt: skip
        """The compiled match loop (the same rules as ``tournaments.matches``)."""
        if rounds is not None:
            raise ParameterError("13 Leaves matches run to a {target}, not a number of {rounds}",
                                 "target", "rounds")  # fmt: skip
        table = [self.strategy(p) for p in seats]
        res = strategies.play_match_batch(
            table, match_seeds, play_seeds, target=target, rules=self.rules,
            decision_timeout=self.decision_timeout,
        )  # fmt: skip
        return SeatedMatches(
            games=self._batch(res),
            game_match=np.asarray(res.game_match, np.int32),
            game_scores=np.asarray(res.cards_left, np.int16),
            match_games=np.asarray(res.games, np.int16),
            match_totals=np.asarray(res.totals, np.int16),
            match_winners=np.asarray(res.match_winners, bool),
            game_deal_seeds=res.deal_seeds,
            game_play_seeds=res.play_seeds,
        )
