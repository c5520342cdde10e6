"""A sample of records (``--record-sample N``): spread over tables, seatings and deals, picked
from the seed and the game index alone, and a run resumed under the rule it was begun with."""

from __future__ import annotations

import json

import numpy as np
import pytest

import ligretto
from tests.helpers import cli
from tournaments import Tournament, load
from tournaments.games import get_game
from tournaments.work import RECORD_RULE, recorded

FIVE = ["stack", "row", "cycler", "cautious", "scanner"]


def lig(games=400, seed=11, **kw) -> Tournament:
    return Tournament(FIVE, players=4, games=games, seed=seed, game=get_game("ligretto"), **kw)


def recorded_rows(rec, res):
    """The rows of the games the record file holds, line by line (found by deal and seats)."""
    rows = res.games()
    seats = [f"seat_{s}" for s in range(4)]
    at = {(int(r["deal_seed"]), tuple(r[seats])): i for i, r in rows.iterrows()}
    lines = rec.read_text().splitlines()
    found = [ligretto.RoundRecord.from_json(line) for line in lines]
    return rows.loc[[at[(r.seed, tuple(r.strategies))] for r in found]], rows


def in_chunk_order(rows, spec) -> list[int]:
    """The games of ``rows`` in the order of the run's chunks: stage, table, deal, seating."""
    stage = np.searchsorted(spec["deal_stages"], rows["deal"].to_numpy(), side="right")
    order = rows.assign(stage=stage).sort_values(["stage", "table", "deal", "rotation"])
    return [int(g) for g in order["game"]]


def test_a_sample_spreads_over_tables_and_seatings(tmp_path):
    rec = tmp_path / "r.jsonl"
    res = lig(record=rec, record_sample=10).run(out=tmp_path / "o")
    spec = res.spec
    assert spec["record_rule"] == RECORD_RULE == 2
    kept, rows = recorded_rows(rec, res)
    # the rule before: stride 40, every game index a multiple of it: table 0, rotation 0 only
    assert set(rows[rows["game"] % spec["record_stride"] == 0]["table"]) == {0}
    assert kept["table"].nunique() >= 3 and kept["rotation"].nunique() >= 3
    assert kept["deal"].nunique() == len(kept)  # one game of each block of 40: 2 deals
    # the file holds exactly the games the rule picks, in the run's chunk order: table by
    # table, each table's deals in order (not game order, which is deal-major)
    picked = recorded(spec["seed"], rows["game"].to_numpy(), spec["record_stride"])
    assert list(kept["game"]) == in_chunk_order(rows[picked], spec)
    assert list(kept["game"]) != sorted(kept["game"])
    assert len(kept) == spec["n_games"] // spec["record_stride"] == 10  # one a block


@pytest.mark.parametrize("stride", [2, 7, 40, 41])
def test_one_game_of_each_block_of_stride_games(stride):
    games = np.arange(10 * stride + 3)
    mask = recorded(2**100 + 5, games, stride)
    full = mask[: 10 * stride].reshape(10, stride)
    assert (full.sum(axis=1) == 1).all()
    offsets = full.argmax(axis=1)
    assert len(set(offsets)) > 1  # not the same offset in every block
    # the seed and the index alone decide: any slice (a chunk) agrees with the whole
    assert (recorded(2**100 + 5, games[5:17], stride) == mask[5:17]).all()
    assert not (recorded(2**100 + 6, games, stride) == mask).all()  # another seed, others
    assert recorded(3, games, 0).sum() == 0 and recorded(3, games, 1).all()
    assert (recorded(3, games, stride, rule=1) == (games % stride == 0)).all()  # the old rule
    with pytest.raises(ValueError, match="unknown record rule 3"):
        recorded(3, games, stride, rule=3)


@pytest.mark.parametrize(("games", "sample"), [(400, 10), (1000, 300), (1000, 7), (60, 100)])
def test_a_sample_of_n_holds_about_n_games_never_fewer(tmp_path, games, sample):
    t = lig(games=games, record=tmp_path / "r.jsonl", record_sample=sample)
    n = t.schedule.n_games
    kept = int(recorded(t.seed, np.arange(n), t.record_stride).sum())
    s = t.record_stride
    assert s == max(1, n // sample)  # blocks of games // N: one in each, a part-block maybe
    assert kept in (n // s, n // s + (n % s > 0)) and kept >= min(sample, n)


def test_the_sample_is_the_same_under_jobs_and_chunk_sizes(tmp_path):
    files = []
    for name, jobs, chunk in (("a", 1, None), ("b", 2, 40), ("c", 1, 100)):
        rec = tmp_path / f"{name}.jsonl"
        lig(record=rec, record_sample=10, chunk_size=chunk).run(n_jobs=jobs, out=tmp_path / name)
        files.append(rec.read_text())
    assert files[0] == files[1] == files[2] and files[0].count("\n") == 10
    rec = tmp_path / "s.jsonl"
    lig(record=rec, record_sample=10).run(out=tmp_path / "s")
    assert rec.read_text() == files[0]  # reproducible from the seed


def old_rule_run(tmp_path):
    """A run begun by a version that sampled every ``record_stride``-th game (no rule kept)."""
    rec, out = tmp_path / "r.jsonl", tmp_path / "o"
    t = lig(games=200, record=rec, record_sample=5)
    t.record_rule = 1  # as such a version played it
    t.run(out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert "record_rule" not in manifest["spec"]
    return rec, out


def test_a_run_sampled_by_the_old_rule_resumes_with_it(tmp_path, capsys):
    rec, out = old_rule_run(tmp_path)
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "200")
    assert code == 0, err
    res = load(out)
    assert "record_rule" not in res.spec and res.spec["n_games"] > 200
    kept, rows = recorded_rows(rec, res)
    stride = res.spec["record_stride"]
    assert list(kept["game"]) == in_chunk_order(rows[rows["game"] % stride == 0], res.spec)
    assert (kept["deal"] >= 10).any()  # the grown stage's games are in it too


def test_a_run_sampled_by_the_old_rule_is_not_resumed_by_the_api(tmp_path):
    rec, out = old_rule_run(tmp_path)
    with pytest.raises(ValueError, match=r"^cannot resume .*differs in record_rule") as exc:
        lig(games=200, record=rec, record_sample=5).run(out=out, resume=True)
    assert "\n" not in str(exc.value)


def test_a_grown_run_keeps_its_rule_and_an_unknown_rule_is_refused(tmp_path, capsys):
    rec, out = tmp_path / "r.jsonl", tmp_path / "o"
    lig(games=200, record=rec, record_sample=5).run(out=out)
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "200")
    assert code == 0, err
    res = load(out)
    kept, rows = recorded_rows(rec, res)
    spec = res.spec
    picked = recorded(spec["seed"], rows["game"].to_numpy(), spec["record_stride"])
    assert spec["record_rule"] == 2 and list(kept["game"]) == in_chunk_order(rows[picked], spec)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["spec"]["record_rule"] = 3
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "100")
    assert code != 0 and "Traceback" not in err
    assert "records are sampled by rule 3, which this version does not know" in err
    assert len(err.strip().splitlines()) == 1
