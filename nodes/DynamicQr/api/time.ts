/**
 * A record time in ms. The reference shows times as ISO 8601 strings but not the format of every
 * record's `created_at`; services also give Unix seconds or milliseconds, as numbers or digits.
 * NaN when the value is no time at all.
 */
// Reading "timestamps-unix": `created_at` as Unix seconds.
export function timeMs(value: unknown): number {
	const numeric =
		typeof value === 'number'
			? value
			: /^\d+(\.\d+)?$/.test(String(value ?? ''))
				? Number(value)
				: NaN;
	// Below 10^11 a number is seconds (until the year 5138), above it milliseconds (since 1973).
	if (Number.isFinite(numeric)) return numeric < 1e11 ? numeric * 1000 : numeric;
	return typeof value === 'string' ? Date.parse(value) : NaN;
}
