import { displayUrl } from './database.preparer';
import { roleUrls } from './database.provider';

describe('roleUrls', () => {
  it('derives the app and owner URLs from the superuser URL, same cluster, the gatehouse database', () => {
    const urls = roleUrls('postgresql://postgres:s3cret@127.0.0.1:5433/postgres', 'gatehouse', {
      owner: 'owner pw/+',
      app: 'app-pw',
    });
    const app = new URL(urls.appUrl);
    const owner = new URL(urls.migrationUrl);
    expect([app.username, app.host, app.pathname]).toEqual(['gatehouse_app', '127.0.0.1:5433', '/gatehouse']);
    expect([owner.username, owner.host, owner.pathname]).toEqual([
      'gatehouse_owner',
      '127.0.0.1:5433',
      '/gatehouse',
    ]);
    expect(decodeURIComponent(app.password)).toBe('app-pw');
    expect(decodeURIComponent(owner.password)).toBe('owner pw/+');
  });
});

describe('displayUrl', () => {
  it('keeps user, host and database and drops the password and query', () => {
    expect(displayUrl('postgresql://gatehouse_app:hunter2@127.0.0.1:5432/gatehouse?sslmode=require')).toBe(
      'postgresql://gatehouse_app@127.0.0.1:5432/gatehouse',
    );
    expect(displayUrl('redis://:hunter2@127.0.0.1:6380')).not.toContain('hunter2');
  });
});
