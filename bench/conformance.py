"""``python -m bench.conformance``: the conformance suite over gRPC against the same suite in
process, on the same machine, in the same run.

Each set is replayed by ``bhabhi conformance run`` twice, as a user runs it: in process (the
engine), and with ``--target`` against a referee started for the purpose
(``bhabhi serve --test-mode --allow-register --db :memory:``, as README.md says a
conformance referee runs), both with the same ``--jobs`` (1 unless ``--jobs N``), their
order alternating from round to round.  Each timing is the wall time of the whole command
(start-up included); the ratio is remote over in process.  The goal: at most 5 times.

The sets:

* ``quick``: the hand-written cases, ``conformance/cases``;
* ``sample``: the first ``--sample`` games (10) of every corpus file, so that every ruleset of
  the corpus is in it;
* ``full``: every case (``conformance/cases`` and ``conformance/corpus``), only when
  ``BENCH_CONFORMANCE_FULL=1`` or ``--full`` (about 90 s in process and some minutes over
  gRPC on a two-core machine).

A set whose runs do not all pass makes the exit code 1, and so does a ratio over the goal.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "conformance" / "cases"
CORPUS = ROOT / "conformance" / "corpus"
GOAL = 5.0
"""The remote run may take at most this many times the in-process run."""

LISTENING = re.compile(r"listening on (\S+):(\d+)")


def _bhabhi() -> list[str]:
    return [sys.executable, "-m", "referee"]


class Referee:
    """A running conformance referee: where it listens, and its process (for its CPU)."""

    def __init__(self, target: str, pid: int) -> None:
        self.target = target
        self.pid = pid

    def cpu(self) -> float:
        """Seconds of CPU the referee used so far (0 where /proc does not say)."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def conformance_referee() -> Iterator[Referee]:
    """A referee for a conformance run on a free port."""
    command = [
        *_bhabhi(),
        "serve",
        "--test-mode",
        "--allow-register",
        "--port",
        "0",
        "--db",
        ":memory:",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = LISTENING.search(line)
        if found is None:
            raise SystemExit(f"the referee did not start: {line!r}")
        yield Referee(f"{found.group(1)}:{found.group(2)}", process.pid)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def sample_of_corpus(folder: Path, games: int) -> Path:
    """The first ``games`` lines of every corpus file, as files of their own in ``folder``."""
    for source in sorted(CORPUS.glob("*.jsonl.gz")):
        with gzip.open(source, "rt", encoding="utf-8") as lines:
            head = [line for _, line in zip(range(games), lines, strict=False)]
        (folder / source.name.removesuffix(".gz")).write_text("".join(head), encoding="utf-8")
    return folder


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(paths: Sequence[str], target: str | None, jobs: int) -> tuple[float, float, str]:
    """Wall seconds of one ``bhabhi conformance run``, its CPU seconds (its processes'),
    and its last line."""
    command = [*_bhabhi(), "conformance", "run", "-q", "--no-progress", "--jobs", str(jobs)]
    if target is not None:
        command += ["--target", target]
    started = time.perf_counter()
    cpu = _children_cpu()
    done = subprocess.run([*command, *paths], capture_output=True, text=True, cwd=ROOT, check=False)
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - cpu
    lines = (done.stdout + done.stderr).strip().splitlines()
    last = lines[-1] if lines else f"exit {done.returncode}"
    if done.returncode != 0:
        last = f"FAILED (exit {done.returncode}): {last}"
    return seconds, cpu, last


def bench_set(
    name: str, paths: Sequence[str], referee: Referee, jobs: int, rounds: int
) -> tuple[float, bool]:
    """Both ways, ``rounds`` times, alternating; prints and returns (the ratio of the best
    wall times, all passed).  The CPU ratio (the client's and the referee's CPU over the
    engine's) is printed too: on a busy machine a run of two processes gets a larger share
    of the CPUs than a run of one, which the wall times do not show."""
    local: list[tuple[float, float]] = []
    remote: list[tuple[float, float]] = []
    passed = True
    for round_number in range(rounds):
        order = [False, True] if round_number % 2 == 0 else [True, False]
        for over_grpc in order:
            before = referee.cpu()
            seconds, cpu, last = timed_run(paths, referee.target if over_grpc else None, jobs)
            served = referee.cpu() - before if over_grpc else 0.0
            passed = passed and not last.startswith("FAILED") and " 0 failed, 0 errors" in last
            (remote if over_grpc else local).append((seconds, cpu + served))
            shown = "over gRPC " if over_grpc else "in process"
            print(
                f"  {name:<7} {shown} {seconds:8.1f} s, CPU {cpu:6.1f} s"
                + (f" + referee {served:6.1f} s" if over_grpc else "")
                + f"   {last}",
                flush=True,
            )
    wall, engine = min(remote), min(local)
    ratio = wall[0] / engine[0]
    cpu_ratio = min(c for _, c in remote) / min(c for _, c in local)
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(
        f"{name}: over gRPC {wall[0]:.1f} s, in process {engine[0]:.1f} s (best of "
        f"{rounds}): {ratio:.2f}x (goal <= {GOAL:.0f}x): {verdict}; CPU {cpu_ratio:.2f}x",
        flush=True,
    )
    return ratio, passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conformance", description=__doc__)
    parser.add_argument("--jobs", type=int, default=1, help="--jobs of both runs (1)")
    parser.add_argument("--rounds", type=int, default=2, help="runs each way per set (2)")
    parser.add_argument("--sample", type=int, default=10, help="games per corpus file (10)")
    parser.add_argument(
        "--full",
        action="store_true",
        default=os.environ.get("BENCH_CONFORMANCE_FULL", "") not in ("", "0"),
        help="also the whole suite, once each way (env BENCH_CONFORMANCE_FULL=1)",
    )
    args = parser.parse_args(argv)
    print(
        f"bhabhi bench conformance: bhabhi conformance run in process and --target a referee "
        f"with --test-mode --db :memory:, --jobs {args.jobs}, {os.cpu_count()} CPUs",
        flush=True,
    )
    code = 0
    with tempfile.TemporaryDirectory(prefix="bench-sample-") as scratch:
        sample = sample_of_corpus(Path(scratch), args.sample)
        sets: list[tuple[str, list[str], int]] = [
            ("quick", [str(CASES)], args.rounds),
            ("sample", [str(sample)], args.rounds),
        ]
        if args.full:
            sets.append(("full", [str(CASES), str(CORPUS)], 1))
        with conformance_referee() as referee:
            for name, paths, rounds in sets:
                ratio, passed = bench_set(name, paths, referee, args.jobs, rounds)
                if ratio > GOAL or not passed:
                    code = 1
    return code


if __name__ == "__main__":
    sys.exit(main())
