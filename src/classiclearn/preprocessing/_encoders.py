"""Categorical encoding: one-hot (dummy) columns for each category (seed 004: qualitative
predictors such as famhist enter a linear model as indicator variables).

Categories may be strings or numbers; a missing value (NaN or None) is a
category of its own, placed last.
"""

import numbers
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._params import Interval, StrOptions
from ..utils.validation import check_is_fitted
from ._common import check_categorical_X, feature_names_in, is_missing

__all__ = ["OneHotEncoder"]

# name of the column grouping infrequent categories (scikit-learn's, for compatibility)
_INFREQUENT = "infrequent_sklearn"


def _integer_counts(col):
    """(smallest value, count of each value from it on) of an integer column whose values
    span a small range (a count table is then cheaper than sorting or hashing), else
    None."""
    if col.dtype.kind not in "iu" or col.size == 0:
        return None
    lo, hi = int(col.min()), int(col.max())
    if hi - lo >= 4 * col.size + 1024 or hi > np.iinfo(np.int64).max:
        return None
    return lo, np.bincount((col.astype(np.int64) - lo).astype(np.intp), minlength=hi - lo + 1)


_NO_TABLE = object()


def _category_counts(col, cats, table=_NO_TABLE):
    """How often each category of ``cats`` occurs in ``col`` (``table``: the column's
    :func:`_integer_counts` when at hand)."""
    if table is _NO_TABLE:
        table = _integer_counts(col)
    if table is not None and cats.dtype.kind in "iu":
        lo, counts = table
        offset = cats.astype(np.int64) - lo
        inside = (offset >= 0) & (offset < counts.size)
        return np.where(inside, counts[np.clip(offset, 0, counts.size - 1)], 0)
    idx, found = _encode_column(col, cats)
    return np.bincount(idx[found], minlength=len(cats))


def _column_categories(col, j, table=_NO_TABLE):
    """Sorted categories of one column; a missing value (NaN / None) goes last
    (``table``: the column's :func:`_integer_counts` when at hand)."""
    if table is _NO_TABLE:
        table = _integer_counts(col)
    if table is not None:  # integers never miss
        lo, counts = table
        return (np.flatnonzero(counts) + lo).astype(col.dtype)
    missing = is_missing(col, np.nan)
    present = col[~missing]
    if col.dtype.kind == "O":
        kinds = {"str" if isinstance(v, str) else "number" if isinstance(v, numbers.Number)
                 else type(v).__name__ for v in present}
        if len(kinds) > 1:
            raise TypeError(
                "Encoders require their input argument must be uniformly strings or numbers. "
                f"Got {sorted(kinds)} in column {j}."
            )
        cats = np.array(sorted(set(present.tolist())), dtype=object)
        if missing.any():
            first = col[np.flatnonzero(missing)[0]]
            cats = np.append(cats, np.array([first], dtype=object))
        return cats
    cats = np.unique(present)
    if missing.any():
        cats = np.append(cats, np.array([np.nan], dtype=cats.dtype if cats.dtype.kind == "f"
                                        else np.float64))
    return cats


def _encode_column(col, cats):
    """Index of each value in ``cats`` and a mask of values found there."""
    n = len(col)
    idx = np.zeros(n, dtype=np.intp)
    missing = is_missing(col, np.nan)
    has_missing_cat = len(cats) > 0 and is_missing(cats[-1:], np.nan)[0]
    known = cats[:-1] if has_missing_cat else cats
    found = np.zeros(n, dtype=bool)
    if has_missing_cat:
        idx[missing] = len(cats) - 1
        found[missing] = True
    rest = ~missing
    if col.dtype.kind == "O" or known.dtype.kind == "O":
        lookup = {v: i for i, v in enumerate(known.tolist())}
        for i in np.flatnonzero(rest):
            v = col[i]
            try:
                k = lookup.get(v)
            except TypeError:
                k = None
            if k is not None and (isinstance(v, str) == isinstance(known[k], str)):
                idx[i] = k
                found[i] = True
        return idx, found
    values = col[rest]
    if len(known) and known.dtype.kind in "iu" and values.dtype.kind in "iu":
        lo, hi = int(known[0]), int(known[-1])
        if hi - lo < 4 * len(col) + 1024:  # small range: a lookup table beats a search
            table = np.full(hi - lo + 1, -1, dtype=np.intp)
            table[known.astype(np.int64) - lo] = np.arange(len(known))
            inside = (values >= lo) & (values <= hi)
            codes = np.full(len(values), -1, dtype=np.intp)
            codes[inside] = table[values[inside].astype(np.int64) - lo]
            idx[rest] = np.maximum(codes, 0)
            found[rest] = codes >= 0
            return idx, found
    if len(known):
        pos = np.clip(np.searchsorted(known, values), 0, len(known) - 1)
        ok = known[pos] == values
        idx[rest] = pos
        found[rest] = ok
    return idx, found


class OneHotEncoder(TransformerMixin, BaseEstimator):
    """Encode categorical features as one-hot (dummy) columns.

    Parameters
    ----------
    categories : "auto" or list of array-like, default="auto"
        Categories per feature; "auto" takes the sorted values seen in fit.
    drop : {"first", "if_binary"}, array-like of shape (n_features,) or None
        Drop one column per feature (all, or binary features only, or the
        given category), to avoid collinearity with an intercept.
    sparse_output : bool, default=False
        Return a scipy CSR matrix instead of a dense array. (scikit-learn's
        default is True; dense suits classiclearn's estimators.)
    dtype : number type, default=np.float64
        Output dtype.
    handle_unknown : {"error", "ignore", "warn", "infrequent_if_exist"}, default="error"
        Unknown categories at transform raise, or give all-zero columns
        (with a warning for "warn"); "infrequent_if_exist" puts them in the
        feature's infrequent column when it has one (else all zeros).
    min_frequency : int or float, default=None
        Categories seen fewer times (int) or in a smaller fraction of the
        samples (float in (0, 1)) are grouped in one "infrequent" column,
        named ``<feature>_infrequent_sklearn`` as in scikit-learn.
    max_categories : int, default=None
        At most this many output columns per feature, the infrequent column
        included; the least frequent categories (ties: the smaller ones) are
        grouped first.
    feature_name_combiner : "concat" or callable, default="concat"
        How an output column is named from an input feature name and a
        category: "concat" gives ``f"{feature}_{category}"``; a callable
        ``(feature, category) -> str`` gives its own names.

    Attributes
    ----------
    categories_ : list of ndarray
        Categories of each feature, in the order of the output columns.
    infrequent_categories_ : list of (ndarray or None)
        The grouped categories of each feature (with ``min_frequency`` or
        ``max_categories``).
    drop_idx_ : ndarray of shape (n_features,) or None
        Index in ``categories_[i]`` of the dropped category (None entries
        where nothing is dropped).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> enc = OneHotEncoder().fit([["a", 1], ["b", 2], ["a", 2]])
    >>> enc.transform([["b", 1]]).tolist()
    [[0.0, 1.0, 1.0, 0.0]]
    >>> enc.get_feature_names_out().tolist()
    ['x0_a', 'x0_b', 'x1_1', 'x1_2']
    """

    _parameter_constraints = {
        "categories": [StrOptions({"auto"}), list],
        "drop": [StrOptions({"first", "if_binary"}), "array-like", None],
        "sparse_output": ["boolean"],
        "dtype": "no_validation",
        "handle_unknown": [StrOptions({"error", "ignore", "warn", "infrequent_if_exist"})],
        "min_frequency": [Interval(Integral, 1, None, closed="left"),
                          Interval(Real, 0, 1, closed="neither"), None],
        "max_categories": [Interval(Integral, 1, None, closed="left"), None],
        "feature_name_combiner": [StrOptions({"concat"}), "callable"],
    }

    def __init__(self, *, categories="auto", drop=None, sparse_output=False,
                 dtype=np.float64, handle_unknown="error", min_frequency=None,
                 max_categories=None, feature_name_combiner="concat"):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown
        self.min_frequency = min_frequency
        self.max_categories = max_categories
        self.feature_name_combiner = feature_name_combiner

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.allow_nan = True
        return tags

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    def fit(self, X, y=None):
        """Learn the categories of each feature.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Strings or numbers.
        y : ignored

        Returns
        -------
        self
        """
        self._validate_params()
        X = check_categorical_X(self, X, reset=True)
        n_features = X.shape[1]
        tables = [_NO_TABLE] * n_features
        if X.dtype.kind in "iu":
            # integer columns: contiguous, and each one's count table taken once for its
            # categories and its categories' counts
            X = np.asfortranarray(X)
            tables = [_integer_counts(X[:, j]) for j in range(n_features)]
        if self.categories == "auto":
            cats = [_column_categories(X[:, j], j, tables[j]) for j in range(n_features)]
        else:
            if len(self.categories) != n_features:
                raise ValueError(
                    "Shape mismatch: if categories is an array, it has to be of shape "
                    "(n_features,)."
                )
            cats = []
            for j, given in enumerate(self.categories):
                given = np.asarray(given)
                if given.dtype.kind in "US":
                    given = given.astype(object)
                if given.dtype.kind != "O":
                    order_ok = np.all(np.diff(given[~np.isnan(given)] if given.dtype.kind ==
                                              "f" else given) > 0)
                    if not order_ok:
                        raise ValueError(
                            f"Unsorted categories are not supported for numerical categories "
                            f"(feature {j})"
                        )
                if self.handle_unknown == "error":
                    _, found = _encode_column(X[:, j], given)
                    if not found.all():
                        unknown = np.unique(X[~found, j].astype(str)).tolist()
                        raise ValueError(
                            f"Found unknown categories {unknown} in column {j} during fit"
                        )
                cats.append(given)
        self.categories_ = cats
        self.infrequent_categories_ = self._find_infrequent(X, tables)
        self.drop_idx_ = self._compute_drop_idx()
        return self

    def _find_infrequent(self, X, tables):
        """Indices (into ``categories_[j]``) of the infrequent categories of each feature
        (``tables``: the columns' count tables, as :func:`_category_counts` takes them)."""
        self._infrequent_idx = [None] * len(self.categories_)
        if self.min_frequency is None and self.max_categories is None:
            return [None] * len(self.categories_)
        n = X.shape[0]
        out = []
        for j, cats in enumerate(self.categories_):
            counts = _category_counts(X[:, j], cats, tables[j])
            rare = np.zeros(len(cats), dtype=bool)
            if isinstance(self.min_frequency, Integral):
                rare = counts < self.min_frequency
            elif self.min_frequency is not None:
                rare = counts < self.min_frequency * n
            n_columns = len(cats) - rare.sum() + 1  # the infrequent column counts too
            if self.max_categories is not None and self.max_categories < n_columns:
                keep = self.max_categories - 1
                order = np.argsort(counts, kind="stable")  # rarest first, ties: smaller first
                rare[order[: len(cats) - keep] if keep else order] = True
            rare_idx = np.flatnonzero(rare)
            if rare_idx.size:
                self._infrequent_idx[j] = rare_idx
                out.append(cats[rare_idx])
            else:
                out.append(None)
        return out

    def _compute_drop_idx(self):
        if self.drop is None:
            return None
        n = len(self.categories_)
        if isinstance(self.drop, str):
            out = np.empty(n, dtype=object)
            for j in range(n):
                column_of, _ = self._columns(j, with_drop=False)
                first = int(np.flatnonzero(column_of == 0)[0])
                width = column_of.max() + 1
                out[j] = first if self.drop == "first" or width == 2 else None
            return out
        drop = np.asarray(self.drop, dtype=object)
        if drop.ndim != 1 or len(drop) != n:
            raise ValueError(
                f"`drop` should have length equal to the number of features ({n}), got "
                f"{len(drop)}"
            )
        out = np.empty(n, dtype=object)
        for j, (value, cats) in enumerate(zip(drop, self.categories_)):
            if value is None:
                out[j] = None
                continue
            idx, found = _encode_column(np.array([value], dtype=cats.dtype if cats.dtype.kind
                                                 != "O" else object), cats)
            if not found[0]:
                raise ValueError(
                    f"The following categories were supposed to be dropped, but were not "
                    f"found in the training data.\nCategory: {value!r}, Feature: {j}"
                )
            rare = self._infrequent_idx[j]
            if rare is not None and int(idx[0]) in rare:
                raise ValueError(
                    f"Unable to drop category {value!r} from feature {j} because it is "
                    "infrequent"
                )
            out[j] = int(idx[0])
        return out

    def _columns(self, j, with_drop=True):
        """Output column of each category of feature j (-1: dropped) and the column labels.

        Frequent categories come first in category order, then one column for
        the infrequent ones; the dropped category's column is removed.
        """
        cats = self.categories_[j]
        rare = getattr(self, "_infrequent_idx", [None] * len(self.categories_))[j]
        column_of = np.empty(len(cats), dtype=np.intp)
        frequent = np.ones(len(cats), dtype=bool)
        if rare is not None:
            frequent[rare] = False
        column_of[frequent] = np.arange(frequent.sum())
        labels = list(cats[frequent])
        if rare is not None:
            column_of[rare] = frequent.sum()
            labels.append(_INFREQUENT)
        if with_drop and self.drop_idx_ is not None and self.drop_idx_[j] is not None:
            dropped = column_of[self.drop_idx_[j]]
            del labels[dropped]
            column_of = np.where(column_of == dropped, -1,
                                 np.where(column_of > dropped, column_of - 1, column_of))
        return column_of, labels

    def transform(self, X):
        """One-hot encode X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray or scipy.sparse CSR matrix of shape (n_samples, n_encoded_features)
        """
        check_is_fitted(self)
        X = check_categorical_X(self, X, reset=False)
        n = X.shape[0]
        rows, cols = [], []
        offset = 0
        for j, cats in enumerate(self.categories_):
            idx, found = _encode_column(X[:, j], cats)
            if not found.all():
                if self.handle_unknown == "infrequent_if_exist":
                    pass
                elif self.handle_unknown == "error":
                    unknown = sorted({str(v) for v in X[~found, j]})
                    raise ValueError(
                        f"Found unknown categories {unknown} in column {j} during transform"
                    )
                if self.handle_unknown == "warn":
                    import warnings

                    warnings.warn(
                        f"Found unknown categories in columns [{j}] during transform. These "
                        "unknown categories will be encoded as all zeros",
                        UserWarning,
                        stacklevel=2,
                    )
            column_of, labels = self._columns(j)
            out_col = np.where(found, column_of[idx], -1)
            if self.handle_unknown == "infrequent_if_exist" and \
                    self._infrequent_idx[j] is not None:
                out_col = np.where(found, out_col, column_of[self._infrequent_idx[j][0]])
            ok = out_col >= 0
            rows.append(np.flatnonzero(ok))
            cols.append(out_col[ok] + offset)
            offset += len(labels)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.intp)
        cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.intp)
        if self.sparse_output:
            data = np.ones(len(rows), dtype=self.dtype)
            return sp.csr_matrix((data, (rows, cols)), shape=(n, offset))
        out = np.zeros((n, offset), dtype=self.dtype)
        out.reshape(-1)[rows * offset + cols] = 1  # flat indices: one scatter pass
        return out

    def inverse_transform(self, X):
        """Categories back from one-hot columns (all-zero blocks give None).

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_encoded_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features), object dtype unless all
        categories are numeric
        """
        check_is_fitted(self)
        if sp.issparse(X):
            X = X.toarray()
        X = np.asarray(X)
        layouts = [self._columns(j) for j in range(len(self.categories_))]
        widths = [len(labels) for _, labels in layouts]
        if X.ndim != 2 or X.shape[1] != sum(widths):
            raise ValueError(
                f"Shape of the passed X data is not correct. Expected {sum(widths)} columns, "
                f"got {X.shape[1] if X.ndim == 2 else X.shape}."
            )
        dtypes = {c.dtype.kind for c in self.categories_}
        numeric = dtypes <= set("biuf") and all(r is None for r in self._infrequent_idx)
        # numeric categories come back in their common dtype (float32 stays float32)
        out_dtype = np.result_type(*[c.dtype for c in self.categories_]) if numeric else object
        out = np.empty((X.shape[0], len(widths)), dtype=out_dtype)
        start = 0
        for j, width in enumerate(widths):
            block = X[:, start:start + width]
            start += width
            labels = np.empty(width, dtype=object)
            labels[:] = layouts[j][1]
            cats = self.categories_[j]
            hot = block.argmax(axis=1) if width else np.zeros(len(X), dtype=np.intp)
            none = block.sum(axis=1) == 0 if width else np.ones(len(X), dtype=bool)
            col = labels[hot] if width else np.empty(len(X), dtype=object)
            col = col.astype(out.dtype)
            if none.any():
                if self.drop_idx_ is not None and self.drop_idx_[j] is not None:
                    dropped = self.drop_idx_[j]
                    rare = self._infrequent_idx[j]
                    col[none] = _INFREQUENT if rare is not None and dropped in rare \
                        else cats[dropped]
                else:
                    if numeric:
                        col[none] = np.nan
                    else:
                        col[none] = None
            out[:, j] = col
        return out

    def get_feature_names_out(self, input_features=None):
        """Output feature names ``<feature>_<category>`` (or ``feature_name_combiner``'s).

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        names = feature_names_in(self, input_features)
        combine = self.feature_name_combiner
        out = []
        for j, name in enumerate(names):
            for label in self._columns(j)[1]:
                if combine == "concat":
                    out.append(f"{name}_{label}")
                    continue
                combined = combine(name, label)
                if not isinstance(combined, str):
                    raise TypeError(
                        "When `feature_name_combiner` is a callable, it should return a "
                        f"Python string. Got {type(combined)} instead."
                    )
                out.append(combined)
        return np.asarray(out, dtype=object)
