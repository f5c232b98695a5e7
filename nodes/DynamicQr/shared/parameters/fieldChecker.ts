import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_RULE, isObject } from '../../api';
import { describeValue, isBlank, isPlainObject, MAX_SHOWN, READERS, readText } from './values';

export interface ParameterSource {
	node: INode;
	/** The parameter's value as n8n resolved it; `fallback` when the node has none stored. */
	get(name: string, fallback: unknown): unknown;
	itemIndex?: number; // set for the action node, whose errors belong to an item
}

/** A field's description, and the collection it sits in. */
export type Field = { property: INodeProperties; parent?: INodeProperties };

/** Checks a value by its field's declared type; its errors name field, item, value, expectation. */
export class FieldChecker {
	readonly node = this.source.node;
	readonly itemIndex = this.source.itemIndex;
	/** " in item 2", or nothing for a trigger. */
	private readonly inItem = this.itemIndex === undefined ? '' : ` in item ${this.itemIndex}`;

	constructor(
		protected readonly source: ParameterSource,
		protected readonly properties: INodeProperties[],
	) {}

	private error = (message: string, description: string) =>
		new NodeOperationError(this.node, message, { itemIndex: this.itemIndex, description });

	/** "Limit" in item 0; "Since" (in Filters) in item 2. */
	private where = ({ property, parent }: Field) =>
		`"${property.displayName}"${parent ? ` (in ${parent.displayName})` : ''}${this.inItem}`;

	/** The error every reader throws: the field, the item, what arrived and what is expected. */
	fail(field: Field, value: unknown, expectation = expected(field.property)): NodeOperationError {
		const got = describeValue(value, Boolean(field.property.typeOptions?.password));
		const forItem =
			this.itemIndex === undefined ? '' : ' for this item (or the data its expression reads)';
		return this.error(
			`Invalid ${this.where(field)}: got ${got}, expected ${expectation}`,
			`Correct "${field.property.displayName}"${forItem}; nothing was sent to the API.`,
		);
	}

	protected missing = (field: Field) =>
		this.error(
			`Missing ${this.where(field)}: it is required`,
			`Fill in "${field.property.displayName}", or check that its expression finds a value in the data; nothing was sent to the API.`,
		);

	/** A value checked against its field's declared type; undefined when empty and optional. */
	protected check(field: Field, value: unknown, required: boolean, lists?: string[]): unknown {
		const { property } = field;
		// Empty for every type; an empty list is empty for multiOptions only (toOptionList).
		if (isBlank(value) && required) throw this.missing(field);
		if (isBlank(value)) return undefined;
		switch (property.type) {
			case 'options': {
				// Options loaded from the API have no list here: their values are record IDs.
				if (property.typeOptions?.loadOptionsMethod) return this.toId(field, value);
				const text = typeof value === 'string' ? value.trim() : value;
				return this.fitting(field, value, optionValues(property).includes(text) ? text : undefined);
			}
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
				return this.fitting(field, value, (READERS[property.type] ?? readText)(value, property));
		}
	}

	private fitting<T>(field: Field, value: unknown, read: T | undefined): T {
		if (read === undefined) throw this.fail(field, value);
		return read;
	}

	private toOptionList(field: Field, value: unknown, required: boolean): string[] | undefined {
		const entries =
			typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
		if (!entries) throw this.fail(field, value);
		const values = optionValues(field.property);
		const chosen: string[] = [];
		for (const entry of entries) {
			const text = typeof entry === 'string' ? entry.trim() : entry;
			if (text === '') continue;
			if (typeof text !== 'string' || !values.includes(text)) throw this.fail(field, value);
			if (!chosen.includes(text)) chosen.push(text);
		}
		if (!chosen.length && required) throw this.missing(field);
		return chosen.length ? chosen : undefined;
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
		const readEntry = (entry: unknown, members: INodeProperties[]) => {
			if (!isObject(entry)) throw this.fail(field, entry, 'a collection of fields');
			const checked: IDataObject = {};
			for (const [name, raw] of Object.entries(entry)) {
				const member = members.find((candidate) => candidate.name === name);
				if (!member) continue; // left over from another version of the node: never sent
				const memberField = { property: member, parent: field.property };
				const list = lists.includes(name) && this.textList(memberField, raw);
				const read = list ? (list.length ? list : undefined) : this.check(memberField, raw, false);
				if (read !== undefined) checked[name] = read as IDataObject[string];
			}
			return checked;
		};
		const { type, options = [] } = field.property;
		if (type === 'collection') return readEntry(value, options as INodeProperties[]);
		if (!isObject(value)) throw this.fail(field, value, 'a collection of fields');
		const result: IDataObject = {};
		for (const group of options as Array<{ name: string; values: INodeProperties[] }>) {
			const raw = value[group.name];
			if (raw === undefined || raw === null) continue;
			result[group.name] = Array.isArray(raw)
				? raw.map((entry) => readEntry(entry, group.values))
				: readEntry(raw, group.values);
		}
		return result;
	}

	/** A record ID: text, or a whole number (a sheet may hold an all-digit ID as one). */
	private toId(field: Field, value: unknown): string {
		const text =
			typeof value === 'string' ? value.trim() : Number.isInteger(value) && String(value);
		if (typeof text !== 'string') throw this.fail(field, value, `an ID of ${ID_RULE}`);
		if (new RegExp(ID_PATTERN).test(text)) return text;
		throw this.error(
			`Invalid ID ${JSON.stringify(text.slice(0, MAX_SHOWN))}${this.inItem}: an ID has ${ID_RULE}`,
			`Correct "${field.property.displayName}": pick the record from the list, paste its 12-character ID, or paste its dashboard URL.`,
		);
	}

	/** The id a resource locator points at, whichever mode it is in. */
	private toRecordId(field: Field, value: unknown): string {
		// A locator turned into one expression as a whole gives the ID itself.
		if (!isObject(value)) return this.toId(field, value);
		const { mode, value: given } = value;
		if (isBlank(given)) throw this.missing(field);
		const modeSpec = field.property.modes?.find((candidate) => candidate.name === mode);
		if (!modeSpec) throw this.fail(field, mode, 'a mode of From List, By ID or By URL');
		if (modeSpec.extractValue?.type !== 'regex') return this.toId(field, given);
		if (typeof given !== 'string')
			throw this.fail(field, given, "the record's dashboard URL as text");
		const match = new RegExp(modeSpec.extractValue.regex).exec(given.trim());
		if (!match)
			throw this.fail(field, given, `the record's dashboard URL, ending in /<ID> (${ID_RULE})`);
		return this.toId(field, match[1] ?? match[0]);
	}

	/** A comma-separated text or a list (tags, IDs): entries trimmed, empty ones left out. */
	protected textList(field: Field, value: unknown): string[] {
		if (isBlank(value)) return [];
		const entries = Array.isArray(value)
			? value.map((entry) => this.fitting(field, entry, readText(entry)))
			: this.fitting(field, value, readText(value)).split(',');
		return entries.map((entry) => entry.trim()).filter(Boolean);
	}
}

const optionValues = (property: INodeProperties): unknown[] =>
	((property.options ?? []) as Array<{ value?: unknown }>).map(({ value }) => value);

/** What a field of each type takes, in words, for the error; others take text. */
const EXPECTED: Record<string, string> = {
	boolean: 'true or false (the texts "true" and "false", or 1 and 0, count too)',
	dateTime:
		'an ISO 8601 date or date-time with a real calendar date, e.g. 2030-05-01 or 2030-05-01T18:00:00Z',
	json: 'a JSON object, or a text holding one',
	resourceLocator: `an ID of ${ID_RULE}, or (By URL) the record's dashboard URL`,
};

function expected(property: INodeProperties): string {
	const { type, typeOptions = {} } = property;
	const values = optionValues(property).map(String).join(', ');
	if (type === 'options' && !typeOptions.loadOptionsMethod) return `one of: ${values}`;
	if (type === 'options') return `an ID of ${ID_RULE}`;
	if (type === 'multiOptions') return `a list of: ${values}`;
	if (type !== 'number') return EXPECTED[type] ?? 'text (or a number, written out)';
	const { minValue: min, maxValue: max, numberPrecision } = typeOptions;
	const kind = numberPrecision ? 'a number' : 'a whole number';
	if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
	if (min !== undefined) return `${kind} of at least ${min}`;
	return max !== undefined ? `${kind} of at most ${max}` : kind;
}
