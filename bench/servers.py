"""What the fault and load scripts run against: a server in a subprocess, a
PostgreSQL database created for the run and dropped after it, and a TCP proxy that can
be cut (``faults.py``, ``load.py`` and ``tests/server/test_faults.py`` use them).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx

PG_HOST, PG_PORT = "127.0.0.1", 5432
#: One TLS context for every client: each would otherwise load the system's
#: certificates again (tens of ms of CPU), though nothing here speaks TLS.
TLS = ssl.create_default_context()


def get(url: str, timeout: float = 10.0, headers: dict[str, str] | None = None) -> httpx.Response:
    """A one-off GET (``httpx.get`` would build a TLS context each time)."""
    with httpx.Client(timeout=timeout, verify=TLS) as client:
        return client.get(url, headers=headers)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# Databases ----------------------------------------------------------------------------


def postgres_admin() -> tuple[Any, str]:
    """A connection to the machine's PostgreSQL (trust auth) and the user it took."""
    import psycopg

    errors = []
    for user in ("postgres", "root"):
        try:
            conn = psycopg.connect(
                host=PG_HOST, port=PG_PORT, user=user, dbname="test", autocommit=True,
                connect_timeout=5,
            )  # fmt: skip
        except psycopg.OperationalError as exc:
            errors.append(f"{user}: {exc}")
            continue
        return conn, user
    raise RuntimeError(f"PostgreSQL on {PG_HOST}:{PG_PORT} is needed: {'; '.join(errors)}")


@contextlib.contextmanager
def postgres_database(prefix: str = "sheepshead_faults") -> Iterator[tuple[str, str, str]]:
    """A new database for the run, dropped at the end: ``(user, name, url)``."""
    admin, user = postgres_admin()
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield user, name, f"postgresql+psycopg://{user}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def migrate_database(url: str) -> None:
    """Bring the schema to the head once, before servers start (they then skip it)."""
    from sheepshead.store import migrate, open_engine

    engine = open_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()


# A server in a subprocess ---------------------------------------------------------------


class ServerProcess:
    """``uvicorn sheepshead.server:create_app`` in its own process, on 127.0.0.1."""

    def __init__(
        self,
        database_url: str,
        data_dir: Path,
        workers: int = 1,
        app: str = "sheepshead.server:create_app",
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.data_dir = data_dir
        self.workers = workers
        self.app = app
        #: Over the defaults below (every rate limit off); an empty value is the
        #: setting's own default.
        self.env = dict(env or {})
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.log_path = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        self.port = free_port()
        env = {
            **os.environ,
            "SHEEPSHEAD_DATABASE_URL": self.database_url,
            "SHEEPSHEAD_DATA_DIR": str(self.data_dir),
            "SHEEPSHEAD_DEV": "1",
            # A load of players from one address: its limits are not what is tested here.
            "SHEEPSHEAD_RATE_IDENTITIES": "off",
            "SHEEPSHEAD_RATE_ACTIONS": "off",
            "SHEEPSHEAD_RATE_ACTIONS_PER_ADDRESS": "off",
            **self.env,
        }
        command = [
            sys.executable, "-m", "uvicorn", self.app, "--factory",
            "--host", "127.0.0.1", "--port", str(self.port), "--workers", str(self.workers),
            "--no-access-log", "--log-level", "warning",
        ]  # fmt: skip
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        self.wait_until("/readyz", timeout)
        return self

    def wait_until(self, path: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}): {self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if get(self.url + path, timeout=2).status_code == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"the server did not answer {path} in {timeout} s: {self.log()}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(sig)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# A TCP proxy we can cut -------------------------------------------------------------------


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a target, on its own event loop in a thread.

    ``cut()`` resets every open connection and stops listening (a new connection is
    refused), as a database that went away; ``restore()`` listens again on the same port.
    """

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.server: asyncio.Server | None = None
        self.transports: set[asyncio.BaseTransport] = set()
        self.connections = 0

    def start(self) -> TcpProxy:
        self.thread.start()
        self.restore()
        return self

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=10)

    def restore(self) -> None:
        async def listen() -> None:
            self.server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
            self.port = self.server.sockets[0].getsockname()[1]

        self._run(listen())

    def cut(self) -> None:
        async def close() -> None:
            if self.server is not None:
                self.server.close()
                self.server = None
            for transport in list(self.transports):
                if isinstance(transport, asyncio.WriteTransport):
                    transport.abort()  # RST: the other side learns at once
            self.transports.clear()

        self._run(close())

    def close(self) -> None:
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.transports.update({writer.transport, up_writer.transport})

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.IncompleteReadError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(OSError):
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.transports.discard(writer.transport)
        self.transports.discard(up_writer.transport)

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
