import type { VariantName } from '../variants.js';

/**
 * The variants a fault needs to show, by fault name: a defect of something the default server does not offer (a
 * grant, a kind of token). Tests and the fault sweep switch them on with the fault, and judge with their profile;
 * reference-server/src/faults.test.ts checks every name is a fault's.
 */
export const NEEDED_VARIANTS: Readonly<Record<string, readonly VariantName[]>> = {
  'oauth2-password-unchecked': ['oauth2-password-only'],
  'oauth2-client-token-acts-for-user': ['oauth2-client-no-user'],
};
