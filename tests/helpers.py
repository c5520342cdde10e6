"""Small builders for hand-made positions in tests, a command-line runner, and references the
tests of several modules share: the pages of docs/ as their claims are read, a C engine as an
install without a compiler finds it, and the users' strategy files a test loads, forgotten
after it."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import click
import numpy as np
import pandas as pd
import pytest

from leaves import DECK, State

MASK64 = (1 << 64) - 1
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` as a module (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ref_splitmix64(state: int, index: int) -> int:
    """Output ``index`` of splitmix64 from ``state``, stepping the generator (Vigna's C code)."""
    x = state
    for _ in range(index + 1):
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out = z ^ (z >> 31)
    return out


def counts(**by_value: int) -> list[int]:
    """13 counts from keywords like v6=3, v12=2."""
    out = [0] * 13
    for key, c in by_value.items():
        out[int(key[1:]) - 1] = c
    return out


def position(hands, table=None, passed=None, current=0, known=None, removed=None, **extra):
    """A valid state: the given hands/table, every other card undealt."""
    n = len(hands)
    table = table or [0] * 13
    removed = removed or [0] * 13
    undealt = [DECK[v] - sum(h[v] for h in hands) - table[v] - removed[v] for v in range(13)]
    d = {
        "hands": hands,
        "table": table,
        "removed": removed,
        "undealt": undealt,
        "passed": passed or [False] * n,
        "current_player": current,
        "known": known,
        **extra,
    }
    return State.from_dict(d)


def cli(capsys, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``leaves ARGS`` run in this process."""
    from leaves_cli.main import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def exit_code(args: list[str]) -> int:
    """The exit code of ``leaves ARGS`` run in this process, its output left where it goes
    (to ``capsys`` or the terminal)."""
    from leaves_cli.main import main

    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def same_run(a, b) -> None:
    """Two runs (``TournamentResult``) hold the same games and aggregates, to the bit."""
    import numpy as np
    import pandas as pd

    pd.testing.assert_frame_equal(a.games(), b.games())
    agg_a, agg_b = a.aggregates(), b.aggregates()
    assert agg_a.keys() == agg_b.keys()
    for key, value in agg_a.items():
        np.testing.assert_array_equal(value, agg_b[key], err_msg=key)


SMALL_RUN = ("tournament", "random", "greedy", "low", "--players", "3", "--seed", "1",
             "--jobs", "1")  # fmt: skip
"""A small tournament of the command line: 6 games a deal (one table of 3, 6 seatings)."""
SMALL_PRECISION = (*SMALL_RUN, "--chunk-size", "6", "--games", "30", "--precision", "0.1",
                   "--max-games", "60")  # fmt: skip
"""A precision run of it, a chunk a deal: 30 games first (5 chunks), grown to its cap of 60,
its target never reached."""


class TerminatedWorkerError(Exception):
    """joblib's error where a local worker process died, by its name."""


@contextlib.contextmanager
def stop_after_two_chunks(stop: BaseException | type[BaseException]) -> Iterator[None]:
    """Within it, a run stops by raising ``stop`` once 2 of its chunks are written (and
    saved as interrupted, as the runner's own handlers save them)."""
    from tournaments.runner import Tournament

    real = Tournament._play

    def two_then_stop(self, pending, runlog, players, progress):
        real(self, pending[:2], runlog, players, progress)
        runlog.save("interrupted", force=True)
        raise stop

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Tournament, "_play", two_then_stop)
        yield


def ctrl_c_after_two_chunks() -> contextlib.AbstractContextManager[None]:
    """Within it, a run stops as Ctrl-C stops it once 2 of its chunks are written."""
    return stop_after_two_chunks(KeyboardInterrupt)


def dead_worker_after_two_chunks() -> contextlib.AbstractContextManager[None]:
    """Within it, a run stops as a dead local worker stops it once 2 chunks are written."""
    return stop_after_two_chunks(
        TerminatedWorkerError("A worker process managed by the executor was killed")
    )


def stopped(*args: str) -> tuple[int, str, str]:
    """``leaves ARGS`` stopped as Ctrl-C stops a run once 2 of its chunks are written:
    (exit code, stdout, stderr)."""
    with ctrl_c_after_two_chunks():
        return cli_output(*args)


def stopped_run(out, strategies: list[str]) -> tuple[int, str]:
    """``leaves tournament`` of ``strategies`` (3 players, 24 games in 4 chunks, seed 1) into
    ``out``, stopped once 2 chunks are written (``stopped``): (exit code, stderr)."""
    code, _, err = stopped("tournament", *strategies, "--players", "3", "--games", "24",
                           "--chunk-size", "6", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    return code, err


def advice(out: Path) -> list[str]:
    """The command the unfinished run in ``out`` is told to continue with (the first line of
    its state), split as a shell splits it: a test runs it as printed."""
    from tournaments.run_state import run_state  # read a run's state only where a test asks

    first = run_state(out).lines()[0]
    assert first.startswith("Unfinished run: "), first
    return named_command(r"continue it with '(.*)'\.$", first)


def named_command(pattern: str, text: str) -> list[str]:
    """The command ``text`` names in the first group of ``pattern``, split as a shell splits
    it (e.g. "interrupted: '(.*)' continues it")."""
    found = re.search(pattern, text)
    assert found, text
    return shlex.split(found[1])


def usage_error(capsys, args: list[str]) -> str:
    """The one line of ``leaves ARGS``'s usage error (exit code 2)."""
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    return one_error_line(err)


def one_error_line(err: str) -> str:
    """The error line, checked to be the only line of stderr, free of a traceback and of a raw
    ``[Errno N]``."""
    assert "Traceback" not in err and "Errno" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("leaves: error: "), err
    return lines[0]


def cli_output(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``leaves ARGS`` in this process, for module fixtures
    (``capsys`` is a test's)."""
    import contextlib
    import io

    from leaves_cli.main import main

    stdout, stderr = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
        pytest.raises(SystemExit) as exc,
    ):
        main(list(args))
        raise SystemExit(0)
    return int(exc.value.code or 0), stdout.getvalue(), stderr.getvalue()


def workers_play_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start workers at once and let the driver play only once they are ready (they get tasks
    only then, and a short run would otherwise end in the driver first): for tests that
    compare chunks played in workers with chunks played in the driver."""
    import time

    from tournaments import local

    real = local._Feed.take

    def take(self):
        deadline = time.monotonic() + 120
        while self.started and self._ready == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        return real(self)

    monkeypatch.setattr(local, "PAYBACK", 0.0)  # any work pays
    monkeypatch.setattr(local._Feed, "take", take)


def threads_play_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the driver of a threaded run take a task only once a player thread has taken
    one (or there is none left): a short run would otherwise end in the driver first. For
    tests that compare chunks played in threads with chunks played in the driver."""
    import time

    from tournaments import local

    real = local._Threads.take

    def take(self):
        deadline = time.monotonic() + 120
        while self.taken == 0 and not self._exhausted and time.monotonic() < deadline:
            time.sleep(0.001)
        return real(self)

    monkeypatch.setattr(local._Threads, "take", take)


def processes_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """13 Leaves runs play in worker processes, as runs whose play holds the GIL do."""
    from leaves.plugin import LeavesGame

    monkeypatch.setattr(LeavesGame, "plays_without_gil", lambda self, payloads, expert: False)


def as_written_without(out, keys) -> None:
    """The run in ``out`` as a version before the aggregates counted ``keys`` wrote it: no such
    arrays in its aggregates, the run's or any chunk's, and the manifest's checksums of those
    files as that version recorded them."""
    import json

    from tournaments import aggregates, storage

    manifest = json.loads((out / "manifest.json").read_text())
    part = manifest["integrity"]
    entries = [part["files"], *part["chunks"].values()]
    for path in [out / "aggregates.npz", *sorted(out.rglob("chunk*.npz"))]:
        agg, extra = aggregates.load(path)
        aggregates.save(path, {k: v for k, v in agg.items() if k not in keys}, **extra)
        rel = path.relative_to(out).as_posix()
        for where in entries:
            if rel in where:
                where[rel] = storage.file_entry(path.read_bytes())
    (out / "manifest.json").write_text(json.dumps(manifest))


SOMETIMES = str(Path(__file__).with_name("sometimes_strategy.py")) + ":Sometimes"
"""A tests-only Ligretto strategy that forfeits the rounds where a 6 tops its stack."""


def forfeiting_run(out, *extra: str) -> Path:
    """``out`` holding a 2-player Ligretto run of 40 rounds, seed 1, where ``SOMETIMES``
    forfeits some rounds against ``stack`` (``extra``: more options, e.g. --jobs 2)."""
    code, _, err = cli_output("tournament", "--game", "ligretto", SOMETIMES, "stack",
                              "--players", "2", "--games", "40", "--seed", "1", "--jobs", "1",
                              *extra, "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def copied_run(run: Path, tmp_path: Path, edit: Callable[[dict], None] | None = None,
               name: str = "copy") -> Path:  # fmt: skip
    """A copy of the run folder ``run`` in ``tmp_path / name``, its manifest changed in place
    by ``edit`` (None: unchanged): a run to damage, the module's own left whole."""
    copy = tmp_path / name
    shutil.copytree(run, copy)
    if edit is not None:
        manifest = json.loads((copy / "manifest.json").read_text())
        edit(manifest)
        (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


def compared_rule_sets(root: Path) -> str:
    """What 'leaves compare' prints of two small runs on the same deals, ``root / "a"`` under
    today's rules and ``root / "b"`` under ``take=ends``: a comparison with real figures."""
    for name, extra in (("a", ()), ("b", ("--rules", "take=ends"))):
        code, _, err = cli_output("tournament", "greedy", "random", "counter", "--games", "300",
                                  "--seed", "1", "--jobs", "1", "--out", str(root / name),
                                  *extra)  # fmt: skip
        assert code == 0, err
    code, said, err = cli_output("compare", str(root / "a"), str(root / "b"))
    assert code == 0, err
    return said


def assert_command_parses(line: str) -> None:
    """``line`` (``leaves NAME ARGS...``) names a command whose options parse as written, the
    check both the README's and the examples' commands pass."""
    from leaves_cli.main import all_commands, cli  # the command line, loaded when a test asks

    name, *args = shlex.split(line)[1:]
    assert name in all_commands(), line
    command = cli.get_command(click.Context(cli), name)
    with command.make_context(name, list(args)) as ctx:  # raises on a bad option
        assert ctx.params is not None


DOCS = Path(__file__).resolve().parents[1] / "docs"


def doc_page(page: str) -> str:
    """``docs/<page>`` as written."""
    return (DOCS / page).read_text(encoding="utf-8")


def doc_text(page: str) -> str:
    """``docs/<page>`` on one line, so that a sentence the page wraps is matched whole."""
    return " ".join(doc_page(page).split())


def doc_says(page: str, pattern: str) -> re.Match:
    """The match of ``pattern`` in ``docs/<page>`` on one line, which must state it."""
    found = re.search(pattern, doc_text(page))
    assert found, f"docs/{page} no longer says: {pattern}"
    return found


def doc_number(text: str) -> int | float:
    """A figure as a page writes it (`1,600`, `0.05`): an int unless it has a decimal point."""
    plain = text.replace(",", "")
    return float(plain) if "." in plain else int(plain)


NO_CC = "no-such-compiler-here"
NO_CC_LINE = (
    f"leaves: no C compiler found ({NO_CC}): playing on numba, which compiles for about a "
    "minute on first use; install a C compiler (gcc) for a fast first run"
)
NO_CC_MAY = NO_CC_LINE.replace("which compiles", "which may compile")


def fresh_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: ModuleType,
                 source: str | None = None):  # fmt: skip
    """``module``'s C engine (13 Leaves' ``engine`` or Ligretto's ``cengine``) made afresh from
    copied sources with nothing built beside them (``source`` replacing its entry file where
    given), and this process's fallback line not said yet: how an install finds it before its
    first build."""
    from gamekit import cbuild

    monkeypatch.setenv("LEAVES_CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / module.__name__
    shutil.copytree(module.CSRC, src)
    if source is not None:
        (src / cbuild.ENTRY).write_text(source)
    fresh = cbuild.Engine(src, module.NAME, module._declare)
    monkeypatch.setattr(module, "ENGINE", fresh)
    for name in ("library", "available", "why_not"):
        monkeypatch.setattr(module, name, getattr(fresh, name))
    monkeypatch.setattr(cbuild, "_said", False)
    monkeypatch.setenv(cbuild.SAID, "")  # said in this test alone
    return fresh


def no_compiler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: ModuleType):
    """``fresh_engine`` as an install without a C compiler finds it: ``CC`` names no program
    and ``LEAVES_ENGINE`` chooses nothing."""
    monkeypatch.setenv("CC", NO_CC)
    monkeypatch.delenv("LEAVES_ENGINE", raising=False)
    return fresh_engine(tmp_path, monkeypatch, module)


_RUN_ON_SOURCES = """
import sys
from pathlib import Path
from leaves.players.compiled import engine
engine.ENGINE.csrc = Path(sys.argv[1])
from leaves_cli import main
sys.argv = ["leaves", *sys.argv[2:]]
main()
"""


def said_once_then_not_when_cached(tmp_path: Path, args: list[str], timeout: int) -> None:
    """``leaves ARGS`` run twice in a child process without a C compiler, stderr a pipe: the
    first run says the fallback line once and nothing else of its own; the second, numba's
    cache holding what the first compiled, does not say it."""
    import os
    import subprocess
    import sys

    from leaves.players.compiled import engine

    src = tmp_path / "csrc"
    shutil.copytree(engine.CSRC, src)
    env = {**os.environ, "CC": NO_CC, "LEAVES_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("NUMBA_CACHE_DIR", "LEAVES_KEYED_NUMBA_CACHE", "LEAVES_ENGINE"):
        env.pop(name, None)
    env.pop("NUMBA_DISABLE_JIT", None)  # the quick suite's setting: the cache needs numba's JIT
    errs = []
    for out in ("a", "b"):
        command = [sys.executable, "-c", _RUN_ON_SOURCES, str(src), *args, "--out",
                   str(tmp_path / out)]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=timeout)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        errs.append(done.stderr)
    first = errs[0].splitlines().count(NO_CC_LINE)
    assert first == 1, f"said {first} times: {errs[0][-2000:]}"
    assert "leaves: " not in errs[0].replace(NO_CC_LINE, ""), errs[0][-2000:]
    assert "playing on numba" not in errs[1], errs[1][-300:]


def refused_alike(capsys, bad: Path, why: str) -> None:
    """A damaged manifest of the run ``bad`` said alike, naming the file, by verify (a bad
    file), report and a resume (corrupt manifest, refused before any chunk is verified)."""
    from tournaments import storage  # the run's file names, loaded when a test asks

    path = bad / storage.MANIFEST
    code, out, _ = cli(capsys, "verify", str(bad))
    assert code == 1 and f"bad: {path}: {why}" in out.splitlines(), out
    code, _, err = cli(capsys, "report", str(bad), "--out", str(bad.parent / "report"))
    assert code == 1
    assert one_error_line(err).startswith(f"leaves: error: corrupt manifest {path}: {why};")
    code, out, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1 and "verified" not in out + err
    from leaves_cli.verify_cmd import NO_MANIFEST  # the advice a run not resumed gets

    expected = f"leaves: error: cannot resume {bad}: corrupt manifest {path}: {why}; {NO_MANIFEST}"
    assert one_error_line(err) == expected


def precision_config_refusal(capsys, folder: Path, config: str, *args: str) -> str:
    """The one line a precision tournament of three heuristics refuses with, its options from
    a ``c.toml`` in ``folder`` holding ``config`` and from ``args`` typed beside it ("{c}" in
    the line where the file's path is): exit 2, and no run folder made."""
    path = folder / "c.toml"
    path.write_text("precision = 1.0\n" + config)
    out = folder / "o"
    code, _, err = cli(capsys, "tournament", "greedy", "random", "low", "--players", "3",
                       "--config", str(path), *args, "--out", str(out))  # fmt: skip
    assert code == 2 and not out.exists(), err
    return one_error_line(err).replace(str(path), "{c}")


# ------------------------------------------------ the variants report's tables, made by hand
VARIANT_LABELS = ["default", "hand_size=9"]
"""The rule sets of the hand-made variants tables: the default and one variant."""


def variants_metrics(rows: list[tuple]) -> pd.DataFrame:
    """A variants metrics table from (rules, metric, n_players, position, value, lo, hi): the
    other columns as a run of 40 deal sets writes them, so a sentence's figures come from the
    rows the test gives."""
    return pd.DataFrame([
        {"rules": r, "metric": m, "n_players": n, "position": p, "value": v, "ci_low": lo,
         "ci_high": hi, "fair": 0.25 if m == "seat" else np.nan, "se": 0.01, "df": 40.0,
         "detail": "weighted - random" if m == "skill_spread" else "", "deal_sets": 40,
         "games": 960}
        for r, m, n, p, v, lo, hi in rows
    ])  # fmt: skip


def variants_diffs(rows: list[tuple]) -> pd.DataFrame:
    """A variants differences table from (rules, metric, n_players, position, diff, lo, hi,
    significant): a significant row's p-values are 0.001, any other's 0.4, so the test's flag
    alone says which differences are clear."""
    return pd.DataFrame([
        {"rules": r, "metric": m, "n_players": n, "position": p, "diff": d, "ci_low": lo,
         "ci_high": hi, "se": 0.01, "df": 40.0, "p_value": 0.001 if s else 0.4,
         "p_holm": 0.001 if s else 0.4, "significant": s, "method": "paired"}
        for r, m, n, p, d, lo, hi, s in rows
    ])  # fmt: skip


# ------------------------------------------------ users' strategy files a test loads
@contextlib.contextmanager
def loaded_files_forgotten() -> Iterator[None]:
    """The users' files loaded inside (``--load``, ``file.py:Class``) forgotten at its end: the
    names their classes registered are unregistered (a later test's list of strategies stays
    the built-ins'), which drops the loader's copy of each file too, and the copies of files
    that registered no name are dropped alike: a later load of any of them runs the file
    again and registers its names afresh."""
    from strategies import registry, user_code  # loaded when used, as the tests' own imports

    files = set(user_code._FILE_MODULES)
    modules = {name for name in sys.modules if name.startswith(user_code.USER_MODULE)}
    before = {game: dict(registry._REGISTRIES[game]) for game in registry.games()}
    try:
        yield
    finally:
        for game in registry.games():
            for name, cls in list(registry._REGISTRIES[game].items()):
                if cls.__module__.startswith(user_code.USER_MODULE) and (
                    before.get(game, {}).get(name) is not cls
                ):
                    registry.unregister(name, game)
        for key in set(user_code._FILE_MODULES) - files:
            del user_code._FILE_MODULES[key]
        for name in [n for n in sys.modules if n.startswith(user_code.USER_MODULE)]:
            if name not in modules:
                del sys.modules[name]


@pytest.fixture
def forget_loaded_files() -> Iterator[None]:
    """``loaded_files_forgotten`` around a test (import it into a test module to use it)."""
    with loaded_files_forgotten():
        yield


_LOGGING_BOT = """import os
import time

from strategies import Strategy


class Bot(Strategy):
    name = {name!r}
    description = {description!r}

    def __init__(self, pick: int = {pick}):
        self.pick = pick

    def choose(self, view, legal, rng):
        if os.getpid() == {driver}:  # the driver slow: the workers play, however busy the machine
            time.sleep(0.002)
        with open({log!r}, "a", encoding="utf-8") as f:
            f.write(f"{{os.getpid()}} {{self.pick}}\\n")
        return legal[min(self.pick, len(legal) - 1)]
"""


def logging_bot(name: str, description: str, pick: int, log: str, driver: int = -1) -> str:
    """The source of a user's strategy file whose ``Bot`` (registered as ``name``) plays the
    legal move at ``pick`` (its parameter's default) and appends ``PID PICK`` to the file
    ``log`` at each decision, so a test reads which process played which version; in the
    process ``driver`` (a pid; -1: none) it sleeps first, so worker processes play the games."""
    return _LOGGING_BOT.format(name=name, description=description, pick=pick, log=log,
                               driver=driver)  # fmt: skip
