"""Per-family settings for tests/test_common.py.

Each module here (one per family, e.g. ``linear_model.py``) may define

- ``CHECK_PARAMS``: estimator class name -> dict of constructor keyword
  arguments for a fast instance in scikit-learn's ``check_estimator`` (values
  may be estimator instances, e.g. for meta-estimators); a value that is a list
  of dicts runs the checks once per dict;
- ``EXPECTED_FAILURES``: estimator class name -> {check name: reason}. This
  is debt: every entry needs a reason, and ``xfail_strict`` makes a fixed
  check fail until its entry is removed.
"""
