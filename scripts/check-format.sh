#!/usr/bin/env bash
# Fails, naming the files, when a tracked C++ file differs from clang-format's output (.clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
bad=()
while IFS= read -r f; do
  [ -f "$f" ] || continue
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cc')
if ((${#bad[@]})); then
  echo "check-format: not clang-formatted: ${bad[*]} (run clang-format -i on them)" >&2
  exit 1
fi
echo "check-format: all C++ files are clang-formatted"
