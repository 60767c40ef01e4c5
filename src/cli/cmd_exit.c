/*
 * loopscale exit — placeholder until the calculator lands (issue 6).
 */
#include "cli.h"
#include "commands.h"

int cmd_exit(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("exit", "not built yet");
    return 70;
}
