"""Where a run in its folder stands, said first: unfinished, partly forfeited, nothing valid.

A run stopped partway (Ctrl-C, a killed process) holds fewer games than it asked for, and its
results cover only those; a run whose strategies raised holds games that say nothing about the
strategies. Both read like a finished run unless they are said first, with what to do about
them: the terminal (``leaves tournament``, ``leaves report``, ``leaves run``) and the report
(the first key findings, the overview) open on these lines. The counts come from the manifest
(games asked, games durably written) and the merged aggregates (games ended by a forfeit, and
of a run of matches those that held one: each has no winner either, which the matches' win
rates would otherwise lose without a word);
the first error from the forfeit details, by game index; both over the chunks the manifest
records, as the reports read the rows of those only. A manifest saying "running" is told
live or killed by the run's lock (``storage.lock_holder``); a "complete" one of a
--precision run that stopped between two stages is unfinished too (``between_stages``).
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .declaration import plural
from .match_aggregates import FORFEITED_MATCHES
from .result import TournamentResult
from .same_run import resume_refusal
from .schedule import MAX_RUN_GAMES, deals_for
from .sequential import figure
from .storage import lock_holder

__all__ = [
    "PRECISION_RUN",
    "RunState",
    "between_stages",
    "cap_resumes",
    "continue_command",
    "manifest_command",
    "precision_flags",
    "run_state",
    "shell_word",
    "typed_number",
]

PRECISION_RUN = "precision_run"
"""The manifest's key for a ``--precision`` run's target and cap (``precision``, ``max_games``:
None where none was given), which its spec does not hold: ``leaves tournament`` keeps them
there, so the command that continues an unfinished run names them (``precision_flags``)."""

_PLAIN = set("@%+=:,./-_")  # besides letters and digits of any script: nothing a shell reads


def shell_word(path: Path | str) -> str:
    """``path`` as one word of a command a shell takes, for the commands the tool advises:
    as it is where a shell reads nothing in it (letters of any script, digits, ``@%+=:,./-_``),
    else quoted (``shlex.quote``: a space, a quote, ``~``, ``$``...; a control character:
    ``_escaped_word``); one that starts with '-' led by './' (a command would read '-r' as an
    option; only a relative path starts so)."""
    text = str(path)
    text = f"./{text}" if text.startswith("-") else text
    if text and all(c.isalnum() or c in _PLAIN for c in text):
        return text
    return shlex.quote(text) if text.isprintable() else _escaped_word(text)


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}
"""The control characters ``$'...'`` writes by name; any other by its bytes."""


def _escaped_word(text: str) -> str:
    """``text``, which holds a control character (a line break, an escape), as one word in
    bash's ``$'...'`` quoting: the advice stays on its line and is shown, never obeyed by the
    terminal, and bash reads the name back as it is. A character not shown is written as the
    bytes the file system names it by (``\\xc2\\x85``, ``os.fsencode``), which bash reads back
    in any locale: not as Python escapes it (``\\x85`` is one byte to bash, not U+0085, and a
    byte no encoding decodes, ``\\udcff`` to Python, is none to bash)."""
    said = (("\\" + c) if c in "\\'" else c if c.isprintable()
            else _NAMED.get(c) or "".join(f"\\x{b:02x}" for b in os.fsencode(c))
            for c in text)  # fmt: skip
    return "$'" + "".join(said) + "'"


def typed_number(x: float) -> str:
    """A number as an option takes it back: its short form ('0.5', '1') where that reads as
    the number, else every digit it has ('0.1234567', not '0.123457': a run continued with
    that would stop at another width); Python's shortest where that is shorter (1e-320 typed,
    not '9.99989e-321'): ``sequential.figure``'s rule, one source."""
    return figure(x)


def continue_command(command: str, out: Path | str, flags: str = "") -> str:
    """The command that continues the unfinished run ``leaves COMMAND`` plays in ``out``, as a
    shell takes it: the run's folder is all it needs (the manifest holds the rest), but a
    --precision run's target and cap (``flags``: ``precision_flags``)."""
    return f"leaves {command} --resume --out {shell_word(out)}{flags}"


def precision_flags(precision: float | None, max_games: int | None) -> str:
    """The options after ``--resume`` that continue a ``--precision`` run as it played: its
    target and, where one was given, its cap (a resume without them plays the stage it holds
    and stops; one without the cap takes the default); "" for a run without a target."""
    if precision is None:
        return ""
    cap = f" --max-games {max_games}" if max_games is not None else ""
    return f" --precision {typed_number(precision)}{cap}"


def cap_resumes(cap: int, games: int, deals: int, per_deal: int) -> bool:
    """Whether a resume of a --precision run that holds ``deals`` deals (``per_deal`` games
    each) and first asked for ``games`` takes ``cap`` as its --max-games, growing nothing:
    once the run grew past its first stage the cap counts whole deals, as --games does, else
    it holds that first --games. One rule for the refusal (``leaves tournament``) and for the
    advice, which names no cap the resume would refuse."""
    if deals > deals_for(games, per_deal):
        return deals_for(cap, per_deal) >= deals
    return cap >= games


def _kept_flags(manifest: dict[str, Any]) -> str:
    """``precision_flags`` of what the manifest keeps under ``PRECISION_RUN``; "" where it
    keeps nothing there, or nothing the resume takes (a file edited by hand: no positive
    number a float holds, a cap past a run's most games or below what the run holds)."""
    kept, spec = manifest.get(PRECISION_RUN), manifest["spec"]
    if not isinstance(kept, dict) or "gauntlet" in spec:  # a gauntlet has no --precision
        return ""
    target, cap = kept.get("precision"), kept.get("max_games")
    if not isinstance(target, int | float) or isinstance(target, bool):
        return ""
    try:
        target = float(target)
    except OverflowError:  # a whole number past a float's range
        return ""
    if not 0 < target < float("inf"):
        return ""
    if cap is not None and not (isinstance(cap, int) and not isinstance(cap, bool)
                                and 1 <= cap <= MAX_RUN_GAMES and _takes(spec, cap)):  # fmt: skip
        return ""
    return precision_flags(target, cap)


def manifest_command(out: Path | str, manifest: dict[str, Any]) -> str:
    """The command that continues the run in ``out``, from its manifest alone: ``leaves
    gauntlet`` of a gauntlet, and a --precision run's kept target and cap. ``RunState.command``
    is this one, so ``leaves verify`` names what every other advice names."""
    spec = manifest.get("spec")
    gauntlet = isinstance(spec, dict) and "gauntlet" in spec
    flags = _kept_flags(manifest) if isinstance(spec, dict) else ""
    return continue_command("gauntlet" if gauntlet else "tournament", out, flags)


def between_stages(manifest: dict[str, Any]) -> bool:
    """Whether the manifest, "complete", is a --precision run's stopped between two stages: it
    keeps a target the resume takes (``PRECISION_RUN``), yet no ``precision`` record says
    that target reached or its cap met at the games it holds. Each stage ends "complete", and
    the record comes once the run stops growing, so a run killed outright between two stages
    (after one stage, before the next one's first save) reads as finished without this."""
    spec = manifest.get("spec")
    if manifest.get("status") != "complete" or not isinstance(spec, dict):
        return False
    if _open_test(manifest):
        return True
    if not _kept_flags(manifest):
        return False
    done, kept = manifest.get("precision"), manifest[PRECISION_RUN]
    if not isinstance(done, dict):
        return True
    return done.get("target") != kept.get("precision") or done.get("n_games") != spec.get("n_games")


def _open_test(manifest: dict[str, Any]) -> bool:
    """Whether the manifest is a sequential gauntlet's whose test's record says it has not
    ended (``finished``, which its resume reads: ``leaves gauntlet --resume`` plays on). Each
    batch ends "complete" before the test weighs it, so a gauntlet stopped between two
    batches reads as finished without this."""
    gauntlet = manifest["spec"].get("gauntlet")
    test = manifest.get("sequential")
    return isinstance(gauntlet, dict) and isinstance(test, dict) and test.get("finished") is False


def _takes(spec: dict[str, Any], cap: int) -> bool:
    """Whether a resume of the run of ``spec`` takes ``cap`` (``cap_resumes``); True where the
    spec cannot tell (the resume then says what it lacks)."""
    try:
        deals = int(spec["deal_stages"][-1])
        return cap_resumes(cap, int(spec["games_asked"]), deals, int(spec["n_games"]) // deals)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError):
        return True


def replay_command(run: Path | str, game: int | str) -> str:
    """The command that replays game ``game`` of the run in ``run``, as a shell takes it (a
    folder with a space or a bracket quoted, so the command pasted works)."""
    return f"leaves replay {shell_word(run)} --game {game}"


@dataclass(frozen=True)
class RunState:
    """A run's extent and forfeits: ``planned`` and ``played`` count the run's units (games,
    rounds, or matches of an expert run), ``games`` and ``forfeited`` its games, ``matches``
    and ``held`` those of an expert run."""

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
    all_forfeited: tuple[tuple[str, int], ...] = ()  # (label, games) of entrants with no valid
    # game: every game they sat in ended by a forfeit (``reports.tables.summary``'s valid_games)
    all_own: bool = True  # each of those forfeited every game it sat in itself
    live: bool = False  # the manifest says "running": the run may still be being played
    holder: str | None = None  # then who holds its lock ("pid N"; "": none, a killed run; None:
    # cannot be told, ``storage.lock_holder``)
    flags: str = ""  # what the command continuing it names after --out (``precision_flags``)
    refused: str = ""  # why this version's resume refuses it, and what to do (``resume_refusal``)
    staged: bool = False  # a --precision run stopped between two stages (``between_stages``)
    match_unit: str = ""  # what a match of an expert run is called ("match", "game"); "": none
    matches: int = 0  # the expert run's matches played
    held: int | None = 0  # of them, those that held a forfeited game (no winner); None: not
    # counted (a run written before that count, ``match_aggregates.FORFEITED_MATCHES``)

    @property
    def unfinished(self) -> bool:
        return self.played < self.planned or self.staged

    @property
    def nothing_valid(self) -> bool:
        """True when no game was played to its end: none at all, or every one forfeited."""
        return self.forfeited >= self.games

    @property
    def command(self) -> str:
        """The command that continues the run: ``leaves gauntlet`` of a gauntlet, its folder,
        and a --precision run's target and cap (``PRECISION_RUN``; a gauntlet's manifest holds
        its test): ``manifest_command``'s, which ``leaves verify`` names from the manifest alone."""
        return continue_command("gauntlet" if self.gauntlet else "tournament", self.out, self.flags)

    @property
    def _continue(self) -> str:
        return f"continue it with '{self.command}'"

    def extent(self) -> str:
        """'609,336 of 3,000,000 games (unfinished)' or '12 games (finished)'."""
        if self.staged and self.played >= self.planned:
            between = "its test stopped between batches" if self.gauntlet else (
                "--precision stopped between stages")  # fmt: skip
            return f"{self.played:,} {self.units} (unfinished: {between})"
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

    @property
    def resume(self) -> str:
        """What to do with an unfinished run: continue it, or, while its manifest says it
        is being played (a killed run says so too), what its lock tells: played now (no
        '--resume', which the lock refuses), killed, or where no lock tells the two apart,
        both ways. Every sentence that says how to go on says this."""
        if self.refused:
            return f"this version cannot resume it: {self.refused}"
        if not self.live:
            return self._continue
        if self.holder == "":
            return f"nothing plays it any more (a killed run): {self._continue}"
        if self.holder:
            return f"it is being played now ({self.holder}): read it again once it ends"
        return ("its manifest says it is still being played: read it again once it ends, or, "
                "if nothing plays it any more (a killed run; nothing here tells a live run from "
                f"a killed one), {self._continue}")  # fmt: skip

    def lines(self, partial_forfeits: bool = True) -> list[str]:
        """The sentences that must come first; none for a finished run with no forfeit. A
        report leaves out ``partial_forfeits``: its findings' caution counts them by strategy."""
        out = []
        if self.staged and self.played >= self.planned:
            stopped = ("a sequential gauntlet stopped between two batches, before its test "
                       "decided or reached --max-games") if self.gauntlet else (
                "a --precision run stopped between two stages, before it recorded its target "
                "reached or its cap met")  # fmt: skip
            out.append(
                f"Unfinished run: {self.played:,} {self.units} played by {stopped}, and every "
                f"result covers those only; {self.resume}."
            )
        elif self.unfinished:
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
            out.append(
                f"Partly forfeited: {self.forfeited:,} of {self.games:,} {self.game_units} "
                f"({_part_pct(self.forfeited, self.games)}) ended by a forfeit ({self._first()}){self._held()}; a "
                f"forfeited {self.game_unit} has no winner{self._nor()}, so {self._each()} "
                "counts as lost by every seat at its table, the forfeiting one included; "
                f"{self._replay()}."
            )
        if self.all_forfeited and not self.nothing_valid:
            out.append(self.all_forfeited_line())
        return out

    def _held(self) -> str:
        """', and 9 of 24 games (37.5%) held one': an expert run's matches that held a
        forfeited game, which have no winner either; their count, where the run has none, said
        unknown (never 0). "" for a run of games."""
        if not self.match_unit or not self.matches:
            return ""
        of = f"{self.matches:,} {self.match_unit if self.matches == 1 else plural(self.match_unit)}"
        if self.held is None:
            return (f", and how many of its {of} held one is not known (a run written before "
                    "that count)")  # fmt: skip
        return f", and {self.held:,} of {of} ({100 * self.held / self.matches:.1f}%) held one"

    def _nor(self) -> str:
        """', nor has a game that held one' of an expert run ("" of a run of games)."""
        return f", nor has a {self.match_unit} that held one" if self._held() else ""

    def _each(self) -> str:
        """What the rule counts as lost: 'each' forfeited unit and match, or 'it'."""
        return "each" if self._nor() else "it"

    def all_forfeited_error(self) -> str:
        """The one-line error of a run with entrants that have no valid game (exit code 1)."""
        names = ", ".join(label for label, _ in self.all_forfeited)
        how = "its own forfeit" if self.all_own else "a forfeit"
        return (f"no valid {self.game_unit} of {names} in {self.out}: every one played ended by "
                f"{how}")  # fmt: skip

    def all_forfeited_line(self) -> str:
        """'Nothing valid from Bad: it forfeited all 36 of its games, ...' for the entrants
        that forfeited every game they played."""
        names = [label for label, _ in self.all_forfeited]
        if len(names) == 1:
            n = self.all_forfeited[0][1]
            what = (f"it forfeited all {n:,} of its {self.game_units}" if self.all_own else
                    f"all {n:,} of its {self.game_units} ended by a forfeit, its own or "
                    "another's")  # fmt: skip
            return (f"Nothing valid from {names[0]}: {what}, so no result says anything about "
                    "it; fix the strategy and play the run again.")  # fmt: skip
        who = ", ".join(names[:-1]) + f" and {names[-1]}"
        what = (
            f"each forfeited every {self.game_unit} it played"
            if self.all_own
            else f"every {self.game_unit} each played ended by a forfeit, its own or another's"
        )
        return (f"Nothing valid from {who}: {what}, so no result says anything about them; fix "
                "the strategies and play the run again.")  # fmt: skip


def _forfeits(result: TournamentResult) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run's merged aggregates and forfeit details, as its results read them (a finished
    run's merged files where they match the manifest, else the chunks it records); empty
    where no chunk is finished. A damaged file raises ``DamagedFile``, naming it: a run told
    without its forfeits would read as a clean one."""
    try:
        return result.aggregates(), result.forfeit_details()
    except (ValueError, RuntimeError):  # no finished chunk yet
        return {}, []


def _part_pct(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage with one decimal, more while a part that is
    neither none nor all would read as 0.0% or 100.0% (the reports' ``share_digits`` rule,
    which this layer may not import): 1 of 15,000 is '0.01%'."""
    share, digits = 100 * part / whole, 1
    while 0 < part < whole and f"{share:.{digits}f}" in (f"{0:.{digits}f}", f"{100:.{digits}f}"):
        digits += 1
    return f"{share:.{digits}f}%"


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
    agg, forfeits = _forfeits(result)
    declared = manifest.get("game_declaration") or {}
    unit = str(declared.get("unit", "game"))
    counted = str(declared.get("match_unit", "match")) if spec.get("expert") else unit
    games = int(agg["size_games"].sum()) if "size_games" in agg else 0
    matches = int(agg["size_matches"].sum()) if "size_matches" in agg else 0
    held = int(agg[FORFEITED_MATCHES].sum()) if FORFEITED_MATCHES in agg else None
    lost = int(agg["size_forfeits"].sum()) if "size_forfeits" in agg else 0
    first = min(forfeits, key=lambda f: f.get("game", 0)) if forfeits else None
    void = _all_forfeited(agg, spec)
    live = manifest.get("status") == "running"
    staged = between_stages(manifest)
    refused = resume_refusal(manifest) if staged or int(played) < planned else None
    return RunState(
        out=out, units=plural(counted), planned=planned,
        played=int(played), game_unit=unit, games=games, forfeited=lost, first=first,
        gauntlet="gauntlet" in spec, rows=bool(spec.get("rows", True)),
        all_forfeited=tuple((label, n) for label, n, _ in void), all_own=all(o for *_, o in void),
        live=live, holder=lock_holder(out) if live else None, flags=_kept_flags(manifest),
        staged=staged, refused=f"{refused}; {refused.advice}" if refused else "",
        match_unit=counted if spec.get("expert") else "",
        matches=matches, held=held,
    )  # fmt: skip


def _all_forfeited(agg: dict[str, Any], spec: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """(label, games, all its own) of each entrant with no valid game: every game it sat in
    ended by a forfeit, its own or another's (a game ends at its first forfeit). A table of the
    schedule seats the same entrants in every game, and a forfeit leaves no winner: a table
    with a win had a valid game, and one without had none unless games of its size ended
    unfinished (neither won nor forfeited); then only the entrant's own forfeits can tell."""
    labels = spec.get("strategies")
    if "forfeits" not in agg or not isinstance(labels, list) or len(labels) != len(agg["forfeits"]):
        return []
    tables = _tables(agg, spec, len(labels))
    if tables is None:
        return []
    per_table = agg["table_games"]
    unfinished = agg["size_no_winner"] - agg["size_forfeits"]
    void_table = [g == 0 or (not agg["table_wins"][t].any() and not unfinished[len(tables[t])])
                  for t, g in enumerate(per_table)]  # fmt: skip
    out = []
    for i, (label, own) in enumerate(zip(labels, agg["forfeits"], strict=True)):
        seated = [t for t, table in enumerate(tables) if i in table]
        n = int(sum(per_table[t] for t in seated))
        if n > 0 and (own >= n or all(void_table[t] for t in seated)):
            out.append((str(label), n, bool(own >= n)))
    return out


def _tables(agg: dict[str, Any], spec: dict[str, Any], n: int) -> list[tuple[int, ...]] | None:
    """The run's tables (entrant indices), made again from its spec as its aggregates count
    them; None where they cannot be."""
    from .schedule import make_tables  # start-up: read only for a run with forfeits

    focus = spec.get("focus")
    try:
        tables = make_tables(n, [int(k) for k in spec["players"]], bool(spec.get("repeats")),
                             None if focus is None else spec["strategies"].index(focus))  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return None
    per_table = agg.get("table_games")
    if per_table is None or len(per_table) != len(tables) or "table_wins" not in agg:
        return None
    return tables
