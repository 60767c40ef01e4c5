/*
 * version.c — the library's version, as built (loopscale/version.h).
 */
#include "loopscale/version.h"

const char *ls_version(void)
{
    return LOOPSCALE_VERSION_STRING;
}

int ls_version_number(void)
{
    return LOOPSCALE_VERSION_NUMBER;
}
