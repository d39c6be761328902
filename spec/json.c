#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/util.h"
#include "spec/json.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;
	size_t need = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	void *p;

	if (!c || c->cap - c->used < need) {
		size_t cap = need > 8192 ? need : 8192;
		c = xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	p = (char *)c->data + c->used;
	c->used += need;
	memset(p, 0, n);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(arena_alloc(a, n), s, n);
}

void arena_free(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *next = a->head->next;
		free(a->head);
		a->head = next;
	}
}

yajl_val json_parse(const char *text, const char *what, struct uerr *e)
{
	char ebuf[512];
	yajl_val t = yajl_tree_parse(text, ebuf, sizeof(ebuf));

	if (!t) {
		/* yajl's message spans lines: keep the first. */
		char *nl = strchr(ebuf, '\n');
		if (nl)
			*nl = '\0';
		uerr_set(e, 0, "%s: not valid JSON: %s", what, ebuf[0] ? ebuf : "parse error");
		return NULL;
	}
	return t;
}

yajl_val j_get(yajl_val obj, const char *key)
{
	if (!YAJL_IS_OBJECT(obj))
		return NULL;
	for (size_t i = obj->u.object.len; i-- > 0;)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

void jpath_key(char *buf, const char *path, const char *key)
{
	if (path && *path)
		snprintf(buf, JPATH_MAX, "%s.%s", path, key);
	else
		snprintf(buf, JPATH_MAX, "%s", key);
}

int j_err(struct jctx *c, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return uerr_set(c->e, 0, "%s: %s", path && *path ? path : "(top level)", msg);
}

int j_object(struct jctx *c, yajl_val v, const char *path)
{
	return YAJL_IS_OBJECT(v) ? 0 : j_err(c, path, "expected an object");
}

int j_opt(struct jctx *c, yajl_val obj, const char *path, const char *key, j_fn fn, void *out)
{
	char sub[JPATH_MAX];
	yajl_val v = j_get(obj, key);

	/* null is "not given", as Go's decoder treats it for pointers and slices. */
	if (!v || YAJL_IS_NULL(v))
		return 0;
	jpath_key(sub, path, key);
	return fn(c, v, sub, out);
}

int j_req(struct jctx *c, yajl_val obj, const char *path, const char *key, j_fn fn, void *out)
{
	char sub[JPATH_MAX];
	yajl_val v = j_get(obj, key);

	jpath_key(sub, path, key);
	if (!v || YAJL_IS_NULL(v))
		return j_err(c, sub, "required but missing");
	return fn(c, v, sub, out);
}

int j_str(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (!YAJL_IS_STRING(v))
		return j_err(c, path, "expected a string");
	*(char **)out = v->u.string;
	return 0;
}

int j_bool(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
		return j_err(c, path, "expected true or false");
	*(bool *)out = YAJL_IS_TRUE(v);
	return 0;
}

int j_i64(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (!YAJL_IS_INTEGER(v))
		return j_err(c, path, "expected an integer");
	*(int64_t *)out = YAJL_GET_INTEGER(v);
	return 0;
}

int j_u64(struct jctx *c, yajl_val v, const char *path, void *out)
{
	/* yajl keeps integers as int64; a uint64 above INT64_MAX comes as a double. */
	if (YAJL_IS_DOUBLE(v) && !YAJL_IS_INTEGER(v) && v->u.number.d >= 9.2e18 &&
	    v->u.number.d <= 1.8446744073709552e19 && !strpbrk(v->u.number.r, ".eE-")) {
		*(uint64_t *)out = strtoull(v->u.number.r, NULL, 10);
		return 0;
	}
	if (!YAJL_IS_INTEGER(v))
		return j_err(c, path, "expected an integer");
	if (YAJL_GET_INTEGER(v) < 0)
		return j_err(c, path, "must not be negative, got %lld", (long long)YAJL_GET_INTEGER(v));
	*(uint64_t *)out = (uint64_t)YAJL_GET_INTEGER(v);
	return 0;
}

int j_u32(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (!YAJL_IS_INTEGER(v))
		return j_err(c, path, "expected an integer");
	if (YAJL_GET_INTEGER(v) < 0 || YAJL_GET_INTEGER(v) > UINT32_MAX)
		return j_err(c, path, "out of range 0..4294967295: %lld", (long long)YAJL_GET_INTEGER(v));
	*(uint32_t *)out = (uint32_t)YAJL_GET_INTEGER(v);
	return 0;
}

int j_int(struct jctx *c, yajl_val v, const char *path, void *out)
{
	if (!YAJL_IS_INTEGER(v))
		return j_err(c, path, "expected an integer");
	if (YAJL_GET_INTEGER(v) < INT_MIN || YAJL_GET_INTEGER(v) > INT_MAX)
		return j_err(c, path, "out of range: %lld", (long long)YAJL_GET_INTEGER(v));
	*(int *)out = (int)YAJL_GET_INTEGER(v);
	return 0;
}

int j_opt_i64(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct opt_i64 *o = out;
	int r = j_i64(c, v, path, &o->v);

	o->set = r == 0;
	return r;
}

int j_opt_u64(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct opt_i64 *o = out;
	uint64_t u;
	int r = j_u64(c, v, path, &u);

	if (r == 0 && u > INT64_MAX)
		return j_err(c, path, "out of range");
	o->v = (int64_t)u;
	o->set = r == 0;
	return r;
}

int j_array(struct jctx *c, yajl_val v, const char *path, size_t size, j_fn fn, void **out, size_t *n)
{
	char sub[JPATH_MAX];
	char *arr;

	if (!YAJL_IS_ARRAY(v))
		return j_err(c, path, "expected an array");
	arr = arena_alloc(c->arena, size * (v->u.array.len + 1));
	for (size_t i = 0; i < v->u.array.len; i++) {
		int r;

		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		r = fn(c, v->u.array.values[i], sub, arr + i * size);
		if (r < 0)
			return r;
	}
	*out = arr;
	*n = v->u.array.len;
	return 0;
}

int j_strv(struct jctx *c, yajl_val v, const char *path, void *out)
{
	size_t n;
	void *arr;
	/* Elements are char *, so the array of n+1 zeroed pointers ends in NULL. */
	int r = j_array(c, v, path, sizeof(char *), j_str, &arr, &n);

	if (r == 0)
		*(char ***)out = arr;
	return r;
}

int j_strmap(struct jctx *c, yajl_val v, const char *path, void *out)
{
	char sub[JPATH_MAX];
	char **kv;
	size_t n;

	if (!YAJL_IS_OBJECT(v))
		return j_err(c, path, "expected an object");
	n = v->u.object.len;
	kv = arena_alloc(c->arena, sizeof(char *) * (2 * n + 1));
	for (size_t i = 0; i < n; i++) {
		jpath_key(sub, path, v->u.object.keys[i]);
		if (j_str(c, v->u.object.values[i], sub, &kv[2 * i + 1]) < 0)
			return uerr_ret(c->e);
		kv[2 * i] = (char *)v->u.object.keys[i];
	}
	*(char ***)out = kv;
	return 0;
}

size_t strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

void jg_str(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

void jg_kv(yajl_gen g, const char *key, const char *val)
{
	jg_str(g, key);
	jg_str(g, val ? val : "");
}

void jg_ki(yajl_gen g, const char *key, long long val)
{
	jg_str(g, key);
	yajl_gen_integer(g, val);
}

void jg_kb(yajl_gen g, const char *key, bool val)
{
	jg_str(g, key);
	yajl_gen_bool(g, val);
}

char *jg_finish(yajl_gen g, size_t *len)
{
	const unsigned char *buf;
	size_t n;
	char *out;

	yajl_gen_get_buf(g, &buf, &n);
	out = xmalloc(n + 1);
	memcpy(out, buf, n);
	out[n] = '\0';
	if (len)
		*len = n;
	yajl_gen_free(g);
	return out;
}
