"""A tournament's checks of options that go together name each value where it was given: a
config file's by the file and its key there, never by a flag that was not typed; a typed
one by its flag."""

from __future__ import annotations

import pytest

from tests.helpers import usage_error


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ("record_sample = 5", "record_sample needs --record FILE"),
        (
            "precision = 1.0\nmax_games = 100\ngames = 1000",
            "max_games (100) must be at least games (1,000)",
        ),
        ("max_games = 100", "max_games needs --precision"),
        (
            'precision = 1.0\nrecord_sample = 3\nrecord = "{d}/r.jsonl"',
            "record_sample is not available with precision (the games recorded would depend on "
            "where the run stops)",
        ),
        ('scheduler = "tcp://host:8786"', "scheduler needs --backend dask"),
        (
            "target = 5",
            "target 5 needs --expert: 13 Leaves plays single games, not matches to a target, "
            "without it",
        ),
        (
            "target = 5\nexpert = true\n[rules]\nexpert_target = 30",
            "target 5 and rules expert_target=30 disagree: give one",
        ),
        (
            'record = "{d}/nodir/r.jsonl"',
            "record {d}/nodir/r.jsonl: the folder {d}/nodir does not exist",
        ),
        (
            "precision = 1.0\nrows = false",
            "precision needs per-game rows (the intervals count deals): this run keeps none "
            "(rows = false in {config})",
        ),
    ],
)
def test_a_config_files_values_are_named_by_their_keys(capsys, tmp_path, lines, said):
    config = tmp_path / "c.toml"
    head = f'strategies = ["greedy", "random", "low"]\nout = "{tmp_path / "o"}"\n'
    config.write_text(head + lines.replace("{d}", str(tmp_path)) + "\n")
    got = usage_error(capsys, ["tournament", "--config", str(config)])
    said = said.replace("{d}", str(tmp_path)).replace("{config}", str(config))
    assert got == f"leaves: error: {config}: {said}"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--record-sample", "5"], "--record-sample needs --record FILE"),
        (
            ["--precision", "1", "--max-games", "100", "--games", "1000"],
            "--max-games (100) must be at least --games (1,000)",
        ),
        (["--precision", "1", "--no-rows"], "--precision needs per-game rows (the intervals "
         "count deals): this run keeps none (--no-rows)"),
    ],
)  # fmt: skip
def test_typed_values_are_named_by_their_flags(capsys, tmp_path, args, said):
    got = usage_error(capsys, ["tournament", "greedy", "random", "low", *args, "--out",
                               str(tmp_path / "o")])  # fmt: skip
    assert got == f"leaves: error: {said}"


def test_a_typed_value_beside_a_config_files_is_named_by_its_flag(capsys, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(f'strategies = ["greedy", "random", "low"]\nout = "{tmp_path / "o"}"\n'
                      "games = 1000\n")  # fmt: skip
    got = usage_error(capsys, ["tournament", "--config", str(config), "--precision", "1",
                               "--max-games", "100"])  # fmt: skip
    assert got == f"leaves: error: --max-games (100) must be at least games in {config} (1,000)"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ('backend = "ray"', 'backend takes loky or dask, got "ray"'),
        ('seating = "shuffled"', 'seating takes balanced, all or rotations, got "shuffled"'),
    ],
)
def test_a_config_files_word_is_checked_before_anything_is_made(capsys, tmp_path, line, said):
    """A backend the file misspelt was refused only after the plan was said and the output
    folder made, in the library's words and without the file's name."""
    config, out = tmp_path / "c.toml", tmp_path / "o"
    config.write_text(f'strategies = ["greedy", "random", "low"]\nout = "{out}"\n{line}\n')
    assert usage_error(capsys, ["tournament", "--config", str(config)]) == (
        f"leaves: error: {config}: {said}"
    )
    assert not out.exists()


def test_the_words_offered_are_the_librarys():
    from leaves_cli.tournament_parts import CHOICES
    from tournaments.players import BACKENDS
    from tournaments.seating import SEATINGS

    assert CHOICES == {"seating": SEATINGS, "backend": BACKENDS}
