/*
 * loopscale route — placeholder until the calculator lands (issue 6).
 */
#include "cli.h"
#include "commands.h"

int cmd_route(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("route", "not built yet");
    return 70;
}
