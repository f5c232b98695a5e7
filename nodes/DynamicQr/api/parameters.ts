import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_RULE } from './records';

/**
 * THE reader of node parameters. In n8n most values come from expressions over the data (a
 * sheet, a form, an AI agent), so any JavaScript value can reach any field. Every parameter is
 * read here by the type its description declares, and a value that does not fit fails the item
 * before anything is sent, naming the field, the item, what arrived and what is expected.
 *
 * Conventions for values from expressions (README "Values from expressions"):
 * - empty (undefined, null, blank text) means "not set": the field's default, or left out of a
 *   collection; a required field that is empty is missing;
 * - boolean: true/false, the texts "true"/"false" (any case, trimmed), 1/0 and "1"/"0" (n8n's
 *   own reading of booleans);
 * - number: a finite number or a text of one in decimal notation; a whole number unless the
 *   field declares decimals (numberPrecision); within the field's minValue/maxValue;
 * - text: text, or a finite number (a row id, a phone number) written out; never a boolean, an
 *   object or a list (they would travel as "[object Object]" or "a,b");
 * - date: an ISO 8601 date or date-time with a real calendar date, a JavaScript Date or a Luxon
 *   DateTime; never a bare number;
 * - option: one of the values the field offers; multi-option: a list of them (or one text,
 *   comma-separated);
 * - JSON: an object (or list where the field takes one), or a text of it; empty is not set
 *   (a JSON field's default is an example, never sent).
 */

export interface ParameterSource {
	node: INode;
	/** The parameter's value as n8n resolved it; `fallback` when the node has none stored. */
	get(name: string, fallback: unknown): unknown;
	/** Set for the action node, whose errors belong to an item. */
	itemIndex?: number;
}

/** A field's description, and the collection it sits in. */
export interface Field {
	property: INodeProperties;
	parent?: INodeProperties;
}

const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const MAX_SHOWN = 40;

/** C0 and C1 control characters (CR and LF among them), which no header or name should hold. */
const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);

export const hasControlCharacters = (text: string): boolean =>
	[...text].some((char) => isControl(char.charCodeAt(0)));

/** The text with every control character replaced. */
export const replaceControlCharacters = (text: string, replacement: string): string =>
	[...text].map((char) => (isControl(char.charCodeAt(0)) ? replacement : char)).join('');

/** What arrived, in a few safe words: its JavaScript type and a short form of it. */
export function describeValue(value: unknown, secret = false): string {
	if (value === undefined) return 'nothing (undefined)';
	if (value === null) return 'null';
	if (secret) return `a ${typeof value} (not shown: the field is a secret)`;
	if (typeof value === 'string') {
		const shown = JSON.stringify(value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN) : value);
		return value.length > MAX_SHOWN
			? `the text ${shown.slice(0, -1)}…" (${value.length} characters)`
			: `the text ${shown}`;
	}
	if (typeof value === 'number') return `the number ${String(value)}`;
	if (typeof value === 'boolean') return `the boolean ${String(value)}`;
	if (typeof value === 'bigint') return `the bigint ${String(value)}`;
	if (typeof value === 'function') return 'a function';
	if (typeof value === 'symbol') return 'a symbol';
	if (Array.isArray(value))
		return `a list of ${value.length} value${value.length === 1 ? '' : 's'}`;
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? 'an invalid Date' : `the Date ${value.toISOString()}`;
	}
	if (isLuxonDateTime(value)) {
		return value.isValid ? `the DateTime ${value.toISO()}` : 'an invalid DateTime';
	}
	const keys = Object.keys(value as object);
	const listed = keys.slice(0, 5).join(', ');
	return keys.length
		? `an object with the keys ${listed}${keys.length > 5 ? ', …' : ''}`
		: 'an empty object';
}

interface LuxonDateTime {
	isLuxonDateTime: true;
	isValid: boolean;
	toISO(): string | null;
}

function isLuxonDateTime(value: unknown): value is LuxonDateTime {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true
	);
}

/** An object as JSON gives it: not a list, a Date or a DateTime. */
const isPlainObject = (value: unknown): value is IDataObject =>
	Object.prototype.toString.call(value) === '[object Object]' && !isLuxonDateTime(value);

/** A Map, not an object: "constructor" or "__proto__" must not be found as a boolean text. */
const BOOLEAN_TEXTS = new Map([
	['true', true],
	['false', false],
	['1', true],
	['0', false],
]);
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

/** Whether an ISO 8601 text names a real moment: 2030-02-30 and 25:00 do not. */
export function isIsoDate(text: string): boolean {
	const match = ISO_DATE.exec(text);
	if (!match) return false;
	const [, year, month, day, hour = '0', minute = '0', second = '0', offsetH = '0', offsetM = '0'] =
		match;
	const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
	return (
		Number(month) >= 1 &&
		Number(month) <= 12 &&
		Number(day) >= 1 &&
		Number(day) <= daysInMonth &&
		Number(hour) <= 23 &&
		Number(minute) <= 59 &&
		Number(second) <= 59 &&
		Number(offsetH) <= 23 &&
		Number(offsetM) <= 59
	);
}

/** What a field of this type takes, in words, for the error. */
function expected(property: INodeProperties): string {
	const options = (property.options ?? []) as Array<{ value?: unknown }>;
	switch (property.type) {
		case 'boolean':
			return 'true or false (the texts "true" and "false", or 1 and 0, count too)';
		case 'number': {
			const { minValue, maxValue } = property.typeOptions ?? {};
			const kind = property.typeOptions?.numberPrecision ? 'a number' : 'a whole number';
			if (minValue !== undefined && maxValue !== undefined)
				return `${kind} from ${minValue} to ${maxValue}`;
			if (minValue !== undefined) return `${kind} of at least ${minValue}`;
			if (maxValue !== undefined) return `${kind} of at most ${maxValue}`;
			return kind;
		}
		case 'dateTime':
			return 'an ISO 8601 date or date-time with a real calendar date, e.g. 2030-05-01 or 2030-05-01T18:00:00Z';
		case 'options':
			return property.typeOptions?.loadOptionsMethod
				? `an ID of ${ID_RULE}`
				: `one of: ${options.map((option) => String(option.value)).join(', ')}`;
		case 'multiOptions':
			return `a list of: ${options.map((option) => String(option.value)).join(', ')}`;
		case 'json':
			return 'a JSON object, or a text holding one';
		case 'resourceLocator':
			return `an ID of ${ID_RULE}, or (By URL) the record's dashboard URL`;
		default:
			return 'text (or a number, written out)';
	}
}

/** Reads the parameters of one node (and, for the action node, one item) by their declared types. */
export class ParameterReader {
	private readonly fields = new Map<string, INodeProperties>();

	constructor(
		private readonly source: ParameterSource,
		properties: INodeProperties[],
	) {
		// A field may be declared twice under one name (shown in different cases); both copies
		// have the same type, so the first one found describes it.
		for (const property of properties) {
			if (!this.fields.has(property.name)) this.fields.set(property.name, property);
		}
	}

	get itemIndex() {
		return this.source.itemIndex;
	}

	get node() {
		return this.source.node;
	}

	/** The declared property of a top-level parameter. */
	property(name: string): INodeProperties {
		const property = this.fields.get(name);
		if (!property) throw new Error(`The parameter "${name}" is not part of this operation`);
		return property;
	}

	/** "Limit" in item 0; "Since" (in Filters) in item 2. */
	private where({ property, parent }: Field): string {
		const inside = parent ? ` (in ${parent.displayName})` : '';
		const item = this.itemIndex === undefined ? '' : ` in item ${this.itemIndex}`;
		return `"${property.displayName}"${inside}${item}`;
	}

	/** The error every reader throws: the field, the item, what arrived and what is expected. */
	fail(field: Field, value: unknown, expectation = expected(field.property)): NodeOperationError {
		const secret = Boolean(field.property.typeOptions?.password);
		return new NodeOperationError(
			this.node,
			`Invalid ${this.where(field)}: got ${describeValue(value, secret)}, expected ${expectation}`,
			{
				itemIndex: this.itemIndex,
				description: `Correct "${field.property.displayName}"${
					this.itemIndex === undefined ? '' : ' for this item (or the data its expression reads)'
				}; nothing was sent to the API.`,
			},
		);
	}

	private missing(field: Field): NodeOperationError {
		return new NodeOperationError(this.node, `Missing ${this.where(field)}: it is required`, {
			itemIndex: this.itemIndex,
			description: `Fill in "${field.property.displayName}", or check that its expression finds a value in the data; nothing was sent to the API.`,
		});
	}

	/** A value checked against its field's declared type; undefined when empty and optional. */
	private check(field: Field, value: unknown, required: boolean, lists?: string[]): unknown {
		const { property } = field;
		if (property.type === 'json' && typeof value === 'string' && !value.trim()) value = undefined;
		if (
			isBlank(value) ||
			(Array.isArray(value) && !value.length && property.type === 'multiOptions')
		) {
			if (required) throw this.missing(field);
			return undefined;
		}
		switch (property.type) {
			case 'boolean':
				return this.toBoolean(field, value);
			case 'number':
				return this.toNumber(field, value);
			case 'dateTime':
				return this.toDate(field, value);
			case 'options':
				return this.toOption(field, value);
			case 'multiOptions':
				return this.toOptionList(field, value, required);
			case 'json':
				return this.toJson(field, value);
			case 'collection':
			case 'fixedCollection':
				return this.toCollection(field, value, lists ?? []);
			case 'resourceLocator':
				return this.toRecordId(field, value);
			default:
				return this.toText(field, value);
		}
	}

	private toBoolean(field: Field, value: unknown): boolean {
		if (typeof value === 'boolean') return value;
		if (value === 1 || value === 0) return value === 1;
		const read =
			typeof value === 'string' ? BOOLEAN_TEXTS.get(value.trim().toLowerCase()) : undefined;
		if (read !== undefined) return read;
		throw this.fail(field, value);
	}

	private toNumber(field: Field, value: unknown): number {
		const { minValue, maxValue, numberPrecision } = field.property.typeOptions ?? {};
		let number: number | undefined;
		if (typeof value === 'number') number = value;
		else if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) number = Number(value);
		if (
			number === undefined ||
			!Number.isFinite(number) ||
			(!numberPrecision && !Number.isInteger(number)) ||
			(typeof minValue === 'number' && number < minValue) ||
			(typeof maxValue === 'number' && number > maxValue)
		) {
			throw this.fail(field, value);
		}
		return number;
	}

	private toText(field: Field, value: unknown): string {
		if (typeof value === 'string') return value;
		if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') {
			return String(value);
		}
		throw this.fail(field, value);
	}

	/** An ISO 8601 text as given (trimmed), or a Date or DateTime written as one. */
	private toDate(field: Field, value: unknown): string {
		if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
		if (isLuxonDateTime(value) && value.isValid) {
			const text = value.toISO();
			if (text) return text;
		}
		if (typeof value === 'string' && isIsoDate(value.trim())) return value.trim();
		throw this.fail(field, value);
	}

	private optionValues(field: Field): unknown[] {
		return ((field.property.options ?? []) as Array<{ value?: unknown }>).map(
			(option) => option.value,
		);
	}

	private toOption(field: Field, value: unknown): string | number | boolean {
		// Options loaded from the API have no list here: their values are record IDs.
		if (field.property.typeOptions?.loadOptionsMethod) return this.toId(field, value);
		const text = typeof value === 'string' ? value.trim() : value;
		const found = this.optionValues(field).find((option) => option === text);
		if (found === undefined) throw this.fail(field, value);
		return found as string | number | boolean;
	}

	private toOptionList(field: Field, value: unknown, required: boolean): string[] | undefined {
		const entries =
			typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
		if (!entries) throw this.fail(field, value);
		const values = this.optionValues(field);
		const chosen: string[] = [];
		for (const entry of entries) {
			const text = typeof entry === 'string' ? entry.trim() : entry;
			if (text === '') continue;
			if (typeof text !== 'string' || !values.includes(text)) throw this.fail(field, value);
			if (!chosen.includes(text)) chosen.push(text);
		}
		if (!chosen.length) {
			if (required) throw this.missing(field);
			return undefined;
		}
		return chosen;
	}

	private toJson(field: Field, value: unknown): unknown {
		if (Array.isArray(value) || isPlainObject(value)) return value;
		if (typeof value !== 'string') throw this.fail(field, value);
		try {
			return JSON.parse(value);
		} catch (error) {
			throw this.fail(field, value, `valid JSON (${(error as Error).message})`);
		}
	}

	/** A collection's set options, or a fixed collection's entries, each checked by its type. */
	private toCollection(field: Field, value: unknown, lists: string[]): IDataObject {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			throw this.fail(field, value, 'a collection of fields');
		}
		const { property } = field;
		const result: IDataObject = {};
		const readEntry = (entry: unknown, members: INodeProperties[]) => {
			if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
				throw this.fail(field, entry, 'a collection of fields');
			}
			const checked: IDataObject = {};
			for (const [name, raw] of Object.entries(entry)) {
				const member = members.find((candidate) => candidate.name === name);
				if (!member) continue; // left over from another version of the node: never sent
				const memberField = { property: member, parent: property };
				const read = lists.includes(name)
					? this.textList(memberField, raw)
					: this.check(memberField, raw, false);
				const isEmptyList = Array.isArray(read) && read.length === 0 && lists.includes(name);
				if (read !== undefined && !isEmptyList)
					checked[name] = read as IDataObject[keyof IDataObject];
			}
			return checked;
		};
		if (property.type === 'collection') {
			return readEntry(value, (property.options ?? []) as INodeProperties[]);
		}
		for (const group of (property.options ?? []) as Array<{
			name: string;
			values: INodeProperties[];
		}>) {
			const raw = (value as IDataObject)[group.name];
			if (raw === undefined || raw === null) continue;
			result[group.name] = Array.isArray(raw)
				? raw.map((entry) => readEntry(entry, group.values))
				: readEntry(raw, group.values);
		}
		return result;
	}

	/** A record ID as text; numbers count (a sheet may hold an all-digit ID as one). */
	private toId(field: Field, value: unknown): string {
		const text =
			typeof value === 'string'
				? value.trim()
				: typeof value === 'number' && Number.isInteger(value)
					? String(value)
					: undefined;
		if (text === undefined) throw this.fail(field, value, `an ID of ${ID_RULE}`);
		if (!new RegExp(ID_PATTERN).test(text)) {
			throw new NodeOperationError(
				this.node,
				`Invalid ID ${JSON.stringify(text.slice(0, MAX_SHOWN))}${this.itemIndex === undefined ? '' : ` in item ${this.itemIndex}`}: an ID has ${ID_RULE}`,
				{
					itemIndex: this.itemIndex,
					description: `Correct "${field.property.displayName}": pick the record from the list, paste its 12-character ID, or paste its dashboard URL.`,
				},
			);
		}
		return text;
	}

	/** The id a resource locator points at, whichever mode it is in. */
	private toRecordId(field: Field, value: unknown): string {
		// A locator turned into one expression as a whole gives the ID itself.
		if (typeof value !== 'object' || value === null || Array.isArray(value)) {
			return this.toId(field, value);
		}
		const { mode, value: given } = value as { mode?: unknown; value?: unknown };
		if (isBlank(given)) throw this.missing(field);
		const modeSpec = field.property.modes?.find((candidate) => candidate.name === mode);
		if (!modeSpec) throw this.fail(field, mode, 'a mode of From List, By ID or By URL');
		const extract = modeSpec.extractValue;
		if (extract?.type !== 'regex') return this.toId(field, given);
		if (typeof given !== 'string') {
			throw this.fail(field, given, "the record's dashboard URL as text");
		}
		const match = new RegExp(extract.regex).exec(given.trim());
		if (!match) {
			throw this.fail(field, given, `the record's dashboard URL, ending in /<ID> (${ID_RULE})`);
		}
		return this.toId(field, match[1] ?? match[0]);
	}

	/** A top-level parameter as n8n resolved it, unchecked: for readers with rules of their own. */
	raw(name: string): unknown {
		return this.source.get(name, this.property(name).default);
	}

	/** A top-level parameter, checked by its declared type (undefined when empty and optional). */
	value(name: string, { required, lists }: { required?: boolean; lists?: string[] } = {}): unknown {
		const property = this.property(name);
		const raw = this.source.get(name, property.default);
		const read = this.check({ property }, raw, required ?? Boolean(property.required), lists);
		if (read !== undefined) return read;
		// Empty means "not set": the declared default, when it is a value of the field's type (a
		// JSON field's default is an example, never sent for an empty value).
		return isBlank(property.default) ||
			['collection', 'fixedCollection', 'resourceLocator', 'json'].includes(property.type)
			? read
			: this.check({ property }, property.default, false);
	}

	boolean(name: string): boolean {
		return Boolean(this.value(name));
	}

	number(name: string): number | undefined {
		return this.value(name) as number | undefined;
	}

	/** Text ('' when empty and optional). */
	string(name: string, options?: { required?: boolean }): string {
		return (this.value(name, options) as string | undefined) ?? '';
	}

	option(name: string): string {
		return String(this.value(name) ?? '');
	}

	optionList(name: string, options?: { required?: boolean }): string[] {
		return (this.value(name, options) as string[] | undefined) ?? [];
	}

	/**
	 * A collection's options that are set, each read by its type; `lists` names its text options
	 * that take a comma-separated text or a list (tags, IDs), read as a list of texts.
	 */
	collection(name: string, lists?: string[]): IDataObject {
		return (this.value(name, { lists }) as IDataObject | undefined) ?? {};
	}

	recordId(name: string): string {
		return this.value(name, { required: true }) as string;
	}

	/** A JSON object (a text of one, or the object itself); `{}` when empty. */
	jsonObject(name: string): IDataObject {
		return this.toJsonObject({ property: this.property(name) }, this.value(name));
	}

	/** A JSON object from a json field inside a collection. */
	jsonObjectIn(collection: string, name: string, value: unknown): IDataObject {
		const parent = this.property(collection);
		const property = ((parent.options ?? []) as INodeProperties[]).find(
			(option) => option.name === name,
		);
		if (!property) throw new Error(`"${name}" is not an option of "${collection}"`);
		return this.toJsonObject({ property, parent }, value);
	}

	private toJsonObject(field: Field, value: unknown): IDataObject {
		if (value === undefined) return {};
		if (!isPlainObject(value)) {
			throw this.fail(field, value, 'a JSON object, e.g. {"key": "value"}');
		}
		return value as IDataObject;
	}

	/**
	 * A comma-separated text field that also takes a list from an expression (tags, IDs): its
	 * entries, trimmed, empty ones left out. Each entry follows the text rules.
	 */
	private textList(field: Field, value: unknown): string[] {
		if (isBlank(value)) return [];
		const entries = Array.isArray(value) ? value : [this.toText(field, value)];
		return entries
			.flatMap((entry) => (Array.isArray(value) ? [this.toText(field, entry)] : entry.split(',')))
			.map((entry) => entry.trim())
			.filter(Boolean);
	}
}

/** A node context without items: a trigger's hooks, deliveries and polls. */
interface NodeContext {
	getNode(): INode;
	getNodeParameter(name: string, fallback: unknown): unknown;
}

/** The reader of a trigger's parameters, whose errors belong to no item. */
export function nodeParameters(ctx: NodeContext, properties: INodeProperties[]): ParameterReader {
	return new ParameterReader(
		{ node: ctx.getNode(), get: (name, fallback) => ctx.getNodeParameter(name, fallback) },
		properties,
	);
}
