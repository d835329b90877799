/*
 * Captures what the library logs on stdout (ASCEND_SLOG_PRINT_TO_STDOUT=1) between begin and end, for tests that
 * check a log line: oa_log_capture_end tells whether a line containing `part` was written. Include after
 * <cmocka.h>.
 */
#ifndef OA_TESTS_LOG_CAPTURE_H
#define OA_TESTS_LOG_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct oa_log_capture {
    FILE *file;
    int saved; /* the real stdout */
} oa_log_capture;

static inline oa_log_capture oa_log_capture_begin(void)
{
    oa_log_capture c = {tmpfile(), -1};
    assert_non_null(c.file);
    fflush(stdout);
    c.saved = dup(STDOUT_FILENO);
    assert_true(c.saved >= 0 && dup2(fileno(c.file), STDOUT_FILENO) >= 0);
    return c;
}

static inline bool oa_log_capture_end(oa_log_capture *c, const char *part)
{
    fflush(stdout);
    assert_true(dup2(c->saved, STDOUT_FILENO) >= 0);
    close(c->saved);
    char line[1024];
    bool found = false;
    rewind(c->file);
    while (fgets(line, sizeof line, c->file) != NULL) {
        found |= strstr(line, part) != NULL;
    }
    fclose(c->file);
    return found;
}

#endif /* OA_TESTS_LOG_CAPTURE_H */
