/**
 * The checks of `paydesk doctor`, each a pure judgement of what the environment (or the handler
 * module) says and what the provider answered: a finding names what is wrong and what to do.
 */
import { isIP } from 'node:net';

export type CheckStatus = 'ok' | 'finding' | 'skipped';

export interface Check {
  id: 'provider' | 'currency' | 'webhook_url' | 'session_secret' | 'store' | 'clock';
  status: CheckStatus;
  message: string;
  /** What to do; only on a finding. */
  fix?: string;
}

/** Largest difference between this machine's clock and the provider's that passes. */
export const CLOCK_BOUND_SECONDS = 30;
export const MIN_SESSION_SECRET_LENGTH = 32;

export const ok = (id: Check['id'], message: string): Check => ({ id, status: 'ok', message });
export const finding = (id: Check['id'], message: string, fix: string): Check => ({ id, status: 'finding', message, fix });
export const skipped = (id: Check['id'], message: string): Check => ({ id, status: 'skipped', message });

/** A host a provider on the internet cannot reach: loopback, private, link-local, `localhost`, `.local`. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
  const kind = isIP(host);
  if (kind === 4) {
    const [a, b] = host.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (kind === 6) return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:127.');
  return !host.includes('.');
}

/**
 * The webhook URL: public https against a real provider; anything http(s) against the sandbox; its
 * reach not judged when the provider did not answer (`againstSandbox` null: which one it is is unknown).
 * `from` names where the URL came from (the environment, or the handler's options).
 */
export function checkWebhookUrl(url: string | undefined, againstSandbox: boolean | null, from = 'PAYDESK_WEBHOOK_URL'): Check {
  const id = 'webhook_url';
  if (!url) {
    return finding(
      id,
      'PAYDESK_WEBHOOK_URL is not set: orders are created without a webhook_url, so a payment reaches you only through the sweep (up to a minute late), or through a URL set on the terminal',
      'set PAYDESK_WEBHOOK_URL to the public URL of your webhook route (…/api/paydesk/webhooks) and pass it as webhookUrl; then run paydesk webhooks test URL',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return finding(id, `${from} ${JSON.stringify(url)} is not a URL`, 'set it to the full URL of your webhook route, e.g. https://shop.example/api/paydesk/webhooks');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return finding(id, `${from} uses ${parsed.protocol}`, 'use an https:// URL');
  if (againstSandbox) return ok(id, `${url} (the sandbox delivers to any http(s) URL, loopback included)`);
  if (againstSandbox === null) return skipped(id, `${url}: whether the provider can reach it is not judged (the provider did not answer)`);
  if (isPrivateHost(parsed.hostname)) {
    return finding(id, `${url} is on ${parsed.hostname}, which the provider cannot reach from the internet`, 'use your public https URL (a tunnel such as cloudflared or ngrok while developing)');
  }
  if (parsed.protocol !== 'https:') return finding(id, `${url} is plain http: webhooks (and the API key they carry) would travel unencrypted`, 'serve the webhook route over https and give its https:// URL');
  return ok(id, `${url} is a public https URL`);
}

export function checkSessionSecret(secret: string | undefined, from: string): Check {
  const id = 'session_secret';
  if (!secret) {
    return finding(id, `no session secret (${from})`, `set PAYDESK_SESSION_SECRET to ${MIN_SESSION_SECRET_LENGTH}+ random characters: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`);
  }
  if (secret.length < MIN_SESSION_SECRET_LENGTH) {
    return finding(id, `the session secret (${from}) has ${secret.length} characters; session tokens signed with it can be forged`, `use at least ${MIN_SESSION_SECRET_LENGTH} random characters (node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))")`);
  }
  return ok(id, `the session secret (${from}) has ${secret.length} characters`);
}

export function checkCurrency(terminalCurrency: string, wanted: string): Check {
  if (terminalCurrency.toUpperCase() === wanted.toUpperCase()) return ok('currency', `the key is for a ${terminalCurrency} terminal, as configured`);
  return finding(
    'currency',
    `the key is for a ${terminalCurrency} terminal, but the shop takes ${wanted} (PAYDESK_CURRENCY${wanted === 'RUB' ? ', default RUB' : ''})`,
    `use the API key of your ${wanted} terminal, or set PAYDESK_CURRENCY=${terminalCurrency} (and the handler's currency option) if the shop sells in ${terminalCurrency}`,
  );
}

/** `skewSeconds`: this machine's clock minus the provider's (from its Date header). */
export function checkClock(skewSeconds: number | null): Check {
  if (skewSeconds === null) return skipped('clock', "the provider's answer had no Date header to compare with");
  const s = Math.round(skewSeconds);
  if (Math.abs(skewSeconds) <= CLOCK_BOUND_SECONDS) return ok('clock', `this clock is within ${Math.max(1, Math.abs(s))} s of the provider's`);
  return finding(
    'clock',
    `this clock is ${Math.abs(s)} s ${s > 0 ? 'ahead of' : 'behind'} the provider's (bound ${CLOCK_BOUND_SECONDS} s): signed webhooks past 300 s are refused, and order countdowns and expiry checks are off`,
    'synchronise the clock (NTP: timedatectl set-ntp true, or your host’s time service)',
  );
}
