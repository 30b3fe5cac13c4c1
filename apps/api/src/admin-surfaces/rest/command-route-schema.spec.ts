import {
  COMMANDS,
  addWorkspaceMaintainer,
  listTokens,
  removeWorkspaceMaintainer,
  renameWorkspace,
  whoAmI,
} from '@gatehouse/commands';
import { commandRequestInput } from './command-request-input';
import { commandRouteSchema, pathParamsOf } from './command-route-schema';
import { ValidationProblemError } from '../../shared/command-problems';

describe('command route schemas', () => {
  it('splits the input into path params and the query string for GET/DELETE', () => {
    const schema = commandRouteSchema(removeWorkspaceMaintainer);
    expect(schema.params).toMatchObject({ required: ['workspaceId', 'userId'] });
    expect(schema.querystring).toBeUndefined();
    expect(schema.body).toBeUndefined();
    expect(commandRouteSchema(listTokens).querystring?.properties).toHaveProperty('includeRevoked');
  });

  it('puts the rest of a POST/PATCH/PUT input in the JSON body', () => {
    const schema = commandRouteSchema(renameWorkspace);
    expect(Object.keys(schema.params?.properties ?? {})).toEqual(['workspaceId']);
    expect(schema.body).toMatchObject({ required: ['name'], additionalProperties: false });
    expect(Object.keys(schema.body?.properties ?? {})).toEqual(['name']);
    expect(commandRouteSchema(addWorkspaceMaintainer).response).toHaveProperty('201');
  });

  it('documents every command with its name, scope and success answer', () => {
    for (const command of COMMANDS) {
      const schema = commandRouteSchema(command);
      expect(schema.operationId).toBe(command.name);
      expect(schema.description).toContain(command.scope);
      expect(schema.response).toHaveProperty(String(command.http.successStatus ?? 200));
      expect(JSON.stringify(schema)).not.toContain('$schema');
    }
    expect(commandRouteSchema(whoAmI).params).toBeUndefined();
    expect(pathParamsOf('/v1/workspaces/:workspaceId/maintainers/:userId')).toEqual([
      'workspaceId',
      'userId',
    ]);
  });
});

describe('commandRequestInput', () => {
  it('merges path params with the body, refusing a field given in both', () => {
    const id = '0f8e4a52-7f1c-4c39-9a8e-2b0d7f3c1a11';
    expect(
      commandRequestInput(renameWorkspace, { params: { workspaceId: id }, query: {}, body: { name: 'x' } }),
    ).toEqual({
      workspaceId: id,
      name: 'x',
    });
    expect(() =>
      commandRequestInput(renameWorkspace, {
        params: { workspaceId: id },
        query: {},
        body: { workspaceId: 'other', name: 'x' },
      }),
    ).toThrow(ValidationProblemError);
    expect(() =>
      commandRequestInput(renameWorkspace, { params: { workspaceId: id }, query: {}, body: [1] }),
    ).toThrow(ValidationProblemError);
  });

  it('takes the query string for GET and ignores a body there', () => {
    expect(
      commandRequestInput(listTokens, { params: {}, query: { limit: '5' }, body: { limit: 7 } }),
    ).toEqual({ limit: '5' });
  });
});
