/*
 * commands.h — one function per subcommand, each in its own cmd_*.c file.
 * argv[0] is the subcommand's name.  Each returns the process exit status.
 */
#ifndef LOOPSCALE_COMMANDS_H
#define LOOPSCALE_COMMANDS_H

int cmd_fit(int argc, char **argv);
int cmd_isofit(int argc, char **argv);
int cmd_holdout(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_shape(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_exit(int argc, char **argv);

#endif
