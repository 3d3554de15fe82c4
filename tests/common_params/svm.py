"""check_estimator settings of the svm family (no expected failures).

A tight ``tol`` makes the dual solution exact enough for the sample-weight
equivalence check (weight 2 versus the row repeated), which compares
decision values to 1e-7 relative; at the default ``tol=1e-3`` the two fits
stop at different, equally valid points. ``gamma="auto"`` because the default
``gamma="scale"`` (as in scikit-learn) reads the unweighted variance of X,
which changes when rows are repeated.
"""

CHECK_PARAMS = {
    "SVC": {"tol": 1e-10, "gamma": "auto"},
    "SVR": {"tol": 1e-10, "gamma": "auto"},
    "LinearSVC": {"tol": 1e-10, "max_iter": 100000},
}
EXPECTED_FAILURES = {}
