"""Estimator tags: what an estimator accepts and promises, without scikit-learn.

Each estimator describes itself with one :class:`Tags` object returned by
``__classiclearn_tags__``. Mixins fill the estimator type; a class adjusts the
rest by overriding ``__classiclearn_tags__`` and changing fields on the object
its parent returns. :func:`to_sklearn_tags` translates to scikit-learn's tags
dataclasses; it is called only from ``__sklearn_tags__``, which only
scikit-learn calls, so scikit-learn is already imported by then.
"""

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


def get_tags(estimator):
    """Return the :class:`Tags` of an estimator instance.

    Parameters
    ----------
    estimator : estimator instance
        Any classiclearn estimator.

    Returns
    -------
    tags : Tags
    """
    return estimator.__classiclearn_tags__()


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
