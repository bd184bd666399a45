/* cmd_complete: `smtop --complete OPTION`, the hidden helper of the bash
 * and zsh completions (tui/cmd/completion/). It prints the values OPTION
 * accepts, one per line, from the tables the parsers use — theme files
 * found now, rule names and parameters, symbol sets, sort keys — so a new
 * theme or rule completes without editing the scripts. Options and
 * subcommands themselves the scripts read from `--help`. An option with
 * no fixed values prints nothing: the script falls back to file names. */
#include <stdio.h>
#include <string.h>

#include "model/jobs/joblist.h"

#include "model/pystats/pystats.h"
#include "model/rules/rules.h"
#include "tui/cmd/commands.h"
#include "tui/panes/chart.h"
#include "tui/theme/theme.h"

/* 1 when a file name can be offered as one shell word: a name with a
 * blank or a control byte (an escape sequence in a file name) is left
 * out rather than printed to the user's terminal. */
static int plain_word(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || (unsigned char)*s == 0x7f)
            return 0;
    return 1;
}

static void list_themes(FILE *f)
{
    char names[64][64];
    size_t n = theme_list(names, 64, NULL);
    for (size_t i = 0; i < n; i++)
        if (plain_word(names[i]))
            fprintf(f, "%s\n", names[i]);
}

static void list_rules(FILE *f)
{
    for (size_t i = 0; i < rules_count(); i++)
        fprintf(f, "%s\n", rules_name_at(i));
}

/* Name.param= : the user types the number after the '='. */
static void list_rule_params(FILE *f)
{
    for (size_t i = 0; i < rules_count(); i++)
        for (size_t p = 0; p < rules_param_count(i); p++)
            fprintf(f, "%s.%s=\n", rules_name_at(i), rules_param_name(i, p));
}

static void list_symbols(FILE *f)
{
    for (int g = 0; g < GLYPHS_COUNT; g++)
        fprintf(f, "%s\n", chart_glyphs_name((chart_glyphs)g));
}

static void list_python_sort(FILE *f)
{
    for (int k = 0; k < PYSORT_COUNT; k++)
        fprintf(f, "%s\n", pystats_sort_name((pystats_sort)k));
}

/* The words report_python_parse_arg takes; tests/integration/
 * test_completion.sh checks that each one is accepted. */
static void list_python_phase(FILE *f)
{
    fputs("before\ntraining\nafter\n", f);
}

/* `smtop jobs --sort`: every column, ascending (a '-' reverses). */
static void list_jobs_sort(FILE *f)
{
    for (int c = 0; c < JOBCOL_COUNT; c++)
        fprintf(f, "%s\n", joblist_col_name((jobcol)c));
}

static void list_jobs_status(FILE *f)
{
    fputs("InProgress\nCompleted\nFailed\nStopping\nStopped\n", f);
}

static const struct {
    const char *option;
    void (*list)(FILE *f);
} value_lists[] = {
    {"--theme", list_themes},
    {"--rule", list_rule_params},
    {"--fail-on", list_rules},
    {"--symbols", list_symbols},
    {"--python-sort", list_python_sort},
    {"--python-phase", list_python_phase},
    {"--sort", list_jobs_sort},
    {"--status", list_jobs_status},
};

int cmd_complete(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: smtop --complete OPTION   (values of OPTION, for shell completion)\n",
              stderr);
        return SMTOP_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof value_lists / sizeof *value_lists; i++)
        if (!strcmp(argv[1], value_lists[i].option))
            value_lists[i].list(stdout);
    return SMTOP_EXIT_OK;
}
