"""A Spades table in the browser, on spadeskit's table service (an example app).

Run ``spadeskit-web-table --port 8080`` and open http://127.0.0.1:8080/ : choose a
variant and house rules, seat bots, and play; friends join the same table from the
link the page shows.  The server (:mod:`spadeskit_web_table.server`) keeps one
:class:`spadeskit.Table` per table and carries :class:`spadeskit.Connection`'s JSON
protocol over websockets; the page is plain HTML, CSS and JavaScript.
"""

from .server import create_app, main

__all__ = ["create_app", "main"]
