/*
 * Captures what the library writes on stdout (its log, with ASCEND_SLOG_PRINT_TO_STDOUT=1) or on stderr (the
 * OPENACL_V1_PROFILE table) between begin and end, for tests that check a line: oa_log_capture_end tells whether
 * a line containing `part` was written; oa_log_capture_stop hands back the text to read; oa_lines_contain searches any
 * file's lines. Include after <cmocka.h>.
 */
#ifndef OA_TESTS_LOG_CAPTURE_H
#define OA_TESTS_LOG_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct oa_log_capture {
    FILE *file;
    int saved; /* the real stream */
    int fd;    /* STDOUT_FILENO or STDERR_FILENO */
} oa_log_capture;

static inline oa_log_capture oa_log_capture_fd(int fd)
{
    oa_log_capture c = {tmpfile(), -1, fd};
    assert_non_null(c.file);
    fflush(fd == STDERR_FILENO ? stderr : stdout);
    c.saved = dup(fd);
    assert_true(c.saved >= 0 && dup2(fileno(c.file), fd) >= 0);
    return c;
}

static inline oa_log_capture oa_log_capture_begin(void)
{
    return oa_log_capture_fd(STDOUT_FILENO);
}

/* Restores the stream; the captured text from its start (the caller closes it). */
static inline FILE *oa_log_capture_stop(oa_log_capture *c)
{
    fflush(c->fd == STDERR_FILENO ? stderr : stdout);
    assert_true(dup2(c->saved, c->fd) >= 0);
    close(c->saved);
    rewind(c->file);
    return c->file;
}

/* Whether a line of f (read to its end, then closed) contains part. */
static inline bool oa_lines_contain(FILE *f, const char *part)
{
    char line[1024];
    bool found = false;
    while (fgets(line, sizeof line, f) != NULL) {
        found |= strstr(line, part) != NULL;
    }
    fclose(f);
    return found;
}

static inline bool oa_log_capture_end(oa_log_capture *c, const char *part)
{
    return oa_lines_contain(oa_log_capture_stop(c), part);
}

#endif /* OA_TESTS_LOG_CAPTURE_H */
