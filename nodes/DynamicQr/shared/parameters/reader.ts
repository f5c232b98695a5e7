import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { FieldChecker, type Field, type ParameterSource } from './fieldChecker';
import { isBlank, isPlainObject } from './values';

/**
 * THE reader of node parameters. Expressions over the data (a sheet, a form, an AI agent) can put
 * any JavaScript value in any field, so each is read by its declared type, and a value that does
 * not fit fails the item before anything is sent, naming the field, the item, what arrived and
 * what is expected. What each type takes: the README's "Values from expressions"; empty
 * (undefined, null, blank text) means "not set". Not n8n's own helpers (`getNodeParameter` with
 * `extractValue` or `ensureType`, `validateFieldType`): they fail in their own words, without what
 * arrived or the fix, read texts as booleans and numbers by other rules than the README's, and a
 * locator turned into one expression as a whole never reaches `extractValue`.
 */
export class ParameterReader extends FieldChecker {
	constructor(
		source: ParameterSource,
		private readonly properties: INodeProperties[],
	) {
		super(source);
	}

	/**
	 * The declared property of a top-level parameter. A field may be declared twice under one name
	 * (shown in different cases); both copies have the same type, so the first one describes it.
	 */
	property(name: string): INodeProperties {
		const property = this.properties.find((candidate) => candidate.name === name);
		if (!property) throw new Error(`The parameter "${name}" is not part of this operation`);
		return property;
	}

	/** An option of a collection, as a field for errors that name it (and the collection). */
	optionField(collection: string, name: string): Field {
		const parent = this.property(collection);
		const options = (parent.options ?? []) as INodeProperties[];
		const property = options.find((option) => option.name === name);
		if (!property) throw new Error(`"${name}" is not an option of "${collection}"`);
		return { property, parent };
	}

	/** A top-level parameter as n8n resolved it, unchecked: for readers with rules of their own. */
	raw = (name: string) => this.source.get(name, this.property(name).default);

	/** A top-level parameter, checked by its declared type (undefined when empty and optional). */
	value(name: string, { required, lists }: { required?: boolean; lists?: string[] } = {}): unknown {
		const property = this.property(name);
		const isRequired = required ?? Boolean(property.required);
		const read = this.check({ property }, this.raw(name), isRequired, lists);
		if (read !== undefined) return read;
		// Empty means "not set": the declared default, when it is a value of the field's type (a
		// JSON field's default is an example, never sent for an empty value).
		return isBlank(property.default) ||
			['collection', 'fixedCollection', 'resourceLocator', 'json'].includes(property.type)
			? read
			: this.check({ property }, property.default, false);
	}

	boolean = (name: string) => Boolean(this.value(name));
	number = (name: string) => this.value(name) as number | undefined;
	/** Text ('' when empty and optional). */
	string = (name: string, options?: { required?: boolean }) =>
		(this.value(name, options) as string | undefined) ?? '';
	option = (name: string) => String(this.value(name) ?? '');
	optionList = (name: string, options?: { required?: boolean }) =>
		(this.value(name, options) as string[] | undefined) ?? [];
	recordId = (name: string) => this.value(name, { required: true }) as string;

	/**
	 * A collection's options that are set, each read by its type; `lists` names its text options
	 * that take a comma-separated text or a list (tags, IDs), read as a list of texts.
	 */
	collection = (name: string, lists?: string[]) =>
		(this.value(name, { lists }) as IDataObject | undefined) ?? {};

	/**
	 * A text field that also takes a list from an expression (IDs): its entries, trimmed, empty
	 * ones left out; a required field with no entry is missing.
	 */
	stringList(name: string, { required }: { required?: boolean } = {}): string[] {
		const property = this.property(name);
		const list = this.textList({ property }, this.raw(name));
		if (!list.length && (required ?? Boolean(property.required))) throw this.missing({ property });
		return list;
	}

	/** A JSON object (a text of one, or the object itself); `{}` when empty. */
	jsonObject = (name: string) =>
		this.toJsonObject({ property: this.property(name) }, this.value(name));
	jsonObjectIn = (collection: string, name: string, value: unknown) =>
		this.toJsonObject(this.optionField(collection, name), value);

	private toJsonObject(field: Field, value: unknown): IDataObject {
		if (value === undefined) return {};
		if (!isPlainObject(value))
			throw this.fail(field, value, 'a JSON object, e.g. {"key": "value"}');
		return value;
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
