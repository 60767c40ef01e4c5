/* The baseline copy of the fitter's kernel (fit_kernel.c), built with the
 * vector flags but no instruction-set options. */
#define LS_KERNEL_VARIANT base
#include "fit_kernel.c"
