/* Built instead of test_blis when BLIS is not installed: exit 77 tells
 * meson the test was skipped, so the missing libblis-dev shows. */
#include <stdio.h>

int main(void)
{
    puts("BLIS (libblis-dev) not found: BLIS drop-in test skipped");
    return 77;
}
