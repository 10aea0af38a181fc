#!/usr/bin/env bash
# The files outside a game's own crate whose code (not comments, not unit tests, not
# tests/ folders) names the game: what adding a game like it touches.
# usage: scripts/game-footprint.sh [REV] [PATTERN]   (default: HEAD, the Nim test game)
# Example: scripts/game-footprint.sh HEAD '\bNim\b|testgame'
set -euo pipefail
rev=${1:-HEAD}
pat=${2:-'\bNim\b|testgame::|nim_kind|"nim"|\bmod nim\b'}
git ls-tree -r --name-only "$rev" -- crates |
  grep -E '^crates/[^/]+/src/.*\.rs$' | grep -v '^crates/core/' |
  while read -r f; do
    git show "$rev:$f" | awk '/#\[cfg\(test\)\]/{t=1} !t && !/^[[:space:]]*\/\//' |
      grep -E "$pat" >/dev/null && echo "$f"
  done
exit 0
