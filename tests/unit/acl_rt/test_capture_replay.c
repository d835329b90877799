#define _GNU_SOURCE
#include "rt_test_util.h"
int main(void) { return 0; }
