/*
 * simulate_internal.h — the synthetic sweep written through an output file
 * (outfile_internal.h), for the simulate command and the tests.
 */
#ifndef LOOPSCALE_SIMULATE_INTERNAL_H
#define LOOPSCALE_SIMULATE_INTERNAL_H

#include "loopscale/simulate.h"
#include "outfile_internal.h"

/* Write the sweep as CSV to out (rows in the order N_act, tokens, E, R). */
int ls_simulate_write(const ls_law *truth, const ls_arch_template *t, const ls_simulate_grid *grid,
                   const ls_simulate_options *options, outfile *out, ls_error *err) LS_MUST_CHECK;

#endif
