"""The public surface, the import direction app -> agent -> mirror, SQL only in mirror, and the docs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click

import mirror
from mirror.cli import cli
from mirror.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
# Every command, option and setting is documented somewhere a user reads: the README or a page of docs/.
DOCS = README + "".join(p.read_text() for p in sorted((ROOT / "docs").glob("*.md")))


def imports_of(package: str) -> set[str]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_import_direction():
    assert not imports_of("mirror") & {"agent", "app"}
    assert "app" not in imports_of("agent")


def test_duckdb_only_in_mirror():
    for pkg in ("agent", "app"):
        assert "duckdb" not in imports_of(pkg)


def test_public_surface_is_declared():
    for name in mirror.__all__:
        assert hasattr(mirror, name), name
    assert {"status", "verify", "export", "Store", "Settings", "MirrorError", "SyncOptions"} <= set(mirror.__all__)
    from mirror import sync as sync_package
    from mirror.sync import sync

    assert callable(sync) and sync_package.__name__ == "mirror.sync"


def test_mirror_is_laid_out_by_subsystem():
    """mirror/ holds its edges (cli, settings, errors) and one folder per subsystem, no flat pipeline modules."""
    flat = {p.stem for p in (ROOT / "mirror").glob("*.py")}
    assert flat == {"__init__", "__main__", "cli", "settings", "errors"}, flat
    folders = {p.name for p in (ROOT / "mirror").iterdir() if (p / "__init__.py").exists()}
    assert folders == {"schema", "store", "sync", "ops", "api", "lookup", "surveil"}, folders


def test_importing_mirror_loads_no_subsystem():
    """The package __init__ loads lazily: `import mirror` alone imports no DuckDB and no pipeline."""
    import subprocess
    import sys

    code = "import sys, mirror; print(sorted(m for m in sys.modules if m.startswith(('mirror.', 'duckdb'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "['mirror.errors']", out


def test_every_module_opens_with_a_docstring_line():
    for pkg in ("mirror", "agent", "app"):
        for path in (ROOT / pkg).rglob("*.py"):
            doc = ast.get_docstring(ast.parse(path.read_text()))
            assert doc, path


def test_every_command_is_documented_with_an_example():
    for name, cmd in cli.commands.items():
        assert f"mirror {name}" in DOCS, name
        assert "Example:" in (cmd.help or ""), name
        for p in cmd.params:
            if isinstance(p, click.Option) and p.name not in ("help",):
                flag = max(p.opts, key=len)
                assert flag in DOCS or name in ("sql",) and flag == "--json", (name, flag)


def test_every_assistant_command_is_documented_with_an_example():
    from agent.cli import tools_cli

    for name, cmd in tools_cli.commands.items():
        assert f"fda-explorer {name}" in DOCS, name
        assert "Example:" in (cmd.help or ""), name
        for p in cmd.params:
            if isinstance(p, click.Option):
                assert max(p.opts, key=len) in DOCS, (name, p.opts)


def test_every_setting_is_documented():
    from agent.settings import AgentSettings

    for name, field in {**Settings.model_fields, **AgentSettings.model_fields}.items():
        assert f"FDAX_{name.upper()}" in DOCS, name
        assert field.description, name


def test_readme_starts_with_the_two_commands():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1)
    cmds = [ln.split("#")[0].strip() for ln in block.splitlines() if ln.strip()]
    assert cmds == ["bash .ci/demo", "bash .ci/setup && .venv/bin/python -m pytest -q"]
    run = (ROOT / ".ci" / "run").read_text()
    assert "bash .ci/setup" in run and "\n.venv/bin/python -m pytest -q\n" in run


def test_readme_is_one_screen_and_links_every_docs_page():
    assert len(README.splitlines()) <= 60, len(README.splitlines())
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in README, page.name


def _top_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_only_app_ui_imports_flet():
    """Import contract: the GUI toolkit stays in app/ui; app's logic, the assistant and the mirror never see it."""
    for pkg in ("mirror", "agent", "app"):
        for path in (ROOT / pkg).rglob("*.py"):
            if path.is_relative_to(ROOT / "app" / "ui"):
                continue
            assert not _top_imports(path) & {"flet", "flet_web", "flet_desktop"}, path


def test_the_mirror_never_imports_the_layers_above_it_anywhere():
    """Import contract, file by file (lazy imports inside functions included): mirror -> nothing above;
    agent -> mirror only; app -> agent and mirror."""
    for path in (ROOT / "mirror").rglob("*.py"):
        assert not _top_imports(path) & {"agent", "app"}, path
    for path in (ROOT / "agent").rglob("*.py"):
        assert "app" not in _top_imports(path), path


# -- error trees ------------------------------------------------------------------------------------------------
# Exceptions defined in mirror/ or agent/ that do not yet derive from their package's base. The list may only
# shrink: a new exception outside the tree fails the test below. Each line names the file's owner's fix.
OUTSIDE_THE_TREE: dict[str, str] = {}  # exceptions allowed outside their package's tree, with the reason


def _exception_classes(package: str) -> dict[str, type[BaseException]]:
    """Every public exception class defined in the package's modules: "module.Name" -> class."""
    import importlib
    import pkgutil

    found: dict[str, type[BaseException]] = {}
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")
            ):
                found[f"{info.name}.{name}"] = value
    return found


def _errors_docstring(module: str) -> set[str]:
    import importlib

    return set(re.findall(r"\b[A-Z]\w+\b", importlib.import_module(module).__doc__ or ""))


def test_every_error_is_in_its_packages_tree_and_drawn_in_its_docstring():
    """One error base per package (MirrorError, AgentError, AppError), every exception class under it, and each one
    named in the tree drawn in the package's errors.py docstring (mirror/errors.py, agent/errors.py, app/errors.py)."""
    from agent.errors import AgentError, Cancelled
    from app.errors import AppError
    from mirror.errors import MirrorError

    for package, base, allowed, least in (
        ("mirror", MirrorError, (), 10),
        ("agent", AgentError, (Cancelled,), 10),
        ("app", AppError, (), 2),
    ):
        classes = _exception_classes(package)
        assert base in classes.values() and len(classes) > least, package
        pending = tuple(cls for q, cls in classes.items() if q in OUTSIDE_THE_TREE)  # and their subclasses
        outside = {
            q
            for q, cls in classes.items()
            if not issubclass(cls, (base, *allowed)) and (q in OUTSIDE_THE_TREE or not issubclass(cls, pending))
        }
        new = outside - set(OUTSIDE_THE_TREE)
        assert not new, f"exceptions outside the {base.__name__} tree: {sorted(new)}"
        drawn = _errors_docstring(f"{package}.errors")
        undrawn = {q for q, cls in classes.items() if cls.__name__ not in drawn and q not in OUTSIDE_THE_TREE}
        assert not undrawn, f"not drawn in the docstring of {package}/errors.py: {sorted(undrawn)}"


def test_model_errors_are_agent_errors():
    """Code that catches AgentError also catches a model failing (the review's P7)."""
    from agent.errors import AgentError
    from agent.models import ModelError, ModelUnavailable

    assert issubclass(ModelUnavailable, ModelError) and issubclass(ModelError, AgentError)


def test_the_lookup_surface_is_declared_and_lazy():
    """mirror.lookup exports what the assistant uses (resolvers, SUBMISSION_RE, REGIONS) and loads it on first use."""
    import subprocess
    import sys

    import mirror.lookup as lookup

    assert {"resolve_devices", "find_firm", "read_place", "establishments", "REGIONS", "SUBMISSION_RE"} <= set(
        lookup.__all__
    )
    for name in lookup.__all__:
        assert getattr(lookup, name) is not None, name
    code = "import sys, mirror.lookup; print(sorted(m for m in sys.modules if m.startswith(('mirror.', 'duckdb'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "['mirror.errors', 'mirror.lookup']", out
