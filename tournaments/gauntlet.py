"""A gauntlet: one strategy against a field, compared with a baseline on the same deals.

The question a strategy author asks is "is mine better than X?". A round robin answers it only
indirectly; a gauntlet seats the strategy once at every table, the rest of the table being the
field, and seats the baseline exactly where the strategy sat on exactly the same deals. The
difference of their win rates, paired deal by deal, is then free of card and seat luck.

Seatings: the field fills the other ``players - 1`` seats. With fewer field strategies than
seats they are repeated in turn (``a, b`` for three seats is ``a, b, a``); with more, every
combination of them takes a table. Each table is played under every distinct order of its
field seats, and the runner replays each deal under every rotation, so the strategy (and the
baseline) sits in every position against every arrangement of the field. Deal seeds depend
only on the seed, the table size and the deal index, so the strategy's tables and the
baseline's tables see the same cards. The field is sorted by label, so results do not depend on
the order in which it was listed.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .game import GamePlugin
from .result import TournamentResult
from .runner import Tournament
from .schedule import Schedule

__all__ = ["Gauntlet", "GauntletResult", "field_orders", "gauntlet"]

DESIGN = "gauntlet"


def field_orders(n_field: int, seats: int) -> list[tuple[int, ...]]:
    """Every arrangement of field entrants ``0 .. n_field - 1`` over ``seats`` seats: each
    table's field (all combinations when there are enough entrants, else the entrants repeated
    in turn) under each of its distinct orders, sorted."""
    if n_field < 1 or seats < 1:
        raise ValueError("a gauntlet needs at least one field strategy and one field seat")
    if n_field >= seats:
        groups = list(itertools.combinations(range(n_field), seats))
    else:
        groups = [tuple(i % n_field for i in range(seats))]
    orders: set[tuple[int, ...]] = set()
    for group in groups:
        orders.update(itertools.permutations(group))
    return sorted(orders)


class Gauntlet(Tournament):
    """``strategy`` and ``baseline`` each in one seat of every table against ``field``.

    ``games`` is the number of games the strategy plays (rounded up to whole duplicate sets);
    the baseline plays as many on the same deals. Entrants are, in order: strategy, baseline,
    then the field sorted by label. ``n_games`` counts both sides.
    """

    def __init__(
        self,
        strategy: Any,
        field: Sequence[Any],
        baseline: Any = None,
        players: int = 4,
        games: int = 10_000,
        seed: int | None = None,
        *,
        rows: bool = True,
        chunk_size: int | None = None,
        game: GamePlugin | None = None,
    ):
        if baseline is None:
            from strategies.builtin import BEST_HEURISTIC

            baseline = BEST_HEURISTIC
        game = game if game is not None else _leaves_game()
        field = list(field)
        if not field:
            raise ValueError("a gauntlet needs a field: name at least one --against strategy")
        label = game.resolve(strategy)[0]
        base = game.resolve(baseline)[0]
        field_by_label = {game.resolve(s)[0]: s for s in field}
        if label == base:
            raise ValueError(f"the strategy and its baseline are the same ({label})")
        for who, name in (("strategy", label), ("baseline", base)):
            if name in field_by_label:
                raise ValueError(
                    f"the {who} {name} is also in the field: pick another "
                    f"{'--baseline' if who == 'baseline' else '--against'}"
                )
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"--players takes one table size for a gauntlet, got {players!r}")
        names = sorted(field_by_label)
        super().__init__(
            [strategy, baseline, *(field_by_label[n] for n in names)],
            players=players,
            games=games,
            seed=seed,
            rows=rows,
            chunk_size=chunk_size,
            game=game,
        )
        orders = field_orders(len(names), players - 1)
        fld = [tuple(2 + e for e in order) for order in orders]
        self.tables = [(0, *o) for o in fld] + [(1, *o) for o in fld]
        self.schedule = Schedule(self.tables, 2 * int(games), chunk_size)
        self.design = {
            "kind": DESIGN,
            "strategy": label,
            "baseline": base,
            "field": names,
            "field_orders": [list(o) for o in orders],
        }

    @property
    def games_per_side(self) -> int:
        """Games the strategy plays (and the baseline plays)."""
        return self.schedule.n_games // 2

    @property
    def rounded_note(self) -> str:
        s = self.schedule
        orders = len(self.tables) // 2
        return (
            f"{self.games_per_side:,} games each for {self.design['strategy']} and the baseline "
            f"{self.design['baseline']} = {orders:,} field order(s) x {s.deals:,} deals x "
            f"{self.sizes[0]} seats (asked {self.games_asked:,}, rounded up to whole sets)"
        )

    def spec(self) -> dict[str, Any]:
        spec = super().spec()
        spec["design"] = self.design
        return spec

    def run(self, *args: Any, **kwargs: Any) -> GauntletResult:
        """Play the gauntlet (the same arguments as ``Tournament.run``)."""
        res = super().run(*args, **kwargs)
        return GauntletResult(res.out)


class GauntletResult(TournamentResult):
    """The results of a gauntlet run: a tournament run whose spec names its design."""

    @property
    def design(self) -> dict[str, Any]:
        return self.spec["design"]

    @property
    def strategy(self) -> str:
        return self.design["strategy"]

    @property
    def baseline(self) -> str:
        return self.design["baseline"]

    @property
    def field(self) -> list[str]:
        return list(self.design["field"])

    def _repr_html_(self) -> str:
        d = self.design
        line = (
            f"<p>Gauntlet: <b>{html.escape(d['strategy'])}</b> and the baseline "
            f"<b>{html.escape(d['baseline'])}</b> against {html.escape(', '.join(d['field']))} "
            "(<code>reports.gauntlet(res)</code> gives the paired comparison)</p>"
        )
        return line + super()._repr_html_()


def _leaves_game() -> GamePlugin:
    from .leaves_game import LeavesGame

    return LeavesGame()


def gauntlet(
    strategy: Any,
    against: Sequence[Any],
    baseline: Any = None,
    players: int = 4,
    games: int = 10_000,
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
    ``n_jobs``.
    """
    g = Gauntlet(strategy, against, baseline, players=players, games=games, seed=seed, **options)
    return g.run(n_jobs=n_jobs, out=out, resume=resume)
