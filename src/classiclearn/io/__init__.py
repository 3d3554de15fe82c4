"""Safe, versioned model files: save a fitted estimator, load it back.

A model file is a zip archive holding JSON (the format name and version, the
library version, the estimator's class and parameters, its fitted state) and
``.npy`` arrays read with ``allow_pickle=False``. Loading never unpickles and
never imports a name taken from the file: a class name in the file is looked
up in a table of classiclearn's own registered estimators. A SHA-256 digest of
the content detects truncation and tampering. The layout is described in
``FORMAT.md`` next to this module.

Examples
--------
>>> import os, tempfile
>>> from classiclearn.naive_bayes import GaussianNB
>>> model = GaussianNB().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
>>> path = os.path.join(tempfile.mkdtemp(), "nb.clm")
>>> save_model(model, path)
>>> load_model(path).predict([[0.2], [2.9]])
array([0, 1])
"""

from ._format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    ModelFileError,
    UnsupportedEstimatorError,
    load_model,
    read_model_info,
    save_model,
)

save = save_model
load = load_model

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ModelFileError",
    "UnsupportedEstimatorError",
    "load",
    "load_model",
    "read_model_info",
    "save",
    "save_model",
]
