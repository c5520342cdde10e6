"""Score one candidate: its win rate in a focused tournament against the field.

Every table seats the candidate once and fills the other seats from the field (every
combination of distinct opponents; with repeats only when the field is smaller than the table), and each deal is replayed
under every seating of the runner's design, so the luck of the cards and of the seats cancels.
Candidates given the same ``seed`` play the very same deals and seatings: differences between
them are differences of play (common random numbers).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import strategies
from gamekit.errors import ParameterError
from tournaments import Tournament, TournamentResult
from tournaments.labels import Labeled

__all__ = ["Field", "FileEdited", "Score"]


@dataclass(frozen=True)
class Score:
    """A candidate's wins in the games it played, and how many of them ended by a forfeit
    (a strategy raised: nobody won it, so the win rate counts it as not won)."""

    wins: int
    games: int
    forfeits: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")


class FileEdited(ParameterError):
    """A user's strategy file edited during a tuning (``Field.tournament``), or since an
    interrupted tuning played it (``tuning.checkpoint.edited``)."""

    usage_error = False  # the command was right; the file changed under it (exit 1, not 2)

    @classmethod
    def advised(cls, why: str) -> FileEdited:
        """The refusal that says ``why``, then the one advice both refusals give, its
        ``{resume}`` and ``{out}`` named in the caller's words (``--resume`` on the command
        line, ``resume`` in Python)."""
        advice = "put the file back as it was and continue with {resume}, or tune the new version"
        return cls(f"{why}; {advice} in a new {{out}}", "resume", "out")


@dataclass(frozen=True)
class Field:
    """The opponents and table sizes every candidate is measured against."""

    against: tuple[str, ...]
    players: tuple[int, ...]
    n_jobs: int = 1
    game: Any = None
    """The game plug-in every tournament plays (as the tuning was given it); None: the
    runner's default game."""
    files: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """The SHA-256 of each user's strategy file as the tuning first played it, by path."""
    start: str | None = None
    """The starting parameters' spec, whose seat every candidate takes (``tournament``);
    None: each candidate sits where its own label puts it."""
    seats: dict[str, tuple[int, str]] = field(default_factory=dict, compare=False, repr=False)
    """The start's index among the entrants and its label, by its spec, once looked up."""

    @property
    def registry(self) -> str:
        """The id of the game played, whose strategy registry a spec's names are looked up in
        (the runner's default game where none was given)."""
        return getattr(self.game, "name", None) or strategies.DEFAULT_GAME

    def lookup(self, spec: Any) -> Any:
        """The strategy ``spec`` names in the game played (``registry``)."""
        return strategies.get(spec, game=self.registry)

    def tournament(self, candidate: str, games: int, seed: int, rows: bool = False) -> Tournament:
        """The focused tournament of ``candidate`` against the field; ``FileEdited`` where a
        user's file it plays was edited since this field first played it (a tournament
        plays a file as it is now: the tuning's later candidates would play other code than
        its earlier ones, and its result would belong to neither).

        The runner orders entrants by label and a table's seatings follow that order: at 5
        or 6 seats the balanced design plays some orders of all, so a candidate whose label
        sorts elsewhere among the field than the start's (an opponent ``weighted(w_keep=-8)``
        between ``weighted`` and ``weighted(w_shed=...)``) would play other seatings. Such a
        candidate is entered under the start's label, so that every candidate plays the
        start's deals and seatings; one that sorts where the start does keeps its own."""
        t = self._built(candidate, games, seed, rows)
        start = self._start_seat()
        if start is not None and t.labels.index(t.focus) != start[0]:
            t = self._built(Labeled(candidate, start[1]), games, seed, rows)
        self._same_files(t)
        return t

    def _built(self, candidate: Any, games: int, seed: int, rows: bool) -> Tournament:
        """The focused tournament of ``candidate`` (a spec, or one ``Labeled``)."""
        return Tournament(
            [candidate, *self.against],
            players=self.players,
            games=games,
            seed=seed,
            focus=candidate.label if isinstance(candidate, Labeled) else candidate,
            rows=rows,
            game=self.game,
        )

    def _start_seat(self) -> tuple[int, str] | None:
        """The start's index among the entrants and its label (None: no start given)."""
        if self.start is None:
            return None
        if self.start not in self.seats:  # one look at its labels for the tuning's many runs
            t = self._built(self.start, 1, 0, False)
            self.seats[self.start] = (t.labels.index(t.focus), t.focus)
        return self.seats[self.start]

    def _same_files(self, t: Tournament) -> None:
        """Refuse ``t`` where a user's file it plays holds other bytes than when this field
        first played it (``provenance``: the file and the SHA-256 of its loaded bytes)."""
        for payload in t.payloads:
            describe = getattr(t.game, "describe", None)  # None: a game that records labels
            said = describe(payload) if describe is not None else {}
            file, sha256 = said.get("file"), said.get("file_sha256")
            if not (isinstance(file, str) and isinstance(sha256, str)):
                continue  # no user's file: a built-in, an installed package's class
            first = self.files.setdefault(file, sha256)
            if first != sha256:
                raise FileEdited.advised(
                    f"strategy file {file} changed during the tuning (SHA-256 {first[:12]} "
                    f"when it started, {sha256[:12]} now): its later candidates would play "
                    "other code than its earlier ones"
                )

    def games_per_run(self, candidate: str, games: int) -> int:
        """Games a run asking for ``games`` plays (rounded up to whole duplicate sets)."""
        return self.tournament(candidate, games, 0).n_games

    def play(self, candidate: str, games: int, seed: int, out: str | Path,
             resume: bool = False) -> TournamentResult:  # fmt: skip
        """Run the focused tournament into ``out`` (rows kept; ``resume``: continue the one
        there) and return its results."""
        t = self.tournament(candidate, games, seed, rows=True)
        return t.run(n_jobs=self.n_jobs, out=out, resume=resume)

    def score(self, candidate: str, games: int, seed: int) -> Score:
        """The candidate's wins in a focused tournament of ``games`` games on ``seed``."""
        t = self.tournament(candidate, games, seed)
        tmp = tempfile.mkdtemp(prefix="leaves-tune-")
        try:
            result = t.run(n_jobs=self.n_jobs, out=tmp)
            return candidate_score(result, t.focus)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def candidate_score(result: TournamentResult, label: str) -> Score:
    """Wins and games of the entrant labelled ``label`` in ``result``, and the games of the
    run ended by a forfeit (``run_state``'s count, as the verification's warnings take it)."""
    from tournaments.run_state import run_state  # start-up: read once a run is played

    summary = result.summary()
    row = summary[summary["strategy"] == label]
    if len(row) != 1:
        raise RuntimeError(f"{label} did not play in {result.out}")
    state = run_state(result.out)
    forfeits = state.forfeited if state is not None else 0
    return Score(int(row["wins"].iloc[0]), int(row["seats"].iloc[0]), forfeits)


def parse_field(against: str | Sequence[str]) -> tuple[str, ...]:
    """Opponent specs from one spec or a list of specs; refuses an empty field."""
    specs = [against] if isinstance(against, str) else list(against)
    specs = [str(s).strip() for s in specs if str(s).strip()]
    if not specs:
        raise ParameterError("{against} needs at least one opponent strategy", "against")
    return tuple(specs)
