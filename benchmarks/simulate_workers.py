"""How much faster ``simulate`` runs on more cores: the same simulation with
1, 2, ... workers, alternating, and the median time of each.

    .venv/bin/python benchmarks/simulate_workers.py --games 4000 --repeat 3

Prints games per second for each number of workers and the speedup over
one; the reports are checked equal on the way (they must be, whatever the
workers). Process start-up is part of each run's time, as a user pays it.

It also prints the CPU time each run used, this process and its workers
together (os.times, so on Unix: Windows does not count children): on a
machine whose cores are busy with other work the wall-clock speedup says
little, while the CPU time still shows what the split itself costs (start-up,
sending the runs and counts across). ``ideal`` is the speedup that cost
allows on idle cores: one worker's CPU time over the busiest share.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

from loveletter.simulation import SimulationReport, available_cores, simulate


def _cpu_seconds() -> float:
    used = os.times()
    return used.user + used.system + used.children_user + used.children_system


def run(
    ruleset: str, players: int, games: int, workers: int
) -> tuple[float, float, SimulationReport]:
    """Wall-clock and CPU seconds to simulate ``games`` games with
    ``workers`` workers, and the report."""
    cpu = _cpu_seconds()
    start = time.perf_counter()
    report = simulate(ruleset, players, games, seed=1, workers=workers)
    return time.perf_counter() - start, _cpu_seconds() - cpu, report


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="2019-classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, alternating")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=sorted({1, 2, available_cores()}),
        help="the numbers of workers to compare (default: 1, 2 and every core)",
    )
    args = parser.parse_args(argv)
    times: dict[int, list[float]] = {workers: [] for workers in args.workers}
    cpu: dict[int, list[float]] = {workers: [] for workers in args.workers}
    reports: list[SimulationReport] = []
    for _ in range(args.repeat):
        for workers in args.workers:
            seconds, cpu_seconds, report = run(args.ruleset, args.players, args.games, workers)
            times[workers].append(seconds)
            cpu[workers].append(cpu_seconds)
            reports.append(report)
    assert all(report == reports[0] for report in reports), "the workers changed the report"
    print(
        f"simulate {args.ruleset}, {args.players} players, {args.games:,} games,"
        f" median of {args.repeat} ({available_cores()} cores available)"
    )
    base = statistics.median(times[args.workers[0]])
    base_cpu = statistics.median(cpu[args.workers[0]])
    for workers, runs in times.items():
        median = statistics.median(runs)
        cpu_median = statistics.median(cpu[workers])
        print(
            f"  {workers} worker{'s' if workers > 1 else ' '}  {args.games / median:9,.0f} games/s"
            f"  {median:6.2f} s  x{base / median:.2f}   CPU {cpu_median:6.2f} s"
            f"  ideal x{base_cpu / (cpu_median / workers):.2f}"
        )


if __name__ == "__main__":
    main()
