"""The house rules of standard Spades.

One module per house rule, each a plugin found through the ``spadeskit`` entry points.
"""
