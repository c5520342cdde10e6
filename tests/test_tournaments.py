"""The tournament runner with a toy game plug-in: seeds, schedule, storage, resume, aggregates.

The runner knows nothing about 13 Leaves, so these tests drive it with ``ToyGame`` (numpy
hashes of the seeds), a game unlike 13 Leaves on purpose (higher is better, other columns, no
first player, shared wins, up to 8 seats); ``test_tournaments_leaves.py`` runs the real game.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.toygame import ToyGame
from tournaments import Schedule, Tournament, TournamentResult, load, make_tables
from tournaments.seeds import derive_seeds, reference_seed

TOY = ["a", "p1", "p2", "p3"]


def toy(players=4, games=400, seed=7, **kw) -> Tournament:
    return Tournament(kw.pop("entrants", TOY), players=players, games=games, seed=seed,
                      game=ToyGame(), **kw)  # fmt: skip


# ---------------------------------------------------------------- seeds
@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**130),
    key=st.lists(st.integers(0, 2**40), max_size=3),
    index=st.integers(0, 2**32 - 1),
)
def test_vectorized_seeds_equal_numpy_seedsequence(seed, key, index):
    got = derive_seeds(seed, key, np.array([index, 0, 1]))
    assert int(got[0]) == reference_seed(seed, key, index)
    assert int(got[1]) == reference_seed(seed, key, 0)


def test_seeds_refuse_indices_beyond_one_word():
    with pytest.raises(ValueError, match="seed indices"):
        derive_seeds(1, (0,), np.array([2**32]))


# ---------------------------------------------------------------- schedule
def test_tables_are_combinations_with_repeats_only_when_needed():
    assert len(make_tables(5, [4])) == 5
    assert len(make_tables(5, [3, 4])) == 10 + 5
    assert make_tables(2, [3]) == [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1)]
    assert len(make_tables(4, [4], repeats=True)) == 35


@settings(max_examples=40)
@given(
    n=st.integers(1, 6),
    sizes=st.lists(st.integers(3, 6), min_size=1, max_size=3, unique=True),
    games=st.integers(1, 3000),
    chunk=st.integers(1, 700),
)
def test_chunks_partition_the_games_into_whole_duplicate_sets(n, sizes, games, chunk):
    s = Schedule(make_tables(n, sizes), games, chunk)
    assert s.n_games >= games and s.n_games - games < s.seats_per_set
    seen = np.concatenate([c.game_indices() for c in s.chunks()])
    assert np.array_equal(np.sort(seen), np.arange(s.n_games))
    for c in s.chunks():
        assert c.n_games % c.n_players == 0  # a chunk never splits a duplicate set
        assert c.n_players == len(s.tables[c.table])


@settings(max_examples=40)
@given(
    sizes=st.lists(st.integers(1, 60), min_size=1, max_size=4),
    games=st.integers(1, 3000),
    chunk=st.integers(1, 700),
)
def test_chunks_keep_whole_seating_sets(sizes, games, chunk):
    tables = [(0, 1, 2)] * len(sizes)
    s = Schedule(tables, games, chunk, set_sizes=sizes)
    assert s.n_games >= games and s.n_games - games < sum(sizes)
    seen = np.concatenate([c.game_indices() for c in s.chunks()])
    assert np.array_equal(np.sort(seen), np.arange(s.n_games))
    for c in s.chunks():
        assert c.n_games == c.n_deals * sizes[c.table]
        assert np.array_equal(c.rotations()[: sizes[c.table]], np.arange(sizes[c.table]))


# ---------------------------------------------------------------- runs
def test_rows_do_not_depend_on_jobs_or_chunk_size(tmp_path):
    one = toy(games=600, chunk_size=40).run(n_jobs=1, out=tmp_path / "one").games()
    two = toy(games=600, chunk_size=40).run(n_jobs=2, out=tmp_path / "two").games()
    pd.testing.assert_frame_equal(one, two)
    big = toy(games=600, chunk_size=400).run(out=tmp_path / "big").games()
    pd.testing.assert_frame_equal(one, big)
    assert len(one) == 600 and one["game"].tolist() == list(range(600))
    other_seed = toy(games=600, seed=8).run(out=tmp_path / "s8").games()
    assert not one["seed"].equals(other_seed["seed"])


@pytest.mark.parametrize("seating, per_deal", [("rotations", 4), ("balanced", 24)])
def test_every_deal_is_replayed_under_every_seating(tmp_path, seating, per_deal):
    df = toy(entrants=["a", "p1", "p2", "p3", "p4"], games=500, seating=seating)
    df = df.run(out=tmp_path / "o").games()
    seats = [f"seat_{s}" for s in range(4)]
    for _key, group in df.groupby(["table", "deal"]):
        assert len(group) == per_deal
        assert group["deal_seed"].nunique() == 1
        assert sorted(group["rotation"]) == list(range(per_deal))
        for col in seats:  # each entrant of the table sits equally often in every seat
            counts = group[col].value_counts()
            assert sorted(counts[counts > 0]) == [per_deal // 4] * 4
        assert {frozenset(r) for r in group[seats].itertuples(index=False)} == {
            frozenset(group[seats].iloc[0])
        }
    assert df["seat_4"].isna().all() and df["points_7"].isna().all()
    assert "first_player" not in df.columns and "cards_left_0" not in df.columns


def test_summary_matches_the_rows(tmp_path):
    res = toy(entrants=["a", "p1", "p2", "crash"], players="3,4", games=900).run(out=tmp_path)
    df = res.games()
    assert set(df["n_players"]) == {3, 4}
    summary = res.summary().set_index("strategy")
    for label in ["a", "p1", "p2", "crash"]:
        seated = sum((df[f"seat_{s}"] == label).sum() for s in range(8))
        assert summary.loc[label, "games"] == seated
        # shared wins: every tied winner counts
        won = sum(((df[f"seat_{s}"] == label) & (df[f"won_{s}"] if f"won_{s}" in df else
                   _won(df, s))).sum() for s in range(4))  # fmt: skip
        assert summary.loc[label, "wins"] == won
    assert summary["win_rate"].is_monotonic_decreasing
    h2h = res.head_to_head()  # higher points finish ahead
    assert h2h.loc["p2", "a"] > 0.5 > h2h.loc["a", "p2"]
    assert res.seat_offsets().empty  # no first player, no seat offsets


def _won(df: pd.DataFrame, s: int) -> pd.Series:
    pts = df[[f"points_{q}" for q in range(4)]].astype("float")
    best = pts.max(axis=1)
    return (df[f"points_{s}"] == best) & ~df["forfeit"]


def test_forfeits_are_recorded_with_their_seeds(tmp_path):
    res = toy(entrants=["a", "p1", "crash"], players=3, games=300).run(out=tmp_path)
    df = res.games()
    lost = df[df["forfeit"]]
    assert len(lost) > 0 and lost["winner"].isna().all() and (lost["winner_seat"] == -1).all()
    forfeits = res.forfeits
    assert len(forfeits) == len(lost)
    assert (forfeits["strategy"] == "crash").all()
    assert forfeits["error"].str.contains("crashed").all()
    row = df.set_index("game").loc[int(forfeits["game"].iloc[0])]
    assert int(forfeits["seed"].iloc[0]) == int(row["seed"])
    # the seeds reproduce the forfeit
    seats = [row[f"seat_{s}"] for s in range(3)]
    again = ToyGame().play(seats, np.array([row["deal_seed"]], np.uint64),
                           np.array([row["seed"]], np.uint64))  # fmt: skip
    assert again.forfeit_seat[0] == row["forfeit_seat"]
    assert res.summary().set_index("strategy").loc["crash", "forfeits"] == len(lost)


def test_expert_rows_and_matches(tmp_path):
    res = toy(entrants=["a", "p1", "p2"], players=3, games=30, expert=True, target=15).run(
        out=tmp_path
    )
    games, matches = res.games(), res.matches()
    assert len(matches) == 30 and matches["match"].is_unique
    assert {"match", "game_in_match", "score_0", "score_2"} <= set(games.columns)
    by_match = games.groupby("match")
    for m in matches.itertuples():
        g = by_match.get_group(m.match)
        assert len(g) == m.games
        totals = [g[f"score_{s}"].sum() for s in range(3)]
        assert totals == [m.total_0, m.total_1, m.total_2]
        assert max(totals) >= 15
        # higher is better: the highest total wins, ties share
        assert list(m.match_winners) == [s for s in range(3) if totals[s] == max(totals)]
    summary = res.summary()
    assert summary["matches"].tolist() == [30, 30, 30]
    assert summary["match_win_share"].sum() == pytest.approx(30)


def test_no_rows_keeps_flat_aggregates_only(tmp_path):
    res = toy(games=480, rows=False).run(out=tmp_path)
    assert not (tmp_path / "games").exists()
    assert res.summary()["games"].tolist() == [480] * 4  # every entrant sits in every game
    with pytest.raises(ValueError, match="rows=False"):
        res.games()


def test_record_sample_writes_json_lines(tmp_path):
    rec = tmp_path / "games.jsonl"
    res = toy(games=480, record=rec, record_sample=10).run(out=tmp_path / "o")
    lines = rec.read_text().splitlines()
    assert len(lines) == 10
    df = res.games().set_index("game")
    first = json.loads(lines[1])  # one game of each block of 48, at a drawn place in it
    assert first["deal_seed"] == int(df.loc[80, "deal_seed"])


def test_refuses_non_empty_dir_and_a_different_spec_on_resume(tmp_path):
    toy(games=200).run(out=tmp_path)
    with pytest.raises(ValueError, match="not empty"):
        toy(games=200).run(out=tmp_path)
    with pytest.raises(ValueError, match=r"different tournament \(differs in games_asked"):
        toy(games=300).run(out=tmp_path, resume=True)
    with pytest.raises(ValueError, match="differs in seed"):
        toy(games=200, seed=1).run(out=tmp_path, resume=True)
    with pytest.raises(ValueError, match=r"seating: rotations here, balanced in the run\)"):
        toy(games=200, seating="rotations").run(out=tmp_path, resume=True)
    again = toy(games=200).run(out=tmp_path, resume=True)  # nothing left to do: same results
    assert again.complete and len(again.games()) == 216  # 200 rounded up to 24 seatings


def test_resume_redoes_only_missing_chunks(tmp_path):
    full = toy(games=800, chunk_size=80).run(out=tmp_path / "full")
    part = tmp_path / "part"
    toy(games=800, chunk_size=80).run(out=part)
    # simulate a run killed mid-way: drop some finished chunks, leave a stray temp file
    for cid in (3, 4, 9):
        (part / "chunks" / f"chunk-{cid:06d}.npz").unlink()
    (part / "games" / "part-000004.parquet").unlink()
    (part / "games" / ".part-000009.parquet.x.tmp").write_bytes(b"junk")
    resumed = toy(games=800, chunk_size=80).run(out=part, resume=True)
    assert not list((part / "games").glob(".*.tmp"))
    pd.testing.assert_frame_equal(resumed.games(), full.games())
    pd.testing.assert_frame_equal(resumed.summary(), full.summary())
    assert resumed.manifest["n_chunks_done"] == resumed.spec["n_chunks"]
    assert len(resumed.manifest["sessions"]) == 2


@pytest.mark.slow
@pytest.mark.timeout(120)  # seconds of work: a cluster that stops answering fails in 2 min
def test_dask_local_cluster_equals_loky(tmp_path):
    distributed = pytest.importorskip("distributed")
    loky = toy(games=300, chunk_size=60).run(n_jobs=2, out=tmp_path / "loky").games()
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        res = toy(games=300, chunk_size=60).run(
            backend="dask", scheduler=cluster.scheduler_address, out=tmp_path / "dask"
        )
    pd.testing.assert_frame_equal(res.games(), loky)
    assert load(tmp_path / "dask").manifest["sessions"][0]["backend"] == "dask"


def test_bad_input_is_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match="2 to 8 players"):
        toy(players=9)
    with pytest.raises(ValueError, match="listed twice"):
        toy(entrants=["a", "a", "p1"])
    with pytest.raises(ValueError, match="unknown toy strategy"):
        toy(entrants=["a", "no such"])
    with pytest.raises(ValueError, match="^players takes numbers"):
        toy(players="3,x")
    with pytest.raises(ValueError, match="backend"):
        toy().run(out=tmp_path, backend="mpi")
    with pytest.raises(ValueError, match="no tournament"):
        TournamentResult(tmp_path / "nothing")
