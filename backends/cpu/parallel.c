/* The CPU kernels' worker pool (parallel.h). Workers are started on first
 * use, one fewer than the CPUs the process may run on (at most 63), and
 * sleep on a condition variable between jobs. One job runs at a time; it
 * is published under the lock with a new generation number, workers join
 * it up to the job's thread budget, and the caller takes chunks too, then
 * closes the job and waits until every worker that joined has left, so
 * the job's state (on the caller's stack) is never read after return.
 * libairc is linked with -z nodelete so the workers' code outlives a
 * dlclose. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "backends/cpu/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

#define MAX_WORKERS 63

typedef struct job {
    airc_cpu_range_fn fn;
    void *arg;
    int64_t n, chunk;
    atomic_int_fast64_t next;
} job;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    uint64_t gen; /* bumped per job */
    bool open;    /* the current job takes joiners */
    int joined;   /* workers that joined the current job */
    int max_join; /* its budget, less the caller */
    int active;   /* workers inside a job */
    job *cur;
    int nworkers;
} pool = {PTHREAD_MUTEX_INITIALIZER,
          PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER,
          0,
          false,
          0,
          0,
          0,
          NULL,
          0};

/* one job at a time; a caller that finds it taken runs alone */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t started = PTHREAD_ONCE_INIT;

static void take_chunks(job *j)
{
    for (;;) {
        int64_t b = atomic_fetch_add_explicit(&j->next, j->chunk, memory_order_relaxed);
        if (b >= j->n)
            return;
        j->fn(j->arg, b, j->n - b < j->chunk ? j->n : b + j->chunk);
    }
}

static void *worker(void *unused)
{
    (void)unused;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.open || pool.gen == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        seen = pool.gen;
        if (pool.joined >= pool.max_join)
            continue;
        pool.joined++;
        pool.active++;
        job *j = pool.cur;
        pthread_mutex_unlock(&pool.lock);
        take_chunks(j);
        pthread_mutex_lock(&pool.lock);
        if (--pool.active == 0)
            pthread_cond_signal(&pool.idle);
    }
    return NULL;
}

static int usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 1)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 && n < 4096 ? (int)n : 1;
}

/* Workers that fail to start are simply not there: jobs run with fewer. */
static void start_workers(void)
{
    int want = usable_cpus() - 1;
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr))
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int made = 0;
    for (int i = 0; i < want; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker, NULL) == 0)
            made++;
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&pool.lock);
    pool.nworkers = made;
    pthread_mutex_unlock(&pool.lock);
}

void airc_cpu_parallel_for(int32_t threads, int64_t n, int64_t grain, airc_cpu_range_fn fn,
                           void *arg)
{
    if (n <= 0)
        return;
    if (grain < 1)
        grain = 1;
    int64_t pieces = n / grain;
    if (threads <= 1 || pieces < 2 || pthread_once(&started, start_workers) != 0 ||
        pthread_mutex_trylock(&job_lock) != 0) {
        fn(arg, 0, n);
        return;
    }
    if (threads > pieces)
        threads = (int32_t)pieces;
    /* about four chunks per thread, so a thread slowed by other load does
     * not hold the others up */
    int64_t chunk = n / ((int64_t)threads * 4);
    job j = {fn, arg, n, chunk > grain ? chunk : grain, 0};
    pthread_mutex_lock(&pool.lock);
    int helpers = threads - 1 < pool.nworkers ? threads - 1 : pool.nworkers;
    if (helpers > 0) {
        pool.cur = &j;
        pool.max_join = helpers;
        pool.joined = 0;
        pool.gen++;
        pool.open = true;
        pthread_cond_broadcast(&pool.wake);
    }
    pthread_mutex_unlock(&pool.lock);
    take_chunks(&j);
    if (helpers > 0) {
        pthread_mutex_lock(&pool.lock);
        pool.open = false;
        while (pool.active)
            pthread_cond_wait(&pool.idle, &pool.lock);
        pool.cur = NULL;
        pthread_mutex_unlock(&pool.lock);
    }
    pthread_mutex_unlock(&job_lock);
}
