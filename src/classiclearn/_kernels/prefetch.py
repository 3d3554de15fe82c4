"""Cache-line prefetch hints for numba kernels (no effect on results).

``prefetch1(a, i)`` / ``prefetch2(a, i, j)`` ask the CPU to start loading the
cache line that holds ``a[i]`` / ``a[i, j]`` (read, high locality), so that a
kernel whose next accesses are known but scattered (a tree walk's next nodes,
the next sampled row of a stochastic solver) does not wait for them. The
indices are not checked and not wrapped: a hint for an address outside the
array is harmless, but callers keep them in range anyway.
"""

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = ["prefetch1", "prefetch2"]


def _prefetch_codegen(context, builder, signature, args):
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    ptr = cgutils.get_item_pointer2(context, builder, ary.data,
                                    cgutils.unpack_tuple(builder, ary.shape),
                                    cgutils.unpack_tuple(builder, ary.strides), aryty.layout,
                                    list(args[1:]), wraparound=False, boundscheck=False)
    i8p = ir.IntType(8).as_pointer()
    i32 = ir.IntType(32)
    fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
    # read, high locality, data cache
    builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                      ir.Constant(i32, 1)])
    return context.get_dummy_value()


@intrinsic
def prefetch1(typingctx, arr, i):
    """Hint: load the cache line of ``arr[i]`` (1-D ``arr``)."""
    return types.void(arr, i), _prefetch_codegen


@intrinsic
def prefetch2(typingctx, arr, i, j):
    """Hint: load the cache line of ``arr[i, j]`` (2-D ``arr``)."""
    return types.void(arr, i, j), _prefetch_codegen
