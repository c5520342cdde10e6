"""One source each: the run's ``Recorder`` beside the ``Writer`` it feeds (``session``); the
closed-terminal check of a run's stop and of ``leaves play`` (``worker_stop``); a forfeit in
13 Leaves' viewer in the words of every game's replay (``forfeit_words``: the viewer kept its
own, which left 'seat 1: boom' whole and named a seat 'you (seat 0)')."""

from __future__ import annotations

import errno
import os
import termios
import time
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekit.text import printable
from leaves.commands import play_output, play_signals, replay_view
from leaves_cli import worker_stop
from leaves_cli.replay_run import forfeit_words
from tests.test_edge70_interrupt import _Log

# ------------------------------------------------------------------ 1. the recorder


def test_the_recorder_beside_the_writer_saves_on_the_sessions_poll(monkeypatch):
    from tournaments import runner, session

    monkeypatch.setattr(session, "RECORD_POLL_S", 0.01)
    assert runner.Recorder is session.Recorder  # the runner plays with it
    log = _Log()
    recorder = session.Recorder(log, lambda output: {f"part-{output.chunk_id}": [1, "x"]})
    try:
        recorder.write(SimpleNamespace(chunk_id=2))
        deadline = time.monotonic() + 5.0
        while log.saves == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert (log.done, log.saves) == ({2}, 1)  # saved by its thread, not by this test
    finally:
        recorder.stop()
        recorder.writer.close()


# ------------------------------------------------------------------ 2. a closed terminal


@pytest.fixture
def closed(monkeypatch):
    """Standard output and error closed terminals, as ``worker_stop`` asks; the null device
    they would go to recorded, not opened."""
    moved: list[int] = []

    def tcgetattr(fd):
        if fd in (1, 2):
            raise termios.error(errno.EIO, "Input/output error")
        raise termios.error(errno.ENOTTY, "Inappropriate ioctl for device")

    fake_os = SimpleNamespace(devnull=os.devnull, O_WRONLY=os.O_WRONLY, open=lambda *a: 99,
                              dup2=lambda null, fd: moved.append(fd), close=lambda fd: None)  # fmt: skip
    monkeypatch.setattr(worker_stop, "termios", SimpleNamespace(error=termios.error,
                                                                tcgetattr=tcgetattr))  # fmt: skip
    monkeypatch.setattr(worker_stop, "os", fake_os)
    monkeypatch.setattr(play_signals._STOPS, "hung_up", False)
    return moved


def test_play_asks_the_run_stops_check_whether_the_terminal_closed(closed):
    assert worker_stop.terminal_closed(1) and not worker_stop.terminal_closed(0)
    assert play_signals.terminal_hung_up(2) and not play_signals.terminal_hung_up(0)
    assert play_signals._STOPS.hung_up  # SIGHUP stays ignored as the command exits


def test_play_and_a_run_send_a_closed_terminal_to_the_same_null_device(closed):
    play_output.closed_terminal(None)
    assert closed == [1, 2]
    worker_stop._quiet_closed_terminal()
    assert closed == [1, 2, 1, 2]
    with pytest.raises(play_signals.Signalled):  # writing failed: SIGHUP's stop
        play_output.closed_terminal(OSError(errno.EIO, "Input/output error"))


# ------------------------------------------------------------------ 3. a forfeit's words


def _viewed(error, seat: int, labels: list[str], ended: bool) -> str:
    """The result line of 13 Leaves' viewer for a record ``seat`` forfeited with ``error``."""
    record = SimpleNamespace(forfeit_seat=seat, error=error)
    names = [printable(label) for label in labels]  # as the viewer names the seats
    return replay_view._outcome(record, SimpleNamespace(is_terminal=ended), names)


@pytest.mark.parametrize(
    ("error", "said"),
    [
        ("seat 1 (b): boom", "seat 1 (b) forfeited: boom"),
        ("seat 1: boom", "seat 1 (b) forfeited: boom"),  # its seat alone
        ("boom\x1b[2J", "seat 1 (b) forfeited: boom\\x1b[2J"),
        (None, "seat 1 (b) forfeited"),
    ],
)
def test_the_viewer_words_a_forfeit_as_every_games_replay(error, said):
    assert _viewed(error, 1, ["a", "b"], ended=False) == said == forfeit_words(error, 1, ["a", "b"])
    ended = said.replace("forfeited", "forfeited after the game ended")
    assert _viewed(error, 1, ["a", "b"], ended=True) == ended


def test_the_viewer_names_a_forfeiting_seat_you_as_every_replay_does():
    assert _viewed("seat 0 (you): boom", 0, ["you", "b"], ended=False) == (
        "seat 0 (you) forfeited: boom"
    )


label = st.text(st.characters(codec="utf-8"), max_size=6)


@given(
    labels=st.lists(label, min_size=2, max_size=4),
    seat=st.integers(0, 3),
    why=st.one_of(st.none(), st.text(max_size=12)),
    lead=st.sampled_from(["", "seat {seat}: ", "seat {seat} ({label}): ", "seat 9 (x): "]),
    ended=st.booleans(),
)
def test_any_forfeit_reads_the_same_in_the_viewer_and_in_every_replay(labels, seat, why, lead,
                                                                       ended):  # fmt: skip
    seat %= len(labels)
    error = None if why is None else lead.format(seat=seat, label=labels[seat]) + why
    when = " after the game ended" if ended else ""
    assert _viewed(error, seat, labels, ended) == forfeit_words(error, seat, labels, when)
