"""What docs/cli.md and docs/tournaments.md quote of ``leaves verify`` and ``--deep`` is what
they print: the success lines, a part short of its rows and the advice that mends it, and the
run whose cost the reliability section states."""

from __future__ import annotations

import re

import pyarrow.parquet as pq
import pytest

from tests.helpers import cli, doc_page, doc_says, one_error_line
from tests.test_edge67_verify_deep import PART, parquet, vouch
from tests.toygame import ToyGame
from tournaments import Tournament


@pytest.fixture
def run(tmp_path):
    """A complete toy run of 4 chunks of 30 games (its part 2 the pages' example)."""
    out = tmp_path / "RUN"
    Tournament(["a", "p1", "p2"], players=3, games=120, seed=3, chunk_size=30,
               game=ToyGame()).run(out=out)  # fmt: skip
    return out


def _filled(quoted: str, chunks: int, files: int) -> str:
    return quoted.replace("N of N", f"{chunks} of {chunks}").replace("(F files", f"({files} files")


@pytest.mark.parametrize(("args", "said"), [
    ((), r"its line says that contents were not read, `([^`]*)`"),
    (("--deep",), r"and with `--deep` that they were, `([^`]*)`"),
])  # fmt: skip
def test_the_cli_page_quotes_the_success_lines(run, capsys, args, said):
    quoted = doc_says("cli.md", said)[1]
    code, out, err = cli(capsys, "verify", *args, str(run))
    assert code == 0 and out == _filled(quoted, 4, 10) + "\n", (out, err)


def test_the_pages_quote_a_short_part_and_its_mending(run, capsys):
    table = pq.read_table(run / PART)
    vouch(run, PART, parquet(table.slice(0, table.num_rows - 3)))
    code, out, err = cli(capsys, "verify", "--deep", str(run))
    reason = doc_says("cli.md", r"holds other rows than its chunk plays \(`([^`]*)`\)")[1]
    line = doc_says("tournaments.md", r"names each file that fails \(`([^`]*)`, exit 1\)")[1]
    assert (
        code == 1
        and out == f"bad: {run / PART}: {reason}\n" == line.replace("RUN", str(run)) + "\n"
    )
    mend = doc_says("cli.md", r"the advice is to remove it first \(`([^`]*)`\)")[1]
    assert one_error_line(err) == f"leaves: error: {mend.replace('RUN', str(run))}"


def test_the_cost_is_stated_of_the_run_its_command_plays():
    text = " ".join(doc_page("tournaments.md").split())
    said = re.search(r"On the ([\d,]+)-game run of `leaves tournament (.*?) --games (\d+) "
                     r"--jobs 2 --out runs/big` \((\d+) chunks\)", text)  # fmt: skip
    assert said, "docs/tournaments.md no longer states the cost of --deep"
    games, names, asked, chunks = said.groups()
    schedule = Tournament(names.split(), players=4, games=int(asked), seed=1).schedule
    assert (schedule.n_games, schedule.n_chunks) == (int(games.replace(",", "")), int(chunks))
    assert re.search(r"`leaves verify runs/big` took [\d.]+ to [\d.]+ s and `leaves verify --deep "
                     r"runs/big` [\d.]+ to [\d.]+ s", text)  # fmt: skip
