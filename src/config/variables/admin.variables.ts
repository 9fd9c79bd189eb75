import { list } from '../config.parsers';
import { variable } from './variable';

/** The operator's own identity: who may use the admin routes. */
export const ADMIN_VARIABLES = {
  adminEmails: variable<string[]>({
    name: 'SERVICE_ADMIN_EMAILS',
    description: 'hosted: comma-separated e-mail addresses whose people, signed in with that verified address, are admins',
    sensitive: false,
    parse: (raw: string) => {
      const emails = list(raw).map((e) => e.toLowerCase());
      const bad = emails.find((e) => !/^[^\s@]+@[^\s@]+$/.test(e));
      if (bad !== undefined) throw new Error(`must be comma-separated e-mail addresses, got "${bad}"`);
      return emails;
    },
    default: [],
  }),
  adminPassword: variable<string | undefined>({
    name: 'SERVICE_ADMIN_PASSWORD',
    description: 'when set, GET/POST /admin/login signs a person in as admin with this password (a signed cookie for 12 hours); at least 12 characters',
    sensitive: true,
    parse: (raw: string) => {
      if (raw.length < 12) throw new Error('must be at least 12 characters long');
      return raw;
    },
  }),
} as const;
