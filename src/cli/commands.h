/*
 * commands.h — one function per subcommand, each in its own cmd_*.c file.
 * argv[0] is the subcommand's name.  Each returns the process exit status.
 */
#ifndef LOOPSCALE_COMMANDS_H
#define LOOPSCALE_COMMANDS_H

int cmd_predict(int argc, char **argv);

#endif
