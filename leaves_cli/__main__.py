"""``python -m leaves_cli`` runs the command line (the ``leaves`` command)."""

from leaves_cli import main

main()
