"""The layout shows the architecture: engine/ and gui/ packages import each other without circles."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules(top: str) -> dict[str, tuple[Path, bool]]:
    mods = {}
    for p in (ROOT / top).rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        mods[".".join(parts)] = (p, is_pkg)
    return mods


def _type_checking_only(tree) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:`` (imports for annotations, never run)."""
    return {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)}


def _imports(mods, inside_functions: bool = False) -> dict[str, set[str]]:
    """Module -> modules it imports at load time (top level), or with ``inside_functions`` every import it makes,
    those inside functions too (a circle through a function's import is still a circle), not those for type
    checking only."""
    graph = {}
    for m, (p, is_pkg) in mods.items():
        deps = set()
        tree = ast.parse(p.read_text())
        skip = _type_checking_only(tree)
        if inside_functions:
            nodes = [n for n in ast.walk(tree) if id(n) not in skip]
        else:
            body = tree.body
            nodes = [n for node in body for n in ([node] + (node.body if isinstance(node, (ast.If, ast.Try)) else []))
                     if id(n) not in skip]
        for n in nodes:
            if isinstance(n, ast.ImportFrom):
                if n.level:
                    base = m.split(".") if is_pkg else m.split(".")[:-1]
                    base = base[: len(base) - (n.level - 1)]
                    target = ".".join(base + ([n.module] if n.module else []))
                else:
                    target = n.module or ""
                for a in n.names:
                    cand = f"{target}.{a.name}"
                    deps.add(cand if cand in mods else target)
            elif isinstance(n, ast.Import):
                deps.update(a.name for a in n.names)
        graph[m] = {d for d in deps if d in mods and d != m}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package(m: str) -> str:
    parts = m.split(".")
    return ".".join(parts[:3]) if len(parts) > 2 and parts[1] == "rulesets" else ".".join(parts[:2])


def test_engine_modules_import_without_circles():
    assert _cycles(_imports(_modules("engine"))) == []


def test_engine_packages_import_without_circles():
    graph: dict[str, set[str]] = {}
    for m, deps in _imports(_modules("engine")).items():
        for d in deps:
            if _package(m) != _package(d):
                graph.setdefault(_package(m), set()).add(_package(d))
    assert _cycles(graph) == []


def test_gui_modules_import_without_circles():
    assert _cycles(_imports(_modules("gui"))) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_project_imports_itself_back_even_from_inside_a_function():
    """engine/ and gui/ together, every import counted: a function's import that closes a circle fails here."""
    mods = {**_modules("engine"), **_modules("gui")}
    assert _cycles(_imports(mods, inside_functions=True)) == []


def test_an_import_inside_a_function_counts_and_one_for_type_checking_does_not(tmp_path, monkeypatch):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import y\n")
    (pkg / "d.py").write_text("from .c import z\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    mods = _modules("pkg")
    assert _cycles(_imports(mods)) == []
    assert _cycles(_imports(mods, inside_functions=True)) == [["pkg.a", "pkg.b"]]


WINDOWS = {"gui.play", "gui.table", "gui.mapeditor", "gui.scenarioeditor", "gui.tcs"}
SHARED = {"gui.scene", "gui.common"}


def test_gui_is_grouped_by_window_and_shared_parts():
    """gui/ holds only packages beside the program's entry points; the shared parts (``gui.scene``,
    ``gui.common``) never import a window's package, even from inside a function."""
    flat = sorted(p.name for p in (ROOT / "gui").glob("*.py"))
    assert flat == ["__init__.py", "__main__.py", "app.py", "bench.py"]
    leaks = sorted((m, d) for m, deps in _imports(_modules("gui"), inside_functions=True).items()
                   for d in deps if _package(m) in SHARED and _package(d) in WINDOWS)
    assert leaks == []
