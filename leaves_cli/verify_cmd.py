"""``leaves verify``: check a run directory's files against its manifest, changing nothing.

One job, past the usual length: each bad file named with advice that works (a resume, a
removal, or why neither), and with ``--deep`` each file read as the reports read it.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from tournaments import storage

from .errors import CLIError
from .options import FileName
from .run_folders import MANIFEST, no_run_message, runs_in

if TYPE_CHECKING:
    from tournaments.verify import Problem, Verification
    from tournaments.verify_contents import Contents, PartRows

NO_MANIFEST = storage.NO_MANIFEST.replace("{out}", "--out")
"""What a manifest that cannot be used leaves to do (``verify`` and ``report`` say it)."""


def _manifest(run_dir: Path) -> dict:
    """The run's manifest as far as it reads, else nothing."""
    try:
        manifest = storage.read_manifest(run_dir)
    except ValueError:  # none, or one that cannot be read: named where it matters
        manifest = None
    return manifest if isinstance(manifest, dict) else {}


def _spec(run_dir: Path) -> dict:
    spec = _manifest(run_dir).get("spec")
    return spec if isinstance(spec, dict) else {}


def resume_hint(run_dir: Path, them: str = "them", removes: bool = False, drops: int = 0,
                merged: tuple[str, ...] = ()) -> str:  # fmt: skip
    """What replays a run's bad chunks (or, ``removes``, deletes its files of chunks it does
    not have; ``drops``: how many of the manifest's bad entries it drops, which name nothing
    to play again, ``verify.DROP``; ``them`` "": those alone; ``merged``: the merged files it
    writes again from the chunks, replaying nothing): ``leaves tournament --out RUN
    --resume``, or ``leaves gauntlet`` of a gauntlet (the run's folder is all either needs)."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    gauntlet = "gauntlet" in _spec(run_dir)
    does = []  # (what the advised command does, to what)
    if them:
        does.append(("deletes", them) if removes else ("replays", them))
    if merged:
        does.append(("rewrites", f"{' and '.join(merged)} from the run's chunks"))
    if drops:
        entries = f"the bad {'entry' if drops == 1 else 'entries'} from the manifest"
        does.append(("drops", entries))
    said = " and ".join(f"{verb} {it}" for verb, it in does)
    command = "gauntlet" if gauntlet else "tournament"  # the folder is all either resume needs
    return f"'leaves {command} --out {shell_word(run_dir)} --resume' {said}" + game_missing(run_dir)


def game_missing(run_dir: Path) -> str:
    """What a resume of the run waits for where this installation cannot load the run's game
    (a run played elsewhere, with a game plug-in not installed here: the resume refuses it,
    naming it): " once this installation can load the run's game: WHY"; else "". Only the
    installed plug-ins are asked (an id they no longer use may be a former name of one): a
    ``module:Class`` the manifest names is code that verifying never runs."""
    from tournaments.games import game_class, game_names, run_game  # start-up: entry points

    manifest = _manifest(run_dir)
    recorded = manifest.get("game_spec")  # how the run loads its game again
    if isinstance(recorded, str) and ":" in recorded:
        return ""  # a module:Class the resume loads from the run (never imported here)
    try:  # as the resume finds it: an id alone loads no code but the installed plug-ins'
        game = run_game(manifest) if isinstance(manifest.get("spec"), dict) else None
    except ValueError:  # a manifest that does not tell: ``manifest_problem`` says it
        return ""
    if not isinstance(game, str) or ":" in game or game in game_names():
        return ""
    try:
        game_class(game)
    except ValueError as exc:
        return f" once this installation can load the run's game: {exc}"
    return ""


def manifest_problem(run_dir: Path) -> str | None:
    """Why the run's manifest itself cannot be used, or None: not JSON, not a run of this
    version's format, or a field that does not hold what the runner writes. Then nothing
    resumes the run (``--resume`` refuses such a manifest too)."""
    from tournaments.manifest_fields import CHECK_READS, check_fields, check_manifest

    from .gauntlet_resume import gauntlet_problem

    try:
        manifest = storage.read_manifest(run_dir)
        check_manifest(manifest)
    except ValueError as exc:
        return str(exc)
    if manifest.get("format") != storage.FORMAT:
        return f"format {manifest.get('format')!r}: not a tournament run this version knows"
    try:  # what ``verify_run`` counts the run's chunks by: nothing else to advise then
        check_fields(manifest, spec=CHECK_READS)
    except ValueError as exc:
        return str(exc)
    if isinstance(manifest["spec"].get("gauntlet"), dict):  # what reading the run needs
        return gauntlet_problem(manifest, resume=False)
    return None


def resume_problem(run_dir: Path) -> ValueError | None:
    """Why a resume refuses the run's manifest, which reading the run accepts
    (``manifest_problem``: none), or None: a field a resume reads missing
    (``RESUME_READS``), a gauntlet's test without its settings, or game settings the run's
    installed game cannot take (``check_game``; a game given as ``module:Class`` is code
    that verifying never runs, as ``game_missing`` says); or a run another version played
    (``NotThisVersion``, nothing damaged)."""
    from tournaments.games import game_class, run_game
    from tournaments.manifest_fields import RESUME_READS, check_game, check_manifest
    from tournaments.same_run import resume_refusal

    manifest = _manifest(run_dir)
    try:
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except ValueError as exc:
        return exc
    if ":" in str(manifest.get("game_spec", "")) or ":" in manifest["spec"]["game"]:
        return None
    try:
        cls = game_class(run_game(manifest))
    except ValueError:  # a game this installation lacks: ``game_missing`` says it
        return None
    try:
        check_game(cls, manifest["spec"])
    except ValueError as exc:
        return exc
    return resume_refusal(manifest)  # a game changed since: the resume refuses it so


def advice(run_dir: Path, result: Verification) -> str:
    """What to do about a run's bad files, only what works: resume, remove, or both."""
    from tournaments.storage import lock_holder
    from tournaments.verify import DROP, REMOVE, is_merged, left_alone

    foreign = left_alone(result)
    drops = sum(p.resume == DROP for p in result.problems)  # entries: said apart
    merged = tuple(sorted({p.path for p in result.problems if is_merged(p)}))
    own = [p for p in result.problems if p not in foreign and p.resume != DROP
           and not is_merged(p)]  # fmt: skip
    gone = all(p.resume == REMOVE for p in own)  # only files a resume deletes
    one = len({p.path for p in own}) == 1  # a file may be bad in several ways
    them = "" if not own else "the run's own" if foreign else "it" if one else "them"
    hint = resume_hint(run_dir, them, removes=gone, drops=drops, merged=merged)
    holder = lock_holder(run_dir)
    if holder:  # a resume is refused while the run is played
        hint += f" once the process playing the run now ({holder}) ends"
    hint = _folders_first(run_dir, own, hint)
    if not foreign:
        return hint
    names = ", ".join(str(run_dir / p.path) for p in foreign)
    it = "it" if len(foreign) == 1 else "them"
    remove = f"remove {names} (not the run's: a resume leaves {it} there)"
    return remove if not own and not drops else f"{hint}; {remove}"


def _folders_first(run_dir: Path, problems: list[Problem], hint: str) -> str:
    """``hint`` led by the removal of files in place of the run's folders, which no resume
    writes in (``storage.NOT_A_FOLDER``)."""
    from tournaments.storage import NOT_A_FOLDER

    files = sorted({str((run_dir / p.path).parent) for p in problems if p.reason == NOT_A_FOLDER})
    if not files:
        return hint
    what = "a file where the run's folder belongs" if len(files) == 1 else (
        "files where the run's folders belong")  # fmt: skip
    return f"remove {', '.join(files)} ({what}), then {hint}"


def bad_run_message(run_dir: Path, result: Verification) -> str:
    """One line naming the first bad file of a run and what to do (shared with ``report``)."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    problems = result.problems
    listed = f"'leaves verify {shell_word(run_dir)}' lists them"
    more = f" (and {len(problems) - 1} more: {listed})" if len(problems) > 1 else ""
    first = f"{run_dir / problems[0].path} is bad: {problems[0].reason}{more}"
    return f"{first}; {resume_or_why_not(run_dir, result)}"


def resume_or_why_not(run_dir: Path, result: Verification) -> str:
    """``advice``, unless the resume it would advise refuses the run (``resume_problem``):
    then why, in ``leaves verify``'s words, so report, compare and replay never advise a
    resume that verify and the resume itself refuse."""
    from tournaments.manifest_fields import NotThisVersion

    refused = resume_problem(run_dir)
    if isinstance(refused, NotThisVersion):
        return f"this version cannot resume {run_dir}: {refused}; {refused.advice}"
    if refused is not None:
        return f"a resume refuses the manifest of {run_dir}: {refused}; {NO_MANIFEST}"
    return advice(run_dir, result)


def unfinished_state(run_dir: Path) -> str:
    """How an unfinished run stands: to be finished with --resume, or, while a process holds
    its lock, being played (--resume is refused then). A --precision run's resume, and a
    gauntlet's, is the command every other advice names (``run_state.manifest_command``: with
    the target and cap its manifest keeps; ``leaves gauntlet``): a plain --resume would play it
    as a plain run, and ``leaves tournament --resume`` refuses a gauntlet. The manifest alone
    names it: no chunk is read."""
    from tournaments.run_state import continue_command, manifest_command  # start-up: numpy
    from tournaments.storage import lock_holder

    holder = lock_holder(run_dir)
    if holder:
        return f"unfinished: it is being played now ({holder}); verify it again once it ends"
    command = manifest_command(run_dir, _manifest(run_dir))
    resume = "--resume" if command == continue_command("tournament", run_dir) else f"'{command}'"
    return f"unfinished ({resume} finishes it{game_missing(run_dir)})"


@click.command("verify")
@click.argument("run_dir", type=FileName(path_type=Path, noun="run directory"))
@click.option("--deep", is_flag=True,
              help="Read every chunk too, as the reports and a resume read it (rows, "
              "aggregates, records), and hold it against the chunk the manifest's schedule "
              "lays out: a file whose checksum matches but that cannot be read, or holds "
              "other rows, is bad. Costs what reading the run costs.")  # fmt: skip
def verify(run_dir: Path, deep: bool) -> None:
    """Check a tournament run, and each run its folder holds ('leaves run --rules'), named:
    every file of every finished chunk against the size and checksum its manifest recorded,
    the merged files of a finished run and its --record file, and files that do not belong to
    the run (a stray .parquet is warned of: 'leaves report' skips it), reading no contents (its
    line says so). Changes nothing. With --deep, every file the checksums vouch for is read
    too, as the reports and a resume read it, and held against the chunk the manifest's
    schedule lays out, a chunk's aggregates against its rows: one that cannot be read, or holds
    other rows, is bad (a resume takes it for whole: the advice removes it first).

    Exit code 0 when every file checks out (an unfinished run is fine: --resume finishes it,
    given a --precision run's --precision and --max-games, which the advice names; one a
    process still plays is said to be played now; a resume of a run whose game this
    installation cannot load is said to wait for it); 1 with the list of bad files
    (missing, truncated, corrupt, or copied from another run) and what mends them: --resume
    replays the run's own and drops the manifest's entries that name no chunk of it, a file
    that is not the run's is to be removed, and a manifest that cannot be used, or that a
    resume refuses (a field it reads missing, game settings the game cannot take), leaves
    nothing to resume; 1 too, in one line, for an unfinished run another version played
    (an older one, or a newer one's seating or table size: the version that played it
    resumes it), for a run whose manifest records no checksums (an older version's: --resume
    replays every chunk), and for a finished run's forfeits.json that matches its checksum
    but that Python will not read (--resume writes it again); 2 for RUN_DIR
    that does not exist, is a file or holds no run (no manifest.json; a folder of runs, as
    'leaves variants' writes, has them named; a run's folder without it is said to have lost
    it: nothing resumes it then).

    \b
    Examples:
      leaves verify runs/a
      leaves verify --deep runs/a
      leaves verify runs/a || leaves tournament ... --out runs/a --resume
    """
    if not run_dir.exists():
        raise CLIError(f"run directory not found: {run_dir}", usage=True)
    if not run_dir.is_dir():
        raise CLIError(f"not a run directory: {run_dir}", usage=True)
    if not (run_dir / MANIFEST).exists():  # a directory there: a manifest that cannot be used
        raise CLIError(no_run_message(run_dir), usage=True)
    nested = runs_in(run_dir)  # runs of its own ('leaves run --rules': under today's rules)
    failed = []
    for one in (run_dir, *nested):
        try:
            verify_one(one, deep, named=bool(nested))
        except CLIError as exc:  # each run's line; the exit code the last one's
            failed.append(exc)
    for exc in failed[:-1]:
        exc.show()
    if failed:
        raise failed[-1]


def verify_one(run_dir: Path, deep: bool, named: bool = False) -> None:
    """``leaves verify`` of the one run in ``run_dir`` (``named``: said by its folder, as the
    run of a folder holding several)."""
    from tournaments.manifest_fields import NotThisVersion
    from tournaments.run_state import between_stages
    from tournaments.verify import STRAY, row_strays, verify_run

    broken = manifest_problem(run_dir)
    if broken is not None:  # --resume refuses it too: no advice that fails
        path = run_dir / MANIFEST  # named once, not twice: "is not valid JSON", "cannot be read"
        said = broken.removeprefix(f"{path} is ").removeprefix(f"{path} ")
        click.echo(f"bad: {path}: {said}")
        raise CLIError(f"the manifest of {run_dir} cannot be used: {broken}; {NO_MANIFEST}")
    result = verify_run(run_dir, records=True)
    contents = read_through(run_dir, result) if deep else None
    records_bad = result.record is not None and result.record[1] is not None
    complete = result.complete and not between_stages(_manifest(run_dir))  # no stage to come
    whole = result.ok and complete and not records_bad  # nothing a resume would do
    whole = whole and not (contents and contents.problems)
    refused = None if whole else resume_problem(run_dir)
    if isinstance(refused, NotThisVersion):  # no file is bad: this version cannot take it
        raise CLIError(f"this version cannot resume {run_dir}: {refused}; {refused.advice}")
    if refused is not None:  # what the advice would be (a resume) refuses it: said instead
        click.echo(f"bad: {run_dir / MANIFEST}: {refused}")
        raise CLIError(f"a resume refuses the manifest of {run_dir}: {refused}; {NO_MANIFEST}")
    if not result.has_checksums:  # an older version's manifest: no file is known to be bad
        raise CLIError(f"{run_dir} cannot be verified: its manifest records no checksums (an "
                       "older version wrote it; a resume records them); "
                       f"{resume_hint(run_dir, 'every chunk')}")  # fmt: skip
    if whole:
        readable_forfeits(run_dir)
    for rel in row_strays(run_dir, _manifest(run_dir)):  # no problem of the run: said apart
        click.echo(f"warning: {run_dir / rel}: {STRAY.format(folder=run_dir / rel.split('/')[0])}")
    say_verified(run_dir, result, contents, complete, named)


def read_through(run_dir: Path, result: Verification) -> Contents | None:
    """``--deep``: every file the checksums vouch for read as the reading commands read it
    (``tournaments.verify_contents``); None where no checksum vouches for any (nothing to
    read: the check of the files said why)."""
    from tournaments.verify_contents import read_contents

    if not result.has_checksums:
        return None
    return read_contents(run_dir, _manifest(run_dir), result, read_part)


def read_part(path: Path, manifest: dict) -> PartRows:
    """A rows part read as the reports read it (``reports.loading``): a games part by
    ``load_games``, under the run's declaration; a matches part as ``load_run`` reads it."""
    import numpy as np  # start-up: as every import here
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pandas import read_parquet

    from reports.data import run_declaration
    from reports.loading import load_games
    from tournaments.verify_contents import PartRows

    if path.parent.name == "matches":
        try:
            frame = read_parquet(path)
        except (OSError, pa.ArrowException) as exc:
            raise ValueError(f"cannot read matches part {path}: {exc}") from None
        unique = {c: tuple(np.unique(frame[c]).tolist()) for c in ("n_players", "table")
                  if c in frame.columns}  # fmt: skip
        return PartRows(len(frame), unique.get("n_players", ()), unique.get("table", ()))
    try:  # no rows: the reports' reader says "the run has no games", not of one part
        if pq.read_metadata(path).num_rows == 0:
            return PartRows(0)
    except (OSError, pa.ArrowException):  # ``load_games`` says why, in the reports' words
        pass
    games = load_games([path], run_declaration(manifest))
    taken, seat = games.seats >= 0, np.arange(games.seats.shape[1])
    beyond = (games.winner < -1) | (games.winner >= games.n_players)
    tables = () if games.table is None else tuple(np.unique(games.table).tolist())
    per = [np.bincount(games.seats[taken & m], minlength=len(games.labels)) for m in
           (taken, games.wins(), seat == games.forfeit_seat[:, None])]  # fmt: skip
    per.append(np.bincount(games.seats[taken], games.values[taken], len(games.labels)))
    counts = {label: tuple(int(c[i]) for c in per) for i, label in enumerate(games.labels)}
    return PartRows(len(games), tuple(np.unique(games.n_players).tolist()), tables,
                    tuple(label for label, n in counts.items() if n[0]), int(beyond.sum()),
                    counts)  # fmt: skip


def say_verified(run_dir: Path, result: Verification, contents: Contents | None,
                 complete: bool, named: bool = False) -> None:  # fmt: skip
    """The bad files and what mends them (exit 1), or the line that the run checks out:
    its contents read too (``--deep``), or not; ``named``: the run's folder said in it."""
    record = result.record[1] if result.record is not None else None
    unread = contents.problems if contents is not None else []
    if not result.ok or record is not None or unread:
        listed = [*result.problems, *([record] if record else []), *unread]
        for problem in listed:
            click.echo(f"bad: {run_dir / problem.path}: {problem.reason}")
        n = len({problem.path for problem in listed})  # a file may be bad in several ways
        todo = [advice(run_dir, result)] if result.problems else []
        if record is not None:
            todo.append(rewrite_hint(run_dir, run_dir / record.path))
        todo += remove_first(run_dir, unread)
        raise CLIError(f"{n} bad file(s) in {run_dir}: {'; '.join(todo)}")
    state = "complete" if complete else unfinished_state(run_dir)
    read = (f"verified and read ({result.files_checked} files)" if contents is not None else
            f"verified ({result.files_checked} files; contents not read: --deep reads them)")  # fmt: skip
    click.echo(f"ok: {len(result.done)} of {result.n_chunks} chunks{f' of {run_dir}' * named} "
               f"{read}; run {state}{records_words(result)}")  # fmt: skip


def remove_first(run_dir: Path, problems: list[Problem]) -> list[str]:
    """What mends files that match their checksums but cannot be read (``--deep``): a resume
    takes them for whole, so they are removed first; it then writes them again, as it does
    a missing file (a chunk's, by playing it again; the merged aggregates, from the chunks;
    a ``--record`` file: ``rewrite_hint``); a manifest whose seed dealt none of the run's
    games: the seed put back (``RESTORE_ADVICE``), never a resume, which would mix seeds."""
    from tournaments.storage import lock_holder
    from tournaments.verify_contents import MERGED, REMOVE_FIRST, RESTORE, RESTORE_ADVICE

    inside = sorted({p.path for p in problems if p.resume == REMOVE_FIRST})
    restore = {p.path for p in problems if p.resume == RESTORE}
    records = sorted({p.path for p in problems} - set(inside) - restore)
    seed = _spec(run_dir).get("seed")
    todo = [RESTORE_ADVICE.format(manifest=run_dir / MANIFEST, seed=seed)] if restore else []
    if inside:
        names = ", ".join(str(run_dir / rel) for rel in inside)
        chunks = [rel for rel in inside if rel != MERGED]  # the merged file: from the chunks
        them = "" if not chunks else "it" if len(chunks) == 1 else "them"
        again = resume_hint(run_dir, them, merged=tuple(sorted(set(inside) - set(chunks))))
        hint = f"remove {names}, then {again}"
        holder = lock_holder(run_dir)  # a resume is refused while the run is played
        todo.append(hint + (f" once the process playing the run now ({holder}) ends"
                            if holder else ""))  # fmt: skip
    for rel in records:
        todo.append(f"remove {run_dir / rel}, then {rewrite_hint(run_dir, run_dir / rel)}")
    return todo


def readable_forfeits(run_dir: Path) -> None:
    """A complete run's forfeits.json read as its report reads it: one its checksum vouches
    for that Python still will not read (lists nested past its recursion, a number past its
    digits) is said in the report's one line, never "ok" (the run's chunks are not read: a
    file of at most ``FORFEIT_DETAILS_MAX`` forfeits is read, where it is there)."""
    from tournaments.result import TournamentResult

    if not (run_dir / "forfeits.json").is_file():  # missing: a file verify_run names
        return
    try:
        TournamentResult(run_dir).forfeit_details()
    except OSError as exc:  # ``DamagedFile``: it names the file and what mends it
        raise CLIError(str(exc)) from None


def rewrite_hint(run_dir: Path, path: Path) -> str:
    """The resume that writes the run's damaged ``--record`` file ``path`` again: a plain one
    writes where the manifest places it (``verify.record_location``; an older version's,
    relative to the folder the command runs in), so ``--record`` names the file unless that
    is it; where the file's folder is gone (``--record`` into it would be refused), it names
    the file as the run was first given it (its name alone where that folder is gone too),
    saying where that writes (and what it waits for: ``game_missing``)."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy
    from tournaments.verify import record_location

    manifest = _manifest(run_dir)
    stored = manifest.get("record_file")
    told = Path(stored) if isinstance(stored, str) else path
    plain = record_location(run_dir, manifest) or told
    resume = f"leaves tournament --out {shell_word(run_dir)} --resume"
    again = "writes it again from the run's chunks"
    if not path.parent.is_dir():
        into = told if told.parent.is_dir() else Path(told.name)
        said = (f"'{resume} --record {shell_word(into)}' {again}, into {into} (the "
                f"folder {path.parent} is gone)")  # fmt: skip
    elif plain.resolve() == path.resolve():
        first = f"remove the directory {path}, then " if path.is_dir() else ""
        said = f"{first}'{resume}' {again} ({path})"
    else:
        said = f"'{resume} --record {shell_word(path)}' {again} ({path})"
    return said + game_missing(run_dir)


def records_words(result: Verification) -> str:
    """What was checked of a complete run's ``--record`` file: verified, or not checked where
    its manifest keeps no checksum of it (an older version's); nothing for a run without."""
    if result.record is not None:
        return f"; records in {result.record[0]} verified"
    if result.record_unchecked is not None:
        return (f"; records in {result.record_unchecked} not checked (an older version kept "
                "no checksum of them)")  # fmt: skip
    return ""
