"""Command line of the benchmark suite.

Usage::

    python -m benchmarks [--quick] [--family F ...] [--memory] [--out FILE] [NAME ...]
    python -m benchmarks --grid [--grid-sizes 500,5k] [--grid-features 10] [--family F ...] [--out FILE] [NAME ...]
    python -m benchmarks --overhead [--family F ...] [--out FILE] [NAME ...]
    python -m benchmarks --coldstart [--family F ...] [--out FILE] [NAME ...]

``--quick`` runs every case on small data once: a smoke test that the harness
works and that both libraries' scores agree (CI runs it; it never judges
times). Without it, cases run at full size and the table is what
``benchmarks/RESULTS.md`` records, together with the command line.

``--grid`` runs the benchmark grid instead of the cases (every registered
estimator over sizes, widths and parameter values: ``benchmarks/grid.py``);
``--overhead`` the fixed cost of ``fit`` + ``predict`` on 100-1,000 rows
(``benchmarks/overhead.py``); ``--coldstart`` the one-off cost of the first
call in a fresh process, with empty and with filled numba caches
(``benchmarks/coldstart.py``). With them ``--family`` and the names filter
select estimators by family and by (cell) name.
"""

import argparse
import sys

from ._runner import discover_cases, environment_lines, format_table, run_case


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="run only cases whose name contains one of these")
    parser.add_argument("--quick", action="store_true", help="small data, one repeat (smoke test)")
    parser.add_argument("--family", action="append", help="only this family (repeatable)")
    parser.add_argument("--repeats", type=int, default=None, help="timed repeats per step")
    parser.add_argument("--memory", action="store_true", help="also measure peak resident memory of fit")
    parser.add_argument("--out", help="write the markdown table to this file")
    parser.add_argument("--grid", action="store_true", help="run the benchmark grid")
    parser.add_argument("--grid-sizes", help="grid sizes, e.g. 500,5k (default: all)")
    parser.add_argument("--grid-features", help="grid feature counts, e.g. 10 (default: all)")
    parser.add_argument("--cells-out", help="grid: per-cell table file (default: beside --out)")
    parser.add_argument("--grid-merge", nargs="+", metavar="CELLS_MD",
                        help="summarise per-cell grid tables of several runs together")
    parser.add_argument("--overhead", action="store_true",
                        help="fixed cost of fit + predict on 100-1,000 rows")
    parser.add_argument("--coldstart", action="store_true",
                        help="first fit + predict in a fresh process, empty and cached kernels")
    parser.add_argument("--variants", action="store_true",
                        help="coldstart: each parameter value of the grid specs alone, "
                             "after install")
    parser.add_argument("--rows", type=int,
                        help="coldstart: the first call on this many rows (default 300), "
                             "after install")
    parser.add_argument("--sparse", action="store_true",
                        help="coldstart: the estimators taking sparse input, on CSR data, "
                             "after install")
    args = parser.parse_args(argv)
    command = "python -m benchmarks " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.grid_merge:
        from .grid import merge_main

        return merge_main(args.grid_merge, args.out, command.strip())
    if args.grid:
        from .grid import main as grid_main

        return grid_main(args, command.strip())
    if args.coldstart:
        from .coldstart import main as coldstart_main

        return coldstart_main(args, command.strip())
    if args.overhead:
        from .overhead import main as overhead_main

        return overhead_main(args, command.strip())

    cases = discover_cases(args.family, args.names)
    if not cases:
        print("no benchmark cases matched", file=sys.stderr)
        return 1
    results = []
    for family, case in cases:
        print(f"[{family}] {case.name} ...", file=sys.stderr, flush=True)
        results.append(
            run_case(family, case, quick=args.quick, repeats=args.repeats, memory=args.memory)
        )
    env = environment_lines(command.strip(), equal_draws=True)
    text = "\n".join(env) + "\n\n" + format_table(results) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    errors = [r for r in results if r.error]
    disagreements = [r for r in results if not r.error and not r.scores_agree]
    for r in errors:
        print(f"ERROR in {r.name}: {r.error}", file=sys.stderr)
    for r in disagreements:
        print(
            f"SCORES DIFFER in {r.name}: ours {r.our_score:.4f} vs scikit-learn "
            f"{r.their_score:.4f}",
            file=sys.stderr,
        )
    ran = len(results) - len(errors)
    print(f"{ran} cases ran, {len(errors)} errors, {len(disagreements)} score disagreements",
          file=sys.stderr)
    return 1 if errors or (args.quick and disagreements) else 0


if __name__ == "__main__":
    sys.exit(main())
