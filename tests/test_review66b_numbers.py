"""A table size too long for the line, refused after its flag: said once, in words, by the
refusal's own "got ...", in ``leaves tournament`` and ``leaves variants`` alike."""

from __future__ import annotations

import pytest

from gamekit.errors import shown
from tests.helpers import cli


@pytest.mark.parametrize("digits", [70, 5_000])
@pytest.mark.parametrize("command", ["tournament", "variants"])
def test_a_long_table_size_is_said_once_after_its_flag(capsys, monkeypatch, tmp_path, command,
                                                       digits):  # fmt: skip
    """Was: "--players a whole number of about 70 digits: ... got a whole number of about 70
    digits" (the words read as the flag's value); variants said Python's own "Exceeds the
    limit (4300 digits) ..." for 5,000 digits."""
    monkeypatch.setenv("COLUMNS", "200")
    size = "9" * digits
    extra = ["--rules", "hand_size=6"] if command == "variants" else ["greedy", "low"]
    code, _, err = cli(capsys, command, *extra, "--games", "10", "--players", size,
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert code == 2, err
    assert err.strip() == (
        "leaves: error: --players: 13 Leaves is played by 3 to 6 players, got a whole number "
        f"of about {digits:,} digits"
    )


@pytest.mark.parametrize("command", ["tournament", "variants"])
def test_a_short_table_size_stays_beside_its_flag(capsys, monkeypatch, tmp_path, command):
    """A size that fits the line is still named after the flag, as before."""
    monkeypatch.setenv("COLUMNS", "200")
    extra = ["--rules", "hand_size=6"] if command == "variants" else ["greedy", "low"]
    code, _, err = cli(capsys, command, *extra, "--games", "10", "--players", "7",
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert code == 2, err
    assert err.strip() == "leaves: error: --players 7: 13 Leaves is played by 3 to 6 players, got 7"


@pytest.mark.parametrize(
    "value", [10**5000 - 1, -(10**4400 - 1), 10**5000, 2**20000], ids=["9s", "-9s", "10", "2"]
)
def test_a_number_past_the_digits_python_writes_is_said_by_its_true_count(value):
    """Was: 5,000 nines said as "about 5,001 digits" (the count of a power of 2 as large)."""
    digits = len(str(abs(value) // 10**4000)) + 4000  # Python writes the part above 4,000 digits
    sign = "negative " if value < 0 else ""
    assert shown(value, typed=False) == f"a {sign}whole number of about {digits:,} digits"
