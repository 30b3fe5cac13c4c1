-- A tenant's narrowing of the operator's child env allowlist (docs/decisions/0127-child-environment-allowlist.md):
-- a JSON array of env names and `PREFIX_*` entries, each within some open pool's WORKER_POOLS `childEnvKeys`.
-- NULL (every existing row): each pool's own list, which is what a tenant without the field had before.
ALTER TABLE "host_policies" ADD COLUMN "child_env_keys" JSONB;
