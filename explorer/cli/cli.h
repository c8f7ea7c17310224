/* The command line: one function per subcommand. Each returns the process exit status:
 * 0 success, 2 bad input (the message names the file, line or key), 1 internal failure. */
#ifndef WT_CLI_H
#define WT_CLI_H

#define WT_EXIT_OK          0
#define WT_EXIT_INTERNAL    1
#define WT_EXIT_BAD_INPUT   2
#define WT_EXIT_INTERRUPTED 130 /* SIGINT, as a shell reports it */

int cli_sim(int argc, char **argv);
int cli_export_trace(int argc, char **argv);
int cli_params(int argc, char **argv);
int cli_workloads(int argc, char **argv);
int cli_presets(int argc, char **argv);
int cli_policies(int argc, char **argv);
int cli_characterize(int argc, char **argv);
int cli_front(int argc, char **argv);
int cli_explore(int argc, char **argv);
int cli_report(int argc, char **argv);

#endif
