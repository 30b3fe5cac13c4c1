import { isPoolOpenToTenant, workerPoolsEnvField } from './pool-config';

describe('WORKER_POOLS', () => {
  it('parses pools open to every tenant or to listed slugs', () => {
    const pools = workerPoolsEnvField.parse('{"default":{"tenants":"*"},"eu":{"tenants":["acme"]}}');
    expect(isPoolOpenToTenant(pools, 'default', 'anyone')).toBe(true);
    expect(isPoolOpenToTenant(pools, 'eu', 'acme')).toBe(true);
    expect(isPoolOpenToTenant(pools, 'eu', 'globex')).toBe(false);
    expect(isPoolOpenToTenant(pools, 'us', 'acme')).toBe(false);
    expect(isPoolOpenToTenant(pools, 'constructor', 'acme')).toBe(false);
  });

  it.each([
    ['not json', '{default'],
    ['unknown field', '{"p":{"tenants":"*","stdio":true}}'],
    ['bad pool name', '{"Bad Pool":{"tenants":"*"}}'],
    ['bad slug', '{"p":{"tenants":["Not A Slug"]}}'],
    ['tenants missing', '{"p":{}}'],
  ])('refuses %s without echoing the value', (_label, value) => {
    const result = workerPoolsEnvField.safeParse(value);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).not.toContain(value);
  });
});
