"""numba kernel of the perceptron's online updates (seed 002).

For each sample in the given order and each one-vs-rest output k, a
misclassified sample (``y_ik f_k(x_i) <= 0``) moves the hyperplane:
``w_k += eta * s_i * y_ik * x_i`` and ``b_k += eta * s_i * y_ik``, the stochastic
gradient step on the perceptron criterion ``sum max(0, -y f(x))``.
"""

import math

import numpy as np

from .._kernels.jit import njit
from .._kernels.prefetch import prefetch1, prefetch2

# The SGD passes visit the rows in a shuffled order, so each row is a cache miss; they ask
# for the rows a few samples ahead (the row's start in indptr further ahead still). The
# hints are written out in each pass: as an inlined helper the same code ran the sparse
# pass slower.
_ROWS_AHEAD = 4
_CSR_ROWS_AHEAD = 6
_INDPTR_AHEAD = 16


_MASK32 = 0xFFFFFFFF
_RAND_MAX_PLUS_ONE = 2147483648


@njit(cache=True, nogil=True)
def xorshift_shuffle(order, seed):
    """Shuffle ``order`` (intp) in place as scikit-learn's SGD shuffles its samples.

    A Fisher-Yates shuffle whose draws come from the 32-bit xorshift
    generator (shifts 13, 17, 5; each draw reduced modulo 2^31; a zero state
    becomes 1) started at ``seed``: position ``i`` is swapped with
    ``i + draw % (n - i)``. Every epoch reshuffles the previous order with the
    same seed. Reproducing it lets the perceptron give scikit-learn's
    coefficients with ``shuffle=True``.
    """
    n = order.shape[0]
    s = seed & _MASK32
    for i in range(n - 1):
        if s == 0:
            s = 1
        s ^= (s << 13) & _MASK32
        s ^= s >> 17
        s ^= (s << 5) & _MASK32
        j = i + (s % _RAND_MAX_PLUS_ONE) % (n - i)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@njit(cache=True, nogil=True)
def xorshift_order(n, seed):
    """``0 .. n - 1`` shuffled once by :func:`xorshift_shuffle` (intp (n,))."""
    order = np.arange(n)
    xorshift_shuffle(order, seed)
    return order


@njit(cache=True, nogil=True, inline="always")
def _sample_term(f, y, swk, eta, alpha, l1_ratio, penalised, norms):
    """(objective term, update) of one sample with decision value f: the perceptron
    loss and, when penalised, the penalty at the current norms; the update is
    ``eta * y * swk`` for a mistake (``y f <= 0``), else 0."""
    term = 0.0
    update = 0.0
    if y * f <= 0.0:
        term = -y * f
        update = eta * y * swk
    if penalised:
        norm = math.sqrt(norms[0])
        term += alpha * ((1.0 - l1_ratio) * 0.5 * norm * norm + l1_ratio * norms[1])
    return term, update


@njit(cache=True, nogil=True, inline="always")
def _truncate_l1(w, j, ws, total_l1, q):
    """The cumulative truncated-gradient L1 step (Tsuruoka et al., 2009) on weight j of
    the row ``w`` of one output's weights (the weights being ``ws * w``); ``q[j]`` the
    penalty applied so far."""
    z = w[j]
    qj = q[j]
    # one division whichever the sign (a select, not a branch, in a loop over j)
    step = (total_l1 + qj if z > 0.0 else total_l1 - qj) / ws
    moved = max(0.0, z - step) if z > 0.0 else min(0.0, z + step)
    new = moved if z != 0.0 else z
    w[j] = new
    q[j] = qj + ws * (new - z)


# scikit-learn's SGD holds the weights as ``wscale * v`` (rescaled to wscale 1 below this
# threshold); on sparse rows the intercept moves by 1/100 of the weights' step
WSCALE_RESET = 1e-9
SPARSE_INTERCEPT_DECAY = 0.01

@njit(cache=True, nogil=True)
def _truncate_l1_row(w, ws, total_l1, q):
    """:func:`_truncate_l1` on every weight of the row ``w``: the step has no branches,
    so the compiler vectorises the loop (as a function of its own, not inlined into
    the pass, where it did not)."""
    for j in range(w.shape[0]):
        _truncate_l1(w, j, ws, total_l1, q)


@njit(cache=True, nogil=True, inline="always")
def _add_row_with_norms(W, k, X, i, c):
    """``W[k] += c X[i]``; returns the new row's squared norm and L1 norm, each summed
    in four lanes (scikit-learn sums them in one chain: the norms may differ in the last
    bits, the weights do not; the norms only enter the objective of the stopping test)."""
    p = W.shape[1]
    sq0 = sq1 = sq2 = sq3 = 0.0
    a0 = a1 = a2 = a3 = 0.0
    head = p - p % 4
    for j in range(0, head, 4):
        w0 = W[k, j] + X[i, j] * c
        w1 = W[k, j + 1] + X[i, j + 1] * c
        w2 = W[k, j + 2] + X[i, j + 2] * c
        w3 = W[k, j + 3] + X[i, j + 3] * c
        W[k, j] = w0
        W[k, j + 1] = w1
        W[k, j + 2] = w2
        W[k, j + 3] = w3
        sq0 += w0 * w0
        sq1 += w1 * w1
        sq2 += w2 * w2
        sq3 += w3 * w3
        a0 += abs(w0)
        a1 += abs(w1)
        a2 += abs(w2)
        a3 += abs(w3)
    for j in range(head, p):
        w0 = W[k, j] + X[i, j] * c
        W[k, j] = w0
        sq0 += w0 * w0
        a0 += abs(w0)
    return (sq0 + sq1) + (sq2 + sq3), (a0 + a1) + (a2 + a3)


# Features from which the dense pass's L1 truncation calls the vectorised row loop; below,
# an inlined scalar loop costs less than the call and the vector loop's set-up
_VECTOR_TRUNCATION_FEATURES = 32

# The dense pass computes the decision values of this many samples at once. Each is
# summed in its own register, in the order of one sample at a time (the same bits), so
# the pass is bound by loads rather than by one chain of dependent additions; the values
# after a sample that changes v are discarded and computed again.
_DOTS_AT_ONCE = 4


@njit(cache=True, nogil=True)
def _sgd_pass(W, b, k, X, Y, SW, order, eta, alpha, l1_ratio, use_l2, use_l1,
              fit_intercept, q, total_l1, norms, wscale):
    """One pass of output ``k`` over the dense rows in ``order``, as scikit-learn's SGD
    runs it.

    ``W[k]`` holds ``v`` with weights ``wscale[0] * v``, so the L2 decay is one
    multiplication (``v`` is rescaled when the scale drops below ``WSCALE_RESET``).
    Returns (objective, running L1 total): the objective sums, before each update,
    the unweighted loss ``max(0, -y f)`` plus, when penalised,
    ``alpha ((1 - l1_ratio) |w|^2 / 2 + l1_ratio |w|_1)``, with the norms
    ``norms = [|w|^2, |w|_1]`` kept as scikit-learn keeps them (scaled by the L2
    decay, recomputed after an update, left as they are by the L1 step).

    ``v`` changes only on a mistake (and at every sample with an L1 part), so the
    values ``<v, x_i>`` of the next :data:`_DOTS_AT_ONCE` samples are computed
    together and used up to the first sample that changes ``v``.
    """
    n = order.shape[0]
    p = W.shape[1]
    last = n - 1
    w_k = W[k]  # output k's weights (a view: the L1 step works on one row)
    shrink = 1.0 - (1.0 - l1_ratio) * eta * alpha
    if shrink < 0.0:
        shrink = 0.0
    penalised = use_l2 or use_l1
    objective = 0.0
    prefetched = 1
    ii = 0
    while ii < n:
        r0 = order[ii]
        if use_l1:  # v changes at every sample: one value a pass over v
            r1 = r0
            r2 = r0
            r3 = r0
        else:
            r1 = order[min(ii + 1, last)]
            r2 = order[min(ii + 2, last)]
            r3 = order[min(ii + 3, last)]
        # prefetch hints for the rows after these (see _ROWS_AHEAD), each row once
        ahead_end = min(ii + _DOTS_AT_ONCE + _ROWS_AHEAD, n)
        for ahead in range(max(prefetched, ii + 1), ahead_end):
            row = order[ahead]
            for j in range(0, p, 8):  # 8 float64 per 64-byte line
                prefetch2(X, row, j)
        prefetched = max(prefetched, ahead_end)
        d0 = 0.0
        d1 = 0.0
        d2 = 0.0
        d3 = 0.0
        for j in range(p):
            v = W[k, j]
            d0 += v * X[r0, j]
            d1 += v * X[r1, j]
            d2 += v * X[r2, j]
            d3 += v * X[r3, j]
        used = 1 if use_l1 else min(_DOTS_AT_ONCE, n - ii)
        for t in range(used):
            i = order[ii + t]
            dot = d0 if t == 0 else (d1 if t == 1 else (d2 if t == 2 else d3))
            f = dot * wscale[0] + b[k]
            y = Y[i, k]
            term, update = _sample_term(f, y, SW[i, k], eta, alpha, l1_ratio, penalised, norms)
            objective += term
            changed = use_l1
            if use_l2:
                wscale[0] *= shrink
                norms[0] *= shrink * shrink
                norms[1] *= shrink
                if wscale[0] < WSCALE_RESET:
                    _fold_scale(W, k, wscale)
                    changed = True
            ws = wscale[0]
            if update != 0.0:
                changed = True
                c = update / ws
                if penalised:  # the norms enter the objective only with a penalty
                    sq, l1 = _add_row_with_norms(W, k, X, i, c)
                    norms[0] = sq * ws * ws
                    norms[1] = l1 * ws
                else:
                    for j in range(p):
                        W[k, j] += X[i, j] * c
            if fit_intercept:
                b[k] += update
            if use_l1:
                total_l1 += l1_ratio * eta * alpha
                if p < _VECTOR_TRUNCATION_FEATURES:
                    for j in range(p):
                        _truncate_l1(w_k, j, ws, total_l1, q)
                else:
                    _truncate_l1_row(w_k, ws, total_l1, q)
            if changed:
                used = t + 1
                break
        ii += used
    return objective, total_l1


@njit(cache=True, nogil=True)
def _sgd_pass_csr(W, b, k, indptr, indices, data, Y, SW, order, eta, alpha, l1_ratio, use_l2,
                  use_l1, fit_intercept, q, total_l1, norms, wscale):
    """:func:`_sgd_pass` on CSR rows, as scikit-learn runs it on sparse data.

    ``W[k]`` holds ``v`` with weights ``wscale[0] * v``, so the L2 decay is one
    multiplication; the update and the L1 truncation touch the row's stored
    features only; the intercept step is scaled by ``SPARSE_INTERCEPT_DECAY``;
    the norms after an update are those of the touched weights (scikit-learn's
    bookkeeping, which decides its stopping epoch).
    """
    w_k = W[k]  # output k's weights (a view: the L1 step works on one row)
    shrink = 1.0 - (1.0 - l1_ratio) * eta * alpha
    if shrink < 0.0:
        shrink = 0.0
    penalised = use_l2 or use_l1
    objective = 0.0
    for ii in range(order.shape[0]):
        i = order[ii]
        if ii + _INDPTR_AHEAD < order.shape[0]:  # prefetch hints (see _ROWS_AHEAD)
            prefetch1(indptr, order[ii + _INDPTR_AHEAD])
        if ii + _CSR_ROWS_AHEAD < order.shape[0]:
            ahead = order[ii + _CSR_ROWS_AHEAD]
            for t in range(indptr[ahead], indptr[ahead + 1], 8):  # 8 float64 per line
                prefetch1(data, t)
            for t in range(indptr[ahead], indptr[ahead + 1], 16):  # 16 uint32 per line
                prefetch1(indices, t)
        start = indptr[i]
        stop = indptr[i + 1]
        f = 0.0
        for t in range(start, stop):
            f += W[k, indices[t]] * data[t]
        f = f * wscale[0] + b[k]
        y = Y[i, k]
        term, update = _sample_term(f, y, SW[i, k], eta, alpha, l1_ratio, penalised, norms)
        objective += term
        if use_l2:
            wscale[0] *= shrink
            norms[0] *= shrink * shrink
            norms[1] *= shrink
            if wscale[0] < WSCALE_RESET:
                for j in range(W.shape[1]):
                    W[k, j] *= wscale[0]
                wscale[0] = 1.0
        ws = wscale[0]
        if update != 0.0:
            sq = 0.0
            l1 = 0.0
            c = update / ws
            if penalised:  # the norms enter the objective only with a penalty
                for t in range(start, stop):
                    j = indices[t]
                    W[k, j] += data[t] * c
                    sq += W[k, j] * W[k, j]
                    l1 += abs(W[k, j])
                norms[0] = sq * ws * ws
                norms[1] = l1 * ws
            else:
                for t in range(start, stop):
                    W[k, indices[t]] += data[t] * c
        if fit_intercept:
            b[k] += update * SPARSE_INTERCEPT_DECAY
        if use_l1:
            total_l1 += l1_ratio * eta * alpha
            for t in range(start, stop):
                _truncate_l1(w_k, indices[t], ws, total_l1, q)
    return objective, total_l1


@njit(cache=True, nogil=True)
def _pass(W, b, k, X, indptr, indices, data, Y, SW, order, eta, alpha, l1_ratio,
          use_l2, use_l1, fit_intercept, q, total_l1, norms, wscale):
    """One pass of output ``k``: dense rows of ``X``, or CSR rows when ``indptr`` is not
    None (known when numba compiles: the dense version leaves the sparse pass out)."""
    if indptr is not None:
        return _sgd_pass_csr(W, b, k, indptr, indices, data, Y, SW, order, eta, alpha,
                             l1_ratio, use_l2, use_l1, fit_intercept, q, total_l1, norms, wscale)
    return _sgd_pass(W, b, k, X, Y, SW, order, eta, alpha, l1_ratio, use_l2, use_l1,
                     fit_intercept, q, total_l1, norms, wscale)


@njit(cache=True, nogil=True, inline="always")
def _initial_norms(W, k, norms):
    norms[0] = 0.0
    norms[1] = 0.0
    for j in range(W.shape[1]):
        norms[0] += W[k, j] * W[k, j]
        norms[1] += abs(W[k, j])


@njit(cache=True, nogil=True)
def sgd_perceptron_epoch(W, b, X, indptr, indices, data, Y, SW, orders, eta, alpha,
                         l1_ratio, use_l2, use_l1, fit_intercept):
    """One epoch of stochastic gradient descent on the perceptron loss
    ``max(0, -y f(x))`` for each one-vs-rest output, as scikit-learn's SGD runs it.

    Output ``k`` visits the samples in the order ``orders[k]``; per sample:
    ``f = <w_k, x> + b_k``; ``u = eta * y * SW[i, k]`` if ``y f <= 0`` else 0;
    with an L2 part ``w_k *= max(0, 1 - (1 - l1_ratio) eta alpha)``; then
    ``w_k += u x``, ``b_k += u``; with an L1 part, the cumulative truncated
    gradient of Tsuruoka et al. (2009): the running total ``U += l1_ratio eta
    alpha`` and each weight's applied penalty ``q_j``, restarted every call.

    Parameters
    ----------
    W : float64 (K, p), b : float64 (K,): updated in place.
    X : float64 (n, p) C-contiguous, or with ``indptr`` not None the CSR arrays ``indptr``,
    ``indices``, ``data`` (:func:`_sgd_pass_csr`; X is then unused);
    Y : float64 (n, K) in {-1, +1};
    SW : float64 (n, K) per-output sample weights (class weight times sample weight);
    orders : intp (K, n).
    """
    K, p = W.shape
    norms = np.empty(2)
    wscale = np.ones(1)
    for k in range(K):
        q = np.zeros(p)
        _initial_norms(W, k, norms)
        wscale[0] = 1.0
        _pass(W, b, k, X, indptr, indices, data, Y, SW, orders[k], eta, alpha,
              l1_ratio, use_l2, use_l1, fit_intercept, q, 0.0, norms, wscale)
        _fold_scale(W, k, wscale)


@njit(cache=True, nogil=True)
def _fold_scale(W, k, wscale):
    """Multiply the scale ``wscale[0]`` of a pass into the weights of output ``k``."""
    if wscale[0] != 1.0:
        for j in range(W.shape[1]):
            W[k, j] *= wscale[0]
        wscale[0] = 1.0


@njit(cache=True, nogil=True)
def _training_order(order, val_mask, out):
    """The entries of ``order`` not marked in ``val_mask``, in order, into ``out``."""
    m = 0
    for t in range(order.shape[0]):
        i = order[t]
        if val_mask[i] == 0:
            out[m] = i
            m += 1


@njit(cache=True, nogil=True)
def _validation_accuracy(W, b, k, X, indptr, indices, data, Y, val_rows, val_w):
    """Weighted accuracy of output ``k`` on the rows ``val_rows`` (targets ``Y[:, k]``
    in {-1, 1}) with the decision ``W[k] x + b[k]``: scikit-learn scores the vector ``v``
    of its weights ``wscale * v``, not the weights."""
    right = 0.0
    total = 0.0
    for t in range(val_rows.shape[0]):
        i = val_rows[t]
        f = 0.0
        if indptr is not None:
            for jj in range(indptr[i], indptr[i + 1]):
                f += data[jj] * W[k, indices[jj]]
        else:
            for j in range(W.shape[1]):
                f += W[k, j] * X[i, j]
        f += b[k]
        if (f > 0.0) == (Y[i, k] > 0.0):
            right += val_w[t]
        total += val_w[t]
    return right / total


@njit(cache=True, nogil=True)
def _sgd_fit_output(W, b, k, X, indptr, indices, data, Y, SW, seed, shuffle,
                    max_iter, tol, n_iter_no_change, eta, alpha, l1_ratio, use_l2, use_l1,
                    fit_intercept, val_mask, val_rows, val_w):
    """Epochs of output ``k`` (see :func:`sgd_perceptron_fit`); returns its
    epoch count, negated if a weight became non-finite."""
    n = Y.shape[0]
    p = W.shape[1]
    order = np.arange(n)
    early = val_rows.shape[0] > 0
    train = np.empty(n - val_rows.shape[0], dtype=np.intp)
    wscale = np.ones(1)
    q = np.zeros(p)
    norms = np.empty(2)
    _initial_norms(W, k, norms)
    total_l1 = 0.0
    best = -np.inf  # the best score: the validation accuracy, or minus the mean objective
    stall = 0
    epochs = 0
    for epoch in range(max_iter):
        if shuffle:
            xorshift_shuffle(order, seed)
        if early:
            _training_order(order, val_mask, train)
        objective, total_l1 = _pass(W, b, k, X, indptr, indices, data, Y, SW,
                                    train if early else order, eta, alpha, l1_ratio, use_l2,
                                    use_l1, fit_intercept, q, total_l1, norms, wscale)
        epochs = epoch + 1
        if not np.isfinite(b[k]) or not np.all(np.isfinite(W[k])) or \
                not np.isfinite(wscale[0]):
            _fold_scale(W, k, wscale)
            return -epochs
        if early:
            # scikit-learn: the validation accuracy must beat the best so far by tol
            score = _validation_accuracy(W, b, k, X, indptr, indices, data, Y, val_rows,
                                         val_w)
        else:
            score = -objective / n
        if tol > -np.inf and score < best + tol:
            stall += 1
        else:
            stall = 0
        if score > best:
            best = score
        if stall >= n_iter_no_change:
            break
    _fold_scale(W, k, wscale)
    return epochs


@njit(cache=True, nogil=True)
def sgd_perceptron_fit(W, b, X, indptr, indices, data, Y, SW, seeds, shuffle,
                       max_iter, tol, n_iter_no_change, eta, alpha, l1_ratio, use_l2, use_l1,
                       fit_intercept, val_mask, val_rows, val_w, n_iter, outputs):
    """Up to ``max_iter`` epochs of :func:`sgd_perceptron_epoch` per output in
    ``outputs`` (intp), as scikit-learn's SGD fit runs them, one output after the
    other. The outputs are independent (each writes its own row of W, entry of b
    and of n_iter), so callers may fit disjoint sets of them in threads.

    Each output ``k`` runs on its own: its order starts as ``0 .. n - 1`` and
    is reshuffled every epoch with ``seeds[k]`` (when ``shuffle``); the L1
    state and the norms carry over epochs; it stops once the epoch's mean
    objective (of :func:`_sgd_pass`) has failed ``n_iter_no_change`` times in
    a row to drop below the best so far minus ``tol`` (``tol = -inf``:
    never). With early stopping (``val_rows``, intp, not empty; ``val_mask``,
    uint8 (n,), marks them) the passes skip those rows, and it is their
    accuracy (weights ``val_w``) that must rise above the best so far plus
    ``tol``, as scikit-learn scores it. Writes each output's epoch count to ``n_iter`` (intp (K,),
    negative if a weight became non-finite). ``X`` or the CSR arrays as in
    :func:`sgd_perceptron_epoch`.
    """
    for k in outputs:
        n_iter[k] = _sgd_fit_output(W, b, k, X, indptr, indices, data, Y, SW,
                                    seeds[k], shuffle, max_iter, tol, n_iter_no_change, eta,
                                    alpha, l1_ratio, use_l2, use_l1, fit_intercept, val_mask,
                                    val_rows, val_w)
