"""Where our trees may differ from scikit-learn's at the level of round-off.

The random splitter sums regression targets (one output, unit weights) in the node's
sample order without partitioning per candidate; scikit-learn sums them in the order
its partition of the previous candidate left. Two candidates that split a node into
the same two sets (on two features, or as mirror images: {a} | {b, c} on one
feature, {b, c} | {a} on another) then tie to the round-off, which decides
differently: the trees differ there and below, equally good (the same training
partition, another feature or threshold). Such ties live in small nodes; from this
many samples per leaf the parity tests' data hold none, so their trees equal
scikit-learn's node for node.
"""

RANDOM_REGRESSION_LEAF = 4
