/* threads.c: how many threads, and a small persistent pthread pool.
 * Workers are created on first need and sleep on a condition variable
 * between calls, so a GEMM does not pay thread creation. Only one GEMM
 * uses the pool at a time; a concurrent (or nested) call runs its parts
 * one after another on the calling thread instead of waiting. After a job
 * the threads spin for a while (SPIN_NS) before sleeping. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "gg_internal.h"

enum { MAX_THREADS = 256 };

static atomic_int user_threads;     /* gemmgen_set_num_threads; 0 = default */

static int env_threads(const char *name)
{
    const char *s = getenv(name);
    int v = s ? atoi(s) : 0;        /* OMP_NUM_THREADS="4,2": the first level */
    return v > 0 ? v : 0;
}

static int online_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int default_threads(void)
{
    int n = env_threads("GEMMGEN_NUM_THREADS");
    if (!n) n = env_threads("OMP_NUM_THREADS");
    if (!n) n = online_cpus();
    return n;
}

/* Relaxed atomics: concurrent callers read these while another thread may
 * set them, and all they need is one whole value. */
int gg_threads_wanted(void)
{
    static atomic_int dflt;         /* env is read once (racing first calls agree) */
    int d = atomic_load_explicit(&dflt, memory_order_relaxed);
    if (!d) {
        d = default_threads();
        atomic_store_explicit(&dflt, d, memory_order_relaxed);
    }
    int u = atomic_load_explicit(&user_threads, memory_order_relaxed);
    int n = u > 0 ? u : d;
    return n > MAX_THREADS ? MAX_THREADS : n;
}

void gemmgen_set_num_threads(int n)
{
    atomic_store_explicit(&user_threads, n > 0 ? n : 0, memory_order_relaxed);
}
int gemmgen_get_num_threads(void) { return gg_threads_wanted(); }

/* ---- the pool ---- */
static pthread_mutex_t busy = PTHREAD_MUTEX_INITIALIZER;   /* one GEMM at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static int nworkers;                /* started so far */
static _Atomic unsigned long generation;   /* bumped per job (under lock) */
static void (*job_fn)(void *, int, int);
static void *job_arg;
static int job_nt;
static _Atomic int job_left;

static unsigned long born[MAX_THREADS];   /* generation when each worker started */

/* Waking a sleeping thread costs tens of microseconds, as much as a
 * 100^3 GEMM part: between back-to-back calls the threads spin this long
 * on the atomics before sleeping on the condition variables. */
enum { SPIN_NS = 100000 };

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

/* Calls come back to back when the previous one started less than SPIN_NS
 * ago: then the pool's threads are (or will stay) spinning, and waking
 * them costs a fraction of a microsecond instead of tens. */
static _Atomic int64_t last_call_ns;

int gg_calls_back_to_back(void)
{
    int64_t now = (int64_t)now_ns();
    int64_t prev = atomic_exchange_explicit(&last_call_ns, now, memory_order_relaxed);
    return now - prev < SPIN_NS;
}

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Spinning gives up after SPIN_NS; the caller then re-checks under the
 * lock, so giving up early is never wrong. spin_over(i, end) is true when the
 * i-th round finds the time up (the clock is read every 64 rounds). */
static bool spin_over(int i, double end)
{
    if ((i & 63) == 63 && now_ns() > end)
        return true;
    relax();
    return false;
}

static void spin_while_ul(_Atomic unsigned long *v, unsigned long old)
{
    double end = now_ns() + SPIN_NS;
    for (int i = 0; atomic_load_explicit(v, memory_order_acquire) == old && !spin_over(i, end); i++)
        ;
}

static void spin_while_nonzero(_Atomic int *v)
{
    double end = now_ns() + SPIN_NS;
    for (int i = 0; atomic_load_explicit(v, memory_order_acquire) != 0 && !spin_over(i, end); i++)
        ;
}

static void *worker(void *p)
{
    int id = (int)(intptr_t)p;      /* part id: 1..nworkers */
    unsigned long seen = born[id];  /* jobs before its birth are not its own */
    for (;;) {
        spin_while_ul(&generation, seen);
        pthread_mutex_lock(&lock);
        while (generation == seen)
            pthread_cond_wait(&wake, &lock);
        seen = generation;
        void (*fn)(void *, int, int) = job_fn;
        void *arg = job_arg;
        int nt = job_nt;
        pthread_mutex_unlock(&lock);
        if (id >= nt)
            continue;               /* this job uses fewer threads */
        fn(arg, id, nt);
        if (atomic_fetch_sub_explicit(&job_left, 1, memory_order_acq_rel) == 1) {
            pthread_mutex_lock(&lock);      /* the caller may be asleep */
            pthread_cond_signal(&done);
            pthread_mutex_unlock(&lock);
        }
    }
    return NULL;
}

/* After fork() only the forking thread exists in the child: forget the
 * workers so a GEMM there starts its own. */
static void child_after_fork(void)
{
    pthread_mutex_init(&busy, NULL);
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&wake, NULL);
    pthread_cond_init(&done, NULL);
    nworkers = 0;
}

/* Starts workers up to nt-1; returns how many parts can run in parallel. */
static int grow(int nt)
{
    static int registered;
    if (!registered) {
        pthread_atfork(NULL, NULL, child_after_fork);
        registered = 1;
    }
    while (nworkers < nt - 1) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        born[nworkers + 1] = generation;
        int err = pthread_create(&th, &at, worker, (void *)(intptr_t)(nworkers + 1));
        pthread_attr_destroy(&at);
        if (err) break;
        nworkers++;
    }
    return nworkers + 1 < nt ? nworkers + 1 : nt;
}

static void serial(int nt, void (*fn)(void *, int, int), void *arg)
{
    for (int t = 0; t < nt; t++)
        fn(arg, t, nt);
}

void gg_parallel(int nt, void (*fn)(void *arg, int t, int nt), void *arg)
{
    if (nt <= 1 || pthread_mutex_trylock(&busy) != 0) {
        serial(nt, fn, arg);
        return;
    }
    pthread_mutex_lock(&lock);
    int par = grow(nt);
    if (par < nt) {                 /* could not start enough threads */
        pthread_mutex_unlock(&lock);
        pthread_mutex_unlock(&busy);
        serial(nt, fn, arg);
        return;
    }
    job_fn = fn; job_arg = arg; job_nt = nt; job_left = nt - 1;
    generation++;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    fn(arg, 0, nt);
    spin_while_nonzero(&job_left);
    pthread_mutex_lock(&lock);
    while (job_left > 0)
        pthread_cond_wait(&done, &lock);
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&busy);
}
