/**
 * Whether the service can plausibly deliver to a webhook URL. The service delivers from the
 * internet: a webhook URL on localhost, a private network or plain HTTP is only usable when the
 * API itself is local too (the sandbox on 127.0.0.1, a self-hosted test instance).
 */

function parse(url: string): URL | undefined {
	try {
		return new URL(url);
	} catch {
		return undefined;
	}
}

function ipv4(host: string): number[] | undefined {
	const parts = host.split('.');
	if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
	const bytes = parts.map(Number);
	return bytes.every((b) => b <= 255) ? bytes : undefined;
}

/** localhost, loopback, private, link-local, unspecified and "internal" names. */
export function isLocalHost(hostname: string): boolean {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return true;
	if (/\.(local|internal|lan|home|intranet|corp|test|localdomain)$/.test(host)) return true;
	if (!host.includes('.') && !host.includes(':')) return true; // a bare intranet name, e.g. "n8n"
	const v4 = ipv4(host);
	if (v4) {
		const [a, b] = v4;
		return (
			a === 0 ||
			a === 10 ||
			a === 127 ||
			(a === 100 && b >= 64 && b <= 127) ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168)
		);
	}
	if (host.includes(':')) {
		if (host === '::' || host === '::1') return true;
		if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
		const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
		if (mapped) return isLocalHost(mapped[1]);
	}
	return false;
}

export interface ReachabilityProblem {
	reason: 'local' | 'plain_http';
	webhookHost: string;
}

/** A problem when the API is a public host and the webhook URL is local or plain HTTP. */
export function webhookReachabilityProblem(
	webhookUrl: string,
	apiBaseUrl: string,
): ReachabilityProblem | undefined {
	const webhook = parse(webhookUrl);
	const api = parse(apiBaseUrl);
	if (!webhook || !api) return undefined;
	if (isLocalHost(api.hostname)) return undefined;
	if (isLocalHost(webhook.hostname)) return { reason: 'local', webhookHost: webhook.host };
	if (webhook.protocol !== 'https:') return { reason: 'plain_http', webhookHost: webhook.host };
	return undefined;
}
