/* The AVX2 + FMA copy of the fitter's kernel (fit_kernel.c); CMake sets
 * LS_KERNEL_BUILD_AVX2 and -mavx2 -mfma where the compiler and CPU family
 * allow it, and this file is empty otherwise. */
#ifdef LS_KERNEL_BUILD_AVX2
#define LS_KERNEL_VARIANT avx2
#include "fit_kernel.c"
#else
typedef int ls_fit_kernel_avx2_not_built; /* ISO C wants something in a file */
#endif
