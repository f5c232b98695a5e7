import type { ParameterReader } from '../../shared/parameters';

/** Characters Windows, macOS or Linux refuse in a file name, and control characters. */
const REFUSED = /[<>:"/\\|?*\p{Cc}]/gu;
/** Names Windows keeps for its devices, with or without an extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
/** Room for " (2)" and the extension within the 255 bytes most file systems allow. */
const MAX_BYTES = 200;

/** File Name as a file system takes it, without an extension (the format's replaces one given). */
export function fileNameOption(parameters: ParameterReader): string | undefined {
	const given = parameters.collection('options').fileName as string | undefined;
	if (given === undefined) return undefined;
	const name = given
		.replace(REFUSED, '_')
		.trim()
		.replace(/\.(png|svg|pdf|eps)$/i, '')
		.replace(DEVICE_NAME, '_$1$2');
	if (!/[\p{L}\p{N}]/u.test(name) || Buffer.byteLength(name) > MAX_BYTES) {
		const expected = `a name with a letter or digit, at most ${MAX_BYTES} bytes (the extension is added)`;
		throw parameters.fail(parameters.optionField('options', 'fileName'), given, expected);
	}
	return name;
}

/**
 * The run's names in input order, whatever order items finish in: a name given before (letter
 * case aside, as Windows and macOS compare) gets " (2)", " (3)" …; unnamed items get none.
 */
export function distinctFileNames(names: Array<[name: string, format: string] | undefined>) {
	const taken = new Set<string>();
	return names.map((entry) => {
		if (!entry) return undefined;
		const [name, format] = entry;
		let candidate = name;
		for (let copy = 2; taken.has(`${candidate}.${format}`.toLowerCase()); copy++)
			candidate = `${name} (${copy})`;
		taken.add(`${candidate}.${format}`.toLowerCase());
		return candidate;
	});
}
