"""The type stubs shipped with the package (``tessera/_tessera.pyi``, ``py.typed``) name
every class, method, property and constant of the extension module, and nothing it lacks.
(The test command also runs mypy over the package with them.)"""

import ast
import pathlib

import tessera
import tessera._tessera as ext

PACKAGE = pathlib.Path(tessera.__file__).parent


def stub_names():
    tree = ast.parse((PACKAGE / "_tessera.pyi").read_text(encoding="utf-8"))
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {
                n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))
            }
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top.add(node.target.id)
    return top, classes


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file()


def test_the_stubs_match_the_extension_module():
    top, classes = stub_names()
    public = {n for n in dir(ext) if not n.startswith("__") or n == "__version__"}
    module_classes = {n for n in public if isinstance(getattr(ext, n), type)}
    assert set(classes) == module_classes
    assert top == public - module_classes
    for name, members in classes.items():
        cls = getattr(ext, name)
        real = {k for k in vars(cls) if not k.startswith("__")}
        real |= {k for k in ("__len__", "__copy__", "__deepcopy__", "__reduce__") if k in vars(cls)}
        stubbed = members - {"__init__"}
        assert stubbed == real, f"{name}: stub only {stubbed - real}, module only {real - stubbed}"
