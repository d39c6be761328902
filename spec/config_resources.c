/* linux.resources (also the document of `update --resources`). */
#include <string.h>
#include "lib/util.h"
#include "spec/config.h"

static int parse_res_device(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct res_device *d = out;
	char sub[JPATH_MAX], *type = NULL, *access = NULL;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	d->major = d->minor = -1;
	if (j_req(c, v, path, "allow", j_bool, &d->allow) < 0 ||
	    j_opt(c, v, path, "type", j_str, &type) < 0 ||
	    j_opt(c, v, path, "major", j_i64, &d->major) < 0 ||
	    j_opt(c, v, path, "minor", j_i64, &d->minor) < 0 ||
	    j_opt(c, v, path, "access", j_str, &access) < 0)
		return uerr_ret(c->e);
	d->type = type ? type[0] : 'a';
	jpath_key(sub, path, "type");
	if (type && (strlen(type) != 1 || !strchr("acb", type[0])))
		return j_err(c, sub, "unknown device type \"%s\" (a, c or b)", type);
	jpath_key(sub, path, "access");
	if (!access || !*access)
		access = "rwm";
	if (strlen(access) > 3 || strspn(access, "rwm") != strlen(access))
		return j_err(c, sub, "must be a combination of r, w and m, got \"%s\"", access);
	strcpy(d->access, access);
	return 0;
}

static int parse_memory(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "limit", j_opt_i64, &r->memory.limit) < 0 ||
	    j_opt(c, v, path, "reservation", j_opt_i64, &r->memory.reservation) < 0 ||
	    j_opt(c, v, path, "swap", j_opt_i64, &r->memory.swap) < 0 ||
	    j_opt(c, v, path, "kernel", j_opt_i64, &r->memory.kernel) < 0 ||
	    j_opt(c, v, path, "kernelTCP", j_opt_i64, &r->memory.kernel_tcp) < 0 ||
	    j_opt(c, v, path, "swappiness", j_opt_u64, &r->memory.swappiness) < 0 ||
	    j_opt(c, v, path, "disableOOMKiller", j_bool, &r->memory.disable_oom_killer) < 0 ||
	    j_opt(c, v, path, "useHierarchy", j_bool, &r->memory.use_hierarchy) < 0 ||
	    j_opt(c, v, path, "checkBeforeUpdate", j_bool, &r->memory.check_before_update) < 0)
		return uerr_ret(c->e);
	r->memory.disable_oom_killer_set = j_get(v, "disableOOMKiller") != NULL;
	r->memory.use_hierarchy_set = j_get(v, "useHierarchy") != NULL;
	return 0;
}

static int parse_cpu(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "shares", j_opt_u64, &r->cpu.shares) < 0 ||
	    j_opt(c, v, path, "quota", j_opt_i64, &r->cpu.quota) < 0 ||
	    j_opt(c, v, path, "burst", j_opt_u64, &r->cpu.burst) < 0 ||
	    j_opt(c, v, path, "period", j_opt_u64, &r->cpu.period) < 0 ||
	    j_opt(c, v, path, "realtimeRuntime", j_opt_i64, &r->cpu.realtime_runtime) < 0 ||
	    j_opt(c, v, path, "realtimePeriod", j_opt_u64, &r->cpu.realtime_period) < 0 ||
	    j_opt(c, v, path, "idle", j_opt_i64, &r->cpu.idle) < 0 ||
	    j_opt(c, v, path, "cpus", j_str, &r->cpu.cpus) < 0 ||
	    j_opt(c, v, path, "mems", j_str, &r->cpu.mems) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_pids(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	return j_opt(c, v, path, "limit", j_opt_i64, &r->pids.limit);
}

static int parse_weight_device(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct res_weight_device *d = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "major", j_i64, &d->major) < 0 ||
	    j_req(c, v, path, "minor", j_i64, &d->minor) < 0 ||
	    j_opt(c, v, path, "weight", j_opt_u64, &d->weight) < 0 ||
	    j_opt(c, v, path, "leafWeight", j_opt_u64, &d->leaf_weight) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_throttle_device(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct res_throttle_device *d = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "major", j_i64, &d->major) < 0 ||
	    j_req(c, v, path, "minor", j_i64, &d->minor) < 0 ||
	    j_req(c, v, path, "rate", j_u64, &d->rate) < 0)
		return uerr_ret(c->e);
	return 0;
}

static const char *const throttle_keys[4] = {
	"throttleReadBpsDevice", "throttleWriteBpsDevice",
	"throttleReadIOPSDevice", "throttleWriteIOPSDevice",
};

static int parse_block_io(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;
	char sub[JPATH_MAX];
	yajl_val a;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "weight", j_opt_u64, &r->block_io.weight) < 0 ||
	    j_opt(c, v, path, "leafWeight", j_opt_u64, &r->block_io.leaf_weight) < 0)
		return uerr_ret(c->e);
	a = j_get(v, "weightDevice");
	jpath_key(sub, path, "weightDevice");
	if (a && !YAJL_IS_NULL(a) &&
	    j_array(c, a, sub, sizeof(struct res_weight_device), parse_weight_device,
		    (void **)&r->block_io.weight_device, &r->block_io.n_weight_device) < 0)
		return uerr_ret(c->e);
	for (int i = 0; i < 4; i++) {
		a = j_get(v, throttle_keys[i]);
		jpath_key(sub, path, throttle_keys[i]);
		if (a && !YAJL_IS_NULL(a) &&
		    j_array(c, a, sub, sizeof(struct res_throttle_device), parse_throttle_device,
			    (void **)&r->block_io.throttle[i], &r->block_io.n_throttle[i]) < 0)
			return uerr_ret(c->e);
	}
	return 0;
}

static int parse_hugepage(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct res_hugepage *h = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	if (j_req(c, v, path, "pageSize", j_str, &h->pagesize) < 0 ||
	    j_req(c, v, path, "limit", j_u64, &h->limit) < 0)
		return uerr_ret(c->e);
	return 0;
}

static int parse_network(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	r->network.given = v->u.object.len > 0;
	return 0;
}

static int parse_rdma(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = out;
	char sub[JPATH_MAX];

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	r->n_rdma = v->u.object.len;
	r->rdma = arena_alloc(c->arena, sizeof(*r->rdma) * (r->n_rdma + 1));
	for (size_t i = 0; i < r->n_rdma; i++) {
		yajl_val d = v->u.object.values[i];

		jpath_key(sub, path, v->u.object.keys[i]);
		r->rdma[i].device = (char *)v->u.object.keys[i];
		if (j_object(c, d, sub) < 0 ||
		    j_opt(c, d, sub, "hcaHandles", j_opt_u64, &r->rdma[i].handles) < 0 ||
		    j_opt(c, d, sub, "hcaObjects", j_opt_u64, &r->rdma[i].objects) < 0)
			return uerr_ret(c->e);
	}
	return 0;
}

int parse_resources(struct jctx *c, yajl_val v, const char *path, void *out)
{
	struct resources *r = arena_alloc(c->arena, sizeof(*r));
	char sub[JPATH_MAX];
	yajl_val a;

	if (j_object(c, v, path) < 0)
		return uerr_ret(c->e);
	a = j_get(v, "devices");
	jpath_key(sub, path, "devices");
	if (a && !YAJL_IS_NULL(a) &&
	    j_array(c, a, sub, sizeof(struct res_device), parse_res_device, (void **)&r->devices,
		    &r->n_devices) < 0)
		return uerr_ret(c->e);
	a = j_get(v, "hugepageLimits");
	jpath_key(sub, path, "hugepageLimits");
	if (a && !YAJL_IS_NULL(a) &&
	    j_array(c, a, sub, sizeof(struct res_hugepage), parse_hugepage, (void **)&r->hugepages,
		    &r->n_hugepages) < 0)
		return uerr_ret(c->e);
	if (j_opt(c, v, path, "memory", parse_memory, r) < 0 ||
	    j_opt(c, v, path, "cpu", parse_cpu, r) < 0 ||
	    j_opt(c, v, path, "pids", parse_pids, r) < 0 ||
	    j_opt(c, v, path, "blockIO", parse_block_io, r) < 0 ||
	    j_opt(c, v, path, "network", parse_network, r) < 0 ||
	    j_opt(c, v, path, "rdma", parse_rdma, r) < 0 ||
	    j_opt(c, v, path, "unified", j_strmap, &r->unified) < 0)
		return uerr_ret(c->e);
	*(struct resources **)out = r;
	return 0;
}
