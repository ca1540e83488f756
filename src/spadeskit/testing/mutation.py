"""Mutation testing for plugin authors: which lines of a plugin does no check pin?

``spadeskit-kit mutate PLUGIN`` makes small changes (mutants) to the plugin's module,
one at a time, and runs the kit (:func:`~spadeskit.testing.check_rules`) and, if
given, the author's tests against each.  A mutant no check fails on "survives": the
line it changed is not pinned by any check (or the change does not change the rules:
an equivalent mutant, which only a reader can tell).

Why not mutmut or cosmic-ray: both mutate files on disk inside a project copy and run
one test command; a plugin is loaded through its entry point from the installed
package, and the kit runs in the same process as the plugin.  Here each mutant is
compiled from the module's syntax tree and put in ``sys.modules`` under the module's
name in a fresh Python process before anything imports it, so the entry point loads
the mutant, nothing on disk changes, and a mutant that loops is stopped by a timeout.

The mutations: comparisons flipped (``<`` to ``>=``, ``==`` to ``!=``, ``in`` to ``not
in``), arithmetic swapped (``+`` and ``-``, ``*`` and ``//``), ``and`` and ``or``
swapped, ``not`` dropped, whole-number constants moved by one, ``True`` and ``False``
swapped, returned values negated (``return x`` to ``return not x``) and statements
dropped (replaced by ``pass``).  Docstrings, the module's ``PLUGIN``, ``ORACLES`` and
``EXAMPLES`` (the statement of the rules the checks compare with) are left alone.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterator, Sequence

import attrs

__all__ = ["Mutant", "mutants", "install_mutant", "install_from_env", "run_mutant", "main"]

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ARITH: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
}
_KEEP = {"PLUGIN", "ORACLES", "EXAMPLES", "__all__"}


@attrs.frozen
class Mutant:
    """One change to a module: where, what, and the module's source with it."""

    line: int
    what: str
    source: str = attrs.field(repr=False)

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}"


def _kept(node: ast.stmt) -> bool:
    """Return whether a module-level statement is left alone (metadata, docstrings)."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return True
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    return any(isinstance(t, ast.Name) and t.id in _KEEP for t in targets) or isinstance(
        node, (ast.Import, ast.ImportFrom)
    )


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """Yield every node a mutation applies to, with the kind of mutation."""
    for top in tree.body:
        if _kept(top):
            continue
        for node in ast.walk(top):
            if isinstance(node, ast.Compare):
                for i, op in enumerate(node.ops):
                    if type(op) in _FLIP:
                        yield node, f"compare {i}"
            elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
                yield node, "arith"
            elif isinstance(node, ast.BoolOp):
                yield node, "boolop"
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                yield node, "not"
            elif isinstance(node, ast.Constant) and type(node.value) is int:
                yield node, "int +1"
                yield node, "int -1"
            elif isinstance(node, ast.Constant) and type(node.value) is bool:
                yield node, "bool"
            elif isinstance(node, ast.Return) and node.value is not None:
                yield node, "return not"
            if isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While, ast.With)):
                body = node.body
                if len(body) > 1 or not isinstance(body[0], ast.Pass):
                    for index, statement in enumerate(body):
                        if not (
                            isinstance(statement, ast.Expr)
                            and isinstance(statement.value, ast.Constant)
                        ):
                            yield node, f"drop {index}"


def _apply(node: ast.AST, kind: str) -> str:
    """Change ``node`` in place for mutation ``kind``; return what was changed."""
    if kind.startswith("compare"):
        assert isinstance(node, ast.Compare)
        i = int(kind.split()[1])
        old = node.ops[i]
        node.ops[i] = _FLIP[type(old)]()
        return f"{type(old).__name__} -> {type(node.ops[i]).__name__}"
    if kind == "arith":
        assert isinstance(node, ast.BinOp)
        old_op = node.op
        node.op = _ARITH[type(old_op)]()
        return f"{type(old_op).__name__} -> {type(node.op).__name__}"
    if kind == "boolop":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return f"-> {type(node.op).__name__.lower()}"
    if kind == "not":
        assert isinstance(node, ast.UnaryOp)
        node.op = ast.UAdd()  # ``+x`` keeps the operand's truth: the ``not`` is dropped
        return "not dropped"
    if kind.startswith("int"):
        assert isinstance(node, ast.Constant) and type(node.value) is int
        number: int = node.value
        node.value = number + (1 if kind == "int +1" else -1)
        return f"{number} -> {node.value}"
    if kind == "bool":
        assert isinstance(node, ast.Constant)
        node.value = not node.value
        return f"{not node.value} -> {node.value}"
    if kind == "return not":
        assert isinstance(node, ast.Return) and node.value is not None
        node.value = ast.copy_location(ast.UnaryOp(ast.Not(), node.value), node.value)
        return "return negated"
    index = int(kind.split()[1])
    body = getattr(node, "body")
    dropped = body[index]
    body[index] = ast.copy_location(ast.Pass(), dropped)
    return f"statement on line {dropped.lineno} dropped"


def _field(kind: str) -> str:
    """Return the attribute of a node that mutation ``kind`` changes."""
    if kind.startswith("compare"):
        return "ops"
    if kind in ("arith", "boolop", "not"):
        return "op"
    if kind.startswith("drop"):
        return "body"
    return "value"


def mutants(source: str) -> list[Mutant]:
    """Return every mutant of a module's ``source`` (each a complete module source)."""
    tree = ast.parse(source)
    found = []
    # Each mutation is applied to the one tree, unparsed, and undone: a copy of the tree
    # for each mutant would cost more than the rest together.
    for node, kind in list(_sites(tree)):
        field = _field(kind)
        kept = getattr(node, field)
        if isinstance(kept, list):
            setattr(node, field, list(kept))
        line = getattr(node, "lineno", 0)
        what = _apply(node, kind)
        if kind.startswith("drop"):
            line = int(what.split()[3])
        try:
            text = ast.unparse(tree)
            compile(text, "<mutant>", "exec")
        except (SyntaxError, ValueError):
            continue
        finally:
            setattr(node, field, kept)
        found.append(Mutant(line, what, text))
    return found


def install_mutant(module: str, path: str) -> types.ModuleType:
    """Load the source at ``path`` as module ``module`` and put it in ``sys.modules``.

    Call before anything imports ``module``: the plugin's entry point then loads it.
    """
    package = module.rpartition(".")[0]
    if package:
        importlib.import_module(package)
    spec = importlib.util.spec_from_file_location(module, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    loaded.__package__ = package
    sys.modules[module] = loaded
    spec.loader.exec_module(loaded)
    return loaded


def _kit(rule_sets: Sequence[str], level: str) -> None:
    """Run ``check_rules`` on each ``"variant+house+house"`` rule set (in this process)."""
    from spadeskit.engine.loader import load_rules
    from spadeskit.testing import check_rules

    for text in rule_sets:
        variant, *house = text.split("+")
        check_rules(load_rules(variant, house), level=level)


def run_mutant(
    module: str,
    mutant: Mutant,
    rule_sets: Sequence[str],
    *,
    level: str = "default",
    tests: Sequence[str] = (),
    timeout: float = 120.0,
) -> str:
    """Run the kit (and ``tests``, with pytest) against ``mutant``; return the outcome.

    ``"killed by the kit"``, ``"killed by the tests"``, ``"timeout"`` or ``"survived"``.
    Each run is a fresh Python process with the mutant installed as ``module``, stopped
    after ``timeout`` CPU seconds (a mutant that loops) or ten times as long on the
    clock (a machine so busy that the CPU limit is never reached).
    """
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mutant.py")
        with open(path, "w") as handle:
            handle.write(mutant.source)
        env = {
            **os.environ,
            "SPADESKIT_MUTANT": f"{module}={path}",
            "SPADESKIT_MUTANT_CPU": str(max(1, int(timeout))),
        }
        kit = [sys.executable, "-m", "spadeskit.testing.mutation", "--kit", level, *rule_sets]
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
        runs = [(kit, "killed by the kit")]
        if tests:
            runs.append(([*command, *tests], "killed by the tests"))
        for argv, killed in runs:
            try:
                done = subprocess.run(argv, env=env, capture_output=True, timeout=timeout * 10)
            except subprocess.TimeoutExpired:
                return "timeout"
            if done.returncode < 0 or done.returncode == _OUT_OF_TIME:
                return "timeout"  # stopped by a signal: the CPU limit
            if done.returncode:
                return killed
    return "survived"


_OUT_OF_TIME = 124
"""The exit status of a ``--kit`` run that used up its CPU seconds."""


def _rule_sets_for(plugin: str) -> list[str]:
    from spadeskit.engine.loader import available

    info = next((p for p in available() if p.name == plugin), None)
    if info is None:
        raise SystemExit(f"no installed plugin is named {plugin!r}")
    if info.kind == "variant":
        return [plugin]
    return [f"{(info.fits or ('standard',))[0]}+{plugin}"]


def _module_of(plugin: str) -> str:
    import importlib.metadata

    for entry in importlib.metadata.entry_points(group="spadeskit"):
        if entry.name == plugin:
            return entry.value.split(":")[0]
    raise SystemExit(f"no installed plugin is named {plugin!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``spadeskit-kit``: ``mutate PLUGIN`` lists the mutants no check kills."""
    parser = argparse.ArgumentParser(prog="spadeskit-kit", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    mutate = commands.add_parser("mutate", help="mutation-test a plugin module")
    mutate.add_argument("plugin", help="the plugin's name, as installed (e.g. 'standard')")
    mutate.add_argument("--module", help="mutate this module instead (a helper the plugin uses)")
    mutate.add_argument(
        "--rules", action="append", help="rule sets to check, 'variant+house' (repeatable)"
    )
    mutate.add_argument("--tests", nargs="*", default=[], help="the author's test files too")
    level = mutate.add_mutually_exclusive_group()
    level.add_argument("--quick", dest="level", action="store_const", const="quick")
    level.add_argument("--thorough", dest="level", action="store_const", const="thorough")
    mutate.add_argument("--sample", type=int, help="run this many mutants, drawn at random")
    mutate.add_argument("--seed", type=int, default=0, help="seed for --sample")
    mutate.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="CPU seconds a mutant's run may take before it counts as a timeout (a loop)",
    )
    args = parser.parse_args(argv)
    module = args.module or _module_of(args.plugin)
    rule_sets = args.rules or _rule_sets_for(args.plugin)
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise SystemExit(f"cannot find the source of {module}")
    with open(spec.origin) as handle:
        found = mutants(handle.read())
    chosen = found
    if args.sample is not None and args.sample < len(found):
        chosen = sorted(random.Random(args.seed).sample(found, args.sample), key=lambda m: m.line)
    print(f"{module}: {len(found)} mutants, running {len(chosen)} against {', '.join(rule_sets)}")
    outcomes: dict[str, int] = {}
    survivors = []
    for mutant in chosen:
        start = time.monotonic()
        outcome = run_mutant(
            module,
            mutant,
            rule_sets,
            level=args.level or "default",
            tests=args.tests,
            timeout=args.timeout,
        )
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        print(f"  {mutant}: {outcome} ({time.monotonic() - start:.1f} s)", flush=True)
        if outcome == "survived":
            survivors.append(mutant)
    killed = len(chosen) - len(survivors)
    print(
        f"{killed} of {len(chosen)} killed ("
        + ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
        + ")"
    )
    if survivors:
        print("lines no check pins (or equivalent mutants):")
        for mutant in survivors:
            print(f"  {module} {mutant}")
    return 0


def install_from_env() -> None:
    """Install the mutant named by ``SPADESKIT_MUTANT`` (``module=path``), if set, and
    limit this process to ``SPADESKIT_MUTANT_CPU`` CPU seconds, if set."""
    seconds = os.environ.get("SPADESKIT_MUTANT_CPU")
    if seconds:
        import resource
        import signal

        def out_of_time(signum: int, frame: object) -> None:
            os._exit(_OUT_OF_TIME)

        signal.signal(signal.SIGXCPU, out_of_time)
        limit = int(seconds)
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
    spec = os.environ.get("SPADESKIT_MUTANT")
    if spec:
        module, _, path = spec.partition("=")
        install_mutant(module, path)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--kit":
        install_from_env()
        _kit(sys.argv[3:], sys.argv[2])
    else:
        sys.exit(main())
