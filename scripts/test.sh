#!/usr/bin/env bash
# Runs every test of the workspace. Installs what the tests need when this machine lacks it
# (Debian's Chromium and ChromeDriver for the browser tests). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need_pkgs+=(chromium-driver)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "== installing ${need_pkgs[*]} (Debian) for the browser tests"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi
# The browser tests never pass by skipping: without these two the run stops here.
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  if [ ! -x "$tool" ]; then
    echo "error: $tool is missing after the install step: the browser tests cannot run" >&2
    exit 1
  fi
done

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked

# The Python package (crates/python), tested as users get it: one abi3 wheel built with
# maturin, installed with its `test` extra into a fresh virtualenv whose PATH holds no cargo
# or rustc, and the pytest suite run from outside the source tree against the installed
# package. The build tools (maturin, ruff, mypy) live in a second virtualenv,
# target/py-venv. What the suite needs comes from PyPI only when missing: downloads are kept
# in target/py-wheelhouse and installed from there. If Python, venv or pip is missing and
# cannot be installed, this fails naming what is missing; it never skips the suite.
py_fail() {
  echo "error: the Python suite cannot run: $*" >&2
  exit 1
}
echo "== python: build tools (target/py-venv)"
command -v python3 >/dev/null 2>&1 || py_fail "python3 is missing (Debian: apt-get install python3)"
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c "import ensurepip" >/dev/null 2>&1; then
  echo "== installing python3-venv (Debian)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  { $SUDO apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null; } ||
    py_fail "python3 -m venv is missing and python3-venv could not be installed"
  python3 -c "import venv, ensurepip" >/dev/null 2>&1 ||
    py_fail "python3 -m venv (with ensurepip) is missing: install python3-venv"
fi
TOOLS=target/py-venv
if [ ! -x "$TOOLS/bin/python" ]; then
  python3 -m venv "$TOOLS" || py_fail "python3 -m venv $TOOLS failed"
fi
"$TOOLS/bin/python" -m pip --version >/dev/null 2>&1 || py_fail "pip is missing in $TOOLS"
if ! "$TOOLS/bin/python" -c "import maturin, ruff, mypy, numpy, pytest" >/dev/null 2>&1; then
  "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check \
    maturin ruff mypy numpy pytest pettingzoo gymnasium ||
    py_fail "pip could not install maturin, ruff, mypy, numpy, pytest, pettingzoo, gymnasium"
fi
# Our Python (package, tests, examples, bench scripts) passes ruff with its classic default
# rules (pyflakes and the pycodestyle errors), pinned here as newer ruff versions add more.
# The tools run as modules of the venv's python, so a venv whose scripts' first lines name
# another folder (a moved checkout) still works.
"$TOOLS/bin/python" -m ruff check --isolated --select E4,E7,E9,F crates/python examples scripts
# The package and its type stubs (tessera/_tessera.pyi, py.typed) pass mypy
# (crates/python/pyproject.toml's [tool.mypy]: the package's bodies, the tests' surface).
echo "== python: mypy"
(cd crates/python && "../../$TOOLS/bin/python" -m mypy)
export PYO3_PYTHON="$PWD/$TOOLS/bin/python"
cargo clippy -p tessera-python --features python --all-targets --locked -- -D warnings

echo "== python: wheel (maturin build --release)"
rm -f target/wheels/tessera-*.whl
VIRTUAL_ENV="$PWD/$TOOLS" PATH="$PWD/$TOOLS/bin:$PATH" \
  "$TOOLS/bin/python" -m maturin build --release --locked --strip -m crates/python/Cargo.toml \
  --out target/wheels
WHEELS=(target/wheels/tessera-*.whl)
[ ${#WHEELS[@]} -eq 1 ] && [ -f "${WHEELS[0]}" ] || py_fail "expected one wheel in target/wheels, got ${WHEELS[*]}"
WHEEL="$PWD/${WHEELS[0]}"
echo "built $(basename "$WHEEL")"

echo "== python: the wheel in a fresh virtualenv without cargo, pytest against it"
FRESH="$PWD/target/py-fresh"
HOUSE="$PWD/target/py-wheelhouse"
rm -rf "$FRESH"
python3 -m venv "$FRESH" || py_fail "python3 -m venv $FRESH failed"
"$FRESH/bin/python" -m pip --version >/dev/null 2>&1 || py_fail "pip is missing in $FRESH"
fresh_pip() { "$FRESH/bin/python" -m pip -q --disable-pip-version-check "$@"; }
if ! fresh_pip install --no-index --find-links "$HOUSE" "$WHEEL[test]" 2>/dev/null; then
  echo "== downloading the test extra's dependencies from PyPI into $HOUSE"
  fresh_pip download -d "$HOUSE" "$WHEEL[test]" || py_fail "pip could not download the test extra"
  rm -f "$HOUSE"/tessera-*.whl
  fresh_pip install --no-index --find-links "$HOUSE" "$WHEEL[test]" ||
    py_fail "pip could not install $(basename "$WHEEL")[test]"
fi
# PATH without any directory holding cargo or rustc: the wheel must need neither.
NO_RUST_PATH="$FRESH/bin"
IFS=: read -r -a PATH_DIRS <<<"$PATH"
for d in "${PATH_DIRS[@]}"; do
  if [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ]; then
    NO_RUST_PATH="$NO_RUST_PATH:$d"
  fi
done
ROOT="$PWD"
# tessera.train drives the `tessera` command line (the wheel does not ship it): the one
# `cargo test` built, named by TESSERA_CLI (tests/test_ray.py trains with it on Ray).
cargo build --locked -p tessera --bin tessera
TESSERA_CLI="$ROOT/target/debug/tessera"
RUN_DIR="$(mktemp -d)"
SITE="$("$FRESH/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
(
  cd "$RUN_DIR"
  export PATH="$NO_RUST_PATH" VIRTUAL_ENV="$FRESH" TESSERA_INSTALLED_IN="$SITE" TESSERA_CLI
  unset PYTHONPATH
  if command -v cargo >/dev/null 2>&1 || command -v rustc >/dev/null 2>&1; then
    py_fail "cargo or rustc is still on the test PATH"
  fi
  "$FRESH/bin/python" -c 'import os, tessera; f = tessera.__file__; assert f.startswith(os.environ["TESSERA_INSTALLED_IN"]), f; print("tessera", tessera.__version__, "from", f)'
  "$FRESH/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/crates/python/tests"
)
rm -rf "$RUN_DIR"
