/* The AVX-512 copy of the fitter's kernel (fit_kernel.c); CMake sets
 * LS_KERNEL_BUILD_AVX512 and -mavx512f -mavx512dq -mavx512vl -mfma with
 * 8-lane vectors preferred, where the compiler and CPU family allow it, and
 * this file is empty otherwise. */
#ifdef LS_KERNEL_BUILD_AVX512
#define LS_KERNEL_VARIANT avx512
#include "fit_kernel.c"
#else
typedef int ls_fit_kernel_avx512_not_built; /* ISO C wants something in a file */
#endif
