/*
 * simulate_internal.h — the synthetic sweep as CSV text handed to a sink in
 * pieces, for the simulate command (which writes it to standard output or
 * hands it over as an output file) and the tests.
 */
#ifndef LOOPSCALE_SIMULATE_INTERNAL_H
#define LOOPSCALE_SIMULATE_INTERNAL_H

#include "loopscale/simulate.h"

/* Takes the next len bytes of the CSV; 0, or an LS_ERR_* code with err set,
 * which stops the writing. */
typedef int (*simulate_sink)(void *context, const char *data, size_t len, ls_error *err);

/* The sweep as CSV (rows in the order N_act, tokens, E, R), in pieces of
 * about 64 kB.  Every run is checked before the first byte goes out, so a
 * sink that writes straight to a stream never receives half a sweep. */
int ls_simulate_emit(const ls_law *truth, const ls_arch_template *t, const ls_simulate_grid *grid,
                     const ls_simulate_options *options, simulate_sink sink, void *context,
                     ls_error *err) LS_MUST_CHECK;

#endif
