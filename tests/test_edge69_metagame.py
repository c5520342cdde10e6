"""The meta-game's functions take what the other report functions take (``reports.as_run``): a
run folder, a results object and a games DataFrame give the tables and the sentence a loaded
run gives (docs/reports.md: "or pass a results object / a games DataFrame")."""

from __future__ import annotations

import pytest

import reports
from reports.findings import metagame_answer
from reports.metagame_tables import metagame
from tournaments import Tournament


@pytest.fixture(scope="module")
def small_repeats(tmp_path_factory):
    """A --repeats run of two strategies at three seats (every multiset a table), with its
    meta-game's sentence and payoffs from the loaded run."""
    out = tmp_path_factory.mktemp("mg") / "run"
    result = Tournament(["random", "taker"], players=3, games=60, seed=1, repeats=True).run(out=out)
    run = reports.load_run(out)
    return result, metagame_answer(run), metagame(run)["metagame_payoffs"]


@pytest.mark.parametrize("form", ["path", "result", "frame"])
def test_the_metagame_takes_a_path_a_results_object_or_a_games_frame(small_repeats, form):
    result, sentence, payoffs = small_repeats
    given = {"path": str(result.out), "result": result, "frame": result.games()}[form]
    assert sentence.startswith("Meta-game: the stable mix of strategies is taker alone")
    assert metagame_answer(given) == sentence
    tables = metagame(given)
    assert tables["metagame_payoffs"].equals(payoffs)
