"""Builds the Python package ssac for pip (pyproject.toml): the extension ssac._ssac is the
project's CMake target ssac_python, configured in setuptools' build directory and built alone
(the library and theory/ it links, nothing else: no tests, no command line); the package's Python
files are python/ssac/. The version is CMakeLists.txt's project(ssac VERSION ...), the one source
of truth for the C++ package and this one.

Environment: SSAC_CMAKE_ARGS adds arguments to the configure step (e.g.
"-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"); SSAC_BUILD_JOBS sets the build's parallelism (default 2).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*ssac\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        sys.exit("setup.py: no 'project(ssac VERSION x.y.z' in CMakeLists.txt")
    return m.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # The CMake tree is build-pip/ itself, one level below the source as a build/ tree is: with
        # ccache's base_dir (Debian's ccache, CCACHE_BASEDIR) the compile commands then name the
        # same relative paths as a build in build/ with the same options, so a cache warmed by
        # either serves the other.
        build = ROOT / "build-pip"
        build.mkdir(parents=True, exist_ok=True)
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_TESTING=OFF", "-DSSAC_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("SSAC_CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        jobs = os.environ.get("SSAC_BUILD_JOBS", "2")
        subprocess.run(["cmake", "--build", str(build), "-j", jobs, "--target", "ssac_python"],
                       check=True)
        built = sorted((build / "python" / "ssac").glob("_ssac*.so"))
        if len(built) != 1:
            sys.exit(f"setup.py: expected one _ssac*.so in {build / 'python' / 'ssac'}, "
                     f"found {[p.name for p in built]}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


os.makedirs(ROOT / "build-pip", exist_ok=True)

setup(
    version=cmake_version(),
    packages=["ssac"],
    package_dir={"": "python"},
    ext_modules=[Extension("ssac._ssac", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build directory, beside (not inside) a CMake build tree named build/.
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
    zip_safe=False,
)
