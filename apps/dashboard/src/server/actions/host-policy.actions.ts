'use server';

import { hostPolicyWithCeiling } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem, type FieldProblem } from '../api-problem';
import {
  hostPolicyFieldErrors,
  parseArgvLines,
  parseCidrLines,
  parseOriginLines,
  type ListField,
} from '../host-policy-input';

function rawText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * Replaces the tenant's HostPolicy (owners and admins). The editor's lines are read here first, so a typo is
 * named by its line before any call; the API then checks every entry against the ceiling of the pools open
 * to the tenant, and its refusal is reported on the same lines.
 */
export async function putHostPolicyAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageHostPolicy');
  if (refusal) return failure(refusal);
  const parsed = {
    stdioCommands: parseArgvLines(rawText(form, 'stdioCommands')),
    headerHelpers: parseArgvLines(rawText(form, 'headerHelpers')),
    privateCidrs: parseCidrLines(rawText(form, 'privateCidrs')),
    traceContextOrigins: parseOriginLines(rawText(form, 'traceContextOrigins')),
  };
  const errors: FieldProblem[] = (Object.keys(parsed) as ListField[]).flatMap((field) =>
    parsed[field].errors.map((message) => ({ path: field, message })),
  );
  if (errors.length > 0) return failure(invalidInputProblem(errors));

  const result = await callApi({
    answer: hostPolicyWithCeiling,
    method: 'PUT',
    path: '/v1/host-policy',
    body: {
      stdioCommands: parsed.stdioCommands.entries,
      headerHelpers: parsed.headerHelpers.entries,
      privateCidrs: parsed.privateCidrs.entries,
      traceContextOrigins: parsed.traceContextOrigins.entries,
      fourEyes: form.get('fourEyes') === 'on',
    },
  });
  if (!result.ok) {
    const lines = {
      stdioCommands: parsed.stdioCommands.lines,
      headerHelpers: parsed.headerHelpers.lines,
      privateCidrs: parsed.privateCidrs.lines,
      traceContextOrigins: parsed.traceContextOrigins.lines,
    };
    return failure({ ...result.problem, errors: hostPolicyFieldErrors(result.problem, lines) });
  }
  refresh();
  const policy = result.data.policy;
  return success(
    `Host policy saved: ${policy.stdioCommands.length} stdio ${policy.stdioCommands.length === 1 ? 'command' : 'commands'}, ` +
      `four-eyes ${policy.fourEyes ? 'on' : 'off'}.`,
  );
}
