"""Kernel support-vector machines: SVC and SVR (seed 000 §8, §14; seed 003).

Both solve the dual of the soft-margin problem with our SMO solver
(:mod:`._smo_kernels`). SVC trains one binary machine per pair of classes
(one-vs-one) and votes; SVR minimises the epsilon-insensitive loss.
The decision function is evaluated blockwise with one BLAS product between
the test rows and the support vectors.
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from .._kernels.work import SVM_PAIRS_WORK
from ..base import BaseEstimator, ClassifierMixin, RegressorMixin
from ..exceptions import ConvergenceWarning
from ..utils._available_if import available_if
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import like_input, row_squared_norms
from ..utils._targets import compute_class_weight, encode_labels
from ..utils._threads import effective_n_jobs, pooled_map
from ..utils.validation import (
    check_is_fitted,
    check_magnitude,
    check_sample_weight,
    power_of_two_unit,
    validate_data,
)
from . import _base
from ._probability import couple, fit_sigmoid, sigmoid_predict

# training sets (else pairs) of at most this many samples evaluate their internal
# cross-validation's decision values from one kernel matrix (at most 8 MB)
_PAIR_KERNEL_ROWS = 1024
_KERNEL_CONSTRAINT = [StrOptions({"linear", "poly", "rbf", "sigmoid", "precomputed"}), "callable"]
_COMMON_CONSTRAINTS = {
    "kernel": _KERNEL_CONSTRAINT,
    "degree": [Interval(Integral, 0, None, closed="left")],
    "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "C": [Interval(Real, 0.0, None, closed="neither")],
    "shrinking": ["boolean"],
    "cache_size": [Interval(Real, 0, None, closed="neither")],
    "verbose": ["boolean", Interval(Integral, 0, None, closed="left")],
    "max_iter": [Interval(Integral, -1, None, closed="left")],
}


def _warn_if_not_converged(converged, max_iter):
    if not all(converged):
        warnings.warn(
            f"Solver terminated early (max_iter={max_iter}). Consider pre-processing your "
            "data with StandardScaler or MinMaxScaler.",
            ConvergenceWarning,
            stacklevel=3,
        )


class _KernelSVM(BaseEstimator):
    """Shared fit pieces of SVC and SVR."""

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.pairwise = self.kernel == "precomputed"
        tags.sparse = self.kernel != "precomputed"
        return tags

    def _prepare(self, X, y, sample_weight, y_numeric):
        self._validate_params()
        if sp.issparse(X) and self.kernel == "precomputed":
            raise TypeError("Sparse precomputed kernels are not supported.")
        X_in = X
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=y_numeric,
                             accept_sparse="csr")
        # sparse fit: kernel rows from the CSR rows (never densified); the
        # support vectors and dual coefficients are sparse, as in scikit-learn
        self._sparse_fit = sp.issparse(X) and not callable(self.kernel)
        self._input_like = X_in if sp.issparse(X_in) else None
        self._unit = 1.0
        if (self.kernel == "rbf" and isinstance(self.gamma, str) and self.gamma == "scale"
                and not sp.issparse(X)):
            # exp(-gamma |x - x'|^2) with gamma = 1 / (p var X) does not change when X
            # is divided by a power of two: data near 1e300 or 1e-300 are fitted
            # (and predicted) in that unit, the same model exactly
            self._unit = power_of_two_unit(X)
            if self._unit != 1.0:
                X = X / self._unit
        self._check_kernel_range(X, fit=True)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        self._gamma = _base.resolve_gamma(self.gamma, X) if not callable(self.kernel) else 0.0
        if self.kernel == "precomputed":
            self._gamma = 0.0
        M, kernel_id = _base.training_matrix(self, X)
        self.shape_fit_ = X.shape
        return X, y, sw, M, kernel_id

    def _store_support(self, X, support):
        self.support_ = support.astype(np.int32)
        if self.kernel == "precomputed":
            self.support_vectors_ = np.empty((0, 0))
            self._sv_for_kernel = None
            self._sv_sqnorm = None
        else:
            self._sv_for_kernel = X[support]  # in the fit's unit
            self.support_vectors_ = self._sv_for_kernel * getattr(self, "_unit", 1.0)
            self._sv_sqnorm = row_squared_norms(self._sv_for_kernel)
            if sp.issparse(self.support_vectors_):
                self.support_vectors_ = self._as_fit_sparse(self.support_vectors_)

    def _as_fit_sparse(self, A):
        """A sparse attribute in the container kind of the training X (CSR)."""
        return like_input(sp.csr_array(A), self._input_like)

    def _publish_dual(self, dual):
        """Store the dual coefficients: dense internally, and as ``dual_coef_``
        (a CSR matrix after a sparse fit, as scikit-learn)."""
        self._dual = dual
        self.dual_coef_ = self._as_fit_sparse(dual) if self._sparse_fit else dual

    def _check_kernel_range(self, X, *, fit):
        """A ValueError for data whose kernel products (x.x', |x - x'|^2, their
        powers for 'poly') overflow, or in fit underflow to a constant kernel."""
        if callable(self.kernel) or self.kernel == "precomputed":
            return
        power = 2 * self.degree if self.kernel == "poly" else 2
        check_magnitude(X, self, f"{self.kernel} kernel", power=power, check_small=fit)

    def _check_X(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, order="C",
                          accept_sparse="csr" if self.kernel != "precomputed" else False)
        if getattr(self, "_unit", 1.0) != 1.0:
            X = X / self._unit
        self._check_kernel_range(X, fit=False)
        if self.kernel == "precomputed" and X.shape[1] != self.shape_fit_[0]:
            raise ValueError(
                f"X.shape[1] = {X.shape[1]} should be equal to {self.shape_fit_[0]}, "
                "the number of samples at training time"
            )
        return X

    @property
    def coef_(self):
        """Weights of the features (linear kernel only)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ is only available when using a linear kernel")
        coef = np.asarray(self._linear_coef())
        return self._as_fit_sparse(coef) if self._sparse_fit else coef

    @property
    def n_iter_(self):
        """Number of SMO iterations of each binary problem."""
        return self._n_iter

    @property
    def probA_(self):
        """Platt slope of each pair (empty without probability)."""
        return self._probA

    @property
    def probB_(self):
        """Platt offset of each pair (empty without probability)."""
        return self._probB


class SVC(ClassifierMixin, _KernelSVM):
    """C-support vector classification with kernels, one-vs-one for several classes.

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularisation strength (> 0); bound of the dual variables.
    kernel : {'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'} or callable, default='rbf'
        A callable ``k(X, Y)`` returns the kernel matrix.
    degree : int, default=3
        Degree of the polynomial kernel.
    gamma : {'scale', 'auto'} or float, default='scale'
        'scale' is ``1 / (n_features * X.var())``, 'auto' ``1 / n_features``.
    coef0 : float, default=0.0
        Constant term of the poly and sigmoid kernels.
    shrinking : bool, default=True
        Use the shrinking heuristic.
    probability : bool, default=False
        Fit Platt scaling on 5-fold internal cross-validation, enabling
        ``predict_proba``.
    tol : float, default=1e-3
        Stopping tolerance on the maximal KKT violation.
    cache_size : float, default=200
        Kernel-row cache size in MB (per binary problem).
    class_weight : dict or 'balanced', default=None
        Multiplies C per class.
    verbose : bool, default=False
        Unused, kept for compatibility.
    max_iter : int, default=-1
        Iteration limit per binary problem, -1 for none.
    decision_function_shape : {'ovo', 'ovr'}, default='ovr'
        Shape of ``decision_function`` for several classes.
    break_ties : bool, default=False
        With 'ovr', predict by the argmax of the decision function instead of
        the votes.
    random_state : int, RandomState instance or None, default=None
        Controls the folds of the probability calibration.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (n_classes,), dtype int32
    dual_coef_ : ndarray of shape (n_classes - 1, n_SV)
        ``y_i alpha_i`` of each support vector in each of its pairs.
    intercept_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
    coef_ : ndarray of shape (n_classes * (n_classes - 1) / 2, n_features)
        Only for the linear kernel.
    class_weight_ : ndarray of shape (n_classes,)
    fit_status_ : int
        0 if every problem converged, 1 otherwise.
    n_iter_ : ndarray of shape (n_classes * (n_classes - 1) / 2,)
    probA_, probB_ : ndarray
        Platt parameters per pair when ``probability=True``.
    shape_fit_ : tuple
    n_features_in_ : int
    feature_names_in_ : ndarray

    See Also
    --------
    SVR : epsilon support-vector regression.
    LinearSVC : linear SVM by coordinate descent, scales to many samples.

    Notes
    -----
    Dual (seed 000 §8): ``max_a sum a_i - 1/2 sum_ij a_i a_j y_i y_j K(x_i, x_j)``
    with ``0 <= a_i <= C_i`` and ``sum a_i y_i = 0``; the decision function is
    ``f(x) = sum_i a_i y_i K(x_i, x) + b``. Solved by SMO with second-order
    working-set selection, a bounded kernel-row cache and shrinking.

    Examples
    --------
    >>> from classiclearn.svm import SVC
    >>> X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    >>> SVC(kernel="linear").fit(X, [0, 1, 0, 1]).predict([[0.9, 0.8]]).tolist()
    [1]
    """

    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "probability": ["boolean"],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "decision_function_shape": [StrOptions({"ovr", "ovo"})],
        "break_ties": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        probability=False,
        tol=1e-3,
        cache_size=200,
        class_weight=None,
        verbose=False,
        max_iter=-1,
        decision_function_shape="ovr",
        break_ties=False,
        random_state=None,
    ):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.probability = probability
        self.tol = tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.verbose = verbose
        self.max_iter = max_iter
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Fit the SVM.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
            Training data, or the Gram matrix for ``kernel='precomputed'``.
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies C per sample; zero-weight samples are left out.

        Returns
        -------
        self
        """
        X, y, sw, M, kernel_id = self._prepare(X, y, sample_weight, y_numeric=False)
        self.classes_, y_idx = encode_labels(y)
        k = len(self.classes_)
        self.class_weight_ = compute_class_weight(self.class_weight, self.classes_, y_idx)
        Cs = self.C * self.class_weight_[y_idx] * sw
        keep = Cs > 0
        if not keep.any():
            raise ValueError("Invalid input - all samples have zero or negative weights.")
        if len(np.unique(y_idx[keep])) < 2:
            raise ValueError(
                "Invalid input - all samples with positive weights belong to the same class."
            )
        if self.probability:
            counts = np.bincount(y_idx[keep], minlength=k)
            if counts[counts > 0].min() < 5:
                raise ValueError(
                    "probability=True needs at least 5 samples of each class (Platt scaling "
                    f"runs a 5-fold internal cross-validation); got class counts "
                    f"{counts.tolist()}."
                )
        members = [np.flatnonzero((y_idx == c) & keep) for c in range(k)]

        pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
        pair_rows = [np.concatenate([members[a], members[b]]) for a, b in pairs]

        results = self._solve_pairs(M, kernel_id, pair_rows,
                                    [members[a].size for a, _ in pairs], Cs)
        coefs, rhos, n_iters, conv = [], [], [], []
        for p_, (alpha, rho, it, ok) in enumerate(results):
            rows = pair_rows[p_]
            sign = np.where(np.arange(rows.size) < members[pairs[p_][0]].size, 1.0, -1.0)
            coefs.append((rows, alpha * sign))
            rhos.append(rho)
            n_iters.append(it)
            conv.append(ok)
        _warn_if_not_converged(conv, self.max_iter)
        self.fit_status_ = 0 if all(conv) else 1
        self._n_iter = np.asarray(n_iters, dtype=np.int32)

        n = X.shape[0]
        nonzero = np.zeros(n, dtype=bool)
        for rows, c in coefs:
            nonzero[rows[c != 0.0]] = True
        sv_by_class = [m[nonzero[m]] for m in members]
        support = np.concatenate(sv_by_class)
        self.n_support_ = np.array([s.size for s in sv_by_class], dtype=np.int32)
        pos = np.full(n, -1)
        pos[support] = np.arange(support.size)
        dual = np.zeros((max(k - 1, 1), support.size))
        p_ = 0
        for a in range(k):
            for b in range(a + 1, k):
                rows, c = coefs[p_]
                na = members[a].size
                ra, ca = rows[:na], c[:na]
                rb, cb = rows[na:], c[na:]
                ma, mb = nonzero[ra], nonzero[rb]
                dual[b - 1, pos[ra[ma]]] = ca[ma]
                dual[a, pos[rb[mb]]] = cb[mb]
                p_ += 1
        intercept = -np.asarray(rhos, dtype=np.float64)
        # dense (pair, support vector) coefficients, libsvm sign, for prediction
        self._pair_coef = np.zeros((len(rhos), support.size))
        for p_, (rows, c) in enumerate(coefs):
            m = nonzero[rows]
            self._pair_coef[p_, pos[rows[m]]] = c[m]
        self._pair_intercept = intercept.copy()
        if k == 2:
            dual, intercept = -dual, -intercept
        self._publish_dual(dual)
        self.intercept_ = intercept
        self._store_support(X, support)
        self._sv_class = np.repeat(np.arange(k), self.n_support_)

        self._probA = np.empty(0)
        self._probB = np.empty(0)
        if self.probability:
            self._fit_probability(M, kernel_id, members, Cs)
        return self

    def _solve_pairs(self, M, kernel_id, subsets, n_first, Cs):
        """(alpha, rho, n_iter, converged) of the binary problem on each subset of
        samples, its first ``n_first[q]`` samples the positive class.

        The solver releases the GIL: the problems run in threads when they are large
        enough to pay for them (each result depends only on its own problem, so
        threads never change the answer). On dense samples they go to the solver
        in groups, unless a lone problem is long enough to split its kernel rows
        over threads."""
        work = sum(rows.size ** 2 for rows in subsets) * max(M.shape[1], 1)
        n_threads = effective_n_jobs(-1) if work >= SVM_PAIRS_WORK else 1
        if _base.batches_dense(M, kernel_id) and (
                len(subsets) > 1 or not _base.needs_parallel_rows(kernel_id, M, subsets[0].size)):
            return _base.solve_classifications(self, M, kernel_id, subsets, n_first, Cs,
                                               n_threads)

        def solve(q):
            rows = subsets[q]
            y = np.where(np.arange(rows.size) < n_first[q], 1.0, -1.0)
            return _base.solve_dual(self, M, kernel_id, rows, y, -np.ones(rows.size), Cs[rows],
                                    serial_rows=len(subsets) > 1)

        return pooled_map(solve, range(len(subsets)), n_threads)

    def _fit_probability(self, M, kernel_id, members, Cs):
        rng = check_random_state(self.random_state)
        k = len(members)
        # every pair's 5-fold split first (the random stream in pair order), then all
        # the folds' problems solved together, then each pair's sigmoid
        pairs, folds = [], []
        for a in range(k):
            for b in range(a + 1, k):
                rows = np.concatenate([members[a], members[b]])
                positive = np.arange(rows.size) < members[a].size
                perm = rng.permutation(rows.size)
                pairs.append((rows, positive))
                for fold in np.array_split(perm, 5):
                    # the other folds' samples in increasing order, positives first
                    outside = np.ones(rows.size, dtype=bool)
                    outside[fold] = False
                    train = np.concatenate([np.flatnonzero(outside & positive),
                                            np.flatnonzero(outside & ~positive)])
                    folds.append((len(pairs) - 1, fold, train, int(positive[train].sum())))
        solvable = [i for i, (_, _, train, n_pos) in enumerate(folds) if 0 < n_pos < train.size]
        solved = self._solve_pairs(
            M, kernel_id, [pairs[folds[i][0]][0][folds[i][2]] for i in solvable],
            [folds[i][3] for i in solvable], Cs)
        solutions = dict(zip(solvable, solved))
        decisions = [np.empty(rows.size) for rows, _ in pairs]
        # kernel values of all the samples: the Gram matrix itself for a precomputed
        # kernel, computed once for a small training set, else per pair or per fold
        if kernel_id == _base._k.PRECOMPUTED:
            K_all = M
        elif M.shape[0] <= _PAIR_KERNEL_ROWS:
            K_all = _base.kernel_values(self, M, M)
        else:
            K_all = None
        pair_kernel = (None, None)
        for i, (q, fold, train, n_pos) in enumerate(folds):
            rows, positive = pairs[q]
            if i not in solutions:
                decisions[q][fold] = 1.0 if n_pos else -1.0
                continue
            alpha, rho, _, _ = solutions[i]
            coef = alpha * np.where(positive[train], 1.0, -1.0)
            nz = coef != 0.0
            sv = train[nz]
            if K_all is not None:
                K = K_all[np.ix_(rows[fold], rows[sv])]
            elif rows.size > _PAIR_KERNEL_ROWS:
                K = _base.kernel_values(self, M[rows[fold]], M[rows[sv]])
            else:  # folds come pair by pair: one pair's matrix at a time
                if pair_kernel[0] != q:
                    pair_kernel = (q, _base.kernel_values(self, M[rows], M[rows]))
                K = pair_kernel[1][np.ix_(fold, sv)]
            decisions[q][fold] = K @ coef[nz] - rho
        fitted = [fit_sigmoid(dec, positive) for dec, (_, positive) in zip(decisions, pairs)]
        self._probA = np.asarray([A for A, _ in fitted])
        self._probB = np.asarray([B for _, B in fitted])

    def _linear_coef(self):
        k = len(self.classes_)
        SV = self.support_vectors_
        if k == 2:
            return np.asarray(self._dual @ SV)
        coef = []
        for a in range(k):
            for b in range(a + 1, k):
                sa = self._sv_class == a
                sb = self._sv_class == b
                coef.append(
                    self._dual[b - 1, sa] @ SV[sa] + self._dual[a, sb] @ SV[sb]
                )
        return np.asarray(coef)

    def _ovo_decision(self, X):
        """One-vs-one decision values, libsvm sign (positive: first class of the pair)."""
        if self.kernel == "linear":
            # primal weights: one product with (n_pairs, n_features) instead of
            # a kernel evaluation against every support vector
            W = np.asarray(self._pair_coef @ self.support_vectors_)
            return np.asarray(X @ W.T) + self._pair_intercept
        return _base.decision_values(self, X, self._pair_coef.T, self._pair_intercept)

    def decision_function(self, X):
        """Signed distance to the separating surface(s).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        for 'ovr' or (n_samples, n_classes * (n_classes - 1) / 2) for 'ovo'.
        """
        X = self._check_X(X)
        dec = self._ovo_decision(X)
        k = len(self.classes_)
        if k == 2:
            return -dec[:, 0]
        if self.decision_function_shape == "ovr":
            return _ovr_from_ovo(dec, k)
        return dec

    def predict(self, X):
        """Predicted class labels.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError(
                "break_ties must be False when decision_function_shape is 'ovo'"
            )
        X = self._check_X(X)
        dec = self._ovo_decision(X)
        k = len(self.classes_)
        if self.break_ties and k > 2:
            return self.classes_[np.argmax(_ovr_from_ovo(dec, k), axis=1)]
        votes = np.zeros((X.shape[0], k), dtype=np.intp)
        p_ = 0
        for a in range(k):
            for b in range(a + 1, k):
                first = dec[:, p_] > 0
                votes[first, a] += 1
                votes[~first, b] += 1
                p_ += 1
        return self.classes_[np.argmax(votes, axis=1)]

    def _check_proba(self):
        if not self.probability:
            raise AttributeError(
                "predict_proba is not available when probability=False"
            )
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Class probabilities by Platt scaling (and pairwise coupling).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._check_X(X)
        if self._probA.size == 0:
            raise AttributeError("predict_proba is not available when fitted with "
                                 "probability=False")
        dec = self._ovo_decision(X)
        r = sigmoid_predict(dec, self._probA[None, :], self._probB[None, :])
        r = np.clip(r, 1e-7, 1.0 - 1e-7)
        k = len(self.classes_)
        if k == 2:
            return np.column_stack([r[:, 0], 1.0 - r[:, 0]])
        return couple(r, k)

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.log(self.predict_proba(X))


def _ovr_from_ovo(dec, k):
    """One-vs-rest scores from one-vs-one decision values: votes plus a
    confidence term squeezed into (-1/3, 1/3) so it only breaks ties."""
    n = dec.shape[0]
    votes = np.zeros((n, k))
    conf = np.zeros((n, k))
    p_ = 0
    for a in range(k):
        for b in range(a + 1, k):
            first = dec[:, p_] > 0
            votes[first, a] += 1
            votes[~first, b] += 1
            conf[:, a] += dec[:, p_]
            conf[:, b] -= dec[:, p_]
            p_ += 1
    return votes + conf / (3.0 * (np.abs(conf) + 1.0))


class SVR(RegressorMixin, _KernelSVM):
    """Epsilon support-vector regression with kernels.

    Parameters
    ----------
    kernel : {'linear', 'poly', 'rbf', 'sigmoid', 'precomputed'} or callable, default='rbf'
    degree : int, default=3
    gamma : {'scale', 'auto'} or float, default='scale'
    coef0 : float, default=0.0
    tol : float, default=1e-3
    C : float, default=1.0
    epsilon : float, default=0.1
        Half-width of the tube inside which errors cost nothing.
    shrinking : bool, default=True
    cache_size : float, default=200
        Kernel-row cache size in MB.
    verbose : bool, default=False
    max_iter : int, default=-1

    Attributes
    ----------
    support_ : ndarray of shape (n_SV,)
    support_vectors_ : ndarray of shape (n_SV, n_features)
    n_support_ : ndarray of shape (1,), dtype int32
    dual_coef_ : ndarray of shape (1, n_SV)
        ``alpha_i - alpha_i*`` of each support vector.
    intercept_ : ndarray of shape (1,)
    coef_ : ndarray of shape (1, n_features)
        Only for the linear kernel.
    fit_status_ : int
    n_iter_ : ndarray of shape (1,)
    shape_fit_ : tuple
    n_features_in_ : int
    feature_names_in_ : ndarray

    See Also
    --------
    SVC : support-vector classification.

    Notes
    -----
    Seed 000 §8: minimise ``1/2 ||w||^2 + C sum_i max(0, |y_i - f(x_i)| - epsilon)``;
    the dual has two bounded variables per sample, solved by the same SMO.

    Examples
    --------
    >>> from classiclearn.svm import SVR
    >>> X = [[0.0], [1.0], [2.0], [3.0]]
    >>> round(float(SVR(kernel="linear", C=10.0).fit(X, [0, 1, 2, 3]).predict([[4.0]])[0]), 2)
    3.83
    """

    _parameter_constraints = {
        **_COMMON_CONSTRAINTS,
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
        shrinking=True,
        cache_size=200,
        verbose=False,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.max_iter = max_iter

    def fit(self, X, y, sample_weight=None):
        """Fit the regression SVM.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Multiplies C per sample; zero-weight samples are left out.

        Returns
        -------
        self
        """
        X, y, sw, M, kernel_id = self._prepare(X, y, sample_weight, y_numeric=True)
        y = y.astype(np.float64)
        Cs = self.C * sw
        rows = np.flatnonzero(Cs > 0)
        if rows.size == 0:
            raise ValueError("Invalid input - all samples have zero or negative weights.")
        m = rows.size
        z = y[rows]
        sign = np.concatenate([np.ones(m), -np.ones(m)])
        p = np.concatenate([self.epsilon - z, self.epsilon + z])
        C2 = np.concatenate([Cs[rows], Cs[rows]])
        sample_of = np.concatenate([np.arange(m), np.arange(m)]).astype(np.intp)
        alpha, rho, it, ok = _base.solve_dual(self, M, kernel_id, rows, sign, p, C2, sample_of)
        _warn_if_not_converged([ok], self.max_iter)
        self.fit_status_ = 0 if ok else 1
        self._n_iter = np.array([it], dtype=np.int32)
        coef = alpha[:m] - alpha[m:]
        nz = coef != 0.0
        support = rows[nz]
        self._publish_dual(coef[nz][None, :])
        self.intercept_ = np.array([-rho])
        self.n_support_ = np.array([0, support.size], dtype=np.int32)
        self._store_support(X, support)
        self._probA = np.empty(0)
        self._probB = np.empty(0)
        return self

    def _linear_coef(self):
        return np.asarray(self._dual @ self.support_vectors_)

    def predict(self, X):
        """Predicted targets.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._check_X(X)
        if self.kernel == "linear":
            w = np.asarray(self._dual @ self.support_vectors_)
            return np.asarray(X @ w.T)[:, 0] + self.intercept_[0]
        return _base.decision_values(self, X, self._dual.T, self.intercept_)[:, 0]
