"""The decision function shared by every linear classifier.

``X @ coef_.T + intercept_``, its sign or argmax as the prediction, the
validation of X that keeps float32 and the check that the product did not
overflow: the linear models, ``LinearSVC`` and ``LinearDiscriminantAnalysis``
all predict through :class:`LinearClassifierMixin`. An estimator may compute
the product its own way (``_linear_product``) where a layout is measurably
faster for its shapes.
"""

import inspect
from contextlib import nullcontext

import numpy as np
import scipy.sparse as sp

from .._kernels.work import BLAS_THREADED_PRODUCT
from ._sparse import csr_dot_dense, csr_dot_vector
from ._threads import blas_single_thread
from .validation import FLOAT_DTYPES, check_array, check_is_fitted, surely_finite, validate_data

__all__ = ["LinearClassifierMixin", "finite_linear_output", "linear_product",
           "stacked_decision_functions", "validate_predict_X"]


def validate_predict_X(est, X):
    """Validate X for prediction, with a cheap finiteness test.

    float32 input stays float32, so a model fitted in float32 predicts in
    float32 (as scikit-learn's). Dense X: one summing pass proves it finite
    without an n x p temporary; only when it does not is the full check (and
    its standard error message) run. Sparse X is not read here: its product
    multiplies every stored entry (no entry is skipped, whatever its
    coefficient), so a NaN or an infinity shows in the output, which
    :func:`finite_linear_output` checks and then traces back to X; a CSR X
    that needs no conversion is returned as it is, without the validation's re-wrap.
    """
    sparse = getattr(est, "_sparse_input", False) and "csr"
    if sparse and _ready_csr(est, X):
        return X
    X = validate_data(est, X, reset=False, dtype=FLOAT_DTYPES, ensure_all_finite=False,
                      order=None, accept_sparse=sparse)
    # a dense product runs on BLAS, which may skip zero coefficients' columns
    if not sp.issparse(X) and not surely_finite(X, numba_next=False):
        check_array(X, dtype=FLOAT_DTYPES, estimator=est)
    return X


def _ready_csr(est, X):
    """Whether X is a CSR matrix or array the product can take as it is: float64 or
    float32 values, at least one row, the fitted number of columns and no fitted
    feature names (whose absence validation would warn about). Validating such an X
    would only re-wrap it; its entries are checked through the output."""
    return (sp.issparse(X) and X.format == "csr" and X.ndim == 2
            and X.dtype in (np.float64, np.float32) and X.shape[0] > 0
            and X.shape[1] == getattr(est, "n_features_in_", -1)
            and not hasattr(est, "feature_names_in_"))

# outputs (rows of coefficients) up to which a dense product with X is memory-bound
THIN_PRODUCT_OUTPUTS = 16


def linear_product(X, coef):
    """``X @ coef.T`` for validated X and ``coef`` of shape (p,) or (K, p).

    CSR X goes through :func:`classiclearn.utils._sparse.csr_dot_vector` (one row
    of coefficients) or :func:`~classiclearn.utils._sparse.csr_dot_dense` (several):
    scipy's sums, in numba's threads; anything else through ``@``, on one BLAS
    thread when there are at most :data:`THIN_PRODUCT_OUTPUTS` outputs.
    """
    if sp.issparse(X) and X.format == "csr" and X.dtype == np.float64:
        if coef.ndim == 1 or coef.shape[0] == 1:
            out = csr_dot_vector(X, coef.ravel())
            return out if coef.ndim == 1 else out[:, None]
        return csr_dot_dense(X, coef.T)
    n_outputs = 1 if coef.ndim == 1 else coef.shape[0]
    thin = (n_outputs <= THIN_PRODUCT_OUTPUTS and not sp.issparse(X)
            and X.shape[0] * X.shape[1] * n_outputs >= BLAS_THREADED_PRODUCT)
    # a thin product is memory-bound: BLAS's threads gain little, and would spin
    # afterwards, taking the cores from the numba pool of whatever runs next
    with blas_single_thread() if thin else nullcontext():
        return X @ coef.T


def finite_linear_output(est, out, X):
    """``out`` (``X @ coef_.T + intercept_``), or a ValueError: naming a NaN or an
    infinity of a sparse X (not checked before the product), else saying that
    |x| times |coef| went past the floating-point range (a dense X was checked)."""
    with np.errstate(invalid="ignore"):
        finite = np.isfinite(out).all()
    if not finite:
        if sp.issparse(X):  # not checked before the product: name a bad entry first
            check_array(X, dtype=FLOAT_DTYPES, estimator=est, accept_sparse=X.format)
        raise ValueError(
            f"The linear outputs of {type(est).__name__} overflow on X (max |x| = "
            f"{np.abs(X).max():.3g} with max |coef| = {np.abs(est.coef_).max():.3g}); "
            "scale the features (e.g. with StandardScaler)."
        )
    return out


class LinearClassifierMixin:
    """Decision function and prediction of linear classifiers.

    Expects ``coef_`` of shape (1, p) for two classes (the positive class is
    ``classes_[1]``) or (K, p), ``intercept_`` and ``classes_``.
    """

    # whether fit and predict take scipy sparse input (CSR); the ``sparse`` tag
    _sparse_input = False

    def __classiclearn_tags__(self):
        tags = super().__classiclearn_tags__()
        tags.linear_decision = True
        tags.sparse = self._sparse_input
        return tags

    def decision_function(self, X):
        """Signed distance to the decision boundary, per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) for two classes, else (n_samples, n_classes)
        """
        check_is_fitted(self)
        X = validate_predict_X(self, X)
        scores = _scores_with_intercept(self, X, self._linear_product, self.intercept_)
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def _linear_product(self, X):
        """``X @ coef_.T`` as a new (n_samples, n_outputs) array."""
        return linear_product(X, np.atleast_2d(self.coef_))

    def predict(self, X):
        """Predict the class of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]


def stacked_decision_functions(estimators, X):
    """The decision functions of fitted binary linear classifiers of one class (ours,
    predicting by ``LinearClassifierMixin``) as the columns of one product ``X @ W.T +
    b``: X validated once and read once, instead of once per classifier. None when
    the estimators do not qualify (another class, a constant predictor, several
    classes each, their own ``_linear_product``): the caller then asks each one.
    The scores equal the per-classifier ones up to the product's rounding.
    """
    if not estimators:
        return None
    first = estimators[0]
    cls = type(first)
    mixin = LinearClassifierMixin
    if not (issubclass(cls, mixin) and cls._linear_product is mixin._linear_product
            and inspect.unwrap(cls.decision_function) is mixin.decision_function):
        return None  # (the estimators' methods are wrapped for Dask input)
    coefs = []
    for est in estimators:
        coef = getattr(est, "coef_", None)
        if type(est) is not cls or coef is None or np.ndim(coef) != 2 or coef.shape[0] != 1:
            return None
        coefs.append(coef)
    W = np.concatenate(coefs)
    b = np.array([np.ravel(est.intercept_)[0] for est in estimators], dtype=np.float64)
    X = validate_predict_X(first, X)
    return _scores_with_intercept(first, X, lambda X_: linear_product(X_, W), b)


def _scores_with_intercept(est, X, product, intercept):
    """``product(X) + intercept`` for validated X, its overflow checked by
    :func:`finite_linear_output` (``est`` names the model in the error)."""
    with np.errstate(over="ignore", invalid="ignore"):
        scores = product(X)
        scores += intercept
    return finite_linear_output(est, scores, X)
