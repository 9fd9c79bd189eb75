/**
 * Recognition of values that must never be stored in shared configuration:
 * secret-shaped strings (provider API keys, tokens, private keys, credentials
 * in URLs or connection strings) and paths that only mean something on one
 * machine. Both functions answer which kind matched, never the matched text,
 * so a caller can refuse a value without repeating it.
 */

export type SecretKind =
  | 'private_key'
  | 'baton_token'
  | 'anthropic_key'
  | 'openai_key'
  | 'stripe_key'
  | 'stripe_webhook_secret'
  | 'github_token'
  | 'gitlab_token'
  | 'slack_token'
  | 'slack_webhook'
  | 'discord_webhook'
  | 'discord_bot_token'
  | 'telegram_bot_token'
  | 'aws_access_key_id'
  | 'aws_secret_access_key'
  | 'google_api_key'
  | 'google_oauth_secret'
  | 'google_oauth_token'
  | 'azure_storage_key'
  | 'azure_sas_signature'
  | 'twilio_key'
  | 'sendgrid_key'
  | 'mailgun_key'
  | 'mailchimp_key'
  | 'npm_token'
  | 'pypi_token'
  | 'docker_hub_token'
  | 'huggingface_token'
  | 'shopify_token'
  | 'square_token'
  | 'digitalocean_token'
  | 'linear_key'
  | 'notion_token'
  | 'airtable_token'
  | 'atlassian_token'
  | 'postman_key'
  | 'databricks_token'
  | 'vault_token'
  | 'doppler_token'
  | 'pulumi_token'
  | 'terraform_token'
  | 'sentry_token'
  | 'newrelic_key'
  | 'grafana_token'
  | 'age_secret_key'
  | 'jwt'
  | 'authorization_header'
  | 'url_credentials'
  | 'connection_string_password'
  | 'credential_assignment'
  | 'high_entropy_token';

/** Provider formats, most specific first (an Anthropic key also looks like an OpenAI one). */
const PATTERNS: ReadonlyArray<readonly [SecretKind, RegExp]> = [
  ['private_key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/],
  ['baton_token', /sk_service_[A-Za-z0-9_-]{16,}/],
  ['anthropic_key', /\bsk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{20,}/],
  ['openai_key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/],
  ['stripe_key', /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/],
  ['stripe_webhook_secret', /\bwhsec_[A-Za-z0-9+/]{24,}/],
  ['github_token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/],
  ['gitlab_token', /\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|soat|agent)-[A-Za-z0-9_-]{20,}/],
  ['slack_token', /\b(?:xox[abposer]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{20,})/],
  ['slack_webhook', /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/],
  ['discord_webhook', /discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{30,}/],
  ['discord_bot_token', /\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40}\b/],
  ['telegram_bot_token', /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/],
  ['aws_access_key_id', /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/],
  ['aws_secret_access_key', /\baws_?secret_?(?:access_?)?key\b\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/i],
  ['google_api_key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['google_oauth_secret', /\bGOCSPX-[A-Za-z0-9_-]{20,}/],
  ['google_oauth_token', /\bya29\.[A-Za-z0-9_-]{20,}/],
  ['azure_storage_key', /\bAccountKey=[A-Za-z0-9+/=]{20,}/i],
  ['azure_sas_signature', /[?&]sig=[A-Za-z0-9%+/=]{20,}/],
  ['twilio_key', /\bSK[0-9a-fA-F]{32}\b/],
  ['sendgrid_key', /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/],
  ['mailgun_key', /\bkey-[0-9a-f]{32}\b/],
  ['mailchimp_key', /\b[0-9a-f]{32}-us\d{1,2}\b/],
  ['npm_token', /\bnpm_[A-Za-z0-9]{36}\b/],
  ['pypi_token', /\bpypi-AgE[A-Za-z0-9_-]{40,}/],
  ['docker_hub_token', /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}/],
  ['huggingface_token', /\bhf_[A-Za-z0-9]{30,}\b/],
  ['shopify_token', /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/],
  ['square_token', /\b(?:sq0atp-[A-Za-z0-9_-]{22,}|sq0csp-[A-Za-z0-9_-]{40,}|EAAA[A-Za-z0-9_-]{60,})/],
  ['digitalocean_token', /\bdo[opr]_v1_[a-f0-9]{64}\b/],
  ['linear_key', /\blin_(?:api|oauth)_[A-Za-z0-9]{32,}\b/],
  ['notion_token', /\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b/],
  ['airtable_token', /\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b/],
  ['atlassian_token', /\bATATT3[A-Za-z0-9_=-]{50,}/],
  ['postman_key', /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/],
  ['databricks_token', /\bdapi[a-f0-9]{32}(?:-\d)?\b/],
  ['vault_token', /\bhv[sbr]\.[A-Za-z0-9_-]{24,}/],
  ['doppler_token', /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/],
  ['pulumi_token', /\bpul-[a-f0-9]{40}\b/],
  ['terraform_token', /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_-]{60,}/],
  ['sentry_token', /\bsntry[su]_[A-Za-z0-9_=+/-]{30,}/],
  ['newrelic_key', /\bNR(?:AK|II|JS|RA)-[A-Za-z0-9]{27}\b/],
  ['grafana_token', /\bgl(?:c|sa)_[A-Za-z0-9_+/=-]{32,}/],
  ['age_secret_key', /\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b/],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  // scheme://user:password@ (the user may be empty: redis://:password@host)
  ['url_credentials', /\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i],
  // scheme://<long opaque key>@host (a DSN or a token used as the user name)
  ['url_credentials', /\b[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9_-]{20,}@/i],
  ['connection_string_password', /;\s*(?:password|pwd)\s*=\s*[^;\s"']+/i],
];

/** `password=...`, `api_key: ...` and the like: a credential named and given. */
const ASSIGNMENT =
  /\b(?:password|passwd|passphrase|secret|client[_-]?secret|api[_-]?key|apikey|access[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?key|token)\s*[:=]\s*["']?([^\s"',;]{8,})/gi;

/**
 * A password given, however short (`password=hunter2`, `pwd: x`): unlike a token, a password
 * has no shape to recognise it by, so any value after the name counts, except a placeholder.
 */
const PASSWORD_ASSIGNMENT = /\b(?:password|passwd|passphrase|pwd)\s*[:=]\s*["']?([^\s"',;]+)/gi;

/** What follows `password:` in prose and templates rather than a password. */
const NOT_A_PASSWORD =
  /^(?:none|null|nil|empty|unset|required|optional|n\/a|-+|\*+|\.+|x{3,}|<[^>]*>?|\{\{.*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%|see|use|set|from|in|is|are|via|the|your|a|an|env|environment|vault|secret|prompt|ask)\.?$/i;

/** `Authorization: Bearer ...` and its relatives; the credential is checked by looksLikeCredential. */
const AUTHORIZATION = /\b(?:Bearer|Basic|Token|Digest)\s+([A-Za-z0-9._~+/=-]{12,})/gi;

/** Runs of characters that opaque tokens are made of. */
const TOKEN_RUN = /[A-Za-z0-9+/=_-]{24,}/g;

/**
 * The kind of secret `value` holds, or null when it holds none. Looks for the
 * formats of the major providers' keys, Baton's own `sk_service_` tokens,
 * JWTs, private-key blocks, authorization headers, passwords in URLs and
 * connection strings, named credentials (`api_key=...`; a password however
 * short: `password=hunter2`), and long opaque
 * tokens of high entropy. Pure hexadecimal strings (commit ids, digests) and
 * UUIDs are not taken for secrets.
 */
export function findSecret(value: string): SecretKind | null {
  for (const [kind, pattern] of PATTERNS) if (pattern.test(value)) return kind;
  for (const match of value.matchAll(AUTHORIZATION)) if (looksLikeCredential(match[1])) return 'authorization_header';
  for (const match of value.matchAll(ASSIGNMENT)) if (looksLikeCredential(match[1])) return 'credential_assignment';
  for (const match of value.matchAll(PASSWORD_ASSIGNMENT)) if (!NOT_A_PASSWORD.test(match[1])) return 'credential_assignment';
  for (const match of value.matchAll(TOKEN_RUN)) if (isHighEntropyToken(match[0])) return 'high_entropy_token';
  return null;
}

function looksLikeCredential(candidate: string): boolean {
  // "token: none", "Bearer authentication" are prose; a credential mixes letters with digits or symbols.
  return /[A-Za-z]/.test(candidate) && /[0-9!@#$%^&*+/=_-]/.test(candidate) && !/^\$\{?[A-Z_]+\}?$/.test(candidate);
}

/**
 * A long run of base64-ish characters that is random rather than made of
 * words: upper and lower case letters and digits, high Shannon entropy, and
 * frequent switches between character classes (camelCase identifiers and
 * slugs switch rarely).
 */
function isHighEntropyToken(token: string): boolean {
  const core = token.replace(/=+$/, '');
  if (core.length < 24) return false;
  if (/^[0-9a-fA-F-]+$/.test(core)) return false; // digests, commit ids, UUIDs
  const hasLower = /[a-z]/.test(core);
  const hasUpper = /[A-Z]/.test(core);
  const hasDigit = /[0-9]/.test(core);
  const classes = Number(hasLower) + Number(hasUpper) + Number(hasDigit);
  if (classes < 2 || !hasDigit) return false;
  const entropy = shannonEntropy(core);
  const switches = classSwitchRatio(core);
  if (classes === 3) return entropy >= 4 && switches >= 0.4;
  return core.length >= 32 && entropy >= 4.2 && switches >= 0.4;
}

function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function classSwitchRatio(text: string): number {
  const classOf = (c: string) => (/[a-z]/.test(c) ? 'l' : /[A-Z]/.test(c) ? 'u' : /[0-9]/.test(c) ? 'd' : 's');
  let switches = 0;
  for (let i = 1; i < text.length; i++) if (classOf(text[i]) !== classOf(text[i - 1])) switches++;
  return switches / (text.length - 1);
}

export type MachineLocalPathKind = 'unix_absolute' | 'windows_absolute' | 'windows_unc' | 'home_relative' | 'file_url';

/** Top-level directories that name a place on one machine even with a single segment (`/tmp`). */
const UNIX_ROOTS =
  /^\/(?:home|Users|root|tmp|var|etc|opt|usr|mnt|srv|private|Volumes|workspaces?|data|media|proc|dev|bin|sbin|lib|lib64|snap|nix|run|boot|Library|Applications|System)(?:\/|$)/;

/** Separators around a path inside a command line or a sentence. */
const PATH_SEPARATORS = /[\s"'`=,;()<>|&[\]{}]+/;

/**
 * The kind of machine-local absolute path `value` contains, or null. A path
 * is machine-local when it only means something on the machine that wrote it:
 * Unix absolute paths (`/home/ada/repo`, `/tmp`), Windows drive and UNC paths
 * (`C:\work`, `\\server\share`), paths under a home directory (`~/repo`,
 * `$HOME/x`, `%USERPROFILE%\x`) and `file://` URLs. Repository-relative paths
 * and http(s) URLs are not. A single-segment path such as `/help` is only
 * taken for one when it names a well-known root (`/tmp`, `/home`, ...).
 */
export function isMachineLocalPath(value: string): MachineLocalPathKind | null {
  for (const token of value.split(PATH_SEPARATORS)) {
    if (token === '') continue;
    if (/^file:\/\//i.test(token)) return 'file_url';
    if (/^[A-Za-z]:[\\/]/.test(token)) return 'windows_absolute';
    if (/^\\\\[^\\]+\\/.test(token)) return 'windows_unc';
    if (/^~[A-Za-z0-9._-]*(?:[\\/]|$)/.test(token)) return 'home_relative';
    if (/^(?:\$HOME|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%|%APPDATA%|%LOCALAPPDATA%)(?:[\\/]|$)/i.test(token)) return 'home_relative';
    if (/^\/(?!\/)[^/]+\/[^/]/.test(token) || UNIX_ROOTS.test(token)) return 'unix_absolute';
  }
  return null;
}
