import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Shows an operation's properties only for its resource and operation(s), checked first.
 *
 * n8n counts a property as shown as soon as the first display key it checks holds an
 * expression, and checks the keys in the order they are written. Resource and operation never
 * hold an expression, so checking them first keeps a field of another operation hidden when,
 * say, Type is an expression. (n8n's own updateDisplayOptions puts them last.)
 */
export function showOnlyFor(
	resource: string,
	operation: string | string[],
	properties: INodeProperties[],
): INodeProperties[] {
	const operations = Array.isArray(operation) ? operation : [operation];
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { resource: [resource], operation: operations, ...property.displayOptions?.show },
		},
	}));
}

/**
 * A field required when the choice `key` is `value` (a payload field of one Type, From and To of
 * a custom period), declared twice under one name so that n8n's pre-run check and the editor
 * agree for a fixed choice and for an expression:
 * - the required copy is hidden for any other value, an expression included (n8n never reads an
 *   expression in `hide`), so it marks the field required only for a fixed choice;
 * - the optional copy is shown only while the choice is an expression (n8n counts a field whose
 *   `show` key holds an expression as shown), so what was entered is kept and each item with that
 *   value sends it; the node checks it item by item.
 * `show` holds what else both copies need to be shown.
 */
export function requiredWhen(
	key: string,
	value: string,
	property: INodeProperties,
	show: IDisplayOptions['show'] = {},
): INodeProperties[] {
	return [
		{
			...property,
			required: true,
			displayOptions: { show, hide: { [key]: [{ _cnd: { not: value } }] } },
		},
		{
			...property,
			displayOptions: { show: { ...show, [key]: [value] }, hide: { [key]: [value] } },
		},
	];
}
