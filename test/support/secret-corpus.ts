import { seededRandom } from './random';

/**
 * Corpora of secret-shaped and ordinary values, shared by the libs/secrets
 * unit tests and the profile-layer e2e suites.
 */
/**
 * Fake, format-correct samples: built from a seeded generator so that no real
 * credential is ever written down, and the same on every run.
 */
const generator = seededRandom(0x2545f491);
function random(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(generator.next() * alphabet.length)];
  return out;
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const B64URL = ALNUM + '-_';
const B64 = ALNUM + '+/';
const HEX = '0123456789abcdef';
const UPPER_ALNUM = UPPER + DIGITS;
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const mixed = (n: number) => random(LOWER, 2) + random(UPPER, 2) + random(DIGITS, 2) + random(ALNUM, n - 6);

/** One sample per provider format (at least 40), each with the kind it must be reported as: [name, value, kind]. */
export const SECRETS: [string, string, string][] = [
  ['Baton API token', `sk_service_${random(B64URL, 43)}`, 'baton_token'],
  ['OpenAI project key', `sk-proj-${random(B64URL, 56)}`, 'openai_key'],
  ['OpenAI legacy key', `sk-${mixed(48)}`, 'openai_key'],
  ['OpenAI service-account key', `sk-svcacct-${random(B64URL, 48)}`, 'openai_key'],
  ['Anthropic API key', `sk-ant-api03-${random(B64URL, 93)}AA`, 'anthropic_key'],
  ['Anthropic admin key', `sk-ant-admin01-${random(B64URL, 93)}AA`, 'anthropic_key'],
  ['Stripe live secret key', `sk_live_51${mixed(96)}`, 'stripe_key'],
  ['Stripe test secret key', `sk_test_51${mixed(96)}`, 'stripe_key'],
  ['Stripe restricted key', `rk_live_51${mixed(96)}`, 'stripe_key'],
  ['Stripe webhook secret', `whsec_${mixed(32)}`, 'stripe_webhook_secret'],
  ['GitHub personal token', `ghp_${mixed(36)}`, 'github_token'],
  ['GitHub OAuth token', `gho_${mixed(36)}`, 'github_token'],
  ['GitHub app installation token', `ghs_${mixed(36)}`, 'github_token'],
  ['GitHub fine-grained token', `github_pat_11${random(UPPER_ALNUM, 20)}_${mixed(59)}`, 'github_token'],
  ['GitLab personal token', `glpat-${random(B64URL, 20)}`, 'gitlab_token'],
  ['Slack bot token', `xoxb-${random(DIGITS, 12)}-${random(DIGITS, 13)}-${mixed(24)}`, 'slack_token'],
  ['Slack user token', `xoxp-${random(DIGITS, 12)}-${random(DIGITS, 12)}-${random(DIGITS, 13)}-${random(HEX, 32)}`, 'slack_token'],
  ['Slack app-level token', `xapp-1-A${random(UPPER_ALNUM, 10)}-${random(DIGITS, 13)}-${random(HEX, 64)}`, 'slack_token'],
  ['Slack incoming webhook', `https://hooks.slack.com/services/T${random(UPPER_ALNUM, 8)}/B${random(UPPER_ALNUM, 10)}/${mixed(24)}`, 'slack_webhook'],
  ['Discord webhook', `https://discord.com/api/webhooks/${random(DIGITS, 18)}/${random(B64URL, 68)}`, 'discord_webhook'],
  ['Discord bot token', `M${random(ALNUM, 23)}.${random(B64URL, 6)}.${random(B64URL, 27)}`, 'discord_bot_token'],
  ['Telegram bot token', `${random(DIGITS, 10)}:AA${random(B64URL, 33)}`, 'telegram_bot_token'],
  ['AWS access key id', `AKIA${random(UPPER_ALNUM, 16)}`, 'aws_access_key_id'],
  ['AWS temporary access key id', `ASIA${random(UPPER_ALNUM, 16)}`, 'aws_access_key_id'],
  ['AWS secret access key (named)', `aws_secret_access_key=${random(B64, 40)}`, 'aws_secret_access_key'],
  ['Google API key', `AIza${random(B64URL, 35)}`, 'google_api_key'],
  ['Google OAuth client secret', `GOCSPX-${random(B64URL, 28)}`, 'google_oauth_secret'],
  ['Google OAuth access token', `ya29.${random(B64URL, 120)}`, 'google_oauth_token'],
  ['Azure storage connection string', `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${random(B64, 86)}==;EndpointSuffix=core.windows.net`, 'azure_storage_key'],
  ['Azure SAS URL', `https://acme.blob.core.windows.net/c/file?sv=2022-11-02&se=2030-01-01&sp=r&sig=${random(ALNUM, 43)}%3D`, 'azure_sas_signature'],
  ['Twilio API key', `SK${random(HEX, 32)}`, 'twilio_key'],
  ['SendGrid API key', `SG.${random(B64URL, 22)}.${random(B64URL, 43)}`, 'sendgrid_key'],
  ['Mailgun API key', `key-${random(HEX, 32)}`, 'mailgun_key'],
  ['Mailchimp API key', `${random(HEX, 32)}-us21`, 'mailchimp_key'],
  ['npm access token', `npm_${mixed(36)}`, 'npm_token'],
  ['PyPI upload token', `pypi-AgEIcHlwaS5vcmc${random(B64URL, 70)}`, 'pypi_token'],
  ['Docker Hub token', `dckr_pat_${random(B64URL, 27)}`, 'docker_hub_token'],
  ['Hugging Face token', `hf_${mixed(34)}`, 'huggingface_token'],
  ['Shopify admin token', `shpat_${random(HEX, 32)}`, 'shopify_token'],
  ['Square access token', `EAAA${random(B64URL, 60)}`, 'square_token'],
  ['DigitalOcean token', `dop_v1_${random(HEX, 64)}`, 'digitalocean_token'],
  ['Linear API key', `lin_api_${mixed(40)}`, 'linear_key'],
  ['Notion integration token', `ntn_${mixed(46)}`, 'notion_token'],
  ['Airtable personal token', `pat${random(ALNUM, 14)}.${random(HEX, 64)}`, 'airtable_token'],
  ['Atlassian API token', `ATATT3xFfGF0${random(B64URL, 180)}=${random(HEX, 8).toUpperCase()}`, 'atlassian_token'],
  ['Postman API key', `PMAK-${random(HEX, 24)}-${random(HEX, 34)}`, 'postman_key'],
  ['Databricks token', `dapi${random(HEX, 32)}`, 'databricks_token'],
  ['HashiCorp Vault token', `hvs.${random(B64URL, 90)}`, 'vault_token'],
  ['Doppler service token', `dp.st.${mixed(43)}`, 'doppler_token'],
  ['Pulumi access token', `pul-${random(HEX, 40)}`, 'pulumi_token'],
  ['Terraform Cloud token', `${random(ALNUM, 14)}.atlasv1.${random(B64URL, 67)}`, 'terraform_token'],
  ['Sentry auth token', `sntrys_${random(B64, 60)}`, 'sentry_token'],
  ['New Relic user key', `NRAK-${random(UPPER_ALNUM, 27)}`, 'newrelic_key'],
  ['Grafana service-account token', `glsa_${mixed(32)}_${random(HEX, 8)}`, 'grafana_token'],
  ['age secret key', `AGE-SECRET-KEY-1${random(BECH32, 58)}`, 'age_secret_key'],
  ['RSA private key block', `-----BEGIN RSA PRIVATE KEY-----\nMIIE${random(B64, 60)}\n-----END RSA PRIVATE KEY-----`, 'private_key'],
  ['OpenSSH private key block', `-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn${random(B64, 60)}`, 'private_key'],
  ['PGP private key block', `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOY${random(B64, 40)}`, 'private_key'],
  ['JSON web token', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${random(B64URL, 30)}.${random(B64URL, 43)}`, 'jwt'],
  ['bearer header', `Authorization: Bearer ${mixed(40)}`, 'authorization_header'],
  ['basic-auth header', `Authorization: Basic ${random(B64, 24)}==`, 'authorization_header'],
  ['password in an https URL', `https://deploy:${mixed(14)}@git.example.com/acme/app.git`, 'url_credentials'],
  ['Postgres URL with credentials', `postgres://baton:${mixed(12)}@db.internal:5432/baton`, 'url_credentials'],
  ['MongoDB SRV URL with credentials', `mongodb+srv://app:${mixed(16)}@cluster0.example.mongodb.net/prod`, 'url_credentials'],
  ['Redis URL with a password only', `redis://:${mixed(20)}@cache.internal:6379/0`, 'url_credentials'],
  ['AMQP URL with credentials', `amqp://worker:${mixed(12)}@mq.internal:5672/vhost`, 'url_credentials'],
  ['DSN with a key as user name', `https://${random(HEX, 32)}@o123456.ingest.example.io/4504`, 'url_credentials'],
  ['ADO.NET connection string', `Server=tcp:db.example.net,1433;Database=app;User ID=app;Password=${mixed(16)};Encrypt=True;`, 'connection_string_password'],
  ['named password', `password=${mixed(14)}`, 'credential_assignment'],
  ['short password', 'password=hunter2', 'credential_assignment'],
  ['one-letter password after a colon', 'password: x', 'credential_assignment'],
  ['short pwd in a connection line', 'host=db user=app pwd=s3cr', 'credential_assignment'],
  ['named API key in YAML style', `api_key: ${mixed(30)}`, 'credential_assignment'],
  ['opaque high-entropy token', mixed(44), 'high_entropy_token'],
  ['base64 random secret', `${random(B64, 43)}1aZ=`, 'high_entropy_token'],
];

/** Values people really put in profile fields: none of them is a secret or a machine-local path. */
export const ORDINARY: string[] = [
  'https://example.com/docs?page=2#profile-layers',
  'http://localhost:7878/mcp',
  'https://github.com/acme/app/blob/main/README.md',
  'https://registry.npmjs.org/@nestjs/core',
  'postgres://db.internal:5432/baton',
  'git@github.com:acme/app.git',
  'ssh://git@github.com/acme/app.git',
  'src/modules/profile-layers/profile-layers.service.ts',
  './scripts/test.sh',
  'docs/decisions.md',
  '.baton/capabilities.json',
  'packages/api/src/index.ts',
  'npm test -- --runInBand',
  'pytest -q tests/unit',
  'make check && make lint',
  'Run the whole test suite before asking for a merge.',
  'Never paste passwords or tokens into a profile: use the environment.',
  'Bearer authentication is handled by the gateway.',
  'token: none',
  'password: required',
  'password=<your password>',
  'password: ${DB_PASSWORD}',
  'Set the password: see the vault.',
  'password: ****',
  'The release is due 2025-03-31; see the changelog.',
  '3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b',
  '00000000-0000-0000-0000-000000000000',
  '0123456789abcdef0123456789abcdef01234567',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '🚀 ship it',
  '✅ tests green, 👀 review pending',
  '日本語のメモ: テストを先に書く',
  'github:create_issue',
  'mcp__filesystem__read_file',
  'getEffectiveProfileForSession',
  'ProjectSettingsMigration2024Q1',
  'risk_assessment_for_the_quarterly_plan',
  'feature/profile-layers',
  'v1.2.3-rc.1',
  'strict',
  'someone@example.com',
  'mode=strict; retries=3',
  'and/or 1/2 of the work',
  'type /help for the list of commands',
  'sk-short and pk_1 are not keys',
  'AKIA is how cloud key ids begin',
  'C# and F# projects',
  '12:30 stand-up, 14:00 review',
  '',
];

const ALPHABETS = { B64URL, B64, ALNUM, HEX } as const;

/** A fresh random string from one of the corpus alphabets. */
export function randomSample(alphabet: keyof typeof ALPHABETS, length: number): string {
  return random(ALPHABETS[alphabet], length);
}
