/* smtop entry point: picks the subcommand and nothing else. Only this file
 * decides the process's exit status. */
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui/cmd/commands.h"
#include "tui/cmd/suggest.h"
#include "tui/text/timearg.h"

/* The subcommands: dispatch, the usage lines and every list of their
 * names (help's, a misspelling's) are read from this table. */
typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;   /* its line of `smtop --help` after "smtop "; NULL: hidden */
} command;

static const command commands[] = {
    {"report", cmd_report, "report [--json] SOURCE summary of a job, no terminal needed"},
    {"synth", cmd_synth, "synth --out DIR ...    write a synthetic profiler-output tree"},
    {"export", cmd_export, "export --perfetto OUT.json SOURCE  one trace file for Perfetto"},
    {"diff", cmd_diff, "diff [--json] BASE SOURCE  a job against a baseline job"},
    {"jobs", cmd_jobs, "jobs [--json] [SOURCE] every training job at a glance"},
    {"--complete", cmd_complete, NULL},   /* the shell completions' helper */
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* "report, synth, export, diff, jobs": the commands --help shows. */
static void print_names(FILE *f)
{
    const char *sep = "";
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].usage) {
            fprintf(f, "%s%s", sep, commands[i].name);
            sep = ", ";
        }
}

static void print_usage(FILE *f)
{
    fputs("usage: smtop [OPTIONS] SOURCE       live dashboard\n"
          "       smtop --demo                 dashboard on a simulated live job\n", f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (commands[i].usage)
            fprintf(f, "       smtop %s\n", commands[i].usage);
    fputs("       smtop help [COMMAND]         this help, or a command's\n"
          "\n"
          "SOURCE is a profiler-output directory (or the job directory holding it),\n"
          "or s3://bucket/prefix. Run `smtop COMMAND --help` for a command's options.\n"
          "Times are shown and read in the local time zone, or in UTC with --utc.\n"
          "The dashboard opens on a job that has not written anything yet and waits\n"
          "for its first data; its header says LIVE while samples arrive, STALE and\n"
          "their age once they stop, ENDED when the newest is an hour old or more.\n"
          "\n"
          "  -h, --help       this help\n"
          "  -V, --version    print the version\n"
          "\n"
          "exit status: 0 success, 1 a source could not be read (or an output not\n"
          "written), 2 usage error, 3 `report --fail-on` rule triggered\n",
          f);
}

static int full_help(void)
{
    print_usage(stdout);
    fputs("\nDashboard options:\n", stdout);
    cmd_dashboard_options(stdout);
    return SMTOP_EXIT_OK;
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    return NULL;
}

/* `smtop help [COMMAND]`. */
static int run_help(int argc, char **argv)
{
    if (argc < 3)
        return full_help();
    if (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help")) {
        fputs("usage: smtop help [COMMAND]\n"
              "Prints the usage, or COMMAND's options, and exits 0.\n\n"
              "  -h, --help       this help\n", stdout);
        return 0;
    }
    const command *c = find_command(argv[2]);
    if (!c) {
        fprintf(stderr, "smtop help: no command '%s' (commands: ", argv[2]);
        print_names(stderr);
        fputs(")\n", stderr);
        return SMTOP_EXIT_USAGE;
    }
    char *args[] = {argv[2], "--help", NULL};
    return c->run(2, args);
}

/* argv[1] is neither a command nor an option. When it names nothing on
 * disk and looks like a word rather than a path, it is a mistyped
 * command (`smtop repotr DIR`), not a SOURCE: say so instead of waiting
 * for ./repotr to appear. 0 when it should be taken as a SOURCE. */
static int misspelled_command(int argc, char **argv)
{
    const char *w = argv[1];
    struct stat st;
    if (strchr(w, '/') || strchr(w, '.') || stat(w, &st) == 0)
        return 0;
    const char *names[NCOMMANDS + 1];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    const char *near = suggest_nearest(w, names, NCOMMANDS + 1);
    if (near)
        fprintf(stderr, "smtop: '%s' is not a command; did you mean `%s`?\n", w, near);
    else if (argc > 2 && argv[2][0] != '-') {
        fprintf(stderr, "smtop: unknown command '%s' (commands: ", w);
        print_names(stderr);
        fputs(", help)\n", stderr);
    } else
        return 0;
    return 1;
}

/* A status with SMTOP_EXIT_NOW: a thread still hangs in a request, and
 * exit()'s cleanup must not meet it (nor wait on it). */
static int exit_status(int rc)
{
    if (rc & SMTOP_EXIT_NOW) {
        fflush(NULL);
        _exit(rc & 0xff);
    }
    return rc;
}

/* glibc raises its mmap threshold after each large free, up to 32 MB: the
 * fetch slots' buffers of a megabyte or more (file bytes, records decoded
 * ahead, read buffers) then come from the heaps, where the holes they
 * leave stay resident among the model's small blocks. A fixed threshold
 * keeps each in its own mapping, given back whole when freed: peak RSS of
 * `report` on 64 nodes x 10 min 86 -> 78 MB, 16 x 4 h 65 -> 55 MB. */
static void keep_big_blocks_mapped(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int main(int argc, char **argv)
{
    keep_big_blocks_mapped();
    setlocale(LC_ALL, "");
    /* Before any command parses a time or starts a thread. */
    if (timearg_wants_utc(argc, argv))
        timearg_use_utc();
    if (argc < 2) {
        print_usage(stderr);
        return SMTOP_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
        return full_help();
    if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
        printf("smtop %s\n", SMTOP_VERSION);
        return SMTOP_EXIT_OK;
    }
    if (!strcmp(argv[1], "help"))
        return run_help(argc, argv);
    const command *c = find_command(argv[1]);
    if (c)
        return c->run(argc - 1, argv + 1);
    if (argv[1][0] != '-' && misspelled_command(argc, argv))
        return SMTOP_EXIT_USAGE;
    return exit_status(cmd_dashboard(argc, argv));
}
