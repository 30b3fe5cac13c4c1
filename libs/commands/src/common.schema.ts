import { GATEHOUSE_TOKEN_PATTERN } from '@gatehouse/contracts';

// The building blocks of the command schemas live in @gatehouse/contracts (decision 0063), with the schemas
// themselves; re-exported here for the apps that take them from the registry's lib.
export {
  cursor,
  displayName,
  isoDateTime,
  limit,
  notTokenShaped,
  page,
  pageInput,
  resourceName,
  TOKEN_SHAPED_MESSAGE,
  uuid,
} from '@gatehouse/contracts';

/**
 * A Gatehouse secret (an API token `ghu_...`, an invitation `ghi_...`) anywhere in a string; a listed prefix is
 * only 10 characters. Names are refused with it at the edge, and the audit guard refuses it in every event. It is
 * the pattern the definitions decoder refuses server names with, so the two can never disagree.
 */
export const TOKEN_SECRET_PATTERN = GATEHOUSE_TOKEN_PATTERN;
