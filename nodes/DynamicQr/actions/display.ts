import type { INodeProperties } from 'n8n-workflow';

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
