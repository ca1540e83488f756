"""Apps: what a person or a server uses the library through.

It owns the table service a server keeps per table (:mod:`~spadeskit.apps.service`),
the store that keeps tables across crashes (:mod:`~spadeskit.apps.store`), the hub that
carries a table's clients on an asyncio server (:mod:`~spadeskit.apps.hub`),
reading what a person types (:mod:`~spadeskit.apps.text_input`), the ``spadeskit``
command (:mod:`~spadeskit.apps.cli`, :mod:`~spadeskit.apps.cliargs`), the text
prompt of ``spadeskit play`` (:mod:`~spadeskit.apps.prompt`) and its full-screen table
(:mod:`~spadeskit.apps.tui`, the ``tui`` extra).  Apps are clients of the public API: they
may import every layer below them (:mod:`spadeskit.core`, :mod:`spadeskit.engine`,
:mod:`spadeskit.batch`, :mod:`spadeskit.bots`, :mod:`spadeskit.arena`), never
:mod:`spadeskit.interop`.
"""
