#!/usr/bin/env bash
# Before/after comparison of seeded tournaments: every game and table size, players at node
# or depth budgets (so the games do not depend on the machine's load). Builds nothing: give it
# two `tessera` binaries (e.g. one built from an older commit in a git worktree). Prints SAME
# or DIFF per run; the stored games (records included), agent names and faults are compared.
# usage: scripts/compare-seeded.sh OLD_BIN NEW_BIN OUTDIR   (needs sqlite3)
set -euo pipefail
old=$1; new=$2; out=$3
mkdir -p "$out"
runs=(
  "azul|2|random,greedy,smart,strategic:diagonal|6"
  "azul|2|strong:nodes=3000,presort:nodes=2000,alphabeta:depth=2|4"
  "azul|2|augur:nodes=3000,level:3,greedy:blunder=0.3|4"
  "azul|3|augur:nodes=2000,strong:nodes=2000,smart|3"
  "azul|4|augur:nodes=1500,strong:nodes=1500,greedy,random|2"
  "qwirkle|2|montecarlo:nodes=6,points,lookahead,smarter|2"
  "qwirkle|3|montecarlo:nodes=4,points,lookahead:samples=3|2"
  "qwirkle|4|level:5,points,random,smarter|1"
  "nim|2|random,first|10"
  "nim|3|random,first,random|5"
)
for r in "${runs[@]}"; do
  IFS='|' read -r game players agents games <<<"$r"
  tag=$(echo "$game-$players-$agents" | tr ':,=' '___')
  for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    db="$out/$side-$tag.sqlite"; rm -f "$db"
    "$bin" tournament "$game" --players "$players" --agents "$agents" --games "$games" --seed 4242 --jobs 1 --db "$db" > "$out/$side-$tag.txt" 2>&1
    sqlite3 "$db" "select * from games order by run, idx; select * from agent_names order by run, agent; select * from faults order by run, idx;" > "$out/$side-$tag.games"
  done
  if cmp -s "$out/old-$tag.games" "$out/new-$tag.games"; then echo "SAME  $tag ($(wc -l < "$out/new-$tag.games") games)"; else echo "DIFF  $tag"; fi
done
