import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import { hashSecret } from '../../shared/secrets.ts';
import { apiKeyStore } from '../api-keys/index.ts';
import { userDirectory } from '../users/index.ts';
import { firstOrganization, lockBootstrap } from './organizations.store.ts';
import { addOrganizationKey, createOrganization } from './organizations.service.ts';

export const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';

export interface BootstrapResult {
  organizationId: string;
  /** Set only when this call generated the key: the one time the full key is known. */
  generatedKey?: string;
}

/**
 * First start on an empty store: a default organization, a default namespace, an owner
 * user and an organization-wide key. `BOOTSTRAP_API_KEY` supplies the key (and is added
 * to the first organization if an operator sets it later); otherwise a generated key is
 * logged once and written to DATA_DIR/bootstrap-api-key with mode 0600.
 */
export async function bootstrap(
  db: Db,
  opts: { bootstrapKey?: string; dataDir: string; log: Logger },
): Promise<BootstrapResult> {
  const result = await db.transaction(async (tx): Promise<BootstrapResult> => {
    await lockBootstrap(tx);
    const org = await firstOrganization(tx);
    if (!org) {
      const created = await createOrganization(tx, 'default', { key: opts.bootstrapKey });
      return { organizationId: created.organizationId, generatedKey: opts.bootstrapKey ? undefined : created.key };
    }
    if (opts.bootstrapKey && !(await apiKeyStore.hashExists(tx, hashSecret(opts.bootstrapKey)))) {
      const owner = await userDirectory.insert(tx, {
        organizationId: org.id,
        externalId: null,
        type: 'developerUser',
        displayName: 'Bootstrap owner',
      });
      await addOrganizationKey(tx, org.id, owner.id, opts.bootstrapKey, 'bootstrap');
    }
    return { organizationId: org.id };
  });
  if (result.generatedKey) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const file = path.join(opts.dataDir, BOOTSTRAP_KEY_FILE);
    fs.writeFileSync(file, `${result.generatedKey}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    opts.log.warn(
      { file },
      `Created the first organization. Its API key (shown once, also written to ${file}): ${result.generatedKey}`,
    );
  }
  return result;
}
