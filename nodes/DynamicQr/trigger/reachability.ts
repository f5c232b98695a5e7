import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Whether the service can plausibly deliver to a webhook URL. The service delivers from the
 * internet: a webhook URL on localhost, a private network or plain HTTP is only usable when the
 * API itself is local too (the sandbox on 127.0.0.1, a self-hosted test instance).
 */

/** localhost, loopback, private, link-local, unspecified and "internal" names. */
function isLocalHost(hostname: string): boolean {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === '' || host === 'localhost' || host.endsWith('.localhost')) return true;
	if (/\.(local|internal|lan|home|intranet|corp|test|localdomain)$/.test(host)) return true;
	if (!host.includes('.') && !host.includes(':')) return true; // a bare intranet name, e.g. "n8n"
	const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)?.slice(1).map(Number);
	if (v4?.every((byte) => byte <= 255)) {
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
	if (host === '::' || host === '::1') return true;
	if (/^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host)) return true;
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
	return mapped ? isLocalHost(mapped[1]) : false;
}

/** Fails the activation when the API is a public host and the webhook URL is local or plain HTTP. */
export function assertReachable(ctx: IHookFunctions, webhookUrl: string, apiBaseUrl: string) {
	if (!URL.canParse(webhookUrl) || !URL.canParse(apiBaseUrl)) return;
	if (isLocalHost(new URL(apiBaseUrl).hostname)) return;
	const webhook = new URL(webhookUrl);
	const what = isLocalHost(webhook.hostname)
		? `is on a local or private address (${webhook.host})`
		: webhook.protocol !== 'https:'
			? `uses plain HTTP (${webhook.host})`
			: undefined;
	if (!what) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The Dynamic QR service cannot deliver events to this n8n: its webhook URL ${what}`,
		{
			description:
				"n8n builds webhook URLs from its WEBHOOK_URL environment variable. Set WEBHOOK_URL to the public HTTPS address of this n8n instance (for example https://n8n.example.com/, behind a reverse proxy or a tunnel), restart n8n and activate the workflow again. If this n8n cannot be reached from the internet, use the 'Dynamic QR Polling Trigger' node instead: it asks the API for new leads and QR codes on a schedule and needs no incoming connection.",
		},
	);
}
