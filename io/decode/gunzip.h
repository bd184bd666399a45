/* gunzip: a gzip stream inflated as its bytes come, in pieces of any
 * size, each piece of output handed on at once (issue 35: the Kineto
 * decoder's inflate). Holds its window and one output buffer, never the
 * file. Concatenated gzip members read as one stream, as gzip -d does. */
#ifndef SMTOP_GUNZIP_H
#define SMTOP_GUNZIP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gunzip gunzip;

/* Takes the next n bytes of output (valid during the call only); 0 goes
 * on, anything else stops the inflate where it is. */
typedef int (*gunzip_out)(void *ud, const char *p, size_t n);

/* A stream whose output comes in pieces of at most out_cap bytes. NULL on
 * OOM. */
gunzip *gunzip_new(size_t out_cap);
void gunzip_free(gunzip *z);

/* Takes the next n compressed bytes, handing out the output of every
 * whole 64 KiB of the file they complete (the rest waits for more bytes or
 * gunzip_flush: the output, and where damage is noticed, are then the same
 * whatever sizes the pieces had). 0: taken (once out said stop, later
 * bytes are ignored); -1: the data is corrupt (gunzip_why), and every
 * later call returns -1. The output before the damage was handed on. */
int gunzip_feed(gunzip *z, const void *p, size_t n, gunzip_out out, void *ud);

/* The bytes fed so far are all there is for now (the file's end, or a
 * head being judged): inflates the ones held back. 0, or -1 corrupt. */
int gunzip_flush(gunzip *z, gunzip_out out, void *ud);

/* 1 when the bytes fed so far, flushed, end exactly at the end of a gzip
 * member (its CRC and length checked): a complete file; 0 while one is
 * open. */
int gunzip_complete(const gunzip *z);

/* Why the stream failed ("invalid block", ...), or "" before a failure. */
const char *gunzip_why(const gunzip *z);

#endif
