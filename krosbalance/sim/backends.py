"""joblib backends: local processes by default, Dask or Ray for clusters.

``loky`` (the default) runs batches in local worker processes; ``threading`` and ``sequential`` are
for debugging. For a cluster:

* **Dask**: ``pip install distributed``, start a scheduler and workers (``dask scheduler``,
  ``dask worker tcp://host:8786``), then ``krosbalance run FILE --backend dask --address
  tcp://host:8786 --jobs 64``. Without ``--address`` a ``LocalCluster`` is started on this machine
  (or an already-connected ``distributed.Client`` is used). Workers need krosbalance installed at
  the same version.
* **Ray**: ``pip install ray``, ``ray start --head`` (and ``ray start --address=...`` on the other
  nodes), then ``--backend ray [--address auto]``.

Seeds travel with each match spec, so every backend produces the same tables.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from krosbalance.errors import KrosbalanceError

BACKENDS: tuple[str, ...] = ("loky", "threading", "sequential", "dask", "ray")


@contextmanager
def backend_context(name: str, address: str | None = None) -> Iterator[str | None]:
    """Make a joblib backend available and yield what to pass to ``joblib.Parallel(backend=...)``
    (None when the backend is set through ``joblib.parallel_config``)."""
    if name not in BACKENDS:
        raise KrosbalanceError(f"unknown backend {name!r}; expected one of: {', '.join(BACKENDS)}")
    if name == "dask":
        # joblib registers its Dask backend only through parallel_config; Parallel(backend=None)
        # then uses it.
        import joblib

        with _dask(address), joblib.parallel_config(backend="dask"):
            yield None
    elif name == "ray":
        with _ray(address):
            yield "ray"
    else:
        yield name


@contextmanager
def _dask(address: str | None) -> Iterator[None]:
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
            distributed.get_client()  # reuse a client the caller already connected
        except ValueError:
            cluster = distributed.LocalCluster(processes=True, dashboard_address=None)
            client = distributed.Client(cluster)
    try:
        yield
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def _ray(address: str | None) -> Iterator[None]:
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError as exc:
        raise KrosbalanceError("backend 'ray' needs the 'ray' package: pip install ray") from exc
    register_ray()
    started = False
    if not ray.is_initialized():
        ray.init(address=address)
        started = True
    try:
        yield
    finally:
        if started:
            ray.shutdown()
