-- Reasons on decisions and requests that say why they exist or closed (issue 18 items 3 and 4;
-- docs/decisions/0087-one-request-per-review-and-withdrawn-requests.md, 0088-decision-reasons.md).
--
-- 1. An approval keeps the reason its decider gave (optional for approve, required for deny: the API checks) and
--    the reason of its revocation, written with revoked_at/revoked_by in one UPDATE: the app role's column grant
--    grows by that one column, nothing else on an approval can change.
-- 2. A request keeps what opened it (`cause`: the variable, source or overlay of the event, never a value) and why
--    it closed (`close_reason`). `withdrawn`: its identity no longer exists in the view it was opened for (a
--    personal variable unset, a server gone), so there is nothing left to decide.

ALTER TYPE "approval_request_status" ADD VALUE 'withdrawn';

ALTER TABLE "approvals" ADD COLUMN "decision_reason" TEXT;
ALTER TABLE "approvals" ADD COLUMN "revoke_reason" TEXT;
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decision_reason_check"
  CHECK ("decision_reason" IS NULL OR char_length("decision_reason") BETWEEN 1 AND 500);
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_revoke_reason_check"
  CHECK ("revoke_reason" IS NULL OR ("revoked_at" IS NOT NULL AND char_length("revoke_reason") BETWEEN 1 AND 500));
GRANT UPDATE ("revoke_reason") ON "approvals" TO gatehouse_app;

ALTER TABLE "approval_requests" ADD COLUMN "cause" JSONB;
ALTER TABLE "approval_requests" ADD COLUMN "close_reason" TEXT;
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_close_reason_check"
  CHECK ("close_reason" IS NULL OR "close_reason" IN ('decided', 'superseded', 'identity_gone'));
