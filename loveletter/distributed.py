"""Simulations on a Ray cluster: ``simulate(..., ray=address)`` and
``loveletter simulate --ray ADDRESS``.

The games are split into runs of consecutive games exactly as for worker
processes, and each run is a Ray task; the counts come back and are added
up in index order, so the report is the same as on one core for the same
seed. A task is a pure function of its games, so Ray may run one again
after losing a machine without changing anything.

Ray is an optional extra (``pip install 'loveletter-rules[ray]'``), imported
only when a simulation asks for it: the rest of the package never needs it.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from loveletter.simulation import (
    SimulationFailed,
    _Games,
    _play_games,
    _Results,
)

if TYPE_CHECKING:
    from types import ModuleType

#: runs sent ahead for each CPU of the cluster, so none waits for work; a
#: bound, so that runs finished ahead of a slow one (held back to keep index
#: order) stay few
_IN_FLIGHT_PER_CPU = 3


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError as error:
        raise SimulationFailed(
            f"Ray is not installed ({error}): pip install 'loveletter-rules[ray]'"
        ) from error
    return ray


@contextlib.contextmanager
def connection(address: str) -> Iterator[int]:
    """Connected to Ray for the block; yields the CPUs of the cluster.

    ``address`` is ``ray.init``'s: ``"local"`` starts an instance on this
    machine (shut down at the end of the block), ``"auto"`` joins the one
    that ``ray start`` started here, ``"ray://host:10001"`` a remote
    cluster. When this process is already connected, that connection is
    used whatever the address, and left open.
    """
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        try:
            # Workers print nothing worth streaming back.
            ray.init(address=address, log_to_driver=False)
        except Exception as error:  # Ray raises ConnectionError, ValueError, RuntimeError...
            raise SimulationFailed(f"cannot start or reach Ray at {address!r}: {error}") from error
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()


def in_tasks(batches: Sequence[_Games], cpus: int) -> _Results:
    """Play the runs as Ray tasks, on a connection already open; each run's
    result as it ends, numbered by its place in ``batches``."""
    return run_tasks(_play_games, batches, cpus)


_Batch = TypeVar("_Batch")
_Outcome = TypeVar("_Outcome")


def run_tasks(
    play: Callable[[_Batch], _Outcome], batches: Sequence[_Batch], cpus: int
) -> Generator[tuple[int, _Outcome], None, None]:
    """``play`` each batch as a Ray task, on a connection already open; each
    result as it ends, numbered by its batch's place in ``batches`` (a
    tournament's games go the same way: :mod:`loveletter.tournament`)."""
    ray = _ray()
    remote = ray.remote(num_cpus=1)(play)
    pending: dict[Any, int] = {}  # ray.ObjectRef: its type is not generic to mypy
    queued = iter(enumerate(batches))
    window = cpus * _IN_FLIGHT_PER_CPU
    try:
        while True:
            for number, batch in itertools.islice(queued, window - len(pending)):
                pending[remote.remote(batch)] = number
            if not pending:
                return
            ended, _ = ray.wait(list(pending), num_returns=1)
            for ref in ended:
                number = pending.pop(ref)
                yield number, _result(ray, ref)
    finally:
        for ref in pending:
            ray.cancel(ref)


def _result(ray: ModuleType, ref: object) -> Any:  # the task's own result type
    """A task's result; its failure as one :class:`SimulationFailed`."""
    try:
        played = ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = error.cause
        if isinstance(cause, SimulationFailed):  # a game raised
            raise SimulationFailed(cause.detail, cause.index, cause.game_seed) from error
        raise SimulationFailed(f"a Ray task failed: {cause!r}") from error
    except ray.exceptions.RayError as error:  # a worker or a machine lost
        raise SimulationFailed(f"a Ray task failed: {error}") from error
    return played
