import { createHash } from 'crypto';

/** C0 and C1 control characters (CR and LF among them), which no header or part name may hold. */
export const isControl = (char: string) => char < ' ' || (char >= '\x7f' && char <= '\x9f');

export const hasControlCharacters = (text: string): boolean => [...text].some(isControl);

/** Keys sent as given: printable ASCII, no space at either end, at most 255 characters. */
const PLAIN_KEY = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;
const HASHED_PREFIX = 'key-sha256-'; // marks a hashed key; plain keys with it are hashed too

/**
 * Clients drop what a header cannot hold ("注文-東京" and "注文-大阪" would both be "-"): other keys
 * go as a SHA-256; plain ones unchanged, so retries of runs made before this rule still match.
 */
export function headerSafeKey(key: string): string {
	if (PLAIN_KEY.test(key) && !key.startsWith(HASHED_PREFIX)) return key;
	return `${HASHED_PREFIX}${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}
