/* Which copy of the fitter's kernel this CPU runs (fit_kernel_internal.h). */
#include "fit_kernel_internal.h"
#include "law_internal.h"

unsigned ls_mapped_kernel_params(law_kind kind)
{
    unsigned bits = 0;
    for (int j = LAW_P_A; j <= LAW_P_C; j++)
        bits |= 1u << j;
    if (kind.base == LAW_BASE_MOE)
        for (int j = LAW_P_DELTA; j <= LAW_P_E_MAX; j++)
            bits |= 1u << j;
    return bits | ls_law_mapping_info(kind.mapping)->params;
}

const ls_kernel *ls_fit_kernel_portable(void) { return &ls_kernel_base; }

const ls_kernel *ls_fit_kernel(void)
{
#if defined(LS_KERNEL_HAVE_AVX2) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &ls_kernel_avx2;
#endif
    return &ls_kernel_base;
}
