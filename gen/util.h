/* util.h: allocation that cannot fail, a growable string, fatal errors. */
#ifndef GEMMGEN_UTIL_H
#define GEMMGEN_UTIL_H
#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *xrealloc(void *p, size_t n) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));

/* Exit status 2 for bad input (the brief's contract), 1 for internal or I/O
 * failures. Messages go to stderr prefixed with "gemmgen: ". */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* snprintf into a fixed buffer, where text cut short would become a wrong
 * kernel or path: truncation is an internal error. Returns the length. */
int strfmt(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct buf { char *s; size_t len, cap; };
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_puts(struct buf *b, const char *s);
void buf_free(struct buf *b);

int gcd(int a, int b);
int lcm(int a, int b);
#endif
