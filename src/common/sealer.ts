import { SecretBox } from '../../libs/tenancy';
import { AppConfig } from '../config/app-config';

/**
 * The sealer for one kind of stored secret (`purpose`, e.g. 'codehost-token'):
 * sealed with SERVICE_ENCRYPTION_KEYS when set, else with a key derived from
 * SESSION_SECRET; a value opens only with the purpose it was sealed for.
 */
export function sealerFor(config: AppConfig, purpose: string): SecretBox {
  return new SecretBox(config.sessionSecret, purpose, config.encryptionKeys);
}
