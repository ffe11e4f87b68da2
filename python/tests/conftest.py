"""Shared fixtures: the `ssac` program (SSAC_BIN, set by ctest) and a small labelled dataset
written by `ssac generate`, so that every comparison with the command line uses the same file."""
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("SSAC_BIN")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("SSAC_BIN must name the built `ssac` program (ctest sets it)")

    def run(*args, check=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"ssac {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
        return p

    return run


@pytest.fixture(scope="session")
def data_csv(cli, tmp_path_factory):
    path = tmp_path_factory.mktemp("data") / "d.csv"
    cli("generate", "--n", 240, "--m", 2, "--k", 3, "--std", 1.5, "--gamma-min", 1.0,
        "--gamma-max", 1.6, "--seed", 11, "--out", path)
    return path
