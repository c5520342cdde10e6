"""``python -m leaves`` runs the command line."""

from leaves.cli import main

main()
