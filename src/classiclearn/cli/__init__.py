"""The ``classiclearn`` command: compare, fit, predict and info.

``classiclearn compare [DATA] --target COL`` cross-validates every applicable
registered estimator on a table and prints a leaderboard with honest
statistics; ``--report DIR`` adds an HTML page of plots. ``classiclearn fit``
trains one model and saves it as a safe model file (:mod:`classiclearn.io`),
``classiclearn predict`` applies it to new rows, ``classiclearn info`` shows
what a model file holds.

User errors print one line on stderr and exit with status 2; no traceback and
no partial output file. Heavy imports (pandas, rich, matplotlib) happen inside
the commands, never at ``import classiclearn``.

Examples
--------
>>> main(["--version"])  # doctest: +ELLIPSIS
classiclearn ...
0
"""

import argparse
import os
import sys

from ._errors import CLIError

__all__ = ["CLIError", "build_parser", "main"]

_EPILOG = "Run 'classiclearn COMMAND --help' for the options of one command."


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _csv_list(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


class _KeepLinesFormatter(argparse.HelpFormatter):
    """Wraps one-paragraph texts as usual; keeps the lines of a text that has several (a table)."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _tune_epilog():
    from ._grids import describe_grids

    lines = describe_grids().splitlines()
    return (
        "--tune grids (p: encoded features; sd(y): training-target sd; root impurity: Gini "
        "of the training\nclasses or variance of the training target; others run untuned):\n"
        + "\n".join("  " + line for line in lines)
    )


def build_parser():
    """The argument parser of the ``classiclearn`` command."""
    from .. import __version__

    parser = _Parser(
        prog="classiclearn",
        description="Classic machine-learning methods on your table: compare them with honest "
        "statistics, fit one, save it safely, predict with it.",
        epilog=_EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"classiclearn {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "compare",
        help="cross-validate every applicable method and print a leaderboard",
        description="Repeated (stratified) k-fold cross-validation of every registered "
        "classifier or regressor, each in a pipeline that imputes missing values, one-hot "
        "encodes categorical columns and standardises where the method needs it (all fitted "
        "inside each fold). The leaderboard gives mean ± std, a 95% confidence interval and "
        "the corrected resampled t-test (Nadeau & Bengio 2003) against the best model.",
        epilog=_tune_epilog(),
        formatter_class=_KeepLinesFormatter,
    )
    p.add_argument(
        "data",
        nargs="?",
        default="iris",
        metavar="DATA",
        help="CSV, TSV or Parquet file, or a shipped data set: iris (default), "
        "breast_cancer, saheart",
    )
    p.add_argument(
        "--target", metavar="COL", help="target column (default for a shipped data set: its target)"
    )
    p.add_argument(
        "--task", choices=["classification", "regression"], help="default: inferred from the target"
    )
    p.add_argument("--cv", type=_int, default=5, metavar="K", help="folds (default 5)")
    p.add_argument(
        "--repeats",
        type=_int,
        default=2,
        metavar="R",
        help="repetitions of the k-fold with new shuffles (default 2)",
    )
    p.add_argument(
        "--models",
        type=_csv_list,
        metavar="NAMES",
        help="comma-separated estimator names (default: all applicable)",
    )
    p.add_argument(
        "--scoring",
        type=_csv_list,
        metavar="NAMES",
        help="comma-separated scores, the first ranks (classification: accuracy "
        "(default), balanced_accuracy, f1_macro, roc_auc, neg_log_loss; regression: "
        "r2 (default), neg_mean_squared_error, neg_root_mean_squared_error, "
        "neg_mean_absolute_error)",
    )
    p.add_argument("--report", metavar="DIR", help="write an HTML report with plots to DIR")
    p.add_argument(
        "--tune",
        action="store_true",
        help="nested cross-validation: tune each method by an inner 3-fold grid search on "
        "every outer training set (grids below); methods without a grid run untuned",
    )
    p.add_argument(
        "--pair",
        type=_csv_list,
        metavar="A,B",
        help="a corrected paired t-test between two named models, printed under the "
        "leaderboard (they are added to --models if missing)",
    )
    p.add_argument(
        "--jobs", type=_positive_int, default=1, metavar="N", help="worker processes (default 1)"
    )
    p.add_argument(
        "--seed",
        type=_int,
        default=0,
        metavar="S",
        help="seed of the folds and of randomised methods (default 0)",
    )
    p.add_argument(
        "--no-warmup",
        action="store_true",
        help="with --jobs 1, do not compile the kernels of later models in a helper process "
        "(by default one runs on a second core; results are the same either way)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(handler=_cmd_compare)

    p = sub.add_parser(
        "fit",
        help="train one model on a table and save it",
        description="Fit one model (in the same preprocessing pipeline as "
        "compare) on all rows of DATA and save it as a model file.",
    )
    p.add_argument("data", metavar="DATA", help="CSV, TSV or Parquet file, or a shipped data set")
    p.add_argument("--target", metavar="COL")
    p.add_argument("--model", required=True, metavar="NAME", help="estimator name, e.g. SVC")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="K=V",
        help="estimator parameter (repeatable), value as JSON or text, e.g. C=10",
    )
    p.add_argument("--task", choices=["classification", "regression"])
    p.add_argument("--seed", type=_int, default=0, metavar="S")
    p.add_argument("--out", required=True, metavar="MODEL", help="model file to write (.clm)")
    _add_dask_arguments(p, "read DATA (a Parquet directory, Parquet or CSV files, a glob) "
                           "lazily with dask and fit the model's exact distributed fit")
    p.set_defaults(handler=_cmd_fit)

    p = sub.add_parser(
        "predict",
        help="predict a table with a saved model",
        description="Predict every row of DATA with a model file written by "
        "'classiclearn fit'. Output: CSV with one 'prediction' column (or one "
        "probability column per class with --proba).",
    )
    p.add_argument("model", metavar="MODEL")
    p.add_argument("data", metavar="DATA")
    p.add_argument("--proba", action="store_true", help="class probabilities")
    p.add_argument("--out", metavar="FILE", help="CSV file to write (default: stdout)")
    _add_dask_arguments(p, "read DATA lazily with dask and write the predictions block by "
                           "block to --out (a .csv file, or a directory of Parquet files)")
    p.set_defaults(handler=_cmd_predict)

    p = sub.add_parser(
        "info",
        help="show what a model file holds",
        description="Print the format version, library version, estimator, "
        "parameters, fitted attributes and training metadata of a model file.",
    )
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(handler=_cmd_info)

    p = sub.add_parser(
        "precompile",
        help="compile the numba kernels once, so that first fits do not wait for them",
        description="Compile the kernels of every estimator (or of NAME ...) into the kernel "
        "cache on every core. Run it once per machine after installing: later processes and "
        "environments with the same classiclearn load the compiled kernels instead of "
        "compiling them at their first fit.",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="estimator names (default: all)")
    p.add_argument("--jobs", type=_int, default=-1, metavar="N",
                   help="worker processes (default: every core)")
    p.add_argument("--dense-only", action="store_true",
                   help="skip the sparse-input kernels")
    p.set_defaults(handler=_cmd_precompile)
    return parser


def _cmd_precompile(args):
    from ..precompile import precompile

    try:
        report = precompile(args.names or None, sparse=not args.dense_only, n_jobs=args.jobs,
                            verbose=True)
    except ValueError as exc:
        raise CLIError(str(exc)) from exc
    print(f"compiled the kernels of {len(report.seconds)} estimator calls in "
          f"{report.wall_seconds:.0f} s into {report.cache_dir}")
    for label, error in report.errors.items():
        print(f"{label}: not compiled: {error}", file=sys.stderr)
    return 1 if report.errors else 0


def _cmd_compare(args):
    from ._commands import compare

    return compare(args)


def _cmd_fit(args):
    from ._commands import fit

    return fit(args)


def _cmd_predict(args):
    from ._commands import predict

    return predict(args)


def _cmd_info(args):
    from ._commands import info

    return info(args)


def _one_line(exc):
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _add_dask_arguments(parser, what):
    parser.add_argument("--dask", action="store_true", help=what)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --dask: address of a running distributed scheduler")


def main(argv=None):
    """Run the ``classiclearn`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 success, 2 bad input or usage, 1 internal error.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    prog = f"classiclearn {args.command}"
    from ..io import ModelFileError, UnsupportedEstimatorError

    try:
        return args.handler(args)
    except (CLIError, ModelFileError, UnsupportedEstimatorError) as exc:
        print(f"{prog}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # cannot read or write a file: the user's environment, not a bug
        where = f" {exc.filename!r}" if getattr(exc, "filename", None) else ""
        print(f"{prog}: error: cannot access{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if os.environ.get("CLASSICLEARN_DEBUG"):
            raise
        print(
            f"{prog}: internal error: {type(exc).__name__}: {_one_line(exc)} "
            "(set CLASSICLEARN_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        return 1
