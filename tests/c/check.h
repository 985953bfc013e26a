/* The C tests' assertions: a failed check prints where, what and cadence's last error, then
 * exits non-zero. Each test is a function; RUN(test) runs one and says so. */
#ifndef CADENCE_TESTS_C_CHECK_H
#define CADENCE_TESTS_C_CHECK_H

#include <cadence/cadence.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when `words` is NULL or cadence's last error says it. */
static inline int last_error_says(const char* words) {
  return words == NULL || strstr(cadence_last_error(), words) != NULL;
}

#define CHECK(cond)                                                                                     \
  do {                                                                                                  \
    if (!(cond)) {                                                                                      \
      fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, __LINE__, #cond,         \
              cadence_last_error());                                                                    \
      exit(1);                                                                                          \
    }                                                                                                   \
  } while (0)

/* `expr` returns `want`; for a failure, the last error contains `words` (NULL: not checked). */
#define CHECK_STATUS(expr, want, words)                                                                 \
  do {                                                                                                  \
    const int got_ = (expr);                                                                            \
    if (got_ != (want)) {                                                                               \
      fprintf(stderr, "%s:%d: %s returned %s, not %s; last error: %s\n", __FILE__, __LINE__, #expr,    \
              cadence_status_name(got_), cadence_status_name(want), cadence_last_error());              \
      exit(1);                                                                                          \
    }                                                                                                   \
    if (!last_error_says(words)) {                                                                      \
      fprintf(stderr, "%s:%d: %s: the message \"%s\" does not say \"%s\"\n", __FILE__, __LINE__, #expr, \
              cadence_last_error(), (const char*)(words));                                              \
      exit(1);                                                                                          \
    }                                                                                                   \
  } while (0)

#define CHECK_OK(expr) CHECK_STATUS(expr, CADENCE_OK, NULL)

/* The test to run alone (main's first argument), or NULL for all. */
static const char* only_test = NULL;

#define RUN(test)                                                 \
  do {                                                            \
    if (only_test == NULL || strcmp(only_test, #test) == 0) {     \
      test();                                                     \
      printf("ok %s\n", #test);                                   \
    }                                                             \
  } while (0)

#define MS(n) ((cadence_ns)(n) * 1000000)

#endif
