/*
 * loopscale shape — placeholder until the calculator lands (issue 6).
 */
#include "cli.h"
#include "commands.h"

int cmd_shape(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("shape", "not built yet");
    return 70;
}
