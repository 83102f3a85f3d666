/* buffers.c: packing space, an A, a B, an edge-panel and a row-tail buffer
 * per thread. They only grow, so steady-state GEMM calls never allocate; a
 * pthread key frees them when a thread ends. 64-byte alignment keeps
 * every packed micro-panel on cache-line (and zmm) boundaries. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "gg_internal.h"

struct bufs { void *p[4]; size_t size[4]; };

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* The thread's buffers: a thread-local pointer, so that a small call
 * does not pay pthread_once and pthread_getspecific each time (a tenth of
 * DGEMM 8^3); the key is only there to free them when the thread ends. */
static _Thread_local struct bufs *mine;

static void release(void *v)
{
    struct bufs *b = v;
    free(b->p[0]);
    free(b->p[1]);
    free(b->p[2]);
    free(b->p[3]);
    free(b);
    mine = NULL;
}

static void make_key(void) { pthread_key_create(&key, release); }

static void *fail(size_t bytes)
{
    fprintf(stderr, "gemmgen: cannot allocate %zu bytes of packing space\n", bytes);
    abort();
}

static struct bufs *make_mine(void)
{
    pthread_once(&once, make_key);
    struct bufs *b = calloc(1, sizeof *b);
    if (!b) fail(sizeof *b);
    pthread_setspecific(key, b);
    return mine = b;
}

void *gg_pack_buffer(int which, size_t bytes)
{
    struct bufs *b = mine ? mine : make_mine();
    if (b->size[which] < bytes) {
        size_t sz = (bytes + 4095) / 4096 * 4096;   /* aligned_alloc wants a multiple */
        free(b->p[which]);
        b->p[which] = aligned_alloc(64, sz);
        if (!b->p[which]) fail(sz);
        b->size[which] = sz;
    }
    return b->p[which];
}
