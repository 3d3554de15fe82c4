"""check_estimator settings for classiclearn.naive_bayes."""

CHECK_PARAMS = {
    "BernoulliNB": [{}, {"binarize": 0.5, "alpha": 0.5, "fit_prior": False}],
    "KernelDensityNB": [{}, {"algorithm": "binned", "grid_size": 256, "bandwidth": "silverman"}],
}

EXPECTED_FAILURES = {}
