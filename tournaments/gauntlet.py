"""A gauntlet: one strategy against a field, compared with a baseline on the same deals.

The question a strategy author asks is "is mine better than X?". A round robin answers it only
indirectly; a gauntlet seats the strategy once at every table, the rest of the table being the
field, and seats the baseline exactly where the strategy sat, on exactly the same deals. The
difference of their win rates, paired deal by deal, is then free of card and seat luck.

Tables: the field fills the other ``players - 1`` seats. With fewer field strategies than seats
they are repeated in turn (``a, b`` for three seats is ``a, b, a``); with more, every
combination of them makes a table. Each deal of a table is replayed under the seating design the
game declares (``tournaments.seating``; balanced: the strategy in every position, after and
before every field strategy equally often; rotations, for a game with no turn order: in every
position); the baseline's table uses the same seatings with the baseline in the strategy's seat.
Each table is dealt its own cards, and the baseline's copy of a table is dealt from the same
stream as the strategy's, so both sides see the same cards. Entrants are in canonical (label)
order, so results do not depend on the order in which the field was listed.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from gamekit.errors import ParameterError, shown

from . import storage
from .checks import spec_list
from .game import GamePlugin, plural
from .games import get_game
from .labels import Labeled, entrant_labels
from .manifest_fields import TEST_SETTINGS
from .result import TournamentResult
from .runner import SEATING_WORDS, Tournament
from .schedule import MAX_RUN_GAMES, Schedule, parse_players
from .seating import design
from .stages import asked_note

__all__ = ["Gauntlet", "GauntletResult", "field_groups", "gauntlet"]

KIND = "gauntlet"

SEQUENTIAL_ELSEWHERE = (
    "tournaments.gauntlet() plays a gauntlet of fixed size and takes no sequential: the "
    "sequential test is the command line's, 'leaves gauntlet SPEC --against FIELD --sequential "
    "--out DIR' (reports.gauntlet(DIR) then reads its decision)"
)
"""Why ``gauntlet`` refuses ``sequential``: its batches and decisions are played by the command
line, which alone may import the reports that weigh each batch."""

SETTINGS_WORDS = (
    f"{', '.join(TEST_SETTINGS[:-1])} (numbers) and {TEST_SETTINGS[-1]} (a whole number)"
)
"""What a sequential test's settings hold, in the words of an error."""


def field_groups(field: Sequence[int], seats: int) -> list[tuple[int, ...]]:
    """The field part of each table: every combination of ``seats`` field entrants when there
    are enough of them, else the entrants repeated in turn to fill the seats."""
    field = list(field)
    if not field or seats < 1:
        raise ValueError("a gauntlet needs at least one field strategy and one field seat")
    if len(field) >= seats:
        return list(itertools.combinations(field, seats))
    return [tuple(field[i % len(field)] for i in range(seats))]


class Gauntlet(Tournament):
    """``strategy`` and ``baseline`` each in one seat of every table against ``field``.

    ``games`` is the number of games the strategy plays (rounded up to whole duplicate sets);
    the baseline plays as many on the same deals and seatings. ``n_games`` counts both sides.
    ``allow_same`` lets the baseline be the strategy itself (a check that the comparison finds
    no difference where there is none): its copy is labelled "<label> (baseline)" and
    ``copy`` is True. The copy plays each game on the same deal in the same seats but with a
    play seed of its own (a game's number is its seed's), so its games differ from the
    strategy's only where a seat (a strategy or the game itself) draws from that seed.
    ``sequential`` (a sequential gauntlet's settings: margin in percentage points, alpha, beta,
    max_games) goes into the spec, so ``--resume`` restores the test and refuses other
    settings; a gauntlet of fixed size has none and its spec is as it always was. The test's
    batches are the command line's to play (``leaves gauntlet --sequential``): ``run`` plays
    one.
    """

    def __init__(
        self,
        strategy: Any,
        field: Sequence[Any],
        baseline: Any = None,
        players: int = 4,
        games: int = 20_000,
        seed: int | None = None,
        *,
        rows: bool = True,
        chunk_size: int | None = None,
        game: GamePlugin | None = None,
        allow_same: bool = False,
        sequential: dict[str, Any] | None = None,
    ):
        game = game if game is not None else get_game()
        if baseline is None:
            baseline = getattr(game, "default_baseline", None)
            if baseline is None:
                raise ParameterError(
                    f"name a baseline ({{baseline}}): {game.title} declares none", "baseline"
                )
        field = spec_list(field, "field")
        if not field:
            raise ParameterError(
                "a gauntlet needs a field: name at least one {field} strategy", "field"
            )
        named = entrant_labels(game, [strategy, baseline, *field])
        label, base = named[0][0], named[1][0]  # told apart by file when only the name agrees
        field_by_label = {name: s for (name, _, _), s in zip(named[2:], field, strict=True)}
        base_spec, self.copy = baseline, label == base
        if self.copy:
            if not allow_same:
                raise ValueError(f"the strategy and its baseline are the same ({label})")
            base = f"{label} (baseline)"  # an A/A comparison: the copy needs a label of its own
            base_spec = Labeled(baseline, base)
        for who, name in (("strategy", label), ("baseline", base)):
            if name in field_by_label:
                param = "baseline" if who == "baseline" else "field"
                raise ParameterError(f"the {who} {name} is also in the field: pick another "
                                     f"{{{param}}}", param)  # fmt: skip
        sizes = parse_players(players)  # as a tournament reads it: 4, "4" or [4]
        if len(sizes) != 1:
            raise ParameterError(
                f"{{players}} takes one table size for a gauntlet, got {players!r}", "players"
            )
        players = sizes[0]
        _check_sides(games, game)
        names = sorted(field_by_label)
        super().__init__(
            [strategy, base_spec, *field_by_label.values()],
            players=players,
            games=games,
            seed=seed,
            rows=rows,
            chunk_size=chunk_size,
            game=game,
        )
        me, other = self.labels.index(label), self.labels.index(base)
        groups = field_groups([self.labels.index(n) for n in names], players - 1)
        mine = [design((me, *g), self.seating) for g in groups]  # the game's declared design
        theirs = [tuple(tuple(other if e == me else e for e in st) for st in d) for d in mine]
        self.tables = [(me, *g) for g in groups] + [(other, *g) for g in groups]
        self.seatings = mine + theirs
        self.schedule = Schedule(
            self.tables,
            2 * int(games),
            self._chunk_games(chunk_size),  # the game's size for slow play, as the run's own
            [len(d) for d in self.seatings],
            streams=[*range(len(groups)), *range(len(groups))],  # the copy sees the same cards
            units=self.units,
        )
        self.gauntlet = {"strategy": label, "baseline": base, "field": names}
        if sequential is not None:
            self.gauntlet["sequential"] = sequential_settings(sequential)

    @property
    def games_per_side(self) -> int:
        """Games the strategy plays (and the baseline plays)."""
        return self.schedule.n_games // 2

    @property
    def rounded_note(self) -> str:
        s = self.schedule
        tables = len(self.tables) // 2
        asked = asked_note(self.games_asked, len(s.stages) - 1, self.games_per_side, "batch")
        g = self.gauntlet
        return (
            f"{self.games_per_side:,} {self.units} each for {g['strategy']} and the baseline "
            f"{g['baseline']} = {tables:,} {'table' if tables == 1 else 'tables'} x "
            f"{s.deals:,} {'deal' if s.deals == 1 else 'deals'} x {s.set_sizes[0]} seatings "
            f"({SEATING_WORDS.get(self.seating, self.seating)}; {asked})"
        )

    def spec(self) -> dict[str, Any]:
        spec = super().spec()
        spec[KIND] = self.gauntlet
        return spec

    def run(self, *args: Any, **kwargs: Any) -> GauntletResult:
        """Play the gauntlet (the same arguments as ``Tournament.run``)."""
        res = super().run(*args, **kwargs)
        return GauntletResult(res.out)


def _check_sides(games: Any, game: GamePlugin) -> None:
    """Refuse ``games`` a side where both sides would hold more than a run may, in one line
    naming both counts (the tournament's check of its entrants' schedule counted one side "in
    all", the run's schedule both sides as if asked for), in the ``game``'s units ("rounds"
    of a game played in rounds; a gauntlet plays no matches)."""
    if not isinstance(games, Integral) or isinstance(games, bool):
        return
    games = int(games)  # numpy's doubled wraps past 2**63: 2**62 a side read as none
    if 2 * games <= MAX_RUN_GAMES:
        return
    units = plural(game.unit)
    side, both = (shown(int(n), typed=False) for n in (games, 2 * games))
    side, both = (f"{int(n):,}" if text.isdigit() else text
                  for n, text in ((games, side), (2 * games, both)))  # fmt: skip
    raise ParameterError(f"{{games}} asks for {side} {units} a side, {both} in all with the "
                         f"baseline's, past 2**32 - 1 (a run's most {units})", "games")  # fmt: skip


def sequential_settings(value: Any) -> dict[str, Any]:
    """A sequential test's settings as the spec keeps them (``TEST_SETTINGS``, each a number,
    ``max_games`` a whole one; numpy's as Python's, which JSON writes), refused before anything
    is played: TypeError unless a table (True would fail as "not iterable"), else
    ParameterError (a resumed run's damaged table reads as one line)."""
    if not isinstance(value, Mapping):
        raise TypeError(f"sequential takes None or a table of {SETTINGS_WORDS}, got "
                        f"{shown(value, typed=False)}")  # fmt: skip
    kinds = {key: Integral if key == "max_games" else Real for key in TEST_SETTINGS}
    if set(value) != set(kinds) or any(
        isinstance(v, bool) or not isinstance(v, kinds[k]) for k, v in value.items()
    ):
        raise ParameterError(f"{{sequential}} takes a table of {SETTINGS_WORDS}, got "
                             f"{shown(value, typed=False)}", "sequential")  # fmt: skip
    return {key: (int if key == "max_games" else float)(value[key]) for key in TEST_SETTINGS}


class GauntletResult(TournamentResult):
    """The results of a gauntlet run: a tournament run whose spec has a ``gauntlet`` entry
    (strategy, baseline, field labels)."""

    @property
    def strategy(self) -> str:
        return self.spec[KIND]["strategy"]

    @property
    def baseline(self) -> str:
        return self.spec[KIND]["baseline"]

    @property
    def field(self) -> list[str]:
        return list(self.spec[KIND]["field"])

    def _repr_html_(self) -> str:
        d = self.spec[KIND]
        line = (
            f"<p>Gauntlet: <b>{html.escape(d['strategy'])}</b> and the baseline "
            f"<b>{html.escape(d['baseline'])}</b> against {html.escape(', '.join(d['field']))} "
            "(<code>reports.gauntlet(res)</code> gives the paired comparison)</p>"
        )
        return line + super()._repr_html_()


def gauntlet(
    strategy: Any,
    against: Sequence[Any],
    baseline: Any = None,
    players: int = 4,
    games: int = 20_000,
    seed: int | None = None,
    n_jobs: int = 1,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    **options: Any,
) -> GauntletResult:
    """Run a gauntlet of ``strategy`` against the field ``against`` (specs), with ``baseline``
    (default: the strongest built-in heuristic) on the same deals and seats, into ``out``.

    ``reports.gauntlet(result)`` gives the paired comparison. Results never depend on
    ``n_jobs``. A gauntlet of fixed size: a sequential one, played in batches until its test
    decides, is the command line's (``SEQUENTIAL_ELSEWHERE``). ``resume`` without
    ``chunk_size`` plays on in the run's own chunks (``run_chunks``).
    """
    if (
        options.get("sequential") is not None
    ):  # played as asked, its report would wait for batches never due
        raise TypeError(SEQUENTIAL_ELSEWHERE)
    if resume and options.get("chunk_size") is None:
        options["chunk_size"] = run_chunks(out)
    against = spec_list(against, "against")
    g = Gauntlet(strategy, against, baseline, players=players, games=games, seed=seed, **options)
    return g.run(n_jobs=n_jobs, out=out, resume=resume)


def run_chunks(out: str | Path | None) -> int | None:
    """The games a chunk of the run in ``out`` (its manifest's ``chunk_games``), which a
    resume keeps, as ``leaves tournament --resume`` does: a version that chunks by other
    sizes (an older one chunked a slow gauntlet by 2,000 games) resumes it still. None where
    ``out`` holds no readable size: the resume then says what it holds."""
    if out is None:
        return None
    try:
        manifest = storage.read_manifest(Path(out))
    except ValueError:  # no manifest, or one that cannot be read: the resume says so
        return None
    spec = manifest.get("spec") if isinstance(manifest, dict) else None
    size = spec.get("chunk_games") if isinstance(spec, dict) else None
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None
