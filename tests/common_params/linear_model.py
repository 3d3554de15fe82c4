"""check_estimator settings for classiclearn.linear_model (no expected failures).

Perceptron is checked in batch mode: online updates cannot make a sample of
weight 2 equal to the sample repeated (the second copy is seen after the first
update), which check_sample_weight_equivalence_on_dense_data asks for; the
online mode is tested in tests/linear_model/test_linear_perceptron.py.
"""

CHECK_PARAMS = {
    "Perceptron": {"max_iter": 200, "tol": None, "algorithm": "batch"},
}

EXPECTED_FAILURES = {}
