"""Polynomial and interaction features (seed 000 §4: a linear model in a basis expansion
of the inputs).

Output columns follow scikit-learn's order: the bias, then degree 1, degree 2,
..., and within a degree the combinations (with replacement, unless
``interaction_only``) of feature indices in lexicographic order. On dense X each
block of degree-d columns is one vectorised product of a block of degree-(d-1)
columns with one input column; sparse rows are expanded entry by entry
(``_polynomial_kernels``).
"""

from itertools import combinations, combinations_with_replacement
from math import comb
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, TransformerMixin
from ..utils._params import Interval, StrOptions
from ..utils._sparse import like_input
from ..utils.validation import FLOAT_DTYPES, check_is_fitted, check_magnitude, validate_data
from . import _polynomial_kernels as _pk
from ._common import feature_names_in

__all__ = ["PolynomialFeatures"]


def _choose(m, r):
    """``comb(m_i, r)`` for each entry of the int64 array m, exactly (0 where m_i < r):
    the running product ``c (m - k) / (k + 1)`` is a binomial coefficient at every
    step, so each division is exact."""
    c = np.ones_like(m)
    for k in range(r):
        c = c * np.maximum(m - k, 0) // (k + 1)
    return c


class PolynomialFeatures(TransformerMixin, BaseEstimator):
    """All products of features up to a given degree.

    Parameters
    ----------
    degree : int or tuple (min_degree, max_degree), default=2
        Maximum degree, or the range of degrees to keep.
    interaction_only : bool, default=False
        Only products of distinct features (no ``x0^2``).
    include_bias : bool, default=True
        Include the constant column of ones (degree 0).
    order : {"C", "F"}, default="C"
        Memory layout of the output.

    Attributes
    ----------
    powers_ : ndarray of shape (n_output_features_, n_features_in_)
        Exponent of each input in each output column.
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Examples
    --------
    >>> pf = PolynomialFeatures(2).fit([[2.0, 3.0]])
    >>> pf.transform([[2.0, 3.0]]).tolist()
    [[1.0, 2.0, 3.0, 4.0, 6.0, 9.0]]
    >>> pf.get_feature_names_out().tolist()
    ['1', 'x0', 'x1', 'x0^2', 'x0 x1', 'x1^2']
    """

    _parameter_constraints = {
        "degree": [Interval(Integral, 0, None, closed="left"), tuple],
        "interaction_only": ["boolean"],
        "include_bias": ["boolean"],
        "order": [StrOptions({"C", "F"})],
    }

    def __init__(self, degree=2, *, interaction_only=False, include_bias=True, order="C"):
        self.degree = degree
        self.interaction_only = interaction_only
        self.include_bias = include_bias
        self.order = order

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.preserves_dtype = ["float64", "float32"]
        tags.sparse = True
        return tags

    def _degrees(self):
        if isinstance(self.degree, tuple):
            if len(self.degree) != 2 or not all(
                isinstance(d, Integral) and not isinstance(d, bool) for d in self.degree
            ):
                raise ValueError(
                    "degree=(min_degree, max_degree) must be a pair of non-negative "
                    f"integers; got {self.degree}."
                )
            lo, hi = self.degree
            if lo < 0 or hi < lo:
                raise ValueError(
                    "degree=(min_degree, max_degree) must be non-negative integers that fulfil "
                    f"min_degree <= max_degree, got {self.degree}."
                )
            if hi == 0 and not self.include_bias:
                raise ValueError(
                    "Setting degree to zero and include_bias to False would result in an empty "
                    "output array."
                )
            return lo, hi
        if self.degree == 0 and not self.include_bias:
            raise ValueError(
                "Setting degree to zero and include_bias to False would result in an empty "
                "output array."
            )
        return 0, self.degree

    def _combinations(self, n_features):
        lo, hi = self._degrees()
        pick = combinations if self.interaction_only else combinations_with_replacement
        combos = []
        if self.include_bias:
            combos.append(())
        for d in range(max(1, lo), hi + 1):
            combos.extend(pick(range(n_features), d))
        return combos

    def fit(self, X, y=None):
        """Work out the output columns for X's number of features.

        Returns
        -------
        self
        """
        self._validate_params()
        X = validate_data(self, X, dtype=FLOAT_DTYPES, accept_sparse=("csr", "csc"))
        self.n_output_features_ = int(self._degree_starts(X.shape[1])[-1])
        self.__dict__.pop("_powers", None)
        return self

    def _degree_starts(self, p):
        """First output column of each degree d (index d, from 1; the columns of
        degrees below the lowest kept are empty), then the number of output columns."""
        lo, hi = self._degrees()
        starts = np.zeros(hi + 2, dtype=np.int64)
        column = 1 if self.include_bias else 0
        for d in range(1, hi + 1):
            starts[d] = column
            if d >= lo:
                column += comb(p, d) if self.interaction_only else comb(p + d - 1, d)
        starts[hi + 1] = column
        return starts

    @property
    def powers_(self):
        """Exponent of each input feature in each output column."""
        check_is_fitted(self, "n_output_features_")
        if getattr(self, "_powers", None) is None:
            combos = self._combinations(self.n_features_in_)
            powers = np.zeros((len(combos), self.n_features_in_), dtype=np.int64)
            for i, combo in enumerate(combos):
                for j in combo:
                    powers[i, j] += 1
            self._powers = powers
        return self._powers

    def transform(self, X):
        """The polynomial features of X.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)

        Returns
        -------
        ndarray or sparse array of shape (n_samples, n_output_features_), X's float dtype
            Sparse X (CSR or CSC) gives sparse output in its format and container kind.
        """
        check_is_fitted(self)
        Xv = validate_data(self, X, reset=False, dtype=FLOAT_DTYPES, accept_sparse=("csr", "csc"))
        lo, hi = self._degrees()
        if hi > 1:  # products that overflow: an error rather than inf features
            check_magnitude(Xv, self, f"degree-{hi} products", power=hi, check_small=False)
        if sp.issparse(Xv):
            out = self._transform_sparse(Xv, lo, hi)
            return like_input(out.asformat(Xv.format), X)
        return self._transform_dense(Xv, lo, hi)

    def _degree_blocks(self, p):
        """For each degree d >= 2, the column ranges of the degree-(d-1) block that the
        input feature i multiplies: yields (d, [(i, start, stop), ...], width)."""
        first = np.arange(p + 1)
        shift = 1 if self.interaction_only else 0
        for d in range(2, self._degrees()[1] + 1):
            parts, new_first, c = [], [], 0
            for i in range(p):
                start = first[min(i + shift, p)]
                parts.append((i, start, first[p]))
                new_first.append(c)
                c += first[p] - start
            new_first.append(c)
            yield d, parts, c
            first = np.asarray(new_first)

    def _transform_sparse(self, X, lo, hi):
        """The products of each row's stored entries (zero products are never stored),
        written row by row in the output's column order by a compiled kernel."""
        X = sp.csr_array(X)
        if not X.has_canonical_format:  # sorted, no duplicates: not the caller's copy
            X = X.copy()
            X.sum_duplicates()
        n, p = X.shape
        interaction = bool(self.interaction_only)
        start = max(1, lo)
        first_below = np.zeros((max(hi, 1), p + 1), dtype=np.int64)
        top = np.arange(p, 0, -1, dtype=np.int64) - 1  # p - u - 1 for u = 0 .. p - 1
        for r in range(hi):
            sizes = _choose(top if interaction else top + r, r)
            first_below[r, 1:] = np.cumsum(sizes, dtype=np.int64)
        bases = self._degree_starts(p)
        indptr = X.indptr.astype(np.int64)
        indices = X.indices.astype(np.int64)
        data = X.data.astype(np.float64)
        out_ptr = _pk.expansion_row_sizes(indptr, start, hi, self.include_bias, interaction)
        # int32 indices when they fit, as scipy would make them (it checks and copies)
        narrow = max(int(out_ptr[n]), self.n_output_features_) < 2**31
        if narrow:
            out_ptr = out_ptr.astype(np.int32)
        out_ind = np.empty(out_ptr[n], dtype=np.int32 if narrow else np.int64)
        out_val = np.empty(out_ptr[n])
        _pk.expand_rows(indptr, indices, data, start, hi, self.include_bias, interaction,
                        first_below, bases, out_ptr, out_ind, out_val)
        out = sp.csr_array((out_val.astype(X.dtype, copy=False), out_ind, out_ptr),
                           shape=(n, self.n_output_features_))
        if out.nnz and not out.data.all():  # products that underflowed to zero
            out.eliminate_zeros()
        return out

    def _transform_dense(self, X, lo, hi):
        n, p = X.shape
        out = np.empty((n, self.n_output_features_), dtype=X.dtype, order=self.order)
        col = 0
        if self.include_bias:
            out[:, 0] = 1
            col = 1
        if hi == 0:
            return out
        if lo <= 1:
            out[:, col:col + p] = X
            col += p
        # Block products, degree by degree: the degree-d terms whose first feature is i
        # are x_i times the degree-(d-1) terms whose first feature is >= i (> i for
        # interaction_only), which sit in one contiguous block of the previous degree.
        prev = X
        for d, parts, width in self._degree_blocks(p):
            block = out[:, col:col + width] if d >= lo else np.empty((n, width), dtype=X.dtype)
            c = 0
            for i, start, stop in parts:
                np.multiply(prev[:, start:stop], X[:, i:i + 1], out=block[:, c:c + stop - start])
                c += stop - start
            prev = block
            if d >= lo:
                col += width
        return out

    def get_feature_names_out(self, input_features=None):
        """Names like ``x0``, ``x0^2``, ``x0 x1``, and ``1`` for the bias.

        Returns
        -------
        ndarray of str
        """
        check_is_fitted(self)
        names = feature_names_in(self, input_features)
        out = []
        for row in self.powers_:
            terms = [names[j] if p == 1 else f"{names[j]}^{p}" for j, p in enumerate(row) if p]
            out.append(" ".join(terms) if terms else "1")
        return np.asarray(out, dtype=object)
