"""How many chunks a manifest lays out (``chunks_laid_out``) where the tables of one size
repeat their entrants in different patterns, each with its own seatings per deal, and where
the seating design is damaged: each case worked by hand."""

from __future__ import annotations

from tournaments import Tournament
from tournaments.manifest_fields import chunks_laid_out
from tournaments.session import new_manifest


def _manifest(played: Tournament) -> dict:
    return new_manifest(played, played.spec())


def test_tables_of_one_size_lay_out_chunks_by_their_own_seatings_per_deal():
    """Two strategies at three seats with repeats, every seating played: the tables are
    [0,0,0], [0,0,1], [0,1,1] and [1,1,1]; a table of one entrant has 1 seating a deal, the
    others 3. Chunks of 5 games over 8 deals: 5 deals a chunk at 1 seating (2 chunks each),
    1 deal a chunk at 3 (8 chunks each): 2 + 8 + 8 + 2 = 20."""
    played = Tournament(["random", "greedy"], players=3, repeats=True, seating="all", games=60,
                        chunk_size=5)  # fmt: skip
    manifest = _manifest(played)
    assert manifest["seating_design"]["seatings_per_deal"] == {"0,0,0": 1, "0,0,1": 3, "0,1,1": 3}
    assert manifest["spec"]["deal_stages"] == [8]
    assert chunks_laid_out(manifest) == 20 == played.schedule.n_chunks


def _one_size() -> dict:
    manifest = _manifest(Tournament(["random", "greedy", "low"], players=3, games=12, chunk_size=6))
    assert manifest["seating_design"]["seatings_per_deal"] == {"0,1,2": 6}
    return manifest


def test_a_design_of_no_seatings_a_deal_lays_out_no_count():
    """0 seatings a deal is damage (a chunk would hold no deal): no count, not a division by 0."""
    manifest = _one_size()
    manifest["seating_design"]["seatings_per_deal"] = {"0,1,2": 0}
    assert chunks_laid_out(manifest) is None


def test_a_design_naming_no_pattern_of_a_tables_size_lays_out_no_count():
    manifest = _one_size()
    manifest["seating_design"]["seatings_per_deal"] = {}
    assert chunks_laid_out(manifest) is None
    manifest["seating_design"]["seatings_per_deal"] = {"0,1": 2}  # two seats; the tables seat 3
    assert chunks_laid_out(manifest) is None
