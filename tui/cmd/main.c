/* smtop entry point: picks the subcommand and nothing else. Only this file
 * decides the process's exit status. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "tui/cmd/commands.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"report", cmd_report},
    {"synth", cmd_synth},
    {"export", cmd_export},
    {"diff", cmd_diff},
    {"--complete", cmd_complete},   /* hidden: the shell completions' helper */
};

static void print_usage(FILE *f)
{
    fputs("usage: smtop [OPTIONS] SOURCE       live dashboard\n"
          "       smtop --demo                 dashboard on a simulated live job\n"
          "       smtop report [--json] SOURCE summary of a job, no terminal needed\n"
          "       smtop synth --out DIR ...    write a synthetic profiler-output tree\n"
          "       smtop export --perfetto OUT.json SOURCE  one trace file for Perfetto\n"
          "       smtop diff [--json] BASE SOURCE  a job against a baseline job\n"
          "\n"
          "SOURCE is a profiler-output directory (or the job directory holding it),\n"
          "or s3://bucket/prefix. Run `smtop COMMAND --help` for a command's options.\n"
          "\n"
          "  -h, --help       this help\n"
          "  -V, --version    print the version\n",
          f);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        print_usage(stdout);
        fputs("\nDashboard options:\n", stdout);
        cmd_dashboard_options(stdout);
        return SMTOP_EXIT_OK;
    }
    if (argc >= 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
        printf("smtop %s\n", SMTOP_VERSION);
        return SMTOP_EXIT_OK;
    }
    if (argc >= 2) {
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (!strcmp(argv[1], commands[i].name))
                return commands[i].run(argc - 1, argv + 1);
    }
    if (argc < 2) {
        print_usage(stderr);
        return SMTOP_EXIT_USAGE;
    }
    return cmd_dashboard(argc, argv);
}
