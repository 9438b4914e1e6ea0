"""A throwaway PostgreSQL server for the tests (scripts/postgres-throwaway.sh): a cluster in a
short temporary folder, on a Unix socket there, run by an unprivileged user; and the daemon
configuration that writes the history to it."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import e2e_support as support

SCRIPT = support.PACKAGE_ROOT / "scripts" / "postgres-throwaway.sh"


class Postgres:
    def __init__(self) -> None:
        # Unix socket paths are limited to ~107 bytes: a short folder of its own, not pytest's tmp path.
        self.directory = tempfile.mkdtemp(prefix="mw-pg-")
        self.conninfo = ""

    def start(self) -> "Postgres":
        result = subprocess.run(["sh", str(SCRIPT), "start", self.directory], capture_output=True, timeout=60,
                                env={**os.environ, "POSTGRES_OPTIONS": "-c fsync=off"})
        assert result.returncode == 0, result.stderr.decode()
        self.conninfo = result.stdout.decode().strip()
        return self

    def stop(self, mode: str = "fast") -> None:
        result = subprocess.run(["sh", str(SCRIPT), "stop", self.directory], capture_output=True, timeout=60,
                                env={**os.environ, "MODE": mode})
        assert result.returncode == 0, result.stderr.decode()

    def destroy(self) -> None:
        subprocess.run(["sh", str(SCRIPT), "destroy", self.directory], capture_output=True, timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)

    def make_database(self) -> str:
        """A new empty database; its connection string."""
        name = "t" + os.urandom(4).hex()
        self.sql(self.conninfo, f"CREATE DATABASE {name}")
        return self.conninfo.replace("dbname=postgres", f"dbname={name}")

    def sql(self, conninfo: str, statement: str) -> str:
        result = subprocess.run(["psql", conninfo, "-qAtc", statement], capture_output=True, timeout=60)
        assert result.returncode == 0, result.stderr.decode()
        return result.stdout.decode().strip()

    def stored_ids(self, conninfo: str) -> list[str]:
        text = self.sql(conninfo, "SELECT id FROM modalwatch_violations ORDER BY seq")
        return text.splitlines() if text else []


def config_file(folder: Path, conninfo: str) -> Path:
    """A daemon configuration that keeps the history in PostgreSQL at `conninfo`."""
    path = folder / "modalwatchd.yaml"
    path.write_text(f'history:\n  store: postgresql\n  postgresql: "{conninfo}"\n')
    return path
