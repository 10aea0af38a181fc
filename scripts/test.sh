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

# The Python package (crates/python): a virtualenv in target/py-venv with what the suite
# needs (installed from PyPI only when missing), the extension built into it with maturin,
# then its pytest suite. The cargo steps above already test the crate's plain-Rust part.
echo "== python: virtualenv, maturin build, pytest"
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
  if ! python3 -m venv --help >/dev/null 2>&1; then
    echo "== installing python3-venv (Debian)"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
  fi
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import maturin, pytest, numpy, pettingzoo, gymnasium, pyspiel, ruff" >/dev/null 2>&1; then
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    maturin pytest numpy pettingzoo gymnasium open-spiel ruff
fi
# Our Python (package, tests, examples, bench scripts) passes ruff with its classic default
# rules (pyflakes and the pycodestyle errors), pinned here as newer ruff versions add more.
"$VENV/bin/ruff" check --isolated --select E4,E7,E9,F crates/python examples scripts
export PYO3_PYTHON="$PWD/$VENV/bin/python"
cargo clippy -p tessera-python --features python --all-targets --locked -- -D warnings
VIRTUAL_ENV="$PWD/$VENV" PATH="$PWD/$VENV/bin:$PATH" \
  maturin develop --release --locked -m crates/python/Cargo.toml
"$VENV/bin/python" -m pytest -q crates/python/tests
