"""Where batches run: local processes by default, Dask or Ray for clusters.

Every backend is a ``concurrent.futures``-style executor (``submit`` returns a future), so the runner
keeps a bounded window of batches in flight and takes the next one only when a result has been
consumed: the parent never holds more than a few batches of rows, however fast the workers are.

* ``loky`` (the default): joblib's robust process pool (``joblib.externals.loky``), reused between
  runs; its workers watch the runner and exit when it is gone (:func:`watch_parent`).
* ``threading`` and ``sequential``: for debugging (``sequential`` plays every batch in the runner).
* **Dask**: ``pip install distributed`` (or ``krosbalance[cluster]``), start a scheduler and workers
  (``dask scheduler``, then ``dask worker tcp://host:8786 --nworkers 16 --nthreads 1`` on each
  machine), then ``krosbalance run FILE --backend dask --address tcp://host:8786 --jobs 64``
  (``--jobs`` = batches kept in flight: the number of worker processes). Without ``--address`` a
  ``LocalCluster`` of ``--jobs`` single-threaded worker processes is started on this machine (or an
  already-connected ``distributed.Client`` is used). Workers need krosbalance installed at the same
  version; results come back to the runner, which alone writes the shards (no shared disk needed).
* **Ray**: ``pip install ray``, ``ray start --head`` (and ``ray start --address=...`` on the other
  nodes), then ``--backend ray [--address auto]``.

Seeds travel with each match spec, so every backend produces the same tables.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from krosbalance.errors import KrosbalanceError

BACKENDS: tuple[str, ...] = ("loky", "threading", "sequential", "dask", "ray")
PARENT_POLL_SECONDS = 0.5


def watch_parent(poll_seconds: float = PARENT_POLL_SECONDS) -> None:
    """Worker initializer: end this worker as soon as the process that started it (the runner) is gone.

    A runner killed with ``kill -9`` cannot shut its pool down; without this its workers finish
    their batch and then idle for minutes. A daemon thread polls the parent pid (a re-parented
    process has a new one; no signal plumbing, so it works wherever ``os.getppid`` does) and ends
    the worker with ``os._exit``: its unfinished batch was never committed, so ``--resume`` plays
    it again.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_seconds)
        os._exit(1)

    threading.Thread(target=watch, name="krosbalance-watch-parent", daemon=True).start()


class InlineExecutor(Executor):
    """Runs each task in the calling thread when it is submitted (the ``sequential`` backend)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # handed to whoever reads the future, as a pool would
            future.set_exception(exc)
        # Ctrl-C (KeyboardInterrupt) is not stored: it goes on at once, as it would in the runner
        return future


@contextmanager
def executor(name: str, jobs: int, address: str | None = None) -> Iterator[Executor]:
    """An executor for ``jobs`` parallel batches on the named backend (see the module docstring)."""
    if name not in BACKENDS:
        raise KrosbalanceError(f"unknown backend {name!r}; expected one of: {', '.join(BACKENDS)}")
    if name == "sequential" or (name in ("loky", "threading") and jobs == 1):
        yield InlineExecutor()
    elif name == "threading":
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            yield pool
    elif name == "loky":
        from joblib.externals.loky import get_reusable_executor

        # Reused between runs of one process (start-up is paid once); the workers time out when idle.
        pool = get_reusable_executor(max_workers=jobs, initializer=watch_parent, timeout=300)
        try:
            yield pool
        except KeyboardInterrupt:
            # A batch still running (a search AI's match can take a minute) would hold the exit
            # until it ends: its matches are not committed, so the workers go now.
            pool.shutdown(wait=False, kill_workers=True)
            raise
    elif name == "dask":
        with _dask(address, jobs) as pool:
            yield pool
    else:
        with _ray(address) as pool:
            yield pool


@contextmanager
def _dask(address: str | None, jobs: int) -> Iterator[Executor]:
    try:
        import distributed
    except ImportError as exc:
        raise KrosbalanceError(
            "backend 'dask' needs the 'distributed' package: pip install distributed"
        ) from exc
    client: Any = None
    cluster: Any = None
    if address is not None:
        client = distributed.Client(address)
    else:
        try:
            client_in_use = distributed.get_client()  # reuse a client the caller already connected
        except ValueError:
            client_in_use = None
            cluster = distributed.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0"
            )
            client = distributed.Client(cluster)
    try:
        yield (client or client_in_use).get_executor(pure=False)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


class _RayExecutor(Executor):
    """``submit`` as a Ray task; a Ray object reference converts to a ``concurrent.futures`` future."""

    def __init__(self, ray: Any) -> None:
        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        remote = self._remote.setdefault(fn, self._ray.remote(fn))
        future: Future[Any] = remote.remote(*args, **kwargs).future()
        return future


@contextmanager
def _ray(address: str | None) -> Iterator[Executor]:
    try:
        import ray
    except ImportError as exc:
        raise KrosbalanceError("backend 'ray' needs the 'ray' package: pip install ray") from exc
    started = False
    if not ray.is_initialized():
        ray.init(address=address)
        started = True
    try:
        yield _RayExecutor(ray)
    finally:
        if started:
            ray.shutdown()


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it): what `--jobs`
    defaults to."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
