import { isObject, ownValue, redact } from './records';

/** What an error answer said, whatever its shape; decisions are made on `fields`, not words. */
export interface ApiErrorBody {
	message?: string; // what the service said without naming a field (joined by "; ")
	/** Each field named, with its messages (a Map: the names are the service's text). */
	fields?: ReadonlyMap<string, readonly string[]>;
	format?: 'html' | 'text'; // set when the answer was not the API's JSON
}

/** Keys whose text is an error's message, in the order they are looked for. */
const MESSAGE_KEYS = ['message', 'msg', 'detail', 'error_description', 'title', 'error'];
/** Keys an error entry names its field under (`loc` as a list of steps, as FastAPI gives it). */
const FIELD_KEYS = ['field', 'param', 'attribute', 'loc'];
const NESTED_KEYS = ['error', 'errors', 'details', 'detail']; // more errors: lists, maps, objects

const firstText = (object: Record<string, unknown>, keys: string[]): string | undefined =>
	keys
		.map((key) => ownValue(object, key))
		.find((value): value is string => typeof value === 'string' && value.trim() !== '');

/** A field name given as text, or as a list of steps (`["payload", "url"]` is "payload.url"). */
const fieldNameIn = (entry: Record<string, unknown>) =>
	FIELD_KEYS.map((key) => ownValue(entry, key))
		.map((value) => (Array.isArray(value) ? value.map(String).join('.') : value))
		.find((value): value is string => typeof value === 'string' && value !== '');

/**
 * Reads an error body of any shape: `errors` as a field map or a list (reading "errors-as-list"),
 * a nested `{ error }` (reading "error-object"), `detail` lists, a bare text. What has no words
 * of its own is shown as short JSON, never as "[object Object]".
 */
export function readErrorBody(json: unknown): ApiErrorBody {
	const said: string[] = [];
	const fields = new Map<string, string[]>();
	const add = (field: string | undefined, text: string) => {
		const messages = field === undefined ? said : (fields.get(field) ?? []);
		if (text && !messages.includes(text)) messages.push(text);
		if (field !== undefined && messages.length) fields.set(field, messages);
	};

	/** A field map: each key names a field (nested maps name "payload.url"). */
	const readFieldMap = (map: Record<string, unknown>, prefix?: string) =>
		Object.entries(map).forEach(([name, value]) =>
			readEntry(value, prefix === undefined ? name : `${prefix}.${name}`, true),
		);

	/** One error: a text, a list of them, an entry object, or (in a field map) a nested map. */
	const readEntry = (value: unknown, field?: string, inFieldMap = false): void => {
		if (Array.isArray(value)) return value.forEach((entry) => readEntry(entry, field));
		if (['string', 'number', 'boolean'].includes(typeof value))
			return add(field, String(value).trim());
		if (!isObject(value)) return;
		const named = fieldNameIn(value);
		const text = firstText(value, MESSAGE_KEYS);
		const nested = NESTED_KEYS.map((key) => [key, ownValue(value, key)] as const).filter(
			([, inner]) => isObject(inner) || Array.isArray(inner),
		);
		if (inFieldMap && named === undefined && text === undefined && !nested.length)
			return readFieldMap(value, field);
		const entryField = named ?? field;
		if (text !== undefined) add(entryField, text);
		for (const [key, inner] of nested) {
			// `errors: { name: [...] }` is a field map; `error: { message }` is one more error.
			if (key !== 'error' && isObject(inner) && firstText(inner, MESSAGE_KEYS) === undefined) {
				readFieldMap(inner, entryField);
			} else {
				readEntry(inner, entryField);
			}
		}
		if (text === undefined && !nested.length && Object.keys(value).length)
			add(entryField, firstText(value, ['code']) ?? JSON.stringify(value).slice(0, 200));
	};

	readEntry(json);
	// A shape none of these fits (`{ "error": {} }`) is still said: never an error without words.
	if (!said.length && !fields.size && typeof json === 'object' && json)
		said.push(JSON.stringify(json).slice(0, 200));
	return { message: said.join('; ') || undefined, fields: fields.size ? fields : undefined };
}

/** What an error answer said, or what kind of page stood in for it; the key taken out first. */
export function parseErrorBody(body: unknown, contentType: string, secret: string): ApiErrorBody {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	if (typeof text !== 'string') return readErrorBody(redact(text, secret));
	// Reading "html-error-pages": a proxy's HTML page is named as such (errors.ts), not shown.
	if (/html/i.test(contentType) || /^\s*<(!doctype|html|head|body)\b/i.test(text))
		return { format: 'html' };
	try {
		return readErrorBody(redact(JSON.parse(text), secret));
	} catch {
		const line = redact(text, secret).replace(/\s+/g, ' ').trim().slice(0, 200);
		return line ? { format: 'text', message: line } : {};
	}
}

/** Whether the service named this field, or a part of it ("tags.0", "tags[0]"). */
export const namesField = (fields: Iterable<string>, name: string): boolean =>
	[...fields].some(
		(field) => field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`),
	);
