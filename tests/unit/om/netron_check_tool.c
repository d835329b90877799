/*
 * netron_check_tool FILE.om...: the Netron checker (netron_check.h) on files
 * the installed atc wrote (tests/models: the AIPP models). Exit 0 when every
 * file would open in Netron.
 */
#include <stdio.h>
#include <stdlib.h>

#include "netron_check.h"

int main(int argc, char **argv)
{
    int bad = argc < 2;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        long n = -1;
        if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
            n = ftell(f);
        }
        unsigned char *b = n > 0 ? malloc((size_t)n) : NULL;
        if (f == NULL || b == NULL || fseek(f, 0, SEEK_SET) != 0 || fread(b, 1, (size_t)n, f) != (size_t)n) {
            printf("%s: cannot read\n", argv[i]);
            bad = 1;
        } else {
            char msg[512];
            const int r = netron_check(b, (size_t)n, msg, sizeof msg);
            printf("%s: %s\n", argv[i], r == 0 ? "opens in Netron" : msg);
            bad |= r != 0;
        }
        free(b);
        if (f != NULL) {
            fclose(f);
        }
    }
    return bad;
}
