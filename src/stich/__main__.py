"""``python3 -m stich`` runs the ``stich`` command (also where the script is not on PATH)."""

from stich.cli import main

main()
