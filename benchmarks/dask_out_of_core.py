"""Distributed fits on data larger than the workers' memory (issue 19, item 6b).

Usage::

    python -m benchmarks.dask_out_of_core [--gb G] [--workers W] [--memory-limit MIB]
                                         [--dir DIR] [--out FILE] [--cli]

Two stacks of ``.npy`` blocks, X (100,000 x 20 float64, 16 MB a block) and
y, of about ``G`` GB together are written to ``DIR``; a ``distributed.LocalCluster`` of ``W``
single-threaded worker processes, each limited to ``MIB`` MiB, fits each
estimator on it, reading every block from disk in every pass. Per estimator:
the wall time, the number of blocks read (from the task stream), rows per
second and GB per second read, and the peak resident memory of the workers.
Files just written sit in the page cache (this machine has more memory than
the data), so "read" means read by the workers from the operating system,
not from the disk platter.

``--cli`` also writes the same rows as a Parquet directory and trains
``classiclearn fit DIR --dask`` on it from the shell, once with the local
threaded scheduler and once on the cluster (``--scheduler``), reporting the
time and the peak memory of the command's process.
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from ._runner import emit_table, environment_lines

ROWS, P = 100_000, 20


def _block(b):
    """Block ``b`` of the data: 20 features on different scales plus a target column."""
    rng = np.random.default_rng(b)
    X = rng.normal(size=(ROWS, P)) * np.linspace(1.0, 3.0, P) + 50.0
    y = (X - 50.0) @ np.linspace(-1.0, 1.0, P) + rng.normal(size=ROWS)
    return np.column_stack([X, y])


def _write_stacks(root, n_blocks):
    """X and y as two .npy stacks under ``root`` (X and y in one stack would be
    read twice per pass: dask fuses the read with each column selection)."""
    import dask.array as da

    import dask

    with dask.config.set(scheduler="synchronous"):  # block by block, never all at once
        Z = da.concatenate([da.from_delayed(dask.delayed(_block)(b), shape=(ROWS, P + 1),
                                            dtype=np.float64) for b in range(n_blocks)])
        da.to_npy_stack(os.path.join(root, "X"), Z[:, :P], axis=0)
        da.to_npy_stack(os.path.join(root, "y"), Z[:, P], axis=0)


def reset_peak_rss():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        return False
    return True


def peak_rss():
    """Peak resident memory of the calling process since the last reset, in bytes."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _cases(X, y):
    from classiclearn.cluster import KMeans
    from classiclearn.decomposition import PCA
    from classiclearn.linear_model import Lasso, LinearRegression, LogisticRegression, Ridge
    from classiclearn.naive_bayes import GaussianNB
    from classiclearn.neighbors import NearestNeighbors
    from classiclearn.preprocessing import StandardScaler

    y_clf = (y > 0).astype(np.int64)
    queries = _block(10**6)[:100, :P]
    return [
        ("StandardScaler", lambda: StandardScaler().fit(X)),
        ("LinearRegression", lambda: LinearRegression().fit(X, y)),
        ("Ridge", lambda: Ridge(alpha=1.0).fit(X, y)),
        ("Lasso", lambda: Lasso(alpha=0.1).fit(X, y)),
        ("LogisticRegression", lambda: LogisticRegression().fit(X, y_clf)),
        ("GaussianNB", lambda: GaussianNB().fit(X, y_clf)),
        ("PCA", lambda: PCA(5).fit(X)),
        ("PCA(randomized)", lambda: PCA(5, svd_solver="randomized", random_state=0).fit(X)),
        ("KMeans(8, max_iter=10)", lambda: KMeans(8, max_iter=10, n_init=1,
                                                  random_state=0).fit(X)),
        ("NearestNeighbors (100 queries)",
         lambda: NearestNeighbors(n_neighbors=5).fit(X).kneighbors(queries)),
    ]


def _read_bytes(keys, X, y):
    """Bytes of X's and of y's .npy stacks read by the tasks ``keys`` of a task stream."""
    read = [0, 0]
    for key in keys:
        name = key[0] if isinstance(key, tuple) else str(key)
        for k, arr in enumerate((X, y)):
            if name == arr.name:
                read[k] += arr.nbytes // arr.numblocks[0]
    return tuple(read)


def _warm_kernels(scheduler=None):
    """Run every case on a small copy of the data: in this process first, so that
    the kernels are compiled once into the kernel cache, then (on the cluster)
    so that the workers have loaded them and their imports before the timing."""
    import dask.array as da

    import dask

    small = _block(10**6 + 1)[:3_000]
    Xs = da.from_array(small[:, :P], chunks=(1_000, P))
    ys = da.from_array(small[:, P], chunks=1_000)
    with dask.config.set(scheduler=scheduler):  # None: the active client
        for _, fit in _cases(Xs, ys):
            fit()


def _run_cluster(root, n_workers, memory_limit):
    import dask.array as da
    import distributed

    # blocks read into memory, not mapped
    X = da.from_npy_stack(os.path.join(root, "X"), mmap_mode=None)
    y = da.from_npy_stack(os.path.join(root, "y"), mmap_mode=None)
    _warm_kernels("synchronous")
    rows = []
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit=memory_limit) as cluster, \
            distributed.Client(cluster) as client:
        workers = set(client.scheduler_info()["workers"])
        _warm_kernels()
        for name, fit in _cases(X, y):
            client.run(reset_peak_rss)
            with distributed.get_task_stream(client) as stream:
                start = time.perf_counter()
                fit()
                seconds = time.perf_counter() - start
            read = _read_bytes([task["key"] for task in stream.data], X, y)
            peak = max(client.run(peak_rss).values())
            restarted = set(client.scheduler_info()["workers"]) != workers
            rows.append((name, seconds, read, peak, restarted))
            print(f"{name}: {seconds:.1f} s, {sum(read) / 1e9:.2f} GB read, "
                  f"peak {peak / 2**20:.0f} MiB", flush=True)
    return rows, X.shape[0], X.nbytes, y.nbytes


def _write_parquet(path, n_blocks):
    import pandas as pd

    os.makedirs(path, exist_ok=True)
    columns = [f"x{j}" for j in range(P)] + ["y"]
    for b in range(n_blocks):
        pd.DataFrame(_block(b), columns=columns).to_parquet(
            os.path.join(path, f"part-{b:04d}.parquet"), index=False)


def _run_cli(data_dir, model_path, scheduler=None):
    """Time and peak resident memory of one ``classiclearn fit --dask`` command."""
    command = [sys.executable, "-m", "classiclearn.cli", "fit", data_dir, "--target", "y",
               "--model", "LinearRegression", "--out", model_path, "--dask"]
    if scheduler:
        command += ["--scheduler", scheduler]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own resource usage
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise RuntimeError(f"{' '.join(command)} failed with exit code {child.returncode}")
    return "classiclearn " + " ".join(command[3:]), seconds, usage.ru_maxrss * 1024


def _cli_rows(root, n_blocks, n_workers, memory_limit):
    import distributed

    data_dir = os.path.join(root, "parquet")
    _write_parquet(data_dir, n_blocks)
    size = sum(os.path.getsize(os.path.join(data_dir, f)) for f in os.listdir(data_dir))
    model = os.path.join(root, "model.clm")
    rows = [("threads (local)",) + _run_cli(data_dir, model)]
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, memory_limit=memory_limit) as cluster, \
            distributed.Client(cluster) as client:
        rows.append(("LocalCluster",) + _run_cli(data_dir, model, cluster.scheduler_address))
        peak = max(client.run(peak_rss).values())
    # the table names the temporary directory DIR
    rows = [(where, cmd.replace(root, "DIR"), seconds, rss) for where, cmd, seconds, rss in rows]
    return rows, size, peak


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dask_out_of_core")
    parser.add_argument("--gb", type=float, default=3.0, help="size of the data on disk")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", type=int, default=600, help="per worker, MiB")
    parser.add_argument("--dir", help="where to write the data (default: a temporary "
                        "directory, removed afterwards)")
    parser.add_argument("--cli", action="store_true",
                        help="also train from the shell on a Parquet directory")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    root = args.dir or tempfile.mkdtemp(prefix="classiclearn-ooc-")
    n_blocks = max(2, round(args.gb * 1e9 / (ROWS * (P + 1) * 8)))
    memory_limit = args.memory_limit * 2**20
    try:
        _write_stacks(root, n_blocks)
        rows, n_rows, x_bytes, y_bytes = _run_cluster(root, args.workers, memory_limit)
        total_bytes = x_bytes + y_bytes
        cli = _cli_rows(root, n_blocks, args.workers, memory_limit) if args.cli else None
    finally:
        if not args.dir:
            shutil.rmtree(root, ignore_errors=True)
    command = "python -m benchmarks.dask_out_of_core " + " ".join(argv or sys.argv[1:])
    lines = environment_lines(command.strip(), baseline=False)
    lines += [
        f"- data: {n_rows:,} x {P} features + target, float64, {total_bytes / 1e9:.2f} GB as "
        f"{n_blocks} .npy blocks of {ROWS:,} rows (X and y in two stacks); {args.workers} worker processes x 1 thread, "
        f"memory limit {args.memory_limit} MiB each (the data are "
        f"{total_bytes / memory_limit:.1f}x one worker's limit, "
        f"{total_bytes / (memory_limit * args.workers):.1f}x all workers' together)",
        "- every pass reads every block from the files (page cache, not the disk: the "
        "machine's memory exceeds the data); bytes read counted from the task stream; "
        "passes = X blocks read / X blocks; rows/s = rows of X read per second",
        "",
        "| estimator | time (s) | GB read | passes | rows/s | GB/s read | "
        "peak worker memory (MiB) | worker lost |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, seconds, (x_read, y_read), peak, restarted in rows:
        passes = x_read / x_bytes
        lines.append(
            f"| {name} | {seconds:.1f} | {(x_read + y_read) / 1e9:.2f} | {passes:.1f} | "
            f"{passes * n_rows / seconds:,.0f} | {(x_read + y_read) / seconds / 1e9:.2f} | "
            f"{peak / 2**20:.0f} | {'yes' if restarted else 'no'} |")
    if cli is not None:
        cli_rows, size, worker_peak = cli
        lines += [
            "",
            f"Training from the shell on a Parquet directory ({n_blocks} files, "
            f"{size / 1e9:.2f} GB on disk, {total_bytes / 1e9:.2f} GB in memory as float64):",
            "",
            "| scheduler | command | time (s) | peak memory of the command (MiB) |",
            "|---|---|---|---|",
        ]
        for where, cmd, seconds, peak in cli_rows:
            lines.append(f"| {where} | `{cmd}` | {seconds:.1f} | {peak / 2**20:.0f} |")
        lines.append(f"\nPeak worker memory on the cluster: {worker_peak / 2**20:.0f} MiB.")
    return emit_table(lines, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
