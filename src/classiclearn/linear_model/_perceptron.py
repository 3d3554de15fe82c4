"""The perceptron (seed 002): online updates on the perceptron criterion.

Rosenblatt's rule: cycle through the (shuffled) samples and, whenever one is
misclassified, move the hyperplane towards it by ``eta0`` times the sample.
More than two classes are handled one-vs-rest (one hyperplane per class, the
largest score wins).

The online fit (without early stopping) and ``partial_fit`` run the pass
exactly as scikit-learn's SGD does for its Perceptron (hinge loss with
threshold 0, constant learning rate): the same per-output class weights,
per-sample penalty steps, shuffling draws from ``random_state`` and stopping
rule, so the same data and parameters give its coefficients.
"""

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from ..base import BaseEstimator, ClassifierMixin
from ..exceptions import ConvergenceWarning
from ..utils._params import Interval, StrOptions
from ..utils._random import check_random_state
from ..utils._sparse import unsigned_arrays32
from ..utils._stratify import stratified_indices
from ..utils._targets import check_partial_fit_classes, compute_class_weight, encode_labels
from ..utils._threads import SMALL_WORK, auto_n_jobs, on_one_blas_thread, pooled_map
from ..utils.validation import (
    cast_float_attributes,
    check_magnitude,
    check_sample_weight,
    input_float_dtype,
    validate_data,
)
from . import _perceptron_kernels as _k
from ._base import LinearClassifierMixin

# epochs an output's online fit is expected to run at least (for the thread decision)
_EPOCHS_GUESS = 5
# Largest int32: the range of the seeds drawn for every SGD pass (as scikit-learn).
_MAX_INT = np.iinfo(np.int32).max


def _kernel_rows(X):
    """(X, indptr, indices, data) as the SGD kernels take rows: dense X and three Nones
    (the kernels are then compiled without their sparse passes), or the arrays of a
    CSR X (X itself then an empty placeholder), the index arrays unsigned (numba checks
    a signed index for a negative value at every access), the column indices on 32 bits
    (the rows are read in a shuffled order: fewer bytes, fewer cache misses)."""
    if sp.issparse(X):
        return (np.empty((0, X.shape[1])), *unsigned_arrays32(X))
    return np.ascontiguousarray(X), None, None, None


def _batch_epoch(W, b, X, Y, sw, eta, l1, l2, fit_intercept):
    """One batch step on the perceptron criterion; updates W, b in place."""
    F = X @ W.T + b
    M = (Y * F <= 0.0) * (sw[:, None] * Y)
    loss = float(-np.sum(np.minimum(Y * F, 0.0) * sw[:, None]))
    mistakes = float(np.sum((Y * F <= 0.0) * sw[:, None]))
    if l2 > 0:
        W *= 1.0 - eta * l2
    W += eta * (M.T @ X)
    if fit_intercept:
        b += eta * M.sum(axis=0)
    if l1 > 0:
        W[:] = np.sign(W) * np.maximum(np.abs(W) - eta * l1, 0.0)
    return loss, mistakes


def _validation_mask(y_idx, fraction, random_state, sample_weight):
    """The early-stopping hold-out of scikit-learn's SGD (uint8 mask (n,)): the test part
    of a stratified split of ``ceil(fraction * n)`` rows, drawn from ``random_state``
    as scikit-learn's ``StratifiedShuffleSplit`` draws it, so that the same seed holds
    out the same rows."""
    n = y_idx.shape[0]
    n_val = int(np.ceil(fraction * n))
    _, val = stratified_indices(y_idx, n - n_val, n_val, check_random_state(random_state))
    if not np.any(sample_weight[val] > 0):
        raise ValueError("The sample weights for validation set are all zero, consider "
                         "using a different random state.")
    mask = np.zeros(n, dtype=np.uint8)
    mask[val] = 1
    return mask


class Perceptron(LinearClassifierMixin, ClassifierMixin, BaseEstimator):
    """Linear perceptron classifier trained by online updates.

    Parameters
    ----------
    penalty : {"l2", "l1", "elasticnet", None}, default=None
        Optional shrinkage applied at every step: L2 as weight decay
        ``w *= 1 - (1 - l1_ratio) eta0 alpha``, L1 as the cumulative
        truncated gradient (Tsuruoka et al., 2009), as scikit-learn's SGD.
    alpha : float, default=1e-4
        Penalty strength.
    l1_ratio : float, default=0.15
        L1 share of "elasticnet".
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Maximum number of epochs.
    tol : float or None, default=1e-3
        Online: stop an output when its epoch objective (mean loss plus
        penalty) has not dropped by ``tol`` below the best for
        ``n_iter_no_change`` epochs; None runs ``max_iter`` epochs. Batch:
        the same on the summed loss (``tol * n_samples``), or until an epoch
        makes no mistake.
    shuffle : bool, default=True
        Shuffle the samples every epoch (online), with scikit-learn's
        generator (a 32-bit xorshift) seeded from ``random_state``.
    verbose : int, default=0
        Unused.
    eta0 : float, default=1.0
        Learning rate.
    n_jobs : int, default=None
        Threads over the one-vs-rest outputs of the online fit (none for two
        classes): None uses all cores when the fit is large enough, one thread
        otherwise. The outputs are independent: the result is the same.
    random_state : int, RandomState instance or None, default=0
        Seed of the shuffling (drawn as scikit-learn draws it).
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data and stop when its
        accuracy stops improving. The online fit draws the stratified
        hold-out and scores it as scikit-learn does (the same coefficients);
        the batch fit holds out a plain random share.
    validation_fraction : float, default=0.1
    n_iter_no_change : int, default=5
    class_weight : dict or "balanced", default=None
    warm_start : bool, default=False
    algorithm : {"online", "batch"}, default="online"
        "online" updates after every misclassified sample (Rosenblatt; one
        output at a time, as scikit-learn);
        "batch" takes one gradient step on the perceptron criterion per epoch,
        ``w += eta0 * sum_{misclassified} s_i y_i x_i`` (seed 002's batch rule;
        deterministic, and a weight of 2 is exactly a repeated sample); the
        batch rule returns the iterate with the smallest criterion seen (the
        "pocket" variant), as it need not converge on overlapping classes.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
    t_ : int
        Number of sample updates considered (epochs times samples).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LogisticRegression, LeastSquaresClassifier

    Notes
    -----
    Seed 002: the perceptron criterion and its stochastic gradient descent.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 2.0], [2.0, 3.0]])
    >>> Perceptron().fit(X, [0, 0, 1, 1]).predict(X).tolist()
    [0, 0, 1, 1]
    """

    _sparse_input = True

    _parameter_constraints = {
        "penalty": [StrOptions({"l2", "l1", "elasticnet"}), None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "fit_intercept": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, None, None), None],
        "shuffle": ["boolean"],
        "verbose": [Interval(Integral, 0, None, closed="left"), "boolean"],
        "eta0": [Interval(Real, 0, None, closed="neither")],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "warm_start": ["boolean"],
        "algorithm": [StrOptions({"online", "batch"})],
    }

    def __init__(self, *, penalty=None, alpha=1e-4, l1_ratio=0.15, fit_intercept=True,
                 max_iter=1000, tol=1e-3, shuffle=True, verbose=0, eta0=1.0, n_jobs=None,
                 random_state=0, early_stopping=False, validation_fraction=0.1,
                 n_iter_no_change=5, class_weight=None, warm_start=False,
                 algorithm="online"):
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.verbose = verbose
        self.eta0 = eta0
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.algorithm = algorithm

    @on_one_blas_thread
    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """Fit the hyperplanes by online perceptron updates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        coef_init : ndarray of shape (n_outputs, n_features), default=None
        intercept_init : ndarray of shape (n_outputs,), default=None
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self
        """
        self._validate_params()
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64, accept_sparse="csr")
        # the weights grow like X and meet it in x.w: squares must be representable
        check_magnitude(X, self, "decision values", power=2)
        classes, y_idx = encode_labels(y)
        sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64)
        sw = sample_weight * compute_class_weight(self.class_weight, classes, y_idx)[y_idx]
        n, p = X.shape
        K = len(classes)
        n_out = 1 if K == 2 else K
        if n_out == 1:
            Y = np.where(y_idx == 1, 1.0, -1.0)[:, None]
        else:
            Y = -np.ones((n, K))
            Y[np.arange(n), y_idx] = 1.0
        W = np.zeros((n_out, p))
        b = np.zeros(n_out)
        if self.warm_start and hasattr(self, "coef_") and self.coef_.shape == (n_out, p):
            W[:], b[:] = self.coef_, self.intercept_
        if coef_init is not None:
            W[:] = np.asarray(coef_init, dtype=np.float64).reshape(n_out, p)
        if intercept_init is not None:
            b[:] = np.asarray(intercept_init, dtype=np.float64).reshape(n_out)
        if self.algorithm == "online":
            return self._fit_sgd(X, y_idx, classes, sample_weight, W, b, dtype)
        penalty = self.penalty
        rho = {"l1": 1.0, "l2": 0.0, "elasticnet": self.l1_ratio}.get(penalty, 0.0)
        l1 = self.alpha * rho if penalty else 0.0
        l2 = self.alpha * (1.0 - rho) if penalty else 0.0
        rng = check_random_state(self.random_state)
        train = np.arange(n)
        val = None
        if self.early_stopping:
            perm = rng.permutation(n)
            n_val = max(1, int(round(self.validation_fraction * n)))
            if n_val >= n:
                raise ValueError("validation_fraction leaves no training samples.")
            val, train = np.sort(perm[:n_val]), np.sort(perm[n_val:])
        best = np.inf
        best_score = -np.inf
        stall = 0
        epochs = 0
        converged = False
        pocket_loss, pocket = np.inf, None
        Xtr, Ytr, swtr = (X, Y, sw) if val is None else (X[train], Y[train], sw[train])
        while epochs < self.max_iter and not converged:
            before = (W.copy(), b.copy())
            loss, mistakes = _batch_epoch(W, b, Xtr, Ytr, swtr, float(self.eta0), l1, l2,
                                          self.fit_intercept)
            epochs += 1
            if mistakes < pocket_loss:
                pocket_loss, pocket = mistakes, before
            if self.early_stopping:
                scores = X[val] @ W.T + b
                pred = (scores[:, 0] > 0).astype(np.intp) if n_out == 1 else scores.argmax(1)
                score = float(np.mean(pred == y_idx[val]))
                tol = 0.0 if self.tol is None else self.tol
                stall = stall + 1 if score < best_score + tol else 0
                best_score = max(best_score, score)
            elif self.tol is not None:
                stall = stall + 1 if loss > best - self.tol * sw[train].sum() else 0
                best = min(best, loss)
            if (mistakes == 0.0 and not self.early_stopping and l1 == 0 and l2 == 0) or (
                    (self.tol is not None or self.early_stopping)
                    and stall >= self.n_iter_no_change):
                converged = True
        if not converged and self.tol is not None and self.max_iter > 1:
            warnings.warn(
                f"Maximum number of iterations ({self.max_iter}) reached before the "
                "perceptron converged; increase max_iter.",
                ConvergenceWarning,
                stacklevel=2,
            )
        if pocket is not None:
            F = Xtr @ W.T + b
            final = float(np.sum((Ytr * F <= 0.0) * swtr[:, None]))
            if pocket_loss < final:
                W, b = pocket
        self.classes_ = classes
        self.coef_ = W
        self.intercept_ = b if self.fit_intercept else np.zeros(n_out)
        # scikit-learn's SGD keeps float32 weights, and a float32 intercept
        # only for more than two classes (its binary intercept is float64)
        cast_float_attributes(self, dtype, ("coef_", "intercept_") if n_out > 1 else ("coef_",))
        self.n_iter_ = epochs
        self.t_ = float(epochs * train.size + 1)
        return self

    def _sgd_targets(self, y_idx, classes, sample_weight):
        """(Y, SW): per-output targets in {-1, +1} and per-output weights, with
        scikit-learn's class weights (two classes: each class its own; more:
        an output's own class its weight, the other samples 1)."""
        K = len(classes)
        class_w = compute_class_weight(self.class_weight, classes, y_idx)
        if K == 2:
            Y = np.where(y_idx == 1, 1.0, -1.0)[:, None]
            SW = (sample_weight * class_w[y_idx])[:, None]
        else:
            own = y_idx[:, None] == np.arange(K)
            Y = np.where(own, 1.0, -1.0)
            SW = sample_weight[:, None] * np.where(own, class_w[None, :], 1.0)
        return np.ascontiguousarray(Y), np.ascontiguousarray(SW)

    def _sgd_penalty(self):
        rho = {"l1": 1.0, "l2": 0.0, "elasticnet": self.l1_ratio}.get(self.penalty, 0.0)
        return (float(self.eta0), float(self.alpha), float(rho),
                self.penalty in ("l2", "elasticnet"), self.penalty in ("l1", "elasticnet"),
                bool(self.fit_intercept))

    def _fit_sgd(self, X, y_idx, classes, sample_weight, W, b, dtype):
        """The online fit as scikit-learn's SGD runs it (see :meth:`partial_fit`
        for one epoch): every output on its own, stopped on its loss."""
        n = X.shape[0]
        Y, SW = self._sgd_targets(y_idx, classes, sample_weight)
        K = W.shape[0]
        n_iter = np.zeros(K, dtype=np.intp)
        tol = -np.inf if self.tol is None else float(self.tol)
        seeds, val_mask = self._sgd_seeds(K, y_idx, sample_weight)
        val_rows = np.flatnonzero(val_mask)
        arguments = (*_kernel_rows(X), Y, SW, seeds, bool(self.shuffle),
                     int(self.max_iter), tol, int(self.n_iter_no_change),
                     *self._sgd_penalty(), val_mask, val_rows, sample_weight[val_rows], n_iter)
        size = X.nnz if sp.issparse(X) else X.size
        work = K * size * min(int(self.max_iter), _EPOCHS_GUESS)
        threads = min(K, auto_n_jobs(self.n_jobs, work, SMALL_WORK))

        def fit_outputs(first):
            # output k goes to thread k % threads, each with its own intercepts (the
            # outputs' intercepts share a cache line, written at every mistake)
            outputs = np.arange(first, K, threads)
            own_b = b.copy()
            _k.sgd_perceptron_fit(W, own_b, *arguments, outputs)
            return outputs, own_b[outputs]

        for outputs, intercepts in pooled_map(fit_outputs, range(threads), threads):
            b[outputs] = intercepts
        if np.any(n_iter < 0):
            raise ValueError(
                "Floating-point under-/overflow occurred during the perceptron's fit. "
                "Scaling input data with StandardScaler or MinMaxScaler might help."
            )
        self.classes_ = classes
        self.coef_ = W
        self.intercept_ = b if self.fit_intercept else np.zeros(W.shape[0])
        # scikit-learn's SGD keeps float32 weights, and a float32 intercept
        # only for more than two classes (its binary intercept is float64)
        n_out = W.shape[0]
        cast_float_attributes(self, dtype, ("coef_", "intercept_") if n_out > 1 else ("coef_",))
        self.n_iter_ = int(n_iter.max())
        self.t_ = float(self.n_iter_ * n + 1)
        if self.tol is not None and self.n_iter_ == self.max_iter:
            warnings.warn(
                f"Maximum number of iterations ({self.max_iter}) reached before the "
                "perceptron converged; increase max_iter.",
                ConvergenceWarning,
                stacklevel=3,
            )
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch of stochastic gradient descent on the given samples.

        The same pass as scikit-learn's ``Perceptron.partial_fit`` (SGD on the
        perceptron loss, constant learning rate ``eta0``): one visit of every
        sample, one-vs-rest outputs for more than two classes (the class weight
        applies to an output's own class, the other samples keep weight 1),
        penalties applied per sample (L2 as weight decay, L1 as the cumulative
        truncated gradient), and with ``shuffle=True`` the visiting order drawn
        as scikit-learn draws it from ``random_state`` (an int seed gives the
        same order in every call of a given batch size). So the same sequence
        of batches gives scikit-learn's coefficients. Convergence checks and
        early stopping are left to the caller.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            Every class of the whole data; required on the first call, and if
            given later it must be the same.
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self

        Examples
        --------
        >>> import numpy as np
        >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 2.0], [2.0, 3.0]])
        >>> clf = Perceptron(shuffle=False)
        >>> clf = clf.partial_fit(X[:2], [0, 1], classes=[0, 1]).partial_fit(X[2:], [1, 1])
        >>> clf.coef_.tolist(), clf.t_
        ([[0.0, 1.0]], 5.0)
        """
        first_call = not hasattr(self, "classes_")
        if first_call:
            self._validate_params()
            if self.class_weight == "balanced":
                raise ValueError(
                    "class_weight 'balanced' is not supported for partial_fit: the class "
                    "frequencies of the whole data are unknown. Compute the weights on the "
                    "full target (or a large sample of it) and pass them as a dict."
                )
            if self.early_stopping:
                raise ValueError("early_stopping should be False with partial_fit")
        check_partial_fit_classes(self, classes)
        dtype = input_float_dtype(X)
        X, y = validate_data(self, X, y, dtype=np.float64, reset=first_call, accept_sparse="csr")
        y = np.asarray(y)
        classes = self.classes_
        K = len(classes)
        if K < 2:
            raise ValueError(
                f"The number of classes has to be greater than one; got {K} class"
            )
        unknown = np.setdiff1d(y, classes)
        if unknown.size:
            raise ValueError(
                f"y contains labels {unknown.tolist()} that are not in classes {classes.tolist()}."
            )
        y_idx = np.searchsorted(classes, y)
        sw = check_sample_weight(sample_weight, X, dtype=np.float64)
        n, p = X.shape
        n_out = 1 if K == 2 else K
        if getattr(self, "coef_", None) is None:
            self.coef_ = np.zeros((n_out, p))
            self.intercept_ = np.zeros(n_out)
        if not hasattr(self, "t_"):
            self.t_ = 1.0
        Y, SW = self._sgd_targets(y_idx, classes, sw)
        if self.shuffle:
            orders = np.stack([_k.xorshift_order(n, s) for s in self._sgd_seeds(n_out)[0]])
        else:
            orders = np.tile(np.arange(n, dtype=np.intp), (n_out, 1))
        W = np.array(self.coef_, dtype=np.float64, order="C")
        b = np.array(self.intercept_, dtype=np.float64)
        _k.sgd_perceptron_epoch(W, b, *_kernel_rows(X), Y, SW, orders, *self._sgd_penalty())
        self.coef_ = W
        self.intercept_ = b if self.fit_intercept else np.zeros(n_out)
        cast_float_attributes(self, dtype, ("coef_", "intercept_") if n_out > 1 else ("coef_",))
        self.n_iter_ = 1
        self.t_ += n
        return self

    def _sgd_seeds(self, n_out, y_idx=None, sample_weight=None):
        """Shuffling seed of each output (intp (n_out,)) and, with early stopping,
        the validation rows (uint8 mask (n,); else empty), drawn from
        ``random_state`` in scikit-learn's order: for one output, a data-set
        seed, the hold-out, then the shuffling seed from the estimator's
        generator; for several, the hold-out first, then one seed per output,
        each seeding a generator that draws its two numbers."""
        val_mask = np.zeros(0, dtype=np.uint8)
        early = self.early_stopping and y_idx is not None

        def hold_out():
            return _validation_mask(y_idx, float(self.validation_fraction), self.random_state,
                                    sample_weight)

        if early and n_out > 1:
            val_mask = hold_out()
        rng = check_random_state(self.random_state)
        if n_out == 1:
            generators = [rng]
        else:
            generators = [np.random.RandomState(s) for s in rng.randint(_MAX_INT, size=n_out)]
        seeds = np.empty(n_out, dtype=np.intp)
        for k, gen in enumerate(generators):
            gen.randint(1, _MAX_INT)  # scikit-learn's data-set seed (unused by a pass)
            if early and n_out == 1:
                val_mask = hold_out()
            seeds[k] = gen.randint(_MAX_INT)
        return seeds, val_mask
