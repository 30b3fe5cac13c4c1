// A local ESLint rule that holds the layers of apps/api/src (docs/architecture/api-layers.md, decision 0136): a
// module may import a module of a lower layer; of its own layer only where that layer allows peers (the feature
// layer does not); never one above. Only relative imports are judged: libraries have their own rules (Nx tags).
//
// Options: { root, layers, known }. `root` is the source folder (relative to the working directory); `layers` runs
// bottom to top, each `{ name, peers, members }`, where a member is a folder or file under root (without extension);
// the longest member that contains a path places it. Files directly under root are the composition and may import
// anything. A folder under root that no layer names is itself refused, so a new folder must be placed. `known` lists
// the remaining violations as [from member, to member, why] pairs, each to be removed, never a wildcard.
import { dirname, relative, resolve, sep } from 'node:path';

const SOURCE_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;

const toPosix = (path) => path.split(sep).join('/');

function placeOf(layers, path) {
  let best;
  for (const [index, layer] of layers.entries()) {
    for (const member of layer.members) {
      if (
        (path === member || path.startsWith(`${member}/`)) &&
        (best === undefined || member.length > best.member.length)
      ) {
        best = { member, layer: layer.name, index, peers: layer.peers };
      }
    }
  }
  return best;
}

/** @type {import('eslint').Rule.RuleModule} */
export const apiLayers = {
  meta: {
    type: 'problem',
    docs: {
      description: 'apps/api modules import only downwards through the layers (no feature to feature).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array' },
          known: { type: 'array' },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        '{{from}} ({{fromLayer}}) may not import {{to}} ({{toLayer}}): apps/api imports only downwards (docs/architecture/api-layers.md).',
      peer: '{{from}} may not import {{to}}: one feature does not import another; move what both need down a layer (docs/architecture/api-layers.md).',
      unplaced:
        '{{folder}} is in no layer of apps/api: place it in eslint.config.mjs (docs/architecture/api-layers.md).',
    },
  },
  create(context) {
    const { root, layers, known = [] } = context.options[0];
    const rootPath = resolve(context.cwd, root);
    const fileRelative = toPosix(relative(rootPath, context.filename));
    if (fileRelative.startsWith('..') || !fileRelative.includes('/')) return {};
    const from = placeOf(layers, fileRelative.replace(SOURCE_EXTENSION, ''));
    const knownPairs = new Set(known.map(([source, target]) => `${source}\u0000${target}`));

    const judge = (node) => {
      const source = node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
      if (source === undefined || !source.startsWith('.')) return;
      const target = toPosix(relative(rootPath, resolve(dirname(context.filename), source))).replace(
        SOURCE_EXTENSION,
        '',
      );
      if (target.startsWith('..') || !target.includes('/')) return;
      const to = placeOf(layers, target);
      if (from === undefined || to === undefined) {
        const folder = (from === undefined ? fileRelative : target).split('/')[0];
        context.report({ node, messageId: 'unplaced', data: { folder } });
        return;
      }
      if (from.member === to.member || to.index < from.index) return;
      if (to.index === from.index && from.peers) return;
      if (knownPairs.has(`${from.member}\u0000${to.member}`)) return;
      const data = { from: from.member, to: to.member, fromLayer: from.layer, toLayer: to.layer };
      context.report({ node, messageId: to.index === from.index ? 'peer' : 'upward', data });
    };

    return {
      ImportDeclaration: (node) => judge(node.source),
      ExportNamedDeclaration: (node) => judge(node.source),
      ExportAllDeclaration: (node) => judge(node.source),
      ImportExpression: (node) => judge(node.source),
      TSImportEqualsDeclaration: (node) => judge(node.moduleReference?.expression),
    };
  },
};

export default { rules: { 'api-layers': apiLayers } };
