/**
 * The dashboard signing secret of a version 2 trigger, kept for a few seconds after its
 * credential was read. n8n decrypts a credential for every read (and, under its default
 * expression engine, sets up an isolate to resolve the credential's fields), which a busy
 * endpoint would otherwise pay with every delivery.
 *
 * Kept for the process, not a run: every delivery is a run of its own. An entry belongs to one
 * node of one workflow and one credential, so a workflow never verifies with a secret it could
 * not read itself. A secret changed in n8n takes effect at the next delivery that the kept one
 * does not verify (receive.ts reads the credential again then), and a secret that still verifies
 * is trusted for at most KEPT_FOR_MS after it was read.
 */

export const KEPT_FOR_MS = 5000;

const kept = new Map<string, { secret: string; readAtMs: number }>();

/** The secret read for `key` less than KEPT_FOR_MS before `nowMs`, if any. */
export function keptSecret(key: string, nowMs: number): string | undefined {
	const entry = kept.get(key);
	if (!entry) return undefined;
	if (nowMs - entry.readAtMs < KEPT_FOR_MS && nowMs >= entry.readAtMs) return entry.secret;
	kept.delete(key);
	return undefined;
}

export function keepSecret(key: string, secret: string, nowMs: number): void {
	kept.set(key, { secret, readAtMs: nowMs });
}
