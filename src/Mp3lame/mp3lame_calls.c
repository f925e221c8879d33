/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the caller's encode calls, in order (mp3lame_calls.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp3lame_calls.h"

int rl_mp3_calls_init(RlMp3Calls *c)
{
    memset(c, 0, sizeof *c);
    c->cap = 64;
    c->n = malloc((size_t) c->cap * sizeof *c->n);
    if (!c->n)
        return -ENOMEM;
    if (pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c->n);
        c->n = NULL;
        return -ENOMEM;
    }
    return 0;
}

void rl_mp3_calls_free(RlMp3Calls *c)
{
    if (!c->n)
        return;
    pthread_mutex_destroy(&c->mu);
    free(c->n);
    c->n = NULL;
}

/* doubles the queue, its entries moved to the front */
static int grow(RlMp3Calls *c)
{
    int *n = malloc((size_t) c->cap * 2 * sizeof *n);
    int i;
    if (!n)
        return -ENOMEM;
    for (i = 0; i < c->len; i++)
        n[i] = c->n[(c->head + i) % c->cap];
    free(c->n);
    c->n = n;
    c->head = 0;
    c->cap *= 2;
    return 0;
}

int rl_mp3_calls_push(RlMp3Calls *c, int n)
{
    int rc = 0;
    pthread_mutex_lock(&c->mu);
    if (c->len == c->cap)
        rc = grow(c);
    if (rc == 0) {
        c->n[(c->head + c->len) % c->cap] = n;
        c->len++;
    }
    pthread_mutex_unlock(&c->mu);
    return rc;
}

int rl_mp3_calls_pop(RlMp3Calls *c)
{
    int n = 0;
    pthread_mutex_lock(&c->mu);
    if (c->len > 0) {
        n = c->n[c->head];
        c->head = (c->head + 1) % c->cap;
        c->len--;
    }
    pthread_mutex_unlock(&c->mu);
    return n;
}
