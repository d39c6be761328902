/* Typed getters over a yajl tree that name the JSON path of what is wrong:
 * "process.args[1]: expected a string". Parsed values live in an arena; strings
 * point into the yajl tree, which lives as long as the parsed struct. */
#ifndef UNIRUN_JSON_H
#define UNIRUN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_tree.h>
#include <yajl/yajl_gen.h>
#include "lib/error.h"

struct arena {
	struct arena_chunk *head;
};
void *arena_alloc(struct arena *a, size_t n); /* zeroed */
char *arena_strdup(struct arena *a, const char *s);
void arena_free(struct arena *a);

#define JPATH_MAX 256

/* A parse context: the arena to allocate from and the error to fill. */
struct jctx {
	struct arena *arena;
	struct uerr *e;
};

typedef int (*j_fn)(struct jctx *c, yajl_val v, const char *path, void *out);

yajl_val json_parse(const char *text, const char *what, struct uerr *e);
/* Last duplicate key wins, as in Go's encoding/json (runc). */
yajl_val j_get(yajl_val obj, const char *key);
void jpath_key(char *buf, const char *path, const char *key);

int j_err(struct jctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int j_object(struct jctx *c, yajl_val v, const char *path);

/* Call fn on obj[key] if present (j_opt) or fail when absent (j_req). */
int j_opt(struct jctx *c, yajl_val obj, const char *path, const char *key, j_fn fn, void *out);
int j_req(struct jctx *c, yajl_val obj, const char *path, const char *key, j_fn fn, void *out);

/* Element parsers, all of type j_fn. */
int j_str(struct jctx *c, yajl_val v, const char *path, void *out);      /* char ** */
int j_bool(struct jctx *c, yajl_val v, const char *path, void *out);     /* bool * */
int j_i64(struct jctx *c, yajl_val v, const char *path, void *out);      /* int64_t * */
int j_u64(struct jctx *c, yajl_val v, const char *path, void *out);      /* uint64_t *, >= 0 */
int j_u32(struct jctx *c, yajl_val v, const char *path, void *out);      /* uint32_t * */
int j_int(struct jctx *c, yajl_val v, const char *path, void *out);      /* int * */
int j_strv(struct jctx *c, yajl_val v, const char *path, void *out);     /* char *** NULL-terminated */

/* Optional numbers: a value plus whether it was given. */
struct opt_i64 {
	bool set;
	int64_t v;
};
int j_opt_i64(struct jctx *c, yajl_val v, const char *path, void *out);  /* struct opt_i64 * */
int j_opt_u64(struct jctx *c, yajl_val v, const char *path, void *out);  /* struct opt_i64 *, >= 0 */

/* An array of structs: allocates n elements of `size` and calls fn on each. */
int j_array(struct jctx *c, yajl_val v, const char *path, size_t size, j_fn fn, void **out, size_t *n);

/* A JSON object of string values, as a NULL-terminated key,value,key,value… vector. */
int j_strmap(struct jctx *c, yajl_val v, const char *path, void *out);   /* char *** */
size_t strv_len(char *const *v);

/* Generation helpers. */
void jg_str(yajl_gen g, const char *s);
void jg_kv(yajl_gen g, const char *key, const char *val);
void jg_ki(yajl_gen g, const char *key, long long val);
void jg_kb(yajl_gen g, const char *key, bool val);
/* Take the generated text (malloc'ed) and free the generator. */
char *jg_finish(yajl_gen g, size_t *len);

#endif
