#!/usr/bin/env bash
# Puts the built Python package `ssac` (BUILD/python/ssac: the extension ssac._ssac and the package's
# Python files) on the path of the `python3` found first on PATH and of
# Debian's /usr/bin/python3, so that `python3 -c "import ssac"` works in any directory: writes a
# file ssac.pth naming BUILD/python into each interpreter's site-packages (its user site-packages
# when that is not writable). The module is built for one CPython version (the interpreter CMake
# found, /usr/bin/python3 by default); an interpreter of another version is skipped with a note.
# Each interpreter written for is then checked with `python3 -c "import ssac"` from /.
# Usage: scripts/python-path.sh [BUILD_DIR]   (default $SSAC_BUILD_DIR or build)
# SSAC_SITE_DIR=DIR writes ssac.pth into DIR instead (the module's tests use it).
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-${SSAC_BUILD_DIR:-build}}")
moddir=$build/python
so=$(find "$moddir/ssac" -maxdepth 1 -name '_ssac.*.so' 2>/dev/null | head -n 1 || true)
if [ -z "$so" ] || [ ! -f "$moddir/ssac/__init__.py" ]; then
  echo "python-path: no package ssac (ssac/__init__.py, ssac/_ssac.*.so) in $moddir (build the target ssac_python)" >&2
  exit 1
fi
suffix=${so#"$moddir"/ssac/_ssac}  # e.g. .cpython-311-x86_64-linux-gnu.so
declare -A done_
for py in "$(command -v python3 || true)" /usr/bin/python3; do
  [ -n "$py" ] && [ -x "$py" ] || continue
  # The interpreter itself (a pyenv shim resolves to the real one), to write each site only once.
  real=$("$py" -c 'import sys; print(sys.executable)')
  [ -z "${done_[$real]:-}" ] || continue
  done_[$real]=1
  if ! "$py" -c "import importlib.machinery as m, sys; sys.exit('$suffix' not in m.EXTENSION_SUFFIXES)"; then
    echo "python-path: $real: skipped, the module ($suffix) is for another Python version" >&2
    continue
  fi
  site=${SSAC_SITE_DIR:-}
  if [ -z "$site" ]; then
    site=$("$py" -c 'import site; print(site.getsitepackages()[0])')
    if ! { mkdir -p "$site" && [ -w "$site" ]; } 2>/dev/null; then
      site=$("$py" -c 'import site; print(site.getusersitepackages())')
    fi
  fi
  mkdir -p "$site"
  printf '%s\n' "$moddir" >"$site/ssac.pth"
  echo "python-path: $real: $site/ssac.pth -> $moddir"
  # Without the override, check the result as a user would see it: in another directory, with
  # the interpreter's own path only.
  if [ -z "${SSAC_SITE_DIR:-}" ] && ! (cd / && env -u PYTHONPATH "$py" -c "import ssac"); then
    echo "python-path: $real: 'import ssac' fails after writing $site/ssac.pth" >&2
    exit 1
  fi
done
