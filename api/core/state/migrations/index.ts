/**
 * The ordered set of migrations. To add one: create `NNN_name.ts` in this
 * folder exporting `migration` with `id: 'NNN_name'`, and append it here.
 * Never edit or reorder a migration once it has been applied anywhere.
 */
import type { Migration } from '../migrations.ts';
import { migration as m001 } from './001_keys.ts';
import { migration as m002 } from './002_accounts.ts';
import { migration as m003 } from './003_signin.ts';
import { migration as m004 } from './004_marketplace.ts';
import { migration as m005 } from './005_listing.ts';
import { migration as m006 } from './006_space.ts';
import { migration as m007 } from './007_webhook_rotation_test.ts';
import { migration as m008 } from './008_idempotency_keys.ts';

export const migrations: readonly Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008];
