/* The table of warptune's commands: what dispatches them, the usage texts and the manual page
 * (warptune man, installed as warptune.1) are all made from it. */
#ifndef WT_CLI_COMMANDS_H
#define WT_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

typedef struct cli_option {
    const char *flag; /* "--threads N", or an operand such as "SPACE" */
    const char *doc;  /* one paragraph, filled to the width of the usage */
} cli_option;

typedef struct cli_command {
    const char *name;
    const char *alias;         /* another spelling ("--version"), or NULL */
    const char *args;          /* the synopsis after the name, or NULL */
    const char *summary;       /* one line, lower case, no full stop */
    const char *details;       /* a paragraph of sentences, or NULL */
    const cli_option *options; /* ends with {NULL, NULL}; NULL when it has none */
    int (*run)(int argc, char **argv);
} cli_command;

extern const cli_command cli_commands[];
extern const size_t cli_ncommands;

/* The command called name (or by its alias), or NULL. */
const cli_command *cli_command_find(const char *name);

/* warptune's usage: every command, its synopsis and summary, and the exit statuses. */
void cli_usage(FILE *f);

/* One command's usage: its synopsis, its options and its details. */
void cli_command_usage(FILE *f, const char *name);

/* For a command that takes no options but --help and at most `operands` operands: 0 when
 * argv (argv[0] the command) holds no more, else 2 after printing "warptune CMD: unknown or
 * incomplete option 'X'" or "warptune CMD: unexpected argument 'X' (expected ...)" and the usage on
 * stderr. */
int cli_check_operands(int argc, char **argv, int operands);

/* The manual page, in roff (man(7) macros). */
void cli_man(FILE *f);

#endif
