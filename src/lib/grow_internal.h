/*
 * grow_internal.h — the one way the library grows an array.
 */
#ifndef LOOPSCALE_GROW_INTERNAL_H
#define LOOPSCALE_GROW_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

/* Make room for `need` elements of `elem` bytes in *ptr, whose capacity is
 * *cap elements, doubling from 16.  Returns 0, or -1 with *ptr and *cap
 * unchanged when memory runs out or the size would overflow. */
static inline int ls_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (need > SIZE_MAX / 2 / elem)
        return -1;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*ptr, cap2 * elem);
    if (!p)
        return -1;
    *ptr = p;
    *cap = cap2;
    return 0;
}

#endif
