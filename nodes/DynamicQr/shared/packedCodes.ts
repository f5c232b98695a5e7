/**
 * Per-code numbers packed in one text (the polling trigger's `scanCursor.codes`, the webhook
 * trigger's `scanMilestones.claims`): `id,count[,1]` joined by `;`, the id URI-encoded so that a
 * `,` or `;` in it cannot break an entry. n8n parses and writes static data whole, and about 18
 * bytes a code in a text cost it far less than an object with a key per code. `count`: a scan
 * count, or the highest milestone claimed; `flag`: Quiet Code's, 1 once a quiet spell is reported.
 */
export type CodeState = { count: number; flag: number };

export function unpackCodes(packed: string): Map<string, CodeState> {
	const codes = new Map<string, CodeState>();
	for (const entry of packed.split(';')) {
		const [id, count, flag] = entry.split(',');
		const n = Number(count);
		if (!id || !Number.isFinite(n)) continue;
		try {
			codes.set(decodeURIComponent(id), { count: n, flag: flag === '1' ? 1 : 0 });
		} catch {
			// An entry that is not ours: dropped, as if the code were not known.
		}
	}
	return codes;
}

export const packCodes = (codes: Map<string, CodeState>): string =>
	[...codes]
		.map(([id, { count, flag }]) => `${encodeURIComponent(id)},${count}${flag ? ',1' : ''}`)
		.join(';');
