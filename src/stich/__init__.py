"""stich: Skat and Baptistenskat, exact rules, bots, records and a table to play at."""

__version__ = "0.1.0"
