"""The one table of thread thresholds: how much work a pass needs before threads pay.

Starting or waking a thread pool costs more than it saves on small passes (on
a loaded machine, far more), so every parallel path runs on the calling
thread below its threshold here. Results never depend on the thread count, so
these numbers change speed only. Kernel modules read them directly; estimator
code through :mod:`classiclearn.utils._threads`. The measurements behind them
are in ``benchmarks/constants.md``.
"""

# multiply-adds of one numba ``prange`` pass (k-means, mixtures, scalers, ...)
NUMBA_PASS_WORK = 4_000_000
# an iterative loop of smaller passes (k-means' Lloyd or Elkan passes) starts on one
# thread and runs its passes in threads once the passes it has run add up to
# LOOP_WORK, if each is at least LOOP_PASS_WORK: waking an idle pool (on a virtual
# machine, a second vCPU woken after idle time) costs about what the loop has run by
# then, and back-to-back passes keep the pool awake
LOOP_WORK = 4 * NUMBA_PASS_WORK
# the same for dense Lloyd passes, whose BLAS dot products run several times the
# multiply-adds per second of the other passes: LOOP_WORK of them is a fraction of a
# pool's wake, and a short loop that went threaded then paid more than it saved
DENSE_LOOP_WORK = 16 * NUMBA_PASS_WORK
# a dense Lloyd pass of at least this much runs in threads from the loop's first pass
# (other passes: from NUMBA_PASS_WORK): below, the threaded passes of a fit stalled
# now and then, and one thread was faster on average (KMeans at 7.2 M a pass; threads
# won from 14.4 M)
DENSE_LOOP_PASS_THREADED = 3 * NUMBA_PASS_WORK
# (passes of at least LOOP_PASS_WORK: below, the threaded tail of a loop stalled now and
# then and one thread was faster on average, KMeans elkan at 0.8 M a pass)
LOOP_PASS_WORK = NUMBA_PASS_WORK // 2
# entries of X (stored entries of a sparse X) per lane of a pass over its rows (the
# lanes, fixed by X alone, run in threads and are added in order; see
# sparse_products.row_lanes); X with fewer than two lanes' worth is passed on one thread
ROW_LANE_ENTRIES = 64_000
# stored entries of a CSR X from which its conversion to columns (a counting sort) runs in
# two lanes on pooled threads; with many columns (CSC_LANES_WIDE or more) from a quarter
# of that, its scattered writes being slower on one thread (benchmarks/constants.md)
CSC_LANE_ENTRIES = 640_000
CSC_LANES_WIDE = 1000
# multiply-adds (n p^2) of the blocked X'X pass of the linear models and PCA
GRAM_PASS_WORK = 20_000_000
# rows below which a blocked pass over row blocks (utils._threads.blocked_row_sums)
# stays on the calling thread: starting the pool and handing over a few blocks
# cost more than they save
BLOCKED_ROWS_THREADED = 16_384
# multiply-adds of one SVM kernel-row segment computed in parallel
KERNEL_ROW_WORK = 2_000_000
# kernel values (an exp or a tanh each, about ten multiply-adds) turned from dot
# products in one pass, above which blocks of rows are computed in parallel
KERNEL_VALUE_ENTRIES = NUMBA_PASS_WORK // 8
# multiply-adds (sum over the one-vs-one problems of n_pair^2 x n_features, the
# kernel rows of a full solve) from which SVC solves its problems in threads
SVM_PAIRS_WORK = NUMBA_PASS_WORK
# entries (n x p) of X from which a multiclass wrapper fits its binary
# problems in threads when ``n_jobs`` is None
WRAPPER_ENTRIES = 100_000
# entries of X times binary models from which a multiclass wrapper predicts with
# its models in threads (a prediction costs about one multiply-add per entry)
WRAPPER_PREDICT_ENTRIES = 20_000_000
# splitter visits of one tree (rows x log2 rows x features tried per node: about
# what growing it reads) from which a forest grows its trees in threads; below it
# each tree's Python part (holding the GIL) costs about what the tree's kernel does,
# and a second thread gains nothing
FOREST_TREE_WORK = 20_000
# rows from which one tree's walk is split over threads: a second thread woken from
# idle (a virtual machine's idle core) may take longer to start than a walk of half
# this many rows takes on one thread
TREE_WALK_ROWS = 100_000
# values binned (histogram trees) from which the rows are split over threads; a
# smaller binning pass is short on one thread
BIN_VALUES_THREADED = 250_000
# queries a KD / ball tree answers on the calling thread before it decides whether
# the rest of a pass runs in threads, and the work of the rest (training points and
# nodes compared, times features, estimated from those first queries) from which it
# does: about what waking the pool may cost after idle, run on one thread
TREE_QUERY_PROBE = 16
TREE_QUERY_WORK = 1_000_000
# fewest query rows handed to one thread by brute-force neighbours
BRUTE_QUERY_ROWS = 256
# multiply-adds of one BLAS product above which OpenBLAS itself starts threads
# (the scatter products of LDA/QDA stay below it, block by block)
BLAS_THREADED_PRODUCT = 200_000
# entries of a matrix above which a matrix-vector product may gain from BLAS's threads
# (an iterative solver's steps on a dense design: L-BFGS-B); below it one BLAS thread
# runs them faster, and BLAS's threads would spin between the steps
BLAS_THREADED_MATVEC = 50_000_000
# length of a vector dot product above which OpenBLAS runs it in its threads
# (which then spin for a while, taking the cores from numba's pool); validation's
# pass over X sums its squares on numba's pool above it
BLAS_THREADED_DOT = 10_000
# order of a dense symmetric system (a Gram matrix, a Hessian) above which its
# LAPACK factorisation runs on BLAS's threads; below it one thread is faster, and
# BLAS's threads would only spin beside numba's
BLAS_THREADED_ORDER = 1_000
# order of a dense symmetric eigenproblem above which LAPACK's eigh runs on BLAS's
# threads when no numba pool has just run beside it (PCA's covariance): on two cores
# one thread is as fast up to ~600 and two threads faster from ~800. After numba's
# parallel kernel values (KernelPCA) BLAS_THREADED_ORDER applies: there one thread was
# faster at orders 300 and 1,000 (called back to back), two threads from 1,500
EIGH_THREADED_ORDER = 700
# LAPACK's SVD (gesdd) runs on one BLAS thread for a wide matrix (fewer rows than
# columns) of at most SVD_SINGLE_THREAD_WIDE_ROWS rows, and for a tall or square one of
# at most SVD_SINGLE_THREAD_TALL_COLS columns and SVD_SINGLE_THREAD_TALL_ROWS rows; BLAS's
# threads pay off on larger matrices and on the QR step of a taller one (at 333-2,500
# rows two threads were faster from 300 columns, not reliably at 200)
SVD_SINGLE_THREAD_WIDE_ROWS = 800
SVD_SINGLE_THREAD_TALL_COLS = 256
SVD_SINGLE_THREAD_TALL_ROWS = 2_500
# features up to which kernel values against support vectors are computed with
# BLAS on one thread: the dot products are then cheap beside the kernel function
# (numba's threads), and BLAS's threads would only spin beside those
KERNEL_BLAS_FEATURES = 256
# stored entries of a CSR matrix from which a single product with it (a sparse
# prediction) runs on numba's threads: waking the pool after idle time costs about
# what a product of this size takes on one thread
SPARSE_PRODUCT_THREADED = 1_000_000
# a row's exp and log (or log1p) in a loss pass, counted in multiply-adds when its
# rows are cut into lanes of ROW_LANE_ENTRIES: with few features they dominate
ROW_TRANSCENDENTAL_COST = 40
# multiply-adds (counted as for the lanes) of one logistic loss pass below which its
# lanes run on the calling thread: waking numba's sleeping OpenMP workers for the
# first parallel region after an idle pause costs more than a second thread saves
# over a whole L-BFGS fit of this size; and from one fit in three to one in six, the
# threaded passes of a fit stalled, which the second thread's saving covers only from
# about this size (measurements: benchmarks/results/threads.md)
LOSS_PASS_THREADED = 3_500_000
# entries of a Lawson-Hanson step's pass over the columns at zero (a reflection, or the
# rotations of a variable leaving the set) from which it runs in lanes of columns: each
# step is one parallel region, and below this the region's start costs more than the
# second core saves (measured over 300-1,000 rows x 300-5,000 columns: lanes from 2^16
# were slower than one at 300 x 300, from 2^18 and above gave back part of the gain at
# 500-1,000 x 1,000)
NNLS_LANE_ENTRIES = 1 << 17
