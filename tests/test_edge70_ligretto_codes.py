"""A Ligretto run resumed from an earlier version holds both forfeit codes: its old chunks'
forfeited rounds say ``ended_by`` -2 (the code of a round stopped unfinished; the earliest
with ``unfinished`` true as well), its new ones -3. The reports tell a forfeit by ``forfeit``,
so such a round is counted forfeited, never unfinished, as docs/ligretto.md says."""

from __future__ import annotations

import glob

import pandas as pd
import pytest

from ligretto.plugin import LigrettoGame
from ligretto.rules import ENDED_FORFEIT, ENDED_UNFINISHED
from reports.loading import games_from_frame
from reports.report import compute_tables
from tests.helpers import doc_text
from tests.test_edge70_ligretto import D, Picky
from tournaments.runner import Tournament


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> pd.DataFrame:
    """The rows of a two-player run in which Picky forfeits some rounds (as this version
    writes them: -3)."""
    out = tmp_path_factory.mktemp("lig") / "run"
    Tournament([Picky(), "row"], game=LigrettoGame(), players=2, games=24, seed=1).run(out=out)
    return pd.concat(pd.read_parquet(p) for p in sorted(glob.glob(str(out / "games" / "*"))))


def _earlier(rows: pd.DataFrame, unfinished: bool) -> pd.DataFrame:
    """``rows`` as an earlier version wrote them: a forfeited round's ``ended_by`` -2, and
    where ``unfinished``, its ``unfinished`` true too."""
    old = rows.copy()
    lost = old["forfeit_seat"] >= 0
    old.loc[lost, "ended_by"] = ENDED_UNFINISHED
    if unfinished:
        old.loc[lost, "unfinished"] = True
    return old


def _counts(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    tables = compute_tables(games_from_frame(rows, D))[0]
    summary = tables["summary"][["strategy", "games", "forfeits", "unfinished"]]
    return tables["completion"][["n_players", "games", "forfeited", "unfinished"]], summary


@pytest.mark.parametrize("unfinished", [False, True], ids=["unfinished-false", "earliest"])
def test_a_forfeited_round_coded_minus_2_is_counted_forfeited(rows, unfinished):
    lost = rows["forfeit_seat"] >= 0
    assert 0 < lost.sum() < len(rows) and (rows.loc[lost, "ended_by"] == ENDED_FORFEIT).all()
    mixed = pd.concat([rows.iloc[: len(rows) // 2],  # a run resumed: old chunks, then new
                       _earlier(rows, unfinished).iloc[len(rows) // 2 :]])  # fmt: skip
    assert ((mixed["ended_by"] == ENDED_UNFINISHED) & (mixed["forfeit_seat"] >= 0)).any()
    completion, summary = _counts(mixed)
    assert completion["forfeited"].tolist() == [int(lost.sum())] * 2
    assert completion["unfinished"].tolist() == [0, 0] and summary["unfinished"].sum() == 0
    now = _counts(rows)
    pd.testing.assert_frame_equal(completion, now[0])
    pd.testing.assert_frame_equal(summary, now[1])


def test_the_docs_say_so_where_ended_by_is_defined():
    text = " ".join(doc_text("ligretto.md").split())
    assert ("Runs made by earlier versions hold -2 for a forfeited round too (the earliest with "
            "`unfinished` true as well)") in text  # fmt: skip
