"""A run of matches numbers its games from each match's own start (match m's from m x 64), so
its ids have gaps: `leaves replay RUN --game 3` said the rows number them "0 to 322", as if 3
were among them. The refusal now says they are not every number, and names the next ones."""

from __future__ import annotations

from tests.helpers import cli


def test_a_missing_id_of_a_run_with_gaps_names_the_ids_that_follow(tmp_path, capsys):
    out = tmp_path / "lt"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "--players",
                       "2", "--target", "40", "--games", "6", "--seed", "1", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    from tournaments import TournamentResult

    ids = sorted(TournamentResult(out).games()["game"].tolist())
    missing = next(x for x in range(ids[-1]) if x not in ids)
    following = [x for x in ids if x > missing][:3]
    code, _, err = cli(capsys, "replay", str(out), "--game", str(missing))
    assert code == 2
    assert (f"not every number (the next after {missing}: {', '.join(map(str, following))})"
            in err), err  # fmt: skip
    code, _, err = cli(capsys, "replay", str(out), "--game", str(ids[-1] + 1))
    assert code == 2 and f"(the last: {', '.join(map(str, ids[-3:]))})" in err, err
    code, _, err = cli(capsys, "replay", str(out), "--game", str(following[0]))
    assert code == 0, err
