/*
 * atc's command line, parsed the way CANN's atc parses it (gflags-style
 * long options through getopt_long):
 *   --name=value, --name value, -name=value (one dash before a name of at
 *   least two letters is read as two), dashes inside a name are read as
 *   underscores, bool flags take no value or =true/false/1/0/yes/no, -h and
 *   --help print the usage. The last occurrence of a flag wins.
 * Failures print CANN's "ERROR: ..." line on stderr (unknown flag, missing
 * argument, non-option parameter) or record CANN's error-code text
 * (E10001, E10003, E10006, E10007, E10010) for out-of-range values.
 */
#ifndef OA_TOOLS_ATC_FLAGS_H
#define OA_TOOLS_ATC_FLAGS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum atc_flag_type { ATC_STR, ATC_INT, ATC_BOOL } atc_flag_type;

/* What atc does with a flag. */
typedef enum atc_flag_use {
    ATC_USE,         /* implemented */
    ATC_IGNORE,      /* accepted and validated; no effect on a CPU build (a warning says so) */
    ATC_UNSUPPORTED  /* accepted by CANN, not implemented here: using it fails with "not supported yet" */
} atc_flag_use;

typedef struct atc_flag {
    const char *name;
    atc_flag_type type;
    atc_flag_use use;
    const char *dflt;
    const char *range; /* space-separated allowed values, NULL = any */
    const char *help;
    /* parse results */
    const char *value; /* current value (dflt until set) */
    bool set;
} atc_flag;

typedef enum atc_parse_result { ATC_PARSE_OK, ATC_PARSE_HELP, ATC_PARSE_FAIL } atc_parse_result;

/* Parses argv into the flag table (reset first). Values point into argv or
 * static strings. */
atc_parse_result atc_flags_parse(int argc, char **argv);

/* The flag named `name` (must exist). */
atc_flag *atc_flag_get(const char *name);

/* Value of a string flag; "" when unset with no default. */
const char *atc_str(const char *name);
/* Value of an int flag (validated by the parser). */
int32_t atc_int(const char *name);
/* Value of a bool flag. */
bool atc_bool(const char *name);
/* True when the user gave the flag. */
bool atc_is_set(const char *name);

/* The whole flag table (for warnings about ignored / unsupported flags). */
atc_flag *atc_flags_table(int *count);

/* Prints the usage text on stdout. */
void atc_print_usage(void);

#endif /* OA_TOOLS_ATC_FLAGS_H */
