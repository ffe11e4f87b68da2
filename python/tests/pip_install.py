"""ctest python_pip_install: `pip install --no-build-isolation .` from a clean copy of the tree,
offline, into a fresh virtual environment with the system's site packages and into a user's
site-packages, then `import ssac; ssac.SSAC` from elsewhere, the installed version against
CMakeLists.txt's, and `pip uninstall ssac`.

The copy holds the files git would commit (git ls-files: tracked and new files, not ignored ones
such as build trees), so the package builds from what a clone has. pip runs with --no-index: no
package index is asked, the build uses the interpreter's setuptools and wheel and the venv sees
Debian's numpy. The copy lives under WORK, the same path on every run, so that with a compiler
launcher (SSAC_CMAKE_ARGS, ccache) a second run recompiles nothing it compiled before.

Usage: pip_install.py SOURCE_DIR WORK_DIR VERSION   (run by the interpreter to install for)
"""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path


def run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    p = subprocess.run(cmd, text=True, capture_output=True, **kw)
    if p.returncode != 0:
        sys.exit(f"exit {p.returncode}: {' '.join(map(str, cmd))}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def clean_copy(source, dest):
    files = run(["git", "-C", source, "ls-files", "-z", "--cached", "--others",
                 "--exclude-standard"]).split("\0")
    for f in filter(None, files):
        src = Path(source) / f
        if not src.is_file():  # deleted in the working tree, or a submodule
            continue
        (dest / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / f)


def check_import(python, version, where, env):
    code = ("import importlib.metadata as md, ssac; ssac.SSAC; ssac.oracles.Perfect; "
            "print(ssac.__version__, md.version('ssac'), ssac.__file__)")
    out = run([python, "-c", code], cwd="/", env=env).split()
    assert out[0] == version and out[1] == version, f"versions {out[:2]}, CMakeLists.txt {version}"
    assert out[2].startswith(str(where)), f"ssac imported from {out[2]}, not under {where}"


def check_uninstalled(python, where, env):
    """pip no longer knows ssac, and `import ssac` finds nothing under `where` (it may find another
    copy: scripts/python-path.sh's ssac.pth in the system's site-packages, which a venv with system
    site packages sees)."""
    p = subprocess.run([python, "-m", "pip", "show", "ssac"], env=env, capture_output=True)
    assert p.returncode != 0, "pip still shows ssac after pip uninstall"
    code = "import importlib.util as u; s = u.find_spec('ssac'); print(s.origin if s else '')"
    origin = run([python, "-c", code], cwd="/", env=env).strip()
    assert not origin.startswith(str(where)), f"ssac still importable from {origin}"
    assert not list(Path(where).rglob("ssac*")), f"files of ssac left under {where}"


def main():
    source, work, version = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    clone = work / "clone"
    clone.mkdir(parents=True)
    clean_copy(source, clone)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONUSERBASE")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    pip_args = ["install", "--no-build-isolation", "--no-index", str(clone)]

    # A virtual environment that sees Debian's numpy (and scikit-learn, when installed).
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    py = str(venv / "bin" / "python")
    t = time.monotonic()
    run([py, "-m", "pip", *pip_args], env=env)
    print(f"pip install into the venv: {time.monotonic() - t:.1f} s", flush=True)
    check_import(py, version, venv, env)
    run([py, "-m", "pip", "uninstall", "-y", "ssac"], env=env)
    check_uninstalled(py, venv, env)

    # A user's site-packages (PYTHONUSERBASE keeps the test out of the real one). Debian marks its
    # interpreter externally managed, so pip asks for --break-system-packages even for --user.
    user_env = dict(env, PYTHONUSERBASE=str(work / "user"))
    t = time.monotonic()
    run([sys.executable, "-m", "pip", *pip_args, "--user", "--break-system-packages"],
        env=user_env)
    print(f"pip install --user (the build reused): {time.monotonic() - t:.1f} s", flush=True)
    check_import(sys.executable, version, work / "user", user_env)
    run([sys.executable, "-m", "pip", "uninstall", "-y", "--break-system-packages", "ssac"],
        env=user_env)
    check_uninstalled(sys.executable, work / "user", user_env)
    shutil.rmtree(work)
    print("pip install, import, uninstall: ok")


if __name__ == "__main__":
    main()
