"""Categorical encoding: one-hot (dummy) columns for each category (seed 004: qualitative
predictors such as famhist enter a linear model as indicator variables).

Categories may be strings or numbers; a missing value (NaN or None) is a
category of its own, placed last.
"""

import numbers

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._params import StrOptions
from ..utils.validation import check_is_fitted
from ._common import OutputMixin, check_categorical_X, feature_names_in, is_missing

__all__ = ["OneHotEncoder"]


def _column_categories(col, j):
    """Sorted categories of one column; a missing value (NaN / None) goes last."""
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


class OneHotEncoder(OutputMixin, TransformerMixin, BaseEstimator):
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
    handle_unknown : {"error", "ignore", "warn"}, default="error"
        Unknown categories at transform raise, or give all-zero columns
        (with a warning for "warn").

    Attributes
    ----------
    categories_ : list of ndarray
        Categories of each feature, in the order of the output columns.
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
        "handle_unknown": [StrOptions({"error", "ignore", "warn"})],
    }

    def __init__(self, *, categories="auto", drop=None, sparse_output=False,
                 dtype=np.float64, handle_unknown="error"):
        self.categories = categories
        self.drop = drop
        self.sparse_output = sparse_output
        self.dtype = dtype
        self.handle_unknown = handle_unknown

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
        if self.categories == "auto":
            cats = [_column_categories(X[:, j], j) for j in range(n_features)]
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
        self.drop_idx_ = self._compute_drop_idx()
        return self

    def _compute_drop_idx(self):
        if self.drop is None:
            return None
        n = len(self.categories_)
        if isinstance(self.drop, str):
            if self.drop == "first":
                return np.zeros(n, dtype=object)
            out = np.array([0 if len(c) == 2 else None for c in self.categories_], dtype=object)
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
            out[j] = int(idx[0])
        return out

    def _kept(self, j):
        """Indices of categories of feature j that get an output column."""
        cats = self.categories_[j]
        keep = np.arange(len(cats))
        if self.drop_idx_ is not None and self.drop_idx_[j] is not None:
            keep = keep[keep != self.drop_idx_[j]]
        return keep

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
        Xin = X
        X = check_categorical_X(self, X, reset=False)
        n = X.shape[0]
        rows, cols = [], []
        offset = 0
        for j, cats in enumerate(self.categories_):
            idx, found = _encode_column(X[:, j], cats)
            if not found.all():
                if self.handle_unknown == "error":
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
            kept = self._kept(j)
            column_of = np.full(len(cats), -1, dtype=np.intp)
            column_of[kept] = np.arange(len(kept))
            out_col = np.where(found, column_of[idx], -1)
            ok = out_col >= 0
            rows.append(np.flatnonzero(ok))
            cols.append(out_col[ok] + offset)
            offset += len(kept)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.intp)
        cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.intp)
        if self.sparse_output:
            data = np.ones(len(rows), dtype=self.dtype)
            return sp.csr_matrix((data, (rows, cols)), shape=(n, offset))
        out = np.zeros((n, offset), dtype=self.dtype)
        out.reshape(-1)[rows * offset + cols] = 1  # flat indices: one scatter pass
        return self._wrap(out, Xin)

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
        widths = [len(self._kept(j)) for j in range(len(self.categories_))]
        if X.ndim != 2 or X.shape[1] != sum(widths):
            raise ValueError(
                f"Shape of the passed X data is not correct. Expected {sum(widths)} columns, "
                f"got {X.shape[1] if X.ndim == 2 else X.shape}."
            )
        dtypes = {c.dtype.kind for c in self.categories_}
        numeric = dtypes <= set("biuf")
        out = np.empty((X.shape[0], len(widths)), dtype=np.float64 if numeric else object)
        start = 0
        for j, width in enumerate(widths):
            block = X[:, start:start + width]
            start += width
            kept = self._kept(j)
            cats = self.categories_[j]
            hot = block.argmax(axis=1) if width else np.zeros(len(X), dtype=np.intp)
            none = block.sum(axis=1) == 0 if width else np.ones(len(X), dtype=bool)
            col = cats[kept[hot]] if width else np.empty(len(X), dtype=cats.dtype)
            col = col.astype(out.dtype)
            if none.any():
                if self.drop_idx_ is not None and self.drop_idx_[j] is not None:
                    col[none] = cats[self.drop_idx_[j]]
                else:
                    if numeric:
                        col[none] = np.nan
                    else:
                        col[none] = None
            out[:, j] = col
        return out

    def get_feature_names_out(self, input_features=None):
        """Output feature names ``<feature>_<category>``.

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        names = feature_names_in(self, input_features)
        out = []
        for j, name in enumerate(names):
            cats = self.categories_[j]
            for k in self._kept(j):
                out.append(f"{name}_{cats[k]}")
        return np.asarray(out, dtype=object)
