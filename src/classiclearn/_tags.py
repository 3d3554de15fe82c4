"""Estimator tags: what an estimator accepts and promises, without scikit-learn.

Each estimator describes itself with one :class:`Tags` object returned by
``__classiclearn_tags__``. Mixins fill the estimator type; a class adjusts the
rest by overriding ``__classiclearn_tags__`` and changing fields on the object
its parent returns. :func:`to_sklearn_tags` translates to scikit-learn's tags
dataclasses; it is called only from ``__sklearn_tags__``, which only
scikit-learn calls, so scikit-learn is already imported by then.
"""

import copy
from dataclasses import dataclass, field

__all__ = ["Tags", "get_tags", "to_sklearn_tags"]


@dataclass
class Tags:
    """What an estimator accepts and promises.

    Parameters
    ----------
    estimator_type : {"classifier", "regressor", "transformer", "clusterer", None}
        The kind of estimator.
    requires_y : bool
        Whether ``fit`` needs a target.
    requires_fit : bool
        Whether ``fit`` must run before predicting or transforming.
    multi_output : bool
        Whether a 2-D target is accepted.
    single_output : bool
        Whether a 1-D target is accepted.
    multi_class : bool
        Whether a classifier handles more than two classes.
    multi_label : bool
        Whether a classifier handles multilabel indicator targets.
    poor_score : bool
        Whether the estimator may score poorly on the generic check data.
    positive_only_X : bool
        Whether X must be non-negative.
    positive_only_y : bool
        Whether y must be non-negative.
    allow_nan : bool
        Whether X may contain NaN.
    sparse : bool
        Whether scipy sparse X is accepted.
    pairwise : bool
        Whether X is a square matrix of pairwise kernels or distances.
    transformer : bool
        Whether the estimator has ``transform`` (set by ``TransformerMixin``).
    preserves_dtype : list of str
        Float dtypes that ``transform`` keeps (transformers only).
    non_deterministic : bool
        Whether results vary for a fixed ``random_state``.
    imputes_nan : bool
        Whether ``transform`` replaces missing values, so that steps after it
        in a pipeline never see NaN.
    native_kernels : bool
        Whether the estimator's work runs in compiled kernels that release the
        GIL and want C-contiguous float input: a wrapper fitting many copies
        may then run them in threads and convert X once for all of them.
        True for classiclearn's estimators, False for anything translated from
        scikit-learn's tags.
    linear_decision : bool
        Whether the classifier's ``predict`` is the class of the largest
        linear score ``X @ coef_.T + intercept_`` (for two classes, the sign
        of ``decision_function``), so a wrapper may combine the scores itself.

    Examples
    --------
    >>> Tags(estimator_type="classifier").requires_y
    True
    """

    estimator_type: str | None = None
    requires_y: bool = True
    requires_fit: bool = True
    multi_output: bool = False
    single_output: bool = True
    multi_class: bool = True
    multi_label: bool = False
    poor_score: bool = False
    positive_only_X: bool = False
    positive_only_y: bool = False
    allow_nan: bool = False
    sparse: bool = False
    pairwise: bool = False
    transformer: bool = False
    preserves_dtype: list = field(default_factory=lambda: ["float64"])
    non_deterministic: bool = False
    imputes_nan: bool = False
    native_kernels: bool = False
    linear_decision: bool = False


def get_tags(estimator):
    """Return the :class:`Tags` of an estimator instance, ours or scikit-learn's.

    The one place that reads tags: classiclearn estimators answer with
    ``__classiclearn_tags__``; scikit-learn estimators' tags are translated;
    any other object gets the defaults.

    Parameters
    ----------
    estimator : estimator instance

    Returns
    -------
    tags : Tags
        A fresh object: changing it never changes the estimator's tags.

    Examples
    --------
    >>> from classiclearn.naive_bayes import GaussianNB
    >>> get_tags(GaussianNB()).estimator_type
    'classifier'
    """
    if hasattr(estimator, "__classiclearn_tags__"):
        # the fields are plain values but one list: a shallow copy and a new list make
        # the copy independent (a deep copy costs far more, and every predict asks)
        tags = copy.copy(estimator.__classiclearn_tags__())
        tags.preserves_dtype = list(tags.preserves_dtype)
        return tags
    if hasattr(estimator, "__sklearn_tags__"):
        try:
            return _tags_from_sklearn(estimator.__sklearn_tags__())
        except AttributeError:  # an estimator with tags of an older form
            pass
    return Tags()


def _tags_from_sklearn(sk):
    """Our Tags from a scikit-learn ``Tags`` object."""
    kind = sk.estimator_type
    tags = Tags(
        estimator_type=kind if kind is not None or sk.transformer_tags is None
        else "transformer",
        requires_y=sk.target_tags.required,
        requires_fit=sk.requires_fit,
        multi_output=sk.target_tags.multi_output,
        single_output=sk.target_tags.single_output,
        positive_only_y=sk.target_tags.positive_only,
        allow_nan=sk.input_tags.allow_nan,
        sparse=sk.input_tags.sparse,
        pairwise=sk.input_tags.pairwise,
        positive_only_X=sk.input_tags.positive_only,
        transformer=sk.transformer_tags is not None,
        non_deterministic=sk.non_deterministic,
    )
    if sk.transformer_tags is not None:
        tags.preserves_dtype = list(sk.transformer_tags.preserves_dtype)
    if sk.classifier_tags is not None:
        tags.poor_score = sk.classifier_tags.poor_score
        tags.multi_class = sk.classifier_tags.multi_class
        tags.multi_label = sk.classifier_tags.multi_label
    if sk.regressor_tags is not None:
        tags.poor_score = sk.regressor_tags.poor_score
    return tags


def to_sklearn_tags(tags):
    """Translate our :class:`Tags` into scikit-learn's ``Tags`` dataclass.

    Parameters
    ----------
    tags : Tags
        Our tags.

    Returns
    -------
    sklearn.utils.Tags
        The same facts in scikit-learn's form.
    """
    from sklearn.utils import (
        ClassifierTags,
        InputTags,
        RegressorTags,
        TargetTags,
        TransformerTags,
    )
    from sklearn.utils import Tags as SkTags

    kind = tags.estimator_type
    return SkTags(
        estimator_type=kind if kind != "transformer" else None,
        target_tags=TargetTags(
            required=tags.requires_y,
            positive_only=tags.positive_only_y,
            multi_output=tags.multi_output,
            single_output=tags.single_output,
        ),
        transformer_tags=(
            TransformerTags(preserves_dtype=list(tags.preserves_dtype))
            if tags.transformer
            else None
        ),
        classifier_tags=(
            ClassifierTags(
                poor_score=tags.poor_score,
                multi_class=tags.multi_class,
                multi_label=tags.multi_label,
            )
            if kind == "classifier"
            else None
        ),
        regressor_tags=RegressorTags(poor_score=tags.poor_score) if kind == "regressor" else None,
        non_deterministic=tags.non_deterministic,
        requires_fit=tags.requires_fit,
        input_tags=InputTags(
            sparse=tags.sparse,
            allow_nan=tags.allow_nan,
            positive_only=tags.positive_only_X,
            pairwise=tags.pairwise,
        ),
    )
