"""The house rules of standard Spades (seed 001; RULINGS.md "House rules for standard").

One module per house rule, each a plugin found through the ``spadeskit`` entry points.
"""
