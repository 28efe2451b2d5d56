"""The package as shipped: the type stubs describe every function with its real parameters,
and every example in a docstring runs and prints what it says."""

import ast
import doctest
import inspect
from pathlib import Path

import pytest

import nimlab

SUBMODULES = ["scoring", "octal", "normal_play", "candy", "cash", "mining", "claims", "study",
              "certificates"]
PACKAGE = Path(nimlab.__file__).parent


def stub_functions(name):
    """Function name → parameter names, from the installed stub `nimlab/<name>.pyi`."""
    tree = ast.parse((PACKAGE / f"{name}.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            out[node.name] = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    return out


def runtime_functions(name):
    module = getattr(nimlab, name)
    return {f: [p for p in inspect.signature(getattr(module, f)).parameters]
            for f in dir(module)
            if not f.startswith("_") and callable(getattr(module, f))
            and not isinstance(getattr(module, f), type)}


@pytest.mark.parametrize("name", SUBMODULES)
def test_stubs_describe_every_function(name):
    assert (PACKAGE / "py.typed").exists()
    assert stub_functions(name) == runtime_functions(name)


def test_stubs_describe_the_classes():
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text())
    classes = {n.name: {m.name for m in n.body if isinstance(m, ast.FunctionDef)}
               for n in tree.body if isinstance(n, ast.ClassDef)}
    for cls in [nimlab.Pwl, nimlab.Table]:
        public = {m for m in dir(cls) if not m.startswith("__") or m in ("__call__",)}
        public -= {"__call__"} if cls is nimlab.Table else set()
        assert public - {"_repr_latex_", "_repr_html_"} <= classes[cls.__name__], cls


def docstrings():
    for name in SUBMODULES:
        module = getattr(nimlab, name)
        for f in dir(module):
            obj = getattr(module, f)
            if not f.startswith("_") and (obj.__doc__ or "").count(">>>"):
                yield f"{name}.{f}", obj.__doc__
    for cls in [nimlab.Pwl, nimlab.Table]:
        for m in dir(cls):
            doc = getattr(getattr(cls, m), "__doc__", None) or ""
            if ">>>" in doc:
                yield f"{cls.__name__}.{m}", doc


@pytest.mark.parametrize("name,doc", list(docstrings()), ids=[n for n, _ in docstrings()])
def test_docstring_examples_run(name, doc, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    test = doctest.DocTestParser().get_doctest(doc, {"nimlab": nimlab}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{name}: a docstring example printed something else"


def readme_python_examples():
    """The `>>>` examples of the README's Python section, as one doctest text."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = section.split("```python\n")[1:]
    return "\n".join(b[:b.index("```")] for b in blocks)


def test_readme_tutorial_runs(monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    text = readme_python_examples()
    assert text.count(">>>") > 20
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, "a README example printed something else"
