/*
 * Runs two programs at the same time, as the run.sh of CANN's two-process examples does
 * ("./proc_a & ./proc_b & wait"), in a fresh working directory (the examples exchange files in "./"), and
 * fails unless both exit with 0. Usage: run_pair <program A> <program B>
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t start(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl(path, path, (char *)NULL);
        perror("execl");
        _exit(127);
    }
    return pid;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s <program A> <program B>\n", argv[0]);
        return 2;
    }
    char dir[] = "/tmp/oa_run_pair_XXXXXX";
    char a[4096], b[4096];
    if (realpath(argv[1], a) == NULL || realpath(argv[2], b) == NULL || mkdtemp(dir) == NULL || chdir(dir) != 0) {
        perror("setup");
        return 2;
    }
    if (mkdir("file", 0700) != 0) { /* the IPC memory examples exchange files under ./file */
        perror("mkdir");
        return 2;
    }
    fflush(stdout);
    pid_t pa = start(a), pb = start(b);
    int sa = 0, sb = 0;
    waitpid(pa, &sa, 0);
    waitpid(pb, &sb, 0);
    int rc = (WIFEXITED(sa) && WEXITSTATUS(sa) == 0 && WIFEXITED(sb) && WEXITSTATUS(sb) == 0) ? 0 : 1;
    printf("%s: process A status %d, process B status %d\n", rc == 0 ? "[SUCCESS]" : "[FAILURE]", sa, sb);
    (void)system("rm -rf ./file ./*.bin ./*.flag");
    (void)chdir("/");
    (void)rmdir(dir);
    return rc;
}
