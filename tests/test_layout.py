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


def _imports(mods) -> dict[str, set[str]]:
    """Module -> modules it imports at load time (top level, not inside functions)."""
    graph = {}
    for m, (p, is_pkg) in mods.items():
        deps = set()
        body = ast.parse(p.read_text()).body
        nodes = [n for node in body for n in ([node] + (node.body if isinstance(node, (ast.If, ast.Try)) else []))]
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
