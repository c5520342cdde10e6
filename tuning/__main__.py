"""``python -m tuning SPEC --against ...``: the same as ``leaves tune SPEC --against ...``."""

from leaves.cli import main

if __name__ == "__main__":
    import sys

    main(["tune", *sys.argv[1:]])
