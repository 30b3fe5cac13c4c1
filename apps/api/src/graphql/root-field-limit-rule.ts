import type { ProblemCode } from '@gatehouse/contracts';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

// Every root field runs a command, and aliases let one request repeat a costly one (verifyAuditChain) hundreds
// of times; the depth limit does not see that. Root selections are counted per operation, aliases included,
// and fragments spread at the root contribute their own root fields.

export const MAX_ROOT_FIELDS = 20;
export const TOO_MANY_FIELDS = 'too_many_fields' satisfies ProblemCode;

function countRootFields(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  visited: Set<string>,
): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      count += countRootFields(context, selection.selectionSet, visited);
    else {
      // The same fragment spread twice yields the same response keys, which GraphQL merges: count it once.
      // That also keeps a fragment cycle (refused anyway by NoFragmentCycles) from looping here.
      const name = selection.name.value;
      if (visited.has(name)) continue;
      visited.add(name);
      const fragment = context.getFragment(name);
      if (fragment !== undefined && fragment !== null)
        count += countRootFields(context, fragment.selectionSet, visited);
    }
  }
  return count;
}

/** A validation rule refusing an operation with more than `max` root field selections. */
export function rootFieldLimitRule(max: number = MAX_ROOT_FIELDS): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(node) {
      const count = countRootFields(context, node.selectionSet, new Set());
      if (count > max) {
        context.reportError(
          new GraphQLError(`An operation may select at most ${max} root fields (aliases included).`, {
            nodes: node,
            extensions: { code: TOO_MANY_FIELDS },
          }),
        );
      }
      return false;
    },
  });
}
