"""The live benchmark's server side: its own database, its Daphne workers, and the Django
setup the bench process shares with them (to make users, sessions and tables through the
site's own code).

Everything here is undone at the end: workers are killed and the database dropped, even
when the run fails (``bench_site``, the ``with`` every live bench runs in, and ``atexit``
as a last resort).
"""

from __future__ import annotations

import atexit
import logging
import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS = "redis://127.0.0.1:6379/3"
# How the CI and the development machines start Redis (see the brief of --restart-redis).
REDIS_START = (
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" '
    "--appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log"
)
CLK_TCK = os.sysconf("SC_CLK_TCK")


# --- The database ---------------------------------------------------------------------------


class BenchDatabase:
    """A database of the bench's own: a fresh PostgreSQL database on ``server_url``'s
    server, or a SQLite file in ``scratch`` when ``server_url`` is empty."""

    def __init__(self, server_url: str, scratch: Path) -> None:
        self.server_url = server_url
        self.name = f"tongits_live_{os.getpid()}_{secrets.token_hex(3)}"
        self.url = f"sqlite:///{scratch / 'live.sqlite3'}"
        self.created = False

    @property
    def postgres(self) -> bool:
        return bool(self.server_url)

    def create(self) -> str:
        if self.postgres:
            self._admin(f'CREATE DATABASE "{self.name}"')
            self.created = True
            parts = urlsplit(self.server_url)
            self.url = urlunsplit(parts._replace(path=f"/{self.name}"))
        return self.url

    def drop(self) -> None:
        if self.created:
            self.created = False
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')

    def _admin(self, statement: str) -> None:
        import psycopg

        parts = urlsplit(self.server_url)
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(statement)


def server_url_from(database_url: str | None) -> str:
    """The PostgreSQL server to make the bench's database on."""
    if database_url and database_url.startswith(("postgres://", "postgresql://")):
        return database_url
    return DEFAULT_POSTGRES


# --- Environment and Django -----------------------------------------------------------------


def site_env(db_url: str, redis_url: str, scratch: Path, *, bots: bool) -> dict[str, str]:
    """The environment of the workers, and of the bench process's own Django."""
    env = {
        "DJANGO_SETTINGS_MODULE": "bench.live_settings",
        "TONGITS_BENCH_STATIC_ROOT": str(scratch / "static"),
        "TONGITS_BENCH_CHANNEL_PREFIX": f"tongits-bench-{os.getpid()}-{secrets.token_hex(3)}",
        "DATABASE_URL": db_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        # People think, but never so long that the server plays for them; under an hour,
        # so the tables are live ones (an hour or more makes a correspondence table, which
        # queues a "your turn" notice after every move: not what live play costs).
        "TONGITS_TURN_SECONDS": "3000",
        "TONGITS_CLOCK_IN_WORKERS": "1",
        # The bench's players answer at once, faster than any person: the per-socket
        # frame limit (5 a second) would throttle them, which is not what is measured.
        "TONGITS_SOCKET_FRAMES_PER_SECOND": "1000",
        "TONGITS_SOCKET_FRAME_BURST": "1000",
        # Its people start a new table after every game, faster than anyone would.
        "TONGITS_TABLES_PER_MINUTE": "100000",
        "TONGITS_OPEN_TABLES_MAX": "100000",
        "PYTHONUNBUFFERED": "1",
    }
    if bots:
        env["TONGITS_BOT_PAUSE_MIN"] = env["TONGITS_BOT_PAUSE_MAX"] = "0"
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def setup_django(env: dict[str, str]) -> None:
    """Point this process's Django at the bench database, migrate it and collect the static
    files the workers serve (DEBUG off needs the manifest)."""
    configure_django(env)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def configure_django(env: dict[str, str]) -> None:
    """Point this process's Django at the bench database (this process, or the one that
    makes the bench's new tables while the clients play)."""
    os.environ.update(env)
    if "REDIS_URL" not in env:
        os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    # The bench's own table-making would log every deal; the workers still log as usual.
    logging.getLogger("games").setLevel(logging.WARNING)
    # Nobody listens to what the bench's own table-making tells: its tables are full before
    # any socket opens, and there is no lobby socket. Through Redis each of those events
    # cost this process a new connection (async_to_sync's loop of the moment), which the
    # clients' share of the two cores paid for; the workers keep the Redis layer.
    from channels.layers import channel_layers
    from django.conf import settings

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()


def close_django() -> None:
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        conn.close()
        if hasattr(conn, "close_pool"):
            conn.close_pool()


# --- A bench's whole site -------------------------------------------------------------------


@dataclass
class BenchSite:
    """What a bench runs against: its scratch folder, its database, the environment its
    workers and this process share, and its workers (none started yet)."""

    scratch: Path
    database: BenchDatabase
    workers: Workers
    env: dict[str, str] = field(default_factory=dict)
    django_ready: bool = False

    def setup_django(self) -> None:
        """Migrate the database and point this process's Django at it (after any change
        to ``env`` that the workers and this process must share)."""
        setup_django(self.env)
        self.django_ready = True


@contextmanager
def bench_site(
    kind: str, postgres: str, redis: str, *, bots: bool = False, logs: str | None = None
) -> Iterator[BenchSite]:
    """A bench's own database, scratch folder and workers, torn down on the way out however
    the run ends: SIGTERM (a test's timeout, CI) unwinds like Ctrl-C so that this does run.
    ``logs``, when given, is a folder the workers' logs are copied to before they go."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    scratch = Path(tempfile.mkdtemp(prefix=f"tongits-{kind}-"))
    site = BenchSite(scratch, BenchDatabase(postgres, scratch), Workers(scratch))
    try:
        site.env = site_env(site.database.create(), redis, scratch, bots=bots)
        yield site
    finally:
        site.workers.stop()
        print("workers stopped", file=sys.stderr, flush=True)  # stdout ends with JSON
        if logs:
            Path(logs).mkdir(parents=True, exist_ok=True)
            for worker in site.workers.items:
                shutil.copy(worker.log, Path(logs) / worker.log.name)
        if site.django_ready:
            close_django()
        site.database.drop()
        shutil.rmtree(scratch, ignore_errors=True)


# --- Workers --------------------------------------------------------------------------------


@dataclass
class Worker:
    index: int
    port: int
    process: subprocess.Popen
    log: Path
    cpu_s: float = 0.0  # last reading: a killed worker keeps its last one
    rss_mb: float = 0.0
    killed: bool = False

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def sample(self) -> None:
        """Read the process's CPU time and resident memory from /proc."""
        if not self.alive:
            return
        try:
            stat = Path(f"/proc/{self.process.pid}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            self.cpu_s = (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    self.rss_mb = int(line.split()[1]) / 1024
        except (OSError, IndexError, ValueError):
            pass


@dataclass
class Workers:
    scratch: Path
    items: list[Worker] = field(default_factory=list)
    turn: int = 0

    def start(self, count: int, env: dict[str, str]) -> None:
        full_env = {**os.environ, **env}
        if "REDIS_URL" not in env:
            full_env.pop("REDIS_URL", None)
        for index in range(count):
            port = free_port()
            log = self.scratch / f"worker{index}.log"
            command = [
                sys.executable,
                "-m",
                "tongits_site.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
            ]
            process = subprocess.Popen(
                [*command, "tongits_site.asgi:application"],
                cwd=ROOT, env=full_env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
            )  # fmt: skip
            self.items.append(Worker(index, port, process, log))
        atexit.register(self.stop)
        for worker in self.items:
            wait_for_port(worker)

    def for_game(self, game_id: int) -> Worker:
        """The worker still running that a proxy routing by table sends this game's
        sockets to (as nginx's ``hash $request_uri consistent`` does)."""
        alive = [w for w in self.items if w.alive]
        if not alive:
            raise RuntimeError("every worker has stopped")
        return alive[game_id % len(alive)]

    def next_alive(self) -> Worker:
        """Round-robin over the workers still running, as a load balancer would."""
        for _ in range(len(self.items)):
            worker = self.items[self.turn % len(self.items)]
            self.turn += 1
            if worker.alive:
                return worker
        raise RuntimeError("every worker has stopped")

    def sample(self) -> None:
        for worker in self.items:
            worker.sample()

    def cpu_s(self) -> float:
        self.sample()
        return sum(w.cpu_s for w in self.items)

    def kill(self, index: int) -> None:
        worker = self.items[index]
        worker.sample()
        worker.killed = True
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait()

    def signal(self, signum: int) -> None:
        for worker in self.items:
            if worker.alive:
                worker.process.send_signal(signum)

    def stop(self) -> None:
        for worker in self.items:
            if worker.alive:
                worker.process.terminate()
        deadline = time.monotonic() + 5
        for worker in self.items:
            try:
                worker.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()

    def log_problems(self) -> list[str]:
        """Lines of the workers' logs that report an error (tracebacks, ERROR records)."""
        found = []
        for worker in self.items:
            text = worker.log.read_text(errors="replace") if worker.log.exists() else ""
            for line in text.splitlines():
                if "Traceback" in line or " ERROR " in line or "CRITICAL" in line:
                    found.append(f"worker {worker.index}: {line.strip()[:200]}")
        return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(worker: Worker, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not worker.alive:
            tail = worker.log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"worker {worker.index} exited at start:\n{tail}")
        try:
            with socket.create_connection(("127.0.0.1", worker.port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"worker {worker.index} did not listen on port {worker.port}")


def restart_redis(redis_url: str, start_command: str = REDIS_START) -> float:
    """Stop the Redis server of ``redis_url`` and start it again; the seconds it was down.

    Redis is shared by everything on the machine: only for a machine nobody else uses."""
    parts = urlsplit(redis_url)
    host, port = parts.hostname or "127.0.0.1", str(parts.port or 6379)
    started = time.monotonic()
    cli = ["redis-cli", "-h", host, "-p", port]
    subprocess.run([*cli, "shutdown", "nosave"], capture_output=True, timeout=10)
    subprocess.run(shlex.split(start_command), check=True, capture_output=True, timeout=10)
    for _ in range(100):
        if subprocess.run([*cli, "ping"], capture_output=True, timeout=5).stdout.strip() == b"PONG":
            break
        time.sleep(0.1)
    return time.monotonic() - started
