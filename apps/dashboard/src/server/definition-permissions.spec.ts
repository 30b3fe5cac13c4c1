import { definitionPermissions, isDefinitionTier, isVariableScope } from './definition-permissions';

const ALL = ['definitions:read', 'definitions:write'];

describe('definitionPermissions', () => {
  it('lets owners and admins write every tier and every variable scope', () => {
    expect(definitionPermissions({ scopes: ALL, role: 'admin', maintainer: false })).toEqual({
      read: true,
      tiers: ['managed', 'local', 'project', 'user', 'plugin'],
      variableScopes: ['tenant', 'workspace', 'user'],
      workspaceOverlays: true,
    });
  });

  it('lets a maintainer write the project source, workspace variables and overlays, never managed or plugin', () => {
    expect(definitionPermissions({ scopes: ALL, role: 'member', maintainer: true })).toEqual({
      read: true,
      tiers: ['local', 'project', 'user'],
      variableScopes: ['workspace', 'user'],
      workspaceOverlays: true,
    });
  });

  it('leaves a plain member their own tiers, variables and overlays only', () => {
    expect(definitionPermissions({ scopes: ALL, role: 'member', maintainer: false })).toEqual({
      read: true,
      tiers: ['local', 'user'],
      variableScopes: ['user'],
      workspaceOverlays: false,
    });
  });

  it('offers nothing to write without definitions:write', () => {
    expect(definitionPermissions({ scopes: ['definitions:read'], role: 'owner', maintainer: true })).toEqual({
      read: true,
      tiers: [],
      variableScopes: [],
      workspaceOverlays: false,
    });
  });

  it('recognises tiers and variable scopes only by their exact names', () => {
    expect(['project', 'Project', 'managed:x'].map(isDefinitionTier)).toEqual([true, false, false]);
    expect(['tenant', 'user', 'global'].map(isVariableScope)).toEqual([true, true, false]);
  });
});
