/**
 * The dashboard signing secret of a version 2 trigger, kept for KEPT_FOR_MS after its credential
 * was read (docs/triggers.md#signing-secret): n8n decrypts it, maybe in an isolate, for every read.
 * Kept for the process, not a run: every delivery is a run of its own. An entry belongs to one
 * node, workflow and credential: a workflow never verifies with a secret it could not read itself.
 */

export const KEPT_FOR_MS = 5000;

const kept = new Map<string, { secret: string; readAtMs: number }>();

export function keptSecret(key: string, nowMs: number): string | undefined {
	const entry = kept.get(key);
	if (entry && nowMs - entry.readAtMs < KEPT_FOR_MS && nowMs >= entry.readAtMs) return entry.secret;
	kept.delete(key);
	return undefined;
}

export const keepSecret = (key: string, secret: string, nowMs: number) =>
	kept.set(key, { secret, readAtMs: nowMs });
