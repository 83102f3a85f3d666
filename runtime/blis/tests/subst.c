/* subst: concatenate template files into OUT, replacing @KEY@ by VALUE.
 * Stands in for gemmgen's own template expansion until `gemmgen --blis`
 * works, so the test builds the hand kernel + BLIS wrapper the same way.
 * usage: subst OUT KEY=VALUE... -- TEMPLATE... */
#include <stdio.h>
#include <string.h>

enum { MAXDEF = 16 };
static const char *keys[MAXDEF], *vals[MAXDEF];
static size_t keylen[MAXDEF];
static int ndef;

/* Write one template, expanding every @KEY@ it names; others stay as is. */
static int expand(FILE *out, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) { perror(path); return 1; }
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, in);
    fclose(in);
    buf[len] = '\0';
    for (const char *s = buf; *s; ) {
        int hit = -1;
        for (int i = 0; *s == '@' && i < ndef; i++)
            if (!strncmp(s + 1, keys[i], keylen[i]) && s[1 + keylen[i]] == '@') hit = i;
        if (hit < 0) { fputc(*s++, out); continue; }
        fputs(vals[hit], out);
        s += keylen[hit] + 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int i = 2;
    if (argc < 4) { fprintf(stderr, "usage: subst OUT KEY=VALUE... -- TEMPLATE...\n"); return 1; }
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq || ndef == MAXDEF) { fprintf(stderr, "subst: bad %s\n", argv[i]); return 1; }
        *eq = '\0';
        keys[ndef] = argv[i]; keylen[ndef] = strlen(argv[i]); vals[ndef++] = eq + 1;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) { perror(argv[1]); return 1; }
    for (i++; i < argc; i++)
        if (expand(out, argv[i])) return 1;
    return fclose(out) != 0;
}
