"""Dealer Assist: sees a Badugi / Badacey table, referees the deal and awards the pots."""

__version__ = "0.1.0"
