/* Which copy of the fitter's kernel this CPU runs (fit_kernel_internal.h). */
#include "fit_kernel_internal.h"
#include "law_internal.h"

unsigned ls_mapped_kernel_params(ls_law_kind kind)
{
    unsigned bits = 0;
    for (int j = LS_LAW_P_A; j <= LS_LAW_P_C; j++)
        bits |= 1u << j;
    if (kind.base == LS_LAW_BASE_MOE)
        for (int j = LS_LAW_P_DELTA; j <= LS_LAW_P_E_MAX; j++)
            bits |= 1u << j;
    return bits | ls_law_mapping_info(kind.mapping)->params;
}

size_t ls_fit_kernels(const ls_kernel *out[LS_KERNEL_COPIES])
{
    size_t n = 0;
#if defined(__GNUC__) && (defined(LS_KERNEL_HAVE_AVX2) || defined(LS_KERNEL_HAVE_AVX512))
    __builtin_cpu_init();
#endif
#if defined(LS_KERNEL_HAVE_AVX512) && defined(__GNUC__)
    /* libmvec's 8-lane exp and log (the skx variants) need AVX512DQ. */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma"))
        out[n++] = &ls_kernel_avx512;
#endif
#if defined(LS_KERNEL_HAVE_AVX2) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        out[n++] = &ls_kernel_avx2;
#endif
    out[n++] = &ls_kernel_base;
    return n;
}

const ls_kernel *ls_fit_kernel(void)
{
    const ls_kernel *copies[LS_KERNEL_COPIES];
    (void)ls_fit_kernels(copies);
    return copies[0];
}
