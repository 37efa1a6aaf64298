"""stich: Skat and Baptistenskat, exact rules, bots, records and a table to play at."""

from stich._compiled import install_switch

__version__ = "0.1.0"

install_switch()
