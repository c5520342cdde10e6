"""Tournaments of real 13 Leaves strategies through the ``LeavesGame`` plug-in."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import leaves
import strategies
from strategies import Strategy
from tournaments import Tournament

HEURISTICS = ["greedy", "low", "high", "minimal"]


class Crashy(Strategy, register=False):
    """Plays the lowest legal action; raises when holding a 13, cheats when holding a 12."""

    name = "crashy"

    def choose(self, view, legal, rng):
        if view.hand[12]:
            raise RuntimeError("boom: a 13 in hand")
        if view.hand[11] and view.turn > 3:
            return leaves.Action.play(1, 8)  # never legal: eight 1s do not exist
        return legal[0]


@pytest.mark.slow
def test_results_do_not_depend_on_workers_or_backend(tmp_path):
    distributed = pytest.importorskip("distributed")

    def t():
        return Tournament(HEURISTICS, players=4, games=4000, seed=11, chunk_size=400)

    one = t().run(n_jobs=1, out=tmp_path / "one").games()
    two = t().run(n_jobs=2, out=tmp_path / "two").games()
    pd.testing.assert_frame_equal(one, two)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        dask = t().run(backend="dask", scheduler=cluster.scheduler_address, out=tmp_path / "d")
    pd.testing.assert_frame_equal(one, dask.games())
    assert len(one) == t().n_games and one["winner"].notna().all() and not one["forfeit"].any()
    assert str(one["seat_0"].dtype) == "category" and one["cards_left_0"].dtype == np.int16


def test_duplicate_sets_share_the_deal_and_records_replay(tmp_path):
    rec = tmp_path / "games.jsonl"
    res = Tournament(["greedy", "low", "high"], players=3, games=60, seed=3, record=rec).run(
        out=tmp_path / "o"
    )
    df = res.games()
    records = [leaves.GameRecord.from_json(line) for line in rec.read_text().splitlines()]
    assert len(records) == len(df) == 60
    for dup_set in range(10):  # 3 seats: every one of the 6 orders
        group = df.iloc[6 * dup_set : 6 * dup_set + 6]
        recs = records[6 * dup_set : 6 * dup_set + 6]
        assert group["deal_seed"].nunique() == 1 and group["first_player"].nunique() == 1
        assert all(r.hands == recs[0].hands for r in recs)  # the same deal in every seating
        assert len({tuple(r.strategies) for r in recs}) == 6
    for r, row in zip(records[:5], df.itertuples(), strict=False):
        states = leaves.replay(r)
        assert states[-1].winner == row.winner_seat and r.seed == row.deal_seed
        assert r.strategies == (row.seat_0, row.seat_1, row.seat_2)


def test_a_raising_or_cheating_strategy_forfeits_and_the_run_goes_on(tmp_path):
    res = Tournament([Crashy(), "greedy", "low"], players=3, games=90, seed=5).run(out=tmp_path)
    df = res.games()
    lost = df[df["forfeit"]]
    assert 0 < len(lost) < len(df)
    assert lost["error"].str.contains("boom").any()
    assert lost["error"].str.contains("IllegalActionError").any()
    assert (lost["winner_seat"] == -1).all()
    forfeits = res.forfeits
    assert len(forfeits) == len(lost) and (forfeits["strategy"] == "crashy").all()
    f = forfeits.iloc[0]
    again = strategies.play_batch(
        [Crashy() if s == "crashy" else s for s in f["seats"]],
        np.array([f["deal_seed"]], np.uint64),
        np.array([f["seed"]], np.uint64),
    )
    assert again.forfeit_seat[0] == f["seat"] and again.errors[0] == f["error"]
    assert res.summary().set_index("strategy").loc["crashy", "forfeits"] == len(lost)


def test_expert_matches_have_per_game_and_per_match_rows(tmp_path):
    res = Tournament(["greedy", "low", "high"], players=3, games=12, seed=2, expert=True).run(
        out=tmp_path
    )
    games, matches = res.games(), res.matches()
    assert len(matches) == 12
    for m in matches.itertuples():
        g = games[games["match"] == m.match]
        totals = [int(g[f"score_{s}"].sum()) for s in range(3)]
        assert totals == [m.total_0, m.total_1, m.total_2] and max(totals) >= 20
        assert len(g) == m.games and list(g["game_in_match"]) == list(range(m.games))
    row = games.iloc[1]  # each game replays alone from its own seeds
    again = strategies.play_batch(
        [row[f"seat_{s}"] for s in range(3)],
        np.array([row["deal_seed"]], np.uint64),
        np.array([row["seed"]], np.uint64),
    )
    assert again.cards_left[0].tolist() == [row[f"cards_left_{s}"] for s in range(3)]
    assert res.summary()["match_win_share"].sum() == pytest.approx(12)


class HandMemory(Strategy, register=False):
    """Remembers every hand it was dealt, across games, and would exploit a replayed deal."""

    def __init__(self):
        self.seen = set()

    def start_game(self, view, rng):
        self.replayed = view.hand in self.seen
        self.seen.add(view.hand)

    def choose(self, view, legal, rng):
        if self.replayed or len(self.seen) > 1:
            return legal[-1]
        return legal[0]


class HandMemoryless(Strategy, register=False):
    """``HandMemory`` as it plays in a game of its own: always its first choice."""

    def choose(self, view, legal, rng):
        return legal[0]


@pytest.mark.slow
def test_memory_across_games_gains_nothing_and_ignores_jobs(tmp_path):
    def rows(entrant, jobs, out):
        t = Tournament([entrant, "greedy", "low"], players=3, games=120, seed=4, chunk_size=30)
        return t.run(n_jobs=jobs, out=tmp_path / out).games()

    one = rows(HandMemory(), 1, "one")
    two = rows(HandMemory(), 2, "two")
    pd.testing.assert_frame_equal(one, two)
    twin = rows(HandMemoryless(), 1, "twin")
    for col in ["winner_seat", "cards_left_0", "cards_left_1", "cards_left_2", "turns"]:
        assert one[col].tolist() == twin[col].tolist()
    assert len(one) == 120


def test_manifest_records_every_entrant_and_resume_refuses_a_change(tmp_path):
    strat_file = tmp_path / "mine.py"
    strat_file.write_text(
        "from strategies import Strategy\n\n"
        "class Mine(Strategy, register=False):\n"
        "    def __init__(self, pick: int = 0):\n"
        "        self.pick = pick\n\n"
        "    def choose(self, view, legal, rng):\n"
        "        return legal[min(self.pick, len(legal) - 1)]\n"
    )

    def t():
        specs = [f"{strat_file}:Mine", "counter", "low"]
        return Tournament(specs, players=3, games=6, seed=1)

    out = tmp_path / "run"
    t().run(out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    entrants = {e["label"]: e for e in manifest["spec"]["entrants"]}
    assert entrants["Mine"]["params"] == {"pick": 0} and entrants["Mine"]["file_sha256"]
    counter = entrants["counter"]
    assert counter["params"]["threat_weight"] is not None  # defaults included
    assert counter["package"].startswith("leaves ") and counter["file_sha256"] is None
    t().run(out=out, resume=True)  # unchanged: accepted

    def refused(edit, message, play_recorded=True):
        spec = json.loads((out / "manifest.json").read_text())
        saved = json.dumps(spec)
        edit(spec["spec"]["entrants"])
        if not play_recorded:  # a run an earlier version recorded: no play version
            del spec["versions"]["leaves play"]
        (out / "manifest.json").write_text(json.dumps(spec))
        with pytest.raises(ValueError, match=message) as exc:
            t().run(out=out, resume=True)
        assert "\n" not in str(exc.value)
        (out / "manifest.json").write_text(saved)

    def by_label(entrants, label):
        return next(e for e in entrants if e["label"] == label)

    refused(lambda es: by_label(es, "counter")["params"].update(threat_weight=9.0),
            r"counter: parameter threat_weight was 9.0, now ")  # fmt: skip
    # a built-in's package alone moved: the play version recorded beside it decides (accepted);
    # a run that recorded none (an earlier version's) is refused by the package, as before
    spec = json.loads((out / "manifest.json").read_text())
    saved = json.dumps(spec)
    by_label(spec["spec"]["entrants"], "low").update(package="leaves 0.0.1")
    (out / "manifest.json").write_text(json.dumps(spec))
    t().run(out=out, resume=True)
    (out / "manifest.json").write_text(saved)
    assert "leaves play" in spec["versions"]

    refused(lambda es: by_label(es, "low").update(package="leaves 0.0.1"),
            r"low: package leaves 0.0.1 is now leaves ", play_recorded=False)  # fmt: skip
    strat_file.write_text(strat_file.read_text() + "\n# tuned\n")
    with pytest.raises(ValueError, match=r"Mine: file .*mine.py changed since the run started"):
        t().run(out=out, resume=True)


def test_plain_python_strategies_play_in_small_chunks():
    """A search plays about a second a game: its runs get small default chunks, so that --jobs
    has work to share; compiled-only runs keep the large default; an explicit size wins."""
    from leaves.plugin import PYTHON_CHUNK_GAMES

    slow = Tournament(["ismcts", "greedy", "low", "high"], players=4, games=600, seed=1)
    assert slow.schedule.chunk_games == PYTHON_CHUNK_GAMES
    assert slow.schedule.n_chunks == 13  # 25 deals of 24 seatings, two deals a chunk
    fast = Tournament(["minimal", "greedy", "low", "high"], players=4, games=600, seed=1)
    assert fast.schedule.chunk_games >= 2_000 and fast.schedule.n_chunks == 1
    asked = Tournament(["ismcts", "greedy", "low", "high"], players=4, games=600, seed=1,
                       chunk_size=5_000)  # fmt: skip
    assert asked.schedule.chunk_games == 5_000
