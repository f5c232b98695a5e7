/** What may travel in a header or a multipart part's name: no control characters. */

/** C0 and C1 control characters (CR and LF among them), which no header or name should hold. */
const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);

export const hasControlCharacters = (text: string): boolean =>
	[...text].some((char) => isControl(char.charCodeAt(0)));

/** The text with every control character replaced. */
export const replaceControlCharacters = (text: string, replacement: string): string =>
	[...text].map((char) => (isControl(char.charCodeAt(0)) ? replacement : char)).join('');
