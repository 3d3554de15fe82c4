"""The posterior side shared by the naive Bayes classifiers.

Each model provides ``predict_joint_log_proba`` (log P(k) + log P(x | k));
Bayes' rule turns it into the class, the log-posterior and the posterior.
"""

import numpy as np

__all__ = ["PosteriorMixin"]


class PosteriorMixin:
    """``predict``, ``predict_log_proba`` and ``predict_proba`` from a joint log-likelihood."""

    def predict(self, X):
        """Most probable class of each sample.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        jll = self.predict_joint_log_proba(X)
        return self.classes_[np.argmax(jll, axis=1)]

    def predict_log_proba(self, X):
        """Log of the posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        jll = self.predict_joint_log_proba(X)
        return jll - _log_sum_exp_rows(jll)

    def predict_proba(self, X):
        """Posterior class probabilities.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.exp(self.predict_log_proba(X))


def _log_sum_exp_rows(jll):
    """log Σ_k exp(jll[:, k]) for each row, shifted by the row maximum (kept as a
    column); a row that is -inf throughout gives -inf."""
    top = jll.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.exp(jll - top).sum(axis=1, keepdims=True)) + top
