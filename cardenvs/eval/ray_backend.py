"""Run tournament chunks as Ray tasks (``--backend ray``); Ray is an optional extra (``pip install cardenvs[ray]``).

Each task plays one :class:`~cardenvs.eval.tournament.Chunk` with :func:`~cardenvs.eval.tournament.play_chunk`,
exactly as the local backend does, and returns its :class:`~cardenvs.eval.tournament.Tally`. Chunks and their
seeds are fixed by the schedule before any task starts, and tallies merge by addition (game records are sorted by
game id), so the totals do not depend on which worker finishes first: Ray and local give identical numbers.
"""
from __future__ import annotations

import copy

from typing import Any, Iterable, Iterator, Sequence

from cardenvs.core.errors import BadArgumentError

from .matches import Chunk, Entry, ProgressFn, Tally, play_chunk


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BadArgumentError("--backend ray needs Ray: pip install 'cardenvs[ray]' (or pip install ray)") from None
    return ray


def _play_task(game: str, entries: Sequence[Entry], chunk: Chunk, trusted: Sequence[str] = ()) -> Tally:
    # numpy arrays arrive read-only from Ray's object store; a pilot object that carries card tables (deck search on
    # a custom pool) would hand them to Numba kernels typed for writable arrays, so the worker takes its own copy
    entries = copy.deepcopy(list(entries))
    if trusted:  # the SB3 .zip pilots the driver's user vouched for (--trust-pickle): the same files here
        from cardenvs.agents.policy import trust_pickle_file

        for path in trusted:
            trust_pickle_file(path)
    return play_chunk(game, entries, chunk)


#: chunk tasks submitted and not yet finished, at most: enough to keep a cluster busy
IN_FLIGHT = 256

#: seconds to wait for a TCP connection to ``--address`` before saying nothing listens there (Ray itself retries for
#: minutes)
CONNECT_TIMEOUT_S = 10.0


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """A :class:`BadArgumentError` unless something accepts a TCP connection at ``address`` (``host:port`` or
    ``ray://host:port``) within ``timeout`` seconds; ``auto`` and other forms are left to Ray."""
    import socket

    hostport = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise BadArgumentError(f"could not reach Ray at {address}: nothing accepted a connection within "
                               f"{timeout:g} s ({exc.strerror or exc}); start the cluster (ray start --head) or "
                               f"check --address") from None


class RayBackend:
    """Plays chunks on a Ray cluster: a local one with ``workers`` CPUs by default, or the one at ``address``."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.ray = _import_ray()
        self._started = False
        if not self.ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
            if address:
                check_reachable(address)  # Ray's own client retries an address where nothing listens for minutes
                kwargs["address"] = address
            else:
                if workers:
                    kwargs["num_cpus"] = int(workers)
                # one Numba thread per task: Ray already runs one task per CPU
                kwargs["runtime_env"] = {"env_vars": {"NUMBA_NUM_THREADS": "1"}}
            try:
                self.ray.init(**kwargs)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise BadArgumentError(f"could not start or reach Ray{' at ' + address if address else ''}: "
                                       f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
            self._started = True
        self._remote = self.ray.remote(num_cpus=1)(_play_task)

    def run(self, game: str, entries: Sequence[Entry], chunks: Iterable[Chunk],
            progress: ProgressFn | None = None) -> Iterator[Tally]:
        """Submit the chunks as they are made (at most :data:`IN_FLIGHT` tasks waiting at a time, so a long
        schedule is never held whole) and yield each tally as its task finishes."""
        entries_ref = self.ray.put(list(entries))  # shipped once, not once per task
        from cardenvs.agents.policy import trusted_zips

        trusted = trusted_zips()
        todo = iter(chunks)
        sizes: dict[Any, int] = {}
        pending: list[Any] = []
        while True:
            for chunk in todo:
                ref = self._remote.remote(game, entries_ref, chunk, trusted)
                sizes[ref] = len(chunk)
                pending.append(ref)
                if len(pending) >= IN_FLIGHT:
                    break
            if not pending:
                return
            ready, pending = self.ray.wait(pending, num_returns=1)
            for ref in ready:
                if progress is not None:
                    progress(sizes.pop(ref))
                yield self.ray.get(ref)

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()
            self._started = False


__all__ = ["check_reachable", "CONNECT_TIMEOUT_S", "IN_FLIGHT", "RayBackend"]
