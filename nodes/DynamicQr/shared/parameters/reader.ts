import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { FieldChecker, type Field } from './fieldChecker';
import { isBlank, isPlainObject } from './values';

/**
 * THE reader of node parameters. Expressions can put any value in any field, so each is read by its
 * declared type (README, "Values from expressions"; empty means "not set"); a value that does not
 * fit fails the item before anything is sent. n8n's own helpers fail without what arrived or the
 * fix, and read texts as booleans and numbers by other rules.
 */
export class ParameterReader extends FieldChecker {
	/** A top-level parameter's declaration (the first: a field declared twice has one type). */
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

	private readonly resolved = new Map<string, unknown>();

	/** A top-level parameter as n8n resolved it, asked once per reader; unchecked (own rules). */
	raw = (name: string) => {
		const { resolved, source } = this;
		if (!resolved.has(name)) resolved.set(name, source.get(name, this.property(name).default));
		return resolved.get(name);
	};

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
	string = (name: string, options?: { required?: boolean }) =>
		(this.value(name, options) as string | undefined) ?? '';
	option = (name: string) => String(this.value(name) ?? '');
	optionList = (name: string, options?: { required?: boolean }) =>
		(this.value(name, options) as string[] | undefined) ?? [];
	recordId = (name: string) => this.value(name, { required: true }) as string;

	/** A collection's set options by type; `lists` names text options read as lists (tags, IDs). */
	collection = (name: string, lists?: string[]) =>
		(this.value(name, { lists }) as IDataObject | undefined) ?? {};

	/** A text field that also takes a list (IDs); a required one with no entry is missing. */
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

/** A trigger's reader (its hooks, deliveries, polls): its errors belong to no item. */
export const nodeParameters = (
	ctx: { getNode(): INode; getNodeParameter(name: string, fallback: unknown): unknown },
	properties: INodeProperties[],
) =>
	new ParameterReader(
		{ node: ctx.getNode(), get: (name, fallback) => ctx.getNodeParameter(name, fallback) },
		properties,
	);
