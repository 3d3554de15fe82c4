"""The four public forests (seed 000 §11.2 random forests, §11.3 extra trees)."""

from ..utils._params import StrOptions
from ._forest import _CONSTRAINTS, _ForestClassifier, _ForestRegressor

__all__ = [
    "ExtraTreesClassifier",
    "ExtraTreesRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]


class RandomForestClassifier(_ForestClassifier):
    """A random forest classifier: bootstrap samples and random feature subsets (§11.2).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : str, default='gini'
        Split criterion of the trees ({"gini", "entropy", "log_loss", "misclassification"}).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
max_leaf_nodes, min_impurity_decrease, ccp_alpha
        Growth limits and pruning of each tree, as in
        :class:`~classiclearn.tree.DecisionTreeClassifier`.
    max_features : int, float, {"sqrt", "log2"} or None, default='sqrt'
        Candidate features drawn at each split.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (as integer sample weights).
    oob_score : bool or callable, default=False
        Score the forest on the out-of-bag samples (accuracy / R², or
        ``oob_score(y_true, y_pred)``); needs ``bootstrap=True``.
    n_jobs : int, default=None
        Threads growing trees and predicting; -1 uses all cores; None lets
        the library choose (all cores for large forests, one for small ones).
        The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds of the bootstrap samples and of the trees.
    verbose : int, default=0
        Accepted for compatibility; nothing is printed.
    warm_start : bool, default=False
        Keep the fitted trees and add ``n_estimators - len(estimators_)``.
    class_weight : dict, list of dict, "balanced", "balanced_subsample" or None, default=None
        Class weights; "balanced_subsample" recomputes the balanced weights on
        each bootstrap sample.
    voting : {{"soft", "hard"}}, default="soft"
        "soft" averages the trees' class probabilities; "hard" counts each
        tree's vote (§11.2) and ``predict_proba`` returns vote fractions.
    max_samples : int or float, default=None
        Size of each bootstrap sample (count or fraction of n_samples).
    max_bins : int in [2, 255] or None, default=None
        Histogram splitter: features binned once into at most ``max_bins``
        bins, shared by all trees. Nodes of fewer than 128 samples are split on
        raw values; the random splitter (ExtraTrees) draws its thresholds between
        bins, without histograms.
    monotonic_cst : array-like of int of shape (n_features,), default=None
        Monotonicity constraint per feature: 1 increasing, -1 decreasing, 0
        none (as scikit-learn's; binary classification constrains the
        probability of the positive class; not with multiple outputs, more
        than two classes or ``criterion="absolute_error"``).

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
        The fitted trees.
    estimator_ : DecisionTreeClassifier
        The unfitted template of the trees.
    classes_ : ndarray or list of ndarray
    n_classes_ : int or ndarray
    n_outputs_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        Only with ``oob_score``.
    oob_decision_function_ : ndarray
        Out-of-bag class probabilities; only with ``oob_score``.
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    See Also
    --------
    ExtraTreesClassifier, classiclearn.tree.DecisionTreeClassifier

    Examples
    --------
    >>> from classiclearn.ensemble import RandomForestClassifier
    >>> X = [[0.0], [1.0], [2.0], [3.0]] * 5
    >>> clf = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, [0, 0, 1, 1] * 5)
    >>> clf.predict([[0.2], [2.9]]).tolist()
    [0, 1]
    """

    _splitter = "best"
    _parameter_constraints = {
        **_CONSTRAINTS,
        "criterion": [StrOptions({"gini", "entropy", "log_loss", "misclassification"})],
        "class_weight": [dict, list, StrOptions({"balanced", "balanced_subsample"}), None],
        "voting": [StrOptions({"soft", "hard"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features="sqrt",
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=True,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        class_weight=None,
        ccp_alpha=0.0,
        max_samples=None,
        voting="soft",
        max_bins=None,
        monotonic_cst=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.voting = voting
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst


class RandomForestRegressor(_ForestRegressor):
    """A random forest regressor: bootstrap samples and random feature subsets (§11.2).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : str, default='squared_error'
        Split criterion of the trees ({"squared_error", "friedman_mse", "absolute_error",
        "poisson"}).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
max_leaf_nodes, min_impurity_decrease, ccp_alpha
        Growth limits and pruning of each tree, as in
        :class:`~classiclearn.tree.DecisionTreeRegressor`.
    max_features : int, float, {"sqrt", "log2"} or None, default=1.0
        Candidate features drawn at each split.
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample (as integer sample weights).
    oob_score : bool or callable, default=False
        Score the forest on the out-of-bag samples (accuracy / R², or
        ``oob_score(y_true, y_pred)``); needs ``bootstrap=True``.
    n_jobs : int, default=None
        Threads growing trees and predicting; -1 uses all cores; None lets
        the library choose (all cores for large forests, one for small ones).
        The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds of the bootstrap samples and of the trees.
    verbose : int, default=0
        Accepted for compatibility; nothing is printed.
    warm_start : bool, default=False
        Keep the fitted trees and add ``n_estimators - len(estimators_)``.
    max_samples : int or float, default=None
        Size of each bootstrap sample (count or fraction of n_samples).
    max_bins : int in [2, 255] or None, default=None
        Histogram splitter: features binned once into at most ``max_bins``
        bins, shared by all trees. Nodes of fewer than 128 samples are split on
        raw values; the random splitter (ExtraTrees) draws its thresholds between
        bins, without histograms.
    monotonic_cst : array-like of int of shape (n_features,), default=None
        Monotonicity constraint per feature: 1 increasing, -1 decreasing, 0
        none (as scikit-learn's; binary classification constrains the
        probability of the positive class; not with multiple outputs, more
        than two classes or ``criterion="absolute_error"``).

    Attributes
    ----------
    estimators_ : list of DecisionTreeRegressor
        The fitted trees.
    estimator_ : DecisionTreeRegressor
        The unfitted template of the trees.
    n_outputs_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        Only with ``oob_score``.
    oob_prediction_ : ndarray
        Out-of-bag predictions; only with ``oob_score``.
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    See Also
    --------
    ExtraTreesRegressor, classiclearn.tree.DecisionTreeRegressor

    Examples
    --------
    >>> from classiclearn.ensemble import RandomForestRegressor
    >>> X = [[0.0], [1.0], [2.0], [3.0]] * 5
    >>> reg = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, [1.0, 1.0, 3.0, 3.0] * 5)
    >>> reg.predict([[0.2], [2.9]]).round(6).tolist()
    [1.0, 3.0]
    """

    _splitter = "best"
    _parameter_constraints = {
        **_CONSTRAINTS,
        "criterion": [StrOptions({"squared_error", "friedman_mse", "absolute_error",
                                  "poisson"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=1.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=True,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        ccp_alpha=0.0,
        max_samples=None,
        max_bins=None,
        monotonic_cst=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst


class ExtraTreesClassifier(_ForestClassifier):
    """Extremely randomized trees for classification: one random threshold per candidate feature (§11.3).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : str, default='gini'
        Split criterion of the trees ({"gini", "entropy", "log_loss", "misclassification"}).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
max_leaf_nodes, min_impurity_decrease, ccp_alpha
        Growth limits and pruning of each tree, as in
        :class:`~classiclearn.tree.DecisionTreeClassifier`.
    max_features : int, float, {"sqrt", "log2"} or None, default='sqrt'
        Candidate features drawn at each split.
    bootstrap : bool, default=False
        Grow each tree on a bootstrap sample (as integer sample weights).
    oob_score : bool or callable, default=False
        Score the forest on the out-of-bag samples (accuracy / R², or
        ``oob_score(y_true, y_pred)``); needs ``bootstrap=True``.
    n_jobs : int, default=None
        Threads growing trees and predicting; -1 uses all cores; None lets
        the library choose (all cores for large forests, one for small ones).
        The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds of the bootstrap samples and of the trees.
    verbose : int, default=0
        Accepted for compatibility; nothing is printed.
    warm_start : bool, default=False
        Keep the fitted trees and add ``n_estimators - len(estimators_)``.
    class_weight : dict, list of dict, "balanced", "balanced_subsample" or None, default=None
        Class weights; "balanced_subsample" recomputes the balanced weights on
        each bootstrap sample.
    voting : {{"soft", "hard"}}, default="soft"
        "soft" averages the trees' class probabilities; "hard" counts each
        tree's vote (§11.2) and ``predict_proba`` returns vote fractions.
    max_samples : int or float, default=None
        Size of each bootstrap sample (count or fraction of n_samples).
    max_bins : int in [2, 255] or None, default=None
        Histogram splitter: features binned once into at most ``max_bins``
        bins, shared by all trees. Nodes of fewer than 128 samples are split on
        raw values; the random splitter (ExtraTrees) draws its thresholds between
        bins, without histograms.
    monotonic_cst : array-like of int of shape (n_features,), default=None
        Monotonicity constraint per feature: 1 increasing, -1 decreasing, 0
        none (as scikit-learn's; binary classification constrains the
        probability of the positive class; not with multiple outputs, more
        than two classes or ``criterion="absolute_error"``).

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
        The fitted trees.
    estimator_ : DecisionTreeClassifier
        The unfitted template of the trees.
    classes_ : ndarray or list of ndarray
    n_classes_ : int or ndarray
    n_outputs_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        Only with ``oob_score``.
    oob_decision_function_ : ndarray
        Out-of-bag class probabilities; only with ``oob_score``.
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    See Also
    --------
    RandomForestClassifier

    Examples
    --------
    >>> from classiclearn.ensemble import ExtraTreesClassifier
    >>> X = [[0.0], [1.0], [2.0], [3.0]] * 5
    >>> clf = ExtraTreesClassifier(n_estimators=10, random_state=0).fit(X, [0, 0, 1, 1] * 5)
    >>> clf.predict([[0.2], [2.9]]).tolist()
    [0, 1]
    """

    _splitter = "random"
    _parameter_constraints = {
        **_CONSTRAINTS,
        "criterion": [StrOptions({"gini", "entropy", "log_loss", "misclassification"})],
        "class_weight": [dict, list, StrOptions({"balanced", "balanced_subsample"}), None],
        "voting": [StrOptions({"soft", "hard"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features="sqrt",
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=False,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        class_weight=None,
        ccp_alpha=0.0,
        max_samples=None,
        voting="soft",
        max_bins=None,
        monotonic_cst=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.class_weight = class_weight
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.voting = voting
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst


class ExtraTreesRegressor(_ForestRegressor):
    """Extremely randomized trees for regression: one random threshold per candidate feature (§11.3).

    Parameters
    ----------
    n_estimators : int, default=100
        Number of trees.
    criterion : str, default='squared_error'
        Split criterion of the trees ({"squared_error", "friedman_mse", "absolute_error",
        "poisson"}).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, \
max_leaf_nodes, min_impurity_decrease, ccp_alpha
        Growth limits and pruning of each tree, as in
        :class:`~classiclearn.tree.DecisionTreeRegressor`.
    max_features : int, float, {"sqrt", "log2"} or None, default=1.0
        Candidate features drawn at each split.
    bootstrap : bool, default=False
        Grow each tree on a bootstrap sample (as integer sample weights).
    oob_score : bool or callable, default=False
        Score the forest on the out-of-bag samples (accuracy / R², or
        ``oob_score(y_true, y_pred)``); needs ``bootstrap=True``.
    n_jobs : int, default=None
        Threads growing trees and predicting; -1 uses all cores; None lets
        the library choose (all cores for large forests, one for small ones).
        The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds of the bootstrap samples and of the trees.
    verbose : int, default=0
        Accepted for compatibility; nothing is printed.
    warm_start : bool, default=False
        Keep the fitted trees and add ``n_estimators - len(estimators_)``.
    max_samples : int or float, default=None
        Size of each bootstrap sample (count or fraction of n_samples).
    max_bins : int in [2, 255] or None, default=None
        Histogram splitter: features binned once into at most ``max_bins``
        bins, shared by all trees. Nodes of fewer than 128 samples are split on
        raw values; the random splitter (ExtraTrees) draws its thresholds between
        bins, without histograms.
    monotonic_cst : array-like of int of shape (n_features,), default=None
        Monotonicity constraint per feature: 1 increasing, -1 decreasing, 0
        none (as scikit-learn's; binary classification constrains the
        probability of the positive class; not with multiple outputs, more
        than two classes or ``criterion="absolute_error"``).

    Attributes
    ----------
    estimators_ : list of DecisionTreeRegressor
        The fitted trees.
    estimator_ : DecisionTreeRegressor
        The unfitted template of the trees.
    n_outputs_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        Only with ``oob_score``.
    oob_prediction_ : ndarray
        Out-of-bag predictions; only with ``oob_score``.
    n_features_in_ : int
    feature_names_in_ : ndarray, only with string column names

    Notes
    -----
    With the same ``random_state`` the trees draw the same features and thresholds as
    scikit-learn's. Without sample weights the targets left of each threshold are
    summed in the node's sample order, not in the order scikit-learn's partitioning
    leaves (which this splitter skips), so two candidates splitting a node into the
    same two sets may tie to the round-off and be chosen differently: the trees then
    differ from that node down, equally good. Small nodes of a few samples hold such
    ties; with ``min_samples_leaf >= 4`` the parity tests' trees equal scikit-learn's
    node for node.

    See Also
    --------
    RandomForestRegressor

    Examples
    --------
    >>> from classiclearn.ensemble import ExtraTreesRegressor
    >>> X = [[0.0], [1.0], [2.0], [3.0]] * 5
    >>> reg = ExtraTreesRegressor(n_estimators=10, random_state=0).fit(X, [1.0, 1.0, 3.0, 3.0] * 5)
    >>> reg.predict([[0.2], [2.9]]).round(6).tolist()
    [1.0, 3.0]
    """

    _splitter = "random"
    _parameter_constraints = {
        **_CONSTRAINTS,
        "criterion": [StrOptions({"squared_error", "friedman_mse", "absolute_error",
                                  "poisson"})],
    }

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        max_features=1.0,
        max_leaf_nodes=None,
        min_impurity_decrease=0.0,
        bootstrap=False,
        oob_score=False,
        n_jobs=None,
        random_state=None,
        verbose=0,
        warm_start=False,
        ccp_alpha=0.0,
        max_samples=None,
        max_bins=None,
        monotonic_cst=None,
    ):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.ccp_alpha = ccp_alpha
        self.max_samples = max_samples
        self.max_bins = max_bins
        self.monotonic_cst = monotonic_cst
