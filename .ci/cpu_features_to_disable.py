"""Print, space-separated, numpy's dispatched CPU features that this machine has.

CI sets ``NPY_DISABLE_CPU_FEATURES`` to them so numpy runs only its baseline kernels, as on an
older CPU. numpy refuses to disable a feature that is not dispatched or not present, so the list
is read from the running numpy (its names differ between numpy 1.x and 2.x).
"""

try:
    from numpy._core import _multiarray_umath as umath  # numpy >= 2
except ImportError:  # numpy 1.x
    from numpy.core import _multiarray_umath as umath

found = umath.__cpu_features__
print(" ".join(name for name in umath.__cpu_dispatch__ if found.get(name)))
