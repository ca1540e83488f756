"""Build spadeskit, with its engine compiled by mypyc where that can be done.

Everything else about the package is declared in pyproject.toml.  The engine modules
listed in ``src/spadeskit/_native.py`` compile to C extension modules when mypyc (from
mypy, a build requirement) and a C compiler are present.  Without a compiler, or with
``SPADESKIT_PURE=1`` in the environment, the package installs as pure Python and the
build says so in one warning; the pure modules are the same rules, only slower.
"""

from __future__ import annotations

import os
import runpy
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

NATIVE = runpy.run_path(os.path.join("src", "spadeskit", "_native.py"), run_name="_native")
PURE_VARIABLE: str = NATIVE["PURE_VARIABLE"]


def warn(why: str) -> None:
    print(
        f"WARNING: spadeskit installs as pure Python ({why}); the rules are the same, "
        f"the engine slower. Set {PURE_VARIABLE}=1 to skip the native core.",
        file=sys.stderr,
    )


class OptionalBuildExt(build_ext):
    """Build the native core, or fall back to pure Python with one warning."""

    def build_extensions(self) -> None:
        # Round every float operation as Python does: a C compiler may otherwise fuse a
        # multiply and an add into one instruction (the default on aarch64), and a
        # search's rewards would then differ from the pure modules' in the last bit.
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*(ext.extra_compile_args or []), "-ffp-contract=off"]
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001  (any failure: no compiler, no headers)
            self.extensions = []
            warn(f"the native core did not build: {str(exc)[:160]}")
            return
        # Each module's extension is a small shim over one shared library that holds
        # the code, and only the library is rebuilt when a source changes: stamp every
        # output now, so that spadeskit can tell a current build from a stale one.
        for ext in self.extensions:
            path = self.get_ext_fullpath(ext.name)
            if os.path.exists(path):
                os.utime(path)


BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
"""The setup commands that build extension modules (metadata steps need no C)."""


def compiled_core() -> list[Any]:
    """Return the extension modules of the native core, or none (with the warning)."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if NATIVE["_wants_pure"]():
        print(f"spadeskit: {PURE_VARIABLE} is set, installing pure Python", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warn("mypyc is not installed")
        return []
    sources = NATIVE["source_paths"]("src")
    try:
        return list(
            mypycify(
                [
                    "--config-file",
                    "pyproject.toml",
                    "--follow-imports=silent",
                    "--ignore-missing-imports",
                    *sources,
                ],
                opt_level="3",
            )
        )
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        warn(f"mypyc could not compile the core: {str(exc)[:160]!r}")
        return []


setup(ext_modules=compiled_core(), cmdclass={"build_ext": OptionalBuildExt})
