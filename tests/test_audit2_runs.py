"""Run states at the edges: interrupted, damaged and resumed runs, and the one-line advice
given about them (each sentence checked by following it)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import cli

FIELD = ["greedy", "low", "high", "minimal"]
SMALL = [*FIELD, "--players", "4", "--games", "240", "--seed", "3", "--jobs", "1"]


def test_resume_without_a_manifest_in_a_full_folder_gives_advice_that_works(tmp_path, capsys):
    """A folder that lost its manifest cannot be resumed, and, not being empty, cannot hold a
    new run either: the refusal must not send the user to the other refusal."""
    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--out", str(run))[0] == 0
    (run / "manifest.json").unlink()
    code, _, err = cli(capsys, "tournament", *SMALL, "--out", str(run), "--resume")
    assert code == 2 and err.count("\n") == 1
    assert "leave out --resume" not in err and "a new --out" in err
    empty = tmp_path / "empty"  # an empty folder: starting a run there is the way
    code, _, err = cli(capsys, "tournament", *SMALL, "--out", str(empty), "--resume")
    assert code == 2 and "leave out --resume to start one there" in err
    assert cli(capsys, "tournament", *SMALL, "--out", str(empty))[0] == 0
    assert Path(empty, "manifest.json").is_file()


def test_sigterm_stops_a_run_as_ctrl_c_does_recording_every_finished_chunk(tmp_path):
    """``kill PID`` (or ``timeout``, or a batch system ending the job) sends SIGTERM: the run
    must stop as after Ctrl-C, its manifest recording every chunk whose files are on disk
    (otherwise up to 2 s of them are on disk unrecorded, and the run says it is running)."""
    run = tmp_path / "run"
    args = [*FIELD, "--players", "4", "--games", "2000000", "--seed", "3", "--jobs", "1"]
    cmd = [sys.executable, "-m", "leaves_cli", "tournament", *args, "--out", str(run)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(run.glob("games/part-*.parquet")) and time.monotonic() < deadline:
        if proc.poll() is not None:  # the run ended on its own: say why
            pytest.fail(f"the run ended before its first part: {proc.communicate()[1]}")
        time.sleep(0.02)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert (run / "manifest.json").is_file(), err
    manifest = json.loads((run / "manifest.json").read_text())
    parts = sorted(run.glob("games/part-*.parquet"))
    recorded = manifest["integrity"]["chunks"]
    assert proc.returncode == 130 and manifest["status"] == "interrupted"
    assert 0 < len(parts) == len(recorded) < manifest["spec"]["n_chunks"]
    assert f"'leaves tournament --out {run} --resume' continues it" in err


def test_compare_writes_its_table_even_when_its_output_is_cut_short(tmp_path, capsys):
    """``leaves compare A B --out DIR | head -3``: head leaving early ends the printing, and
    the table asked for must not be lost with it: compare.csv is written before a line is
    printed."""
    runs = [tmp_path / "a", tmp_path / "b"]
    for seed, run in enumerate(runs):
        args = [*FIELD, "--players", "4", "--games", "240", "--seed", str(seed), "--jobs", "1"]
        assert cli(capsys, "tournament", *args, "--out", str(run))[0] == 0
    out = tmp_path / "cmp"
    cmd = [sys.executable, "-m", "leaves_cli", "compare", *map(str, runs), "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    proc.wait(timeout=60)
    assert (out / "compare.csv").is_file()
    proc.stderr.close()


@pytest.mark.parametrize("step", ["merging", "syncing"])
def test_ctrl_c_while_a_run_finishes_keeps_every_chunk_recorded(step, tmp_path, monkeypatch):
    """Every chunk is played and written, and Ctrl-C comes while the run merges them or
    syncs its last manifest (``fsync`` can take a while; the last steps are a large part of
    a small batch of a sequential gauntlet): the manifest must still record every chunk and
    say the run was interrupted, not 'running' with the last ones (up to 2 s) unrecorded."""
    from tournaments import Tournament, runner, session

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    save = session.RunLog.save

    def slow_sync(self, status=None, force=False):
        if status == "complete":
            raise KeyboardInterrupt
        save(self, status, force)

    if step == "merging":
        monkeypatch.setattr(runner, "finish", interrupted)
    else:
        monkeypatch.setattr(session.RunLog, "save", slow_sync)
    run = tmp_path / "run"
    t = Tournament(FIELD, players=4, games=480, seed=3, chunk_size=48)
    with pytest.raises(KeyboardInterrupt):
        t.run(out=run)
    manifest = json.loads((run / "manifest.json").read_text())
    n = manifest["spec"]["n_chunks"]
    assert manifest["status"] == "interrupted" and n > 1
    assert manifest["n_chunks_done"] == n == len(manifest["integrity"]["chunks"])
    monkeypatch.undo()
    whole = t.run(out=tmp_path / "whole")
    again = t.run(out=run, resume=True)
    assert again.games().equals(whole.games())


def test_ctrl_c_while_waiting_for_a_chunk_to_be_written_loses_no_chunk(monkeypatch):
    """Ctrl-C while the driver waits for the writing thread (the end of every batch): the
    chunk being waited for is written all the same, so the interrupted run must still
    record it, not leave its files on disk unrecorded."""
    from concurrent.futures import Future

    from tournaments.session import Writer

    writer = Writer(lambda output: {f"games/part-{output}.parquet": [1, "x"]})
    writer.put(7)
    result, calls = Future.result, []

    def interrupted_once(self, timeout=None):
        if not calls:
            calls.append(1)
            raise KeyboardInterrupt
        return result(self, timeout)

    monkeypatch.setattr(Future, "result", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        list(writer.written(wait=True))
    assert [output for output, _ in writer.settle()] == [7]
    writer.close()


def test_a_second_ctrl_c_while_settling_still_saves_the_chunks_recorded(tmp_path, monkeypatch):
    """An impatient second Ctrl-C, while the interrupted run waits for its last writes, must
    not cost the chunks it had recorded already (the manifest is rewritten at most every
    2 s, so those were recorded in memory only): they are saved, and the run says it was
    interrupted."""
    from tournaments import Tournament, session

    written, calls = session.Writer.written, []

    def interrupted_later(self, wait=False):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return written(self, True)  # each chunk recorded as soon as it is played

    def interrupted_again(self):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(session.Writer, "written", interrupted_later)
    monkeypatch.setattr(session.Writer, "settle", interrupted_again)
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        Tournament(FIELD, players=4, games=480, seed=3, chunk_size=48).run(out=run)
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["n_chunks_done"] == 3


def test_resuming_a_gauntlet_as_a_tournament_names_a_command_that_works(tmp_path, capsys):
    """The refusal names the command that continues the gauntlet; given alone, 'leaves
    gauntlet --resume' is refused in turn (it needs the run's --out)."""
    run = tmp_path / "g"
    args = ["counter", "--against", "taker", "--games", "96", "--jobs", "1", "--out", str(run)]
    assert cli(capsys, "gauntlet", *args)[0] == 0
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(run))
    assert code == 2 and err.count("\n") == 1
    assert f": resume it with 'leaves gauntlet --resume --out {run}'\n" in err
    code, out, _ = cli(capsys, "gauntlet", "--resume", "--out", str(run))
    assert code == 0 and "counter" in out


def test_replay_refuses_a_damaged_run_naming_the_bad_part(tmp_path, capsys):
    """A part edited since the run (here one game's turns) would be replayed silently, with a
    warning blaming 'a strategy or the code'; the run's files are what changed, and
    ``leaves verify``, ``report`` and ``compare`` refuse it so: replay must too."""
    import pandas as pd

    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--out", str(run))[0] == 0
    part = run / "games" / "part-000000.parquet"
    rows = pd.read_parquet(part)
    rows.loc[rows["game"] == 3, "turns"] = 99
    rows.to_parquet(part, index=False)
    code, _, err = cli(capsys, "replay", str(run), "--game", "3", "--all")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{part} is bad" in err and "--resume" in err


def test_a_manifest_whose_two_seeds_disagree_is_refused_not_grown(tmp_path, capsys):
    """A manifest edited to another spec seed: growing the run would add games of that seed
    to the games of the first, silently. The manifest states the seed twice (the spec's and
    the run's), so the disagreement is seen: verify, resume and report refuse it in one line."""
    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--out", str(run))[0] == 0
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["spec"]["seed"] = 4
    path.write_text(json.dumps(manifest))
    code, out, _ = cli(capsys, "verify", str(run))
    assert code == 1 and "seed" in out
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--add", "240")
    assert code == 1 and err.count("\n") == 1 and "seed is 4, expected 3" in err


def test_resume_says_it_rewrote_a_damaged_merged_file(tmp_path, capsys):
    """verify sends a run whose forfeits.json is damaged to --resume; the resume mends it
    (it rewrites the merged files from the chunks) and must say so, not only 'Nothing to do
    ... 0 replayed'."""
    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--out", str(run))[0] == 0
    (run / "forfeits.json").write_text("{bad")
    code, out, err = cli(capsys, "verify", str(run))
    assert code == 1 and "forfeits.json" in out and "--resume" in err
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume")
    assert code == 0 and "0 replayed, forfeits.json rewritten from the chunks" in err
    assert cli(capsys, "verify", str(run))[0] == 0


def test_a_runs_files_get_the_permissions_of_any_file_the_user_writes(tmp_path, capsys):
    """The run's folders follow the umask (drwxr-xr-x) but its files were all -rw------- (a
    temporary file's mode, kept by the rename): a colleague could list a shared run but not
    read one file of it. Every file gets what the umask gives a new file, as open() does."""
    import os

    mask = os.umask(0)
    os.umask(mask)
    run = tmp_path / "run"
    assert cli(capsys, "tournament", *SMALL, "--out", str(run))[0] == 0
    files = [p for p in run.rglob("*") if p.is_file()]
    assert files and {p.stat().st_mode & 0o777 for p in files} == {0o666 & ~mask}
