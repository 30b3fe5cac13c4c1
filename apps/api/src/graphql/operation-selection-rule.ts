import type { ProblemCode } from '@gatehouse/contracts';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

// Which operation of the document runs is decided by the request's `operationName`: graphql-js only finds out
// while executing (an error without a field, which was answered 500), and mercurius' GET check dereferences a
// missing operation. Deciding it during validation makes each case a 400 with its own code, before anything runs.
// Subscriptions are not served (no transport for them is mounted).

export const OPERATION_NAME_REQUIRED = 'operation_name_required' satisfies ProblemCode;
export const UNKNOWN_OPERATION = 'unknown_operation' satisfies ProblemCode;
export const SUBSCRIPTIONS_UNSUPPORTED = 'subscriptions_unsupported' satisfies ProblemCode;

type Selection =
  | { ok: true; operation: OperationDefinitionNode }
  | { ok: false; code: typeof OPERATION_NAME_REQUIRED | typeof UNKNOWN_OPERATION; message: string };

/** The operation `operationName` (null or absent: the only one) selects, or why none is. */
export function selectOperation(
  operations: readonly OperationDefinitionNode[],
  operationName: string | null | undefined,
): Selection | null {
  if (typeof operationName === 'string') {
    const named = operations.find((operation) => operation.name?.value === operationName);
    return named !== undefined
      ? { ok: true, operation: named }
      : { ok: false, code: UNKNOWN_OPERATION, message: 'The document has no operation of that name.' };
  }
  if (operations.length > 1) {
    return {
      ok: false,
      code: OPERATION_NAME_REQUIRED,
      message: 'The document has several operations: name the one to run in `operationName`.',
    };
  }
  const only = operations[0];
  return only === undefined ? null : { ok: true, operation: only };
}

/** A validation rule refusing a request whose operation cannot be selected, or is a subscription. */
export function operationSelectionRule(operationName: string | null | undefined): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      const operations = document.definitions.filter(
        (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
      );
      // No operation at all is graphql's own rules' to report (a document of fragments only).
      const selection = selectOperation(operations, operationName);
      if (selection === null) return false;
      if (!selection.ok) {
        context.reportError(new GraphQLError(selection.message, { extensions: { code: selection.code } }));
      } else if (selection.operation.operation === 'subscription') {
        context.reportError(
          new GraphQLError('Subscriptions are not served here; send a query or a mutation.', {
            nodes: selection.operation,
            extensions: { code: SUBSCRIPTIONS_UNSUPPORTED },
          }),
        );
      }
      return false;
    },
  });
}
