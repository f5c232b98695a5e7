/** A request as it was sent, for what its error says. */
export interface SentRequest {
	method: string;
	path: string;
	query?: ReadonlyArray<readonly [string, string]>; // as sent, by name (in qs or a redirect's URL)
	idempotencyKey?: string;
}

/** Query parameters from the user's fields, by the field's name (the only ones named). */
const QUERY_FIELDS = new Map([
	['search', 'Search'],
	['type', 'Type'],
	['archived', 'Archived'],
	['since', 'Since'],
	['from', 'From'],
	['to', 'To'],
	['format', 'Format'],
	['size', 'Size (Pixels)'],
	['mm', 'Size (Mm)'],
	['dpi', 'DPI'],
]);

/** The user's values sent: the largest, and any at least half its size. */
function largest({ query = [], idempotencyKey }: SentRequest, withKey: boolean): string[] {
	const parts = query.flatMap(([name, value]) => {
		const field = QUERY_FIELDS.get(name);
		return field ? [{ name: `"${field}"`, length: encodeURIComponent(value).length }] : [];
	});
	if (withKey && idempotencyKey)
		parts.push({ name: 'the Idempotency Key', length: idempotencyKey.length });
	parts.sort((a, b) => b.length - a.length);
	return parts
		.filter((part) => part.length * 2 >= parts[0].length)
		.map((part) => `${part.name} (${part.length.toLocaleString('en-US')} characters)`);
}

/** Size refusals never succeed on a resend: name what to shorten (a 431 counts the address). */
export function explainTooLarge(status: number, request: SentRequest) {
	const again = 'Sending it again will not help.';
	if (status === 413) {
		return {
			message: 'The request is larger than the service accepts (413)',
			description: `${again} For Logo > Upload, use a smaller image (a logo of a few hundred kilobytes is plenty); otherwise shorten the long values of this item.`,
		};
	}
	if (status !== 414 && status !== 431) return undefined;
	const what =
		status === 414
			? 'The request address is longer than the service accepts (414)'
			: 'The request headers are larger than the service accepts (431)';
	const culprits = largest(request, status === 431);
	if (!culprits.length) {
		return {
			message: what,
			description: `${again} None of this item's values travels in the ${status === 414 ? 'address' : 'address or headers'}: check the Base URL in the credential, and any proxy in front of the service.`,
		};
	}
	const named = culprits.join(' and ');
	return {
		message: `${what}: ${named} ${culprits.length > 1 ? 'are' : 'is'} too long`,
		description: `${again} Shorten ${named} for this item.`,
	};
}
