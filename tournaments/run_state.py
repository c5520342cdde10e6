"""Where a run in its folder stands, said first: unfinished, partly forfeited, nothing valid.

A run stopped partway (Ctrl-C, a killed process) holds fewer games than it asked for, and its
results cover only those; a run whose strategies raised holds games that say nothing about the
strategies. Both read like a finished run unless they are said first, with what to do about
them: the terminal (``leaves tournament``, ``leaves report``, ``leaves run``) and the report
(the first key findings, the overview) open on these lines. The counts come from the manifest
(games asked, games durably written) and the merged aggregates (games ended by a forfeit);
the first error from the forfeit details, by game index.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .declaration import plural
from .result import TournamentResult

__all__ = ["RunState", "run_state"]


def replay_command(run: Path | str, game: int | str) -> str:
    """The command that replays game ``game`` of the run in ``run``, as a shell takes it (a
    folder with a space or a bracket quoted, so the command pasted works)."""
    return f"leaves replay {shlex.quote(str(run))} --game {game}"


@dataclass(frozen=True)
class RunState:
    """A run's extent and forfeits: ``planned`` and ``played`` count the run's units (games,
    rounds, or matches of an expert run), ``games`` and ``forfeited`` its games."""

    out: Path
    units: str  # what planned/played count, plural ("games", "matches")
    game_unit: str  # what games/forfeited count ("game", "round")
    planned: int
    played: int
    games: int
    forfeited: int
    first: dict[str, Any] | None  # the first forfeit (lowest game index): game, error
    gauntlet: bool = False
    rows: bool = True
    all_forfeited: tuple[tuple[str, int], ...] = ()  # (label, games) of entrants that forfeited
    # every game they played

    @property
    def unfinished(self) -> bool:
        return self.played < self.planned

    @property
    def nothing_valid(self) -> bool:
        """True when no game was played to its end: none at all, or every one forfeited."""
        return self.forfeited >= self.games

    @property
    def resume(self) -> str:
        """The command that continues the run (its folder is all a tournament needs)."""
        command = "gauntlet" if self.gauntlet else "tournament"
        return f"continue it with 'leaves {command} --resume --out {self.out}'"

    def extent(self) -> str:
        """'609,336 of 3,000,000 games (unfinished)' or '12 games (finished)'."""
        if self.unfinished:
            return f"{self.played:,} of {self.planned:,} {self.units} (unfinished)"
        return f"{self.played:,} {self.units} (finished)"

    @property
    def game_units(self) -> str:
        return plural(self.game_unit)

    def _first(self) -> str:
        f = self.first or {}
        where = f" {self.game_unit} {f['game']}" if "game" in f else ""
        return f"the first,{where}: {f.get('error', 'no details kept')}"

    def _replay(self) -> str:
        f = self.first or {}
        if not self.rows or "game" not in f:
            return f"details in {self.out / 'forfeits.json'}"
        return f"replay it with '{replay_command(self.out, f['game'])}'"

    def lines(self, partial_forfeits: bool = True) -> list[str]:
        """The sentences that must come first; none for a finished run with no forfeit. A
        report leaves out ``partial_forfeits``: its findings' caution counts them by strategy."""
        out = []
        if self.unfinished:
            share = f" ({100 * self.played / self.planned:.1f}%)" if self.planned else ""
            out.append(
                f"Unfinished run: {self.played:,} of {self.planned:,} {self.units} played"
                f"{share}, and every result covers those only; {self.resume}."
            )
        if self.gauntlet:  # a gauntlet's forfeits are counted per side by reports.gauntlet
            return out
        if self.games and self.nothing_valid:
            out.append(
                f"Nothing valid: all {self.games:,} {self.game_units} ended by a forfeit "
                f"({self._first()}), so no result says anything about the strategies; "
                f"{self._replay()}, fix the strategy and play the run again."
            )
        elif self.forfeited and partial_forfeits:
            share = 100 * self.forfeited / self.games
            out.append(
                f"Partly forfeited: {self.forfeited:,} of {self.games:,} {self.game_units} "
                f"({share:.1f}%) ended by a forfeit ({self._first()}); a forfeited "
                f"{self.game_unit} has no winner, so it counts as lost by every seat at its "
                f"table, the forfeiting one included; {self._replay()}."
            )
        if self.all_forfeited and not self.nothing_valid:
            out.append(self.all_forfeited_line())
        return out

    def all_forfeited_line(self) -> str:
        """'Nothing valid from Bad: it forfeited all 36 of its games, ...' for the entrants
        that forfeited every game they played."""
        names = [label for label, _ in self.all_forfeited]
        if len(names) == 1:
            n = self.all_forfeited[0][1]
            return (f"Nothing valid from {names[0]}: it forfeited all {n:,} of its "
                    f"{self.game_units}, so no result says anything about it; fix the strategy "
                    "and play the run again.")  # fmt: skip
        who = ", ".join(names[:-1]) + f" and {names[-1]}"
        return (f"Nothing valid from {who}: each forfeited every {self.game_unit} it played, "
                "so no result says anything about them; fix the strategies and play the run "
                "again.")  # fmt: skip


def _forfeits(result: TournamentResult) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run's merged aggregates and forfeit details (the merged files of a finished run,
    else its chunks); empty where no chunk is finished."""
    out = result.out
    if result.complete and (out / "aggregates.npz").exists() and (out / "forfeits.json").exists():
        return result.aggregates(), json.loads((out / "forfeits.json").read_text())
    try:
        return TournamentResult.merge_chunks(out)
    except ValueError:  # no finished chunk yet
        return {}, []


def run_state(out: str | Path) -> RunState | None:
    """The state of the run in ``out``; None where it holds no readable manifest (hand-made
    rows). Raises nothing for a run that has played nothing yet."""
    out = Path(out)
    try:
        result = TournamentResult(out)
        spec = result.spec
        planned = int(spec["n_games"])
    except (ValueError, KeyError, TypeError, OSError):
        return None
    manifest = result.manifest
    played = manifest.get("units_done")
    if played is None:  # a manifest from before units_done: only a finished run says
        played = planned if result.complete else 0
    try:
        agg, forfeits = _forfeits(result)
    except (ValueError, RuntimeError, OSError):
        agg, forfeits = {}, []
    declared = manifest.get("game_declaration") or {}
    unit = str(declared.get("unit", "game"))
    counted = str(declared.get("match_unit", "match")) if spec.get("expert") else unit
    games = int(agg["size_games"].sum()) if "size_games" in agg else 0
    lost = int(agg["size_forfeits"].sum()) if "size_forfeits" in agg else 0
    first = min(forfeits, key=lambda f: f.get("game", 0)) if forfeits else None
    return RunState(
        out=out, units=plural(counted), planned=planned,
        played=int(played), game_unit=unit, games=games, forfeited=lost, first=first,
        gauntlet="gauntlet" in spec, rows=bool(spec.get("rows", True)),
        all_forfeited=_all_forfeited(agg, spec),
    )  # fmt: skip


def _all_forfeited(agg: dict[str, Any], spec: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    """(label, games) of each entrant that forfeited every game it sat in itself (a game ends
    at its first forfeit, so an entrant in two seats of a game forfeits it once)."""
    labels = spec.get("strategies")
    if "forfeits" not in agg or not isinstance(labels, list) or len(labels) != len(agg["forfeits"]):
        return ()
    games = _games_sat_in(agg, spec, len(labels))
    if games is None:
        return ()
    return tuple((str(label), int(n)) for label, n, f in zip(labels, games, agg["forfeits"],
                                                             strict=True) if n > 0 and f >= n)  # fmt: skip


def _games_sat_in(agg: dict[str, Any], spec: dict[str, Any], n: int) -> list[int] | None:
    """Per entrant, the games it sat in (once however many seats it took): the games of every
    table that seats it, its tables made again from the run's spec; None where they cannot be."""
    from .schedule import make_tables  # start-up: read only for a run with forfeits

    focus = spec.get("focus")
    try:
        tables = make_tables(n, [int(k) for k in spec["players"]], bool(spec.get("repeats")),
                             None if focus is None else spec["strategies"].index(focus))  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return None
    per_table = agg.get("table_games")
    if per_table is None or len(per_table) != len(tables):
        return None
    return [int(sum(g for t, g in zip(tables, per_table, strict=True) if i in t))
            for i in range(n)]  # fmt: skip
