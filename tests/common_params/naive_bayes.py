"""check_estimator settings for classiclearn.naive_bayes."""

CHECK_PARAMS = {
    "BernoulliNB": [{}, {"binarize": 0.5, "alpha": 0.5, "fit_prior": False}],
    "CategoricalNB": [{}, {"alpha": 0.5, "min_categories": 3, "fit_prior": False}],
    "GaussianNB": [{}, {"variance": "per_class"}, {"variance": "scalar"}],
    "ComplementNB": [{}, {"norm": True, "alpha": 0.5}],
    "KernelDensityNB": [{}, {"algorithm": "binned", "grid_size": 256, "bandwidth": "silverman"}],
    "MultinomialNB": [{}, {"alpha": 0.5, "fit_prior": False, "class_prior": None}],
}

EXPECTED_FAILURES = {}
