#ifndef GEMMGEN_OUTFILE_H
#define GEMMGEN_OUTFILE_H
/* Writes all files or none that is half written (at most 8). */
void write_files_atomic(const char *const *paths, const char *const *texts, int n);
#endif
