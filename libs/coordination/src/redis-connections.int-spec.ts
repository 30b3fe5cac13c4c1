import { closeRedis } from './redis-connection-factory';
import { RedisConnections } from './redis-connections';
import { testRedisUrl } from '@gatehouse/testing';

describe('RedisConnections against the real Redis', () => {
  it('opens connections named after the app and their role, and ends those still open on close', async () => {
    const connections = new RedisConnections({ url: testRedisUrl(), app: 'connections-test' });
    const main = connections.open('command');
    const subscriber = connections.open('subscriber', 'revocations');
    const owned = connections.open('command', 'activity');
    expect(await main.client('GETNAME')).toBe('connections-test:command');
    expect(await subscriber.client('GETNAME')).toBe('connections-test-revocations:subscriber');
    expect(subscriber.options.maxRetriesPerRequest).toBeNull();
    expect(await owned.ping()).toBe('PONG');
    // Its owner closes a dedicated connection itself; the factory's close ends what is left and skips it.
    await closeRedis(owned);
    await connections.close();
    expect([main.status, subscriber.status, owned.status]).toEqual(['end', 'end', 'end']);
  });
});
