"""The variants and house rules that ship with spadeskit.

Each module here is an ordinary spadeskit plugin, found through the ``spadeskit``
entry-point group exactly like a third-party one; the core never imports this package.
"""
