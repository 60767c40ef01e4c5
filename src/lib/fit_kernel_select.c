/* Which copy of the fitter's kernel this CPU runs (fit_kernel_internal.h). */
#include "fit_kernel_internal.h"

const ls_dense_kernel *ls_fit_kernel_portable(void) { return &ls_dense_kernel_base; }

const ls_dense_kernel *ls_fit_kernel(void)
{
#if defined(LS_KERNEL_HAVE_AVX2) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &ls_dense_kernel_avx2;
#endif
    return &ls_dense_kernel_base;
}
