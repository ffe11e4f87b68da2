#!/usr/bin/env bash
# The command line's layout (cli/): only the entry point (main.cpp, app.cpp and app.hpp) and the
# CMakeLists sit at cli/'s root, every other file in a room; every source file opens with a comment
# saying its job; and no circle in who needs whom, neither between the library's object files
# (a symbol one object uses, defined in another) nor between the rooms those objects are in.
# Usage: cli_layout_test.sh CLI_SOURCE_DIR CLI_LIBRARY (the static library ssac_cli_commands)
set -euo pipefail
src=$1
lib=$2
fail=0
for f in "$src"/*; do
  case $(basename "$f") in
    main.cpp | app.cpp | app.hpp | CMakeLists.txt) ;;
    *) [ -d "$f" ] || { echo "cli_layout: $f is at cli/'s root; put it in a room" >&2; fail=1; } ;;
  esac
done
while IFS= read -r f; do
  first=$(head -n 1 "$f")
  case $first in
    //* | \#\ *) ;;
    *) echo "cli_layout: $f does not open with a comment saying its job" >&2; fail=1 ;;
  esac
done < <(find "$src" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.gp' -o -name '*.in' \))

# Each object file of the library -> the room of its source (the archive names members by the
# source's file name, which is unique under cli/).
declare -A room
while IFS= read -r f; do
  rel=${f#"$src"/}
  b=$(basename "$f")
  room[$b.o]=$([ "$rel" = "$b" ] && echo entry || echo "${rel%%/*}")
done < <(find "$src" -type f -name '*.cpp')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Strong definitions (weak ones, inline functions and templates instantiated in many objects, are
# not a dependency on any one object) and undefined references, per member.
nm -A --defined-only "$lib" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {n = split($1, p, ":"); print p[n-1], $3}' |
  sort -k2 >"$work/defs"
nm -A --undefined-only "$lib" 2>/dev/null | awk '$2 == "U" {n = split($1, p, ":"); print p[n-1], $3}' |
  sort -k2 >"$work/uses"
join -1 2 -2 2 "$work/uses" "$work/defs" | awk '$2 != $3 {print $2, $3}' | sort -u >"$work/edges"
[ -s "$work/edges" ] || { echo "cli_layout: no dependency found between objects of $lib" >&2; exit 1; }
if ! tsort "$work/edges" >/dev/null 2>"$work/loop"; then
  echo "cli_layout: the object files need each other in a circle:" >&2
  cat "$work/loop" >&2
  fail=1
fi
while read -r a b; do
  ra=${room[$a]:-?} rb=${room[$b]:-?}
  [ "$ra" = "$rb" ] || echo "$ra $rb"
done <"$work/edges" | sort -u >"$work/rooms"
if ! tsort "$work/rooms" >/dev/null 2>"$work/loop"; then
  echo "cli_layout: the rooms need each other in a circle:" >&2
  cat "$work/loop" >&2
  fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "cli_layout: ok ($(wc -l <"$work/edges") dependencies between objects; rooms, each using only" \
  "those after it: $(tsort "$work/rooms" | paste -sd " "))"
