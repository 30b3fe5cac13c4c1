import { databaseNameOf, deriveConnectionUrl } from './connection-url';

describe('deriveConnectionUrl', () => {
  const base = 'postgresql://postgres:secret@127.0.0.1:5432/postgres?sslmode=disable';

  it('swaps the database and keeps host, port and query', () => {
    expect(deriveConnectionUrl(base, { database: 'gh_t_1' })).toBe(
      'postgresql://postgres:secret@127.0.0.1:5432/gh_t_1?sslmode=disable',
    );
  });

  it('swaps the user and drops the old password unless a new one is given', () => {
    expect(deriveConnectionUrl(base, { user: 'gatehouse_app' })).toBe(
      'postgresql://gatehouse_app@127.0.0.1:5432/postgres?sslmode=disable',
    );
    expect(deriveConnectionUrl(base, { user: 'gatehouse_app', password: 'p@ss/word' })).toBe(
      'postgresql://gatehouse_app:p%40ss%2Fword@127.0.0.1:5432/postgres?sslmode=disable',
    );
  });

  it('reads the database name back', () => {
    expect(databaseNameOf(deriveConnectionUrl(base, { database: 'gatehouse' }))).toBe('gatehouse');
    expect(databaseNameOf('postgresql://h:5432')).toBeUndefined();
  });
});
